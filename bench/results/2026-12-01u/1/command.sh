set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
S="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
V="base b4 b4pf b8pf b4n40 b4pf48"
for rep in 1 2; do for v in $V; do
  r=$(./build-exp/mdsim_$v configs/bench_1m.ini --steps 3000 $S 2>&1 | grep -E "timesteps/s|list builds" | tr '\n' ' ')
  echo "1M $v $r" | tee -a $OUT/summary.txt
done; done
for rep in 1 2; do for v in $V; do
  r=$(./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $S 2>&1 | grep -E "timesteps/s|list builds" | tr '\n' ' ')
  echo "8M $v $r" | tee -a $OUT/summary.txt
done; done
