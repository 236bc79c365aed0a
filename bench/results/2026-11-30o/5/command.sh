# call 5: whole-graph ncu of the fused steps (1M, compact auto vs off): DRAM bytes and throughput per graph
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
for v in auto off; do
MDSIM_NO_COND_GRAPH=1 ncu --clock-control none --graph-profiling graph --launch-skip 20 --launch-count 6 --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum $E/mdsim configs/bench_1m.ini --steps 600 "${S[@]}" --set neighbor.skin=0.5 --set backend.compact_positions=$v > $OUT/ncu_graph_$v.txt 2>&1
echo "== $v"; grep -E "Graph|graph|duration|dram|throughput|inst_exec" $OUT/ncu_graph_$v.txt | grep -v WARN | sed 's/  */ /g' | head -40
done
