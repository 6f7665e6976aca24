/* uFDTD (john-b-schneider/uFDTD) Code/Fdtd-multidimensional/updatetmz.c + fdtd-macro-tmz.h +
 * fdtd-grid1.h, 2-D branch of updateH2d / updateE2d (the 1-D branch is dropped: a branch choosing
 * between nests must be its own region). */
enum GRIDTYPE {oneDGrid, teZGrid, tmZGrid, threeDGrid};

struct Grid {
  double *hx, *chxh, *chxe;
  double *hy, *chyh, *chye;
  double *hz, *chzh, *chze;
  double *ex, *cexe, *cexh;
  double *ey, *ceye, *ceyh;
  double *ez, *ceze, *cezh;
  int sizeX, sizeY, sizeZ;
  int time, maxTime;
  int type;
  double cdtds;
};

typedef struct Grid Grid;

/* TMz grid */
#define HxG(G, MM, NN)     G->hx[(MM) * (SizeYG(G)-1) + (NN)]
#define ChxhG(G, MM, NN) G->chxh[(MM) * (SizeYG(G)-1) + (NN)]
#define ChxeG(G, MM, NN) G->chxe[(MM) * (SizeYG(G)-1) + (NN)]

#define HyG(G, MM, NN)     G->hy[(MM) * SizeYG(G) + (NN)]
#define ChyhG(G, MM, NN) G->chyh[(MM) * SizeYG(G) + (NN)]
#define ChyeG(G, MM, NN) G->chye[(MM) * SizeYG(G) + (NN)]

#define EzG(G, MM, NN)     G->ez[(MM) * SizeYG(G) + (NN)]
#define CezeG(G, MM, NN) G->ceze[(MM) * SizeYG(G) + (NN)]
#define CezhG(G, MM, NN) G->cezh[(MM) * SizeYG(G) + (NN)]

#define SizeXG(G)        G->sizeX
#define SizeYG(G)        G->sizeY
#define TypeG(G)         G->type

#define Hx(MM, NN)   HxG(g, MM, NN)
#define Chxh(MM, NN) ChxhG(g, MM, NN)
#define Chxe(MM, NN) ChxeG(g, MM, NN)

#define Hy(MM, NN)   HyG(g, MM, NN)
#define Chyh(MM, NN) ChyhG(g, MM, NN)
#define Chye(MM, NN) ChyeG(g, MM, NN)

#define Ez(MM, NN)   EzG(g, MM, NN)
#define Ceze(MM, NN) CezeG(g, MM, NN)
#define Cezh(MM, NN) CezhG(g, MM, NN)

#define SizeX        SizeXG(g)
#define SizeY        SizeYG(g)
#define Type         TypeG(g)

/* update magnetic field */
void updateH2d(Grid *g) {
  int mm, nn;

    for (mm = 0; mm < SizeX; mm++)
      for (nn = 0; nn < SizeY - 1; nn++)
	Hx(mm, nn) = Chxh(mm, nn) * Hx(mm, nn)
	  - Chxe(mm, nn) * (Ez(mm, nn + 1) - Ez(mm, nn));

    for (mm = 0; mm < SizeX - 1; mm++)
      for (nn = 0; nn < SizeY; nn++)
	Hy(mm, nn) = Chyh(mm, nn) * Hy(mm, nn)
	  + Chye(mm, nn) * (Ez(mm + 1, nn) - Ez(mm, nn));

  return;
}

/* update electric field */
void updateE2d(Grid *g) {
  int mm, nn;

    for (mm = 1; mm < SizeX - 1; mm++)
      for (nn = 1; nn < SizeY - 1; nn++)
	Ez(mm, nn) = Ceze(mm, nn) * Ez(mm, nn) +
	  Cezh(mm, nn) * ((Hy(mm, nn) - Hy(mm - 1, nn)) -
		       (Hx(mm, nn) - Hx(mm, nn - 1)));

  return;
}
