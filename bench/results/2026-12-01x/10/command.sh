set -u
# session 26 call 7: skin x neighbor.predict at 1M and 8M with r6 (the refine as in the working tree, EXP_REFSTAT)
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1"
B=./build-exp/mdsim_r6
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|refstat: no' | tr '\n' ' ')"; }
{
for sk in 0.3 0.35 0.4 0.45; do for p in 8 12 16; do
 r "1M skin $sk predict $p" $B configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=$sk --set neighbor.predict=$p
done; done
r "1M skin 0.4 predict 8 again" $B configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=0.4 --set neighbor.predict=8
for sk in 0.35 0.4; do for p in 8 12 16; do
 r "8M skin $sk predict $p" $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T --set neighbor.skin=$sk --set neighbor.predict=$p
done; done
for p in 8 12 16; do
 r "256k skin 0.4 predict $p" $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T --set neighbor.skin=0.4 --set neighbor.predict=$p
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
