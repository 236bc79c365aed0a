set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
T=(configs/bench_1m.ini --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for ev in 1 2 7 14 100000; do
  ./build-exp/mdsim "${T[@]}" --steps 1400 --set neighbor.every=$ev --set neighbor.check=false 2>&1 | grep -E "Performance|builds" | tr '\n' ' ' | sed "s/^/every=$ev: /"; echo
done
MDSIM_NO_REFINE=1 ./build-exp/mdsim "${T[@]}" --steps 3000 2>&1 | grep -E "Performance|builds" | tr '\n' ' ' | sed "s/^/plain check: /"; echo
./build-exp/mdsim "${T[@]}" --steps 3000 2>&1 | grep -E "Performance|builds" | tr '\n' ' ' | sed "s/^/refined: /"; echo
MDSIM_PROFILE_REBUILD=1 ./build-exp/mdsim configs/bench_1m.ini --bench --steps 200 --strategies register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 2>&1 | grep -E "rebuild stages|register"
