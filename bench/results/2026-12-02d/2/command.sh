#!/bin/bash
# session 32, call 2: make bench-scaling's script (all sizes) with the launch autotuner timing the fused NVE step; compute-sanitizer on the autotune test case
set -u
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
mkdir -p /tmp/b $OUT/logs && tar -C /tmp/b -xJf build-exp/bins.tar.xz
L=$OUT/logs
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $L/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 500 > $L/smi.csv 2>&1 &
SMI=$!
timeout 400 bash bench/scaling.sh /tmp/b/mdsim $L/scal > $L/scal.out 2>&1
kill $SMI
for tool in memcheck initcheck synccheck; do CK_RUN_CASE=autotune CK_FORK=no timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/b/gpu_backend > $L/san_$tool.log 2>&1; echo "$tool rc $?" >> $L/san.txt; done
tar -C $OUT -cJf $OUT/logs.tar.xz logs && rm -rf $L
