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
bot-tag          discussed        -                     0     -
nak              discussed        -                     1     -
off-list         discussed        -                     0     Reviewed-by:_Frank_Offlist_<frank@example.org>|Acked-by:_Quinn_Quoted_<quinn@example.org>
unthreaded-1     reviewed_series  unthr-r               0     -
unthreaded-2     reviewed_series  unthr-r               0     -
v2-reply-v1-1    reviewed         rv-r                  0     -
v2-reply-v1-2    no_reply         -                     0     -
discussed        discussed        -                     0     -
no-reply         no_reply         -                     0     -
missing-refs     reviewed         norefs-r              0     -
reply-fix        no_reply         -                     0     -
renamed-1        reviewed         ren-r                 0     -
renamed-2        reviewed_series  ren-r                 0     -
taken-over-1     reviewed         tko-r                 0     -
taken-over-2     no_reply         -                     0     -
bare-nak         discussed        -                     1     -
applied-ty       no_reply         -                     0     -
diff-reply       discussed        -                     0     -
diff-reply-tag   reviewed         drt-r                 0     -
v3-after-tags    reviewed         vthree-r              0     -
inbody-author    reviewed         inbody-r              0     -
same-name        reviewed         twoaddr-r             0     -
one-word-name    no_reply         -                     0     -
stable-backport  no_reply         -                     0     -
notice-applied   no_reply         -                     0     -
notice-queued    no_reply         -                     0     -
notice-fornext   no_reply         -                     0     -
notice-merged    no_reply         -                     0     -
notice-committed no_reply         -                     0     -
notice-rule      no_reply         -                     0     -
notice-para      discussed        -                     0     -
notice-by-author no_reply         -                     0     -
credited-ack     no_reply         -                     0     -
cover-vn-1       reviewed_series  cvn-r                 0     -
cover-vn-2       reviewed_series  cvn-r                 0     -
cover-nonum-1    reviewed_series  cnn-r                 0     -
cover-nonum-2    reviewed_series  cnn-r                 0     -
cover-rfc-1      reviewed_series  rfc-r                 0     -
cover-rfc-2      reviewed_series  rfc-r                 0     -
cover-old-thread-1 reviewed_series ovt-r                0     -
cover-old-thread-2 reviewed_series ovt-r                0     -
lost-patch       no_reply         -                     0     -
notice-long      no_reply         -                     0     -
midline-tag      reviewed         midtag-r              0     -
sketch-ack       reviewed         ska-r                 0     -
renamed-version-subject reviewed rnv-r                 0     -
renamed-version-files reviewed   fvn-r                 0     -
head-1n-1        reviewed         headn-r               0     -
head-1n-2        reviewed_series  headn-r               0     -
sketch-scope-1   reviewed_series  sks-r                 0     -
sketch-scope-2   reviewed         sks-r                 0     -
sibling-disc-1   discussed        -                     0     -
sibling-disc-2   no_reply         -                     0     -
files-sibling    no_reply         -                     0     -
files-same-version no_reply       -                     0     -
files-applied-a  discussed        -                     0     -
files-applied-b  no_reply         -                     0     -
gap-split-1      reviewed_series  gap-r                 0     -
gap-split-2      reviewed_series  gap-r                 0     -
gap-new          no_reply         -                     0     -
lost-ack         reviewed         lack-r                0     -
lost-ack-attributed reviewed      latt-r                0     -
lost-carried     no_reply         -                     0     Acked-by:_Quinn_Quoted_<quinn@example.org>
'
# tag-patch: Bob's Reviewed-by in git names his work address, which the
# repository's .mailmap maps to the one he reviewed from: not off the list.
# by-author, by-codev, by-bot: the tag comes from the author, the commit's
# Co-developed-by, a CI bot (a rules file): no review, and no reply either.
# bot-tag: Gina's reply carries "Tested-by: syzbot+...": a bot's address
# (built-in rule), so no review though a person sent it; she did reply.
# cross-list: the patch was sent to alpha and beta, the review reached beta.
# v1-only / later-version: the review is on another version of the patch.
# unthreaded: the patches are not threaded to the cover letter.
# v2-reply-v1: the v2 cover letter answers v1's; v2's own series counts.
# missing-refs: the reply has neither In-Reply-To nor References.
# reply-fix: Jack's fix went out only as "Re: [PATCH 2/2]" in the cover
# series' thread: Carol's ack of that series is not a review of it.
# renamed: v2's cover letter has another subject than v1's; the patches
# kept theirs, and the ack on v1's 1/2 still reaches the commits.
# bare-nak: Eve answered with "NAK" alone on a line; Ann quoted it.
# applied-ty: the only answer is the maintainer's b4 "Applied, thanks!"
# notice, which the built-in rules take for a bot's: a receipt, no reply.
# taken-over: Jack sent v2, as a reply to Ann's v1 cover letter and under
# another subject; Bob's review of v1's 1/2 still reaches them.
# diff-reply, diff-reply-tag: Ivan and Carol answered "Re: [PATCH]" with a
# diff of their own ("how about this instead"), Carol with an Acked-by
# above it: each mail is a patch, and a reply to the one it answers.
# v3-after-tags: v3 is "[PATCH BlueZ] V3: vthree: ...", v1 (acked) had
# no version: the "V3:" is a version, and the subjects are one.
# inbody-author: Mo posted Ann's v2 with her in-body From: line; Dave's
# review of her own v1 reaches it.
# same-name: Ann sent v2 from another address, her name the same.
# one-word-name: "Kim" from two addresses is not taken for one person.
# notice-*: the only answer is Mo's applied notice ("Thanks, applied.",
# "Now queued up, thanks.", "Applied to for-next, thanks!", "Merged.
# Thanks!", "Committed... (tag: ...)", and "Landed in main, thanks." by
# the rules file's "notice text *landed*"): no reply, the notice kept as
# evidence.  notice-para: "Applied, but please ..." and a paragraph.
# notice-by-author: Mo is the commit's author and answers the patch Ann
# sent with a notice: the same state, and lookup counts no reply.
# credited-ack: Sam posted Ann's patch with her in-body From:; git has
# her other address; her own Acked-by is no review.
# cover-vn, cover-nonum, cover-rfc: cover letters without "0/N" ("[v4]
# ...", "[PATCH] ...", "[RFC] ..."), found as the mail the patches answer;
# the ack on cover-nonum sits one level down (a reply to Ivan's question);
# cover-rfc's is a reply that says "For the series".
# cover-old-thread: v2's "[V2]" cover was sent into v1's review thread;
# Carol's ack on it covers v2's patches, the second new in v2.
# lost-patch: the archive lost Ann's patch; Mo's "Committed..." answers
# its Message-ID and quotes it whole: posted (method quoted), no reply.
# files-sibling: v2 adds a patch before v1's only one, touching its file
# under its "fsib:" prefix; v1's patch has its own v2 (2/2): it is no
# earlier version of the new one, so Ivan's question on v1 is not its.
# files-same-version: Ann's earlier, reviewed patch to the same file
# under the same prefix is a v1 like the commit's posting: another
# change, not an earlier version of it.
# files-applied: v1 of "fapp: add notes" is not an earlier version of
# "[PATCH v2] fapp: update notes" (same file, prefix, author): its own v2
# is the other commit; Ivan's question on it is not about the second.
# gap-split: v1's 2/3 never reached the list; Hank acked v1 "For all
# 3"; v2 split that patch in two: both halves sit where v1 lacks its
# part (between the parts matching their neighbours' subjects), so the
# ack covers them.  gap-new: 5/5 is new in v2, after the last part v1
# had: not covered.
# lost-ack: the archive lost Carol's ack; Mo's "Merged." answers its
# Message-ID and quotes it: review given on the list, the evidence Mo's
# mail.  lost-ack-attributed: Mo answers the patch, quoting Dave's
# Tested-by from a mail the archive lost ("On ..., Dave <dave@...>
# wrote:" names another sender than the patch's).  lost-carried: the
# archive lost the patch, which carried Quinn's older ack; the receipt
# quotes the whole patch: the ack is its history, not review.
# stable-backport: Greg's 5.10 backport of the patch carries Ann's in-body
# From: and "commit ... upstream."; Hank's test of it is no review of hers.
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
grep -q " 2 quoted, " "$TMP/out" || bad "match: the summary does not count the quoted match"
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
[ "$(q "SELECT count(*) FROM commit_review")" = 75 ] || bad "not every posted commit has a state"
got=$(q "SELECT method || ' ' || message_id FROM matches WHERE commit_sha = '$(sha_of lost-patch)'")
[ "$got" = "quoted lost-r@example.org" ] || bad "the lost patch is matched as '$got'"

# ---- applied notices: what each reply was taken for, the evidence ----------
while read -r reply kind; do
	got=$(q "SELECT kind FROM message_reply WHERE msgid = '$reply@example.org'")
	[ "$got" = "$kind" ] || bad "<$reply> was taken for '$got', expected '$kind'"
done <<'EOF'
ntc-applied-r notice
ntc-queued-r notice
ntc-fornext-r notice
ntc-merged-r notice
ntc-committed-r notice
ntc-rule-r discussion
ntc-para-r discussion
ntc-au-r notice
cred-r tag
nak-r nak
disc-r discussion
EOF
while read -r c notice; do
	got=$(q "SELECT coalesce((SELECT msgid FROM commit_notice WHERE sha = '$(sha_of "$c")'), '-')")
	[ "$notice" = - ] || notice="$notice@example.org"
	[ "$got" = "$notice" ] || bad "$c: notice '$got', expected '$notice'"
done <<'EOF'
notice-applied ntc-applied-r
notice-queued ntc-queued-r
notice-fornext ntc-fornext-r
notice-merged ntc-merged-r
notice-committed ntc-committed-r
notice-rule ntc-rule-r
notice-para -
notice-by-author ntc-au-r
discussed -
EOF
got=$(q "SELECT msgid FROM commit_notice WHERE sha = '$(sha_of applied-ty)'")
[ "$got" = 161461234567.1234.5678901234567890123.b4-ty@example.org ] ||
	bad "the b4 notice is not applied-ty's evidence: '$got'"

# ---- the tags given on the list, and why some are no review -----------------
while read -r reply why; do
	got=$(q "SELECT coalesce(why_not, '-') FROM review_tags WHERE msgid = '$reply@example.org'")
	[ "$got" = "$why" ] || bad "tag in <$reply>: why_not '$got', expected '$why'"
done <<'EOF'
author-r sender
cred-r author
codev-r co-developer
bot-r bot
bottag-r bot
tagpatch-r -
cover-r -
nak-r -
barenak-r -
drt-r -
EOF
got=$(q "SELECT key || ' ' || coalesce(why_not, '-') FROM review_tags WHERE msgid LIKE 'barenak-%' ORDER BY msgid")
[ "$got" = "NAK -" ] || bad "the bare NAK lines were read as '$got'"
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
for v in ren tko; do
	got=$(q "SELECT count(DISTINCT topic) FROM series WHERE msgid IN ('$v-v1-0@example.org', '$v-v2-0@example.org')")
	[ "$got" = 1 ] || bad "$v v1 and v2 are not one topic"
done
got=$(q "SELECT count(DISTINCT topic) FROM series WHERE msgid IN ('refix@example.org', 'cover-2@example.org')")
[ "$got" = 2 ] || bad "Jack's fix in a reply joined the topic of the series it answers"
# a "Re:" with a diff is a patch, and a reply to what it answers
got=$(q "SELECT group_concat(x, ',') FROM (SELECT r.patch || ' ' || r.by_author || ' ' || i.class AS x FROM replies r JOIN message_info i ON i.msgid = r.reply WHERE r.reply IN ('refix@example.org', 'dr-r@example.org', 'drt-r@example.org') ORDER BY r.reply)")
[ "$got" = "dr@example.org 0 patch,drt@example.org 0 patch,cover-2@example.org 0 patch" ] ||
	bad "replies with a diff answer '$got'"
got=$(q "SELECT group_concat(list) FROM (SELECT list FROM message_lists WHERE msgid = 'cross@example.org' ORDER BY list)")
[ "$got" = "alpha,beta" ] || bad "the cross-posted patch is on '$got'"

# ---- lookup: the state, its evidence, every version ------------------------
lk() { "$ONLIST" --db "$DB" lookup "$(sha_of "$1")" >"$TMP/lookup.$1" 2>&1 || bad "lookup $1 failed"; }
has() { grep -qF -- "$2" "$TMP/lookup.$1" || bad "lookup $1 does not say '$2'"; }
lk tag-cover-2
has tag-cover-2 "  review on the list: reviewed_series"
has tag-cover-2 "    Acked-by: Carol Acker <carol@example.org>"
has tag-cover-2 "      given on the cover letter [PATCH 0/2] cover: two helpers"
has tag-cover-2 "      in <cover-r@example.org>"
lk series-1n-3
has series-1n-3 "      given on [PATCH 1/3] onen: add the first helper"
lk v1-only
has v1-only "  review on the list: reviewed"
has v1-only "  versions of the topic:"
grep -q "^    v1 2021-03-01 to alpha: 1 reply$" "$TMP/lookup.v1-only" || bad "lookup v1-only: v1 line"
grep -q "^    v2 2021-03-01 to alpha: 0 replies, the version applied$" "$TMP/lookup.v1-only" || bad "lookup v1-only: v2 line"
has v1-only "      Reviewed-by: Bob Reviewer <bob@example.org>"
lk cross-list
has cross-list "    v1 2021-03-01 to alpha, beta: 1 reply, the version applied"
lk by-bot
# the bot's PASS is no reply: the posting's counts leave it out
has by-bot "; 0 replies from 0 other people"
# one rule for the state and the counts: the commit's author's notice is
# no reply, nor is anyone's notice; the notice is the evidence
lk notice-by-author
has notice-by-author "  review on the list: no_reply"
has notice-by-author "; 0 replies from 0 other people"
has notice-by-author "    applied notice from Mo Maintainer, 2021-03-01"
has notice-by-author "      in <ntc-au-r@example.org>"
grep -q "^    v1 2021-03-01 to alpha: 0 replies, the version applied$" "$TMP/lookup.notice-by-author" ||
	bad "lookup notice-by-author: the version counts a reply"
lk notice-applied
has notice-applied "; 0 replies from 0 other people"
has notice-applied "    applied notice from Mo Maintainer, 2021-03-01"
lk lost-patch
has lost-patch "  posted; the mail itself is missing from the archive, quoted in <lost-r@example.org>"
lk lost-ack
has lost-ack "  review on the list: reviewed"
has lost-ack "      in <lack-r@example.org>"
lk credited-ack
has credited-ack "  review on the list: no_reply"
has credited-ack "; 0 replies from 0 other people"
lk notice-para
has notice-para "  review on the list: discussed"
has notice-para "; 1 reply from 1 other person"
lk cover-vn-2
has cover-vn-2 "  review on the list: reviewed_series"
has cover-vn-2 "      given on the cover letter [v4] cvn: annotate the helpers"
lk nak
has nak "  review on the list: discussed"
has nak "    1 NAK on the list"
lk off-list
has off-list "    in git, not given on the list:"
has off-list "      Reviewed-by: Frank Offlist <frank@example.org>"
has off-list "      Acked-by: Quinn Quoted <quinn@example.org>"
"$ONLIST" --db "$DB" lookup --format json "$(sha_of notice-queued)" >"$TMP/lookup.njson" || bad "lookup json"
python3 - "$TMP/lookup.njson" <<'PY' || bad "lookup --format json: the notice (above)"
import json, sys
(a,) = json.load(open(sys.argv[1]))
n = a["review"]["notice"]
if a["review"]["state"] != "no_reply" or n != {"from": "Mo Maintainer", "date": n and n.get("date"), "in": "ntc-queued-r@example.org"} or not n["date"].startswith("2021-03-01T"):
    print(a["review"]); sys.exit(1)
PY
"$ONLIST" --db "$DB" lookup --format json "$(sha_of later-version)" "$(sha_of off-list)" >"$TMP/lookup.json" || bad "lookup json"
python3 - "$TMP/lookup.json" <<'PY' || bad "lookup --format json (above)"
import json, sys
a, b = json.load(open(sys.argv[1]))
ok = True
r = a["review"]
if r["state"] != "reviewed" or r["evidence"]["in"] != "later-r@example.org" or r["evidence"]["on"] != "later-v2@example.org":
    print("later-version review", r); ok = False
v = [(x["version"], x["applied"], x["replies"], x["tags"]) for x in a["versions"]]
if v != [(1, True, 0, []), (2, False, 1, ["Acked-by: Carol Acker <carol@example.org>"])]:
    print("later-version versions", v); ok = False
if b["review"]["off_list_tags"] != ["Reviewed-by: Frank Offlist <frank@example.org>", "Acked-by: Quinn Quoted <quinn@example.org>"]:
    print("off-list tags", b["review"]["off_list_tags"]); ok = False
if b["review"]["evidence"] is not None: print("off-list evidence", b["review"]["evidence"]); ok = False
sys.exit(0 if ok else 1)
PY

# ---- report: categories, sections, the series evidence quoted ---------------
run "report json" "$ONLIST" --db "$DB" report --format json base..main
expect_rc "report json" 0
echo "$expect" | awk 'NF { print $1, $2 }' >"$TMP/want.states"
python3 - "$TMP/out" "$W/cases" "$TMP/want.states" <<'PY' || bad "report categories (above)"
import json, sys
r = json.load(open(sys.argv[1]))
case = dict(l.split()[::-1] for l in open(sys.argv[2]))
want = dict(l.split() for l in open(sys.argv[3]))
ok = r["schema"] == "onlist-report/2"
for c in r["commits"]:
    name = case[c["sha"]]
    if c["category"] != want[name]: print(name, c["category"], "expected", want[name]); ok = False
    if c["modified_before_merge"] is not False: print(name, "modified"); ok = False
t = r["totals"]
n = [c for c in r["commits"] if case[c["sha"]] == "notice-merged"][0]["review"]["notice"]
if not n or n["from"] != "Mo Maintainer" or n["msgid"] != "ntc-merged-r@example.org": print("notice", n); ok = False
if (t["no_reply"], t["discussed"], t["reviewed_series"], t["reviewed"]) != (26, 9, 19, 21): print("totals", t); ok = False
sys.exit(0 if ok else 1)
PY
run "report md" "$ONLIST" --db "$DB" report base..main
grep -q "^## Reviewed only on the series (19)$" "$TMP/out" || bad "report md: no series section of 19"
# (Markdown: the characters it acts on are backslashed)
# the evidence in one line, the mail that gave it linked
evidence() {	# LINE-PATTERN MSGID
	ref=$(sed -n "s/^  - review: $1 (\[mail\]\[\([0-9]*\)\])\$/\1/p" "$TMP/out" | head -n 1)
	[ -n "$ref" ] && grep -qF "[$ref]: https://lore.kernel.org/r/$2" "$TMP/out"
}
evidence "Tested-by Dave Tester on 1\/3, for the series" onen-r@example.org ||
	bad "report md: the 1/N evidence is not quoted"
evidence "Acked-by Carol Acker on the cover letter, for the series" cover-r@example.org ||
	bad "report md: the cover letter evidence is not quoted"
grep -qF -- '  - in git, not on the list: Reviewed-by: Frank Offlist \<frank@example.org\> Acked-by: Quinn Quoted \<quinn@example.org\>' "$TMP/out" ||
	bad "report md: off-list tags not shown"
grep -q "^## Posted, no reply (26)$" "$TMP/out" || bad "report md: no-reply section"
# an applied notice is the evidence of a no_reply commit, linked
ref=$(grep -A5 "^- $(sha_of notice-by-author | cut -c1-12) " "$TMP/out" |
      sed -n 's/^  - applied notice from Mo Maintainer, 2021-03-01 (\[mail\]\[\([0-9]*\)\])$/\1/p')
[ -n "$ref" ] && grep -qF "[$ref]: https://lore.kernel.org/r/ntc-au-r@example.org" "$TMP/out" ||
	bad "report md: the applied notice of notice-by-author is not shown"
grep -q "^## Posted, discussed without a review tag (9)$" "$TMP/out" || bad "report md: discussed section"
! grep -q "$(sha_of tag-patch | cut -c1-12)" "$TMP/out" || bad "report md: a reviewed commit is listed"

# ---- export: the state per commit, one row per tag given ---------------------
run "export commits" "$ONLIST" --db "$DB" export --format jsonl commits
python3 - "$TMP/out" "$W/cases" "$TMP/want.states" <<'PY' || bad "export commits (above)"
import json, sys
case = dict(l.split()[::-1] for l in open(sys.argv[2]))
want = dict(l.split() for l in open(sys.argv[3]))
ok = True
for l in open(sys.argv[1]):
    c = json.loads(l)
    if c["sha"] not in case: continue	# the base commit
    if c["review_state"] != want[case[c["sha"]]]: print(case[c["sha"]], c["review_state"]); ok = False
    if (c["off_list_tags"] is not None) != (case[c["sha"]] in ("off-list", "lost-carried")): print(case[c["sha"]], c["off_list_tags"]); ok = False
sys.exit(0 if ok else 1)
PY
run "export reviews" "$ONLIST" --db "$DB" export --format csv reviews
tr -d '\r' <"$TMP/out" >"$TMP/reviews.csv"; mv "$TMP/reviews.csv" "$TMP/out"
[ "$(tail -n +2 "$TMP/out" | wc -l)" = 38 ] || bad "export reviews: $(tail -n +2 "$TMP/out" | wc -l) tags, expected 38"
[ "$(grep -c ',1,$' "$TMP/out")" = 31 ] || bad "export reviews: $(grep -c ',1,$' "$TMP/out") count as review, expected 31"
grep -q '^"cross-r@example.org",0,"Reviewed-by",.*,"beta","cross@example.org","patch",1,-1,-1,' "$TMP/out" ||
	bad "export reviews: the cross-posted review is not on beta"
grep -q '^"rv-r@example.org",.*,"rv-v2-1@example.org","patch",2,1,2,"rv-v2-0@example.org",' "$TMP/out" ||
	bad "export reviews: the v2 review does not name v2 patch 1/2"

# ---- stats: single-signoff commits per state ----------------------------------
run "stats json" "$ONLIST" --db "$DB" stats --format json base..main
python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["single_signoff_no_tags"]
want = {"never_posted": 0, "no_reply": 24, "discussed": 8, "reviewed_series": 19, "reviewed": 20}
if g["count"] != 71 or g["review_states"] != want: print(g["count"], g["review_states"]); sys.exit(1)
' "$TMP/out" || bad "stats: review states of the single-signoff commits"

# ---- no repository known: no .mailmap, Bob's work address is off the list --
cp "$DB" "$TMP/nomap.db"
sqlite3 "$TMP/nomap.db" "DELETE FROM meta WHERE key = 'repo'"
run "match without repo" "$ONLIST" --db "$TMP/nomap.db" match --rules "$W/rules"
got=$(sqlite3 "$TMP/nomap.db" "SELECT coalesce(off_list_tags, '-') FROM commit_review WHERE sha = '$(sha_of tag-patch)'")
[ "$got" = "Reviewed-by: Bob Reviewer <bob@work.example.com>" ] ||
	bad "without .mailmap, tag-patch's off-list tags are '$got'"

# ---- threads built by the rules before a "Re:" with a diff was a reply ----
# (stamp t2:): written again whole, so the rows those rules left out come in
cp "$DB" "$TMP/t2.db"
sqlite3 "$TMP/t2.db" "UPDATE meta SET value = 't2:' || substr(value, 4) WHERE key IN ('threads_stamp', 'threads_base'); DELETE FROM replies WHERE reply IN ('refix@example.org', 'dr-r@example.org', 'drt-r@example.org')"
run "match after t2" "$ONLIST" --db "$TMP/t2.db" match --rules "$W/rules"
expect_rc "match after t2" 0
for t in replies commit_review; do
	[ "$(sqlite3 "$TMP/t2.db" "SELECT count(*) FROM (SELECT * FROM $t EXCEPT SELECT * FROM main_db.$t)" -cmd "ATTACH '$DB' AS main_db")" = 0 ] &&
	[ "$(sqlite3 "$TMP/t2.db" "SELECT count(*) FROM (SELECT * FROM main_db.$t EXCEPT SELECT * FROM $t)" -cmd "ATTACH '$DB' AS main_db")" = 0 ] ||
		bad "threads of the older rules: $t differs from a fresh build's"
done

# ---- an older database (schema 6) upgrades, and match fills the tables -----
cp "$DB" "$TMP/old.db"
sqlite3 "$TMP/old.db" "DROP TABLE review_tags; DROP TABLE commit_review; PRAGMA user_version = 6;"
run "upgrade" "$ONLIST" --db "$TMP/old.db" status
expect_rc upgrade 0
[ "$(sqlite3 "$TMP/old.db" "PRAGMA user_version")" -ge 7 ] || bad "not upgraded to schema 7 or later"
[ "$(sqlite3 "$TMP/old.db" "SELECT count(*) FROM commit_review")" = 0 ] || bad "upgrade: commit_review not empty"
run "match after upgrade" "$ONLIST" --db "$TMP/old.db" match --rules "$W/rules"
[ "$(sqlite3 "$TMP/old.db" "SELECT group_concat(sha || state) FROM (SELECT * FROM commit_review ORDER BY sha)")" = \
  "$(q "SELECT group_concat(sha || state) FROM (SELECT * FROM commit_review ORDER BY sha)")" ] ||
	bad "states after an upgrade differ from a fresh database's"

# ---- schema 9 to 11: in-body authors and what replies say come with the
# mail imported again ----
[ "$(q "SELECT count(*) FROM message_author WHERE msgid IN ('inbody-v2@example.org', 'stab-510@example.org')")" = 2 ] ||
	bad "the in-body authors were not kept"
cp "$DB" "$TMP/v9.db"
sqlite3 "$TMP/v9.db" "DROP TABLE message_author; DROP TABLE message_reply; DROP TABLE commit_notice; DROP TABLE posting_replies; DROP TABLE series_replies; PRAGMA user_version = 9;"
run "upgrade from 9" "$ONLIST" --db "$TMP/v9.db" match --rules "$W/rules"
expect_rc "upgrade from 9" 0
[ "$(sqlite3 "$TMP/v9.db" "PRAGMA user_version")" -ge 11 ] || bad "not upgraded to schema 11 or later"
[ "$(sqlite3 "$TMP/v9.db" "SELECT count(*) FROM message_author")" = 0 ] ||
	bad "upgrade from 9: in-body authors found without reading the mail"
# (inbody-author is reviewed all the same: Ann sent v1 under the commit's
# subject, a version found without the in-body From of v2)
got=$(sqlite3 "$TMP/v9.db" "SELECT state FROM commit_review WHERE sha = '$(sha_of inbody-author)'")
[ "$got" = reviewed ] || bad "upgrade from 9: inbody-author is '$got' before the mail is read again"
# what replies say is known only from the mail: discussion until then
[ "$(sqlite3 "$TMP/v9.db" "SELECT count(*) FROM message_reply")" = 0 ] ||
	bad "upgrade from 9: reply kinds found without reading the mail"
got=$(sqlite3 "$TMP/v9.db" "SELECT state FROM commit_review WHERE sha = '$(sha_of notice-applied)'")
[ "$got" = discussed ] || bad "upgrade from 9: notice-applied is '$got' before the mail is read again"
"$ONLIST" -q --db "$TMP/v9.db" import --list alpha "$W/alpha.mbox" >/dev/null || bad "import again"
"$ONLIST" -q --db "$TMP/v9.db" import --list beta "$W/beta.mbox" >/dev/null || bad "import beta again"
run "match after import again" "$ONLIST" --db "$TMP/v9.db" match --rules "$W/rules"
[ "$(sqlite3 "$TMP/v9.db" "SELECT group_concat(sha || state) FROM (SELECT * FROM commit_review ORDER BY sha)")" = \
  "$(q "SELECT group_concat(sha || state) FROM (SELECT * FROM commit_review ORDER BY sha)")" ] ||
	bad "states after importing again differ from a fresh database's"
for t in commit_notice posting_replies series_replies message_reply; do
	[ "$(sqlite3 "$TMP/v9.db" "SELECT count(*) FROM (SELECT * FROM $t EXCEPT SELECT * FROM main_db.$t)" -cmd "ATTACH '$DB' AS main_db")" = 0 ] &&
	[ "$(sqlite3 "$TMP/v9.db" "SELECT count(*) FROM (SELECT * FROM main_db.$t EXCEPT SELECT * FROM $t)" -cmd "ATTACH '$DB' AS main_db")" = 0 ] ||
		bad "after importing again, $t differs from a fresh database's"
done

[ "$(q 'pragma integrity_check')" = ok ] || bad "integrity_check"
[ $nfail -eq 0 ] && echo "all checks passed"
