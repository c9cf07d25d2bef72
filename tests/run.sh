#!/bin/sh
# Run every unit test binary given as arguments, then every tests/t*.sh
# end-to-end script, and print one closing line "N passed, N failed".
# A script exits 0 (pass), 77 (skip: says why on stderr) or anything else (fail).
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0 skip=0 failed=""
for t in "$@" tests/t[0-9]*.sh; do
	[ -e "$t" ] || continue
	case "$t" in *.sh) cmd="sh $t" ;; *) cmd="./$t" ;; esac
	log="tests/log/$(basename "$t").log"
	mkdir -p tests/log
	start=$(date +%s)
	$cmd >"$log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1)); echo "PASS  $t (${secs}s)"
	elif [ $rc -eq 77 ]; then
		skip=$((skip + 1)); echo "SKIP  $t: $(tail -n 1 "$log")"
	else
		fail=$((fail + 1)); failed="$failed $t"
		echo "FAIL  $t (exit $rc), last lines of $log:"
		tail -n 30 "$log" | sed 's/^/    /'
	fi
done
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
