#!/bin/sh
# Run one test (tests/run.sh calls this, several at a time): its output
# goes to tests/log/NAME.log, its exit status to tests/log/NAME.rc, and one
# result line (with the log's last lines on failure) to standard output,
# written in one piece so that lines of parallel tests do not interleave.
t=$1
case "$t" in *.sh) cmd="sh $t" ;; *) cmd="./$t" ;; esac
log="tests/log/$(basename "$t").log"
start=$(date +%s)
$cmd >"$log" 2>&1 </dev/null
rc=$?
secs=$(( $(date +%s) - start ))
echo $rc >"tests/log/$(basename "$t").rc"
if [ $rc -eq 0 ]; then
	out="PASS  $t (${secs}s)"
elif [ $rc -eq 77 ]; then
	out="SKIP  $t: $(tail -n 1 "$log")"
else
	out="FAIL  $t (exit $rc, ${secs}s), last lines of $log:
$(tail -n 30 "$log" | sed 's/^/    /')"
fi
printf '%s\n' "$out"
exit 0
