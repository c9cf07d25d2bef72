#!/bin/sh
# A damaged database is an error, never an answer.  With the indexes of
# `commits` damaged, `lookup` said "no such commit in the database",
# `lookup --json` printed [] and `unposted` "262 commits ... not scanned
# yet" with exit 0: SQLite's SQLITE_CORRUPT had been taken for "no row".
# Every reading command now exits 1 and says "the database is damaged:
# run `sqlite3 DB 'pragma integrity_check'`".  And `unposted` of a range
# that is not all scanned exits non-zero, in every format.
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
fixture_db "$FX" "$DB"
sha=$(git -C "$FX/repo" rev-parse v1.1)

# ---- an unscanned range is not a whole answer -----------------------------------
# v1.0 and what came before it were never scanned
for fmt in text json; do
	run "unscanned $fmt" "$ONLIST" --db "$DB" unposted --format $fmt v1.1
	[ "$rc" -ne 0 ] || bad "unscanned $fmt: exit 0 for a range not all scanned"
	grep -q "not scanned yet" "$TMP/err" || bad "unscanned $fmt: not said"
done

# damage TABLE: overwrite the root page of each index of TABLE (all but the
# first 8 bytes: the page is still there, its contents are garbage)
damage() {
	python3 - "$1" "$2" <<'PY' || fail "could not damage $1"
import sqlite3, sys
path, table = sys.argv[1], sys.argv[2]
c = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
size = c.execute("pragma page_size").fetchone()[0]
roots = [r[0] for r in c.execute(
    "select rootpage from sqlite_master where type = 'index' and tbl_name = ?",
    (table,))]
c.close()
assert roots, "no index on " + table
with open(path, "r+b") as f:
    for page in roots:
        f.seek((page - 1) * size + 8)
        f.write(b"\xff" * (size - 8))
PY
}

# damaged LABEL CMD...: exit 1, the message, none of the answers that
# used to stand in for it
damaged() {
	label=$1; shift
	run "$label" "$@"
	expect_rc "$label" 1
	grep -qF "the database is damaged: run \`sqlite3 $BAD 'pragma integrity_check'\`" "$TMP/err" ||
		bad "$label: does not say the database is damaged: $(head -n 1 "$TMP/err")"
	! grep -q "no such commit\|not scanned yet\|never posted" "$TMP/out" "$TMP/err" ||
		bad "$label: a damaged page read as an answer: $(grep -h "no such\|not scanned\|never" "$TMP/out" "$TMP/err" | head -n 1)"
}

BAD=$TMP/commits.db
cp "$DB" "$BAD"
damage "$BAD" commits
damaged "commits: lookup" "$ONLIST" --db "$BAD" lookup "$sha"
damaged "commits: lookup --json" "$ONLIST" --db "$BAD" lookup --json "$sha"
for fmt in text json; do
	damaged "commits: unposted $fmt" "$ONLIST" --db "$BAD" \
		unposted --format $fmt v1.0..v1.1
done
damaged "commits: status" "$ONLIST" --db "$BAD" status
damaged "commits: report" "$ONLIST" --db "$BAD" report --format json v1.0..v1.1
damaged "commits: stats" "$ONLIST" --db "$BAD" stats v1.0..v1.1
damaged "commits: export" "$ONLIST" --db "$BAD" export commits

BAD=$TMP/messages.db
cp "$DB" "$BAD"
damage "$BAD" messages
damage "$BAD" matches
msgid=$(python3 -c '
import sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(c.execute("select msgid from messages where has_patch order by msgid limit 1").fetchone()[0])
' "$DB")
posted=$(python3 -c '
import sqlite3, sys
c = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
print(c.execute("select commit_sha from matches order by commit_sha limit 1").fetchone()[0])
' "$DB")
damaged "messages: lookup" "$ONLIST" --db "$BAD" lookup "$posted"
damaged "messages: lookup --json" "$ONLIST" --db "$BAD" lookup --json "$posted"
damaged "messages: thread" "$ONLIST" --db "$BAD" thread "$msgid"
damaged "messages: status" "$ONLIST" --db "$BAD" status
damaged "messages: unposted" "$ONLIST" --db "$BAD" unposted

# a read that fails half way is a failure too: status printed the
# totals, an empty list table and exit 0 when the per-list read failed
BAD=$TMP/nolists.db
cp "$DB" "$BAD"
python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("drop table message_lists")
c.commit()
' "$BAD"
for fmt in text json; do
	run "no lists: status $fmt" "$ONLIST" --db "$BAD" status --format $fmt
	expect_rc "no lists: status $fmt" 1
	grep -q "status: .*message_lists" "$TMP/err" ||
		bad "no lists: status $fmt: the failed read is not said: $(head -n 1 "$TMP/err")"
done

[ $nfail -eq 0 ] && echo "all damaged-database checks passed"
[ $nfail -eq 0 ]
