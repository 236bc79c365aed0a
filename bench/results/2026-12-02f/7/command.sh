#!/bin/bash
# session 34, call 7: 6856021: Kob-Andersen 256k NVE (autotuned) twice; the 1M target command (skin 0.35, 3,000 steps) twice
set -u
rm -rf build-run && mkdir -p build-run && tar -C build-run -xJf build-exp/bins.tar.xz && ln -s ../build-gpu/gpu-libs build-run/gpu-libs
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
r() { tag=$1; shift; timeout 100 "$@" > $L/$tag.log 2>&1; echo "$tag: $(grep -E 'autotune: (register|strategy)|timesteps/s|list builds' $L/$tag.log | tr '\n' ' ')" >> $L/summary.txt; }
for k in 1 2; do r ka_$k ./build-run/mdsim configs/kob_andersen.ini --steps 3000 --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off; done
for k in 1 2; do r 1m_$k ./build-run/mdsim configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.35 --set run.thermo_every=0 --set run.progress=off; done
