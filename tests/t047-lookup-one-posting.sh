#!/bin/sh
# One mail found by two tiers is one posting.  A commit whose Link: trailer
# names its own posting is matched by `link` and, the diff being the same,
# by `patch-id`: lookup once listed that mail twice.  Now it lists it once,
# under the surer method ("link"), naming the other ("also patch-id"), in
# text and in JSON; the commit's other posting (a resend of the same patch
# a day later) stays a posting of its own.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

R=$TMP/repo
DB=$TMP/onlist.db
git init -q "$R" || fail "git init"
git -C "$R" commit -q --allow-empty -m base || fail "commit"
git -C "$R" tag base
printf 'int one(void)\n{\n\treturn 1;\n}\n' >"$R/one.c"
git -C "$R" add one.c
git -C "$R" commit -q -m "one: add the helper" \
	-m "It returns one." \
	-m "Signed-off-by: Ann Author <ann@example.org>
Link: https://lore.kernel.org/r/one-v1@example.org" || fail "commit"

# the posting, and the same patch sent again a day later
git -C "$R" format-patch -q --stdout -1 HEAD >"$TMP/patch" || fail "format-patch"
python3 - "$TMP/patch" "$TMP/list.mbox" <<'PY' || fail "the mbox could not be built"
import sys
body = open(sys.argv[1]).read().split("\n\n", 1)[1]
out = []
for mid, day in (("one-v1@example.org", 1), ("one-resend@example.org", 2)):
    out.append("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
               "From: Ann Author <ann@example.org>\n"
               "Subject: [PATCH] one: add the helper\n"
               "Message-ID: <%s>\n"
               "Date: Mon, %d Mar 2021 10:00:00 +0000\n"
               "To: alpha@lists.example.org\n\n%s\n" % (mid, day, body))
open(sys.argv[2], "w").write("".join(out))
PY
"$ONLIST" -q --db "$DB" import --list alpha "$TMP/list.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$DB" scan --repo "$R" base..HEAD >/dev/null || fail "scan"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match"
methods=$(sqlite3 "$DB" "SELECT group_concat(method, ' ') FROM (SELECT method FROM matches WHERE message_id = 'one-v1@example.org' ORDER BY method)")
[ "$methods" = "link patch-id" ] || fail "the fixture does not match one mail twice (test bug): '$methods'"

sha=$(git -C "$R" rev-parse HEAD)
run lookup "$ONLIST" --db "$DB" lookup "$sha"
expect_rc lookup 0
n=$(grep -c '<one-v1@example.org>' "$TMP/out")
[ "$n" = 1 ] || bad "lookup lists <one-v1@example.org> $n times, not once"
grep -qF '<one-v1@example.org> (link, also patch-id)' "$TMP/out" ||
	bad "lookup does not name both methods on one line"
grep -qF '<one-resend@example.org> (patch-id)' "$TMP/out" ||
	bad "lookup lost the resend"

run "lookup json" "$ONLIST" --db "$DB" lookup --json "$sha"
expect_rc "lookup json" 0
python3 - "$TMP/out" <<'PY' || bad "lookup --json: the postings are not one per mail"
import json, sys
c = json.load(open(sys.argv[1]))[0]
ids = [p["message_id"] for p in c["postings"]]
assert sorted(ids) == ["one-resend@example.org", "one-v1@example.org"], ids
p = [p for p in c["postings"] if p["message_id"] == "one-v1@example.org"][0]
assert p["method"] == "link" and p.get("also") == "patch-id", p
q = [p for p in c["postings"] if p["message_id"] != "one-v1@example.org"][0]
assert "also" not in q, q
PY

# the only posting is the version applied: its "applied" and its
# versions[] entry's agree (issue 28: false beside true)
python3 - "$TMP/list.mbox" "$TMP/one.mbox" <<'PY' || fail "the one-mail mbox could not be built"
import sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(text[:text.index("From mboxrd", 1)])
PY
"$ONLIST" -q --db "$TMP/one.db" import --list alpha "$TMP/one.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$TMP/one.db" scan --repo "$R" base..HEAD >/dev/null || fail "scan"
"$ONLIST" -q --db "$TMP/one.db" match >/dev/null || fail "match"
run "lookup json, one posting" "$ONLIST" --db "$TMP/one.db" lookup --json "$sha"
expect_rc "lookup json, one posting" 0
python3 - "$TMP/out" <<'PY' || bad "lookup --json: the only posting and its version disagree on applied"
import json, sys
c = json.load(open(sys.argv[1]))[0]
assert len(c["postings"]) == 1, c["postings"]
v = c["versions"]
assert len(v) == 1 and v[0]["applied"] is True, v
assert c["postings"][0]["applied"] is True, c["postings"][0]
PY

[ $nfail -eq 0 ] && echo "one posting per mail"
[ $nfail -eq 0 ]
