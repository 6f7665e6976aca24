from chill import *
source("mmf.c")
procedure("mmf")
loop(0)
tile(0,1,4,3)
