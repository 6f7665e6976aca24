from chill import *
source("biquad_idx.c")
procedure("arm_biquad_cascade_df1_f32_idx")
loop(0)
unroll_jam(10, "stage", 2)
