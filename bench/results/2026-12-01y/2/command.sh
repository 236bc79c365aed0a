set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|abort' | tr '\n' ' ')"; }
T1="--steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
B=./build-exp
{
for k in 1 2; do
 for p in 0 1 5 2 10 3 15 7 11; do
  r "1M pdl=$p" env MDSIM_PDL=$p $B/mdsim configs/bench_1m.ini $T1
 done
done
for sm in 8192 12288 16384; do for sk in 0.4 0.35; do
  r "1M suspmax=$sm skin=$sk" env EXP_SUSPMAX=$sm $B/mdsim configs/bench_1m.ini $T1 --set neighbor.skin=$sk
done; done
} 2>&1 | tee $OUT/runs.txt
