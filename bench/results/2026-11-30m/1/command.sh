set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv
OUT=$OUT bash bench/gpu_check.sh build-exp test > $OUT/test.txt 2>&1; tail -5 $OUT/test.txt
for tool in memcheck racecheck synccheck initcheck; do
  st=300; [ $tool = racecheck ] && st=40
  t0=$SECONDS
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim configs/lj.ini --backend cuda --steps $st --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off > $OUT/san_$tool.log 2>&1
  echo "$tool refined rc=$? $((SECONDS-t0)) s $(tail -n 1 $OUT/san_$tool.log)"
done | tee $OUT/sanitize_refined.txt
