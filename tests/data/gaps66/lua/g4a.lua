init("tmv.c","normalMV",0)
local a, b = 32, 64
tile_by_index({"i","j"}, {a, b}, {l1_control="ii", l2_control="k"}, {"ii", "k", "i", "j"})
