# call 4: the cost of a prune step and of an inner step: MDSIM_PRUNE_ALWAYS (every step prunes) and MDSIM_PRUNE_NEVER (prunes only after builds; wrong physics, timing only)
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off --set neighbor.skin=0.5)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|Pruned' | tr "\n" " ")"; }
{
r mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}"
for P in 0.05 0.2 0.45; do
MDSIM_PRUNE_ALWAYS=1 r mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.prune_skin=$P
MDSIM_PRUNE_NEVER=1 r mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.prune_skin=$P
MDSIM_PRUNE_NEVER=1 r mdsimsp configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.prune_skin=$P
done
} 2>&1 | tee $OUT/speed.txt
