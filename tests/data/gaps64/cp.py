# CUDA-CHiLL's examples/cuda-chill/cp.py (its commands; sizes of the kernel made small)
from chill import *
execfile("cudaize.py")
destination("cpmodified.cu")
read_IR("cp.c", "cenergy_cpu")
V=512
N=1
Tj=32
Ti=16
normalize_index("n")
tile_by_index( ["j","i"], [Tj, Ti],{'l1_control': "jj",'l2_control': "ii"},["jj","ii","j","i","n"], None)
cudaize(0, "kernel_GPU",{'atoms':N*4,'energy':V*V*1},["jj","ii"], ["j","i"], [])
copy_to_shared("tx","atoms",-16)
copy_to_registers( "tx","energy")
