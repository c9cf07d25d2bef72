#!/bin/sh
# kill -9 in the middle of `import`, `scan`, `match` and `fetch`, 20 times
# each at random points, then run the command to completion: the database
# must pass `pragma integrity_check` after every kill and end up with the
# same content as a run that was never interrupted.
#
# import: the fixture mbox copied many times with renamed Message-IDs (a few
#   thousand messages, plus one junk message per copy so that skips get
#   recorded); compared: every column of messages, message_lists, skipped
#   except the row id.
# scan:   a 2000-commit repository from fixtures/make-repo.py; compared:
#   every column of commits and trailers.
# match:  compared: matches.
# fetch:  a local public-inbox v2 directory (git/0.git, one commit per
#   message, written by git fast-import) holding the import's messages,
#   read in place; the position in the epoch is saved with each batch, so
#   a killed fetch must resume without losing or repeating a message.
#   Compared: messages, message_lists, skipped.
#
# ONLIST_T022_SEED picks the kill points (default: the clock; it is printed),
# ONLIST_T022_KILLS how many kills per command (default 20).
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

seed=${ONLIST_T022_SEED:-$(date +%s)}
kills=${ONLIST_T022_KILLS:-20}
echo "seed=$seed kills=$kills (ONLIST_T022_SEED=$seed repeats these kill points)"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# dump DB TABLE...: every column but the row id, in a fixed order
dump() {
	db=$1; shift
	for t in "$@"; do
		cols=$(sqlite3 "$db" "select group_concat(name, ', ') from pragma_table_info('$t') where name != 'id'")
		[ -n "$cols" ] || { echo "no table $t"; continue; }
		echo "-- $t ($cols)"
		sqlite3 -quote "$db" "select $cols from $t order by $cols"
	done
}
integrity() {	# integrity LABEL DB
	ic=$(sqlite3 "$2" 'pragma integrity_check' 2>&1)
	[ "$ic" = ok ] || bad "$1: pragma integrity_check after kill -9: $ic"
}
FX=$TMP/fx
sh fixtures/make-fixtures.sh "$FX" >"$TMP/fixture.log" 2>&1 ||
	{ cat "$TMP/fixture.log"; fail "the fixture could not be built (not onlist's fault)"; }

# kill points: fractions of the uninterrupted run time, from the seed; in
# increasing order, so that later runs, which have less left to do, are
# still running when their kill comes
fractions=$(awk -v s="$seed" -v n="$kills" 'BEGIN { srand(s); for (i = 0; i < n; i++) printf "%.3f\n", 0.05 + 0.9 * rand() }' | sort -n | tr '\n' ' ')
echo "kill points (fractions of an uninterrupted run): $fractions"

# killrun LABEL REFMS CMD...: run CMD in the background once per kill point,
# kill -9 it there, check the database after each kill.  Sets landed.
# With resumes=1 (scan, fetch: a re-run does only what is left) the kill
# points are spread over the whole job instead: each run is killed after
# f * REFMS / kills * 1.6, so that the runs together get through about
# 80% of the work and every kill lands while work is left.
killrun() {
	label=$1 refms=$2; shift 2
	landed=0
	for f in $fractions; do
		delay=$(awk -v f="$f" -v t="$refms" -v r="${resumes:-0}" -v n="$kills" \
			'BEGIN { if (r) t = t * 1.6 / n; printf "%.3f", f * t / 1000 }')
		"$@" >"$TMP/kill.out" 2>&1 &
		pid=$!
		sleep "$delay"
		kill -9 "$pid" 2>/dev/null
		{ wait "$pid"; } 2>/dev/null	# no "Killed" from the shell
		rc=$?
		if [ $rc -eq 137 ]; then
			landed=$((landed + 1))
			echo "    killed after ${delay}s; kept: $(kept)"
		else
			echo "    finished before the kill at ${delay}s (exit $rc)"
			[ $rc -lt 128 ] || bad "$label: died of signal $((rc - 128)) by itself"
		fi
		[ ! -e "$DB" ] || integrity "$label" "$DB"
	done
}
# what the database holds now (to see whether interrupted runs keep work)
kept() {
	sqlite3 "$DB" "select (select count(*) from messages) || ' messages, ' ||
		(select count(*) from commits) || ' commits, ' ||
		(select count(*) from matches) || ' matches'" 2>/dev/null || echo "no database"
}
# timed CMD...: run CMD, print its time, set ms and rc
timed() {
	t0=$(now_ms)
	"$@" >"$TMP/run.out" 2>&1
	rc=$?
	ms=$(( $(now_ms) - t0 ))
	sed 's/^/    /' "$TMP/run.out" | head -n 3
	echo "    (${ms} ms, exit $rc)"
}

# ---- import ------------------------------------------------------------------------
big=$TMP/big.mbox
copies=12
while :; do
	python3 - "$FX/list.mbox" "$big" "$copies" <<'EOF'
import re, sys
src, dst, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, 'rb').read()
FROM = re.compile(rb'^From (?:[0-9a-f]{40} Mon Sep 17 00:00:00 2001|mboxrd@z |\S+@\S+ \w{3} \w{3} )', re.M)
starts = [m.start() for m in FROM.finditer(data)] + [len(data)]
msgs = [data[a:b] for a, b in zip(starts, starts[1:])]
IDS = re.compile(rb'(?im)^(message-id|in-reply-to|references):[^\n]*(\n[ \t][^\n]*)*')
with open(dst, 'wb') as f:
    for k in range(copies):
        for m in msgs:
            sep = m.find(b'\n\n')
            sep = len(m) if sep < 0 else sep
            crlf = m.find(b'\r\n\r\n')
            if 0 <= crlf < sep:
                sep = crlf
            head = IDS.sub(lambda h: h.group(0).replace(b'<', b'<c%d.' % k), m[:sep])
            if k:   # the message without a Message-ID: make each copy distinct
                head = head.replace(b'\nSubject: ', b'\nSubject: [copy %d] ' % k, 1)
            f.write(head + m[sep:])
        f.write(b'From junk@example.org Thu Jan  1 00:00:00 1970\n'
                b'\x00\x01 copy %d: no header here\n\nnor here\n\n' % k)
EOF
	n=$(grep -c '^From ' "$big")
	echo "+ import (reference): $big, $copies copies, $n From_ lines"
	rm -f "$TMP/ref.db"
	timed "$ONLIST" --db "$TMP/ref.db" import --list big "$big"
	[ $rc -eq 0 ] || { bad "import (reference): exit $rc"; break; }
	# a run of at least a second leaves room to land kills; stop growing at ~50k
	[ $ms -lt 1000 ] && [ $copies -lt 150 ] || break
	copies=$((copies * 3))
done
import_ms=$ms
dump "$TMP/ref.db" messages message_lists skipped >"$TMP/import.ref"
echo "    reference: $(grep -c . "$TMP/import.ref") dump lines"

DB=$TMP/int.db
echo "+ import, killed $kills times"
resumes=0
killrun import "$import_ms" "$ONLIST" --db "$DB" import --list big "$big"
import_landed=$landed
echo "+ import to the end"
timed "$ONLIST" --db "$DB" import --list big "$big"
[ $rc -eq 0 ] || bad "import after the kills: exit $rc"
dump "$DB" messages message_lists skipped >"$TMP/import.int"
same_output "import: interrupted then completed vs uninterrupted" \
	"$TMP/import.ref" "$TMP/import.int" || bad "import: the database differs from an uninterrupted run"

# ---- scan ------------------------------------------------------------------------------
R=$TMP/bigrepo
git init -q -b main "$R"
python3 fixtures/make-repo.py --repo "$R" --commits "$TMP/bigrepo.tsv" --length 2000 ||
	fail "fixtures/make-repo.py failed (not onlist's fault)"
echo "+ scan (reference): $(git -C "$R" rev-list --count --no-merges next) commits"
timed "$ONLIST" --db "$TMP/ref.db" scan --repo "$R" next
[ $rc -eq 0 ] || bad "scan (reference): exit $rc"
scan_ms=$ms
dump "$TMP/ref.db" commits trailers >"$TMP/scan.ref"

echo "+ scan, killed $kills times"
resumes=1; killrun scan "$scan_ms" "$ONLIST" --db "$DB" scan --repo "$R" next; resumes=0
scan_landed=$landed
echo "+ scan to the end"
timed "$ONLIST" --db "$DB" scan --repo "$R" next
[ $rc -eq 0 ] || bad "scan after the kills: exit $rc"
dump "$DB" commits trailers >"$TMP/scan.int"
same_output "scan: interrupted then completed vs uninterrupted" \
	"$TMP/scan.ref" "$TMP/scan.int" || bad "scan: the database differs from an uninterrupted run"

# ---- match --------------------------------------------------------------------------------
# (the fixture archive copies against the big repository: few matches, but
# every commit and message is looked at)
echo "+ match (reference)"
timed "$ONLIST" --db "$TMP/ref.db" match
[ $rc -eq 0 ] || bad "match (reference): exit $rc"
match_ms=$ms
dump "$TMP/ref.db" matches >"$TMP/match.ref"
echo "+ match, killed $kills times"
killrun match "$match_ms" "$ONLIST" --db "$DB" match
match_landed=$landed
timed "$ONLIST" --db "$DB" match
[ $rc -eq 0 ] || bad "match after the kills: exit $rc"
dump "$DB" matches >"$TMP/match.int"
same_output "match: interrupted then completed vs uninterrupted" \
	"$TMP/match.ref" "$TMP/match.int" || bad "match: the database differs from an uninterrupted run"

# ---- fetch (a local public-inbox v2 directory) ------------------------------------------
PI=$TMP/inbox
git init -q --bare "$PI/git/0.git" || fail "git init (not onlist's fault)"
python3 - "$big" <<'EOF' | git -C "$PI/git/0.git" fast-import --quiet ||
import re, sys
data = open(sys.argv[1], 'rb').read()
FROM = re.compile(rb'^From \S+.*\n', re.M)
starts = [m.start() for m in FROM.finditer(data)] + [len(data)]
out = sys.stdout.buffer
for n, (a, b) in enumerate(zip(starts, starts[1:])):
    m = data[a:b]
    m = m[m.index(b'\n') + 1:]          # public-inbox keeps no From_ line
    out.write(b'commit refs/heads/master\ncommitter A <a@example.org> %d +0000\n'
              b'data 0\nM 100644 inline m\ndata %d\n' % (1000000000 + n, len(m)) + m + b'\n')
EOF
	fail "git fast-import (not onlist's fault)"
echo "+ fetch (reference): $(git -C "$PI/git/0.git" rev-list --count master) commits in $PI"
timed "$ONLIST" --db "$TMP/fref.db" fetch --list big --data "$TMP/fdata" "$PI"
[ $rc -eq 0 ] || bad "fetch (reference): exit $rc"
fetch_ms=$ms
dump "$TMP/fref.db" messages message_lists skipped >"$TMP/fetch.ref"
DB=$TMP/fint.db
echo "+ fetch, killed $kills times"
resumes=1; killrun fetch "$fetch_ms" "$ONLIST" --db "$DB" fetch --list big --data "$TMP/fdata" "$PI"; resumes=0
fetch_landed=$landed
echo "+ fetch to the end"
timed "$ONLIST" --db "$DB" fetch --list big --data "$TMP/fdata" "$PI"
[ $rc -eq 0 ] || bad "fetch after the kills: exit $rc"
dump "$DB" messages message_lists skipped >"$TMP/fetch.int"
same_output "fetch: interrupted then completed vs uninterrupted" \
	"$TMP/fetch.ref" "$TMP/fetch.int" || bad "fetch: the database differs from an uninterrupted run"

echo
echo "kills that hit a running process: import $import_landed/$kills (run ${import_ms} ms)," \
	"scan $scan_landed/$kills (${scan_ms} ms), match $match_landed/$kills (${match_ms} ms)," \
	"fetch $fetch_landed/$kills (${fetch_ms} ms)"
if [ $nfail -gt 0 ]; then
	echo "$nfail check(s) failed"
	exit 1
fi
if [ "$import_landed" -eq 0 ] || [ "$scan_landed" -eq 0 ] || [ "$fetch_landed" -eq 0 ]; then
	echo "skip: no kill -9 landed while import, scan or fetch ran (too fast here); nothing was tested" >&2
	exit 77
fi
echo "all checks passed"
