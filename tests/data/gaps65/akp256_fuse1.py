from chill import *
source('AKp256hack.c')
procedure('foo')
loop(0)
fuse([0,1], 1)
