set -u
# session 26 call 15: 2c008ab itself (HEAD): GPU suite and sanitizers
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
timeout 150 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -E "pairs within rc checked" $OUT/gpu_test.log | tee -a $OUT/summary.txt
OUT=$OUT/san timeout 110 bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_all.txt 2>&1; echo "sanitize_all rc $?" | tee -a $OUT/summary.txt; grep -c "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt; grep -v "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt
