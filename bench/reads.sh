#!/bin/sh
# onlist report, unposted and lookup of N commits (default 10,000) on a
# matched database, each timed as a whole process.
#
#   DB=matched.db bench/reads.sh [N]
#   DB=matched.db BASE=/path/to/other/onlist bench/reads.sh [N]
#
# DB is a database `onlist match` has run on, such as bench/kernel.sh's
# (bench/make-lkmldb.py then match; issue 33's goal is on 5M x 1M: each
# command <= 2 s).  The commands only read it, but a database of an older
# schema is upgraded first, untimed: give a copy (with BASE=, a copy at
# the schema BASE knows: BASE runs first).  The N commits are the last N
# landed (by landing date, then commit date, then sha).  The synthetic
# databases have no git repository, so the forms that need one are run
# against a stand-in: a `git` first on PATH that answers `rev-list` with
# those N shas, newest first, maps no name (check-mailmap) and fails
# everything else (no MAINTAINERS, no config); git's own time is
# therefore not counted.  What is run, with its output in bench/out/reads.NAME:
#   report-md|text|html|json  report --since D --until U: the days from
#                             the Nth last landing to the last (a few
#                             more than N when days are shared), with
#                             its chart of 26 weeks and the "still
#                             unanswered" section
#   report-week               report (no window: the week of the latest
#                             landing, what a weekly timer runs)
#   report-range-md|json      report RANGE (the stand-in's N commits)
#   unposted-text|json        unposted RANGE
#   lookup-text|json          lookup SHA... (N full shas: read from the
#                             database alone, no git asked)
#   unposted-all              unposted with no range: every commit of
#                             the database (ALL=1 only; the archive, not N)
# Printed for each: elapsed, CPU (user + sys) and peak RSS, output bytes.
# With BASE=, the same commands run first with that binary (its outputs
# in bench/out/reads-base.NAME) and each output is compared byte for
# byte.  ONLIST=path runs another binary than ./onlist.  Run it under
# nice -n 19 on a shared machine.  See bench/README ("reads.sh").
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-10000}
out=$top/bench/out
mkdir -p "$out"
onlist=${ONLIST:-$top/onlist}
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
[ -n "${DB:-}" ] && [ -f "$DB" ] || { echo "give DB=matched.db"; exit 1; }
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 shell"; exit 1; }
db=$DB

rm -f "$out"/reads.* "$out"/reads-base.*
# the N commits, newest first (as rev-list gives them), and the window
sqlite3 "$db" "SELECT sha FROM landing ORDER BY landed_date DESC,
	(SELECT commit_date FROM commits c WHERE c.sha = landing.sha) DESC,
	sha DESC LIMIT $n" >"$out/reads.shas"
got=$(wc -l <"$out/reads.shas")
[ "$got" -gt 0 ] || { echo "$db: no landed commits"; exit 1; }
since=$(sqlite3 "$db" "SELECT date(landed_date, 'unixepoch') FROM landing
	ORDER BY landed_date DESC LIMIT 1 OFFSET $((got - 1))")
until=$(sqlite3 "$db" "SELECT date(max(landed_date) + 86400, 'unixepoch')
	FROM landing")
inwin=$(sqlite3 "$db" "SELECT count(*) FROM landing
	WHERE landed_date >= strftime('%s', '$since')
	AND landed_date < strftime('%s', '$until')")

# the stand-in repository: rev-list prints the N shas, the rest fails
shim=$out/reads-git
mkdir -p "$shim/bin"
cat >"$shim/bin/git" <<EOF
#!/bin/sh
for a in "\$@"; do
	case \$a in
	rev-list) exec cat "$out/reads.shas" ;;
	check-mailmap) exec cat ;;	# no .mailmap: names as they are
	esac
done
exit 1
EOF
chmod +x "$shim/bin/git"
range=HEAD~$got..HEAD	# any name: the stand-in does not read it

fmt='%e %U %S %M'
# run BIN TAG NAME ARGS...: one command, its output in reads-TAG.NAME
# (exit 1 is lookup's "never posted", 3 its "unknown": not failures)
run() {
	bin=$1 tag=$2 name=$3
	shift 3
	rc=0
	PATH=$shim/bin:$PATH /usr/bin/time -f "$fmt" -o "$out/reads.time" \
		"$bin" -q --db "$db" "$@" >"$out/$tag.$name" \
		2>"$out/$tag.$name.err" || rc=$?
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ "$rc" -ne 3 ]; then
		echo "$name: exit $rc"
		cat "$out/$tag.$name.err"
		exit 1
	fi
	tail -n 1 "$out/reads.time" | awk -v l="$name" -v b="$(wc -c <"$out/$tag.$name")" \
		'{ printf "  %-18s %6.2f s elapsed %6.2f s CPU %5d MB peak RSS %10d bytes\n",
		   l, $1, $2 + $3, $4 / 1024, b }'
}
# all BIN TAG: every command
all() {
	for f in md text html json; do
		run "$1" "$2" report-$f report --since "$since" --until "$until" \
			--format "$f"
	done
	run "$1" "$2" report-week report
	for f in md json; do
		run "$1" "$2" report-range-$f report --repo "$shim" --format "$f" \
			"$range"
	done
	for f in text json; do
		run "$1" "$2" unposted-$f unposted --repo "$shim" --format "$f" \
			"$range"
	done
	for f in text json; do
		# shellcheck disable=SC2046
		run "$1" "$2" lookup-$f lookup --format "$f" $(cat "$out/reads.shas")
	done
	if [ -n "${ALL:-}" ]; then
		run "$1" "$2" unposted-all unposted
	fi
}

echo "reads: $got commits of $db"
echo "  report window $since..$until: $inwin commits landed"
if [ -n "${BASE:-}" ]; then
	echo "== $BASE"
	all "$BASE" reads-base
fi
echo "== $onlist"
# a database of an older schema is upgraded by the first command that
# opens it: here, untimed (after BASE's runs, which need the old schema)
"$onlist" -q --db "$db" lookup 0000000000000000000000000000000000000000 \
	>/dev/null 2>&1 || :
all "$onlist" reads
if [ -n "${BASE:-}" ]; then
	same=0 differ=0
	for f in "$out"/reads-base.*; do
		case $f in *.err) continue ;; esac
		name=${f##*/reads-base.}
		if cmp -s "$f" "$out/reads.$name"; then
			same=$((same + 1))
		else
			differ=$((differ + 1))
			echo "  DIFFERS: $name (bench/out/reads-base.$name, reads.$name)"
		fi
	done
	echo "  outputs compared with $BASE: $same the same, $differ differ"
fi
