set -u
# session 30 call 13: the rows padded to whole chunks and the index selects gone (bench/results/2026-12-01x/1/variant_pad.diff, 17% fewer instructions in the fused step, 1.2% slower in short runs then) on a686a14, in the power-capped regime: 10,000-step 1M runs and --bench at 1M, interleaved
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
{
for rep in 1 2; do for b in mdsim mdsim_pad; do echo "1m_10k_$b $(./build-exp/$b configs/bench_1m.ini --steps 10000 $T1 --set neighbor.skin=0.35 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; done; done
for b in mdsim mdsim_pad; do echo "bench_1m_$b $(./build-exp/$b configs/bench_lj.ini --bench --steps 1000 --set 'system.cells=64 64 64' --strategies register --set neighbor.skin=0.35 2>&1 | grep -E '^register')"; done
for b in mdsim mdsim_pad; do echo "1m_3k_$b $(./build-exp/$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; done
} 2>&1 | tee $OUT/perf.txt
