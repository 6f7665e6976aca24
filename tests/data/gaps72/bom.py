from chill import *
source("mm.c")
procedure("mm")
loop(0)
tile(0,2,16)
