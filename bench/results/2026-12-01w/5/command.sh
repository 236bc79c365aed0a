set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
timeout 120 $B configs/bench_1m.ini --steps 300 $T > $OUT/first.log 2>&1; echo "first rc $?"; tail -3 $OUT/first.log
{
for rep in 1 2; do for v in 0 1; do
 r "1M nocoop=$v" env MDSIM_NO_COOP_REBUILD=$v $B configs/bench_1m.ini --steps 3000 $T
 r "256k nocoop=$v" env MDSIM_NO_COOP_REBUILD=$v $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T
done; done
for v in 0 1; do
 r "8M nocoop=$v" env MDSIM_NO_COOP_REBUILD=$v $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
 r "KA nocoop=$v" env MDSIM_NO_COOP_REBUILD=$v $B configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve
 r "32k nocoop=$v" env MDSIM_NO_COOP_REBUILD=$v $B configs/bench_lj.ini --steps 30000 $S --set neighbor.skin=0.7
 r "500k nocoop=$v" env MDSIM_NO_COOP_REBUILD=$v $B configs/bench_lj.ini --set 'system.cells=50 50 50' --steps 3000 $T
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
for tool in memcheck racecheck synccheck initcheck; do for ev in 3 0; do
 a="--steps 60"; [ $tool = racecheck ] && a="--steps 6"
 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $B configs/small.ini --set "system.cells=8 8 8" --backend cuda --strategy register --quiet --set backend.persistent=off --set neighbor.every=$ev $a > $OUT/san_${tool}_$ev.log 2>&1; echo "$tool every=$ev rc=$? $(tail -1 $OUT/san_${tool}_$ev.log)"
done; done | tee $OUT/sanitize.txt
OUT=$OUT/san timeout 150 bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_all.txt 2>&1; echo "sanitize_all rc $?"; grep -v "rc=0" $OUT/san/sanitize.txt | head
