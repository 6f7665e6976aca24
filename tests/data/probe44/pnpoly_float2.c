#define VERTICES 600
typedef struct { float x, y; } float2;
void cn_pnpoly_reference_kernel(int *bitmap, const float2 *points, const float2 *vertices, int n)
{
    int i, j;
    for (i = 0; i < n; i++) {
        int c = 0;
        float px = points[i].x, py = points[i].y;

        for (j = 0; j < VERTICES; j++) {
            int km = (j == 0) ? VERTICES - 1 : j - 1;
            float vjx = vertices[j].x, vjy = vertices[j].y;
            float vkx = vertices[km].x, vky = vertices[km].y;
            float slope = (vkx - vjx) / (vky - vjy);
            if (((vjy > py) != (vky > py)) && (px < slope * (py - vjy) + vjx)) {
                c = !c;
            }
        }
        bitmap[i] = c;
    }
}
