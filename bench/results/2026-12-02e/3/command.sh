#!/bin/bash
# device code of ed5fb94 (built from its working tree before the commit); the 4k..8M rows and cells 280 (cut by the call limit)
tar xJf build-exp/bins.tar.xz -C build-exp
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=timestamp,memory.used,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv -lms 1000 > $L/smi_poll.csv 2>&1 &
SP=$!
bash bench/scaling.sh build-exp/mdsim $L/s3 10 16 20 32 40 50 64 80 100 126 280 > $L/s3.out 2>&1
kill $SP
