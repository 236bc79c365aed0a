# call 3: ncu of the fused launches, base against pruned (prune and inner steps)
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off --set neighbor.skin=0.5)
M=gpu__time_duration.sum,launch__registers_per_thread,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_write.sum
MDSIM_NO_COND_GRAPH=1 ncu --clock-control none --kernel-name regex:"pruned" --launch-skip 20 --launch-count 16 --metrics $M $E/mdsim configs/bench_1m.ini --steps 100 "${S[@]}" --set neighbor.prune_skin=0.2 > $OUT/ncu_pruned.txt 2>&1
MDSIM_NO_COND_GRAPH=1 ncu --clock-control none --kernel-name regex:"k_force_register<0, 0, 1, 2" --launch-skip 20 --launch-count 4 --metrics $M $E/mdsim_base configs/bench_1m.ini --steps 100 "${S[@]}" > $OUT/ncu_base.txt 2>&1
for f in pruned base; do echo "== $f"; grep -E "void k_force|duration|inst_executed|registers|dram__bytes|warps_active|issue_active|sectors_op_write" $OUT/ncu_$f.txt | sed -E 's/\(gpu_sys, int\).*//; s/ +/ /g' | paste -sd' ' | sed 's/ void /\nvoid /g'; done
for P in 0.2 0.45; do echo "P=$P: $($E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.prune_skin=$P 2>&1 | grep -E 'Performance|builds =|Pruned' | tr "\n" " ")"; done
echo "base: $($E/mdsim_base configs/bench_1m.ini --steps 3000 "${S[@]}" 2>&1 | grep -E 'Performance|builds =|Pruned' | tr "\n" " ")"
