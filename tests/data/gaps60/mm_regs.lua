init("mm_regs.c", "mm", 0)
dofile("cudaize.lua")
Ti=16
Tj=16
Tk=8
Tii=8
Tjj=4
tile_by_index({"i","j"},{Ti,Tj},{l1_control="ii",l2_control="jj"},{"ii","jj","i","j","k"})
tile_by_index({"k"},{Tk},{l1_control="kk"},{"ii","jj","kk","i","j","k"})
tile_by_index({"i","j"},{Tii,Tjj},{l1_control="iii",l2_control="jjj"},{"ii","jj","kk","i","jjj","iii","j","k"},1)
cudaize("mm_GPU",{},{block={"ii","jj"}, thread={"i","j"}})
copy_to_shared("tx","A",-16)
copy_to_shared("tx","B",-16)
copy_to_registers("kk","C")
unroll_to_depth(2)
