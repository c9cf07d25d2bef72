#!/bin/sh
# Is `onlist match` after new mail flat in the archive's size?  Issue 33
# asks the 5M x 1M run after 1,000 new messages to be within 1.5x of the
# 1M x 100k one.
#
#   bench/flat.sh SMALL.db LARGE.db [ROUNDS]      (default 5 rounds)
#
# SMALL and LARGE are databases that `onlist match` has run on, with new
# mail added since: an unmatched database bench/make-lkmldb.py made (as
# bench/kernel.sh does), matched, then `bench/make-lkmldb.py --add DB
# 1000`; the same steps for both.  Each round matches a fresh copy
# of each in turn (the copies in bench/out), so every run does the same
# work; printed: each run's CPU (user + sys), elapsed and peak RSS, and
# the pages SQLite read and wrote (ONLIST_TIMING's "match done": the same
# for the same work on any machine, where times swing), then the medians
# and LARGE's ratio to SMALL.  The two runs of a round are back to back,
# so the machine's drift touches both alike.  A copy of a 5M database is
# 7 GB: give the disk room.  Run it under nice -n 19.  See bench/README.
set -eu
[ $# -ge 2 ] || { sed -n '2,18p' "$0"; exit 2; }
small=$1 large=$2 rounds=${3:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
onlist=${ONLIST:-$top/onlist}
out=$top/bench/out
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
for db in "$small" "$large"; do
	[ -f "$db" ] || { echo "flat.sh: no database $db" >&2; exit 2; }
done
mkdir -p "$out"
run=$out/flat-run.db
log=$out/flat.runs
: >"$log"
# one NAME DB: match a fresh copy of DB, one line to the log
one() {
	rm -f "$run" "$run-wal" "$run-shm"
	cp "$2" "$run"
	sync
	ONLIST_TIMING=1 /usr/bin/time -f 'time %e %U %S %M' \
		"$onlist" -q --db "$run" match >/dev/null 2>"$out/flat.err" ||
		{ echo "flat.sh: match of a copy of $2 failed:"; tail -3 "$out/flat.err"; exit 1; }
	pages=$(sed -n 's/^timing: match done at .* s CPU, \([0-9-]*\) pages read, \([0-9-]*\) written$/\1 \2/p' "$out/flat.err")
	[ -n "$pages" ] || { echo "flat.sh: no page counts (an onlist before 5e85969b?)"; exit 1; }
	set -- "$1" $(sed -n 's/^time //p' "$out/flat.err") $pages
	# NAME elapsed CPU KB reads writes
	echo "$1 $2 $(echo "$3 $4" | awk '{ printf "%.2f", $1 + $2 }') $5 $6 $7" >>"$log"
	awk -v n="$1" '{ l = $0 } END { split(l, f, " ");
		printf "  %-5s %6.2f s CPU %6.2f s elapsed %5d MB peak RSS %9d pages read %7d written\n",
			n, f[3], f[2], f[4] / 1024, f[5], f[6] }' "$log"
}
echo "flat: $rounds rounds, small = $small, large = $large"
r=1
while [ "$r" -le "$rounds" ]; do
	one small "$small"
	one large "$large"
	r=$((r + 1))
done
rm -f "$run" "$run-wal" "$run-shm"
# the median of column C of NAME's runs
median() {
	awk -v n="$1" -v c="$2" '$1 == n { print $c }' "$log" | sort -n |
		awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
for c in 3:CPU 2:elapsed 5:reads 6:writes; do
	col=${c%%:*} name=${c#*:}
	s=$(median small "$col") l=$(median large "$col")
	echo "$name $s $l" | awk '{ printf "median %-8s small %10s  large %10s  large/small %.2fx\n",
		$1, $2, $3, ($2 > 0) ? $3 / $2 : 0 }'
done
echo "(issue 33's goal: large/small CPU <= 1.5x for 5M x 1M against 1M x 100k)"
