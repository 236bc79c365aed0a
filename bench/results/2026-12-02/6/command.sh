set -u
# session 29 call 6: 8d83294 (HEAD): energy conservation at the skin the autotuner now picks at 1M (0.275), target commands, Kob-Andersen and LJ 256k
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
M=./build-exp/mdsim
T="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.progress=off --set run.thermo_every=1000"
e() { tag=$1; shift; "$@" > $OUT/$tag.log 2>&1; echo "$tag: $(grep -o '[0-9.]* timesteps/s' $OUT/$tag.log) $(grep -o 'builds = [0-9]*' $OUT/$tag.log | head -1) | $(python3 tools/drift.py $OUT/$tag.log | sed 's/.*: //')" | tee -a $OUT/summary.txt; }
e 1m_force_s0275 $M configs/bench_1m.ini --steps 20000 $T --set neighbor.skin=0.275 --set potential.shift=force
MDSIM_NO_REFINE=1 e 1m_force_s0275_ref $M configs/bench_1m.ini --steps 20000 $T --set neighbor.skin=0.275 --set potential.shift=force --set backend.compact_positions=off
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
{
for rep in 1 2; do for s in 0.275 0.3 0.35 0.4; do r 1m_s$s $M configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=$s; done; done
r 8m_s0.35 $M configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35
r 8m_s0.4 $M configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.4
r KA256k $M configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off
r LJ256k $M configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T1 --set neighbor.skin=0.4
} 2>&1 | tee $OUT/perf.txt
