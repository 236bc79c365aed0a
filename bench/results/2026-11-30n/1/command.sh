# call 1 (binaries: mdsim and gpu_backend at 76aed17; cmb = cluster_microbench.cu,
# nvcc -O3 -arch=sm_90 -Xcompiler -fopenmp -o cmb cluster_microbench.cu)
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
./build-exp/cmb 64 3.0 2>&1 | tee $OUT/cluster_mb_30.txt
OUT=$OUT bash bench/gpu_check.sh build-exp test > /dev/null 2>&1; tail -n 3 $OUT/gpu_test.log
A=(configs/lj.ini --backend cuda --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off)
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --steps 1000 > $OUT/san_mem.log 2>&1; echo "memcheck rc=$? $(tail -n1 $OUT/san_mem.log)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --steps 1000 --set neighbor.check=false --set neighbor.every=20 > $OUT/san_mem_nocheck.log 2>&1; echo "memcheck nocheck rc=$? $(tail -n1 $OUT/san_mem_nocheck.log)"
B=(configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for r in 1 2; do ./build-exp/mdsim "${B[@]}" 2>&1 | grep -E "Performance|builds" | tr '\n' ' '; echo; done | tee $OUT/1m.txt
