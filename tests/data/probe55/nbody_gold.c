/* All-pairs N-body, CPU reference in the style of the CUDA samples' nbody computeGold /
 * bodyBodyInteraction (written from memory; the helper's accel[3] output is inlined because a
 * helper that writes through a pointer is not a pure helper). Positions are float4-packed:
 * pos[4*i + 0..2] = x, y, z, pos[4*i + 3] = mass. */
#include <math.h>

void computeGold(float *force, const float *pos, int numBodies, float softeningSquared)
{
  int i, j;
  for (i = 0; i < numBodies; i++) {
    force[i * 4 + 0] = 0;
    force[i * 4 + 1] = 0;
    force[i * 4 + 2] = 0;

    for (j = 0; j < numBodies; j++) {
      float r0 = pos[j * 4 + 0] - pos[i * 4 + 0];
      float r1 = pos[j * 4 + 1] - pos[i * 4 + 1];
      float r2 = pos[j * 4 + 2] - pos[i * 4 + 2];

      // d^2 + e^2 [6 FLOPS]
      float distSqr = r0 * r0 + r1 * r1 + r2 * r2;
      distSqr += softeningSquared;

      // invDistCube =1/distSqr^(3/2)  [4 FLOPS (2 mul, 1 sqrt, 1 inv)]
      float invDist = 1.0f / sqrtf(distSqr);
      float invDistCube = invDist * invDist * invDist;

      // s = m_j * invDistCube [1 FLOP]
      float s = pos[j * 4 + 3] * invDistCube;

      // (m_1 * r_01) / (d^2 + e^2)^(3/2)  [6 FLOPS]
      force[i * 4 + 0] += r0 * s;
      force[i * 4 + 1] += r1 * s;
      force[i * 4 + 2] += r2 * s;
    }
  }
}
