/* COGENT / TAL-SH style reference for sd_t_d1_1 (written from memory of kimjsung/COGENT's
 * CPU reference drivers: #define'd extents, 6-D / 4-D row-major arrays) */
#define SIZE_IDX_H3 16
#define SIZE_IDX_H2 16
#define SIZE_IDX_H1 16
#define SIZE_IDX_P6 16
#define SIZE_IDX_P5 16
#define SIZE_IDX_P4 16
#define SIZE_IDX_H7 16

double t3[SIZE_IDX_P4][SIZE_IDX_P5][SIZE_IDX_P6][SIZE_IDX_H1][SIZE_IDX_H2][SIZE_IDX_H3];
double t2[SIZE_IDX_H1][SIZE_IDX_P5][SIZE_IDX_P4][SIZE_IDX_H7];
double v2[SIZE_IDX_H7][SIZE_IDX_P6][SIZE_IDX_H2][SIZE_IDX_H3];

void sd_t_d1_1_cpu(void)
{
    int idx_p4, idx_p5, idx_p6, idx_h1, idx_h2, idx_h3, idx_h7;
#pragma scop
    for (idx_p4 = 0; idx_p4 < SIZE_IDX_P4; idx_p4++)
    for (idx_p5 = 0; idx_p5 < SIZE_IDX_P5; idx_p5++)
    for (idx_p6 = 0; idx_p6 < SIZE_IDX_P6; idx_p6++)
    for (idx_h1 = 0; idx_h1 < SIZE_IDX_H1; idx_h1++)
    for (idx_h2 = 0; idx_h2 < SIZE_IDX_H2; idx_h2++)
    for (idx_h3 = 0; idx_h3 < SIZE_IDX_H3; idx_h3++)
    for (idx_h7 = 0; idx_h7 < SIZE_IDX_H7; idx_h7++)
        t3[idx_p4][idx_p5][idx_p6][idx_h1][idx_h2][idx_h3] -=
            t2[idx_h1][idx_p5][idx_p4][idx_h7] * v2[idx_h7][idx_p6][idx_h2][idx_h3];
#pragma endscop
}
