set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cp mdsim mdsim_new && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; ./build-exp/mdsim_$tag "$@" $O1 > $OUT/tmp.txt 2>&1; echo "$tag $* :: $(grep -o '[0-9.]* timesteps/s' $OUT/tmp.txt) $(grep -o 'builds = [0-9]*' $OUT/tmp.txt | head -1) E $(awk '/^ +[0-9]+ +[0-9.]+ +-/{l=$5} END{print l}' $OUT/tmp.txt)" | tee -a $OUT/summary.txt; }
for rep in 1 2; do for v in lay new; do
  r $v configs/bench_1m.ini --steps 3000 --set neighbor.skin=0.4
  r $v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 --set neighbor.skin=0.4
done; done
for v in lay new; do
  ./build-exp/mdsim_$v configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve > $OUT/ka_$v.txt 2>&1; echo "$v KA :: $(grep -o '[0-9.]* timesteps/s' $OUT/ka_$v.txt)" | tee -a $OUT/summary.txt
done
for v in lay new; do ./build-exp/mdsim_$v configs/bench_1m.ini --steps 1000 --strategy register --set run.thermo_every=100 --set run.progress=off > $OUT/thermo_$v.txt 2>&1; echo "$v thermo100 :: $(grep -o '[0-9.]* timesteps/s' $OUT/thermo_$v.txt)" | tee -a $OUT/summary.txt; done
CK_DEFAULT_TIMEOUT=600 timeout 200 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "test rc $?"
grep -i "refined\|auto\|fail\|%" $OUT/gpu_test.log | head -30
SAN_STRATS="compacta" OUT=$OUT timeout 100 bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; cat $OUT/sanitize.txt
