init("tmv.c","normalMV",0)
TI=64
tile_by_index({"i"}, {TI/2}, {l1_control="ii"}, {"ii", "i", "j"})
cudaize("tmv_GPU", {a=1024, b=1024, c=1024*1024},{block={"ii"}, thread={"i"}})
