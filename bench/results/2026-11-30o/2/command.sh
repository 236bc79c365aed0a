# call 2: compact positions (backend.compact_positions auto vs off): target commands interleaved, ncu of the 1M force launch, GPU suite
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for v in auto off; do
  echo "1M $v: $($E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v 2>&1 | grep -E 'Performance|builds|8-byte' | tr '\n' ' ')"
done; done 2>&1 | tee $OUT/1m.txt
$E/mdsim configs/bench_1m.ini --steps 200 "${S[@]}" --set neighbor.skin=0.5 --set run.thermo_every=100 2>&1 | head -20 > $OUT/1m_head.txt
for v in auto off; do
  echo "8M $v: $($E/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v 2>&1 | grep -E 'Performance|builds' | tr '\n' ' ')"
  echo "32k $v: $($E/mdsim configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off --set backend.compact_positions=$v 2>&1 | grep -E 'Performance|builds' | tr '\n' ' ')"
  echo "32k graphs $v: $($E/mdsim configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set backend.persistent=off --set run.thermo_every=0 --set run.progress=off --set backend.compact_positions=$v 2>&1 | grep -E 'Performance|builds' | tr '\n' ' ')"
  echo "KA $v: $($E/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off --set backend.compact_positions=$v 2>&1 | grep -E 'Performance|builds' | tr '\n' ' ')"
done 2>&1 | tee $OUT/others.txt
for v in auto off; do
MDSIM_NO_COND_GRAPH=1 ncu --clock-control none --kernel-name regex:k_force_register --launch-skip 60 --launch-count 1 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,launch__registers_per_thread $E/mdsim configs/bench_1m.ini --steps 100 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v > $OUT/ncu_force_$v.txt 2>&1
echo "== ncu $v"; grep -E "k_force|duration|inst_exec|wavefronts|sectors|throughput|issue|dram|registers" $OUT/ncu_force_$v.txt | sed 's/  */ /g'
done
timeout 400 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "compact|NVE|%:|Checks|Failures|Errors|fail|error" $OUT/gpu_test.log | head -40
