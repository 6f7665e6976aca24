#define VERTICES 600
void pnpoly_soa(int *bitmap, const float *px, const float *py, const float *vx, const float *vy, int n)
{
    int i, j;
    for (i = 0; i < n; i++) {
        int c = 0;
        for (j = 0; j < VERTICES; j++) {
            int k = (j == 0) ? VERTICES - 1 : j - 1;
            float slope = (vx[k] - vx[j]) / (vy[k] - vy[j]);
            if (((vy[j] > py[i]) != (vy[k] > py[i])) && (px[i] < slope * (py[i] - vy[j]) + vx[j]))
                c = !c;
        }
        bitmap[i] = c;
    }
}
