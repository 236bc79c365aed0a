#!/bin/bash
# session 34, call 9: after the review (re-timing only where the strategy can still be chosen; the counter counts fused timings): the autotune test case and its memcheck; the README quick tour's sample output (mdsim configs/bench_lj.ini); the 1M row once
set -u
rm -rf build-run && mkdir -p build-run && tar -C build-run -xJf build-exp/bins.tar.xz && ln -s ../build-gpu/gpu-libs build-run/gpu-libs
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
CK_RUN_CASE=autotune timeout 100 ./build-run/tests/gpu_backend > $L/test_autotune.log 2>&1; echo "autotune case rc $?" >> $L/summary.txt
CK_RUN_CASE=autotune CK_FORK=no timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-run/tests/gpu_backend > $L/san_memcheck.log 2>&1; echo "memcheck rc $? $(tail -1 $L/san_memcheck.log)" >> $L/summary.txt
./build-run/mdsim configs/bench_lj.ini > $L/output.txt 2>&1
timeout 100 bash bench/scaling.sh build-run/mdsim $L/scal 64 > $L/scal.out 2>&1; rm -f $L/scal/scaling.png
