from chill import *
source("mm_regs.c")
procedure("mm")
loop(0)
tile(0,1,-"16")
