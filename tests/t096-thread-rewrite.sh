#!/bin/sh
# A whole thread build over tables that hold rows already (the thread
# stamps gone, as after a change of rules) writes only the rows that
# differ (store_thread.c), and leaves the tables a build into empty ones
# leaves: with nothing changed, with a few rows changed, added or removed
# by hand (thread, series and replies, by_author included), and with too
# many changed, where the tables are written whole.  The messages are
# those of tests/t053-incremental-random.py.
. tests/lib.sh
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp

# every value with its type and its bytes (a NUL byte, a blob, a number
# stored as text or real show)
dump() {
	for t in "thread:msgid, parent, root, depth, answers" \
		 "series:msgid, series, topic" "replies:patch, reply, by_author" \
		 "review_tags:*" "thread_pending:*"; do
		echo "== ${t%%:*}"
		cols=${t#*:}
		[ "$cols" = "*" ] || cols=$(echo "$cols" | sed 's/\([a-z_][a-z_]*\)/typeof(\1), hex(\1)/g')
		sqlite3 "$1" "SELECT $cols FROM ${t%%:*}" >"$TMP/rows" ||
			fail "dump ${t%%:*}"
		LC_ALL=C sort "$TMP/rows"
	done
}

# forced NAME: drop the stamps, match, compare with the first build;
# $w: the thread rows written
forced() {
	sqlite3 "$DB" "DELETE FROM meta WHERE key IN ('threads_stamp', 'threads_base')"
	ONLIST_TIMING=1 "$ONLIST" -q --db "$DB" match >"$TMP/$1.out" 2>"$TMP/$1.err" ||
		fail "$1: match"
	dump "$DB" >"$TMP/$1.dump"
	cmp -s "$TMP/full.dump" "$TMP/$1.dump" ||
		{ diff "$TMP/full.dump" "$TMP/$1.dump" | head -20; bad "$1: tables differ from the first build"; }
	cmp -s "$TMP/full.out" "$TMP/$1.out" || bad "$1: the match prints other counts"
	w=$(sed -n 's/^timing: \([0-9]*\) thread rows written$/\1/p' "$TMP/$1.err")
}

python3 tests/t053-incremental-random.py 3 "$TMP/all.mbox" ||
	fail "the archive could not be built"
DB=$TMP/t.db
"$ONLIST" -q --db "$DB" import --list l "$TMP/all.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$DB" match >"$TMP/full.out" || fail "match"
dump "$DB" >"$TMP/full.dump"
n=$(sqlite3 "$DB" 'SELECT count(*) FROM thread')
[ "$n" -gt 150 ] || fail "too few messages (test bug)"
[ "$(sqlite3 "$DB" 'SELECT count(*) FROM replies')" -gt 10 ] || fail "too few replies (test bug)"
[ "$(sqlite3 "$DB" 'SELECT count(*) FROM series')" -gt 10 ] || fail "too few series rows (test bug)"

forced same
[ "$w" = 0 ] || bad "nothing changed, yet $w thread rows written"

sqlite3 "$DB" "
UPDATE thread SET depth = depth + 1 WHERE msgid IN (SELECT msgid FROM thread ORDER BY msgid LIMIT 2);
UPDATE thread SET answers = NULL WHERE msgid = (SELECT msgid FROM thread WHERE answers IS NOT NULL ORDER BY msgid DESC LIMIT 1);
DELETE FROM thread WHERE msgid = (SELECT msgid FROM thread ORDER BY msgid LIMIT 1 OFFSET 7);
INSERT INTO thread VALUES('gone@example.org', NULL, 'gone@example.org', 0, NULL);
INSERT INTO thread VALUES('~last@example.org', NULL, '~last@example.org', 0, NULL);
DELETE FROM series WHERE msgid = (SELECT msgid FROM series ORDER BY msgid LIMIT 1);
UPDATE series SET topic = topic || 'x' WHERE msgid = (SELECT msgid FROM series ORDER BY msgid DESC LIMIT 1);
INSERT INTO series VALUES('gone@example.org', 'gone@example.org', 'gone');
UPDATE replies SET by_author = 1 - by_author WHERE (patch, reply) = (SELECT patch, reply FROM replies ORDER BY patch, reply LIMIT 1);
DELETE FROM replies WHERE (patch, reply) = (SELECT patch, reply FROM replies ORDER BY patch DESC, reply DESC LIMIT 1);
INSERT INTO replies SELECT patch, 'gone@example.org', 0 FROM replies LIMIT 1;
" || fail "the rows could not be changed (test bug)"
forced few
# two depths, an answer, a row gone: the rows of no message are deleted
[ "$w" = 4 ] || bad "a few rows changed: $w thread rows written, not 4"

# values of another type or with a NUL byte, stored by hand, are written
# again; a key with a NUL byte has the tables written whole
sqlite3 "$DB" "
UPDATE thread SET depth = depth + 0.25 WHERE msgid = (SELECT msgid FROM thread ORDER BY msgid LIMIT 1 OFFSET 3);
UPDATE thread SET root = root || char(0) || 'x' WHERE msgid = (SELECT msgid FROM thread ORDER BY msgid LIMIT 1 OFFSET 4);
UPDATE series SET topic = CAST(topic AS BLOB) WHERE msgid = (SELECT msgid FROM series ORDER BY msgid LIMIT 1 OFFSET 2);
UPDATE replies SET by_author = '0' || by_author WHERE (patch, reply) = (SELECT patch, reply FROM replies ORDER BY patch, reply LIMIT 1 OFFSET 1);
" || fail "the values could not be changed (test bug)"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM thread WHERE typeof(depth) = 'real' OR instr(CAST(root AS BLOB), x'00')")" = 2 ] ||
	fail "the hand-made values did not stay (test bug)"
forced types
[ "$w" = 2 ] || bad "a real depth and a root with a NUL byte: $w thread rows written, not 2"
sqlite3 "$DB" "UPDATE series SET msgid = msgid || char(0) || 'x' WHERE msgid = (SELECT msgid FROM series ORDER BY msgid LIMIT 1 OFFSET 5)" ||
	fail "update (test bug)"
forced nul-key
[ "$w" = "$n" ] || bad "a key with a NUL byte: $w thread rows written, not all $n"

sqlite3 "$DB" "UPDATE thread SET depth = depth + 1" || fail "update (test bug)"
forced many
[ "$w" = "$n" ] || bad "every row changed: $w thread rows written, not all $n"

[ $nfail -eq 0 ] && echo "a whole build over stored rows leaves the tables of a first build"
[ $nfail -eq 0 ]
