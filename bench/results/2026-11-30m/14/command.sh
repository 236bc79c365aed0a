set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
OUT=$OUT bash bench/gpu_check.sh build-exp test > $OUT/test.txt 2>&1; grep -E "dangerous|refined|Checks|Failure|Assert" $OUT/test.txt
A=(configs/lj.ini --backend cuda --strategy register --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off --set run.thermo_every=0 --set neighbor.check=false --set neighbor.every=10 --steps 100)
for p in on off; do for tool in memcheck initcheck; do timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --set backend.persistent=$p > $OUT/san.log 2>&1; echo "$tool persistent=$p rc=$? $(grep Dangerous $OUT/san.log) $(tail -n1 $OUT/san.log)"; done; done
