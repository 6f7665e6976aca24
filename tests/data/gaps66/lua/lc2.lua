init("tmv.c","normalMV",0)
N = 1024
tile_by_index({"i"}, {32}, {l1_control="i" .. (N / 512)}, {"i" .. (N / 512), "i", "j"})
cudaize("tmv_GPU", {a=1024, b=1024, c=1024*1024},{block={"i" .. (N/512)}, thread={"i"}})
