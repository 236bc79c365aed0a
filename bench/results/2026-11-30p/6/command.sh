# call 6: the pruned list (IF/ELSE bodies): the cost of a prune step (MDSIM_PRUNE_ALWAYS: every step prunes), larger outer skins at 1M, the sampled phase split of base and pruned
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|Pruned|not used|rror' | tr "\n" " ")"; }
{
r mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5
for P in 0.05 0.2 0.45; do MDSIM_PRUNE_ALWAYS=1 r mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 --set neighbor.prune_skin=$P; done
for SK in 0.8 0.9 1.0; do for P in 0.2 0.3; do r mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=$SK --set neighbor.prune_skin=$P; done; done
r mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.7
echo "== phase split (sampled), base skin 0.5"
$E/mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | sed -n '/Section/,/Average/p'
echo "== phase split (sampled), pruned skin 0.7 / 0.2"
$E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.7 --set neighbor.prune_skin=0.2 2>&1 | sed -n '/Section/,/Average/p'
} 2>&1 | tee $OUT/speed.txt
