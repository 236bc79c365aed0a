set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|abort|range' | tr '\n' ' ')"; }
T1="--steps 3000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=0 --set run.progress=off"
B=./build-exp
{
for k in 1 2; do
 for d in 0 1; do r "1M d16=$d" env MDSIM_D16=$d $B/mdsim configs/bench_1m.ini $T1; done
done
for d in 0 1; do r "1M d16=$d s.35" env MDSIM_D16=$d $B/mdsim configs/bench_1m.ini $T1 --set neighbor.skin=0.35; done
for d in 0 1; do r "1M d16=$d s.3" env MDSIM_D16=$d $B/mdsim configs/bench_1m.ini $T1 --set neighbor.skin=0.3; done
for d in 0 1; do r "500k d16=$d" env MDSIM_D16=$d $B/mdsim configs/bench_lj.ini --set 'system.cells=50 50 50' $T1; done
for d in 0 1; do r "256k d16=$d" env MDSIM_D16=$d $B/mdsim configs/bench_lj.ini --set 'system.cells=40 40 40' $T1; done
for d in 0 1; do r "KA d16=$d" env MDSIM_D16=$d $B/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off; done
r "8M d16=1" env MDSIM_D16=1 $B/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 200 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off
r "2M d16=1" env MDSIM_D16=1 $B/mdsim configs/bench_lj.ini --set 'system.cells=80 80 80' --steps 200 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off
} 2>&1 | tee $OUT/runs.txt
for d in 0 1; do env MDSIM_D16=$d $B/mdsim configs/bench_1m.ini --steps 2000 --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4 --set run.thermo_every=500 --set run.progress=off > $OUT/thermo_d$d.txt 2>&1; done
diff $OUT/thermo_d0.txt $OUT/thermo_d1.txt | head -20; grep -A6 "Step" $OUT/thermo_d1.txt | head -8
timeout 200 env MDSIM_D16=1 CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/suite_d16.txt 2>&1; echo "suite d16 rc=$?"; tail -3 $OUT/suite_d16.txt
