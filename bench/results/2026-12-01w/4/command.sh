set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim_x3
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
N="--set neighbor.check=false --set neighbor.every=100000"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
{
for rep in 1 2; do
 for v in 0 1 2; do
 r "1M nocheck noreb$v" env EXP_NOREB=$v $B configs/bench_1m.ini --steps 600 $T $N
 r "256k nocheck noreb$v" env EXP_NOREB=$v $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 2000 $T $N
 done
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
MDSIM_NO_COND_GRAPH=1 timeout 200 ncu --cache-control none --clock-control none --kernel-name regex:"force_register_nve|k_build_list|k_refine" --launch-skip 300 --launch-count 12 --metrics gpu__time_duration.sum $B configs/bench_1m.ini --steps 400 $T > $OUT/ncu_1m.txt 2>&1
grep -E "k_force|k_build|k_refine|duration" $OUT/ncu_1m.txt | tee -a $OUT/summary.txt
