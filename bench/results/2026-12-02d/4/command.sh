#!/bin/bash
# session 32, call 4: make test-gpu's programs (gpu_backend through run_all.sh, gpu_blowup_test.sh) on 66c2aab's binaries; Kob-Andersen 256k NVE with the launch autotuner on, 66c2aab vs 3b3e18e interleaved
set -u
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
mkdir -p /tmp/bb/tests $OUT/logs && tar -C /tmp/bb -xJf build-exp/bins.tar.xz && mv /tmp/bb/gpu_backend /tmp/bb/tests/
L=$OUT/logs
timeout 330 env BUILD=/tmp/bb bash tests/run_all.sh /tmp/bb/tests/gpu_backend tests/gpu_blowup_test.sh > $L/test_gpu.log 2>&1; echo "test-gpu rc $?" > $L/summary.txt
tail -4 $L/test_gpu.log >> $L/summary.txt
for r in 1 2; do for v in mdsim mdsim_base; do
  /tmp/bb/$v configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off > $L/ka_${v}_$r.log 2>&1
  echo "ka $v $r: $(grep -E 'autotune: register|timesteps/s|list builds' $L/ka_${v}_$r.log | tr '\n' ' ')" >> $L/summary.txt
done; done
tar -C $OUT -cJf $OUT/logs.tar.xz logs && rm -rf $L
