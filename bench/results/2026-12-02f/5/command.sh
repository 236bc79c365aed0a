#!/bin/bash
# session 34, call 5: block 64 against 128 (register, tpp 1, the benchmark's timing), interleaved, at 1M, 4M and 8M particles, skin 0.3 fixed
set -u
rm -rf build-run && mkdir -p build-run && tar -C build-run -xJf build-exp/bins.tar.xz && ln -s ../build-gpu/gpu-libs build-run/gpu-libs
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=timestamp,memory.used,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv -lms 1000 > $L/smi_poll.csv 2>&1 &
SMI=$!
for c in 64 100 126; do for r in 1 2; do for b in 64 128; do
  timeout 60 ./build-run/mdsim configs/bench_lj.ini --bench --backend cuda --steps 1000 --strategies register --set "system.cells=$c $c $c" --set backend.block_size=$b --set backend.threads_per_particle=1 --set neighbor.skin=0.3 > $L/c${c}_b${b}_$r.log 2>&1
  echo "cells $c block $b run $r: $(grep -E '^register' $L/c${c}_b${b}_$r.log)" >> $L/summary.txt
done; done; done
kill $SMI
