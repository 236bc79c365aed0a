set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
r() { tag=$1; n=$2; shift 2; ./build-exp/mdsim_$tag "$@" > $OUT/${tag}_$n.txt 2>&1; echo "$tag $n :: $(grep -o '[0-9.]* timesteps/s' $OUT/${tag}_$n.txt) $(grep -o 'builds = [0-9]*' $OUT/${tag}_$n.txt | head -1) $(grep -o 'persistent kernel ([^)]*)' $OUT/${tag}_$n.txt)" | tee -a $OUT/summary.txt; }
for n in 1 2 3; do for v in base new x8; do
  r $v $n configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off
done; done
for n in 4 5; do for v in base new; do
  r $v $n configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off --set backend.autotune=false --set backend.threads_per_particle=4 --set backend.block_size=512
done; done
