init("tmv.c","normalMV",0)
N=1024
tile_by_index({"i"}, {2^5}, {l1_control="ii"}, {"ii", "i", "j"})
cudaize("tmv_GPU", {a=N, b=N, c=N*N},{block={"ii"}, thread={"i"}})
