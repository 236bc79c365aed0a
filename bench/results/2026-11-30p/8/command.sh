# call 8: the refined check scans the 27 cells around a suspect's present position (cap a - rc instead of a - rc - skin/2): speed against base, GPU suite, sanitizers
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|rror' | tr "\n" " ")"; }
{
for B in mdsim_base mdsim mdsim_base mdsim; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=0.5; done
for B in mdsim_base mdsim; do for SK in 0.4 0.6; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=$SK; done; done
for B in mdsim_base mdsim; do for SK in 0.4 0.5; do r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=$SK; done; done
K=(configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve)
for B in mdsim_base mdsim; do r $B "${K[@]}"; done
for B in mdsim_base mdsim; do r $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 "${S[@]}" --set neighbor.skin=0.5; done
} 2>&1 | tee $OUT/speed.txt
timeout 250 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "Checks|:F:|:E:|refined|missing" $OUT/gpu_test.log | head
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $E/mdsim configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 300 "${S[@]}" --set neighbor.skin=0.5 > $OUT/mc_256k.txt 2>&1; echo "memcheck 256k rc=$? $(grep -E 'ERROR SUMMARY' $OUT/mc_256k.txt) $(grep -E 'builds =' $OUT/mc_256k.txt)"
OUT=$OUT SAN_STRATS="register list4 compact" bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; grep -E "rc=|in all" $OUT/sanitize.txt
