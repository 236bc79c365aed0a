set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cp mdsim mdsim_new && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
CK_DEFAULT_TIMEOUT=600 timeout 200 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "test rc $?"; tail -1 $OUT/gpu_test.log
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; ./build-exp/mdsim_$tag "$@" > $OUT/tmp.txt 2>&1; echo "$tag $* :: $(grep -o '[0-9.]* timesteps/s' $OUT/tmp.txt) $(grep -o 'builds = [0-9]*' $OUT/tmp.txt | head -1) E $(awk '/^ +[0-9]+ +[0-9.]+ +-/{l=$5} END{print l}' $OUT/tmp.txt)" | tee -a $OUT/summary.txt; }
for v in base new base new; do r $v configs/bench_1m.ini --steps 3000 --set neighbor.skin=0.4 $O1; done
for v in base new; do r $v configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 --set neighbor.skin=0.4 $O1; done
r new configs/bench_lj.ini --steps 30000 --strategy register --set neighbor.skin=0.7 --set run.thermo_every=0 --set run.progress=off
for v in base new; do
MDSIM_NO_COND_GRAPH=1 timeout 60 ncu --clock-control none --kernel-name regex:'k_bin|k_scan_add' --launch-skip 20 --launch-count 4 --section SpeedOfLight \
  ./build-exp/mdsim_$v configs/bench_1m.ini --steps 30 $O1 --set neighbor.skin=0.4 --set neighbor.every=1 --set neighbor.check=false > $OUT/ncu_1m_$v.txt 2>&1
grep -E "^  k_|Duration" $OUT/ncu_1m_$v.txt | paste - - | awk -v v=$v '{print v, "1M", $1, $(NF)}'
done
SAN_STRATS="register persistent list4 compact" timeout 60 bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; echo "sanitize rc $?"; grep -c "rc=0" $OUT/sanitize.txt; grep -v "rc=0" $OUT/sanitize.txt | head
