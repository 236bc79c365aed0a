# call 4: the fused kick-drift force launch in the graphs (MDSIM_NO_COND_GRAPH=1), compact vs off; 131k and 256k crossover
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
for v in auto off; do
MDSIM_NO_COND_GRAPH=1 ncu --clock-control none --kernel-name regex:k_force_register --launch-skip 300 --launch-count 2 --metrics gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum $E/mdsim configs/bench_1m.ini --steps 400 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v > $OUT/ncu_kd_$v.txt 2>&1
echo "== $v"; grep -E "k_force|duration|inst_exec|wavefronts|throughput|issue|dram|lts" $OUT/ncu_kd_$v.txt | sed 's/  */ /g'
done
for c in 32 40 50; do for p in auto off; do for v in on off; do
  echo "cells $c persistent $p compact $v: $($E/mdsim configs/bench_lj.ini --set "system.cells=$c $c $c" --steps 5000 --strategy register --set neighbor.skin=0.5 --set backend.persistent=$p --set run.thermo_every=0 --set run.progress=off --set backend.compact_positions=$v 2>&1 | grep -E 'Performance|builds' | tr '\n' ' ')"
done; done; done 2>&1 | tee $OUT/crossover.txt
