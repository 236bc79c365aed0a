set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
T="--strategy register --set run.thermo_every=0 --set run.progress=off --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do for v in base new; do
 echo "1M $v $(./build-exp/mdsim_$v configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "8M $v $(./build-exp/mdsim_$v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done; done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/targets.txt
for v in base new; do
 mkdir -p $OUT/scal_$v && bash bench/scaling.sh ./build-exp/mdsim_$v $OUT/scal_$v 64 126 > $OUT/scal_$v/run.txt 2>&1
 echo "scaling $v:"; tail -n +2 $OUT/scal_$v/scaling.csv
done
