/* Kernel Tuner examples/cuda/pnpoly: point-in-polygon by crossing number, host reference
 * (pnpoly_host.cu's cn_pnpoly_reference_kernel written for one pass over all points). */
#define VERTICES 600

typedef struct { float x, y; } float2;

void cn_pnpoly_reference_kernel(int *bitmap, const float2 *points, const float2 *vertices, int n)
{
    int i, j, k;
    for (i = 0; i < n; i++) {
        int c = 0;
        float2 p = points[i];
        k = VERTICES - 1;
        for (j = 0; j < VERTICES; j++) {
            k = (j == 0) ? VERTICES - 1 : j - 1;
            float2 vj = vertices[j];
            float2 vk = vertices[k];
            float slope = (vk.x - vj.x) / (vk.y - vj.y);
            if (((vj.y > p.y) != (vk.y > p.y)) && (p.x < slope * (p.y - vj.y) + vj.x)) {
                c = !c;
            }
        }
        bitmap[i] = c;
    }
}
