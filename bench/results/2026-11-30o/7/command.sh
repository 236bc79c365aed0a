# call 7 (experiment binary: MDSIM_SPLIT_KD=1 runs the NVE middle steps as a force-only launch and a k_kick_drift launch, instead of the fused launch), compact auto vs off, 1M and 8M
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for sp in 0 1; do for v in auto off; do
  echo "1M split $sp compact $v: $( ( [ $sp = 1 ] && export MDSIM_SPLIT_KD=1; $E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v 2>&1 | grep -E 'Performance|builds' | tr "\n" " " ) )"
done; done; done
for sp in 0 1; do for v in auto off; do
  echo "8M split $sp compact $v: $( ( [ $sp = 1 ] && export MDSIM_SPLIT_KD=1; $E/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v 2>&1 | grep -E 'Performance|builds' | tr "\n" " " ) )"
done; done
# The experiment binary: kernels/gpu_backend.cu with, in enqueue_middle, when MDSIM_SPLIT_KD is set, a GPU_F_FORCE launch
# and enqueue_kick_drift() instead of the fused GPU_F_KICK_DRIFT launch (no parity flip; gpu_run's g_one loop likewise).
