/* k-means assignment step (Rodinia kmeans find_nearest_point + euclid_dist_2 inlined into
   the point loop, as the OpenMP variants of kmeans_clustering.c do), written from memory */
#include <float.h>

void kmeans_assign(int npoints, int nclusters, int nfeatures,
                   float feature[npoints][nfeatures], float clusters[nclusters][nfeatures],
                   int membership[npoints], float *delta)
{
    int i, j, k;
    for (i = 0; i < npoints; i++) {
        float min_dist = FLT_MAX;
        int index = 0;
        /* find the cluster center id with min distance to pt */
        for (j = 0; j < nclusters; j++) {
            float dist = 0.0f;
            for (k = 0; k < nfeatures; k++)
                dist += (feature[i][k] - clusters[j][k]) *
                        (feature[i][k] - clusters[j][k]);
            if (dist < min_dist) {
                min_dist = dist;
                index    = j;
            }
        }
        /* if membership changes, increase delta by 1 */
        if (membership[i] != index) *delta += 1.0f;
        /* assign the membership to object i */
        membership[i] = index;
    }
}
