#!/bin/sh
# onlist lookup as a whole process, beside sqlite3 answering one query on the
# same database, in one run.
#
#   bench/lookup.sh [RUNS [MESSAGES [COMMITS]]]   (default 200 1000000 100000)
#
# The database comes from bench/make-matchdb.py (as for bench/match.sh) and
# is matched once, so lookup has postings to show.  Both sides are run RUNS
# times in turn for commits spread over the table; what is timed is the
# whole process: start, open, query, print, exit.  The peer is the sqlite3
# shell reading the commit's matches with one SELECT: the least any tool
# that keeps its answers in SQLite can do.  Goal: onlist within about 2x
# (GMime and libcurl are loaded only by commands that need them for this).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-200}
nmsg=${2:-1000000}
ncommit=${3:-100000}
out=$top/bench/out
mkdir -p "$out"
onlist=$top/onlist
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 shell (apt-get install sqlite3)"; exit 1; }
db=$out/lookup-$nmsg-$ncommit.db
if [ ! -s "$db" ] || [ -z "$(sqlite3 "$db" 'select 1 from matches limit 1')" ]; then
	rm -f "$db" "$db-wal" "$db-shm"
	"$onlist" --db "$db" status >/dev/null
	echo "== generating $nmsg messages and $ncommit commits (once; kept in $db)"
	python3 "$top/bench/make-matchdb.py" "$db" "$nmsg" "$ncommit"
	"$onlist" -q --db "$db" match >/dev/null
fi
# RUNS commits spread over the table, posted and never posted alike
sqlite3 "$db" "select sha from commits where rowid % (select max(1, count(*) / $runs) from commits) = 0 limit $runs" >"$out/lookup.shas"
n=$(wc -l <"$out/lookup.shas")

# Both loops run in this shell, so process start-up counts on both sides.
now() { date +%s.%N; }
t0=$(now)
while read -r sha; do
	"$onlist" --db "$db" lookup "$sha" >/dev/null || [ $? -eq 1 ]
done <"$out/lookup.shas"
t1=$(now)
while read -r sha; do
	sqlite3 "$db" "select m.method, m.message_id, g.subject from matches m
		left join messages g on g.msgid = m.message_id
		where m.commit_sha = '$sha'" >/dev/null
done <"$out/lookup.shas"
t2=$(now)

awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$n" -v dbn="$db" 'BEGIN {
	o = (b - a) / n * 1000; s = (c - b) / n * 1000;
	printf "lookup: %d commits on %s\n", n, dbn
	printf "  onlist lookup   %7.2f ms per process\n", o
	printf "  sqlite3 SELECT  %7.2f ms per process\n", s
	printf "  ratio onlist/sqlite3: %.2fx (goal: <= 2x)\n", o / s
}'
