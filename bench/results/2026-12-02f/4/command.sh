#!/bin/bash
# session 34, call 4: the autotuner's finalists timed again in turns (working tree on 133ea68): the autotune test case, compute-sanitizer on it; bench/scaling.sh's 1M row four times and the 8M row
set -u
rm -rf build-run && mkdir -p build-run && tar -C build-run -xJf build-exp/bins.tar.xz && ln -s ../build-gpu/gpu-libs build-run/gpu-libs
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=timestamp,memory.used,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv -lms 1000 > $L/smi_poll.csv 2>&1 &
SMI=$!
CK_RUN_CASE=autotune CK_FORK=no timeout 100 ./build-run/tests/gpu_backend > $L/test_autotune.log 2>&1; echo "autotune case rc $?" >> $L/summary.txt
CK_RUN_CASE=autotune CK_FORK=no timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-run/tests/gpu_backend > $L/san_memcheck.log 2>&1; echo "memcheck rc $? $(tail -1 $L/san_memcheck.log)" >> $L/summary.txt
timeout 300 bash bench/scaling.sh build-run/mdsim $L/scal 64 64 64 64 126 > $L/scal.out 2>&1
rm -f $L/scal/scaling.png
kill $SMI
