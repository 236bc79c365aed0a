set -u
# session 31 call 1: build positions bent by the last step's acceleration (neighbor.predict_accel) against HEAD (154a9d2); the GPU suite
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw,power.limit --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; "$@" > $OUT/logs/$tag.log 2>&1; echo "$tag $(grep -E 'timesteps/s|list builds|rror' $OUT/logs/$tag.log | tr '\n' ' ')"; }
mkdir -p $OUT/logs
{
for rep in 1 2; do
 r 1m_base_$rep ./build-exp/mdsim_base configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35
 for v in "8 0" "12 16" "16 16" "14 18" "12 12" "10 14"; do set -- $v
  r 1m_p$1_a$2_$rep ./build-exp/mdsim configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35 --set neighbor.predict=$1 --set neighbor.predict_accel=$2
 done
done
for v in "8 0" "12 16"; do set -- $v
 r 1m_s030_p$1_a$2 ./build-exp/mdsim configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.3 --set neighbor.predict=$1 --set neighbor.predict_accel=$2
 r 1m_s040_p$1_a$2 ./build-exp/mdsim configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.4 --set neighbor.predict=$1 --set neighbor.predict_accel=$2
done
r 8m_base ./build-exp/mdsim_base configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35
r 8m_p8_a0 ./build-exp/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35
r 8m_p12_a16 ./build-exp/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35 --set neighbor.predict=12 --set neighbor.predict_accel=16
r ka_base ./build-exp/mdsim_base configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off
r ka_p12_a16 ./build-exp/mdsim configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off --set neighbor.predict=12 --set neighbor.predict_accel=16
} 2>&1 | tee $OUT/perf.txt
timeout 240 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -i "refined rebuild" $OUT/gpu_test.log | tee -a $OUT/summary.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
