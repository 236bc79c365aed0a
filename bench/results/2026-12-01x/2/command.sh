set -u
# session 26 call 2: base (2c008ab), v1 (padded chunks + VEC loads without selects), v2 (padded chunks only)
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
{
for rep in 1 2; do for b in base v1 v2; do B=./build-exp/mdsim_$b
 r "1M $b" $B configs/bench_1m.ini --steps 3000 $T
done; done
for b in base v1 v2; do B=./build-exp/mdsim_$b
 r "1M nobuild $b" $B configs/bench_1m.ini --steps 1000 $T --set neighbor.check=false --set neighbor.every=100000
 r "32k $b" $B configs/bench_lj.ini --steps 30000 $S --set neighbor.skin=0.7
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
for b in base v1; do
 timeout 150 ncu --kernel-name regex:k_force_register_nve --launch-skip 100 --launch-count 2 --section SpeedOfLight --section SchedulerStats --section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis \
  ./build-exp/mdsim_$b configs/bench_1m.ini --steps 200 $T > $OUT/ncu_fused_$b.txt 2>&1
 timeout 100 ncu --kernel-name regex:k_rebuild_coop --launch-skip 50 --launch-count 150 --metrics gpu__time_duration.sum \
  ./build-exp/mdsim_$b configs/bench_1m.ini --steps 220 $T > $OUT/ncu_coop_$b.txt 2>&1
 echo "coop $b: $(grep gpu__time_duration $OUT/ncu_coop_$b.txt | awk '{v=$3; gsub(",","",v); if ($2=="ms") v*=1000; if ($2=="ns") v/=1000; if (v>100) {nb++; sb+=v} else {ns++; ss+=v}} END {printf "builds %d mean %.1f us, others %d mean %.2f us", nb, sb/nb, ns, ss/ns}')" | tee -a $OUT/summary.txt
done
grep -E "Duration|Issue Slots Busy|Issued Warp|No Eligible|Warp Cycles Per Issued|Memory Throughput|L1/TEX Hit|L2 Hit|DRAM Throughput|Achieved Occupancy|Stall" $OUT/ncu_fused_*.txt | head -60
