/* bondhugula/pluto test/fdtd-apml.c (kernel verbatim; declarations as PolyBench 3.2 fdtd-apml has them) */
#define CZ 32
#define CYM 32
#define CXM 32

void fdtd_apml(int Cz, int Cym, int Cxm, double mui, double ch,
               double Ax[CZ+1][CXM+1], double Ry[CZ+1][CYM+1],
               double clf[CZ+1][CYM+1], double tmp[CZ+1][CYM+1],
               double Bza[CZ+1][CYM+1][CXM+1], double Ex[CZ+1][CYM+1][CXM+1],
               double Ey[CZ+1][CYM+1][CXM+1], double Hz[CZ+1][CYM+1][CXM+1],
               double czm[CZ+1], double czp[CZ+1], double cxmh[CXM+1], double cxph[CXM+1],
               double cymh[CYM+1], double cyph[CYM+1])
{
  int iz, iy, ix;
#pragma scop
/* pluto start (Cz,Cym,Cxm) */
for(iz=0; iz<Cz; iz++) {
    for(iy=0; iy<Cym; iy++) {
        for(ix=0; ix<Cxm; ix++) {
            clf[iz][iy]=Ex[iz][iy][ix]-Ex[iz][iy+1][ix]+Ey[iz][iy][ix+1]-Ey[iz][iy][ix];
            tmp[iz][iy]=(cymh[iy]/cyph[iy])*Bza[iz][iy][ix]-(ch/cyph[iy])*clf[iz][iy];
            Hz[iz][iy][ix]=(cxmh[ix]/cxph[ix])*Hz[iz][iy][ix]
                           +(mui*czp[iz]/cxph[ix])*tmp[iz][iy]
                           -(mui*czm[iz]/cxph[ix])*Bza[iz][iy][ix];
            Bza[iz][iy][ix]=tmp[iz][iy];
        }
        clf[iz][iy]=Ex[iz][iy][Cxm]-Ex[iz][iy+1][Cxm]+Ry[iz][iy]-Ey[iz][iy][Cxm];
        tmp[iz][iy]=(cymh[iy]/cyph[iy])*Bza[iz][iy][Cxm]-(ch/cyph[iy])*clf[iz][iy];
        Hz[iz][iy][Cxm]=(cxmh[Cxm]/cxph[Cxm])*Hz[iz][iy][Cxm]
                        +(mui*czp[iz]/cxph[Cxm])*tmp[iz][iy]
                        -(mui*czm[iz]/cxph[Cxm])*Bza[iz][iy][Cxm];
        Bza[iz][iy][Cxm]=tmp[iz][iy];
    }
    for(ix=0; ix<Cxm; ix++) {
        clf[iz][iy]=Ex[iz][Cym][ix]-Ax[iz][ix]+Ey[iz][Cym][ix+1]-Ey[iz][Cym][ix];
        tmp[iz][iy]=(cymh[Cym]/cyph[iy])*Bza[iz][iy][ix]-(ch/cyph[iy])*clf[iz][iy];
        Hz[iz][Cym][ix]=(cxmh[ix]/cxph[ix])*Hz[iz][Cym][ix]
                        +(mui*czp[iz]/cxph[ix])*tmp[iz][iy]
                        -(mui*czm[iz]/cxph[ix])*Bza[iz][Cym][ix];
        Bza[iz][Cym][ix]=tmp[iz][iy];
    }
    clf[iz][iy]=Ex[iz][Cym][Cxm]-Ax[iz][Cxm]+Ry[iz][Cym]-Ey[iz][Cym][Cxm];
    tmp[iz][iy]=(cymh[Cym]/cyph[Cym])*Bza[iz][Cym][Cxm]-(ch/cyph[Cym])*clf[iz][iy];
    Hz[iz][Cym][Cxm]=(cxmh[Cxm]/cxph[Cxm])*Hz[iz][Cym][Cxm]
                     +(mui*czp[iz]/cxph[Cxm])*tmp[iz][iy]
                     -(mui*czm[iz]/cxph[Cxm])*Bza[iz][Cym][Cxm];
    Bza[iz][Cym][Cxm]=tmp[iz][iy];
}
/* pluto end */
#pragma endscop
}
