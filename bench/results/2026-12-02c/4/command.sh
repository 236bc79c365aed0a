set -u
# session 31 call 4: make bench-scaling's script at a96e92a (neighbor.predict_accel 12), SM clock and power logged; the GPU suite with its final test
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader > $OUT/gpu.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 200 > $OUT/smi.csv 2>&1 &
SMI=$!
timeout 400 bash bench/scaling.sh ./build-exp/mdsim $OUT/scal 2>&1 | tail -13
kill $SMI
grep -E "autotune: skin .* chosen|^=== " $OUT/scal/scaling.log | head -40
timeout 150 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -1 $OUT/gpu_test.log
grep -iE "32,000 particles, skin" $OUT/gpu_test.log
