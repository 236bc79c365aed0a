set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
bash bench/scaling.sh ./build-exp/mdsim $OUT/new1 64 > /dev/null 2>&1
bash bench/scaling.sh ./build-exp/mdsim_base $OUT/base1 64 > /dev/null 2>&1
bash bench/scaling.sh ./build-exp/mdsim $OUT/new2 64 126 32 16 > /dev/null 2>&1
bash bench/scaling.sh ./build-exp/mdsim_base $OUT/base2 64 126 > /dev/null 2>&1
for d in new1 base1 new2 base2; do echo "== $d"; grep -E "chosen|advanced|^===" $OUT/$d/scaling.log; grep register $OUT/$d/scaling.csv; done
