set -u
# session 26 call 6: the refine's pair test on the separation now first (8-byte loads) and a block a suspect up to 132 suspects (r6, mdsim) against r1 (HEAD's refine)
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
S="--strategy register --set run.thermo_every=0 --set run.progress=off"
T="$S --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.4"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror' | tr '\n' ' ')"; }
{
for rep in 1 2; do for b in r1 r6; do B=./build-exp/mdsim_$b
 r "1M $b" $B configs/bench_1m.ini --steps 3000 $T
done; done
for b in r1 r6; do B=./build-exp/mdsim_$b
 r "256k $b" $B configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 3000 $T
 r "8M $b" $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T
 r "1M skin 0.35 $b" $B configs/bench_1m.ini --steps 3000 $T --set neighbor.skin=0.35
done
for b in r6; do B=./build-exp/mdsim_$b
 echo "== 1M stats $b"; $B configs/bench_1m.ini --steps 3000 $T 2>&1 | grep -E "refstat|timesteps/s"
 echo "== 8M stats $b"; $B configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T 2>&1 | grep -E "refstat|timesteps/s"
done
} | sed -e 's/Performance: [0-9.]* tau\/day, //' | tee $OUT/summary.txt
timeout 200 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -E "refined|missing" $OUT/gpu_test.log | head -5
OUT=$OUT/san timeout 150 bash bench/gpu_check.sh build-exp sanitize > $OUT/sanitize_all.txt 2>&1; echo "sanitize_all rc $?" | tee -a $OUT/summary.txt; grep -c "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt; grep -v "rc=0" $OUT/san/sanitize.txt | tee -a $OUT/summary.txt
