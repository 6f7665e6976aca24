init("tmv.c","normalMV",0)
n = 2
tile_by_index({"i"}, {32}, {l1_control="i" .. n}, {"i" .. n, "i", "j"})
cudaize("tmv_GPU", {a=1024, b=1024, c=1024*1024},{block={"i" .. 2}, thread={"i"}})
