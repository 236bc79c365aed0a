set -u
# session 31 call 2: the force packed in v.w (B, two conversions) against the velocity change (A) and HEAD (154a9d2); predict x predict_accel at 1M, 8M, KA, 256k, 500k; 10,000 steps at 1M; the GPU suite
cd build-exp && tar xJf bins.tar.xz && mkdir -p tests && mv -f gpu_backend tests/ && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw,power.limit --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; "$@" > $OUT/logs/$tag.log 2>&1; echo "$tag $(grep -E 'timesteps/s|list builds|rror' $OUT/logs/$tag.log | tr '\n' ' ')"; }
P() { echo "--set neighbor.predict=$1 --set neighbor.predict_accel=$2"; }
mkdir -p $OUT/logs
ka() { b=$1; shift; ./build-exp/$b configs/kob_andersen.ini --steps 3000 --strategy register --set 'system.cells=40 40 40' --set run.ensemble=nve --set run.thermo_every=0 --set run.progress=off "$@"; }
{
for rep in 1 2; do
 r 1m_base_$rep ./build-exp/mdsim_base configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35
 r 1m_A_p10_a14_$rep ./build-exp/mdsim_a configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35 $(P 10 14)
 for v in "8 0" "10 14" "8 12" "10 10" "12 12" "9 12"; do set -- $v
  r 1m_B_p$1_a$2_$rep ./build-exp/mdsim configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35 $(P $1 $2)
 done
done
r 8m_base ./build-exp/mdsim_base configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35
for v in "10 14" "12 12" "8 12"; do set -- $v
 r 8m_B_p$1_a$2 ./build-exp/mdsim configs/bench_lj.ini --set 'system.cells=126 126 126' --steps 1000 $T1 --set neighbor.skin=0.35 $(P $1 $2)
done
r ka_base ka mdsim_base
for v in "8 0" "10 14" "8 12" "8 8" "10 10"; do set -- $v; r ka_B_p$1_a$2 ka mdsim $(P $1 $2); done
r 256k_base ./build-exp/mdsim_base configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 5000 $T1 --set neighbor.skin=0.375
r 256k_B_p10_a14 ./build-exp/mdsim configs/bench_lj.ini --set 'system.cells=40 40 40' --steps 5000 $T1 --set neighbor.skin=0.375 $(P 10 14)
r 500k_base ./build-exp/mdsim_base configs/bench_lj.ini --set 'system.cells=50 50 50' --steps 4000 $T1 --set neighbor.skin=0.4
r 500k_B_p10_a14 ./build-exp/mdsim configs/bench_lj.ini --set 'system.cells=50 50 50' --steps 4000 $T1 --set neighbor.skin=0.4 $(P 10 14)
r 1m10k_base ./build-exp/mdsim_base configs/bench_1m.ini --steps 10000 $T1 --set neighbor.skin=0.35
r 1m10k_B_p10_a14 ./build-exp/mdsim configs/bench_1m.ini --steps 10000 $T1 --set neighbor.skin=0.35 $(P 10 14)
} 2>&1 | tee $OUT/perf.txt
timeout 300 env CK_DEFAULT_TIMEOUT=600 ./build-exp/tests/gpu_backend > $OUT/gpu_test.log 2>&1; echo "suite rc $?" | tee -a $OUT/summary.txt; tail -1 $OUT/gpu_test.log | tee -a $OUT/summary.txt
grep -iE "refined rebuild|32,000 particles, skin" $OUT/gpu_test.log | tee -a $OUT/summary.txt
cd $OUT && tar cJf logs.tar.xz logs && rm -rf logs
