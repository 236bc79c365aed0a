# call 2 (mdsim at 76aed17): ncu source counters of one 1M list build in the liquid
# (the full report and SASS csv, 4.4 MB, are not kept: build_sass_blocks.txt summarises them)
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
B=(configs/bench_1m.ini --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
MDSIM_NO_COND_GRAPH=1 timeout 250 ncu --clock-control none --kernel-name regex:k_build_list --launch-skip 100 --launch-count 1 --section SourceCounters --section InstructionStats --section WarpStateStats --section LaunchStats --section Occupancy --section SpeedOfLight --import-source yes -o $OUT/build ./build-exp/mdsim "${B[@]}" --steps 105 --set neighbor.every=1 --set neighbor.check=false > $OUT/ncu_build_run.log 2>&1
ncu -i $OUT/build.ncu-rep --page details > $OUT/build_details.txt 2>&1
ncu -i $OUT/build.ncu-rep --page source --csv --print-source sass > $OUT/build_sass.csv
