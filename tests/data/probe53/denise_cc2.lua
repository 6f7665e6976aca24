init("denise_v4.c","update_v_o4",0)
dofile("cudaize.lua")
tile(0,"j",8,"jj")
