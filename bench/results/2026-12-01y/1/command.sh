set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv | tee $OUT/gpu.txt
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|abort' | tr '\n' ' ')"; }
T1="--steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
B=./build-exp
{
for k in 1 2; do
 r "1M pdl" $B/mdsim configs/bench_1m.ini $T1
 r "1M nopdl" env MDSIM_NO_PDL=1 $B/mdsim configs/bench_1m.ini $T1
 r "1M x1" $B/mdsim_x1 configs/bench_1m.ini $T1
done
r "1M pdl s.35" $B/mdsim configs/bench_1m.ini $T1 --set neighbor.skin=0.35
r "1M nopdl s.35" env MDSIM_NO_PDL=1 $B/mdsim configs/bench_1m.ini $T1 --set neighbor.skin=0.35
r "1M x1 s.35" $B/mdsim_x1 configs/bench_1m.ini $T1 --set neighbor.skin=0.35
T8="--steps 1000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
r "8M pdl" $B/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' $T8
r "8M nopdl" env MDSIM_NO_PDL=1 $B/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' $T8
r "8M x1" $B/mdsim_x1 configs/bench_lj.ini --set 'system.cells=126 126 126' $T8
T256="--steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
r "256k pdl" $B/mdsim configs/bench_lj.ini --set 'system.cells=40 40 40' $T256
r "256k nopdl" env MDSIM_NO_PDL=1 $B/mdsim configs/bench_lj.ini --set 'system.cells=40 40 40' $T256
r "KA pdl" $B/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off
r "KA nopdl" env MDSIM_NO_PDL=1 $B/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off
r "32k pdl" $B/mdsim configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off
} 2>&1 | tee $OUT/runs.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/suite.txt 2>&1; echo "suite rc=$?"; tail -3 $OUT/suite.txt
