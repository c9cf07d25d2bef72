#!/bin/sh
# Review on the list, per commit, over every version of its topic (issue 12).
# tests/t044-review.py builds a repository and two list archives, one case
# per commit; what each case must come out as is written here, by hand:
#
#   CASE            STATE            EVIDENCE (the reply)  NAKS  OFF-LIST TAGS IN GIT
expect='
tag-patch        reviewed         tagpatch-r            0     -
tag-cover-1      reviewed_series  cover-r               0     -
tag-cover-2      reviewed_series  cover-r               0     -
series-1n-1      reviewed         onen-r                0     -
series-1n-2      reviewed_series  onen-r                0     -
series-1n-3      reviewed_series  onen-r                0     -
v1-only          reviewed         v1only-r              0     -
later-version    reviewed         later-r               0     -
cross-list       reviewed         cross-r               0     -
by-author        no_reply         -                     0     -
by-codev         no_reply         -                     0     -
by-bot           no_reply         -                     0     -
nak              discussed        -                     1     -
off-list         discussed        -                     0     Reviewed-by:_Frank_Offlist_<frank@example.org>|Acked-by:_Quinn_Quoted_<quinn@example.org>
unthreaded-1     reviewed_series  unthr-r               0     -
unthreaded-2     reviewed_series  unthr-r               0     -
v2-reply-v1-1    reviewed         rv-r                  0     -
v2-reply-v1-2    reviewed_series  rv-r                  0     -
discussed        discussed        -                     0     -
no-reply         no_reply         -                     0     -
missing-refs     reviewed         norefs-r              0     -
'
# tag-patch: Bob's Reviewed-by in git names his work address, which the
# repository's .mailmap maps to the one he reviewed from: not off the list.
# by-author, by-codev, by-bot: the tag comes from the author, the commit's
# Co-developed-by, a CI bot (a rules file): no review, and no reply either.
# cross-list: the patch was sent to alpha and beta, the review reached beta.
# v1-only / later-version: the review is on another version of the patch.
# unthreaded: the patches are not threaded to the cover letter.
# v2-reply-v1: the v2 cover letter answers v1's; v2's own series counts.
# missing-refs: the reply has neither In-Reply-To nor References.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

W=$TMP/w
DB=$TMP/onlist.db
python3 tests/t044-review.py "$W" || fail "the test mails could not be built"
"$ONLIST" -q --db "$DB" import --list alpha "$W/alpha.mbox" >/dev/null || fail "import alpha"
"$ONLIST" -q --db "$DB" import --list beta "$W/beta.mbox" >/dev/null || fail "import beta"
"$ONLIST" -q --db "$DB" scan --repo "$W/repo" base..main >/dev/null || fail "scan"
run match "$ONLIST" --db "$DB" match --rules "$W/rules"
expect_rc match 0

q() { sqlite3 "$DB" "$1"; }
sha_of() { awk -v c="$1" '$1 == c { print $2 }' "$W/cases"; }

# ---- the state of every case ------------------------------------------------
n=0
echo "$expect" | while read -r c state ev naks off; do
	[ -n "$c" ] || continue
	sha=$(sha_of "$c")
	[ -n "$sha" ] || { echo "FAIL: no commit for case $c (test bug)"; continue; }
	[ "$ev" = - ] || ev="$ev@example.org"
	off=$(echo "$off" | tr '_|' ' \n')
	got=$(q "SELECT state || ' ' || coalesce(evidence_msgid, '-') || ' ' || naks FROM commit_review WHERE sha = '$sha'")
	[ "$got" = "$state $ev $naks" ] || echo "FAIL: $c: '$got', expected '$state $ev $naks'"
	got=$(q "SELECT coalesce(off_list_tags, '-') FROM commit_review WHERE sha = '$sha'")
	[ "$got" = "$off" ] || echo "FAIL: $c: off-list tags '$got', expected '$off'"
done >"$TMP/states"
cat "$TMP/states"
[ ! -s "$TMP/states" ] || bad "commit states (above)"
[ "$(q "SELECT count(*) FROM commit_review")" = 21 ] || bad "not every posted commit has a state"

# ---- the tags given on the list, and why some are no review -----------------
while read -r reply why; do
	got=$(q "SELECT coalesce(why_not, '-') FROM review_tags WHERE msgid = '$reply@example.org'")
	[ "$got" = "$why" ] || bad "tag in <$reply>: why_not '$got', expected '$why'"
done <<'EOF'
author-r sender
codev-r co-developer
bot-r bot
tagpatch-r -
cover-r -
nak-r -
EOF
# the quoted Acked-by is no tag at all
[ "$(q "SELECT count(*) FROM review_tags WHERE msgid = 'offlist-r@example.org'")" = 0 ] ||
	bad "a quoted tag was taken for one"
got=$(q "SELECT target_class || ' ' || target FROM review_tags WHERE msgid = 'cover-r@example.org'")
[ "$got" = "cover cover-0@example.org" ] || bad "the cover letter's ack answers '$got'"
got=$(q "SELECT version || ' ' || series FROM review_tags WHERE msgid = 'rv-r@example.org'")
[ "$got" = "2 rv-v2-0@example.org" ] || bad "v2 sent as a reply to v1: the review is in '$got', expected v2's series"
got=$(q "SELECT series FROM series WHERE msgid = 'unthr-2@example.org'")
[ "$got" = "unthr-0@example.org" ] || bad "unthreaded 2/2 is in series '$got'"
got=$(q "SELECT count(DISTINCT topic) FROM series WHERE msgid IN ('rv-v1-0@example.org', 'rv-v2-0@example.org')")
[ "$got" = 1 ] || bad "rv v1 and v2 are not one topic"
got=$(q "SELECT group_concat(list) FROM (SELECT list FROM message_lists WHERE msgid = 'cross@example.org' ORDER BY list)")
[ "$got" = "alpha,beta" ] || bad "the cross-posted patch is on '$got'"

# ---- no repository known: no .mailmap, Bob's work address is off the list --
cp "$DB" "$TMP/nomap.db"
sqlite3 "$TMP/nomap.db" "DELETE FROM meta WHERE key = 'repo'"
run "match without repo" "$ONLIST" --db "$TMP/nomap.db" match --rules "$W/rules"
got=$(sqlite3 "$TMP/nomap.db" "SELECT coalesce(off_list_tags, '-') FROM commit_review WHERE sha = '$(sha_of tag-patch)'")
[ "$got" = "Reviewed-by: Bob Reviewer <bob@work.example.com>" ] ||
	bad "without .mailmap, tag-patch's off-list tags are '$got'"

# ---- an older database (schema 6) upgrades, and match fills the tables -----
cp "$DB" "$TMP/old.db"
sqlite3 "$TMP/old.db" "DROP TABLE review_tags; DROP TABLE commit_review; PRAGMA user_version = 6;"
run "upgrade" "$ONLIST" --db "$TMP/old.db" status
expect_rc upgrade 0
[ "$(sqlite3 "$TMP/old.db" "PRAGMA user_version")" = 7 ] || bad "not upgraded to schema 7"
[ "$(sqlite3 "$TMP/old.db" "SELECT count(*) FROM commit_review")" = 0 ] || bad "upgrade: commit_review not empty"
run "match after upgrade" "$ONLIST" --db "$TMP/old.db" match --rules "$W/rules"
[ "$(sqlite3 "$TMP/old.db" "SELECT group_concat(sha || state) FROM (SELECT * FROM commit_review ORDER BY sha)")" = \
  "$(q "SELECT group_concat(sha || state) FROM (SELECT * FROM commit_review ORDER BY sha)")" ] ||
	bad "states after an upgrade differ from a fresh database's"

[ "$(q 'pragma integrity_check')" = ok ] || bad "integrity_check"
[ $nfail -eq 0 ] && echo "all checks passed"
