#!/bin/bash
# device code of 7281361 (before this session's change); bench/scaling.sh of 7281361
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
L=$OUT/logs; mkdir -p $L
nvidia-smi > $L/smi.txt 2>&1
free -g >> $L/smi.txt
nvidia-smi --query-gpu=timestamp,memory.used,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv -lms 1000 > $L/smi_poll.csv 2>&1 &
SP=$!
B=build-exp/mdsim
STRATEGIES=register STEPS=1000 TIMEOUT=200 bash bench/scaling.sh $B $L/s1 126 160 200 252 > $L/s1.out 2>&1
for c in 320 360; do
  echo "=== $c" >> $L/big.log
  /usr/bin/time -v timeout 200 $B configs/bench_lj.ini --bench --backend cuda --steps 1000 --strategies register --set neighbor.autotune_skin=true --set "system.cells=$c $c $c" >> $L/big.log 2>&1
  echo "rc $?" >> $L/big.log
done
kill $SP
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
# (the call's 600 s limit ended it during cells 252; the tar never ran)
