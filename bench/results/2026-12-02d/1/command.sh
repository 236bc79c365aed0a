#!/bin/bash
# session 32, call 1: the autotune test case, then bench/scaling.sh 32k and 1M rows, new vs base, interleaved
set -u
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
mkdir -p /tmp/b $OUT/logs && tar -C /tmp/b -xJf build-exp/bins.tar.xz
L=$OUT/logs
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/smi0.txt
CK_RUN_CASE=autotune /tmp/b/gpu_backend > $L/test_autotune.txt 2>&1; echo "rc $?" >> $L/test_autotune.txt
for r in 1 2; do
  for v in mdsim mdsim_base; do
    bash bench/scaling.sh /tmp/b/$v $L/sc_${v}_$r 20 64 > $L/sc_${v}_$r.out 2>&1
  done
done
nvidia-smi --query-gpu=name,clocks.sm,power.draw,temperature.gpu --format=csv > $L/smi1.txt
tar -C $OUT -cJf $OUT/logs.tar.xz logs && rm -rf $L
