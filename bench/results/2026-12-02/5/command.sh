set -u
# session 29 call 5: skin trials on the run's launch (a set-up at the configured skin fixes it; the persistent kernel keeps its own lanes), 200 warm-up steps a trial: make bench-scaling's script; 1M bench at fixed skins; GPU suite
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
timeout 420 bash bench/scaling.sh ./build-exp/mdsim $OUT/scal 2>&1 | tail -13
for s in 0.3 0.325 0.35 0.375 0.4; do echo "== 1M bench register skin $s $(./build-exp/mdsim configs/bench_lj.ini --bench --steps 1000 --set 'system.cells=64 64 64' --strategies register --set neighbor.skin=$s 2>&1 | grep -E '^register')"; done | tee $OUT/bench1m_skins.txt
timeout 170 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -E "autotune: skin .* chosen|autotune: skin trials" $OUT/scal/scaling.log
