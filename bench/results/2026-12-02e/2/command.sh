#!/bin/bash
# device code of ed5fb94 (built from its working tree before the commit); cells 322 refused by the memory estimate, then cut by the call limit
tar xJf build-exp/bins.tar.xz -C build-exp
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=timestamp,memory.used,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv -lms 1000 > $L/smi_poll.csv 2>&1 &
SP=$!
( time CK_RUN_CASE=autotune build-exp/gpu_backend ) > $L/test_autotune.log 2>&1
echo "test rc $?" >> $L/test_autotune.log
STRATEGIES=register bash bench/scaling.sh build-exp/mdsim $L/s2 160 200 252 322 > $L/s2.out 2>&1
kill $SP
