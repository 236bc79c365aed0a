set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do
 echo "32k $(./build-exp/mdsim configs/bench_lj.ini --steps 30000 $S --set neighbor.skin=0.7 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "1M $(./build-exp/mdsim configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "8M $(./build-exp/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done
echo "KA $(./build-exp/mdsim configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/targets.txt
CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -1 $OUT/gpu_test.log
OUT=$OUT bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_run.txt 2>&1; echo "sanitize rc $?"; tail -5 $OUT/sanitize_run.txt
mkdir -p $OUT/scal && bash bench/scaling.sh ./build-exp/mdsim $OUT/scal > $OUT/scaling_run.txt 2>&1; echo "scaling rc $?"; cat $OUT/scal/scaling.csv
