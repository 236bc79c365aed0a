# call 1 (reconstructed: the script was removed before it was copied here):
#  - build-exp/compact (compact_microbench.cu, nvcc -O3 -arch=sm_90 -Xcompiler -fopenmp): ./compact 64 3.0; ./compact 64 2.8;
#    ncu --clock-control none --kernel-name regex:kforce --metrics gpu__time_duration.sum,smsp__inst_executed.sum,
#    l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,
#    l1tex__t_sector_hit_rate.pct,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,
#    smsp__issue_active.avg.pct_of_peak_sustained_active ./compact 64 3.0 q
#  - memcheck matrix at 5481fd9 (build-exp/mdsim), 4 repetitions each, --print-limit 2, 60 steps:
#    X=(configs/small.ini --backend cuda --strategy register --set 'system.cells=8 8 8')
#    p4:   X + backend.persistent=on neighbor.every=3           p4na: the same + backend.autotune=false
#    p4nc: p4 with MDSIM_NO_COND_GRAPH=1                        p4nr: persistent on, neighbor.every=1000 neighbor.check=false
#    l4e3: X + backend.persistent=off neighbor.every=3          p5:   system.cells=10 10 10, persistent on, every 3
#    p4lb: p4 with CUDA_LAUNCH_BLOCKING=1
