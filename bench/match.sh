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
# There is no peer program to compare with; the goal is well under a minute.
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
echo "== generating $nmsg messages and $ncommit commits"
python3 "$top/bench/make-matchdb.py" "$db" "$nmsg" "$ncommit"
echo "== onlist match (threads, classes, every tier but the git diffs)"
ONLIST_TIMING=1 /usr/bin/time -f '%e s elapsed, %U s user, %S s system, %M KB peak RSS' \
	"$onlist" -q --db "$db" match 2>"$out/match.time" | sed 's/^/   /'
cat "$out/match.time"
secs=$(sed -n 's/ s elapsed.*//p' "$out/match.time")
echo "match: $nmsg messages x $ncommit commits in $secs s"
nnew=${NEW:-1000}
echo "== $nnew new messages, onlist match again"
python3 "$top/bench/add-matchdb.py" "$db" "$nnew"
ONLIST_TIMING=1 /usr/bin/time -f '%e s elapsed, %U s user, %S s system, %M KB peak RSS' \
	"$onlist" -q --db "$db" match 2>"$out/match-incr.time" | sed 's/^/   /'
cat "$out/match-incr.time"
isecs=$(sed -n 's/ s elapsed.*//p' "$out/match-incr.time")
echo "incremental match: $nnew new messages in $isecs s (full: $secs s)"
