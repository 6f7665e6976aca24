/* DENISE Black-Edition src/update_v_ssg.c (T. Bohlen): FDORDER = 4 case of update_v_hc
 * followed by the absorbing-boundary damping loop (FW > 0). Copied as written; the switch,
 * MPI timing and printing removed. */
extern float DT, DH;

void update_v_o4(int nx1, int nx2, int ny1, int ny2,
	float **  vx, float ** vy, float ** sxx, float ** syy,
	float ** sxy, float  **rip, float **rjp, float ** absorb_coeff,
	float *hc){

	int i, j;
	float dtdh;

	dtdh = DT*DT/DH;

		for (j=ny1;j<=ny2;j++){
			for (i=nx1;i<=nx2;i++){
				vx[j][i]+= (  hc[1]*(sxx[j][i+1]-sxx[j][i]  )
					    + hc[2]*(sxx[j][i+2]-sxx[j][i-1])
					    + hc[1]*(sxy[j][i]  -sxy[j-1][i])
					    + hc[2]*(sxy[j+1][i]-sxy[j-2][i])
					   )*dtdh*rip[j][i];
						
				vy[j][i]+= (  hc[1]*(syy[j+1][i]-syy[j][i]  )
					    + hc[2]*(syy[j+2][i]-syy[j-1][i])
					    + hc[1]*(sxy[j][i]  -sxy[j][i-1])
					    + hc[2]*(sxy[j][i+1]-sxy[j][i-2])
					   )*dtdh*rjp[j][i];
			}
		}

	for (j=ny1;j<=ny2;j++){
		for (i=nx1;i<=nx2;i++){
			vx[j][i]*=absorb_coeff[j][i];
			vy[j][i]*=absorb_coeff[j][i];
			sxy[j][i]*=absorb_coeff[j][i];
			sxx[j][i]*=absorb_coeff[j][i];
			syy[j][i]*=absorb_coeff[j][i];
		
	}}
}
