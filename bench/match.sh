#!/bin/sh
# onlist match on a large synthetic database.
#
#   bench/match.sh [MESSAGES [COMMITS]]     (default 1000000 100000)
#
# bench/make-matchdb.py fills a database shaped like a busy list (30% patch
# mails, Zipf-like authors, half the commits posted exactly, a tenth posted
# then edited, every commit landed by a merge); then `onlist match` runs
# every tier except the git diffs (the commits' fingerprints are already
# there, as after a first run) and the time, the CPU time of each phase and
# the peak RSS are printed.  Then bench/add-matchdb.py adds NEW messages
# (default 1000; NEW=... to change), as a fetch would, and `onlist match`
# runs again: the incremental figure (threads built again around the new
# mail, every tier but the link tier kept for the commits it cannot
# change).  `bench/match.sh 1000000 0` is the figure without commits.
# There is no peer program to compare with; the goals (issue 33) are a
# full run in 30 s and 500 MB, an incremental one in 1 s and 150 MB, CPU
# time on 2 cores.  FROM=DB starts from a copy of DB (an unmatched database
# bench/make-matchdb.py filled: generating a million messages takes
# minutes) instead of generating one.  See bench/README.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
nmsg=${1:-1000000}
ncommit=${2:-100000}
out=$top/bench/out
mkdir -p "$out"
onlist=$top/onlist
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
db=$out/match.db
rm -f "$db" "$db-wal" "$db-shm"
# a match on no database makes an empty one (status no longer does)
"$onlist" -q --db "$db" match >/dev/null
if [ -n "${FROM:-}" ]; then
	echo "== starting from a copy of $FROM"
	rm -f "$db"
	cp "$FROM" "$db"
else
	echo "== generating $nmsg messages and $ncommit commits"
	python3 "$top/bench/make-matchdb.py" "$db" "$nmsg" "$ncommit"
fi
echo "== onlist match (threads, classes, every tier but the git diffs)"
ONLIST_TIMING=1 /usr/bin/time -f '%e s elapsed, %U s user, %S s system, %M KB peak RSS' \
	"$onlist" -q --db "$db" match 2>"$out/match.time" | sed 's/^/   /'
cat "$out/match.time"
secs=$(sed -n 's/ s elapsed.*//p' "$out/match.time")
cpu() { sed -n 's/.* s elapsed, \(.*\) s user, \(.*\) s system, \(.*\) KB.*/\1 \2 \3/p' "$1" |
	awk '{ printf "%.1f s CPU (user + sys), %.0f MB peak RSS", $1 + $2, $3 / 1024 }'; }
echo "match: $nmsg messages x $ncommit commits in $secs s, $(cpu "$out/match.time")"
nnew=${NEW:-1000}
echo "== $nnew new messages, onlist match again"
python3 "$top/bench/add-matchdb.py" "$db" "$nnew"
ONLIST_TIMING=1 /usr/bin/time -f '%e s elapsed, %U s user, %S s system, %M KB peak RSS' \
	"$onlist" -q --db "$db" match 2>"$out/match-incr.time" | sed 's/^/   /'
cat "$out/match-incr.time"
isecs=$(sed -n 's/ s elapsed.*//p' "$out/match-incr.time")
echo "incremental match: $nnew new messages in $isecs s, $(cpu "$out/match-incr.time") (full: $secs s)"
