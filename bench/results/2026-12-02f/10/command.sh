#!/bin/bash
# session 34, call 10: fb81451 (e1e05ed: the same code) on the GPU: make test-gpu's programs, compute-sanitizer on every strategy
set -u
rm -rf build-run && mkdir -p build-run && tar -C build-run -xJf build-exp/bins.tar.xz && ln -s ../build-gpu/gpu-libs build-run/gpu-libs
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > $L/gpu.txt
nvidia-smi --query-gpu=timestamp,memory.used,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv -lms 1000 > $L/smi_poll.csv 2>&1 &
SMI=$!
s=$SECONDS; timeout 300 env BUILD=build-run CK_DEFAULT_TIMEOUT=600 bash tests/run_all.sh build-run/tests/gpu_backend tests/gpu_blowup_test.sh > $L/test_gpu.log 2>&1; echo "test-gpu rc $? $((SECONDS-s)) s" >> $L/summary.txt; tail -3 $L/test_gpu.log >> $L/summary.txt
OUT=$L timeout $((250 - SECONDS)) bash bench/gpu_check.sh build-run sanitize > /dev/null 2>&1; echo "sanitize rc $?" >> $L/summary.txt
kill $SMI
