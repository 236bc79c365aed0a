set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; ./build-exp/mdsim_$tag "$@" > $OUT/tmp.txt 2>&1; echo "$tag $* :: $(grep -o '[0-9.]* timesteps/s' $OUT/tmp.txt) $(grep -o 'builds = [0-9]*' $OUT/tmp.txt | head -1)" | tee -a $OUT/summary.txt; }
for n in 1 2; do for v in base x9; do
  r $v configs/bench_1m.ini --steps 3000 $O1 --set neighbor.skin=0.4
  r $v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $O1 --set neighbor.skin=0.4
  r $v configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve
done; done
for v in base x9; do
  r $v configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40'
  r $v configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 5000 $O1 --set neighbor.skin=0.42
done
CK_DEFAULT_TIMEOUT=600 timeout 200 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; tail -1 $OUT/gpu_test.log
