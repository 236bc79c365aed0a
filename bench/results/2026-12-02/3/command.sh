set -u
# session 29 call 3 (call 2 again, the hook built with stdlib.h): skin trials at 1M (945826d + EXP_SKIN hook: MDSIM_SKIN_CAND, MDSIM_TRIAL_MIN, MDSIM_TRIAL_WARM) and the benchmark at fixed skins
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
B=(configs/bench_lj.ini --bench --steps 1000 --set "system.cells=64 64 64")
g() { grep -E "autotune: skin|^register|^global|^hybrid"; }
echo "== trials default" | tee $OUT/trials.txt
MDSIM_SKIN_CAND=0.4,0.37,0.35,0.4,0.37,0.35,0.33 ./build-exp/skin "${B[@]}" --strategies register --set neighbor.autotune_skin=true 2>&1 | g | tee -a $OUT/trials.txt
echo "== trials warm 500, 1 s" | tee -a $OUT/trials.txt
MDSIM_TRIAL_WARM=500 MDSIM_TRIAL_MIN=1.0 MDSIM_SKIN_CAND=0.4,0.37,0.35,0.4,0.37,0.35,0.33 ./build-exp/skin "${B[@]}" --strategies register --set neighbor.autotune_skin=true 2>&1 | g | tee -a $OUT/trials.txt
