#!/bin/sh
# A whole match drops indexes for speed and makes them again: the thread
# tables' five (store_thread.c), matches_message while matches is emptied
# and refilled (store_match.c, made again after the patch-id tier).  Each
# must come back exactly as the schema makes it, whatever the run does
# after: a first run, a whole run forced over stored rows, one without
# the fuzzy tier, one with a commit row without a sha, one with no
# patch-id match and one after new mail.
# The schema's own set is that of a database `onlist import` just made
# (no match has run on it).  The data is bench/make-lkmldb.py's LKML
# shape, small (patch-id, subject, fuzzy, echo and late rows).
. tests/lib.sh
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp

indexes() {
	sqlite3 "$1" "SELECT type, name, tbl_name, sql FROM sqlite_master
		WHERE type IN ('index', 'trigger') ORDER BY name" ||
		fail "read the schema of $1"
}

printf 'From x Mon Jan  1 00:00:00 2024\nFrom: a@example.org\nMessage-ID: <one@x>\nSubject: hello\nDate: Mon, 1 Jan 2024 00:00:00 +0000\n\nhi\n' >"$TMP/one.mbox"
"$ONLIST" -q --db "$TMP/schema.db" import --list l "$TMP/one.mbox" >/dev/null ||
	fail "import of one message"
indexes "$TMP/schema.db" >"$TMP/schema"
grep -q '|matches_message|matches|' "$TMP/schema" ||
	fail "the schema has no matches_message index: the test no longer checks it"
grep -q '|thread_root|' "$TMP/schema" ||
	fail "the schema has no thread_root index: the test no longer checks it"

DB=$TMP/t.db
"$ONLIST" -q --db "$DB" import --list l "$TMP/one.mbox" >/dev/null || fail "import"
python3 bench/make-lkmldb.py "$DB" 6000 600 >/dev/null || fail "make-lkmldb.py"

# check NAME: the indexes and triggers are the schema's
check() {
	indexes "$DB" >"$TMP/$1.idx"
	cmp -s "$TMP/schema" "$TMP/$1.idx" || {
		diff "$TMP/schema" "$TMP/$1.idx" | head -10
		fail "$1: the indexes differ from the schema's"
	}
}

force() {
	sqlite3 "$DB" "DELETE FROM meta WHERE key IN ('threads_stamp',
		'threads_base', 'exact_stamp', 'fuzzy_stamp', 'ignored_stamp',
		'review_rows')" || fail "delete the stamps"
}

"$ONLIST" -q --db "$DB" match >"$TMP/first.out" || fail "first match"
grep -q ' [1-9][0-9]* patch-id' "$TMP/first.out" ||
	fail "the first match found no patch-id match: the tier did not run"
check first

force
"$ONLIST" -q --db "$DB" match >/dev/null || fail "forced match"
check forced

force
"$ONLIST" -q --db "$DB" match --no-fuzzy >/dev/null || fail "match --no-fuzzy"
check no-fuzzy

# a commit row without a sha (written by hand: the column allows NULL)
# whose patch-id a mail has is left out, not a failed run
cp "$DB" "$TMP/nullsha.db"
sqlite3 "$TMP/nullsha.db" "INSERT INTO commits(sha, body_empty, patch_id)
	SELECT NULL, 0, patch_id FROM messages WHERE patch_id IS NOT NULL LIMIT 1;
	DELETE FROM meta WHERE key IN ('threads_stamp', 'threads_base',
	'exact_stamp', 'fuzzy_stamp', 'ignored_stamp', 'review_rows')" ||
	fail "add a commit without a sha"
"$ONLIST" -q --db "$TMP/nullsha.db" match >"$TMP/nullsha.out" 2>&1 ||
	{ cat "$TMP/nullsha.out"; fail "a commit without a sha failed the match"; }
DB=$TMP/nullsha.db check null-sha

# no commit has a patch-id: the patch-id tier takes nothing
cp "$DB" "$TMP/nopid.db"
sqlite3 "$TMP/nopid.db" "UPDATE commits SET patch_id = NULL;
	DELETE FROM meta WHERE key IN ('threads_stamp', 'threads_base',
	'exact_stamp', 'fuzzy_stamp', 'ignored_stamp', 'review_rows')" ||
	fail "clear the patch-ids"
"$ONLIST" -q --db "$TMP/nopid.db" match >"$TMP/nopid.out" || fail "match without patch-ids"
grep -q ' 0 patch-id' "$TMP/nopid.out" || fail "patch-ids cleared, yet patch-id matches"
DB=$TMP/nopid.db check no-patch-id
DB=$TMP/t.db

python3 bench/make-lkmldb.py --add "$DB" 200 >/dev/null || fail "make-lkmldb.py --add"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match after new mail"
check new-mail
echo "ok: indexes as the schema makes them after whole, forced, --no-fuzzy and incremental runs"
