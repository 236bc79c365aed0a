# call 11: the compact gathers' window of 16 (mdsim_b16, experiment) against 8 (mdsim = 0a3c610); skin scan at 1M and 8M with mdsim
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do for b in mdsim_b16 mdsim; do
  echo "1M $b: $($E/$b configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
done; done 2>&1 | tee $OUT/1m.txt
for b in mdsim_b16 mdsim; do
  echo "8M $b: $($E/$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
done 2>&1 | tee $OUT/8m.txt
for sk in 0.35 0.4 0.45 0.55 0.6 0.7; do
  echo "1M skin $sk: $($E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=$sk 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
done 2>&1 | tee $OUT/skins.txt
for sk in 0.4 0.6; do
  echo "8M skin $sk: $($E/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=$sk 2>&1 | grep -E 'Performance|builds' | tr "\n" " ")"
done 2>&1 | tee -a $OUT/skins.txt
# mdsim_b16 here: REG_BATCH_C 16 for the compact kernels with reg_load_vec unchanged (16 contiguous ints):
# wrong (a lane's second 8 entries lie in the next chunk), so its runs (no rebuilds, 766 steps/s) are void; fixed in call 12.
