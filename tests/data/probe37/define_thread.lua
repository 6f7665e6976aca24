init("define_thread.c","g",0)
dofile("cudaize.lua")
NELT=1000
K=10
cudaize(0,"g_GPU",{u=NELT*K,w=NELT*K},{block={"e"},thread={"k"}},{})
