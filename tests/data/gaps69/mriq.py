from chill import *
execfile("cudaize.py")
read_IR("mriq.c","ComputeQCPU")
N=64
M=48
Tx=32
Ty=16
tile_by_index(["indexX"],[Tx],{'l1_control':"xx"},["xx","indexX","indexK"],None)
tile_by_index(["indexK"],[Ty],{'l1_control':"kk"},["xx","kk","indexX","indexK"],None)
cudaize(0,"kernel_GPU",{'x':N,'y':N,'z':N,'Qr':N,'Qi':N,'kVals':M},["xx"],["indexX"],[])
copy_to_shared("tx","kVals",1)
copy_to_registers("kk","Qr")
copy_to_registers("kk","Qi")
unroll_to_depth(1)
