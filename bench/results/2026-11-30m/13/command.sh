set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
P=(configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off)
for k in 1 2 3; do for b in mdsim_base mdsim; do echo "32k $b: $(./build-exp/$b "${P[@]}" 2>&1 | grep -E 'Performance' | awk '{print $4}')"; done; done
OUT=$OUT bash bench/gpu_check.sh build-exp test > $OUT/test.txt 2>&1; grep -E "dangerous|Checks|Failure|Assert" $OUT/test.txt
A=(configs/lj.ini --backend cuda --strategy register --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off --set run.thermo_every=0 --set neighbor.check=false --set neighbor.every=10 --set backend.persistent=on --steps 100)
for b in mdsim_base mdsim; do timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 ./build-exp/$b "${A[@]}" > $OUT/race_$b.log 2>&1; echo "racecheck persistent check=false $b rc=$? $(tail -n1 $OUT/race_$b.log)"; done
for tool in memcheck initcheck synccheck; do timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim "${A[@]}" > $OUT/san_$tool.log 2>&1; echo "$tool persistent rc=$? $(grep Dangerous $OUT/san_$tool.log) $(tail -n1 $OUT/san_$tool.log)"; timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim "${A[@]}" --set backend.persistent=off > $OUT/san_$tool.log 2>&1; echo "$tool graphs rc=$? $(grep Dangerous $OUT/san_$tool.log) $(tail -n1 $OUT/san_$tool.log)"; done
O=(configs/bench_1m.ini --steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
for b in mdsim_base mdsim; do echo "1M $b: $(./build-exp/$b "${O[@]}" 2>&1 | grep -E 'Performance' | awk '{print $4}')"; done
