#!/bin/sh
# The series-gap near miss over several merges and authors, asked for many
# commits in one process (the siblings of a merge are read once and kept:
# store_report.c), and the report's chart counted from its light query
# against the sections.  Two merges:
#   topic-a: Alice's "a: one of three" posted as [PATCH 1/3]; her "a: two
#            of three" and "a: three of three" never arrived; Bob's "b: lone
#            change" was never posted (same merge, another author)
#   topic-b: Alice's "c: first of two" posted as [PATCH 1/2]; her "c:
#            second of two" never arrived
expect='
a: two of three      near_miss  a-one@x
a: three of three    near_miss  a-one@x
b: lone change       no_trace   -
c: second of two     near_miss  c-one@x
'
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

R=$TMP/repo
DB=$TMP/g.db
git init -q -b main "$R" || fail "git init"
commit() {	# commit DATE WHO SUBJECT FILE
	GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"
	GIT_AUTHOR_NAME=$2 GIT_AUTHOR_EMAIL="$(echo "$2" | tr A-Z a-z)@example.org"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL
	mkdir -p "$R/$(dirname "$4")"
	echo "$3 $1" >>"$R/$4"
	git -C "$R" add -A
	git -C "$R" commit -q -m "$3"
}
patch() {	# patch OUT PART/TOTAL: HEAD as [PATCH PART/TOTAL]
	git -C "$R" format-patch -q -1 --stdout HEAD |
		sed "s|^Subject: \[PATCH\]|Subject: [PATCH $2]|" >"$TMP/$1"
}
commit "2020-03-01T10:00:00" Carol "base: start" base.c
git -C "$R" tag v0
git -C "$R" checkout -q -b topic-a
commit "2020-03-02T10:00:00" Alice "a: one of three" a/one.c
patch a-one.patch 1/3
commit "2020-03-02T11:00:00" Alice "a: two of three" a/two.c
commit "2020-03-02T12:00:00" Bob "b: lone change" b/lone.c
commit "2020-03-02T13:00:00" Alice "a: three of three" a/three.c
git -C "$R" checkout -q main
GIT_COMMITTER_DATE="2020-03-10T10:00:00 +0000" git -C "$R" merge -q --no-ff \
	-m "Merge branch 'topic-a'" topic-a || fail "git merge"
git -C "$R" checkout -q -b topic-b
commit "2020-03-11T10:00:00" Alice "c: first of two" c/first.c
patch c-one.patch 1/2
commit "2020-03-11T11:00:00" Alice "c: second of two" c/second.c
git -C "$R" checkout -q main
GIT_COMMITTER_DATE="2020-03-20T10:00:00 +0000" git -C "$R" merge -q --no-ff \
	-m "Merge branch 'topic-b'" topic-b || fail "git merge"

python3 - "$TMP/a-one.patch" "$TMP/c-one.patch" >"$TMP/list.mbox" <<'EOF' || fail "making the mbox"
import sys
def mail(msgid, date, subject, body, frm="Alice <alice@example.org>"):
    return ("From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: %s\nSubject: %s\n"
            "Message-ID: <%s>\nDate: %s\n\n%s\n" % (frm, subject, msgid, date, body))
def patch(path):
    head, body = open(path).read().split("\n\n", 1)
    return [l for l in head.split("\n") if l.startswith("Subject:")][0][9:], body
print(mail("first@x", "Sat, 01 Feb 2020 09:00:00 +0000", "hello list", "The first message."))
s, b = patch(sys.argv[1])
print(mail("a-one@x", "Mon, 02 Mar 2020 12:00:00 +0000", s, b))
s, b = patch(sys.argv[2])
print(mail("c-one@x", "Wed, 11 Mar 2020 12:00:00 +0000", s, b))
print(mail("last@x", "Mon, 30 Nov 2020 09:00:00 +0000", "goodbye list", "The last message."))
EOF
run import "$ONLIST" --db "$DB" import --list g "$TMP/list.mbox"
expect_rc import 0
run scan "$ONLIST" --db "$DB" scan --repo "$R" v0..main
expect_rc scan 0
run match "$ONLIST" --db "$DB" match
expect_rc match 0

check() {	# check WHAT: $TMP/out (unposted or lookup JSON) against $expect
	python3 - "$TMP/out" "$expect" <<'EOF' || bad "$1: verdicts (above)"
import json, sys
got = {c["subject"]: c for c in json.load(open(sys.argv[1]))}
ok = True
for l in sys.argv[2].strip().split("\n"):
    subject, reason, mid = l.rsplit(None, 2)
    c = got.pop(subject, None)
    if c is None:
        print("missing: %s" % subject); ok = False; continue
    have = (c.get("reason"), c.get("message_id", c.get("reason_msgid")) or "-")
    if have != (reason, mid):
        print("%s: %r, expected %r" % (subject, have, (reason, mid))); ok = False
for s, c in got.items():
    if not c.get("posted"):
        print("listed, not expected: %s" % s); ok = False
sys.exit(0 if ok else 1)
EOF
}
run unposted "$ONLIST" --db "$DB" unposted --json
expect_rc unposted 0
check "unposted --json"
# every commit of the range in one process, the merges in turn
run lookup "$ONLIST" --db "$DB" lookup --json $(git -C "$R" rev-list --no-merges v0..main)
expect_rc lookup 1
check "lookup --json"

# the chart's weeks, counted apart from the sections, agree with them
run report "$ONLIST" --db "$DB" report --json --since 2020-02-24 --until 2020-03-23 --weeks 4
expect_rc report 0
python3 - "$TMP/out" <<'EOF' || bad "report: the chart does not count what the sections do"
import json, sys
r = json.load(open(sys.argv[1]))
t, weeks = r["totals"], r["weeks"]
ok = len(weeks) == 4 and t["commits"] == 6 and t["never_posted"] == 4
for k in ("commits", "never_posted", "no_reply", "discussed", "reviewed_series",
          "reviewed", "unknown"):
    n = sum(w.get(k, 0) for w in weeks)
    if n != t[k]:
        print("%s: %d in the weeks, %d in the totals" % (k, n, t[k])); ok = False
sys.exit(0 if ok else 1)
EOF

[ $nfail -eq 0 ] && echo "all checks passed"
[ $nfail -eq 0 ]
