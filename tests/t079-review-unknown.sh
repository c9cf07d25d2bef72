#!/bin/sh
# The review state `unknown` (review.h): git carries a review tag the list
# does not show, and the archive of the lists the patch went to ends
# before the commit landed (its commit date), or less than a day after:
# the tag may have been given on the list after the archive's end.
# tests/t079-review-unknown.py builds the repository and the lists; what
# each case must come out as is written here, by hand:
#
#   late-ack   alpha ends 2021-03-02, landed 03-10, Acked-by in git    unknown
#   late-disc  the same, Ivan asked a question, Reviewed-by in git     unknown
#   hours      gamma ends 6 hours after the landing                    unknown
#   off-list   beta goes on to June: the ack was given off the list    no_reply
#   cross      sent to alpha and beta: beta goes on                    no_reply
#   on-list    Carol acked it on alpha                                 reviewed
#   own-ack    the Acked-by in git is the author's own                 no_reply
#   bot-test   the Tested-by in git is syzbot's                        no_reply
#
# Then alpha's archive grows to June (one unrelated mail): late-ack and
# late-disc are decided (no_reply, discussed), as a fresh database says.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

W=$TMP/w
DB=$TMP/onlist.db
python3 tests/t079-review-unknown.py "$W" || fail "the test mails could not be built"
for l in alpha beta gamma; do
	"$ONLIST" -q --db "$DB" import --list $l "$W/$l.mbox" >/dev/null || fail "import $l"
done
"$ONLIST" -q --db "$DB" scan --repo "$W/repo" base..main >/dev/null || fail "scan"
run match "$ONLIST" --db "$DB" match
expect_rc match 0

q() { sqlite3 "$DB" "$1"; }
sha_of() { awk -v c="$1" '$1 == c { print $2 }' "$W/cases"; }
check_states() {	# check_states LABEL "CASE STATE ..."
	echo "$2" | while read -r c state; do
		[ -n "$c" ] || continue
		got=$(q "SELECT state FROM commit_review WHERE sha = '$(sha_of "$c")'")
		[ "$got" = "$state" ] || echo "FAIL: $1: $c is '$got', expected '$state'"
	done >"$TMP/states"
	cat "$TMP/states"
	[ ! -s "$TMP/states" ] || bad "$1: states (above)"
}
check_states "first match" '
late-ack  unknown
late-disc unknown
hours     unknown
off-list  no_reply
cross     no_reply
on-list   reviewed
own-ack   no_reply
bot-test  no_reply'

why_ack='the archive ends 2021-03-02, before the commit landed 2021-03-10; git carries Acked-by: Carol Acker <carol@example.org>'
why_disc='the archive ends 2021-03-02, before the commit landed 2021-03-10; git carries Reviewed-by: Dave Tester <dave@example.org>'
why_hours='the archive ends 2021-03-10, less than a day after the commit landed 2021-03-10; git carries Acked-by: Carol Acker <carol@example.org>'
[ "$(q "SELECT why FROM commit_review WHERE sha = '$(sha_of late-ack)'")" = "$why_ack" ] ||
	bad "late-ack: why is '$(q "SELECT why FROM commit_review WHERE sha = '$(sha_of late-ack)'")'"
[ "$(q "SELECT why FROM commit_review WHERE sha = '$(sha_of late-disc)'")" = "$why_disc" ] ||
	bad "late-disc: the wrong why"
[ "$(q "SELECT why FROM commit_review WHERE sha = '$(sha_of hours)'")" = "$why_hours" ] ||
	bad "hours: the wrong why"
[ "$(q "SELECT count(*) FROM commit_review WHERE why IS NOT NULL AND state <> 'unknown'")" = 0 ] ||
	bad "a decided state has a why"
# off-list: the finding stays (the tag in git, not on the list)
[ "$(q "SELECT off_list_tags FROM commit_review WHERE sha = '$(sha_of off-list)'")" = \
  "Acked-by: Carol Acker <carol@example.org>" ] || bad "off-list: the off-list tag is not named"

# ---- lookup: the state and why -----------------------------------------------
run lookup "$ONLIST" --db "$DB" lookup "$(sha_of late-ack)"
expect_rc lookup 0
grep -qx "  review on the list: unknown" "$TMP/out" || bad "lookup: no unknown state"
grep -qxF "    $why_ack" "$TMP/out" || bad "lookup: why not said"
run "lookup json" "$ONLIST" --db "$DB" lookup --format json "$(sha_of late-ack)" "$(sha_of off-list)"
expect_rc "lookup json" 0
python3 - "$TMP/out" "$why_ack" <<'PY' || bad "lookup --format json (above)"
import json, sys
a = json.load(open(sys.argv[1]))
r = [x["review"] for x in a]
ok = r[0]["state"] == "unknown" and r[0]["why"] == sys.argv[2] and \
     r[1]["state"] == "no_reply" and r[1]["why"] is None
print("" if ok else "FAIL: %r" % r)
sys.exit(0 if ok else 1)
PY

# ---- report: unknown is no "no review" ---------------------------------------
run "report json" "$ONLIST" --db "$DB" report --format json base..main
expect_rc "report json" 0
python3 - "$TMP/out" "$W/cases" "$why_ack" <<'PY' || bad "report json (above)"
import json, sys
r = json.load(open(sys.argv[1]))
sha = dict(l.split() for l in open(sys.argv[2]))
t = r["totals"]
want = {"no_reply": 4, "discussed": 0, "reviewed": 1, "unknown": 3, "review_unknown": 3}
ok = all(t.get(k) == v for k, v in want.items())
c = {x["sha"]: x for x in r["commits"]}
x = c[sha["late-ack"]]
ok = ok and x["category"] == "unknown" and x["review"]["state"] == "unknown" \
     and x["review"]["why"] == sys.argv[3]
ok = ok and c[sha["off-list"]]["category"] == "no_reply"
print("" if ok else "FAIL: totals %r, late-ack %r" % (t, x))
sys.exit(0 if ok else 1)
PY
for fmt in md text html; do
	run "report $fmt" "$ONLIST" --db "$DB" report --format $fmt base..main
	expect_rc "report $fmt" 0
	cp "$TMP/out" "$TMP/report.$fmt"
done
grep -q "^## Posted, no reply (4)$" "$TMP/report.md" || bad "report md: no-reply section"
grep -q "^## Posted, review unknown (3)$" "$TMP/report.md" || bad "report md: no review-unknown section"
grep -qF "review unknown: the archive ends 2021-03-02, before the commit landed 2021-03-10; git carries Acked-by: Carol Acker \<carol@example.org\>" \
	"$TMP/report.md" || bad "report md: why not said (or not escaped)"
grep -q "3 posted commits have their review unknown" "$TMP/report.md" ||
	bad "report md: the summary does not count them"
grep -q "Posted, review unknown (3)" "$TMP/report.text" || bad "report text: no review-unknown section"
grep -q "review unknown: the archive ends 2021-03-02" "$TMP/report.html" ||
	bad "report html: why not said"
grep -q "git carries Acked-by: Carol Acker &lt;carol@example.org&gt;" "$TMP/report.html" ||
	bad "report html: the tag is not escaped"

# ---- export: the state, and why in `reason` ----------------------------------
run export "$ONLIST" --db "$DB" export --format jsonl commits
expect_rc export 0
python3 - "$TMP/out" "$W/cases" "$why_ack" <<'PY' || bad "export commits (above)"
import json, sys
rows = {json.loads(l)["sha"]: json.loads(l) for l in open(sys.argv[1])}
sha = dict(l.split() for l in open(sys.argv[2]))
x, y = rows[sha["late-ack"]], rows[sha["off-list"]]
ok = x["review_state"] == "unknown" and x["reason"] == sys.argv[3] and \
     y["review_state"] == "no_reply" and y["reason"] is None
print("" if ok else "FAIL: %r / %r" % (x, y))
sys.exit(0 if ok else 1)
PY

# ---- alpha's archive goes on: decided, as a fresh database says --------------
"$ONLIST" -q --db "$DB" import --list alpha "$W/late.mbox" >/dev/null || fail "import late"
run "match again" "$ONLIST" --db "$DB" match
expect_rc "match again" 0
check_states "after alpha went on" '
late-ack  no_reply
late-disc discussed
hours     unknown
off-list  no_reply
on-list   reviewed'
F=$TMP/fresh.db
for l in alpha beta gamma; do
	"$ONLIST" -q --db "$F" import --list $l "$W/$l.mbox" >/dev/null || fail "fresh import $l"
done
"$ONLIST" -q --db "$F" import --list alpha "$W/late.mbox" >/dev/null || fail "fresh import late"
"$ONLIST" -q --db "$F" scan --repo "$W/repo" base..main >/dev/null || fail "fresh scan"
"$ONLIST" -q --db "$F" match >/dev/null || fail "fresh match"
sql="SELECT sha, state, coalesce(why, ''), coalesce(off_list_tags, '') FROM commit_review ORDER BY sha"
[ "$(sqlite3 "$DB" "$sql")" = "$(sqlite3 "$F" "$sql")" ] ||
	bad "after alpha went on, commit_review differs from a fresh database's"

[ $nfail -eq 0 ] && echo "all checks passed"
