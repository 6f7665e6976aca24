init("tmv.c","normalMV",0)
N=1024
TI = (N ~= 1024) and 8 or 32
tile_by_index({"i"}, {TI}, {l1_control="ii"}, {"ii", "i", "j"})
