set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
export MDSIM_NO_COND_GRAPH=1
NCU_SKIP=100 OUT=$OUT bash bench/ncu_detail.sh build-exp bench_1m "k_force_register" fused1m --strategy register --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0
grep -E "k_force_register|Duration|Executed Ipc A|Issue Slots Busy|Issued Warp|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Achieved Occupancy|Registers Per|Avg. Active Threads|Avg. Not Predicated|Executed Instructions  |Compute \(SM\) Throughput|L1/TEX Cache Throughput|L2 Cache Throughput|No Eligible|One or More" $OUT/ncu_fused1m.txt | head -40
