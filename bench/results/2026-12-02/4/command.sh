set -u
# session 29 call 4: the skin autotuner's trials on the run's own launch, then +-0.05, +-0.025 around the fastest: 1M bench, then make bench-scaling's script
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
timeout 500 bash bench/scaling.sh ./build-exp/mdsim $OUT/scal 2>&1 | tail -15
grep -E "autotune: skin|=== " $OUT/scal/scaling.log | tail -40
