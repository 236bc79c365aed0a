set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim_x3
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"; }
which nsys ncu
{
for rep in 1 2; do
 r "1M nocheck base" $B configs/bench_1m.ini --steps 600 $T --set neighbor.check=false --set neighbor.every=100000
 r "1M nocheck noreb1" env EXP_NOREB=1 $B configs/bench_1m.ini --steps 600 $T --set neighbor.check=false --set neighbor.every=100000
 r "1M nocheck noreb2" env EXP_NOREB=2 $B configs/bench_1m.ini --steps 600 $T --set neighbor.check=false --set neighbor.every=100000
 r "256k nocheck base" $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 2000 $T --set neighbor.check=false --set neighbor.every=100000
 r "256k nocheck noreb1" env EXP_NOREB=1 $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 2000 $T --set neighbor.check=false --set neighbor.every=100000
 r "256k nocheck noreb2" env EXP_NOREB=2 $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 2000 $T --set neighbor.check=false --set neighbor.every=100000
done
r "1M default" $B configs/bench_1m.ini --steps 3000 $T
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
