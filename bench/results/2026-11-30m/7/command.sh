set -u
cd build-exp && tar xJf bins.tar.xz && ln -sfn $PWD/../build-gpu/gpu-libs gpu-libs && cd ..
export LD_LIBRARY_PATH=$PWD/build-gpu/gpu-libs OMP_NUM_THREADS=16
O=(configs/bench_1m.ini --strategy register --set backend.autotune=false --set backend.threads_per_particle=1 --set neighbor.skin=0.5 --set run.thermo_every=0 --set run.progress=off)
MDSIM_NO_COND_GRAPH=1 ./build-exp/mdsim "${O[@]}" --steps 3000 2>&1 | grep -E "Performance|builds"
for cc in none all; do
timeout 250 env MDSIM_NO_COND_GRAPH=1 ncu --clock-control none --cache-control $cc --metrics gpu__time_duration.sum --launch-skip 2000 --launch-count 300 ./build-exp/mdsim "${O[@]}" --steps 1200 --quiet > $OUT/ncu_$cc.txt 2>&1
python3 - $OUT/ncu_$cc.txt <<'PY'
import re, sys, collections
t = collections.defaultdict(list); name = None
for line in open(sys.argv[1]):
    m = re.match(r'\s+(?:void )?(k_\w+)', line)
    if m: name = m.group(1)
    m = re.search(r'gpu__time_duration.sum\s+(\S+)\s+([\d.,]+)', line)
    if m and name:
        v = float(m.group(2).replace(',', '')); u = m.group(1)
        t[name].append(v / 1000 if u == 'ns' else v if u == 'us' else v * 1000)
for k, v in sorted(t.items(), key=lambda kv: -sum(kv[1])):
    print(f"{k:22s} n={len(v):4d} mean {sum(v)/len(v):9.2f} us  min {min(v):9.2f} max {max(v):9.2f} total {sum(v):10.1f} us")
PY
done
