#!/bin/sh
# Do two builds of onlist leave the same database?  For a change meant to
# be faster and nothing else.
#
#   bench/same.sh OLD NEW DB [lkml|match]
#
# OLD and NEW are onlist binaries, DB an unmatched database (made by
# bench/make-lkmldb.py, the default, or bench/make-matchdb.py: the last
# argument says which, for the new mail).  Each binary gets its own copy
# of DB (in bench/out), and on both, in turn:
#   full    `onlist match`
#   incr    1,000 new messages (make-lkmldb.py --add, or add-matchdb.py),
#           then `onlist match`
#   forced  the meta rows that keep work from one run to the next
#           deleted (threads_stamp, threads_base, exact_stamp,
#           fuzzy_stamp, ignored_stamp, review_rows), then `onlist match`:
#           a whole run over tables that hold rows
# After each step every table but those only import and scan write is
# compared: its rows sorted, as an md5 (meta without the stamps, which
# hold times), and the standard output of the two runs; then the CPU
# time (user + sys) and peak RSS of each run.  Exit status 1 when
# anything differs.  Run it under nice -n 19; copies of a 1M database
# take about 1.3 GB each.
set -eu
[ $# -ge 3 ] || { sed -n '2,22p' "$0"; exit 2; }
old=$1 new=$2 src=$3 kind=${4:-lkml}
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/bench/out
mkdir -p "$out"
for b in "$old" "$new"; do
	[ -x "$b" ] || { echo "same.sh: $b is not a program" >&2; exit 2; }
done
[ -f "$src" ] || { echo "same.sh: no database $src" >&2; exit 2; }
case $kind in lkml|match) ;; *) echo "same.sh: lkml or match, not $kind" >&2; exit 2;; esac

# the tables only import, fetch and scan write
inputs="'messages','message_lists','skipped','commits','trailers','sources',\
'source_state','landing','message_trailers','pulls','sqlite_sequence'"

sums() {	# DB: one line per table, its name and the md5 of its rows
	sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type = 'table'
		AND name NOT IN ($inputs) AND name NOT LIKE 'sqlite_stat%'
		ORDER BY name" >"$out/same.tables" || exit 1
	while read -r t; do
		if [ "$t" = meta ]; then
			q="SELECT * FROM meta WHERE key NOT LIKE '%stamp%'"
		else
			q="SELECT * FROM \"$t\""
		fi
		sqlite3 -separator '|' "$1" "$q" >"$out/same.rows" || exit 1
		printf '%s %s\n' "$t" "$(LC_ALL=C sort "$out/same.rows" | md5sum | cut -c1-16)"
	done <"$out/same.tables"
	rm -f "$out/same.rows" "$out/same.tables"
}

fmt='%U %S %M'
run() {	# BIN DB STEP
	ONLIST_TIMING=1 /usr/bin/time -f "$fmt" -o "$2.$3.time" \
		"$1" -q --db "$2" match >"$2.$3.out" 2>"$2.$3.err" ||
		{ echo "same.sh: $1 failed at $3:"; tail -3 "$2.$3.err"; exit 1; }
	awk '{ printf "%.2f s CPU, %.0f MB", $1 + $2, $3 / 1024 }' "$2.$3.time"
}

a=$out/same-old.db b=$out/same-new.db
rm -f "$a" "$a-wal" "$a-shm" "$b" "$b-wal" "$b-shm"
cp "$src" "$a"
cp "$src" "$b"
differ=0
for step in full incr forced; do
	case $step in
	incr)
		for d in "$a" "$b"; do
			if [ "$kind" = lkml ]; then
				python3 "$top/bench/make-lkmldb.py" --add "$d" 1000 >/dev/null
			else
				python3 "$top/bench/add-matchdb.py" "$d" 1000 >/dev/null
			fi
		done ;;
	forced)
		for d in "$a" "$b"; do
			sqlite3 "$d" "DELETE FROM meta WHERE key IN ('threads_stamp',
				'threads_base', 'exact_stamp', 'fuzzy_stamp',
				'ignored_stamp', 'review_rows')"
		done ;;
	esac
	ta=$(run "$old" "$a" $step)
	tb=$(run "$new" "$b" $step)
	sums "$a" >"$a.$step.sums"
	sums "$b" >"$b.$step.sums"
	if cmp -s "$a.$step.sums" "$b.$step.sums" &&
	   cmp -s "$a.$step.out" "$b.$step.out"; then
		verdict="same tables and output"
	else
		verdict="DIFFER"
		differ=1
		diff "$a.$step.sums" "$b.$step.sums" | sed 's/^/    /' || true
		cmp -s "$a.$step.out" "$b.$step.out" || echo "    the output differs"
	fi
	echo "$step: $verdict ($(wc -l <"$a.$step.sums") tables); old $ta, new $tb"
done
exit $differ
