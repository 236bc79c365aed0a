set -u
# session 29 call 7: where a 1M step goes at 8d83294 (device code as HEAD): bench/step_fit.sh at skins 0.35 and 0.4, and the rebuild's stages
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
F="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1"
for s in 0.35 0.4; do echo "== skin $s"; timeout 120 bash bench/step_fit.sh ./build-exp/mdsim configs/bench_1m.ini $F --set neighbor.skin=$s; done 2>&1 | tee $OUT/step_fit.txt
for s in 0.35 0.4; do echo "== skin $s $(MDSIM_PROFILE_REBUILD=1 timeout 60 ./build-exp/mdsim configs/bench_1m.ini --bench --steps 1000 --strategies register --set neighbor.skin=$s 2>&1 | grep -E 'rebuild stages|^register' | tr '\n' ' ')"; done | tee $OUT/stages.txt
