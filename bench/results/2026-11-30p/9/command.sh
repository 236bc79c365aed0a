# call 9: the refine's grid (a block per SM -> as many as are resident) with the old cap (mdsim_d) and the new one (mdsim); mdsim_b: new cap, block per SM (call 8); base: HEAD
set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
E=./build-exp
S=(--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off)
r() { local b=$1; shift; echo "$b $*: $($E/$b "$@" 2>&1 | grep -E 'Performance|builds =|rror' | tr "\n" " ")"; }
{
K=(configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve)
for B in mdsim_base mdsim_b mdsim mdsim_d; do r $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 "${S[@]}" --set neighbor.skin=0.5; done
for B in mdsim_base mdsim_b mdsim mdsim_d; do r $B "${K[@]}"; done
for B in mdsim_base mdsim mdsim_d; do for SK in 0.4 0.5; do r $B configs/bench_1m.ini --steps 3000 "${S[@]}" --set neighbor.skin=$SK; done; done
for B in mdsim_base mdsim; do for SK in 0.4 0.5; do r $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 "${S[@]}" --set neighbor.skin=$SK; done; done
for B in mdsim_base mdsim; do r $B configs/bench_lj.ini --set 'system.cells=80 80 80' --steps 2000 "${S[@]}" --set neighbor.skin=0.5; done
} 2>&1 | tee $OUT/speed.txt
timeout 250 $E/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc=$?"; grep -E "Checks|:F:|:E:|missing" $OUT/gpu_test.log | head
