#!/bin/bash
# session 34, call 3: HEAD (133ea68): bench/scaling.sh's 1M row three more times; Kob-Andersen 256k NVE (autotuned); 1M 10,000 steps (sustained, power-capped); 32k target command
set -u
rm -rf build-run && mkdir -p build-run && tar -C build-run -xJf build-exp/bins.tar.xz && ln -s ../build-gpu/gpu-libs build-run/gpu-libs
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=timestamp,memory.used,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv -lms 1000 > $L/smi_poll.csv 2>&1 &
SMI=$!
timeout 200 bash bench/scaling.sh build-run/mdsim $L/scal 64 64 64 > $L/scal.out 2>&1
rm -f $L/scal/scaling.png
r() { tag=$1; shift; timeout 100 "$@" > $L/$tag.log 2>&1; echo "$tag: $(grep -E 'autotune: (register|strategy|skin .* chosen)|timesteps/s|list builds' $L/$tag.log | tr '\n' ' ')" >> $L/summary.txt; }
r ka ./build-run/mdsim configs/kob_andersen.ini --steps 3000 --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off
r 1m_10k ./build-run/mdsim configs/bench_1m.ini --steps 10000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.35 --set run.thermo_every=0 --set run.progress=off
r 32k ./build-run/mdsim configs/bench_lj.ini --steps 20000 --set run.thermo_every=0 --set run.progress=off
kill $SMI
