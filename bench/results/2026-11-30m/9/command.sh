set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
O=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; ./build-exp/$b "$@" "${O[@]}" 2>&1 | grep -E "Performance|builds" | awk '/Performance/{p=$4} /builds/{print p, $NF}' | sed "s/^/$b /"; }
for k in 1 2; do for b in mdsim mdsim_pl; do echo "1M: $(r $b configs/bench_1m.ini --steps 3000)"; done; done
for b in mdsim mdsim_pl mdsim mdsim_pl; do echo "256k: $(r $b configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000)"; done
for b in mdsim mdsim_pl; do echo "8M: $(r $b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000)"; done
./build-exp/mdsim configs/bench_1m.ini --strategy register --set backend.autotune=false --set neighbor.skin=0.5 --set run.thermo_every=250 --set run.progress=off --steps 3000 --set neighbor.every=500 --set neighbor.check=false 2>&1 | tail -32 > $OUT/every500.txt
./build-exp/mdsim configs/lj.ini --set run.thermo_every=250 --set run.progress=off --steps 2000 --set neighbor.every=500 --set neighbor.check=false 2>&1 | grep -E "builds|^ +[0-9]+ " > $OUT/every500_small.txt
./build-exp/mdsim configs/lj.ini --set run.thermo_every=250 --set run.progress=off --steps 2000 --set neighbor.every=500 --set neighbor.check=false --set backend.persistent=off 2>&1 | grep -E "builds" >> $OUT/every500_small.txt
cat $OUT/every500_small.txt; grep builds $OUT/every500.txt
