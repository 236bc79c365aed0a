set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim
run() { # pre predict tag
 timeout 100 env $1 compute-sanitizer --tool memcheck --error-exitcode 9 $B configs/small.ini --set "system.cells=8 8 8" --backend cuda --strategy register --quiet --set neighbor.predict=$2 --set backend.persistent=off --set neighbor.every=3 --steps 60 > $OUT/m_$3.log 2>&1
 echo "memcheck predict $2 $1 [$3] rc=$? $(grep -m1 -A6 'Invalid' $OUT/m_$3.log | grep -E 'Invalid|Device Frame|Host Frame: cu' | head -3 | tr '\n' ' ') $(tail -1 $OUT/m_$3.log)"
}
{
for k in 1 2 3; do run X=1 0 p0_$k; run X=1 8 p8_$k; done
for k in 1 2 3; do run CUDA_LAUNCH_BLOCKING=1 8 p8lb_$k; done
} | tee $OUT/memcheck.txt
