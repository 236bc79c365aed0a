set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
B=./build-exp/mdsim
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
{
for rep in 1 2; do for p in 0 8; do
 echo "1M predict $p $($B configs/bench_1m.ini --steps 3000 $T --set neighbor.predict=$p 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "8M predict $p $($B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T --set neighbor.predict=$p 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done; done
for p in 5 12; do
 echo "1M predict $p $($B configs/bench_1m.ini --steps 3000 $T --set neighbor.predict=$p 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done
for p in 0 8; do
 echo "KA predict $p $($B configs/kob_andersen.ini --steps 3000 $S --set 'system.cells=40 40 40' --set run.ensemble=nve --set neighbor.predict=$p 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "32k predict $p $($B configs/bench_lj.ini --steps 30000 $S --set neighbor.skin=0.7 --set neighbor.predict=$p 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
 echo "256k predict $p $($B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T --set neighbor.predict=$p 2>&1 | grep -E 'timesteps/s|list builds' | tr '\n' ' ')"
done
for p in 0 8; do
 $B configs/bench_1m.ini --steps 2000 $T --set run.thermo_every=500 --set neighbor.predict=$p 2>&1 | grep -A5 "Step.*Temp" | sed "s/^/thermo1M predict $p: /"
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 300 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?"; tail -1 $OUT/gpu_test.log; grep 'refined rebuild' $OUT/gpu_test.log
for tool in memcheck racecheck synccheck initcheck; do for cells in 6 8; do
 a="--steps 60"; [ $tool = racecheck ] && a="--steps 3"
 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $B configs/small.ini --set "system.cells=$cells $cells $cells" --backend cuda --strategy register --quiet --set neighbor.predict=8 --set backend.persistent=off --set neighbor.every=3 $a > $OUT/san.log 2>&1; echo "$tool cells $cells rc=$? $(tail -1 $OUT/san.log)"
done; done | tee $OUT/sanitize.txt
