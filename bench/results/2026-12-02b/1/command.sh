set -u
# session 30 call 1: x and v as planes of doubles (24 B a particle, type in s.type) against d97fcd2: perf interleaved, then the GPU suite
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
{
for rep in 1 2 3; do for b in mdsim_base mdsim; do r 1m_s0.35_$b ./build-exp/$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35; done; done
for b in mdsim_base mdsim; do r 8m_s0.35_$b ./build-exp/$b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35; done
for b in mdsim_base mdsim; do r 32k_$b ./build-exp/$b configs/bench_lj.ini --steps 20000 --set run.thermo_every=0 --set run.progress=off; done
for b in mdsim_base mdsim; do r KA256k_$b ./build-exp/$b configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off; done
} 2>&1 | tee $OUT/perf.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -3 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -E "pairs within rc checked" $OUT/gpu_test.log | tee -a $OUT/summary.txt
