set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"; }
{
for rep in 1 2; do
 r "1M" $B configs/bench_1m.ini --steps 3000 $T
 r "8M" $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
done
for sk in 0.35 0.45; do r "1M skin $sk" $B configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=$sk; done
r "32k" $B configs/bench_lj.ini --steps 30000 $S --set neighbor.skin=0.7
r "KA" $B configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 300 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
OUT=$OUT/san timeout 200 bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_all.txt 2>&1; echo "sanitize rc $?" | tee -a $OUT/summary.txt
timeout 280 bash bench/scaling.sh $B $OUT/scal > $OUT/scaling.log 2>&1; echo "scaling rc $?" | tee -a $OUT/summary.txt
cat $OUT/scal/*.csv 2>/dev/null | tee -a $OUT/summary.txt
