export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs; timeout 90 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -2 $OUT/gpu_test.log
