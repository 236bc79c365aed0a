# call 9: d16_microbench.cu (16-bit j - i entries, kick-drift epilogue), 1M fcc + noise, rlist 3.0 and 3.2; ncu of the four epilogue modes
set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
E=./build-exp
export OMP_NUM_THREADS=16
$E/d16mb 64 3.0 2>&1 | tee $OUT/d16_30.txt
$E/d16mb 64 3.2 2>&1 | tee $OUT/d16_32.txt
ncu --clock-control none --kernel-name regex:kforce --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_elapsed $E/d16mb 64 3.0 q > $OUT/ncu_d16.txt 2>&1
grep -E "kforce|duration|inst_exec|wavefronts|dram|issue|l1tex__thr" $OUT/ncu_d16.txt | sed 's/  */ /g' | awk 'NR%2==1 || /kforce/' | head -80
