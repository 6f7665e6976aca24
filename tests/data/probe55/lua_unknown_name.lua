-- CUDA-CHiLL style script for the leap-frog wave update (statement 0) and the level rotation
init("wave2d.c", "wave2d", 0)
dofile("cudaize.lua")
TI = 32
TJ = 8
tile_by_index(0, {"j","i"}, {TJ,TI}, {l1_control="jj", l2_control="ii"}, {"n","jj","ii","j","i"})
cudaize(0, "wave_kernel", {u_prev=ny*nx, u=ny*nx, u_next=ny*nx}, {block={"ii","jj"}, thread={"i","j"}})
copy_to_shared("tx", "u", -16)
tile_by_index(1, {"i"}, {64}, {l1_control="iii"}, {"n","j","iii","i"})
cudaize(1, "rotate_kernel", {u_prev=ny*nx, u=ny*nx, u_next=ny*nx}, {block={"iii","j"}, thread={"i"}})
