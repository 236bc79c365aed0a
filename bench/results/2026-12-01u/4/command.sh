set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T="--strategy register --set run.thermo_every=0 --set run.progress=off --set backend.autotune=false --set backend.threads_per_particle=1"
for rep in 1 2; do
 for sk in 0.3598 0.3989 0.4 0.4392 0.4806; do
  echo "8M skin $sk $(./build-exp/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T --set neighbor.skin=$sk 2>&1 | grep -E 'timesteps/s|list builds|cells' | tr '\n' ' ')"
 done
 for sk in 0.4 0.4051; do
  echo "1M skin $sk $(./build-exp/mdsim configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=$sk 2>&1 | grep -E 'timesteps/s|list builds|cells' | tr '\n' ' ')"
 done
done | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
