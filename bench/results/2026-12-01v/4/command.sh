set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do for v in base PF NA NAEF; do
 echo "1M $v $(./build-exp/mdsim_$v configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "8M $v $(./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done; done
for v in base PF NA NAEF; do
 echo "KA $v $(./build-exp/mdsim_$v configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
