set -u
# session 30 call 2: the one-launch rebuild's phases timed (EXP_PHASES, %globaltimer after each grid barrier), and two variants: the top scan by a block (EXP_TOPBLK), the scatter two particles a round (EXP_SCATU=2)
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|EXP_PHASES' | tr '\n' ' ')"; }
{
for rep in 1 2; do for b in base ph top sc2 topsc2; do r 1m_s0.35_$b ./build-exp/mdsim_$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35; done; done
for b in ph topsc2; do r 8m_s0.35_$b ./build-exp/mdsim_$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35; done
} 2>&1 | tee $OUT/perf.txt
