#!/bin/bash
# session 32, call 7: bench/scaling.sh's 1M command (make bench-scaling's row: --bench, skin autotuned, >= 1 s timed under the power cap) with neighbor.predict / predict_accel 8/12 (default), 10/14, 9/12, 10/16; two interleaved rounds
set -u
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
mkdir -p /tmp/b $OUT/logs && tar -C /tmp/b -xJf build-exp/bins.tar.xz
L=$OUT/logs
nvidia-smi --query-gpu=name,uuid,clocks.max.sm,power.limit --format=csv,noheader > $L/gpu.txt
for r in 1 2; do for v in "8 12" "10 14" "9 12" "10 16"; do set -- $v
  timeout 100 /tmp/b/mdsim configs/bench_lj.ini --bench --backend cuda --steps 1000 --strategies global,register --set "system.cells=64 64 64" --set neighbor.autotune_skin=true --set neighbor.predict=$1 --set neighbor.predict_accel=$2 > $L/p$1_a$2_$r.log 2>&1
  echo "p$1 a$2 round $r: $(grep -E 'skin .* chosen' $L/p$1_a$2_$r.log | cut -c1-40) $(grep -E '^register ' $L/p$1_a$2_$r.log)" >> $L/summary.txt
done; done
tar -C $OUT -cJf $OUT/logs.tar.xz logs && rm -rf $L
