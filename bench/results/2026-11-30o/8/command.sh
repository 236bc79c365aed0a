# call 8: 16-bit j - i lists (with the compact positions) at 1M: d16 vs MDSIM_NO_D16=1 vs compact off; skins; 8M; GPU suite; memcheck/racecheck of the d16 build and force
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
run1m() { $E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" "$@" 2>&1 | grep -E 'Performance|builds|8-byte|32-bit entries' | tr "\n" " "; }
for r in 1 2; do
  echo "1M d16 skin 0.5: $(run1m --set neighbor.skin=0.5)"
  echo "1M no-d16 skin 0.5: $(MDSIM_NO_D16=1 run1m --set neighbor.skin=0.5)"
  echo "1M off skin 0.5: $(run1m --set neighbor.skin=0.5 --set backend.compact_positions=off)"
done 2>&1 | tee $OUT/1m.txt
for sk in 0.4 0.6 0.7; do echo "1M d16 skin $sk: $(run1m --set neighbor.skin=$sk)"; done 2>&1 | tee -a $OUT/1m.txt
echo "8M: $($E/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.5 2>&1 | grep -E 'Performance|builds|8-byte' | tr "\n" " ")" | tee $OUT/8m.txt
echo "KA: $($E/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E 'Performance|builds|8-byte' | tr "\n" " ")" | tee $OUT/ka.txt
timeout 400 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "compact|16-bit|Checks|Failures|Errors|:F:|:E:" $OUT/gpu_test.log | head -30
A=(configs/lj.ini --backend cuda --strategy register --set backend.compact_positions=on --set backend.persistent=off --set 'system.cells=10 10 10' --set backend.autotune=false --quiet)
for tool in memcheck racecheck synccheck initcheck; do
  st=300; [ $tool = racecheck ] && st=3
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $E/mdsim "${A[@]}" --steps $st > $OUT/san_$tool.log 2>&1; echo "$tool d16 rc=$? $(tail -n1 $OUT/san_$tool.log)"
done
CUDA_LAUNCH_BLOCKING=1 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 $E/mdsim configs/small.ini --backend cuda --strategy register --quiet --steps 60 --set backend.persistent=on --set neighbor.every=3 --set 'system.cells=8 8 8' > $OUT/san_p4_lb.log 2>&1; echo "memcheck persist4 (launch blocking) rc=$? $(tail -n1 $OUT/san_p4_lb.log)"
