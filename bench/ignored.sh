#!/bin/sh
# onlist ignored and lookup MESSAGE-ID on a large synthetic database.
#
#   bench/ignored.sh [MESSAGES [COMMITS]]     (default 1000000 100000)
#
# Reuses bench/out/ignored.db when it is there (DB=... names another made
# the same way); else bench/make-matchdb.py fills one (the database of
# bench/match.sh) and `onlist match` runs, its CPU time per phase printed:
# "ignored topics" is what saving the judgement (ignored.h,
# onlist_ignored_update()) adds to the match.  Then, each with its CPU
# time (user + system) and peak RSS:
#   - `onlist ignored`, from the tables the match saved;
#   - the same judged from the threads, as every run did before schema 14
#     (the saved tables marked stale for the run with sqlite3, then not);
#   - `lookup` of an ignored posting and of an applied one;
#   - NEW new messages (default 1000; bench/add-matchdb.py, as a fetch
#     would) and `onlist match` again: the topics they touch are judged
#     again, the rest kept (the "ignored topics" phase again), and
#     `onlist ignored` after it.
# The database grows by NEW messages each run.  Goal: ignored under 5 s.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
nmsg=${1:-1000000}
ncommit=${2:-100000}
out=$top/bench/out
mkdir -p "$out"
onlist=$top/onlist
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
db=${DB:-$out/ignored.db}

# cpu LABEL CMD...: its CPU time and peak RSS (exit 1 is lookup's
# "ignored": not a failure here)
cpu() {
	label=$1
	shift
	rc=0
	/usr/bin/time -f '%U %S %M' -o "$out/ignored.time" "$@" \
		>"$out/ignored.out" 2>"$out/ignored.err" || rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "$label: exit $rc"
		cat "$out/ignored.err"
		exit 1
	fi
	awk -v l="$label" 'END { printf "%-44s %7.2f s CPU %6d MB peak RSS\n",
		l, $1 + $2, $3 / 1024 }' "$out/ignored.time"
}
phases() {	# the match's phases, CPU at the end of each, and the hook's
	sed -n 's/^timing: \(.*\) done at \([0-9.]*\) s CPU, \([0-9-]*\) pages read.*/\2 \3 \1/p' "$out/ignored.err" |
	awk '{ t = $1; r = $2; $1 = $2 = ""; sub(/^ */, " ");
		printf "   %-30s %7.2f s CPU (%.2f s, %d page reads)\n", $0, t, t - p, r - q;
		if ($0 == " ignored topics") h = t - p; p = t; q = r }
	     END { printf "   saving the ignored topics added %.2f s CPU\n", h }'
}
first_msgid() {	# first_msgid CSVFILE: the message_id of the first row
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print(rows[0]["message_id"] if rows else "")' "$1"
}

if [ ! -f "$db" ]; then
	echo "== generating $nmsg messages and $ncommit commits"
	: >"$out/empty.mbox"
	# an import of nothing makes the database, and says there was nothing
	"$onlist" -q --db "$db" import "$out/empty.mbox" 2>/dev/null || true
	[ -f "$db" ] || { echo "could not create $db"; exit 1; }
	python3 "$top/bench/make-matchdb.py" "$db" "$nmsg" "$ncommit"
	echo "== onlist match"
	cpu "match (every topic saved)" env ONLIST_TIMING=1 "$onlist" -q --db "$db" match
	phases
fi
echo "== onlist ignored on $(sqlite3 "$db" 'SELECT count(*) FROM messages' 2>/dev/null || echo '?') messages"
cpu "ignored (saved tables)" "$onlist" --db "$db" ignored --format csv
cp "$out/ignored.out" "$out/ignored.csv"
echo "   $(($(wc -l <"$out/ignored.csv") - 1)) series listed"
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$db" "UPDATE meta SET value = value || ' stale' WHERE key = 'ignored_threads'"
	rc=0
	cpu "ignored (judged from the threads)" "$onlist" --db "$db" ignored --format csv || rc=$?
	sqlite3 "$db" "UPDATE meta SET value = substr(value, 1, length(value) - 6) WHERE key = 'ignored_threads'"
	[ "$rc" -eq 0 ] || exit "$rc"
	cmp -s "$out/ignored.out" "$out/ignored.csv" ||
		{ echo "the two differ: $out/ignored.out $out/ignored.csv"; exit 1; }
	echo "   the same series"
fi
ign=$(first_msgid "$out/ignored.csv")
"$onlist" --db "$db" ignored --state applied --format csv >"$out/applied.csv"
app=$(first_msgid "$out/applied.csv")
[ -z "$ign" ] || cpu "lookup <$ign> (ignored)" "$onlist" --db "$db" lookup "$ign"
[ -z "$app" ] || cpu "lookup <$app> (applied)" "$onlist" --db "$db" lookup "$app"

nnew=${NEW:-1000}
echo "== $nnew new messages, onlist match again"
python3 "$top/bench/add-matchdb.py" "$db" "$nnew"
cpu "match (the changed topics saved)" env ONLIST_TIMING=1 "$onlist" -q --db "$db" match
phases
cpu "ignored (saved tables)" "$onlist" --db "$db" ignored --format csv
