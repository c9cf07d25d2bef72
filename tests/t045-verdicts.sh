#!/bin/sh
# Every never-posted commit explained (issue 13): a reason for each, and
# "unknown" for a commit that landed outside what the archive covers.  The
# repository and the list are made here, one commit per case; what each
# must come out as is written below by hand:
#
#   SUBJECT                               CATEGORY      REASON
expect='
Release 1.0                              never_posted  release
Revert "net: posted change"              never_posted  revert
Revert "net: quiet change"               never_posted  no_trace
po: update the German translation        never_posted  translation
cli: announced but never sent            never_posted  near_miss
net: second of two                       never_posted  near_miss
net: quiet change                        never_posted  no_trace
net: posted without a date               never_posted  no_trace
docs: landed before the archive          unknown       -
net: landed after the archive            unknown       -
'
# "net: posted change" is posted exactly, so it is not in the list at all;
# "net: posted without a date" too, but its mail has no Date: a posting of
# unknown date does not count (it is listed like a late one).
# "net: quiet change" has only a reply (Re: [PATCH] ...) on the list: no
# near miss.
# "net: first of two" went out as [PATCH 1/2] and landed by the same merge
# as "net: second of two", which never arrived: a near miss naming 1/2.
# The archive spans 2020-02-01..2020-11-30: two commits landed outside it,
# one after its end, one more than 30 days before its start (no merges: a
# commit lands when it is committed).
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

R=$TMP/repo
DB=$TMP/v.db
git init -q -b main "$R" || fail "git init"
at() { GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; export GIT_AUTHOR_DATE GIT_COMMITTER_DATE; }
commit() {	# commit DATE SUBJECT FILE [BODY]
	at "$1"
	mkdir -p "$R/$(dirname "$3")"
	echo "$2 $1" >>"$R/$3"
	git -C "$R" add -A
	git -C "$R" commit -q -m "$2" ${4:+-m "$4"}
}
commit "2019-12-01T10:00:00" "docs: landed before the archive" docs/a.txt
git -C "$R" tag v0
commit "2020-03-01T10:00:00" "net: posted change" net/a.c
posted=$(git -C "$R" rev-parse HEAD)
git -C "$R" format-patch -q -1 --stdout "$posted" >"$TMP/posted.patch"
commit "2020-03-05T10:00:00" "net: quiet change" net/b.c
quiet=$(git -C "$R" rev-parse HEAD)
at "2020-04-01T10:00:00"
git -C "$R" revert --no-edit "$posted" >/dev/null || fail "git revert"
at "2020-04-02T10:00:00"
git -C "$R" revert --no-edit "$quiet" >/dev/null || fail "git revert"
commit "2020-04-10T10:00:00" "net: posted without a date" net/d.c
git -C "$R" format-patch -q -1 --stdout HEAD >"$TMP/dateless.patch"
dateless=$(git -C "$R" rev-parse HEAD)
commit "2020-05-01T10:00:00" "po: update the German translation" po/de.po
commit "2020-06-01T10:00:00" "cli: announced but never sent" cli/x.c
git -C "$R" checkout -q -b topic
commit "2020-06-10T10:00:00" "net: first of two" net/e.c
git -C "$R" format-patch -q -1 --stdout HEAD | sed 's/^Subject: \[PATCH\]/Subject: [PATCH 1\/2]/' >"$TMP/first.patch"
commit "2020-06-11T10:00:00" "net: second of two" net/f.c
git -C "$R" checkout -q main
at "2020-06-20T10:00:00"
git -C "$R" merge -q --no-ff -m "Merge branch 'topic'" topic || fail "git merge"
echo 1.0 >"$R/VERSION"
commit "2020-07-01T10:00:00" "Release 1.0" NEWS
commit "2021-03-01T10:00:00" "net: landed after the archive" net/c.c

# the list: the posted patch, an announcement without a patch, and the
# archive's first and last messages
python3 - "$TMP/posted.patch" "$TMP/dateless.patch" "$TMP/first.patch" >"$TMP/list.mbox" <<'EOF' || fail "making the mbox"
import sys
def mail(msgid, date, subject, body, frm="Tester <tester@example.org>"):
    return ("From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: %s\nSubject: %s\n"
            "Message-ID: <%s>\nDate: %s\n\n%s\n" % (frm, subject, msgid, date, body))
patch = open(sys.argv[1]).read()
head, body = patch.split("\n\n", 1)
subject = [l for l in head.split("\n") if l.startswith("Subject:")][0][9:]
print(mail("first@x", "Sat, 01 Feb 2020 09:00:00 +0000", "hello list", "The first message."))
print(mail("posted@x", "Sun, 01 Mar 2020 09:00:00 +0000", subject, body))
# a reply to a patch of "net: quiet change" that is not in the archive:
# a reply, not a near miss (it once was named as one)
print(mail("reply@x", "Fri, 06 Mar 2020 09:00:00 +0000",
           "Re: [PATCH] net: quiet change", "> quoted\nLooks odd to me.").replace(
           "Message-ID: <reply@x>", "Message-ID: <reply@x>\nIn-Reply-To: <gone@x>"))
print(mail("announce@x", "Fri, 29 May 2020 09:00:00 +0000",
           "[ANNOUNCE] cli: announced but never sent", "Coming soon; no patch here."))
print(mail("last@x", "Mon, 30 Nov 2020 09:00:00 +0000", "goodbye list", "The last message."))
head, body = open(sys.argv[2]).read().split("\n\n", 1)
subject = [l for l in head.split("\n") if l.startswith("Subject:")][0][9:]
print("From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Tester <tester@example.org>\n"
      "Subject: %s\nMessage-ID: <dateless@x>\n\n%s\n" % (subject, body))
head, body = open(sys.argv[3]).read().split("\n\n", 1)
subject = [l for l in head.split("\n") if l.startswith("Subject:")][0][9:]
print(mail("one-of-two@x", "Wed, 10 Jun 2020 12:00:00 +0000", subject, body))
EOF
run import "$ONLIST" --db "$DB" import --list v "$TMP/list.mbox"
expect_rc import 0
run scan "$ONLIST" --db "$DB" scan --repo "$R" v0~0..main
expect_rc scan 0
# the first commit is v0 itself: scan it too
run scan-root "$ONLIST" --db "$DB" scan --repo "$R" main
expect_rc scan-root 0
run match "$ONLIST" --db "$DB" match
expect_rc match 0

run unposted "$ONLIST" --db "$DB" unposted --json --include-unknown
expect_rc unposted 0
python3 - "$TMP/out" "$expect" "$posted" <<'EOF' || bad "unposted --json: verdicts (above)"
import json, sys
got = {c["subject"]: c for c in json.load(open(sys.argv[1]))}
ok = True
want = [l.rsplit(None, 2) for l in sys.argv[2].strip().split("\n")]
for subject, cat, reason in want:
    c = got.pop(subject, None)
    if c is None:
        print("missing: %s" % subject); ok = False; continue
    r = c.get("reason") or "-"
    if (c["category"], r) != (cat, reason):
        print("%-40s %s/%s, expected %s/%s" % (subject, c["category"], r, cat, reason)); ok = False
    if reason == "revert" and (c.get("reverted") != sys.argv[3] or c.get("message_id") != "posted@x"):
        print("revert: reverted %r, message %r" % (c.get("reverted"), c.get("message_id"))); ok = False
    want_mid = {"cli: announced but never sent": "announce@x",
                "net: second of two": "one-of-two@x"}.get(subject)
    if reason == "near_miss" and c.get("message_id") != want_mid:
        print("near_miss names %r, expected %s" % (c.get("message_id"), want_mid)); ok = False
for s in got:
    print("listed, not expected: %s" % s); ok = False
sys.exit(0 if ok else 1)
EOF

# text: unknown commits are counted, not listed, unless asked for
run unposted-text "$ONLIST" --db "$DB" unposted
expect_rc unposted-text 0
grep -q '^2 commits not looked for: they landed outside the archive (2020-02-01..2020-11-30); --include-unknown lists them$' "$TMP/out" ||
	bad "unposted: no line counting the unknown commits"
! grep -q 'landed after the archive\|landed before the archive' "$TMP/out" ||
	bad "unposted: an unknown commit is listed without --include-unknown"
grep -q 'cli: announced but never sent (near_miss: <announce@x>)$' "$TMP/out" ||
	bad "unposted: the near miss does not name the announcement"
run unposted-unknown "$ONLIST" --db "$DB" unposted --include-unknown
sed -n '/not looked for/,$p' "$TMP/out" | grep -q 'net: landed after the archive$' ||
	bad "unposted --include-unknown: the unknown commits are not listed after the count"

# --reason filters, and refuses a reason it does not know
run reason "$ONLIST" --db "$DB" unposted --reason release
expect_rc reason 0
[ "$(grep -c '(release)$' "$TMP/out")" -eq 1 ] && [ "$(grep -c '^[0-9a-f]\{12\} ' "$TMP/out")" -eq 1 ] ||
	bad "unposted --reason release: not exactly the release commit"
run bad-reason "$ONLIST" --db "$DB" unposted --reason releases
expect_rc bad-reason 2

# release rules in the rules file: match keeps them for the verdicts
printf '# ours\nrelease subject cli: announced*\n' >"$TMP/rules"
run match-rules "$ONLIST" --db "$DB" match --rules "$TMP/rules"
expect_rc match-rules 0
run rules-release "$ONLIST" --db "$DB" unposted --reason release
grep -q 'cli: announced but never sent (release)$' "$TMP/out" ||
	bad "a release rule from --rules is not used by unposted"
run match-norules "$ONLIST" --db "$DB" match
run rules-gone "$ONLIST" --db "$DB" unposted --reason release
! grep -q 'cli: announced' "$TMP/out" || bad "the release rule outlived the match that had it"
# --rules-help prints the format and the built-in rules, as a rules file
run rules-help "$ONLIST" match --rules-help
expect_rc rules-help 0
grep -q '^bot     from      lkp@intel.com$' "$TMP/out" || bad "--rules-help: no built-in bot rule"
cp "$TMP/out" "$TMP/builtin.rules"
run rules-roundtrip "$ONLIST" --db "$DB" match --rules "$TMP/builtin.rules"
expect_rc rules-roundtrip 0
printf 'release from x@y\n' >"$TMP/bad.rules"
run bad-release-rule "$ONLIST" --db "$DB" match --rules "$TMP/bad.rules"
expect_rc bad-release-rule 2

# the project's own release pattern
git -C "$R" config onlist.releasePattern '^cli: announced'
run pattern "$ONLIST" --db "$DB" unposted --reason release
grep -q 'cli: announced but never sent (release)$' "$TMP/out" ||
	bad "onlist.releasePattern: not used"
git -C "$R" config onlist.releasePattern '('
run bad-pattern "$ONLIST" --db "$DB" unposted
expect_rc bad-pattern 2
grep -q 'onlist.releasePattern' "$TMP/err" || bad "a bad onlist.releasePattern: not named"
run bad-pattern-export "$ONLIST" --db "$DB" export --format jsonl -o "$TMP/commits.jsonl" commits
expect_rc bad-pattern-export 1
grep -q 'export: onlist.releasePattern' "$TMP/err" || bad "export: a bad onlist.releasePattern is not named"
[ ! -e "$TMP/commits.jsonl" ] || bad "export: a half-written file was kept after the failure"

# the dateless posting: shown by lookup, not counted
run lookup-dateless "$ONLIST" --db "$DB" lookup "$dateless"
expect_rc lookup-dateless 1
grep -q 'with no usable date: not counted$' "$TMP/out" || bad "lookup: the dateless posting is not shown as not counted"

# lookup: the reason, or "not looked for" with exit 3
after=$(git -C "$R" rev-parse main)
git -C "$R" config --unset onlist.releasePattern
run lookup-unknown "$ONLIST" --db "$DB" lookup "$after"
expect_rc lookup-unknown 3
grep -q 'not looked for: it landed outside the archive (2020-02-01..2020-11-30)' "$TMP/out" ||
	bad "lookup: an unknown commit is not said to be outside the archive"
release=$(git -C "$R" rev-parse main~1)
run lookup-release "$ONLIST" --db "$DB" lookup "$release"
expect_rc lookup-release 1
grep -q '^  reason: release$' "$TMP/out" || bad "lookup: no reason for the release commit"
run lookup-both "$ONLIST" --db "$DB" lookup "$after" "$release" "$posted"
expect_rc lookup-both 1
run lookup-json "$ONLIST" --db "$DB" lookup --json "$after" "$release"
python3 -c '
import json, sys
a, b = json.load(open(sys.argv[1]))
ok = (a["category"], a["reason"], b["category"], b["reason"]) == ("unknown", None, "never_posted", "release")
ok = ok and a["archive"]["last"] == "2020-11-30T09:00:00Z"
sys.exit(0 if ok else 1)' "$TMP/out" || bad "lookup --json: category, reason or archive wrong"

# export: the reason column, and "unknown" as the review state
run export "$ONLIST" --db "$DB" export --format jsonl commits
expect_rc export 0
python3 - "$TMP/out" "$expect" <<'EOF' || bad "export commits: review_state/reason (above)"
import json, sys
got = {r["subject"]: (r["review_state"], r["reason"] or "-") for r in map(json.loads, open(sys.argv[1]))}
ok = True
for l in sys.argv[2].strip().split("\n"):
    subject, cat, reason = l.rsplit(None, 2)
    if got.get(subject) != (cat, reason):
        print("%s: %r, expected %r" % (subject, got.get(subject), (cat, reason))); ok = False
if got.get("net: posted change") != ("no_reply", "-"):
    print("the posted commit: %r" % (got.get("net: posted change"),)); ok = False
sys.exit(0 if ok else 1)
EOF

[ $nfail -eq 0 ] && echo "all checks passed"
[ $nfail -eq 0 ]
