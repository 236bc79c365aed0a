# session 32, call 5: gpu_blowup_test.sh again (call 4 gave it an absolute BUILD, which it prefixes with ./); same binaries
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs; mkdir -p /tmp/bb && tar -C /tmp/bb -xJf build-exp/bins.tar.xz && MDSIM=/tmp/bb/mdsim timeout 200 bash tests/run_all.sh tests/gpu_blowup_test.sh 2>&1 | tail -8
