# call 2: the prune's writes staged in shared memory (chunks of 8); variants: combined kernel (mdsim), capped at 56 / 64 registers, split into two launches (mdsimsp); ncu of the pruned kernel
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|Pruned|not used|rror' | tr "\n" " ")"; }
{
echo "== 1M"
r mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5
for B in mdsim mdsim56 mdsim64 mdsimsp; do for P in 0.15 0.2 0.3; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 --set neighbor.prune_skin=$P; done; done
for SK in 0.6 0.7; do r mdsimsp configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=$SK --set neighbor.prune_skin=0.2; done
r mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5
echo "== 8M"
r mdsim_base configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4
for B in mdsim mdsimsp; do for P in 0.15 0.2; do r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.5 --set neighbor.prune_skin=$P; done; done
echo "== KA"
K=(configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve)
r mdsim_base "${K[@]}"
for B in mdsim mdsimsp; do r $B "${K[@]}" --set neighbor.prune_skin=0.2; done
} 2>&1 | tee $OUT/speed.txt
MDSIM_NO_COND_GRAPH=1 ncu --clock-control none --kernel-name regex:"force_register" --launch-skip 40 --launch-count 24 --metrics gpu__time_duration.sum,launch__registers_per_thread,smsp__inst_executed.sum $E/mdsim configs/bench_1m.ini --steps 200 "${S[@]}" --set neighbor.skin=0.5 --set neighbor.prune_skin=0.2 > $OUT/ncu_pruned.txt 2>&1
grep -E "k_force|duration|inst_executed|registers" $OUT/ncu_pruned.txt | head -100
