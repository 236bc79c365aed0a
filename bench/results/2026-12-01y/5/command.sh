set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|abort|range' | tr '\n' ' ')"; }
T1="--steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
B=./build-exp
{
for k in 1 2; do
 r "500k base" $B/mdsim_base configs/bench_lj.ini --set 'system.cells=50 50 50' $T1
 for d in 0 1; do r "500k d16=$d" env MDSIM_D16=$d $B/mdsim configs/bench_lj.ini --set 'system.cells=50 50 50' $T1; done
 r "256k base" $B/mdsim_base configs/bench_lj.ini --set 'system.cells=40 40 40' $T1
 for d in 0 1; do r "256k d16=$d" env MDSIM_D16=$d $B/mdsim configs/bench_lj.ini --set 'system.cells=40 40 40' $T1; done
 r "1M base" $B/mdsim_base configs/bench_1m.ini $T1
 r "1M d16=0" $B/mdsim configs/bench_1m.ini $T1
done
for d in 0 1; do r "KA d16=$d" env MDSIM_D16=$d $B/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off; done
r "KA base" $B/mdsim_base configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off
T8="--steps 1000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
r "8M base" $B/mdsim_base configs/bench_lj.ini --set 'system.cells=126 126 126' $T8
r "8M d16=0" $B/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' $T8
} 2>&1 | tee $OUT/runs.txt
