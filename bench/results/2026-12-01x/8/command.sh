set -u
# session 26 call 5: refine layout by suspect count (r4: 1024/32 up to 132 suspects, 256/8 up to 528, then 128/4; r5: then 64/2) against r1 (256/8 always, as HEAD); EXP_SUSPMAX
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
{
for rep in 1 2; do for b in r1 r4 r5; do B=./build-exp/mdsim_$b
 r "1M $b" $B configs/bench_1m.ini --steps 3000 $T
done; done
for b in r1 r4 r5; do B=./build-exp/mdsim_$b
 r "256k $b" $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T
 r "8M $b" $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
done
for m in 32768 65536; do for b in r4 r5; do B=./build-exp/mdsim_$b
 r "1M suspmax $m $b" env EXP_SUSPMAX=$m $B configs/bench_1m.ini --steps 3000 $T
done; done
for b in r4 r5; do B=./build-exp/mdsim_$b
 echo "== 1M stats $b"; $B configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E "refstat|timesteps/s"
 echo "== 1M stats suspmax 65536 $b"; EXP_SUSPMAX=65536 $B configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E "refstat|timesteps/s"
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
