set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
for rep in 1 2; do
 r "1M" $B configs/bench_1m.ini --steps 3000 $T
 r "8M" $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
done
r "1M skin 0.35" $B configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=0.35
r "32k" $B configs/bench_lj.ini --steps 30000 $S --set neighbor.skin=0.7
r "KA" $B configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve
r "256k" $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T
$B configs/bench_1m.ini --steps 2000 $T --set run.thermo_every=500 2>&1 | grep -A5 "Step.*Temp" | sed "s/^/thermo1M: /"
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
for k in 1 2; do timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $B configs/small.ini --set "system.cells=8 8 8" --backend cuda --strategy register --quiet --set backend.persistent=off --set neighbor.every=3 --steps 60 > $OUT/san8.log 2>&1; echo "memcheck 8 cells every 3 run $k rc=$? $(tail -1 $OUT/san8.log)"; done | tee -a $OUT/summary.txt
OUT=$OUT/san timeout 150 bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_all.txt 2>&1; echo "sanitize_all rc $?" | tee -a $OUT/summary.txt; grep -c "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt; grep -v "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt
timeout 280 bash bench/scaling.sh $B $OUT/scal > $OUT/scaling.log 2>&1; echo "scaling rc $?" | tee -a $OUT/summary.txt
cat $OUT/scal/scaling.csv | tee -a $OUT/summary.txt
