#!/bin/sh
# onlist report on the fixture: the never-posted section of a RANGE report
# is exactly the fixture's expected-unposted.txt; a --week report holds
# exactly the commits whose landing git places in that week (each
# first-parent commit of the week, or what `git rev-list M^1..M` says a
# merge brought in); Markdown and HTML say the same numbers; and on a
# repository of hostile names every string is escaped in HTML and
# Markdown (<script>, quotes, ampersands, bidi controls).
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
fixture_db "$FX" "$DB"

# ---- a range: never posted == the fixture's unposted commits --------------
run "report range json" "$ONLIST" --db "$DB" report --format json v1.0..v1.1
expect_rc "report range json" 0
cp "$TMP/out" "$TMP/range.json"
# the tiers that find postings modified before merge
nfuzzy=$(sqlite3 "$DB" "SELECT count(*) FROM matches WHERE method IN ('author-date', 'subject', 'fuzzy')")
python3 - "$TMP/range.json" "$FX/expected-unposted.txt" "$FX/expected-counts" "$nfuzzy" <<'PY' || bad "range report (above)"
import json, sys
r = json.load(open(sys.argv[1]))
want = sorted(l.split()[0] for l in open(sys.argv[2]) if l.strip())
counts = dict(l.strip().split('=') for l in open(sys.argv[3]))
ok = True
never = sorted(c["sha"] for c in r["commits"] if c["category"] == "never_posted")
if r["schema"] != "onlist-report/2":
    print("schema is", r["schema"]); ok = False
if never != want:
    print("never posted: %d, expected %d" % (len(never), len(want))); ok = False
if r["totals"]["never_posted"] != len(want):
    print("totals.never_posted", r["totals"]["never_posted"]); ok = False
if r["totals"]["commits"] != int(counts["range_commits"]) or len(r["commits"]) != int(counts["range_commits"]):
    print("commits", r["totals"]["commits"], len(r["commits"])); ok = False
nfuzzy = int(sys.argv[4])
if (r["totals"]["modified_before_merge"] is None) != (nfuzzy == 0):
    print("%d fuzzy matches, modified_before_merge is %r" % (nfuzzy, r["totals"]["modified_before_merge"])); ok = False
for c in r["commits"]:
    if c["category"] == "never_posted" and c["posting"] is not None: ok = False; print("never posted with a posting", c["sha"])
    if c["category"] != "never_posted" and not c["posting"]["url"].startswith("https://lore.kernel.org/r/"): ok = False; print("posting url", c["posting"])
    # (`replies` counts a reply from the commit's author when someone else
    # posted the patch; no_reply does not: the author is no reviewer)
    if c["category"] == "no_reply" and c["review"]["evidence"]: ok = False; print("no_reply with evidence", c["sha"])
    if (c["category"] == "never_posted") != (c["review"] is None): ok = False; print("review object", c["sha"])
    if c["category"] in ("reviewed", "reviewed_series") and not c["review"]["evidence"]: ok = False; print("no evidence", c["sha"])
    if not c["url"].endswith(c["sha"]): ok = False; print("commit url", c["url"])
    # every posting is linked, the earliest first
    pv = c["posting_versions"]
    if c["posting"] and (not pv or pv[0]["msgid"] != c["posting"]["msgid"]): ok = False; print("posting_versions", c["sha"], pv[:1], c["posting"])
    if not c["posting"] and pv: ok = False; print("posting_versions without a posting", c["sha"])
    if any(not p["url"].startswith("https://lore.kernel.org/r/") or p["version"] < 1 for p in pv): ok = False; print("posting_versions", pv)
s = sum(x["commits"] for x in r["by_committer"])
if s != r["totals"]["commits"]: print("by_committer sums to", s); ok = False
s = sum(x["never_posted"] for x in r["by_subsystem"])
if s != r["totals"]["never_posted"]: print("by_subsystem never_posted sums to", s); ok = False
for k in ("no_reply", "discussed", "reviewed_series"):
    s = sum(x[k] for x in r["by_committer"])
    if s != r["totals"][k]: print("by_committer", k, "sums to", s); ok = False
    if r["totals"][k] != sum(c["category"] == k for c in r["commits"]): print("totals", k); ok = False
if nfuzzy == 0 and any(x["modified_before_merge"] is not None for x in r["by_committer"]): print("modified_before_merge should be null per committer"); ok = False
sys.exit(0 if ok else 1)
PY

# ---- a week: what git says landed in it -------------------------------------
last=$(git -C "$FX/repo" log -1 --format=%ct v1.1)
week=$(date -u -d "@$last" +%G-W%V)
since=$(python3 -c "import datetime,sys; y,w=sys.argv[1].split('-W'); print(int(datetime.datetime.fromisocalendar(int(y),int(w),1).replace(tzinfo=datetime.timezone.utc).timestamp()))" "$week")
until=$((since + 604800))
git -C "$FX/repo" log --first-parent --format='%H %ct %P' v1.0..v1.1 |
while read -r m ct p1 rest; do
	[ "$ct" -ge "$since" ] && [ "$ct" -lt "$until" ] || continue
	if [ -n "$rest" ]; then
		git -C "$FX/repo" rev-list --no-merges "$p1..$m"
	else
		echo "$m"
	fi
done | sort >"$TMP/week.want"
[ -s "$TMP/week.want" ] || bad "git finds nothing landing in $week (test bug)"
run "report week json" "$ONLIST" --db "$DB" report --week "$week" --format json
expect_rc "report week json" 0
python3 -c "import json,sys; [print(c['sha']) for c in json.load(open(sys.argv[1]))['commits']]" "$TMP/out" |
	sort >"$TMP/week.got"
same_output "week $week" "$TMP/week.want" "$TMP/week.got" || bad "report --week $week: not the commits git lands in that week"
cp "$TMP/out" "$TMP/week.json"
nweek=$(wc -l <"$TMP/week.want")
nnever=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['totals']['never_posted'])" "$TMP/week.json")

# the same window as dates
d0=$(date -u -d "@$since" +%Y-%m-%d); d1=$(date -u -d "@$until" +%Y-%m-%d)
run "report dates" "$ONLIST" --db "$DB" report --since "$d0" --until "$d1" --format json
python3 -c "import json,sys; [print(c['sha']) for c in json.load(open(sys.argv[1]))['commits']]" "$TMP/out" |
	sort >"$TMP/dates.got"
same_output "--since $d0 --until $d1" "$TMP/week.want" "$TMP/dates.got" || bad "report --since/--until differs from --week"
run "report week md" "$ONLIST" --db "$DB" report --week "$week"
expect_rc "report week md" 0
grep -q "^$nweek commits: $nnever never posted" "$TMP/out" || bad "md: totals line is not '$nweek commits: $nnever never posted'"
grep -q "^## Never posted ($nnever)$" "$TMP/out" || bad "md: no 'Never posted ($nnever)' section"
for sec in "Posted, no reply" "Posted, discussed without a review tag" "Reviewed only on the series"; do
	grep -q "^## $sec (" "$TMP/out" || bad "md: no '$sec' section"
done
! grep -q "^## Reviewed on the list" "$TMP/out" || bad "md: reviewed commits are listed"
if [ "$nfuzzy" -gt 0 ]; then
	grep -q "posted only modified before merge\.$" "$TMP/out" || bad "md: the totals do not count modified commits"
else
	! grep -q "modified before merge" "$TMP/out" || bad "md: modified commits without fuzzy matching"
fi
grep -q "^## Per subsystem" "$TMP/out" || bad "md: no subsystem table"
[ "$(grep -c '^- \[' "$TMP/out")" -le "$nweek" ] || bad "md: more commit entries than commits"
# every link definition at the end (issue 28: one mid-document shows as a
# line of text in a mail reader), and at least one to look at
python3 - "$TMP/out" <<'PY' || bad "md: a link definition is not at the end (above)"
import re, sys
lines = [l for l in open(sys.argv[1], encoding="utf-8").read().split("\n") if l.strip()]
defs = [i for i, l in enumerate(lines) if re.match(r"^\[\d+\]: ", l)]
assert defs, "no link definitions"
assert defs == list(range(len(lines) - len(defs), len(lines))), \
    "definitions at lines %s of %d" % (defs[:5], len(lines))
PY
# a week nothing landed in: one line, not every section "None"
for f in md text html; do
	run "report empty week $f" "$ONLIST" --db "$DB" report --week 2000-W01 --format $f
	expect_rc "report empty week $f" 0
	grep -q "No commits landed in this period" "$TMP/out" || bad "empty week $f: no single line"
	grep -q "None" "$TMP/out" && bad "empty week $f: sections of None"
	grep -q "Per committer" "$TMP/out" && bad "empty week $f: empty tables"
done
# plain text for a mail body: 72 columns, no Markdown escapes, links as
# numbered references at the end, and the same commits as Markdown
run "report week text" "$ONLIST" --db "$DB" report --week "$week" --format text
expect_rc "report week text" 0
cp "$TMP/out" "$TMP/week.txt"
run "report week md again" "$ONLIST" --db "$DB" report --week "$week" --format md
python3 - "$TMP/week.txt" "$TMP/out" "$TMP/week.json" <<'PY' || bad "text report (above)"
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
md = open(sys.argv[2], encoding="utf-8").read()
r = json.load(open(sys.argv[3]))
ok = True
lines = text.split("\n")
body, _, links = text.partition("\nLinks\n-----\n")
refs = {}
for l in links.strip().split("\n"):
    m = re.match(r"^\[(\d+)\] (https?://\S+)$", l)
    if not m: print("not a reference line:", repr(l)); ok = False; continue
    refs[int(m.group(1))] = m.group(2)
if sorted(refs) != list(range(1, len(refs) + 1)) or not refs:
    print("references are not numbered 1..n:", sorted(refs)[:5]); ok = False
for l in lines:
    # a reference whose URL alone is longer than a line stays whole
    if len(l) > 72 and not re.match(r"^\[\d+\] \S+$", l):
        print("longer than 72:", repr(l)); ok = False
    if re.search(r"\\[\\`*_\[\]<>|#]", l): print("Markdown escape:", repr(l)); ok = False
    if l.endswith(" "): print("trailing space:", repr(l)); ok = False
used = set(int(n) for n in re.findall(r"\[(\d+)\]", body))
if used != set(refs): print("references used and listed differ:", sorted(used ^ set(refs))[:5]); ok = False
# each commit line's reference is the commit's link
for m in re.finditer(r"^- ([0-9a-f]{12}) \[(\d+)\]", body, re.M):
    if m.group(1) not in refs.get(int(m.group(2)), ""): print("ref", m.group(2), "is not", m.group(1)); ok = False
t_shas = re.findall(r"^- ([0-9a-f]{12}) ", body, re.M)
m_shas = re.findall(r"^- \[([0-9a-f]{12})\]", md, re.M)
if t_shas != m_shas: print("text lists", len(t_shas), "commits, md", len(m_shas)); ok = False
t = r["totals"]
for title, k in (("Never posted", "never_posted"), ("Posted, no reply", "no_reply"),
                 ("Posted, discussed without a review tag", "discussed"),
                 ("Reviewed only on the series", "reviewed_series")):
    if not re.search(r"^%s \(%d\)\n-+\n" % (re.escape(title), t[k]), text, re.M):
        print("no section '%s (%d)'" % (title, t[k])); ok = False
sys.exit(0 if ok else 1)
PY
# the default window is the week of the latest landing
run "report default" "$ONLIST" --db "$DB" report
grep -q "^# Commits that bypassed the lists: $week$" "$TMP/out" || bad "default report is not $week"

run "report html" "$ONLIST" --db "$DB" report --week "$week" --format html -o "$TMP/week.html"
expect_rc "report html" 0
grep -q "<b>$nweek</b> commits: <b>$nnever</b> never posted" "$TMP/week.html" || bad "html: totals"
grep -q "<svg" "$TMP/week.html" || bad "html: no chart"
[ "$(grep -c '<g class="wk"' "$TMP/week.html")" -eq 26 ] || bad "html: the chart does not have 26 weeks"
# the chart's bars say what the JSON's weeks say, and a week without
# commits is marked as such, not drawn as 0%
python3 - "$TMP/week.html" "$TMP/week.json" "$week" <<'PY' || bad "html: the chart's numbers (above)"
import json, re, sys
html = open(sys.argv[1], encoding="utf-8").read()
weeks = json.load(open(sys.argv[2]))["weeks"]
bars = re.findall(r'<g class="wk" data-week="([^"]+)" data-commits="(\d+)" data-never="(\d+)">(.*?)</g>', html)
ok = len(bars) == len(weeks) == 26 and weeks[-1]["week"] == sys.argv[3]
for (wk, n, nv, inner), w in zip(bars, weeks):
    if (wk, int(n), int(nv)) != (w["week"], w["commits"], w["never_posted"]):
        print("bar", wk, n, nv, "json", w); ok = False
    if w["commits"] == 0 and "no commits" not in inner: print("empty week", wk, "not marked"); ok = False
    if w["commits"] and not re.search(r'class="tot"[^>]*>%d<' % w["commits"], inner): print("no count above", wk); ok = False
    if w["commits"] and not re.search(r'class="np"[^>]*>%d<' % w["never_posted"], inner): print("no never-posted count in", wk); ok = False
    if sum(w[k] for k in ("never_posted", "unknown", "no_reply", "discussed", "reviewed_series", "reviewed")) != w["commits"]:
        print("categories do not add up", w); ok = False
for k in ("never_posted", "unknown", "no_reply", "discussed", "reviewed_series", "reviewed"):
    if 'class="c-%s" width' % k not in html: print("no legend entry", k); ok = False
sys.exit(0 if ok else 1)
PY
! grep -qi "<script\|javascript:\|<link\|src=" "$TMP/week.html" || bad "html: not self-contained or has script"

# commits that landed after the archive ends are "not looked for" in the
# chart as in the totals, not never posted (the chart once counted them)
cp "$DB" "$TMP/cut.db"
sqlite3 "$TMP/cut.db" "DELETE FROM messages WHERE date >= $since"
run "report cut archive" "$ONLIST" --db "$TMP/cut.db" report --week "$week" --format json
expect_rc "report cut archive" 0
python3 - "$TMP/out" <<'PY' || bad "chart and totals disagree on an archive that ends early (above)"
import json, sys
r = json.load(open(sys.argv[1])); t = r["totals"]; w = r["weeks"][-1]
ok = t["unknown"] > 0 and w["week"] == r["title"]
for k in ("commits", "never_posted", "unknown", "no_reply", "discussed", "reviewed_series", "reviewed"):
    if w[k] != t[k]: print("week", k, w[k], "totals", t[k]); ok = False
if t["unknown"] == 0: print("test bug: no commit outside the archive")
sys.exit(0 if ok else 1)
PY
run "report depth 2" "$ONLIST" --db "$DB" report --week "$week" --format json --subsystem-depth 2
python3 - "$TMP/out" "$TMP/week.json" <<'PY' || bad "--subsystem-depth (above)"
import json, sys
d2 = json.load(open(sys.argv[1])); d1 = json.load(open(sys.argv[2]))
if d1["subsystems_from"] != "paths": sys.exit(0)	# the fixture has MAINTAINERS
ok = all("/" not in c["subsystem"] for c in d1["commits"])
for a, b in zip(d1["commits"], d2["commits"]):
    if not (b["subsystem"] == a["subsystem"] or b["subsystem"].startswith(a["subsystem"] + "/")): ok = False; print(a["subsystem"], b["subsystem"])
share = [x["never_posted"] / x["commits"] for x in d1["by_subsystem"]]
if share != sorted(share, reverse=True): print("by_subsystem is not by share", share); ok = False
sys.exit(0 if ok else 1)
PY
run "report bad depth" "$ONLIST" --db "$DB" report --subsystem-depth 0
expect_rc "report bad depth" 2
run "report bad weeks" "$ONLIST" --db "$DB" report --weeks x
expect_rc "report bad weeks" 2

# a fuzzy match (the tier that fills them is other work): the commit moves
# from never posted to modified before merge
fz=$(head -n 1 "$FX/expected-unposted.txt" | cut -d' ' -f1)
nfuzzy_commits=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['totals']['modified_before_merge'] or 0)" "$TMP/range.json")
msg=$(sqlite3 "$DB" "SELECT msgid FROM messages WHERE has_patch LIMIT 1")
sqlite3 "$DB" "INSERT INTO matches(commit_sha, message_id, method, score) VALUES('$fz', '$msg', 'fuzzy', 0.9)"
run "report fuzzy" "$ONLIST" --db "$DB" report --format json v1.0..v1.1
python3 - "$TMP/out" "$fz" "$TMP/range.json" <<'PY' || bad "fuzzy match not reported as modified before merge (above)"
import json, sys
r = json.load(open(sys.argv[1])); before = json.load(open(sys.argv[3]))
c = [c for c in r["commits"] if c["sha"] == sys.argv[2]][0]
was = before["totals"]["modified_before_merge"] or 0
ok = c["modified_before_merge"] is True and c["category"] != "never_posted" and r["totals"]["modified_before_merge"] == was + 1
ok = ok and r["totals"]["never_posted"] == before["totals"]["never_posted"] - 1
ok = ok and sum(x["modified_before_merge"] for x in r["by_committer"]) == was + 1
if not ok: print(c["category"], r["totals"])
sys.exit(0 if ok else 1)
PY
run "report fuzzy md" "$ONLIST" --db "$DB" report v1.0..v1.1
grep -q "; $((nfuzzy_commits + 1)) posted only modified before merge\.$" "$TMP/out" || bad "md: the totals do not count the new fuzzy commit"
grep -A6 "^- \[$(echo "$fz" | cut -c1-12)\]" "$TMP/out" | grep -q "^  - modified before merge" || bad "md: the fuzzy commit is not listed as modified"

# review tags in replies: n/a until the thread tables exist (another
# module's; their shape here is the one it creates), then counted
if [ "$(sqlite3 "$DB" "SELECT count(*) FROM sqlite_master WHERE name IN ('replies', 'message_trailers')")" = 0 ]; then
	python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['totals']; sys.exit(0 if t['review_tags_in_replies'] is None else 1)" "$TMP/range.json" ||
		bad "review_tags_in_replies should be null without thread tables"
	"$ONLIST" --db "$DB" stats --format json v1.0..v1.1 >"$TMP/stats0.json"
	grep -q '"review_tags_on_list": null' "$TMP/stats0.json" || bad "stats: review_tags_on_list should be null without thread tables"
fi
# a review tag in a reply to a posting that had none: match (again, whole:
# the hand-made fuzzy match above goes, which a match after new mail
# alone would keep) turns no_reply into reviewed
sqlite3 "$DB" "DELETE FROM meta WHERE key IN ('exact_stamp', 'fuzzy_stamp')"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match again"
run "report threads" "$ONLIST" --db "$DB" report --format json v1.0..v1.1
cp "$TMP/out" "$TMP/threads0.json"
set -- $(python3 -c "
import json,sys
r = json.load(open(sys.argv[1]))
c = [c for c in r['commits'] if c['category'] == 'no_reply'][0]
print(c['sha'], c['posting']['msgid'], c['author_email'])" "$TMP/threads0.json")
rv_sha=$1 rv_post=$2 rv_author=$3
rv_reply=$(sqlite3 "$DB" "SELECT msgid FROM messages WHERE lower(from_addr) <> lower('$rv_author') AND NOT has_patch LIMIT 1")
sqlite3 "$DB" "INSERT OR IGNORE INTO replies VALUES('$rv_post', '$rv_reply', 0);
UPDATE thread SET answers = '$rv_post' WHERE msgid = '$rv_reply';
UPDATE message_info SET class = 'reply' WHERE msgid = '$rv_reply';
INSERT OR IGNORE INTO message_trailers VALUES('$rv_reply', 999, 'Reviewed-by', 'R. Viewer', 'rv@example.org', 'R. Viewer <rv@example.org>');"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match with the review"
run "report review tags" "$ONLIST" --db "$DB" report --format json v1.0..v1.1
python3 - "$TMP/out" "$rv_sha" "$TMP/threads0.json" "$rv_reply" <<'PY' || bad "a review tag in a reply did not count (above)"
import json, sys
r = json.load(open(sys.argv[1])); before = json.load(open(sys.argv[3]))
c = [c for c in r["commits"] if c["sha"] == sys.argv[2]][0]
ok = c["category"] == "reviewed" and c["review_tags"] == 1 and c["replies"] >= 1
ok = ok and c["review"]["evidence"]["msgid"] == sys.argv[4]
ok = ok and isinstance(r["totals"]["review_tags_in_replies"], int) and r["totals"]["review_tags_in_replies"] >= 1
ok = ok and r["totals"]["no_reply"] == before["totals"]["no_reply"] - 1
ok = ok and r["totals"]["reviewed"] == before["totals"]["reviewed"] + 1
if not ok: print(c["category"], c["review_tags"], c["replies"], c["review"], r["totals"], before["totals"])
sys.exit(0 if ok else 1)
PY
"$ONLIST" --db "$DB" stats --format json v1.0..v1.1 >"$TMP/stats1.json"
grep -q '"review_tags_on_list": [0-9]' "$TMP/stats1.json" || bad "stats: review_tags_on_list should be a number with thread tables"
run "export reviews threads" "$ONLIST" --db "$DB" export --format jsonl reviews
grep -q "\"reply\": \"$rv_reply\"" "$TMP/out" || bad "export reviews does not use the replies table"

run "script url" "$ONLIST" --db "$DB" report --commit-url 'javascript:alert(1)//%s'
expect_rc "script url" 2
run "bad week" "$ONLIST" --db "$DB" report --week 2013-27
expect_rc "bad week" 2
run "two windows" "$ONLIST" --db "$DB" report --week 2013-W27 v1.0..v1.1
expect_rc "two windows" 2

# ---- hostile strings ----------------------------------------------------------
R=$TMP/evil
git init -q -b main "$R"
printf 'EVIL SUBSYSTEM <b>&amp;\nF:\tdrivers/evil/\n\nTHE REST\nF:\t*\nF:\t*/\n' >"$R/MAINTAINERS"
git -C "$R" add MAINTAINERS; git -C "$R" commit -q -m base; git -C "$R" tag e0
mkdir -p "$R/drivers/evil"
echo x >"$R/drivers/evil/x.c"; git -C "$R" add -A
rlo=$(printf '\342\200\256')
GIT_AUTHOR_NAME='Mallory "Quote" & <Co>' GIT_AUTHOR_EMAIL='m@example.org' \
	git -C "$R" commit -q -m "evil: <script>alert(\"x\")</script> & 'q' ${rlo}gnp.exe" \
	-m "Signed-off-by: Mallory <m@example.org>"
git -C "$R" tag e1
EDB=$TMP/evil.db
"$ONLIST" -q --db "$EDB" scan --repo "$R" e0..e1 >/dev/null || fail "scan evil"
# one message from an hour ago, so that the archive covers the commits just made
# (with no message at all, every commit is "unknown": not looked for)
printf 'From x Thu Jan  1 00:00:00 1970\nFrom: a@example.org\nSubject: hello\nMessage-ID: <now@x>\nDate: %s\n\nhi\n' "$(date -R -d '-1 hour')" >"$TMP/now.mbox"
"$ONLIST" -q --db "$EDB" import --list now "$TMP/now.mbox" >/dev/null || fail "import the message from now"
run "evil html" "$ONLIST" --db "$EDB" report --format html --commit-url 'https://x.example/c?id=%s&"' -o "$TMP/evil.html"
expect_rc "evil html" 0
! grep -q "<script" "$TMP/evil.html" || bad "html: a <script> got through"
! grep -q "$rlo" "$TMP/evil.html" || bad "html: a raw U+202E got through"
grep -q "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; <span class=\"ctl\">U+202E</span>gnp.exe" "$TMP/evil.html" ||
	bad "html: the subject is not escaped as expected"
# git itself drops the angle brackets from a name
grep -q "Mallory &quot;Quote&quot; &amp; Co" "$TMP/evil.html" || bad "html: the author is not escaped"
grep -q 'href="https://x.example/c?id=[0-9a-f]*&amp;&quot;"' "$TMP/evil.html" || bad "html: the URL template is not escaped"
grep -q "EVIL SUBSYSTEM &lt;b&gt;&amp;amp;" "$TMP/evil.html" || bad "html: the MAINTAINERS section is not escaped or not used"
python3 - "$TMP/evil.html" <<'PY' || bad "html: unexpected elements (above)"
import sys
from html.parser import HTMLParser
allowed = {"html","head","meta","title","style","body","div","h1","h2","h3","p","b","small","ul","li","a","span","br","table","tr","th","td","svg","line","text","rect","g","defs","pattern","circle","path"}
class P(HTMLParser):
    bad = []
    def handle_starttag(self, tag, attrs):
        if tag not in allowed: self.bad.append(tag)
        for k, v in attrs:
            if k.startswith("on") or (v or "").lower().startswith("javascript:"): self.bad.append(k)
p = P(); p.feed(open(sys.argv[1], encoding="utf-8").read())
if p.bad: print("unexpected:", p.bad); sys.exit(1)
PY
run "evil md" "$ONLIST" --db "$EDB" report
! grep -q "$rlo" "$TMP/out" || bad "md: a raw U+202E got through"
grep -q 'evil: \\<script\\>alert("x")\\</script\\> & '"'q' U+202Egnp.exe" "$TMP/out" || bad "md: the subject is not escaped as expected"
grep -q "EVIL SUBSYSTEM" "$TMP/out" || bad "md: MAINTAINERS section not used"
run "evil text" "$ONLIST" --db "$EDB" report --format text
! grep -q "$rlo" "$TMP/out" || bad "text: a raw U+202E got through"
grep -q "evil: <script>alert(\"x\")</script> & 'q' U+202Egnp.exe" "$TMP/out" || bad "text: the subject is not as expected"
run "evil json" "$ONLIST" --db "$EDB" report --format json
python3 -c "
import json,sys
r = json.load(open(sys.argv[1]))
c = r['commits'][0]
assert c['subject'] == sys.argv[2], c['subject']
assert c['subsystem'] == 'EVIL SUBSYSTEM <b>&amp;', c['subsystem']
assert r['subsystems_from'] == 'MAINTAINERS'
" "$TMP/out" "evil: <script>alert(\"x\")</script> & 'q' ${rlo}gnp.exe" || bad "json: the subject or subsystem did not round-trip"
[ $nfail -eq 0 ]
