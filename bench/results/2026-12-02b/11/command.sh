set -u
# session 30 call 11: x and v as planes (variant_soa.diff on a686a14) against a686a14 in the power-capped regime: 10,000-step 1M runs and --bench at 1M (8,191 timed steps), interleaved, with the SM clock and power logged
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 100 > $OUT/smi.csv 2>&1 &
SMI=$!
sleep 0.5
{
for rep in 1 2; do for b in mdsim mdsim_soa; do echo "1m_10k_$b $(date +%T.%N) $(./build-exp/$b configs/bench_1m.ini --steps 10000 $T1 --set neighbor.skin=0.35 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ') $(date +%T.%N)"; done; done
for b in mdsim mdsim_soa; do echo "bench_1m_$b $(date +%T.%N) $(./build-exp/$b configs/bench_lj.ini --bench --steps 1000 --set 'system.cells=64 64 64' --strategies register --set neighbor.skin=0.35 2>&1 | grep -E '^register') $(date +%T.%N)"; done
for b in mdsim mdsim_soa; do echo "1m_3k_$b $(date +%T.%N) $(./build-exp/$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ') $(date +%T.%N)"; done
} 2>&1 | tee $OUT/perf.txt
kill $SMI
