init("mm_regs.c", "mm", 0)
tile_by_index({"i"},{"8"+8},{l1_control="ii"},{"ii","i","j","k"})
