set -u
# session 31 call 5: the GPU suite after the review's test refactor (register_liquid)
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
timeout 250 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -1 $OUT/gpu_test.log
grep -iE "refined rebuild|32,000 particles, skin" $OUT/gpu_test.log
