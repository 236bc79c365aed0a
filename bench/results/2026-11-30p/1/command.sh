# call 1: the pruned list (neighbor.prune_skin), first look: NVE sanity, speed at 1M / 8M / KA, memcheck at 32k
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|Pruned|not used|rror' | tr "\n" " ")"; }
{
echo "== NVE sanity 1M, thermo every 250"
for P in 0 0.2; do $E/mdsim configs/bench_1m.ini --steps 2000 "${S[@]}" --set run.thermo_every=250 --set neighbor.skin=0.5 --set neighbor.prune_skin=$P 2>&1 | grep -E "^ *[0-9]+ |Step|Pruned|builds =|pruned"; done
echo "== 1M"
r mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5
for P in 0 0.1 0.15 0.2 0.25 0.3; do r mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 --set neighbor.prune_skin=$P; done
for P in 0.15 0.2; do r mdsim56 configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 --set neighbor.prune_skin=$P; done
for SK in 0.4 0.6 0.7 0.8; do r mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=$SK --set neighbor.prune_skin=0.2; done
r mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5
echo "== 8M"
r mdsim_base configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4
for SK in 0.4 0.5 0.6; do for P in 0.15 0.2; do r mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=$SK --set neighbor.prune_skin=$P; done; done
echo "== KA"
K=(configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve)
r mdsim_base "${K[@]}"
for P in 0.15 0.2; do r mdsim "${K[@]}" --set neighbor.prune_skin=$P; done
} 2>&1 | tee $OUT/speed.txt
echo "== memcheck 32k pruned" | tee $OUT/mc.txt
compute-sanitizer --tool memcheck --error-exitcode 9 $E/mdsim configs/bench_lj.ini --steps 300 --strategy register --set backend.persistent=off --set neighbor.prune_skin=0.2 --set run.thermo_every=50 --set run.progress=off > $OUT/mc_full.txt 2>&1; echo "rc=$?" | tee -a $OUT/mc.txt; grep -E "ERROR SUMMARY|Pruned|builds =" $OUT/mc_full.txt | tee -a $OUT/mc.txt
