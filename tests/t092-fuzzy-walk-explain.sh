#!/bin/sh
# A whole fuzzy tier reads its authors' patch mails once, before the walk,
# into a temporary table (store_fuzzy.c, sql_prefetch); --explain asks the
# messages of one commit directly.  Both must see the same candidates: the
# fuzzy matches of a whole run are the candidates --explain --all says are
# taken, commit by commit, with the same scores (but those through another
# address of the author, which --explain does not ask).  The mail is
# t050's labelled set, which has fuzzy matches.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

eval_set 5050
DB=$TMP/onlist.db
"$ONLIST" -q --db "$DB" import --list eval "$W/eval.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$DB" import --list stable "$W/stable.mbox" >/dev/null || fail "import stable"
"$ONLIST" -q --db "$DB" scan --repo "$W/repo" v1.0..v1.1 >/dev/null || fail "scan"
"$ONLIST" -q --db "$DB" match --rules "$TMP/rules" >/dev/null || fail "match"

sqlite3 "$DB" "SELECT commit_sha || ' ' || message_id || ' ' || printf('%.2f', score)
	FROM matches WHERE method = 'fuzzy'" | LC_ALL=C sort >"$TMP/walk"
n=$(wc -l <"$TMP/walk")
[ "$n" -gt 3 ] || fail "only $n fuzzy matches in the set (test bug)"

# every commit no earlier tier matched, explained: its taken candidates
sqlite3 "$DB" "SELECT sha FROM commits WHERE sha NOT IN (SELECT commit_sha
	FROM matches WHERE method IN ('link', 'patch-id', 'patch-id-alg',
	'repaired', 'quoted', 'author-date', 'subject'))" >"$TMP/shas"
: >"$TMP/explained"
while read -r sha; do
	"$ONLIST" --db "$DB" match --rules "$TMP/rules" --explain "$sha" --all \
		>"$TMP/one" 2>&1 || { cat "$TMP/one"; bad "explain $sha failed"; continue; }
	awk -v sha="$sha" '
		/^  </ { id = substr($1, 2, length($1) - 2) }
		/ -> score [0-9.]*: taken$/ {
			s = $0; sub(/.* -> score /, "", s); sub(/:.*/, "", s)
			print sha, id, s
		}' "$TMP/one" >>"$TMP/explained"
done <"$TMP/shas"
LC_ALL=C sort -o "$TMP/explained" "$TMP/explained"
# --explain asks the commit's own address and its subject; the walk the
# addresses the repository's .mailmap ties to it too (an old address no
# commit to score has: asked of the messages, not read before the walk).
# Every match --explain takes the walk has; the walk's others are of such
# an address, and there are some (else the second path is not tested).
LC_ALL=C comm -23 "$TMP/explained" "$TMP/walk" >"$TMP/only-explain"
[ -s "$TMP/only-explain" ] &&
	{ head -5 "$TMP/only-explain"; bad "--explain takes candidates the walk did not"; }
LC_ALL=C comm -13 "$TMP/explained" "$TMP/walk" >"$TMP/only-walk"
[ -s "$TMP/only-walk" ] || bad "no match through a .mailmap address (test bug)"
while read -r sha id score; do
	other=$(sqlite3 "$DB" "SELECT count(*) FROM commits c, messages m
		WHERE c.sha = '$sha' AND m.msgid = '$id'
		AND lower(m.from_addr) <> lower(c.author_email)")
	[ "$other" = 1 ] || bad "$sha $id: the walk's match is not through another address"
done <"$TMP/only-walk"
[ $nfail -eq 0 ] && echo "all checks passed"
