set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
O=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; ./build-exp/$b "$@" 2>&1 | grep -E "Performance|builds" | awk '/Performance/{p=$4} /builds/{print p, $NF}' | sed "s/^/$b /"; }
for k in 1 2; do for b in mdsim mdsim_ro; do echo "1M: $(r $b configs/bench_1m.ini --steps 3000 "${O[@]}")"; done; done
for k in 1 2; do for b in mdsim mdsim_ro; do echo "256k: $(r $b configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 "${O[@]}")"; done; done
for k in 1 2; do for b in mdsim mdsim_ro; do echo "KA: $(r $b configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off)"; done; done
for b in mdsim mdsim_ro; do echo "8M: $(r $b configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${O[@]}")"; done
OUT=$OUT bash bench/gpu_check.sh build-exp test > $OUT/test.txt 2>&1; grep -E "refined|Checks" $OUT/test.txt
A=(configs/lj.ini --backend cuda --strategy register --set backend.persistent=off --set neighbor.skin=0.5 --set 'system.cells=10 10 10' --set backend.autotune=false --set run.progress=off --set run.thermo_every=0)
for tool in memcheck racecheck synccheck initcheck; do
  timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 ./build-exp/mdsim_ro "${A[@]}" --steps 1000 > $OUT/san_$tool.log 2>&1; echo "$tool refined-oct 1000 steps rc=$? $(grep builds $OUT/san_$tool.log) $(tail -n1 $OUT/san_$tool.log)"
done | tee $OUT/sanitize_refined.txt
