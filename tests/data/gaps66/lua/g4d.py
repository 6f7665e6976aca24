from chill import *
read_IR("tmv.c", "normalMV")
TI, TJ = 32, 64
tile_by_index(["i","j"], [TI, TJ], {'l1_control': "ii", 'l2_control': "k"}, ["ii", "k", "i", "j"], None)
