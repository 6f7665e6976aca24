#define VERTICES 600
typedef struct { float x, y; } float2;
void cn_pnpoly_reference_kernel(int *bitmap, const float2 *points, const float2 *vertices, int n)
{
    int i, j, k;
    for (i = 0; i < n; i++) {
        int c = 0;
        float px = points[i].x, py = points[i].y;
        k = VERTICES - 1;
        for (j = 0; j < VERTICES; k = j++) {
            float vjx = vertices[j].x, vjy = vertices[j].y;
            float vkx = vertices[k].x, vky = vertices[k].y;
            float slope = (vkx - vjx) / (vky - vjy);
            if (((vjy > py) != (vky > py)) && (px < slope * (py - vjy) + vjx)) {
                c = !c;
            }
        }
        bitmap[i] = c;
    }
}
