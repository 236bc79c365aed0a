set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
CK_RUN_CASE=recovery CK_DEFAULT_TIMEOUT=600 ./build-exp/gpu_backend_mut > $OUT/mutant_test.log 2>&1; echo "mutant (no copy back on a halt) rc $?"; tail -4 $OUT/mutant_test.log
mkdir -p $OUT/scal && bash bench/scaling.sh ./build-exp/mdsim $OUT/scal > $OUT/scaling_run.txt 2>&1; echo "scaling rc $?"; cat $OUT/scal/scaling.csv
