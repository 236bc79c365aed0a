set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cp mdsim_async mdsim && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do for v in base async; do
 echo "1M $v $(./build-exp/mdsim_$v configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "8M $v $(./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done; done
for v in base async; do
 echo "KA $v $(./build-exp/mdsim_$v configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "1Mb256 $v $(./build-exp/mdsim_$v configs/bench_1m.ini --steps 3000 $T --set backend.block_size=256 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 300 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -1 $OUT/gpu_test.log
for v in base async; do
MDSIM_NO_COND_GRAPH=1 timeout 200 ncu --clock-control none -k regex:k_force_register_nve --launch-skip 100 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__t_sector_hit_rate.pct ./build-exp/mdsim_$v configs/bench_1m.ini --steps 200 $T > $OUT/ncu_$v.txt 2>&1
grep -E 'Duration|inst_executed|issue_active|hit_rate|Achieved Occupancy|Shared Memory Config|L1/TEX Cache Throughput|DRAM Throughput|Block Limit Shared|Stall Long' $OUT/ncu_$v.txt | sed "s/^/ncu $v /"
done | tee -a $OUT/summary.txt
