# call 10: the reciprocal without its Newton step and the dead-slot mask as one predicate (mdsim) against 6ea2f55 (mdsim_base), interleaved; GPU suite
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for b in mdsim mdsim_base; do
  echo "1M $b: $($E/$b configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
done; done 2>&1 | tee $OUT/1m.txt
for b in mdsim mdsim_base; do
  echo "8M $b: $($E/$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
  echo "32k $b: $($E/$b configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
  echo "KA $b: $($E/$b configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
done 2>&1 | tee $OUT/others.txt
timeout 400 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "compact|NVE [0-9r]|Checks|:F:|:E:" $OUT/gpu_test.log | head -20
grep -E "register n=" $OUT/gpu_test.log | head -8
