set -u
# session 29 call 1: the refined check a warp per suspect (x4) against 034716b (base): suite, sanitizers, 1M
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
timeout 170 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -E "pairs within rc checked" $OUT/gpu_test.log | tee -a $OUT/summary.txt
cp build-exp/x4 build-exp/mdsim
OUT=$OUT/san timeout 120 bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_all.txt 2>&1; echo "sanitize_all rc $?" | tee -a $OUT/summary.txt; grep -c "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt; grep -v "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt
for tool in memcheck initcheck; do
timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/x4 configs/bench_lj.ini --backend cuda --strategy register --steps 300 --set backend.autotune=false --set run.progress=off > $OUT/${tool}_32k.log 2>&1; echo "$tool 32k rc $? $(tail -1 $OUT/${tool}_32k.log)" | tee -a $OUT/summary.txt
done
grep -i -E "refine|suspect" $OUT/memcheck_32k.log | head -3 | tee -a $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
B1="configs/bench_1m.ini --steps 3000 $T1"
{
for rep in 1 2; do
 r base ./build-exp/base $B1
 r x4 ./build-exp/x4 $B1
 r base_s35 ./build-exp/base $B1 --set neighbor.skin=0.35
 r x4_s35 ./build-exp/x4 $B1 --set neighbor.skin=0.35
done
r x4_s33 ./build-exp/x4 $B1 --set neighbor.skin=0.33
r x4_s37 ./build-exp/x4 $B1 --set neighbor.skin=0.37
} 2>&1 | tee $OUT/perf.txt
