# call 7: where a 1M step's time goes: ncu of every kernel of 60 steps (an experiment build whose device code sets no graph conditions, run with MDSIM_NO_COND_GRAPH=1 so that ncu profiles the graph's kernel nodes)
set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off --set neighbor.skin=0.5)
for B in mdsim_base mdsim_prof; do echo "$B nocond: $(MDSIM_NO_COND_GRAPH=1 $E/$B configs/bench_1m.ini --steps 3000 "${S[@]}" 2>&1 | grep -E 'Performance|builds =' | tr "\n" " ")"; done | tee $OUT/speed.txt
for SYS in 1m 8m; do
if [ $SYS = 1m ]; then A=(configs/bench_1m.ini --steps 400); SK=400; else A=(configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 250); SK=300; fi
MDSIM_NO_COND_GRAPH=1 timeout 250 ncu --clock-control none --graph-profiling node --launch-skip $SK --launch-count 480 --metrics gpu__time_duration.sum $E/mdsim_prof "${A[@]}" "${S[@]}" > $OUT/ncu_$SYS.txt 2>&1
awk '/^  [a-z_ ]*k_[a-z_0-9]*/ { match($0, /k_[a-z_0-9]*(<[^>]*>)?/); k=substr($0, RSTART, RLENGTH) } /gpu__time_duration.sum/ { v=$NF; gsub(",", "", v); if ($(NF-1)=="ms") v*=1000; if ($(NF-1)=="ns") v/=1000; t[k]+=v; n[k]++ } END { for (k in t) printf "%-60s %6d launches %10.1f us total %8.2f us mean\n", k, n[k], t[k], t[k]/n[k] }' $OUT/ncu_$SYS.txt | sort -k4 -nr | tee $OUT/summary_$SYS.txt
done
