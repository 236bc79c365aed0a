set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
./build-exp/half 64 3.0 2>&1 | tee $OUT/half_30.txt
./build-exp/half 64 2.8 2>&1 | tee $OUT/half_28.txt
A=(configs/lj.ini --backend cuda --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off)
for v in 0 1; do MDSIM_NO_REFINE=$v ./build-exp/mdsim "${A[@]}" --steps 300 2>&1 | grep -E "builds" | sed "s/^/NO_REFINE=$v: /"; done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --steps 300 > $OUT/san_race300.log 2>&1; echo "racecheck 300 rc=$? $(tail -n1 $OUT/san_race300.log)"
