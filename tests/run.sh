#!/bin/sh
# Run every unit test binary given as arguments, then every tests/t*.sh
# end-to-end script, and print one closing line "N passed, N failed".
# A script exits 0 (pass), 77 (skip: says why on stderr) or anything else (fail).
#
# Tests run TEST_JOBS at a time (default: the number of CPUs): every test
# has its own temporary directory and picks its own free port, and most of
# their time is spent waiting on git, servers and sleeps, so two at a time
# on two cores cuts the suite's wall time without changing what it checks.
# Each result line is printed as its test ends; the summary lists failures
# in the suite's order.
cd "$(dirname "$0")/.." || exit 1
mkdir -p tests/log
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
list=""
for t in "$@" tests/t[0-9]*.sh; do
	[ -e "$t" ] && list="$list $t"
done
for t in $list; do rm -f "tests/log/$(basename "$t").rc"; done
printf '%s\n' $list | xargs -P "$jobs" -n 1 sh tests/run-one.sh
pass=0 fail=0 skip=0 failed=""
for t in $list; do
	rc=$(cat "tests/log/$(basename "$t").rc" 2>/dev/null || echo lost)
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) skip=$((skip + 1)) ;;
	*) fail=$((fail + 1)); failed="$failed $t" ;;
	esac
done
[ -n "$failed" ] && echo "failed:$failed"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
