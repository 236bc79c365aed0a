set -u
# session 31 call 7: bench/scaling.sh's 1M row four times in one run at a96e92a's device code (its spread)
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
timeout 300 bash bench/scaling.sh ./build-exp/mdsim $OUT/scal 64 64 64 64 2>&1 | tail -6
grep -E "autotune: skin .* chosen" $OUT/scal/scaling.log
rm -f $OUT/scal/scaling.png
