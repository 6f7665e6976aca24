// miniAMR ref/pack.c pack_block value loop with the counter l written as its affine value
#include "amr_block.h"
double *send_buff, *recv_buff;

void pack_vals3(block *bp)
{
   int v, i, j, k;
   for (v = 0; v < num_vars; v++)
      for (i = 1; i <= x_block_size; i++)
         for (j = 1; j <= y_block_size; j++)
            for (k = 1; k <= z_block_size; k++)
               send_buff[49 + ((v*x_block_size + (i-1))*y_block_size + (j-1))*z_block_size + (k-1)] = bp->array[v][i][j][k];
}
