/* batched attention scores S[b][h][i][j] = scale * sum_k Q[b][h][i][k] * K[b][h][j][k] */
void attn(int B, int H, int T, int D, float scale, float S[B][H][T][T], const float Q[B][H][T][D],
          const float K[B][H][T][D])
{
  float s;
#pragma scop
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++)
      for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) {
          s = 0.0f;
          for (int k = 0; k < D; k++)
            s += Q[b][h][i][k] * K[b][h][j][k];
          S[b][h][i][j] = s * scale;
        }
#pragma endscop
}
