set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt
B=build-exp
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
# 1M and 8M baseline
./$B/mdsim configs/bench_1m.ini --steps 3000 $O1 > $OUT/1m_a.txt 2>&1
# source-level SASS profile of one list build in the liquid at 1M
MDSIM_NO_COND_GRAPH=1 timeout 300 ncu --clock-control none --kernel-name regex:k_build_list --launch-skip 300 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section InstructionStats --section SpeedOfLight --section LaunchStats --section Occupancy \
  --page source --print-source sass --csv \
  ./$B/mdsim configs/bench_1m.ini --steps 320 $O1 --set neighbor.every=1 --set neighbor.check=false > $OUT/ncu_build_src.csv 2> $OUT/ncu_build_src.err
xz -9 $OUT/ncu_build_src.csv
MDSIM_NO_COND_GRAPH=1 timeout 300 ncu --clock-control none --kernel-name regex:'k_build_list|k_bin|k_scan|k_scatter' --launch-skip 400 --launch-count 5 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section InstructionStats --section LaunchStats --section Occupancy \
  ./$B/mdsim configs/bench_1m.ini --steps 320 $O1 --set neighbor.every=1 --set neighbor.check=false > $OUT/ncu_phases.txt 2>&1
./$B/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $O1 > $OUT/8m_a.txt 2>&1
tail -3 $OUT/*.txt
