# call 3: where the compact step's time goes (ncu per kernel, 200 launches after 300, auto vs off), memcheck repro of the conditional-graph finding
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
for v in auto off; do
  mkdir -p $OUT/ncu_$v
  OUT=$OUT/ncu_$v NCU_SET="--set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set backend.compact_positions=$v" bash bench/gpu_check.sh build-exp ncu-skip > /dev/null 2>&1
  echo "== $v"; cat $OUT/ncu_$v/ncu_bench_1m_summary.txt
done
ncu --clock-control none --kernel-name regex:k_force_register --launch-skip 300 --launch-count 2 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed $E/mdsim configs/bench_1m.ini --steps 400 --strategy register --set backend.autotune=false --quiet --set backend.threads_per_particle=1 --set neighbor.skin=0.5 > $OUT/ncu_kd.txt 2>&1
grep -E "k_force|duration|inst_exec|wavefronts|throughput|issue|dram" $OUT/ncu_kd.txt | sed 's/  */ /g'
for m in "" --nocond --nochain; do for r in 1 2 3; do
  timeout 100 compute-sanitizer --tool memcheck --print-limit 2 --error-exitcode 9 $E/cond_repro $m > $OUT/repro${m}_$r.log 2>&1; echo "repro '$m' $r rc=$? $(grep -c Invalid $OUT/repro${m}_$r.log) $(tail -n 2 $OUT/repro${m}_$r.log | tr '\n' ' ')"
done; done
$E/cond_repro > $OUT/repro_plain.log 2>&1; echo "plain rc=$? $(tail -n 2 $OUT/repro_plain.log | tr '\n' ' ')"
head -30 $OUT/repro_1.log
