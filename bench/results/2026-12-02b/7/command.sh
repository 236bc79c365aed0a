set -u
# session 30 call 7: what the 32 sampled steps (profiled_middle: ungraphed, an event sync per step) cost inside a plain run's loop time: the same binary with EXP_NO_SAMPLE set; and --bench over 1,000 and 3,000 steps
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
M=./build-exp/mdsim
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|Loop time' | tr '\n' ' ')"; }
{
for rep in 1 2 3; do
r 1m_s0.35_sampled $M configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35
EXP_NO_SAMPLE=1 r 1m_s0.35_nosample $M configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35
done
for st in 1000 3000; do echo "bench_1m_s0.35_steps$st $($M configs/bench_lj.ini --bench --steps $st --set 'system.cells=64 64 64' --strategies register --set neighbor.skin=0.35 2>&1 | grep -E '^register')"; done
for st in 1000 3000; do echo "bench_1m_s0.37_steps$st $($M configs/bench_lj.ini --bench --steps $st --set 'system.cells=64 64 64' --strategies register --set neighbor.skin=0.37 2>&1 | grep -E '^register')"; done
} 2>&1 | tee $OUT/perf.txt
