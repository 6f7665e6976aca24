// Excerpt of miniAMR ref/block.h (Mantevo/miniAMR)
typedef long long num_sz;

typedef struct {
   num_sz number;
   num_sz num_prime;
   int level;
   int refine;
   int new_proc;
   num_sz parent;
   int parent_node;
   int child_number;
   int nei_refine[6];
   int nei_level[6];  /* 0 to 5 = W, E, S, N, D, U; use -2 for boundary */
   int nei[6][2][2];  /* negative if off processor (-1 - proc) */
   int cen[3];
   double ****array;
} block;

int x_block_size, y_block_size, z_block_size;
int num_vars;
int mat;
double *alpha, beta;
