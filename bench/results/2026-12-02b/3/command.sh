set -u
# session 30 call 3: the refine-only launches timed (EXP_PHASES), the top scan by a block (noinline: top; inlined with the list groups' shared memory as scratch: topi); ncu durations of the fused step and the one-launch rebuild at 1M
cd build-exp && tar xJf bins.tar.xz && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm,power.draw --format=csv,noheader | tee $OUT/summary.txt
T1="--strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set run.thermo_every=0 --set run.progress=off"
r() { tag=$1; shift; echo "$tag $("$@" 2>&1 | grep -E 'timesteps/s|list builds|rror|EXP_PHASES' | tr '\n' ' ')"; }
{
for rep in 1 2; do for b in base ph top topi; do r 1m_s0.35_$b ./build-exp/mdsim_$b configs/bench_1m.ini --steps 3000 $T1 --set neighbor.skin=0.35; done; done
} 2>&1 | tee $OUT/perf.txt
timeout 240 ncu --clock-control none --metrics gpu__time_duration.sum -k regex:"k_force_register|k_rebuild_coop" --launch-skip 2000 --launch-count 400 --csv ./build-exp/mdsim_base configs/bench_1m.ini --steps 2300 $T1 --set neighbor.skin=0.35 > $OUT/ncu.csv 2> $OUT/ncu.err
python3 - "$OUT/ncu.csv" <<'PY' | tee -a $OUT/summary.txt
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value"); ui = h.index("Metric Unit")
d = collections.defaultdict(list)
for r in rows[1:]:
    v = float(r[vi].replace(",", "")); u = r[ui]
    v = v / 1e3 if u == "nsecond" else v * 1e3 if u == "msecond" else v
    d[r[ki][:40]].append(v)
for k, v in d.items():
    v.sort()
    print(k, "n", len(v), "mean %.1f us, median %.1f, min %.1f, max %.1f" % (sum(v)/len(v), v[len(v)//2], v[0], v[-1]),
          "below 10 us: n %d mean %.2f" % (sum(1 for x in v if x < 10), sum(x for x in v if x < 10)/max(1,sum(1 for x in v if x < 10))),
          "10-200: n %d mean %.1f" % (sum(1 for x in v if 10 <= x < 200), sum(x for x in v if 10 <= x < 200)/max(1,sum(1 for x in v if 10 <= x < 200))))
PY
