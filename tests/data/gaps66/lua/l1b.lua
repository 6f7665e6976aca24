init("tmv.c","normalMV",0)
dofile("cudaize.lua")
local TI = "32"
local ctl = "i" .. "i"
N = "1024"
tile_by_index({"i","j"}, {TI*2, 16}, {l1_control=ctl, l2_control="k"}, {ctl, "k", "i", "j"})
print("tiled with " .. TI .. " N=" .. N*1)
cudaize("tmv_GPU", {a=N, b=N, c=N*N},{block={ctl}, thread={"i"}})
copy_to_registers("k", "a")
