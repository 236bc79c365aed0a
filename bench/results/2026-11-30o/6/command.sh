# call 6 (experiment binary, MDSIM_TIME_FUSED: after the run, 20 fused launches, 20 force-only, 20 fused, event-timed), 1M and 8M, compact auto vs off
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for v in auto off; do
  echo "1M $v: $(MDSIM_TIME_FUSED=1 $E/mdsim configs/bench_1m.ini --steps 300 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v 2>&1 | grep -E 'TIME_FUSED|Performance' | tr '\n' ' ')"
done; done
for v in auto off; do
  echo "8M $v: $(MDSIM_TIME_FUSED=1 $E/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 100 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v 2>&1 | grep -E 'TIME_FUSED|Performance' | tr '\n' ' ')"
done
# The experiment binary: kernels/gpu_backend.cu with, at the top of gpu_destroy(), when MDSIM_TIME_FUSED
# is set: 20 launches of the register strategy's GPU_F_KICK_DRIFT (parity flipped after each), then 20 of
# GPU_F_FORCE, then 20 of GPU_F_KICK_DRIFT again, each set timed with cudaEvents on c->stream (not committed).
# The third set ran after 20 unrebuilt steps had triggered rebuild requests: not a valid time.
