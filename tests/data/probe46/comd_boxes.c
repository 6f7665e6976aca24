#define MAXATOMS 64
void f(int nLocalBoxes, double (*r)[3], double *U)
{
   for (int iBox=0; iBox<nLocalBoxes; iBox++)
         for (int iOff=MAXATOMS*iBox; iOff<(iBox*MAXATOMS+MAXATOMS); iOff++)
             U[iOff] += r[iOff][0];
}
