#!/bin/sh
# onlist report --site DIR: one page per week and an index.html linking
# them; each page says what the week's own report says; a second run
# rewrites nothing (same inode, same mtime, same bytes), and after one
# commit of the last week changes category only that week's page and the
# index are rewritten.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
SITE=$TMP/site
fixture_db "$FX" "$DB"

# the last four weeks, by git: the week of the newest first-parent commit
last=$(git -C "$FX/repo" log -1 --format=%ct v1.1)
python3 - "$last" >"$TMP/weeks.want" <<'PY'
import datetime, sys
t = datetime.datetime.fromtimestamp(int(sys.argv[1]), datetime.timezone.utc)
for k in (3, 2, 1, 0):
    y, w, _ = (t - datetime.timedelta(weeks=k)).isocalendar()
    print("%d-W%02d" % (y, w))
PY
lastweek=$(tail -n 1 "$TMP/weeks.want")

run "site" "$ONLIST" --db "$DB" report --site "$SITE" --weeks 4
expect_rc "site" 0
(cd "$SITE" && ls) | sed -n 's/\.html$//p' | grep -v '^index$' >"$TMP/weeks.got"
same_output "site pages" "$TMP/weeks.want" "$TMP/weeks.got" || bad "--site: not one page per week of the last four"
[ -s "$SITE/index.html" ] || bad "--site: no index.html"
while read -r wk; do
	grep -q "href=\"$wk.html\"" "$SITE/index.html" || bad "index.html does not link $wk"
	# the page is the week's report (with the link back to the index)
	"$ONLIST" --db "$DB" report --week "$wk" --weeks 4 --format html -o "$TMP/one.html" || bad "report --week $wk"
	grep -v 'href="index.html"' "$SITE/$wk.html" >"$TMP/page.html"
	cmp -s "$TMP/page.html" "$TMP/one.html" || bad "$wk.html is not the week's report"
done <"$TMP/weeks.want"
! grep -qi "<script" "$SITE"/*.html || bad "--site: a page has script"

snap() { (cd "$SITE" && for f in *.html; do echo "$f $(stat -c '%i %.9Y' "$f") $(sha256sum <"$f" | cut -c1-16)"; done) >"$1"; }
snap "$TMP/snap1"
sleep 1
run "site again" "$ONLIST" --db "$DB" report --site "$SITE" --weeks 4
expect_rc "site again" 0
snap "$TMP/snap2"
same_output "second run" "$TMP/snap1" "$TMP/snap2" || bad "--site: a second run rewrote pages"

# one never-posted commit of the last week gets a (fuzzy) posting
"$ONLIST" --db "$DB" report --week "$lastweek" --format json >"$TMP/last.json" || fail "report last week"
sha=$(python3 -c "import json,sys; print([c['sha'] for c in json.load(open(sys.argv[1]))['commits'] if c['category'] == 'never_posted'][0])" "$TMP/last.json")
msg=$(sqlite3 "$DB" "SELECT msgid FROM messages WHERE has_patch LIMIT 1")
sqlite3 "$DB" "INSERT INTO matches(commit_sha, message_id, method, score) VALUES('$sha', '$msg', 'fuzzy', 0.9)"
sleep 1
run "site after a change" "$ONLIST" --db "$DB" report --site "$SITE" --weeks 4
expect_rc "site after a change" 0
snap "$TMP/snap3"
python3 - "$TMP/snap2" "$TMP/snap3" "$lastweek.html" <<'PY' || bad "--site: not exactly the changed week and the index rewritten (above)"
import sys
a = dict(l.split(" ", 1) for l in open(sys.argv[1]))
b = dict(l.split(" ", 1) for l in open(sys.argv[2]))
changed = sorted(f for f in a if a[f] != b.get(f))
want = sorted(["index.html", sys.argv[3]])
if changed != want: print("rewritten:", changed, "expected:", want); sys.exit(1)
PY
grep -q "1 of 5 files\|2 of 5 files" "$TMP/out" || bad "--site does not say how many files it wrote"

run "site with -o" "$ONLIST" --db "$DB" report --site "$SITE" -o x.html
expect_rc "site with -o" 2
run "site and week" "$ONLIST" --db "$DB" report --site "$SITE" --week 2020-W01
expect_rc "site and week" 2
echo x >"$TMP/file"
run "site on a file" "$ONLIST" --db "$DB" report --site "$TMP/file"
[ "$rc" -ne 0 ] && [ "$rc" -ne 2 ] || bad "--site on a file: exit $rc"
[ $nfail -eq 0 ]
