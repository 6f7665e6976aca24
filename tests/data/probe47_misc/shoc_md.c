/* SHOC MD's neighbour list, one column per atom (neighList[j*nAtom + i]), no softening term:
   the pair of an atom with itself divides by 0 */
void md(int nAtom, int maxNeighbors, const double posx[nAtom], const double posy[nAtom],
        const int neighList[maxNeighbors * nAtom], double fx[nAtom], double fy[nAtom])
{
  int i, j, jidx;
  double dx, dy, f;
#pragma scop
  for (i = 0; i < nAtom; i++) {
    fx[i] = 0.0; fy[i] = 0.0;
    for (j = 0; j < maxNeighbors; j++) {
      jidx = neighList[j * nAtom + i];
      dx = posx[i] - posx[jidx];
      dy = posy[i] - posy[jidx];
      f = 1.0 / (dx * dx + dy * dy);
      fx[i] += dx * f;
      fy[i] += dy * f;
    }
  }
#pragma endscop
}
