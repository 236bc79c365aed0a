#!/bin/bash
# exp.sh VARIANTS... - compare builds of mdsim on the GPU machine, in one
# device call: build-exp/mdsim-V for each variant V (copies of build/mdsim
# made from different commits or -D flags; carry build-exp and
# build-gpu/gpu-libs). Writes $OUT/e/speed.txt (each variant twice: steps/s
# at 32k and 1M, `register`, autotuned) and $OUT/e/ncu.txt (ncu metrics of
# one launch of kernel $K, default k_force_register, with tpp 4 and block
# 128: time, warp instructions, L1 wavefronts and sectors, L1, issue and
# DRAM throughput). LV="V..." adds the list-build kernel's time ($K2).
# EXTRA: more mdsim options for the speed runs; NCU_TPP: lanes per
# particle of the ncu launch (default 4).
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
O=$OUT/e; mkdir -p $O
V="$*"
for rep in 1 2; do for v in $V; do
  for c in "bench_lj 20000" "bench_1m 2000"; do cf=${c% *}; ns=${c#* }
    r=$(timeout 60 ./build-exp/mdsim-$v configs/$cf.ini --steps $ns --strategy register ${EXTRA:-} --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E "Performance" | awk '{print $4}')
    echo "$rep $v $cf $r"
  done
done; done > $O/speed.txt 2>&1
M=gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_issued.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
for v in $V; do for c in bench_1m bench_lj; do
  timeout 120 ncu --clock-control none --kernel-name regex:${K:-k_force_register} --launch-skip 40 --launch-count 1 --metrics $M ./build-exp/mdsim-$v configs/$c.ini --steps 100 --set backend.autotune=false --strategy register --set backend.threads_per_particle=${NCU_TPP:-4} --set backend.block_size=128 --quiet > $O/ncu_${v}_$c.txt 2>&1
  echo "== $v $c"; grep -E "^\s+(gpu__|smsp__|l1tex__|sm__|dram__)" $O/ncu_${v}_$c.txt | awk '{print $1, $NF}'
done; done > $O/ncu.txt 2>&1
rm -f $O/ncu_*
# list-build kernel time (K2, default k_build_list) for the variants in LV
for v in ${LV:-}; do for c in bench_1m bench_lj; do
  timeout 120 ncu --clock-control none --kernel-name regex:${K2:-k_build_list} --launch-skip 2 --launch-count 3 --metrics gpu__time_duration.sum,smsp__inst_executed.sum ./build-exp/mdsim-$v configs/$c.ini --steps 100 --set backend.autotune=false --strategy register --quiet > $O/ncu2.txt 2>&1
  echo "== list $v $c"; grep -E "^\s+(gpu__|smsp__)" $O/ncu2.txt | awk '{print $1, $NF}'
done; done >> $O/ncu.txt 2>&1
rm -f $O/ncu2.txt
