set -u
# session 29 call 8: review fix (refine_row's row start by gpu_cell_linear; skin_rate split): GPU suite, memcheck with the refined check, 1M
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
timeout 150 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -E "pairs within rc checked" $OUT/gpu_test.log | tee -a $OUT/summary.txt
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-exp/mdsim configs/bench_lj.ini --backend cuda --strategy register --steps 200 --set backend.autotune=false --set run.progress=off > $OUT/memcheck_32k.log 2>&1; echo "memcheck 32k rc $? $(tail -1 $OUT/memcheck_32k.log)" | tee -a $OUT/summary.txt
./build-exp/mdsim configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.35 --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E "timesteps/s|builds" | tee -a $OUT/summary.txt
