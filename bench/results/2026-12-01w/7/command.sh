set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
{
for b in mdsim mdsim_x6; do
 r "8M $b" ./build-exp/$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
 r "1M $b" ./build-exp/$b configs/bench_1m.ini --steps 3000 $T
done
r "8M nocoop" env MDSIM_NO_COOP_REBUILD=1 $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
for c in 80 100; do for v in 0 1; do
 r "cells $c nocoop=$v" env MDSIM_NO_COOP_REBUILD=$v $B configs/bench_lj.ini --set "system.cells=$c $c $c" --steps 2000 $T
done; done
r "8M mdsim_x6 again" ./build-exp/mdsim_x6 configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
