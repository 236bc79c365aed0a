#!/bin/bash
# session 34, call 6: make bench-scaling's script (bench/scaling.sh, default sizes 4k..64M) at 6856021 (the finalists timed again)
set -u
rm -rf build-run && mkdir -p build-run && tar -C build-run -xJf build-exp/bins.tar.xz && ln -s ../build-gpu/gpu-libs build-run/gpu-libs
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $L/gpu.txt
nvidia-smi --query-gpu=timestamp,memory.used,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv -lms 1000 > $L/smi_poll.csv 2>&1 &
SMI=$!
timeout 585 bash bench/scaling.sh build-run/mdsim $L/scal > $L/scal.out 2>&1; echo "scaling rc $?" >> $L/scal.out
kill $SMI
