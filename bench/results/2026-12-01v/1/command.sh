set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cp mdsim_lanes mdsim && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
P="--bench --strategies register --set neighbor.skin=0.4 --set backend.autotune=false --set backend.threads_per_particle=1"
for v in base lanes; do
  echo "1M $v $(MDSIM_PROFILE_REBUILD=1 ./build-exp/mdsim_$v configs/bench_1m.ini $P --steps 300 2>&1 | grep 'rebuild stages')"
  echo "8M $v $(MDSIM_PROFILE_REBUILD=1 ./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' $P --steps 100 2>&1 | grep 'rebuild stages')"
done | tee $OUT/summary.txt
timeout 300 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -3 $OUT/gpu_test.log
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do for v in base lanes; do
 echo "1M $v $(./build-exp/mdsim_$v configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "8M $v $(./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done; done
for v in base lanes; do
 echo "KA $v $(./build-exp/mdsim_$v configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee -a $OUT/summary.txt
for v in base lanes; do
MDSIM_NO_COND_GRAPH=1 timeout 200 ncu --clock-control none -k regex:k_build_list --launch-skip 40 --launch-count 2 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_shared_mem,launch__registers_per_thread ./build-exp/mdsim_$v configs/bench_1m.ini --steps 30 $T --set neighbor.every=1 --set neighbor.check=false > $OUT/ncu_$v.txt 2>&1
grep -E 'duration|inst_executed|warps_active|issue_active|limit_shared' $OUT/ncu_$v.txt | sed "s/^/ncu $v /"
done | tee -a $OUT/summary.txt
