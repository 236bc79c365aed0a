set -u
# session 26 call 3: ncu of the fused step (base, v1) and the one-launch rebuild
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs MDSIM_NO_COND_GRAPH=1 MDSIM_NO_COOP_REBUILD=1 MDSIM_NO_REFINE=1
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
for b in base v1; do
 timeout 150 ncu --kernel-name regex:k_force_register_nve --launch-skip 10 --launch-count 2 --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis --section InstructionStats --metrics smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum \
  ./build-exp/mdsim_$b configs/bench_1m.ini --steps 1000 $T > $OUT/ncu_fused_$b.txt 2>&1
done
grep -E "Duration|Issue Slots Busy|Issued Warp|No Eligible|Warp Cycles Per Issued|Memory Throughput|L1/TEX Hit|L2 Hit|DRAM Throughput|Achieved Occupancy|Executed Instructions  |stalled|throughput|dram__bytes" $OUT/ncu_fused_*.txt | head -60
