init("mm.c","mm",0)
tile(0,2,16)
