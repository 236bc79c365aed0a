#!/usr/bin/env bash
# h5md_test.sh - end-to-end checks of the H5MD trajectory of mdsim, read by
# programs other than mdsim (h5py, MDAnalysis, numpy):
#   1. a run's file: every frame and box read by MDAnalysis equals the h5py
#      read; frame 0 is the analytic fcc lattice; positions, velocities,
#      forces and images obey the velocity-Verlet update between frames;
#      energies and forces recomputed from the stored positions (O(N^2),
#      numpy) match the stored observables and forces; observables match
#      the thermo lines mdsim printed
#   2. an existing file is not overwritten (exit 2, bytes unchanged) unless
#      --force; bad fields exit 2; an unwritable path exits 4
#   3. restart: the loaded state is the last frame exactly; a restarted run
#      continues the uninterrupted one (bit for bit when the backend allows,
#      see docs/h5md.md)
#   4. SIGKILL mid-run: the file opens in h5py and MDAnalysis, every frame
#      flushed before the kill is there and equals an uninterrupted run;
#      a restart continues it
#   5. SIGTERM and SIGINT: exit 143/130, summary printed, file complete
#   6. disk full (a small tmpfs when we may mount one) and a file-size
#      limit: exit 4, a clear message, the frames before stay readable
#   7. tools/analyze_traj.py: g(r), MSD, energy plot (g(r) cross-checked
#      against MDAnalysis's InterRDF)
#   8. output.units = argon: a plain mda.Universe(path) reads every frame;
#      positions, box, velocities, forces, time and observables equal the
#      same run written in lj units times scales computed here (sigma,
#      epsilon/kB, m of argon, CODATA kB and NA); a restart from the argon
#      file continues the uninterrupted run to round-off; appending in lj
#      units to it exits 2 and leaves it untouched
# Skips (exit 0) when python3-mdanalysis, h5py or matplotlib are missing.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
MDSIM=${MDSIM:-./build/mdsim}
case "$MDSIM" in /*) ;; *) MDSIM="$ROOT/$MDSIM" ;; esac
PY=/usr/bin/python3

if ! "$PY" -c 'import MDAnalysis, h5py, numpy, matplotlib' 2>/dev/null; then
	echo "SKIP: h5md_test needs python3-mdanalysis, python3-h5py and python3-matplotlib (make deps)"
	exit 0
fi
if [ ! -x "$MDSIM" ]; then
	echo "not ok - mdsim binary $MDSIM not found"
	echo "0 passed, 1 failed"
	exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/h5md_test.XXXXXX")
MNT=""
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK"
export OMP_NUM_THREADS=1 PYTHONWARNINGS=ignore

pass=0; fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "not ok - $*"; }
check() {	# check NAME COMMAND...: ok when the command succeeds
	local name=$1; shift
	if "$@" > check.log 2>&1; then ok "$name"; else bad "$name"; sed 's/^/    /' check.log | tail -n 20; fi
}

# ---------------------------------------------------------------------------
cat > base.ini <<'EOF'
[system]
density = 0.8442
cells = 4 4 4
temperature = 1.44
seed = 7
[potential]
cutoff = 2.5
shift = none
[neighbor]
skin = 0.3
[run]
steps = 100
dt = 0.005
thermo_every = 10
[backend]
device = cpu
threads = 1
[output]
trajectory = run.h5md
every = 1
fields = position,velocity,image,force
flush_interval = 0
EOF

# Python helpers shared by the checks (numpy only, plus h5py/MDAnalysis).
cat > lib.py <<'EOF'
import sys, warnings
warnings.filterwarnings("ignore")
import numpy as np, h5py
P = "particles/trajectory/"

def fcc(rho, cells):
    """The fcc lattice as mdsim documents it: cells z, y, x, then 4 basis sites."""
    a = (4.0 / rho) ** (1.0 / 3.0)
    basis = np.array([[0, 0, 0], [.5, .5, 0], [.5, 0, .5], [0, .5, .5]])
    pts = [((cx + b[0]) * a, (cy + b[1]) * a, (cz + b[2]) * a)
           for cz in range(cells) for cy in range(cells) for cx in range(cells) for b in basis]
    return np.array(pts), a * cells

def lj(x, box, rc):
    """Plain truncated LJ (shift = none): total energy and forces, O(N^2)."""
    d = x[:, None, :] - x[None, :, :]
    d -= box * np.rint(d / box)
    r2 = (d ** 2).sum(-1)
    np.fill_diagonal(r2, np.inf)
    inside = r2 < rc * rc
    ir6 = np.where(inside, 1.0 / r2 ** 3, 0.0)
    e = 0.5 * (4.0 * (ir6 * ir6 - ir6)).sum()
    fr = np.where(inside, (48.0 * ir6 * ir6 - 24.0 * ir6) / np.where(inside, r2, 1.0), 0.0)
    return e, (fr[:, :, None] * d).sum(1)

def complete_frames(f):
    """Frames that every time-dependent dataset holds (value, step and time
    of each particle element, the box edges and each observable), finite
    and readable: a kill inside a flush may leave the last one incomplete
    in any of them, and MDAnalysis reads velocities and box too."""
    lens = []
    def visit(name, obj):
        if isinstance(obj, h5py.Dataset) and name.split("/")[-1] in ("value", "step", "time") \
                and obj.shape and (name.startswith("particles/") or name.startswith("observables/")):
            lens.append(obj.shape[0])
    f.visititems(visit)
    n = min(lens)
    good = []
    for k in range(n):
        try:
            if np.isfinite(f[P + "position/value"][k]).all():
                good.append(k)
        except OSError:
            pass
    return n, good

def universe(path):
    """MDAnalysis on an mdsim file: reduced units, so convert_units=False;
    n_atoms given because MDAnalysis 2.4 passes convert_units on to
    parse_n_atoms, which does not take it."""
    import MDAnalysis as mda
    with h5py.File(path, "r") as f:
        n = f[P + "position/value"].shape[1]
    return mda.Universe(path, n_atoms=n, convert_units=False)
EOF

# ---------------------------------------------------------------------------
# 1. one run, checked by others
"$MDSIM" base.ini > run.log 2> run.err
rc=$?
[ $rc -eq 0 ] && ok "run with a trajectory exits 0" || { bad "run with a trajectory exits $rc"; cat run.err; }

cat > check_run.py <<'EOF'
from lib import *
path, log = sys.argv[1], sys.argv[2]
rho, cells, T0, dt, rc = 0.8442, 4, 1.44, 0.005, 2.5
f = h5py.File(path, "r")
x = f[P + "position/value"][:]; v = f[P + "velocity/value"][:]
fo = f[P + "force/value"][:]; img = f[P + "image/value"][:]
steps = f[P + "position/step"][:]; time = f[P + "position/time"][:]
edges = f[P + "box/edges/value"][:]
nf, n = x.shape[0], x.shape[1]
assert nf == 101 and n == 4 * cells ** 3, (nf, n)
assert list(f["h5md"].attrs["version"]) == [1, 1]
assert f[P + "box"].attrs["dimension"] == 3
assert [b.decode() for b in f[P + "box"].attrs["boundary"]] == ["periodic"] * 3
assert edges.shape == (nf, 3, 3) and steps.dtype == np.int64
assert (steps == np.arange(nf)).all() and np.allclose(time, dt * steps, rtol=0, atol=1e-15)
assert "[output]" in f["parameters/config"][()].decode()

# MDAnalysis reads every frame, its box and positions = the h5py read
u = universe(path)
assert u.trajectory.n_frames == nf, u.trajectory.n_frames
for k, ts in enumerate(u.trajectory):
    assert ts.frame == k and ts.data["step"] == steps[k]
    assert abs(ts.time - time[k]) < 1e-12
    assert np.allclose(ts.dimensions[:3], np.diag(edges[k]), rtol=1e-6) and (ts.dimensions[3:] == 90).all()
    assert np.array_equal(ts.positions, x[k].astype(np.float32)), k
    assert np.array_equal(ts.velocities, v[k].astype(np.float32)), k
    assert abs(ts.data["temperature"] - f["observables/temperature/value"][k]) < 1e-12
print("MDAnalysis: %d frames, boxes and positions equal the h5py read" % nf)

# frame 0: the analytic lattice, zero momentum, exact temperature
lat, L = fcc(rho, cells)
assert np.abs(x[0] - lat).max() < 1e-12, np.abs(x[0] - lat).max()
assert np.allclose(np.diag(edges[0]), L, rtol=1e-14)
assert np.abs(v[0].sum(0)).max() < 1e-10
T = (v[0] ** 2).sum() / (3 * n - 3)
assert abs(T - T0) < 1e-12 * T0, T
print("frame 0 = fcc lattice (max dev %.1e), T = %.15g" % (np.abs(x[0] - lat).max(), T))

# velocity Verlet between consecutive frames (every = 1, m = 1):
# x' = x + dt v + dt^2/2 f  (unwrapped with the images), v' = v + dt/2 (f + f')
box = np.diag(edges[0])
xu = x + img * box
dx = xu[1:] - xu[:-1] - dt * v[:-1] - 0.5 * dt * dt * fo[:-1]
dv = v[1:] - v[:-1] - 0.5 * dt * (fo[:-1] + fo[1:])
assert np.abs(dx).max() < 1e-9 and np.abs(dv).max() < 1e-9, (np.abs(dx).max(), np.abs(dv).max())
assert ((x >= 0) & (x < box)).all()
print("Verlet consistency of x, v, f, image over %d steps: %.1e, %.1e" % (nf - 1, np.abs(dx).max(), np.abs(dv).max()))

# energies and forces recomputed from the stored positions
pe = f["observables/potential_energy/value"][:]
ke = f["observables/kinetic_energy/value"][:]
for k in (0, 37, 100):
    e, force = lj(x[k], box, rc)
    assert abs(e / n - pe[k]) < 1e-10 * abs(pe[k]), (k, e / n, pe[k])
    assert np.abs(force - fo[k]).max() < 1e-9, np.abs(force - fo[k]).max()
    assert abs(0.5 * (v[k] ** 2).sum() / n - ke[k]) < 1e-12
print("O(N^2) energies and forces match the file")

# observables = the thermo lines mdsim printed (8 significant digits)
rows = {}
for line in open(log):
    w = line.split()
    if len(w) == 6 and w[0].isdigit():
        rows[int(w[0])] = [float(t) for t in w[1:]]
names = ["temperature", "potential_energy", "kinetic_energy", "total_energy", "pressure"]
assert len(rows) == 11
for s, vals in rows.items():
    for name, want in zip(names, vals):
        got = f["observables/" + name + "/value"][s]
        assert abs(got - want) <= 1e-7 * max(abs(want), 1e-3), (s, name, got, want)
print("observables match the %d thermo lines" % len(rows))
EOF
check "MDAnalysis and h5py read the run; lattice, Verlet, O(N^2) and thermo checks" \
	"$PY" check_run.py run.h5md run.log
grep -q "^Trajectory run.h5md: 101 frames written" run.log && ok "writer summary line" || bad "writer summary line"

# ---------------------------------------------------------------------------
# 2. existing files, bad fields, unwritable paths
sum_before=$(sha256sum run.h5md)
"$MDSIM" base.ini > again.log 2> again.err
rc=$?
if [ $rc -eq 2 ] && grep -q "exists and is not overwritten" again.err &&
   [ "$(sha256sum run.h5md)" = "$sum_before" ] && ! grep -q "Step" again.log; then
	ok "existing file: exit 2 before any work, file untouched"
else
	bad "existing file: rc $rc"; cat again.err
fi
"$MDSIM" base.ini --force --steps 10 --quiet > force.log 2>&1
rc=$?
n=$("$PY" -c 'import h5py; print(h5py.File("run.h5md","r")["particles/trajectory/position/value"].shape[0])' 2>/dev/null)
[ $rc -eq 0 ] && [ "$n" = 11 ] && ok "--force replaces it" || bad "--force: rc $rc, $n frames"
"$MDSIM" base.ini --force --set output.fields=position,speed > bf.log 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "fields" bf.log && ok "bad output.fields: exit 2" || { bad "bad fields: rc $rc"; cat bf.log; }
"$MDSIM" base.ini --set output.trajectory=/nonexistent-dir/x.h5md > unw.log 2>&1
rc=$?
[ $rc -eq 4 ] && grep -q "cannot create /nonexistent-dir/x.h5md: No such file or directory" unw.log &&
	! grep -q "^ *Step" unw.log &&
	ok "unwritable path: exit 4 with the reason, before any work" || { bad "unwritable path: rc $rc"; cat unw.log; }

# ---------------------------------------------------------------------------
# 3. restart. Every frame is a restart point (the backend rebuilds its
# lists there, in an order that depends on the positions only), so a run
# restarted from a frame continues the uninterrupted one bit-for-bit on the
# CPU backend, with the default neighbour settings.
RS="--set output.every=50 --set output.fields=position,velocity,image --quiet --backend cpu"
"$MDSIM" base.ini $RS --steps 200 --set output.trajectory=A.h5md > /dev/null 2>&1 &&
"$MDSIM" base.ini $RS --steps 100 --set output.trajectory=B.h5md > /dev/null 2>&1 &&
"$MDSIM" base.ini $RS --steps 100 --restart B.h5md --set output.trajectory=B.h5md \
	--set output.append=true > restart.log 2>&1
rc=$?
[ $rc -eq 0 ] && ok "restart with append exits 0" || { bad "restart: rc $rc"; cat restart.log; }
"$MDSIM" base.ini $RS --steps 50 --restart B.h5md --set output.trajectory=C.h5md > /dev/null 2>&1
cat > check_restart.py <<'EOF'
from lib import *
a, b, c = (h5py.File(p, "r") for p in sys.argv[1:4])
sa, sb = a[P + "position/step"][:], b[P + "position/step"][:]
assert list(sa) == [0, 50, 100, 150, 200] and list(sb) == list(sa), (sa, sb)
# the restart state is the last frame exactly: C's first frame is B's step 200 frame
assert c[P + "position/step"][0] == 200
for e in ("position", "velocity", "image"):
    assert np.array_equal(c[P + e + "/value"][0], b[P + e + "/value"][4]), e
assert "config_from_step_100" in b["parameters"]
worst = 0.0
for k in range(5):
    for e in ("position", "velocity", "image"):
        d = np.abs(a[P + e + "/value"][k] - b[P + e + "/value"][k]).max()
        worst = max(worst, float(d))
assert worst == 0.0, "restart differs from the uninterrupted run by %g" % worst
print("restart: bit-exact")
EOF
check "restart continues the uninterrupted run; restart state = last frame exactly" \
	"$PY" check_restart.py A.h5md B.h5md C.h5md
grep -h "restart\|NOTE" check.log | head -n 2
"$MDSIM" base.ini --quiet --steps 10 --set output.fields=position --set output.trajectory=P.h5md > /dev/null 2>&1
"$MDSIM" base.ini --quiet --restart P.h5md --set output.trajectory= > rp.log 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "restart needs position, velocity and image" rp.log &&
	ok "restart from a file without velocity: exit 2, says what a restart needs" ||
	{ bad "restart without velocity: rc $rc"; cat rp.log; }

"$MDSIM" base.ini --quiet --restart B.h5md --set "system.cells=5 5 5" --set output.trajectory= > rm.log 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q "holds 256 particles" rm.log &&
	ok "restart into a config of another system: exit 2" || { bad "restart mismatch: rc $rc"; cat rm.log; }

# ---------------------------------------------------------------------------
# 4. SIGKILL in the middle of a run
"$MDSIM" base.ini --set "system.cells=5 5 5" --set output.every=10 --set output.fields=position,velocity,image \
	--set output.trajectory=killed.h5md --steps 100000000 > kill.log 2>&1 &
pid=$!
target=$((300 + RANDOM % 500))
for _ in $(seq 1 1000); do
	last=$(awk '$1 ~ /^[0-9]+$/ && NF == 6 { s = $1 } END { print s + 0 }' kill.log)
	[ "$last" -ge "$target" ] && break
	sleep 0.01
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
last=$(awk '$1 ~ /^[0-9]+$/ && NF == 6 { s = $1 } END { print s + 0 }' kill.log)
echo "    killed with -9 after thermo step $last"
# The line of step s is printed before the frame of step s is queued; two
# buffers: when it was printed, the frame of step s - 30 had been written
# and flushed (flush_interval = 0).
nmax=$("$PY" -c '
from lib import *
f = h5py.File("killed.h5md", "r"); n, good = complete_frames(f)
print(int(f[P + "position/step"][good[-1]]))' 2>/dev/null)
"$MDSIM" base.ini --set "system.cells=5 5 5" --set output.every=10 --set output.fields=position,velocity,image \
	--set output.trajectory=ref.h5md --steps "${nmax:-0}" --quiet > /dev/null 2>&1
cat > check_kill.py <<'EOF'
from lib import *
path, ref, last = sys.argv[1], sys.argv[2], int(sys.argv[3])
f = h5py.File(path, "r")          # a plain open: no SWMR, no repair
r = h5py.File(ref, "r")
n, good = complete_frames(f)
assert good == list(range(len(good))) and len(good) >= n - 1, (n, good[-3:])
steps = f[P + "position/step"][:len(good)]
assert steps[-1] >= last - 30, (steps[-1], last)
rs = r[P + "position/step"][:]
for k in good:
    i = int(np.searchsorted(rs, steps[k]))
    for e in ("position", "velocity", "image"):
        assert np.array_equal(f[P + e + "/value"][k], r[P + e + "/value"][i]), (k, e)
u = universe(path)
for ts in u.trajectory[:len(good)]:
    assert np.array_equal(ts.positions, f[P + "position/value"][ts.frame].astype(np.float32))
print("killed file: %d complete frames (%d in the file), all equal the uninterrupted run; "
      "MDAnalysis reads them" % (len(good), n))
EOF
check "SIGKILL: plain h5py and MDAnalysis open the file; flushed frames equal an uninterrupted run" \
	"$PY" check_kill.py killed.h5md ref.h5md "$last"
head -n 1 check.log | sed 's/^/    /'
"$MDSIM" base.ini --set "system.cells=5 5 5" --set output.every=10 --set output.fields=position,velocity,image \
	--set output.trajectory=killed.h5md --set output.append=true --restart killed.h5md --steps 50 --quiet > kr.log 2>&1
rc=$?
cat > check_kr.py <<'EOF'
from lib import *
f = h5py.File(sys.argv[1], "r")
n, good = complete_frames(f)
s = f[P + "position/step"][:]
assert len(good) == n and n == len(s) and (np.diff(s) == 10).all(), (n, len(good), s[-8:])
print("after restart: %d frames, steps %d..%d every 10" % (n, s[0], s[-1]))
EOF
[ $rc -eq 0 ] && check "restart after SIGKILL appends from the last complete frame" "$PY" check_kr.py killed.h5md ||
	{ bad "restart after SIGKILL: rc $rc"; cat kr.log; }

# ---------------------------------------------------------------------------
# 5. SIGTERM and SIGINT: clean stop
# The last run's sig.log goes first: the wait below could otherwise read
# it before the new run truncates it and signal a run that has not yet
# installed its handlers (a SIGINT is then lost: a background job of a
# non-interactive shell starts with SIGINT ignored) and that runs its
# 10^8 steps (a CI run hung here). The wait after the signal is bounded.
for sig in TERM INT; do
	rm -f sig.h5md sig.log sig.err
	"$MDSIM" base.ini --set output.every=10 --set output.fields=position,velocity,image \
		--set output.trajectory=sig.h5md --steps 100000000 > sig.log 2> sig.err &
	pid=$!
	for _ in $(seq 1 3000); do
		grep -qE "^ +[0-9]{3,} " sig.log 2>/dev/null && break
		sleep 0.01
	done
	kill -$sig $pid
	for _ in $(seq 1 300); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 $pid 2>/dev/null; then
		kill -9 $pid
		echo "SIG$sig: still running 30 s after the signal, killed" >> sig.err
	fi
	wait $pid
	rc=$?
	want=$([ $sig = TERM ] && echo 143 || echo 130)
	stopped=$(sed -n "s/.*SIG$sig received: stopped cleanly after step \([0-9]*\).*/\1/p" sig.err)
	if [ $rc -eq "$want" ] && [ -n "$stopped" ] && grep -q "^Loop time" sig.log &&
	   grep -q "^Trajectory sig.h5md" sig.log &&
	   "$PY" -c "
from lib import *
f = h5py.File('sig.h5md', 'r'); n, good = complete_frames(f)
s = f[P + 'position/step'][:]
assert len(good) == n == $stopped // 10 + 1 and list(s) == list(range(0, $stopped + 1, 10)), (n, s[-3:])
" > sig.py.log 2>&1; then
		ok "SIG$sig: exit $want, summary printed, all frames up to step $stopped in the closed file"
	else
		bad "SIG$sig: rc $rc, stopped '$stopped'"; cat sig.err sig.py.log | tail -n 8
	fi
done

# ---------------------------------------------------------------------------
# 6. disk full and a file-size limit
cat > check_full.py <<'EOF'
from lib import *
f = h5py.File(sys.argv[1], "r")
r = h5py.File(sys.argv[2], "r")
n, good = complete_frames(f)
assert len(good) >= 2 and good == list(range(len(good))) and len(good) >= n - 1, (n, len(good))
for k in good:
    assert np.array_equal(f[P + "position/value"][k], r[P + "position/value"][k]), k
print("%d complete frames kept, equal to the uninterrupted run" % len(good))
EOF
"$MDSIM" base.ini --set output.fields=position,velocity,image --set output.trajectory=full_ref.h5md \
	--steps 300 --quiet > /dev/null 2>&1
if [ "$(id -u)" = 0 ] && mkdir -p mnt && mount -t tmpfs -o size=400k tmpfs mnt 2>/dev/null; then
	MNT=$WORK/mnt
	"$MDSIM" base.ini --set output.fields=position,velocity,image --set output.trajectory=mnt/full.h5md \
		--steps 300 > full.log 2> full.err
	rc=$?
	if [ $rc -eq 4 ] && grep -q "No space left on device" full.err &&
	   grep -q "^Loop time" full.log && "$PY" check_full.py mnt/full.h5md full_ref.h5md > full.py.log 2>&1; then
		ok "disk full (400 KiB tmpfs): exit 4, clear message, earlier frames readable ($(cat full.py.log))"
	else
		bad "disk full: rc $rc"; cat full.err full.py.log | tail -n 8
	fi
	umount mnt && MNT=""
else
	echo "    (no tmpfs mount here: disk-full case covered by the file-size limit below)"
fi
rm -f lim.h5md
(
	trap '' XFSZ	# write() then fails with EFBIG instead of killing
	ulimit -f 400
	exec "$MDSIM" base.ini --set output.fields=position,velocity,image --set output.trajectory=lim.h5md \
		--steps 300 > lim.log 2> lim.err
)
rc=$?
if [ $rc -eq 4 ] && grep -q "File too large" lim.err && "$PY" check_full.py lim.h5md full_ref.h5md > lim.py.log 2>&1; then
	ok "file-size limit: exit 4, clear message, earlier frames readable ($(cat lim.py.log))"
else
	bad "file-size limit: rc $rc"; cat lim.err lim.py.log | tail -n 8
fi

# ---------------------------------------------------------------------------
# 7. the analysis tool
"$MDSIM" base.ini --force --steps 400 --set output.every=20 --set output.fields=position,velocity,image \
	--quiet > /dev/null 2>&1
if MPLBACKEND=Agg "$PY" "$ROOT/tools/analyze_traj.py" run.h5md --out ana --start 5 --check-mdanalysis > ana.log 2>&1 &&
   [ -s ana.png ] && [ -s ana_rdf.csv ] && [ -s ana_msd.csv ] &&
   grep -q "g(r): first peak at r = 1\.[01]" ana.log && grep -q "MDAnalysis InterRDF agrees" ana.log; then
	ok "tools/analyze_traj.py: g(r) (peak near 1.1 sigma, = MDAnalysis InterRDF), MSD, energy plot"
	sed 's/^/    /' ana.log
else
	bad "tools/analyze_traj.py"; cat ana.log | tail -n 15
fi

# ---------------------------------------------------------------------------
# 8. output.units = argon
AR="--set output.every=10 --set output.fields=position,velocity,image,force --quiet --backend cpu --steps 100"
"$MDSIM" base.ini $AR --set output.trajectory=u_lj.h5md > /dev/null 2>&1 &&
"$MDSIM" base.ini $AR --set output.trajectory=u_ar.h5md --set output.units=argon > /dev/null 2>&1
rc=$?
[ $rc -eq 0 ] && ok "runs with output.units = lj and argon exit 0" || bad "units runs: rc $rc"
cat > check_argon.py <<'EOF'
from lib import *
import MDAnalysis as mda
lj, ar = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
# argon from its definition: sigma, epsilon/kB, molar mass; CODATA 2018
kB, NA = 1.380649e-23, 6.02214076e23
sigma, eps, m = 3.405e-10, 119.8 * kB, 39.948e-3 / NA
L = 3.405                                   # Angstrom per sigma
tau = sigma * np.sqrt(m / eps) * 1e12       # ps per tau
E = eps * NA / 1000.0                       # kJ/mol per epsilon
Pbar = eps / sigma ** 3 / 1e5               # bar per epsilon sigma^-3
assert abs(tau - 2.156) < 1e-3, tau
dt = 0.005
x, v, fo = (lj[P + e + "/value"][:] for e in ("position", "velocity", "force"))
steps, edges = lj[P + "position/step"][:], lj[P + "box/edges/value"][:]
nf = x.shape[0]
obs = {k: lj["observables/" + k + "/value"][:] for k in lj["observables"]}
oscale = {"potential_energy": E, "kinetic_energy": E, "total_energy": E,
          "temperature": 119.8, "pressure": Pbar}

# the file itself (h5py, double precision): the lj run times the scales
assert np.array_equal(ar[P + "position/step"][:], steps)
assert np.allclose(ar[P + "position/value"][:], x * L, rtol=1e-15, atol=0)
assert np.allclose(ar[P + "box/edges/value"][:], edges * L, rtol=1e-15, atol=0)
assert np.allclose(ar[P + "velocity/value"][:], v * L / tau, rtol=1e-12, atol=0)
assert np.allclose(ar[P + "position/time"][:], steps * dt * tau, rtol=1e-12, atol=0)
assert np.allclose(ar[P + "mass"][:], 39.948, rtol=1e-15)
assert ar[P + "mass"].attrs["unit"] == "u"
for k, s in oscale.items():
    assert np.allclose(ar["observables/" + k + "/value"][:], obs[k] * s, rtol=1e-12, atol=0), k
ua = ar["parameters/units"].attrs
assert ua["system"] == "argon" and ua["length"] == L and abs(ua["time"] / tau - 1) < 1e-12

# MDAnalysis with no options at all (convert_units=True, n_atoms from the file)
u = mda.Universe(sys.argv[2])
assert u.trajectory.units == {"time": "ps", "length": "Angstrom",
                              "velocity": "Angstrom/ps", "force": "kJ/(mol*Angstrom)"}, u.trajectory.units
assert u.trajectory.n_frames == nf == 11, u.trajectory.n_frames
f32 = np.finfo(np.float32).eps
seen = 0
for k, ts in enumerate(u.trajectory):
    assert ts.frame == k and ts.data["step"] == steps[k]
    assert abs(ts.time - steps[k] * dt * tau) <= 1e-12 * max(ts.time, 1.0), (ts.time, steps[k])
    want = x[k] * L
    assert np.abs(ts.positions - want).max() <= f32 * np.abs(want).max(), k
    assert np.allclose(ts.dimensions[:3], np.diag(edges[k]) * L, rtol=f32, atol=0)
    assert (ts.dimensions[3:] == 90).all()
    wv, wf = v[k] * L / tau, fo[k] * E / L
    assert np.abs(ts.velocities - wv).max() <= 2 * f32 * np.abs(wv).max(), k
    assert np.abs(ts.forces - wf).max() <= 2 * f32 * np.abs(wf).max(), k
    for name, s in oscale.items():
        assert abs(ts.data[name] - obs[name][k] * s) <= 1e-12 * abs(obs[name][k] * s), name
    seen += 1
assert seen == nf
print("mda.Universe(path): %d frames; positions, box, velocities, forces = lj run x (%.3f A, %.6f ps per tau)" %
      (nf, L, tau))
EOF
check "argon: plain mda.Universe(path) reads every frame, values = the lj run x argon scales" \
	"$PY" check_argon.py u_lj.h5md u_ar.h5md
tail -n 1 check.log | sed 's/^/    /'

# the argon restart seed of the fuzzer, written by tests/fuzz/make_seeds.py
# with scales computed in Python from the argon parameters and CODATA
# constants, restarts to the same thermo as the lj seed of the same state
cp "$ROOT/tests/bad_inputs/restart.conf" seed.conf
check "fuzz seed valid4_argon.h5md (Python scales) restarts like valid4.h5md (lj)" \
	sh -c "'$MDSIM' seed.conf --restart '$ROOT/tests/fuzz/seeds_restart/valid4.h5md' --set output.trajectory= --steps 10 2>&1 | grep -A1 ' Step ' > s_lj.txt &&
	       '$MDSIM' seed.conf --restart '$ROOT/tests/fuzz/seeds_restart/valid4_argon.h5md' --set output.trajectory= --steps 10 2>&1 | grep -A1 ' Step ' > s_ar.txt &&
	       [ \$(wc -l < s_lj.txt) -eq 2 ] && cmp s_lj.txt s_ar.txt"

# the analysis tool converts an argon file back: the same g(r) and MSD as
# the lj file of the same run (to round-off), MDAnalysis check included
cat > same_csv.py <<'EOF'
import sys
import numpy as np
for a, b in ((sys.argv[1] + "_rdf.csv", sys.argv[2] + "_rdf.csv"),
             (sys.argv[1] + "_msd.csv", sys.argv[2] + "_msd.csv")):
    x, y = np.loadtxt(a, delimiter=",", skiprows=1), np.loadtxt(b, delimiter=",", skiprows=1)
    assert x.shape == y.shape and np.allclose(x, y, rtol=1e-9, atol=1e-12), (a, b)
print("g(r) and MSD of the argon file = those of the lj file")
EOF
check "analyze_traj.py on an argon file: converted to reduced units, same g(r) and MSD as lj" \
	sh -c "MPLBACKEND=Agg '$PY' '$ROOT/tools/analyze_traj.py' u_lj.h5md --out a_lj --check-mdanalysis > a_lj.log 2>&1 &&
	       MPLBACKEND=Agg '$PY' '$ROOT/tools/analyze_traj.py' u_ar.h5md --out a_ar --check-mdanalysis > a_ar.log 2>&1 &&
	       grep -q 'converted to reduced units' a_ar.log && grep -q 'InterRDF agrees' a_ar.log &&
	       '$PY' same_csv.py a_lj a_ar"

# restart from an argon file: converted back to reduced units, so the run
# continues the uninterrupted one (to round-off: one multiplication and
# one division per value; bit for bit with lj files, part 3)
RA="--set output.every=50 --set output.fields=position,velocity,image --set output.units=argon --backend cpu --set run.thermo_every=50"
"$MDSIM" base.ini $RA --steps 200 --set output.trajectory=RA.h5md > ra_full.log 2>&1 &&
"$MDSIM" base.ini $RA --steps 100 --set output.trajectory=RB.h5md --quiet > /dev/null 2>&1
sum_rb=$(sha256sum < RB.h5md)
"$MDSIM" base.ini $RA --steps 100 --restart RB.h5md --set output.trajectory=RB.h5md \
	--set output.append=true --set output.units=lj > rb_lj.log 2> rb_lj.err
rc=$?
if [ $rc -eq 2 ] && grep -q "units" rb_lj.err && grep -q "argon" rb_lj.err &&
   [ "$(sha256sum < RB.h5md)" = "$sum_rb" ] && ! grep -q "Step" rb_lj.log; then
	ok "appending lj frames to an argon file: exit 2 before any work, file untouched"
	sed 's/^/    /' rb_lj.err
else
	bad "append with other units: rc $rc"; cat rb_lj.err
fi
"$MDSIM" base.ini $RA --steps 100 --restart RB.h5md --set output.trajectory=RB.h5md \
	--set output.append=true > ra_rest.log 2>&1
rc=$?
"$MDSIM" base.ini $RA --steps 0 --restart RB.h5md --set output.trajectory=RC.h5md \
	--set output.units=lj --quiet > /dev/null 2>&1
rc2=$?
cat > check_argon_restart.py <<'EOF'
from lib import *
full, rest = sys.argv[1], sys.argv[2]
a, b, c = (h5py.File(p, "r") for p in sys.argv[3:6])
def thermo(log):
    rows = {}
    for line in open(log):
        w = line.split()
        if len(w) == 6 and w[0].isdigit():
            rows[int(w[0])] = [float(t) for t in w[1:]]
    return rows
ta, tb = thermo(full), thermo(rest)
assert "converted to reduced units" in open(rest).read()
assert sorted(tb) == [100, 150, 200], sorted(tb)
for s in (150, 200):
    for p, q in zip(ta[s], tb[s]):
        assert abs(p - q) <= 1e-7 * max(abs(p), 1.0), (s, ta[s], tb[s])
assert list(b[P + "position/step"][:]) == [0, 50, 100, 150, 200]
worst = 0.0
for e in ("position", "velocity"):
    xa, xb = a[P + e + "/value"][:], b[P + e + "/value"][:]
    worst = max(worst, np.abs(xa - xb).max() / np.abs(xa).max())
assert worst < 1e-9, worst
assert np.array_equal(a[P + "image/value"][:], b[P + "image/value"][:])
# a new lj file started from the argon file holds its state in reduced units
xa, xc = b[P + "position/value"][-1], c[P + "position/value"][0]
assert c[P + "position/step"][0] == 200
assert np.abs(xc * 3.405 - xa).max() <= 4e-16 * np.abs(xa).max(), np.abs(xc * 3.405 - xa).max()
print("argon restart: thermo at step 200 %s = uninterrupted %s; frames differ by %.1e (relative)"
      % (tb[200], ta[200], worst))
EOF
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ]; then
	check "restart from an argon file continues the uninterrupted run to round-off" \
		"$PY" check_argon_restart.py ra_full.log ra_rest.log RA.h5md RB.h5md RC.h5md
	tail -n 1 check.log | sed 's/^/    /'
else
	bad "argon restart: rc $rc, $rc2"; tail -n 5 ra_rest.log
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
