from chill import *
source('bicg.c')
procedure('bicg')
loop(1)
distribute([2],"i")
permute(1, [2, 1])
T = 11
tile(1, 2, T/2)
unroll(2, 2, T/4)
print_code()
