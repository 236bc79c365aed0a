set -u
# session 30 call 4: where a 1M step goes between the launches: %globaltimer at the fused step's and the one-launch rebuild's entry (EXP_PHASES)
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|EXP_' | tr '\n' ' ')"; }
{
for rep in 1 2; do for b in base ph; do r 1m_s0.35_$b ./build-exp/mdsim_$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35; done; done
r 1m_s0.35_ph_10k ./build-exp/mdsim_ph configs/bench_1m.ini --steps 10000 $T1 --set neighbor.skin=0.35
r 8m_s0.35_ph ./build-exp/mdsim_ph configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35
} 2>&1 | tee $OUT/perf.txt
