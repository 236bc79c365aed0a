set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
for rep in 1 2; do for v in base new; do ./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $O1 --set neighbor.skin=0.4 > $OUT/tmp.txt 2>&1; echo "$v 8M :: $(grep -o '[0-9.]* timesteps/s' $OUT/tmp.txt) $(grep -o 'builds = [0-9]*' $OUT/tmp.txt | head -1)" | tee -a $OUT/summary.txt; done; done
