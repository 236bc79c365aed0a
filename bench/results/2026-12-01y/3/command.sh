set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
timeout 300 ncu --clock-control none --kernel-name regex:k_force_register_nve --launch-skip 1000 --launch-count 4 \
 --section SpeedOfLight --section MemoryWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis \
 --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,gpu__time_duration.sum,sm__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts.sum \
 ./build-exp/mdsim_ncu configs/bench_1m.ini --steps 1100 $T1 > $OUT/ncu_fused.txt 2>&1
echo "ncu rc=$?"
grep -E "Duration|DRAM Throughput|dram__bytes|Memory Throughput|Issue Slots Busy|Executed Ipc|Achieved Occupancy|sm__inst_executed|L1/TEX Hit|L2 Hit|wavefronts|No Eligible|Registers Per" $OUT/ncu_fused.txt | head -80
