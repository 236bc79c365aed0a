set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
O=(configs/bench_1m.ini --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off --set neighbor.check=false)
r() { ./build-exp/mdsim "${O[@]}" "$@" 2>&1 | grep -E "Performance|builds" | awk '/Performance/{p=$4} /builds/{print p, $NF}'; }
for a in "200 100000" "1000 100000" "3000 100000" "3000 500" "3000 100" "3000 28" "3000 14"; do set -- $a; echo "steps $1 every $2: $(r --steps $1 --set neighbor.every=$2)"; done
