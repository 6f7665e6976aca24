#define LEN 24
static float tab[LEN];
void k(float *out)
{
#pragma scop
  for (int j = 0; j < (int)(sizeof(tab) / sizeof(tab[0])); j++)
    out[j] = tab[j] * 2.0f;
#pragma endscop
}
