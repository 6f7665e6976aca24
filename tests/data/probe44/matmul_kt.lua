-- CUDA-CHiLL script in the style of cudaize examples: block 16x16, tile_size_y = 4 rows per thread
init("matmul_kt.c", "matmul_kernel", 0)
dofile("cudaize.lua")
WIDTH = 4096
TI = 64
TJ = 16
TK = 16
tile_by_index(1, {"y","x"}, {TI,TJ}, {l1_control="ii", l2_control="jj"}, {"ii","jj","y","x","k"})
tile_by_index(1, {"k"}, {TK}, {l1_control="kk"}, {"ii","jj","kk","y","x","k"})
tile_by_index(1, {"y"}, {4}, {l1_control="ty"}, {"ii","jj","kk","ty","x","y","k"})
cudaize(1, "matmul_GPU", {A=WIDTH*WIDTH, B=WIDTH*WIDTH, C=WIDTH*WIDTH}, {block={"jj","ii"}, thread={"x","ty"}})
copy_to_shared("kk", "A", -16)
copy_to_shared("kk", "B", -16)
unroll(1, "y", 4)
