#!/bin/bash
# session 32, call 6 (a new lease): bench/scaling.sh's 32k, 1M (three times) and 8M rows at 66c2aab's binary, GPU identity and power logged
set -u
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
mkdir -p /tmp/b $OUT/logs && tar -C /tmp/b -xJf build-exp/bins.tar.xz
L=$OUT/logs
nvidia-smi --query-gpu=name,uuid,clocks.max.sm,power.limit --format=csv,noheader > $L/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 500 > $L/smi.csv 2>&1 &
SMI=$!
timeout 400 bash bench/scaling.sh /tmp/b/mdsim $L/scal 20 64 64 64 126 > $L/scal.out 2>&1
kill $SMI
rm -f $L/scal/scaling.png
tar -C $OUT -cJf $OUT/logs.tar.xz logs && rm -rf $L
