from chill import *
source('celt_fir.c')
destination('celt_fir_chill_out.c')
procedure('celt_fir_c')
loop(4)
original()
tile(1, "j", 8, 1)
unroll(1, "i", 2)
