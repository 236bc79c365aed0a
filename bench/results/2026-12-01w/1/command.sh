set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"; }
{
for rep in 1 2; do for b in base x2 x1; do
 r "1M $b" ./build-exp/mdsim_$b configs/bench_1m.ini --steps 3000 $T
done; done
for rep in 1 2; do for b in base x1; do
 r "8M $b" ./build-exp/mdsim_$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
 r "KA $b" ./build-exp/mdsim_$b configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve
done; done
r "1M x1 block256" ./build-exp/mdsim_x1 configs/bench_1m.ini --steps 3000 $T --set backend.block_size=256
r "1M x2 block256" ./build-exp/mdsim_x2 configs/bench_1m.ini --steps 3000 $T --set backend.block_size=256
for sk in 0.35 0.45 0.5; do r "1M x1 skin $sk" ./build-exp/mdsim_x1 configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=$sk; done
for sm in 8192 32768 65536; do r "1M x1 susp $sm" env EXP_SUSP_MAX=$sm ./build-exp/mdsim_x1 configs/bench_1m.ini --steps 3000 $T; done
for sm in 32768 131072; do r "8M x1 susp $sm" env EXP_SUSP_MAX=$sm ./build-exp/mdsim_x1 configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T; done
r "1M x1 autotune" ./build-exp/mdsim_x1 configs/bench_1m.ini --steps 3000 $S --set neighbor.skin=0.4
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
for tool in memcheck racecheck synccheck initcheck; do
 a="--steps 60"; [ $tool = racecheck ] && a="--steps 5"
 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim_x1 configs/small.ini --set "system.cells=6 6 6" --backend cuda --strategy register --quiet --set backend.persistent=off --set neighbor.every=3 $a > $OUT/san_$tool.log 2>&1; echo "$tool rc=$? $(tail -1 $OUT/san_$tool.log)"
done | tee $OUT/sanitize.txt
