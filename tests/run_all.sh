#!/usr/bin/env bash
# run_all.sh - run every test program and script given; print one line per
# item and a total; exit 1 when any failed. MDSIM points scripts at the binary.
set -u
cd "$(dirname "$0")/.."
export MDSIM=${MDSIM:-${BUILD:-build}/mdsim}
fail=0; n=0; failed=()
for t in "$@"; do
	n=$((n + 1))
	start=$(date +%s.%N)
	case "$t" in
	*.sh) log=$(bash "$t" 2>&1) ;;
	*) log=$("$t" 2>&1) ;;
	esac
	rc=$?
	el=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	if [ $rc -eq 0 ]; then
		summary=$(echo "$log" | grep -E '^[0-9]+%: Checks|SKIP|^ok' | tail -n 3 | tr '\n' ' ')
		printf 'PASS %-40s %6ss  %s\n' "$t" "$el" "$summary"
	else
		fail=$((fail + 1)); failed+=("$t")
		printf 'FAIL %-40s %6ss\n' "$t" "$el"
		echo "$log" | tail -n 40 | sed 's/^/    /'
	fi
done
echo "----"
echo "$((n - fail))/$n test programs passed"
[ $fail -eq 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
