# call 11: final runs of the commit (refined check around the present cell, cap a - rc, k_refine on the resident grid): make bench-scaling, the target commands
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
{
echo "32k: $($E/mdsim configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off 2>&1 | grep -E 'Performance|builds =' | tr "\n" " ")"
for SK in 0.4 0.5; do echo "1M skin $SK: $($E/mdsim configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=$SK 2>&1 | grep -E 'Performance|builds =' | tr "\n" " ")"; done
for SK in 0.4 0.5; do echo "8M skin $SK: $($E/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=$SK 2>&1 | grep -E 'Performance|builds =' | tr "\n" " ")"; done
echo "KA: $($E/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve 2>&1 | grep -E 'Performance|builds =' | tr "\n" " ")"
} 2>&1 | tee $OUT/targets.txt
OUT=$OUT bash bench/gpu_check.sh build-exp scaling > $OUT/scaling_stdout.txt 2>&1; cat $OUT/scaling.csv
