set -u
# session 30 call 12: make bench-scaling's script at a686a14, with the SM clock and power logged every 200 ms
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $OUT/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 200 > $OUT/smi.csv 2>&1 &
SMI=$!
timeout 450 bash bench/scaling.sh ./build-exp/mdsim $OUT/scal 2>&1 | tail -13
kill $SMI
grep -E "autotune: skin .* chosen|^=== " $OUT/scal/scaling.log | head -40
