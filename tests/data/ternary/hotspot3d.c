/* Rodinia hotspot3D (openmp/3D.c, computeTempCPU): each neighbour clamped at the border with ?: */
void hotspot3d(float *tIn_t, float *tOut_t, float *pIn, int nx, int ny, int nz,
               float cc, float cw, float ce, float cs, float cn, float cb, float ct, float stepDivCap, float amb_temp)
{
    int c, w, e, n, s, b, t;
    int x, y, z;
#pragma scop
    for (z = 0; z < nz; z++)
        for (y = 0; y < ny; y++)
            for (x = 0; x < nx; x++) {
                c = x + y * nx + z * nx * ny;
                w = (x == 0) ? c : c - 1;
                e = (x == nx - 1) ? c : c + 1;
                n = (y == 0) ? c : c - nx;
                s = (y == ny - 1) ? c : c + nx;
                b = (z == 0) ? c : c - nx * ny;
                t = (z == nz - 1) ? c : c + nx * ny;
                tOut_t[c] = tIn_t[c]*cc + tIn_t[n]*cn + tIn_t[s]*cs + tIn_t[e]*ce + tIn_t[w]*cw + tIn_t[t]*ct + tIn_t[b]*cb + (stepDivCap * pIn[c]) + ct*amb_temp;
            }
#pragma endscop
}
