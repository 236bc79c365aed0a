# call 12: the compact gathers' window of 16, a lane's two chunks loaded apart (mdsim_b16, experiment) against 8 (mdsim = 0a3c610); its force tests (compact)
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for b in mdsim_b16 mdsim; do
  echo "1M $b: $($E/$b configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
done; done 2>&1 | tee $OUT/1m.txt
for b in mdsim_b16 mdsim; do
  echo "8M $b: $($E/$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
  echo "KA $b: $($E/$b configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
done 2>&1 | tee $OUT/others.txt
CK_RUN_CASE=vs_cpu timeout 300 $E/gpu_backend_b16 > $OUT/gpu_test_b16.log 2>&1; echo "suite b16 rc=$?"; grep -E "compact n|Checks|:F:|:E:" $OUT/gpu_test_b16.log | head
# mdsim_b16 (experiment, not committed): force_register.cu REG_BATCH_C 16 for C = true, and reg_load_vec's h-th
# 16-byte load at p + h / 2 * (GPU_NL_BLOCK * GPU_NL_CHUNK) + 4 (h % 2) (a lane's next chunk).
