#!/bin/bash
# session 32, call 3: the GPU suite; bench/scaling.sh's 1M row three more times
set -u
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
mkdir -p /tmp/b $OUT/logs && tar -C /tmp/b -xJf build-exp/bins.tar.xz
L=$OUT/logs
timeout 300 env CK_DEFAULT_TIMEOUT=600 /tmp/b/gpu_backend > $L/gpu_test.log 2>&1; echo "suite rc $?" > $L/summary.txt; tail -1 $L/gpu_test.log >> $L/summary.txt
timeout 250 bash bench/scaling.sh /tmp/b/mdsim $L/scal 64 64 64 > $L/scal.out 2>&1
rm -f $L/scal/scaling.png
tar -C $OUT -cJf $OUT/logs.tar.xz logs && rm -rf $L
