set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
O=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; ./build-exp/$b "$@" "${O[@]}" 2>&1 | grep -E "Performance|builds" | awk '/Performance/{p=$4} /builds/{print p, $NF}' | sed "s/^/$b /"; }
for k in 1 2; do for b in mdsim mdsim_xl; do echo "1M: $(r $b configs/bench_1m.ini --steps 3000)"; done; done
for b in mdsim mdsim_xl mdsim mdsim_xl; do echo "256k: $(r $b configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000)"; done
for b in mdsim mdsim_xl; do echo "8M: $(r $b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000)"; done
for b in mdsim mdsim_xl; do echo "1M every1e5: $(r $b configs/bench_1m.ini --steps 1000 --set neighbor.every=100000 --set neighbor.check=false)"; done
