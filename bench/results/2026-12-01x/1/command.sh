set -u
# session 26 call 1: padded list chunks (VEC loads without per-slot selects), mdsim, against HEAD 2c008ab, mdsim_base
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
for rep in 1 2; do for b in mdsim_base mdsim; do B=./build-exp/$b
 r "1M $b" $B configs/bench_1m.ini --steps 3000 $T
done; done
for b in mdsim_base mdsim; do B=./build-exp/$b
 r "8M $b" $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
 r "1M skin 0.35 $b" $B configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=0.35
 r "32k $b" $B configs/bench_lj.ini --steps 30000 $S --set neighbor.skin=0.7
 r "KA $b" $B configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve
 r "256k $b" $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T
done
./build-exp/mdsim configs/bench_1m.ini --steps 2000 $T --set run.thermo_every=500 2>&1 | grep -A5 "Step.*Temp" | sed "s/^/thermo1M: /"
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
OUT=$OUT/san timeout 150 bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_all.txt 2>&1; echo "sanitize_all rc $?" | tee -a $OUT/summary.txt; grep -c "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt; grep -v "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt
