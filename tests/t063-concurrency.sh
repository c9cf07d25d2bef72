#!/bin/sh
# Two processes on one database.
#   1. A writer that keeps the write lock (sqlite3 holding BEGIN IMMEDIATE):
#      `onlist import` waits a bounded time (10 s), then fails with exit 1
#      and a message saying the database is locked by another writer; the
#      database is unchanged and intact.  Readers (`lookup`, `unposted`,
#      `status`) keep answering meanwhile (WAL).
#   2. A long import running: `lookup`, `unposted` and `status` run again
#      and again while it does, each answering at once.
#   3. Two imports of different archives at once: each either succeeds or
#      is refused with that message; what ends in the database is exactly
#      what importing both one after the other gives.
. tests/lib.sh
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# gen FILE TAG N: an mbox of N small patch mails with ids <TAG.i@example.org>
gen() {
	python3 - "$@" <<'PY'
import sys
path, tag, n = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3])
with open(path, 'wb') as f:
    for i in range(n):
        f.write(b'From a@example.org Mon Jan  1 00:00:00 2001\n'
                b'Message-ID: <%s.%d@example.org>\nFrom: A <a@example.org>\n'
                b'Date: Mon, 1 Jan 2001 00:00:00 +0000\n'
                b'Subject: [PATCH] change %d\n\nWhy.\n---\n'
                b'diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n'
                b'@@ -1 +1 @@\n-old\n+new %s %d\n\n' % ((tag, i) + (i,) * 5 + (tag, i)))
PY
}
gen "$TMP/a.mbox" a 30000
gen "$TMP/b.mbox" b 30000
gen "$TMP/small.mbox" s 10

DB=$TMP/t.db
sh fixtures/make-fixtures.sh "$TMP/fx" >"$TMP/fx.log" 2>&1 || fail "fixtures (not onlist's fault)"
"$ONLIST" -q --db "$DB" import --list L "$TMP/fx/list.mbox" >/dev/null || fail "first import"
"$ONLIST" -q --db "$DB" scan --repo "$TMP/fx/repo" v1.0..v1.1 >/dev/null || fail "scan"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match"
sha=$(git -C "$TMP/fx/repo" rev-parse v1.1)

# readers LABEL: lookup, unposted and status must answer, each within 3 s
readers() {
	for cmd in "lookup $sha" "unposted" "status"; do
		t0=$(now_ms)
		# shellcheck disable=SC2086
		run "$1: $cmd" "$ONLIST" -q --db "$DB" $cmd
		ms=$(( $(now_ms) - t0 ))
		expect_rc "$1: $cmd" 0
		[ "$ms" -lt 3000 ] || bad "$1: $cmd took $ms ms"
	done
}

# ---- 1. a writer holds the lock ---------------------------------------------
before=$(sqlite3 "$DB" 'select count(*) from messages')
mkfifo "$TMP/ctl" || fail "mkfifo"
sqlite3 "$DB" <"$TMP/ctl" >/dev/null 2>&1 &
holder=$!
exec 3>"$TMP/ctl"
echo 'BEGIN IMMEDIATE;' >&3
echo "insert into meta values ('t063', 'held');" >&3
sleep 1
readers "lock held"
t0=$(now_ms)
run "import while locked" "$ONLIST" -q --db "$DB" import --list S "$TMP/small.mbox"
ms=$(( $(now_ms) - t0 ))
expect_rc "import while locked" 1
echo "    refused after $ms ms"
[ "$ms" -ge 5000 ] && [ "$ms" -lt 14000 ] || bad "import while locked: gave up after $ms ms, not ~10 s"
grep -q 'locked by another process writing to it' "$TMP/err" ||
	bad "import while locked: unclear message: $(cat "$TMP/err")"
echo 'ROLLBACK;' >&3
exec 3>&-
wait "$holder"
[ "$(sqlite3 "$DB" 'select count(*) from messages')" = "$before" ] || bad "the refused import changed the database"
[ "$(sqlite3 "$DB" 'pragma integrity_check')" = ok ] || bad "integrity_check after the refused import"

# ---- 2. readers during a long import -----------------------------------------------
"$ONLIST" -q --db "$DB" import --list A "$TMP/a.mbox" >"$TMP/a.out" 2>&1 &
importer=$!
rounds=0
sleep 0.3
while kill -0 "$importer" 2>/dev/null; do
	readers "during import"
	rounds=$((rounds + 1))
done
wait "$importer" || bad "the long import failed: $(cat "$TMP/a.out")"
echo "    $rounds rounds of readers while the import ran"
[ $rounds -ge 1 ] || echo "note: the import ended before a reader ran (fast machine)"

# ---- 3. two writers at once ---------------------------------------------------------
# Copied with SQLite's backup, not cp: the newest writes may still be in
# the -wal file (a reader that closes last, read-only, cannot fold it in).
sqlite3 "$DB" ".backup '$TMP/seq.db'" || fail "sqlite3 .backup"
"$ONLIST" -q --db "$TMP/seq.db" import --list B "$TMP/b.mbox" >/dev/null || bad "sequential import of b"
"$ONLIST" -q --db "$TMP/seq.db" import --list C "$TMP/small.mbox" >/dev/null || bad "sequential import of small"
"$ONLIST" -q --db "$DB" import --list B "$TMP/b.mbox" >"$TMP/b.out" 2>&1 &
pb=$!
"$ONLIST" -q --db "$DB" import --list C "$TMP/small.mbox" >"$TMP/c.out" 2>&1 &
pc=$!
wait $pb; rb=$?
wait $pc; rc_=$?
echo "    concurrent imports: exit $rb and $rc_"
for r in "b $rb" "c $rc_"; do
	set -- $r
	if [ "$2" -ne 0 ]; then
		[ "$2" -eq 1 ] && grep -q 'locked by another process' "$TMP/$1.out" ||
			bad "concurrent import $1: exit $2: $(cat "$TMP/$1.out")"
		# refused: run it again alone, as the user would
		f=$TMP/b.mbox; l=B; [ "$1" = c ] && f=$TMP/small.mbox l=C
		"$ONLIST" -q --db "$DB" import --list $l "$f" >/dev/null || bad "re-run of $1"
	fi
done
for d in "$DB" "$TMP/seq.db"; do
	sqlite3 "$d" 'select msgid, list from messages join message_lists using (msgid) order by 1, 2' \
		>"$d.dump" 2>/dev/null ||
	sqlite3 "$d" 'select msgid, patch_id from messages order by 1' >"$d.dump"
done
same_output "two writers vs one after the other" "$TMP/seq.db.dump" "$DB.dump" ||
	bad "two concurrent imports left a different database"
[ "$(sqlite3 "$DB" 'pragma integrity_check')" = ok ] || bad "integrity_check"
[ $nfail -eq 0 ] && echo "all concurrency checks passed"
[ $nfail -eq 0 ]
