#!/usr/bin/env bash
# run.sh SECONDS NAME... - `make fuzz`: run the libFuzzer harness
# build-fuzz/fuzz_NAME for SECONDS, starting from the kept corpus
# tests/fuzz/corpus_NAME/ and the seeds (configs/, tests/bad_inputs/), then
# minimise (-merge=1) what it found back into tests/fuzz/corpus_NAME/.
# A crash stops with its reproducer in build-fuzz/crash_NAME/ and exit 1.
# The log of each run is build-fuzz/fuzz_NAME.log (final stats at its end).
set -u
cd "$(dirname "$0")/../.."
secs=${1:?usage: run.sh SECONDS NAME...}
shift
rc=0
for name in "$@"; do
	bin=build-fuzz/fuzz_$name
	keep=tests/fuzz/corpus_$name
	work=build-fuzz/work_$name
	mkdir -p "$work" "$keep" "build-fuzz/crash_$name"
	opts=(-max_total_time="$secs" -print_final_stats=1 -timeout=20
	      -rss_limit_mb=4096 -artifact_prefix="build-fuzz/crash_$name/")
	seeds=()
	merge=(-merge=1 -timeout=20 -rss_limit_mb=4096)
	case $name in
	config)
		opts+=(-dict=tests/fuzz/config.dict -max_len=4096)
		merge+=(-max_len=4096)
		seeds=(configs tests/bad_inputs) ;;
	restart)
		# HDF5 keeps global state between inputs; its caches are not leaks
		opts+=(-max_len=65536 -detect_leaks=0)
		merge+=(-max_len=65536 -detect_leaks=0)
		# HDF5 mallocs sizes read from a corrupt file: a plain malloc
		# returns NULL there (HDF5 reports an error), ASan would abort
		export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0
		# in process, for coverage of h5md.c; HDF5 crashes on corrupt
		# files (contained by the forked reader of mdsim) are kept in
		# build-fuzz/crash_restart/ and the run goes on
		export MDSIM_RESTART_IN_PROCESS=1
		opts+=(-fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1)
		seeds=(tests/fuzz/seeds_restart tests/bad_inputs) ;;
	xyz)
		opts+=(-max_len=4096)
		merge+=(-max_len=4096)
		seeds=(tests/fuzz/seeds_xyz) ;;
	esac
	echo "fuzz_$name: ${secs} s"
	"$bin" "${opts[@]}" "$work" "$keep" "${seeds[@]}" >"build-fuzz/fuzz_$name.log" 2>&1
	r=$?
	grep -E '^stat::|^#[0-9]+.*DONE|ERROR|SUMMARY' "build-fuzz/fuzz_$name.log" | tail -n 12
	# fork mode (restart) exits 1 when it ignored crashes: they are
	# HDF5's (see README.md) and are checked by the replay
	if [ $r -ne 0 ] && ! grep -q '^INFO: fuzzed for' "build-fuzz/fuzz_$name.log"; then
		echo "fuzz_$name: exit $r (crash? see build-fuzz/crash_$name/ and the log)"
		rc=1
		continue
	fi
	ncrash=$(find "build-fuzz/crash_$name" -type f | wc -l)
	echo "fuzz_$name: $ncrash crashing inputs in build-fuzz/crash_$name/"
	rm -rf "build-fuzz/merged_$name"
	mkdir -p "build-fuzz/merged_$name"
	"$bin" "${merge[@]}" "build-fuzz/merged_$name" "$keep" "$work" \
		>"build-fuzz/merge_$name.log" 2>&1 || { echo "merge failed"; rc=1; continue; }
	rm -rf "$keep"
	mv "build-fuzz/merged_$name" "$keep"
	# inputs that crashed inside HDF5 (fork mode) stay in the corpus: the
	# replay in `make test` checks that mdsim's forked reader contains them
	for f in "build-fuzz/crash_$name"/*; do
		[ -f "$f" ] && cp "$f" "$keep/$(basename "$f")"
	done
	echo "fuzz_$name: corpus $(ls "$keep" | wc -l) files, $(du -sh "$keep" | cut -f1)"
done
exit $rc
