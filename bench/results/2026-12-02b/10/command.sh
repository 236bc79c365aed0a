set -u
# session 30 call 10: a686a14: 1M target command over 1,000 / 3,000 / 10,000 steps with the SM clock and power logged (nvidia-smi every 100 ms); --bench at 1M
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
M=./build-exp/mdsim
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active --format=csv,noheader -lms 100 > $OUT/smi.csv 2>&1 &
SMI=$!
sleep 0.5
{
for st in 1000 3000 10000 3000 1000; do echo "1m_steps$st $(date +%T.%N) $($M configs/bench_1m.ini --steps $st $T1 --set neighbor.skin=0.35 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ') $(date +%T.%N)"; done
echo "bench_1m_s0.35 $(date +%T.%N) $($M configs/bench_lj.ini --bench --steps 1000 --set 'system.cells=64 64 64' --strategies register --set neighbor.skin=0.35 2>&1 | grep -E '^register') $(date +%T.%N)"
} 2>&1 | tee $OUT/perf.txt
kill $SMI
