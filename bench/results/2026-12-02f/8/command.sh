#!/bin/bash
# session 34, call 8: the README quick tour's sample output at 6856021 (mdsim configs/bench_lj.ini)
set -u
rm -rf build-run && mkdir -p build-run && tar -C build-run -xJf build-exp/bins.tar.xz && ln -s ../build-gpu/gpu-libs build-run/gpu-libs
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
mkdir -p $OUT/logs
./build-run/mdsim configs/bench_lj.ini > $OUT/logs/output.txt 2>&1
