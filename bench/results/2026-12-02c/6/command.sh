set -u
# session 31 call 6: bench/scaling.sh's 32k, 1M and 8M rows again at a96e92a's device code (another machine or later in the lease), power logged
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $OUT/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 200 > $OUT/smi.csv 2>&1 &
SMI=$!
timeout 300 bash bench/scaling.sh ./build-exp/mdsim $OUT/scal 20 64 126 2>&1 | tail -5
kill $SMI
grep -E "autotune: skin .* chosen" $OUT/scal/scaling.log
rm -f $OUT/scal/scaling.png
