# call 6: 5f0eb0f (HEAD: k_refine without the suspect-suspect check, resident_blocks) on the GPU for the first time: GPU suite, memcheck and racecheck on the refined path, gpu_check.sh sanitize (register list4 compact), the target commands
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|rror' | tr "\n" " ")"; }
timeout 250 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "Checks|:F:|:E:|missing" $OUT/gpu_test.log | head
for tool in memcheck racecheck; do N=150; [ $tool = racecheck ] && N=40; timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $E/mdsim configs/bench_lj.ini --set 'system.cells=24 24 24' --steps $N "${S[@]}" --set backend.persistent=off --set neighbor.skin=0.5 > $OUT/san_$tool.txt 2>&1; echo "$tool 55k refined rc=$? $(tail -n 1 $OUT/san_$tool.txt) $(grep -E 'builds =' $OUT/san_$tool.txt | tr '\n' ' ')"; done
OUT=$OUT SAN_STRATS="register list4 compact" timeout 240 bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; grep -E "rc=|in all" $OUT/sanitize.txt | awk '{print $1, $2, $3, $4}' | tr '\n' ';'; echo
{
for SK in 0.4 0.5; do r mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=$SK; done
r mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=0.4
r mdsim configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7
r mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve
} 2>&1 | tee $OUT/speed.txt
