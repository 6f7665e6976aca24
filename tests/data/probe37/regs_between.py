from chill import *
execfile("cudaize.py")
read_IR("regs_between.c", "conv")
tile_by_index(["i","j"],[16,32],{'l1_control':"ii",'l2_control':"jj"},["ii","jj","i","j","k"], None)
tile_by_index(["j"],[16],{'l1_control':"jjj"},["ii","jj","i","jjj","j","k"],None)
cudaize(0, "conv_GPU",{}, ["ii","jj"], ["i","j"], [])
copy_to_registers("jjj","r")
