#!/usr/bin/env bash
# ncu_detail.sh - full ncu sections for one kernel of a run, plus its SASS.
# Usage: bench/ncu_detail.sh BUILD CONFIG KERNEL_REGEX TAG [mdsim options...]
# Writes $OUT/ncu_TAG.txt and $OUT/sass_TAG.txt (needs ncu and cuobjdump).
# NCU_SKIP: launches of the kernel skipped first (default 40; 0 profiles the
# first, e.g. the initial list build: later k_build_list launches return at
# once unless a rebuild is due).
set -u
B=$1 C=$2 K=$3 T=$4; shift 4
O=${OUT:-gpu-out}; mkdir -p "$O"
export LD_LIBRARY_PATH=$PWD/$B/gpu-libs
timeout 240 ncu --clock-control none --kernel-name "regex:$K" --launch-skip ${NCU_SKIP:-40} --launch-count 1 \
	--section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
	--section WarpStateStats --section InstructionStats --section Occupancy --section LaunchStats \
	--section SchedulerStats --section ComputeWorkloadAnalysis \
	./$B/mdsim "configs/$C.ini" --steps 200 --set backend.autotune=false --quiet "$@" > "$O/ncu_$T.txt" 2>&1
cuobjdump --dump-sass "./$B/mdsim" 2>/dev/null | awk -v k="$K" '
	/Function :/ { p = ($0 ~ k) } p' > "$O/sass_$T.txt"
