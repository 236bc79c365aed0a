# call 6: the persist4 memcheck finding of call 5, on three binaries:
# mdsim_old = 76aed17 (the fifteenth session's last commit), mdsim_base = e7eb01b,
# mdsim = 3e11cec.
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
X=(configs/small.ini --backend cuda --strategy register --set backend.persistent=on --set neighbor.every=3 --set 'system.cells=8 8 8')
for v in old base new; do m=$E/mdsim_$v; [ $v = new ] && m=$E/mdsim
  timeout 100 compute-sanitizer --tool memcheck --print-limit 3 --error-exitcode 9 $m "${X[@]}" --steps 60 > $OUT/mem_p4_$v.log 2>&1; echo "memcheck persist4 $v rc=$? $(tail -n1 $OUT/mem_p4_$v.log)"
  timeout 100 compute-sanitizer --tool memcheck --print-limit 3 --error-exitcode 9 $m "${X[@]}" --steps 60 --set backend.autotune=false > $OUT/mem_p4na_$v.log 2>&1; echo "memcheck persist4 noautotune $v rc=$? $(tail -n1 $OUT/mem_p4na_$v.log)"
  $m "${X[@]}" --steps 300 --set run.thermo_every=50 > $OUT/run_p4_$v.log 2>&1; echo "run $v rc=$?"; grep -E "^ *[0-9]+ " $OUT/run_p4_$v.log | tail -n 4
done
