#!/usr/bin/env bash
# viz_headless_test.sh - the viz paths that need no display: offscreen PNG
# frames (3 frames, valid PNGs of the configured size, each different as
# the liquid moves), the strategy race table on stdout, viz.enabled=auto
# without a display (one line, then the plain run), --viz=on without a
# display (exit 2, clear message), the FPS column of --bench, the controls
# in --help, and option errors. $MDSIM is the binary (tests/run_all.sh).
set -u
MDSIM=${MDSIM:-./build/mdsim}
[ -x "$MDSIM" ] || { echo "FAIL: MDSIM=$MDSIM is not an executable (build it first)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdsim_vizh.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	for f in "$tmp"/out "$tmp"/err; do
		[ -s "$f" ] && { echo "--- $(basename "$f"):"; tail -n 30 "$f"; }
	done
	exit 1
}
ok() { echo "ok - $*"; }
run() {
	"$MDSIM" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
has() { grep -qE -- "$2" "$tmp/$1" || fail "$3: $1 does not match /$2/"; }

# PNG width and height from the IHDR chunk
png_size() {
	od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d\n", $1*16777216 + $2*65536 + $3*256 + $4,
		$5*16777216 + $6*65536 + $7*256 + $8 }'
}

cat >"$tmp/small.ini" <<'EOF'
; viz_headless_test: 500 atoms, one thread
[system]
density = 0.8442
cells = 5 5 5
temperature = 1.44
seed = 5

[potential]
cutoff = 2.5
shift = force

[run]
steps = 100
thermo_every = 50
progress = off

[backend]
device = cpu
threads = 1

[viz]
width = 320
height = 240
steps_per_frame = 20
EOF

# --- offscreen frames -----------------------------------------------------------
run "$tmp/small.ini" --viz=offscreen --frames 3 --frame-dir "$tmp/frames"
[ "$rc" -eq 0 ] || fail "offscreen: exit status $rc"
has out '^viz: offscreen 320x240, frames to ' "offscreen start line"
has out '^viz: wrote 3 frames to ' "offscreen end line"
has out '^Loop time of .* for 40 steps with 500 atoms' "summary after 3 frames (steps 0, 20, 40)"
has out '^Viz +\|' "Viz line in the timing breakdown"
n=$(ls "$tmp/frames" | wc -l)
[ "$n" -eq 3 ] || fail "offscreen: $n files in the frame folder, expected 3"
for k in 0 1 2; do
	f=$tmp/frames/frame_00000$k.png
	[ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$f is not a PNG"
	[ "$(png_size "$f")" = 320x240 ] || fail "$f is $(png_size "$f"), expected 320x240"
	[ "$(stat -c %s "$f")" -gt 5000 ] || fail "$f is too small to show particles"
done
cmp -s "$tmp/frames/frame_000000.png" "$tmp/frames/frame_000001.png" && fail "frames 0 and 1 are identical"
cmp -s "$tmp/frames/frame_000001.png" "$tmp/frames/frame_000002.png" && fail "frames 1 and 2 are identical"
ok "offscreen: 3 PNG frames of 320x240, each different"
if command -v convert >/dev/null 2>&1; then
	colours=$(convert "$tmp/frames/frame_000002.png" -format '%k' info:)
	[ "$colours" -ge 200 ] || fail "offscreen frame has only $colours colours"
	ok "offscreen frame: $colours colours (shaded spheres)"
fi

# --frames alone implies offscreen; run.steps ends an offscreen run without --frames
run "$tmp/small.ini" --frame-dir "$tmp/f2"
[ "$rc" -eq 0 ] || fail "--frame-dir alone: exit status $rc"
has out '^viz: wrote 6 frames to ' "frames 0..100 every 20 steps"
has out '^Loop time of .* for 100 steps' "run.steps ends the offscreen run"
ok "--frame-dir implies offscreen; run.steps ends it (6 frames)"

# --- the strategy race, headless --------------------------------------------------
run "$tmp/small.ini" --viz=offscreen --viz-race=0.15 --frames 1 --frame-dir "$tmp/f3"
[ "$rc" -eq 0 ] || fail "race: exit status $rc"
has out '^viz race: 500 particles .* backend cpu' "race header"
for s in global shared register hybrid tiled; do
	has out "^$s +[0-9.]+ +[0-9.]+$" "race row $s"
done
ok "strategy race prints FPS and steps/s for the five strategies"

# --- no display -------------------------------------------------------------------
env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=x11 "$MDSIM" "$tmp/small.ini" \
	--set viz.enabled=auto >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] || fail "auto without display: exit status $rc"
has out '^viz: no display \(.*\): running headless' "auto: one line saying headless"
has out '^Loop time of .* for 100 steps' "auto: the plain run"
ok "viz.enabled=auto without a display runs headless and says so"
env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=x11 "$MDSIM" "$tmp/small.ini" --viz \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] || fail "--viz without display: exit status $rc, expected 2"
has err 'cannot open a window' "--viz without display: message"
ok "--viz without a display: exit 2 with a message"

# --- bench FPS column, help, option errors ------------------------------------------
run "$tmp/small.ini" --bench --steps 20
[ "$rc" -eq 0 ] || fail "bench: exit status $rc"
has out 'steps/s +FPS ' "bench header has FPS"
has out '^cpu +OpenMP +[0-9]+ +[0-9.]+ +[0-9.]+ ' "bench row has an FPS value"
ok "--bench shows the FPS (render) column"
run --help
has out '--viz\[=MODE\]' "--help lists --viz"
has out 'strategy race' "--help lists the race key"
has out 'space +pause' "--help lists the controls"
ok "--help lists the viz options and window controls"
run "$tmp/small.ini" --frames 0
[ "$rc" -eq 2 ] || fail "--frames 0: exit status $rc, expected 2"
run "$tmp/small.ini" --viz=sideways
[ "$rc" -eq 2 ] || fail "--viz=sideways: exit status $rc, expected 2"
run "$tmp/small.ini" --viz-race=-1
[ "$rc" -eq 2 ] || fail "--viz-race=-1: exit status $rc, expected 2"
ok "bad viz options exit 2"
echo "ok - viz_headless_test done"
