set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; ./build-exp/mdsim_$tag "$@" > $OUT/tmp.txt 2>&1; echo "$tag $* :: $(grep -o '[0-9.]* timesteps/s' $OUT/tmp.txt) $(grep -o 'builds = [0-9]*' $OUT/tmp.txt | head -1)" | tee -a $OUT/summary.txt; }
KA="configs/kob_andersen.ini --steps 3000 --strategy register --set system.cells=40_40_40"
for rep in 1 2; do for v in base t48u255 t56u255 t64u255 t48u56; do
  r $v configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve
done; done
for v in base t48u56 t56u255; do
  r $v configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=langevin
  r $v configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=64 64 64' --set run.ensemble=nve
done
for rep in 1 2; do for v in base t48u56; do
  r $v configs/bench_1m.ini --steps 3000 $O1 --set neighbor.skin=0.4 --set potential.shift=force
  r $v configs/bench_1m.ini --steps 3000 $O1 --set neighbor.skin=0.4
done; done
