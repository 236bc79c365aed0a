set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.progress=off --set neighbor.skin=0.4 --set run.thermo_every=1000"
e() { tag=$1; shift; "$@" > $OUT/$tag.log 2>&1; echo "$tag: $(grep -o '[0-9.]* timesteps/s' $OUT/$tag.log) $(grep -o 'builds = [0-9]*' $OUT/$tag.log | head -1) | $(python3 tools/drift.py $OUT/$tag.log | sed 's/.*: //')" | tee -a $OUT/summary.txt; }
M=./build-exp/mdsim
e 1m_none_fast $M configs/bench_1m.ini --steps 20000 $T
MDSIM_NO_REFINE=1 e 1m_none_ref $M configs/bench_1m.ini --steps 20000 $T --set backend.compact_positions=off
e 1m_force_fast $M configs/bench_1m.ini --steps 20000 $T --set potential.shift=force
MDSIM_NO_REFINE=1 e 1m_force_ref $M configs/bench_1m.ini --steps 20000 $T --set potential.shift=force --set backend.compact_positions=off
e 8m_none_fast $M configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 5000 $T
MDSIM_NO_REFINE=1 e 8m_none_ref $M configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 5000 $T --set backend.compact_positions=off
e 32k_none_fast $M configs/bench_lj.ini --steps 20000 --strategy register --set run.progress=off --set neighbor.skin=0.4 --set run.thermo_every=1000
e 32k_force_fast $M configs/bench_lj.ini --steps 20000 --strategy register --set run.progress=off --set neighbor.skin=0.4 --set run.thermo_every=1000 --set potential.shift=force
CPU (this 2-core machine, build-gpu/mdsim --backend cpu, niced): build-gpu/mdsim configs/bench_lj.ini --backend cpu --steps 20000 --set run.thermo_every=1000 --set neighbor.skin=0.4 --set run.progress=off [--set potential.shift=force]
