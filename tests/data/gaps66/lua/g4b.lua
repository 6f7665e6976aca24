init("tmv.c","normalMV",0)
TI=32; TJ=64
tile_by_index({"i","j"}, {TI, TJ}, {l1_control="ii", l2_control="k"}, {"ii", "k", "i", "j"})
