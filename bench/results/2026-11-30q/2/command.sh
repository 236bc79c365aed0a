# call 2: padded register rows, virial fixed (finite dead r2; mdsim) against 5f0eb0f (mdsim_prev) and 5f0eb0f with the padding only (mdsim_pad), at blocks of 128 (9 vs 10 resident blocks) and 384 (3 each); ncu of the force launch and the builds (experiment builds without graph conditions: mdsim_ncp, mdsim_ncn); GPU suite
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|rror|alt|NaN|nan' | tr "\n" " ")"; }
timeout 200 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "Checks|:F:|:E:|missing" $OUT/gpu_test.log | head
{
for k in 1 2; do for B in mdsim_prev mdsim mdsim_pad; do for BS in 128 384; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.4 --set backend.block_size=$BS; done; done; done
for B in mdsim_prev mdsim; do for BS in 128 384; do r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4 --set backend.block_size=$BS; done; done
for B in mdsim_prev mdsim; do r $B configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7; done
r mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve
} 2>&1 | tee $OUT/speed.txt
M=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__throughput.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes.sum
for B in mdsim_ncp mdsim_ncn; do
MDSIM_NO_COND_GRAPH=1 timeout 100 ncu --clock-control none --graph-profiling node --kernel-name regex:k_force_register --launch-skip 100 --launch-count 4 --metrics $M $E/$B configs/bench_1m.ini --steps 200 "${S[@]}" --set neighbor.skin=0.4 > $OUT/ncu_force_$B.txt 2>&1
MDSIM_NO_COND_GRAPH=1 timeout 100 ncu --clock-control none --graph-profiling node --kernel-name regex:k_build_list --launch-skip 20 --launch-count 120 --metrics gpu__time_duration.sum,smsp__inst_executed.sum $E/$B configs/bench_1m.ini --steps 200 "${S[@]}" --set neighbor.skin=0.4 > $OUT/ncu_build_$B.txt 2>&1
echo "$B force: $(grep -E 'gpu__time_duration|inst_executed|hit_rate|warps_active|issue_active|l1tex__throughput|dram__bytes' $OUT/ncu_force_$B.txt | awk '{print $1, $NF}' | sort | awk '{a[$1]=a[$1]" "$2} END {for (k in a) print k": "a[k]}')"
echo "$B builds (us, > 100): $(grep gpu__time_duration $OUT/ncu_build_$B.txt | awk '{v=$NF; gsub(",","",v); if ($(NF-1)=="ms") v*=1000; if ($(NF-1)=="ns") v/=1000; if (v>100) printf "%.0f ", v}')"
done 2>&1 | tee $OUT/ncu_summary.txt
