#!/bin/sh
# fuzz/run.sh SECONDS BINARY... - run each libFuzzer harness for SECONDS of
# wall time (one process each, one after the other); SECONDS may be
# "total:N" to share N seconds among the harnesses (at least 10 each), so
# that CI's smoke run keeps its length when harnesses are added; on its corpus
# fuzz/corpus/NAME (kept between runs, not committed), seeded from
# fuzz/build/seeds/NAME (made from the fixtures by fuzz/seeds.py) and from
# fuzz/seeds/NAME when that exists.  A crash leaves its input in
# fuzz/artifacts/ and makes the run fail; turn it into a regression test.
# Prints one line per harness: CPU seconds, executions, coverage, corpus.
cd "$(dirname "$0")/.." || exit 1
secs=$1; shift
[ -n "$secs" ] || { echo "usage: fuzz/run.sh SECONDS|total:N BINARY..." >&2; exit 2; }
case $secs in total:*)
	secs=$(( ${secs#total:} / $# ))
	[ "$secs" -ge 10 ] || secs=10 ;;
esac
seeds=fuzz/build/seeds
if [ ! -d "$seeds" ]; then
	fx=fuzz/build/fixtures
	rm -rf "$fx" "$seeds.tmp"
	sh fixtures/make-fixtures.sh "$fx" >fuzz/build/fixtures.log 2>&1 &&
	python3 fuzz/seeds.py "$fx" "$seeds.tmp" && mv "$seeds.tmp" "$seeds" || {
		echo "fuzz: could not make the seed corpora (fuzz/build/fixtures.log)" >&2
		exit 1
	}
fi
mkdir -p fuzz/artifacts fuzz/log
status=0
summary=""
for bin in "$@"; do
	name=$(basename "$bin" | sed 's/^fuzz_//')
	corpus=fuzz/corpus/$name
	mkdir -p "$corpus"
	dirs="$corpus"
	[ -d "$seeds/$name" ] && dirs="$dirs $seeds/$name"
	[ -d "fuzz/seeds/$name" ] && dirs="$dirs fuzz/seeds/$name"
	log=fuzz/log/$name.log
	# -timeout: one input taking 10 s is a hang; -rss_limit_mb: one
	# input may not take 2 GB.  /usr/bin/time: CPU seconds, children too.
	/usr/bin/time -f "cpu %U %S" -o fuzz/log/$name.time \
		"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="fuzz/artifacts/$name-" \
		$dirs >"$log" 2>&1
	rc=$?
	cpu=$(awk '/^cpu/ { printf "%.0f", $2 + $3 }' fuzz/log/$name.time)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | sed 's/cov: //')
	n=$(ls "$corpus" | wc -l)
	if [ $rc -eq 0 ]; then
		found="nothing found"
	else
		status=1
		found="FOUND: $(grep -m1 -o 'ERROR: [A-Za-z]*: [^ ]*\|runtime error: .*\|deadly signal\|Test unit written to .*' "$log" | head -n 3 | tr '\n' ' ')(exit $rc, see $log)"
	fi
	line="fuzz $name: ${cpu:-?} CPU s, ${execs:-?} runs, cov ${cov:-?}, corpus $n; $found"
	echo "$line"
	summary="$summary$line
"
done
printf '%s' "$summary" >fuzz/log/summary
exit $status
