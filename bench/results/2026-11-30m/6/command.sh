set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
A=(configs/lj.ini --backend cuda --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off --set run.thermo_every=0)
for tool in synccheck racecheck memcheck initcheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --steps 1000 > $OUT/xl_$tool.log 2>&1; echo "$tool refined rc=$? $(grep builds $OUT/xl_$tool.log) $(tail -n1 $OUT/xl_$tool.log)"
  MDSIM_NO_REFINE=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --steps 1000 > $OUT/xlp_$tool.log 2>&1; echo "$tool plain rc=$? $(grep builds $OUT/xlp_$tool.log) $(tail -n1 $OUT/xlp_$tool.log)"
done
SAN_STRATS="register persistent list4 persist4" OUT=$OUT bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; cat $OUT/sanitize.txt | grep -v "^ " | head -30
OUT=$OUT bash bench/gpu_check.sh build-exp test > $OUT/test.txt 2>&1; tail -3 $OUT/test.txt
