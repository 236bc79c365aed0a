set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; ./build-exp/mdsim_$tag "$@" $O1 > $OUT/tmp.txt 2>&1; echo "$tag $* :: $(grep -o '[0-9.]* timesteps/s' $OUT/tmp.txt) builds $(grep -o 'builds = [0-9]*' $OUT/tmp.txt) E $(grep -A1 ' Step ' $OUT/tmp.txt | tail -0) $(awk '/^ +[0-9]+ +[0-9.]+ +-/{l=$5} END{print l}' $OUT/tmp.txt)" | tee -a $OUT/summary.txt; }
for rep in 1 2; do
for v in v0 v1 v2 v3; do
  for sk in 0.3 0.4 0.5; do r $v configs/bench_1m.ini --steps 3000 --set neighbor.skin=$sk; done
done
done
for v in v0 v1 v2 v3; do
  for sk in 0.3 0.4; do r $v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 --set neighbor.skin=$sk; done
done
