set -u
# session 30 call 9: the run's sampled steps as the graphs' own steps (enqueue_middle with events) against d97fcd2; clocks and power over a 10,000-step 1M run; the GPU suite
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw,power.limit --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; "$@" > $OUT/$tag.log 2>&1; echo "$tag $(grep -E 'timesteps/s|list builds|rror' $OUT/$tag.log | tr '\n' ' ')"; }
{
for rep in 1 2 3; do for b in mdsim_base mdsim; do r 1m_${b}_$rep ./build-exp/$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35; done; done
for b in mdsim_base mdsim; do r 32k_$b ./build-exp/$b configs/bench_lj.ini --steps 20000 --set run.thermo_every=0 --set run.progress=off; done
for b in mdsim_base mdsim; do r ka256k_$b ./build-exp/$b configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off; done
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv -lms 100 > $OUT/smi_10k.csv 2>&1 &
SMI=$!
sleep 0.5
r 1m_base_10k ./build-exp/mdsim_base configs/bench_1m.ini --steps 10000 $T1 --set neighbor.skin=0.35
r 1m_base_1k ./build-exp/mdsim_base configs/bench_1m.ini --steps 1000 $T1 --set neighbor.skin=0.35
kill $SMI
} 2>&1 | tee $OUT/perf.txt
grep -B1 -A9 "GPU phases" $OUT/1m_mdsim_1.log $OUT/32k_mdsim.log | tee -a $OUT/summary.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
awk -F', ' 'NR>1 && $4+0 > 200 {print}' $OUT/smi_10k.csv | head -60 > $OUT/smi_busy.txt; wc -l < $OUT/smi_busy.txt
