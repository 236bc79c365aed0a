set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && ln -sf mdsim mdsim_x8 && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; ./build-exp/mdsim_$tag "$@" > $OUT/tmp.txt 2>&1; echo "$tag $* :: $(grep -o '[0-9.]* timesteps/s' $OUT/tmp.txt) $(grep -o 'builds = [0-9]*' $OUT/tmp.txt | head -1)" | tee -a $OUT/summary.txt; }
for v in base x8 base x8; do
  MDSIM_PROFILE_REBUILD=1 ./build-exp/mdsim_$v configs/bench_1m.ini --bench --strategies register --steps 1000 --set neighbor.skin=0.4 > $OUT/prof_$v.txt 2>&1; grep -i "rebuild stages" $OUT/prof_$v.txt | sed "s/^/$v 1M /" | tee -a $OUT/summary.txt
done
for rep in 1 2; do for v in base x8; do
  r $v configs/bench_1m.ini --steps 3000 $O1 --set neighbor.skin=0.4
  r $v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $O1 --set neighbor.skin=0.4
done; done
for v in base x8; do
  r $v configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off
  r $v configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve
done
CK_DEFAULT_TIMEOUT=600 timeout 200 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; tail -1 $OUT/gpu_test.log
SAN_STRATS="register compact compacta" OUT=$OUT timeout 200 bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; grep -c "rc=0" $OUT/sanitize.txt; grep -v "rc=0" $OUT/sanitize.txt | head
