set -u
# session 30 call 6: the one-launch rebuild with 6 or 7 list groups a block (80 / 72 registers instead of 64, no spills) and 3 particles a sweep (COOP_R=3: no spills at 64), all with EXP_PHASES
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|EXP_' | tr '\n' ' ')"; }
{
for rep in 1 2; do for b in ph g6 g7 r3 g7r3; do r 1m_s0.35_$b ./build-exp/mdsim_$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35; done; done
for b in ph g6 g7 r3 g7r3; do r 8m_s0.35_$b ./build-exp/mdsim_$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35; done
} 2>&1 | tee $OUT/perf.txt
