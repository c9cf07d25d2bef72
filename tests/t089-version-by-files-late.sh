#!/bin/sh
# An earlier version that arrives after the commit was reviewed: v2 of
# Ann's patch is posted and matched first; v1, under another subject but
# with the same files and the same "x:" prefix, and its review come in
# a later import.  The review after that mail must find the commit by
# the patch's sender and files (store_review.c sql_links_some, the look-up
# by schema 22's commits_author_files) and link v1 as an earlier version,
# as a review from scratch does; the link and its reviewed state are
# written here by hand.
. tests/lib.sh
need_cmd git
need_cmd sqlite3
need_onlist
make_tmp
isolate_git
patch_repo

who Maint maint@example.org
KEEP=1 commit 2024-01-02T10:00:00 README base "base"
who Ann ann@example.org
commit 2024-02-01T10:00:00 src/x.c draft "x: add foo"
body v1
KEEP=1 commit 2024-03-01T10:00:00 src/x.c final "x: add foo handling"
KEEP=1 body v2
git -C "$R" tag v1.0 HEAD || fail "tag"

printf 'Looks right.\n\nReviewed-by: Rev <rev@example.org>\n' >"$TMP/rev.body"
mail "$TMP/v2.body" "Ann <ann@example.org>" "Tue, 20 Feb 2024 10:00:00 +0000" \
	"v2@x" "[PATCH v2] x: add foo handling" >"$TMP/one.mbox"
{
	mail "$TMP/v1.body" "Ann <ann@example.org>" "Thu, 01 Feb 2024 10:00:00 +0000" \
		"v1@x" "[PATCH] x: add foo"
	mail "$TMP/rev.body" "Rev <rev@example.org>" "Fri, 02 Feb 2024 10:00:00 +0000" \
		"v1r@x" "Re: [PATCH] x: add foo" v1@x
} >"$TMP/two.mbox"

DB=$TMP/inc.db
"$ONLIST" -q --db "$DB" scan --repo "$R" v1.0 >/dev/null || fail "scan"
sha=$(git -C "$R" rev-parse HEAD)
"$ONLIST" -q --db "$DB" import --list l "$TMP/one.mbox" >/dev/null || fail "import one"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match one"
[ "$(sqlite3 "$DB" "SELECT message_id FROM matches WHERE commit_sha = '$sha'")" = v2@x ] ||
	fail "v2 is not the commit's posting (test bug)"
[ "$(sqlite3 "$DB" "SELECT state FROM commit_review WHERE sha = '$sha'")" = no_reply ] ||
	fail "before v1 the commit is not no_reply (test bug)"
"$ONLIST" -q --db "$DB" import --list l "$TMP/two.mbox" >/dev/null || fail "import two"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match two"

cp "$DB" "$TMP/scratch.db"
sqlite3 "$TMP/scratch.db" "DELETE FROM meta WHERE key IN ('exact_stamp', 'fuzzy_stamp', 'review_rows')" ||
	fail "sqlite3"
"$ONLIST" -q --db "$TMP/scratch.db" match >/dev/null || fail "match from scratch"

want_links="$sha|v1@x|0
$sha|v2@x|1"
for db in "$TMP/scratch.db" "$DB"; do
	got=$(sqlite3 "$db" "SELECT sha, msgid, posted FROM review_links WHERE sha = '$sha' ORDER BY 2")
	[ "$got" = "$want_links" ] || bad "$(basename "$db"): links: $got"
	got=$(sqlite3 "$db" "SELECT state FROM commit_review WHERE sha = '$sha'")
	[ "$got" = reviewed ] || bad "$(basename "$db"): state $got, want reviewed"
done
for t in review_links commit_review; do
	sqlite3 "$TMP/scratch.db" "SELECT * FROM $t" | LC_ALL=C sort >"$TMP/want.$t"
	sqlite3 "$DB" "SELECT * FROM $t" | LC_ALL=C sort >"$TMP/got.$t"
	same_output "$t after the late v1" "$TMP/want.$t" "$TMP/got.$t" || bad "$t differs from scratch"
done
[ $nfail -eq 0 ] && echo "all checks passed"
[ $nfail -eq 0 ]
