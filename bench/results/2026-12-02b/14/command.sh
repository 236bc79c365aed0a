set -u
# session 30 call 14: a686a14's sampled steps (the one-launch rebuild and the fused step ungraphed, the first 32 middle steps) under compute-sanitizer memcheck and synccheck, 32k, the persistent kernel off
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
A="configs/bench_lj.ini --backend cuda --strategy register --steps 60 --set backend.autotune=false --set backend.persistent=off --set run.progress=off"
for tool in memcheck synccheck; do timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim $A > $OUT/$tool.log 2>&1; echo "$tool rc $? $(grep -c 'GPU phases split' $OUT/$tool.log) $(tail -1 $OUT/$tool.log)"; done | tee $OUT/summary.txt
grep -A1 "GPU phases" $OUT/memcheck.log | head -3
