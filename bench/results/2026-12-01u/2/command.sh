set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
P="--bench --strategies register --set neighbor.skin=0.4 --set backend.autotune=false --set backend.threads_per_particle=1"
for rep in 1 2; do for v in base nocopy; do
  e=""; [ $v = nocopy ] && e="EXP_NOCOPY=1"
  r=$(env MDSIM_PROFILE_REBUILD=1 $e ./build-exp/mdsim_$v configs/bench_1m.ini $P --steps 300 2>&1 | grep "rebuild stages")
  echo "1M $v $r" | tee -a $OUT/summary.txt
  r=$(env MDSIM_PROFILE_REBUILD=1 $e ./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' $P --steps 100 2>&1 | grep "rebuild stages")
  echo "8M $v $r" | tee -a $OUT/summary.txt
done; done
CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -3 $OUT/gpu_test.log
