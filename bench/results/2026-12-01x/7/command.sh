set -u
# session 26 call 4: the refine's suspects per step and time (EXP_REFSTAT), one suspect per 256 (r1, as HEAD), 1024 (r2) or 512 (r3) threads
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
{
for rep in 1 2; do for b in r1 r2 r3; do B=./build-exp/mdsim_$b
 r "1M $b" $B configs/bench_1m.ini --steps 3000 $T
done; done
for b in r1 r2; do B=./build-exp/mdsim_$b
 echo "== 1M stats $b"; $B configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E "refstat|timesteps/s"
 echo "== 8M stats $b"; $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E "refstat|timesteps/s"
 echo "== 256k stats $b"; $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T 2>&1 | grep -E "refstat|timesteps/s"
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
