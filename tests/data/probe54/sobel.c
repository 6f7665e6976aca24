/* Sobel edge magnitude as image-processing C code writes it (written from memory in the style of
   the many textbook/OpenCV-C-API ports: unsigned char image, int gradients, |gx|+|gy| clamped). */
#include <stdlib.h>
#define W 64
#define H 48

void sobel(unsigned char in[H][W], unsigned char out[H][W])
{
  int x, y;
  for (y = 1; y < H - 1; y++) {
    for (x = 1; x < W - 1; x++) {
      int gx = -in[y-1][x-1] + in[y-1][x+1]
               - 2*in[y][x-1] + 2*in[y][x+1]
               - in[y+1][x-1] + in[y+1][x+1];
      int gy = -in[y-1][x-1] - 2*in[y-1][x] - in[y-1][x+1]
               + in[y+1][x-1] + 2*in[y+1][x] + in[y+1][x+1];
      int mag = abs(gx) + abs(gy);
      if (mag > 255) mag = 255;
      out[y][x] = (unsigned char)mag;
    }
  }
}
