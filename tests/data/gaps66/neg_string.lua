init("mm_regs.c", "mm", 0)
x = -"16"
tile(0,"i",-x)
