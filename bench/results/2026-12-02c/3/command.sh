set -u
# session 31 call 3: neighbor.predict_accel = 12 by default: target commands against HEAD (154a9d2), energy at 1M, compute-sanitizer, the GPU suite
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw,power.limit --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; "$@" > $OUT/logs/$tag.log 2>&1; echo "$tag $(grep -E 'timesteps/s|list builds|rror' $OUT/logs/$tag.log | tr '\n' ' ')"; }
ka() { b=$1; shift; ./build-exp/$b configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off "$@"; }
mkdir -p $OUT/logs
{
for rep in 1 2 3; do for b in mdsim_base mdsim; do r 1m_${b}_$rep ./build-exp/$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35; done; done
for b in mdsim_base mdsim; do r 8m_$b ./build-exp/$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35; done
for b in mdsim_base mdsim; do r ka_$b ka $b; done
for b in mdsim_base mdsim; do r 32k_$b ./build-exp/$b configs/bench_lj.ini --steps 20000 --set run.thermo_every=0 --set run.progress=off; done
for b in mdsim_base mdsim; do r 1m_energy_$b ./build-exp/$b configs/bench_1m.ini --steps 2000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.35 --set run.thermo_every=500 --set run.progress=off; grep -E "^ +(0|500|1000|1500|2000) " $OUT/logs/1m_energy_$b.log; done
} 2>&1 | tee $OUT/perf.txt
A="configs/bench_lj.ini --backend cuda --strategy register --steps 60 --set backend.autotune=false --set backend.persistent=off --set run.progress=off --set neighbor.skin=0.1"
for tool in memcheck synccheck initcheck; do timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim $A > $OUT/logs/san_$tool.log 2>&1; echo "$tool rc $? $(grep -E 'list builds' $OUT/logs/san_$tool.log) $(tail -1 $OUT/logs/san_$tool.log)"; done | tee -a $OUT/summary.txt
timeout 300 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -iE "refined rebuild|32,000 particles, skin" $OUT/gpu_test.log | tee -a $OUT/summary.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
