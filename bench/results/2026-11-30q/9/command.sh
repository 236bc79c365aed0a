# call 9: the 32k target command as the eighteenth session ran it (thermo output and progress off) and as calls 1 to 6 ran it (the config's thermo output), 5f0eb0f (mdsim) and aef8e18 (mdsim_aef)
set -u
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'autotune:.*chosen|Performance|builds =|rror' | tr "\n" " ")"; }
{
for k in 1 2; do for B in mdsim mdsim_aef; do
r $B configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off
r $B configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7
done; done
} 2>&1 | tee $OUT/speed.txt
