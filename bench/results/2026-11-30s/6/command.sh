set -u
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
CK_DEFAULT_TIMEOUT=600 timeout 200 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "test rc $?"
grep -i "refined\|NVE in chunks\|then hybrid\|fail\|%" $OUT/gpu_test.log | head -40
CK_DEFAULT_TIMEOUT=600 timeout 200 ./build-exp/gpu_backend_mut > $OUT/gpu_test_mut.log 2>&1; echo "mutant test rc $?"
grep -i "then hybrid\|fail\|%" $OUT/gpu_test_mut.log | head
O1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
./build-exp/mdsim configs/bench_1m.ini --steps 3000 $O1 --set neighbor.skin=0.4 > $OUT/1m.txt 2>&1; grep -o '[0-9.]* timesteps/s' $OUT/1m.txt
SAN_STRATS="register compact compacta" OUT=$OUT timeout 100 bash bench/gpu_check.sh build-exp sanitize > /dev/null 2>&1; cat $OUT/sanitize.txt
