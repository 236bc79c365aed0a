set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|coop times' | tr '\n' ' ')"; }
E8="configs/bench_lj.ini --set system.cells=126,126,126 --steps 1000"
{
r "8M x4" ./build-exp/mdsim_x4 configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
r "8M x5" ./build-exp/mdsim_x5 configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
r "8M coop" $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
r "8M nocoop" env MDSIM_NO_COOP_REBUILD=1 $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
r "1M x4" ./build-exp/mdsim_x4 configs/bench_1m.ini --steps 3000 $T
r "1M x5" ./build-exp/mdsim_x5 configs/bench_1m.ini --steps 3000 $T
r "1M coop" $B configs/bench_1m.ini --steps 3000 $T
for sk in 0.35 0.45; do r "1M coop skin $sk" $B configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=$sk; done
for p in 6 10; do r "1M coop predict $p" $B configs/bench_1m.ini --steps 3000 $T --set neighbor.predict=$p; done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
MDSIM_PROFILE_REBUILD=1 timeout 100 $B configs/bench_lj.ini --set 'system.cells=126 126 126' --bench --strategies register --set neighbor.skin=0.4 --set backend.autotune=false --set backend.threads_per_particle=1 --steps 100 > $OUT/prof8m.log 2>&1; grep -i -E "rebuild|bin|scan|sort|list" $OUT/prof8m.log | head -8 | tee -a $OUT/summary.txt
MDSIM_PROFILE_REBUILD=1 timeout 100 $B configs/bench_1m.ini --bench --strategies register --set neighbor.skin=0.4 --set backend.autotune=false --set backend.threads_per_particle=1 --steps 300 > $OUT/prof1m.log 2>&1; grep -i -E "rebuild|bin|scan|sort|list" $OUT/prof1m.log | head -8 | tee -a $OUT/summary.txt
timeout 250 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt; grep -E "rebuilds in|refined rebuild" $OUT/gpu_test.log | tee -a $OUT/summary.txt
