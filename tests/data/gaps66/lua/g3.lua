init("tmv.c","normalMV",0)
t = {"ii"}
print(#t)
tile_by_index({"i"}, {32}, {l1_control="ii"}, {"ii", "i", "j"})
cudaize("tmv_GPU", {a=1024, b=1024, c=1024*1024},{block={"ii"}, thread={"i"}})
