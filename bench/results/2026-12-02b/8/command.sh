set -u
# session 30 call 8: the sampled steps' events read after one synchronisation per batch of 32 (profiled_middle) against d97fcd2: 1M target command, its summary's breakdown, 32k; the GPU suite
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; "$@" > $OUT/$tag.log 2>&1; echo "$tag $(grep -E 'timesteps/s|list builds|rror' $OUT/$tag.log | tr '\n' ' ')"; }
{
for rep in 1 2 3; do for b in mdsim_base mdsim; do r 1m_s0.35_${b}_$rep ./build-exp/$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35; done; done
for b in mdsim_base mdsim; do r 32k_$b ./build-exp/$b configs/bench_lj.ini --steps 20000 --set run.thermo_every=0 --set run.progress=off; done
for b in mdsim_base mdsim; do r 256k_$b ./build-exp/$b configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T1 --set neighbor.skin=0.4; done
} 2>&1 | tee $OUT/perf.txt
for f in $OUT/1m_s0.35_mdsim_base_1.log $OUT/1m_s0.35_mdsim_1.log; do echo "== $f"; grep -A8 "GPU phases" $f; done | tee -a $OUT/summary.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
