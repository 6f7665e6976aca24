init("st2.c","seidel",0)
dofile("cudaize.lua")
normalize_index("i")
split(0,1,"L1 < 5")
