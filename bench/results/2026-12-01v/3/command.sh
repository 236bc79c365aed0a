set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cp mdsim_pipe mdsim && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
P="--bench --strategies register --set neighbor.skin=0.4 --set backend.autotune=false --set backend.threads_per_particle=1"
for v in base pipe; do
  echo "1M $v $(MDSIM_PROFILE_REBUILD=1 ./build-exp/mdsim_$v configs/bench_1m.ini $P --steps 300 2>&1 | grep 'rebuild stages')"
  echo "8M $v $(MDSIM_PROFILE_REBUILD=1 ./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' $P --steps 100 2>&1 | grep 'rebuild stages')"
done | tee $OUT/summary.txt
timeout 300 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -1 $OUT/gpu_test.log
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do for v in base pipe; do
 echo "1M $v $(./build-exp/mdsim_$v configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "8M $v $(./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done; done
for v in base pipe; do
 echo "KA $v $(./build-exp/mdsim_$v configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "256k $v $(./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee -a $OUT/summary.txt
OUT=$OUT bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_run.txt 2>&1; echo "sanitize rc $?"; grep -vc "rc=0" $OUT/sanitize.txt; grep -v "rc=0" $OUT/sanitize.txt | head
