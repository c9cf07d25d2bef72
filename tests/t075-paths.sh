#!/bin/sh
# The path each change took (issue 31): pulled in a posted pull request,
# merged from a tree nobody announced, merged from a forge, and the
# off-list fixes that matter.  The repository and the list are made here;
# what each never-posted commit must come out as is written by hand:
#
#   SUBJECT                       REASON              NAMED (message_id | via)   SECURITY
expect='
sub: quiet change             | pulled             | pull1@x                          | -
sub2: early change            | pulled             | pull2@x                          | -
sub2: late addition           | pulled             | pull2@x                          | -
late: change                  | pulled_unannounced | git://git.example.org/late       | -
silent: change                | pulled_unannounced | git://git.example.org/silent     | -
gh: contributed change        | forge_review       | pull request #12 from alice/fix-thing | -
gl: contributed change        | forge_review       | merge request group/proj!7       | -
fork: a change of bob         | forge_review       | https://github.com/bob/project   | -
fork2: a change of carol      | forge_review       | github.com:carol/project         | -
net: direct with a PR link    | forge_review       | https://github.com/o/r/pull/33   | -
local: change                 | no_trace           | -                                | -
sec: fix with Fixes           | no_trace           | -                                | Fixes: INIT ("init")
sec: cve fix                  | no_trace           | -                                | CVE-2021-12345
sec: syzbot fix               | no_trace           | -                                | Reported-by: syzbot+0123abcd@syzkaller.appspotmail.com
sec: stable fix               | no_trace           | -                                | Cc: stable@vger.kernel.org
sec: forge issue fix          | no_trace           | -                                | -
sec: embargoed fix            | embargoed          | CVE-2021-9999 held until June    | Fixes: INIT ("init")
crypto: fix timing leak       | embargoed          | distro embargo                   | -
'
# - sub: a subsystem tree; its [GIT PULL] (pull1@x) names the tip the
#   merge took (the merge names a mirror: only the tip joins them); "sub:
#   posted fix" was posted as a patch, so it is not listed (lookup shows
#   its path through the pull request).
# - sub2: the pull request (pull2@x) names an older tip; the merge's title
#   names the same repository (with ".git" and https) and branch.
# - late: its pull request was sent five days after the merge: not counted.
# - silent: no pull request; a pull request of another tree for a branch of
#   the same name (other@x) is not it.
# - gh, gl: GitHub's and GitLab's merge titles; fork, fork2: a maintainer's
#   merge of a contributor's fork (URL and scp form); the direct commit
#   names its pull request in a Link: trailer.
# - local: a merge of a local branch names no tree: no_trace.
# - sec: one marker each; "Fixes: #12" names a forge issue, not a commit.
# - the two embargoed commits are named by the rules file (by sha and by a
#   subject glob).
# Posted: "net: posted unreviewed fix" (Fixes:, no reply) is security
# relevant, "net: posted reviewed fix" (Fixes:, a Reviewed-by reply) not.
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git
# an empty global configuration of our own: not /dev/null, which a
# broken machine may have turned into a file something writes to
: >"$TMP/gitconfig"
export GIT_CONFIG_GLOBAL="$TMP/gitconfig"

R=$TMP/repo
DB=$TMP/p.db
git init -q -b main "$R" || fail "git init"
at() { GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; export GIT_AUTHOR_DATE GIT_COMMITTER_DATE; }
commit() {	# commit DATE SUBJECT FILE [BODY]
	at "$1"
	mkdir -p "$R/$(dirname "$3")"
	echo "$2 $1" >>"$R/$3"
	git -C "$R" add -A
	git -C "$R" commit -q -s -m "$2" ${4:+-m "$4"} || fail "commit $2"
}
merge() {	# merge DATE BRANCH MESSAGE [BODY]
	at "$1"
	git -C "$R" merge -q --no-ff -m "$3" ${4:+-m "$4"} "$2" || fail "merge $2"
}
branch() { git -C "$R" checkout -q -b "$1" main || fail "branch $1"; }
main() { git -C "$R" checkout -q main || fail "checkout main"; }
patch_of() { git -C "$R" format-patch -q -1 --stdout "$1" >"$TMP/$2.patch"; }

commit "2021-01-05T10:00:00" "init" README
git -C "$R" tag v0
INIT=$(git -C "$R" rev-parse --short=12 HEAD)

branch sub
commit "2021-02-01T10:00:00" "sub: posted fix" sub/a.c
patch_of HEAD sub
commit "2021-02-02T10:00:00" "sub: quiet change" sub/b.c
SUB_TIP=$(git -C "$R" rev-parse HEAD)
main
merge "2021-02-12T10:00:00" sub "Merge tag 'sub-for-1' of git://mirror.example.net/sub"

branch sub2
commit "2021-02-15T10:00:00" "sub2: early change" sub2/a.c
SUB2_OLD=$(git -C "$R" rev-parse HEAD)
commit "2021-02-20T10:00:00" "sub2: late addition" sub2/b.c
main
merge "2021-02-22T10:00:00" sub2 "Merge branch 'for-next' of https://git.example.org/pub/sub2"

branch late
commit "2021-03-01T10:00:00" "late: change" late/a.c
LATE_TIP=$(git -C "$R" rev-parse HEAD)
main
merge "2021-03-05T10:00:00" late "Merge tag 'late-1' of git://git.example.org/late"

branch silent
commit "2021-03-15T10:00:00" "silent: change" silent/a.c
main
merge "2021-03-20T10:00:00" silent "Merge branch 'fixes' of git://git.example.org/silent"

branch gh
commit "2021-04-01T10:00:00" "gh: contributed change" gh/a.c
main
merge "2021-04-02T10:00:00" gh "Merge pull request #12 from alice/fix-thing" "fix the thing"

branch gl
commit "2021-04-05T10:00:00" "gl: contributed change" gl/a.c
main
merge "2021-04-06T10:00:00" gl "Merge branch 'feature' into 'main'" "Add the feature

See merge request group/proj!7"

branch fork
commit "2021-04-10T10:00:00" "fork: a change of bob" fork/a.c
main
merge "2021-04-11T10:00:00" fork "Merge branch 'topic' of https://github.com/bob/project"

branch fork2
commit "2021-04-12T10:00:00" "fork2: a change of carol" fork2/a.c
main
merge "2021-04-13T10:00:00" fork2 "Merge branch 'x' of github.com:carol/project into main"

branch topic2
commit "2021-04-15T10:00:00" "local: change" local/a.c
main
merge "2021-04-16T10:00:00" topic2 "Merge branch 'topic2'"

commit "2021-05-01T10:00:00" "net: direct with a PR link" net/a.c "Closes the gap.

Link: https://github.com/o/r/pull/33"
commit "2021-05-05T10:00:00" "sec: fix with Fixes" sec/a.c "Fixes: $INIT (\"init\")"
commit "2021-05-06T10:00:00" "sec: cve fix" sec/b.c "This fixes cve-2021-12345 in the parser."
commit "2021-05-07T10:00:00" "sec: syzbot fix" sec/c.c "Reported-by: syzbot+0123abcd@syzkaller.appspotmail.com"
commit "2021-05-08T10:00:00" "sec: stable fix" sec/d.c "Cc: stable@vger.kernel.org"
commit "2021-05-09T10:00:00" "sec: forge issue fix" sec/e.c "Fixes: #12"
commit "2021-05-10T10:00:00" "sec: embargoed fix" sec/f.c "Fixes: $INIT (\"init\")"
EMBARGOED=$(git -C "$R" rev-parse HEAD)
commit "2021-05-11T10:00:00" "crypto: fix timing leak" crypto/a.c
commit "2021-06-01T10:00:00" "net: posted unreviewed fix" net/b.c "Fixes: $INIT (\"init\")"
patch_of HEAD unreviewed
UNREVIEWED=$(git -C "$R" rev-parse HEAD)
commit "2021-06-05T10:00:00" "net: posted reviewed fix" net/c.c "Fixes: $INIT (\"init\")"
patch_of HEAD reviewed
REVIEWED=$(git -C "$R" rev-parse HEAD)
SUB_POSTED=$(git -C "$R" rev-parse "main^{/sub: posted fix}")

python3 - "$TMP" "$SUB_TIP" "$SUB2_OLD" "$LATE_TIP" >"$TMP/list.mbox" <<'EOF' || fail "making the mbox"
import sys
tmp, sub_tip, sub2_old, late_tip = sys.argv[1:]
def mail(msgid, date, subject, body, frm="Tester <tester@example.org>", extra=""):
    return ("From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: %s\nSubject: %s\n"
            "Message-ID: <%s>\nDate: %s\n%s\n%s\n" % (frm, subject, msgid, date, extra, body))
def patch(name, msgid, date):
    head, body = open("%s/%s.patch" % (tmp, name)).read().split("\n\n", 1)
    subject = [l for l in head.split("\n") if l.startswith("Subject:")][0][9:]
    return mail(msgid, date, subject, body)
def pull(msgid, date, subject, url, ref, tip):
    return mail(msgid, date, subject,
        "Hi,\n\nThe following changes since commit 0123456789abcdef0123456789abcdef01234567:\n\n"
        "  init (2021-01-05 10:00:00 +0000)\n\n"
        "are available in the Git repository at:\n\n  %s %s\n\n"
        "for you to fetch changes up to %s:\n\n  a change (2021-02-02)\n" % (url, ref, tip),
        frm="Sub Maintainer <sub@example.org>")
print(mail("first@x", "Fri, 01 Jan 2021 09:00:00 +0000", "hello list", "The first message."))
print(patch("sub", "subpatch@x", "Mon, 01 Feb 2021 11:00:00 +0000"))
print(pull("pull1@x", "Wed, 10 Feb 2021 09:00:00 +0000", "[GIT PULL] sub for 1",
           "git://git.example.org/sub.git", "tags/sub-for-1", sub_tip))
print(pull("pull2@x", "Tue, 16 Feb 2021 09:00:00 +0000", "[GIT PULL] sub2 for-next",
           "https://git.example.org/pub/sub2.git", "for-next", sub2_old))
# sent after the merge of 2021-03-05: not the request that merge answered
print(pull("late@x", "Wed, 10 Mar 2021 09:00:00 +0000", "[GIT PULL] late 1",
           "git://git.example.org/late", "tags/late-1", late_tip))
# another tree's branch of the same name as the silent merge's
print(pull("other@x", "Tue, 16 Mar 2021 09:00:00 +0000", "[GIT PULL] other fixes",
           "git://git.example.org/other", "fixes", "1111111111111111111111111111111111111111"))
print(patch("unreviewed", "unreviewed@x", "Sun, 30 May 2021 09:00:00 +0000"))
print(patch("reviewed", "reviewed@x", "Tue, 01 Jun 2021 09:00:00 +0000"))
print(mail("review@x", "Wed, 02 Jun 2021 09:00:00 +0000", "Re: [PATCH] net: posted reviewed fix",
           "> quoted\n\nReviewed-by: Rita Reviewer <rita@example.org>",
           frm="Rita Reviewer <rita@example.org>", extra="In-Reply-To: <reviewed@x>\n"))
print(mail("last@x", "Fri, 31 Dec 2021 09:00:00 +0000", "goodbye list", "The last message."))
EOF
cat >"$TMP/rules" <<EOF
# known embargoed fixes
embargo commit $(echo "$EMBARGOED" | cut -c1-10) CVE-2021-9999 held until June
embargo subject crypto:*timing* distro embargo
EOF
run import "$ONLIST" --db "$DB" import --list v "$TMP/list.mbox"
expect_rc import 0
run scan "$ONLIST" --db "$DB" scan --repo "$R" v0..main
expect_rc scan 0
run match "$ONLIST" --db "$DB" match --rules "$TMP/rules"
expect_rc match 0

run unposted "$ONLIST" --db "$DB" unposted --json
expect_rc unposted 0
python3 - "$TMP/out" "$expect" "$INIT" <<'EOF' || bad "unposted --json: reasons, paths and marks (above)"
import json, sys
got = {c["subject"]: c for c in json.load(open(sys.argv[1]))}
ok = True
for line in sys.argv[2].strip().split("\n"):
    subject, reason, named, sec = [f.strip() for f in line.split("|")]
    sec = sec.replace("INIT", sys.argv[3])
    c = got.pop(subject, None)
    if c is None:
        print("missing: %s" % subject); ok = False; continue
    if c["category"] != "never_posted" or c["reason"] != reason:
        print("%s: %s/%s, expected never_posted/%s" % (subject, c["category"], c["reason"], reason)); ok = False
    if reason == "pulled":
        have = c["message_id"]
        if c.get("pull_request") != named or c.get("pull_list") != "v" or c.get("path") != "pull":
            print("%s: path %r pull %r on %r" % (subject, c.get("path"), c.get("pull_request"), c.get("pull_list"))); ok = False
    elif reason == "embargoed":
        have = c.get("note")
    elif reason == "no_trace":
        have = c.get("via") or c.get("message_id") or "-"
    else:
        have = c.get("via")
    if have != named:
        print("%s: names %r, expected %r" % (subject, have, named)); ok = False
    want_sec = None if sec == "-" else sec
    if c.get("security") != want_sec or c.get("security_relevant") is not (want_sec is not None):
        print("%s: security %r/%r, expected %r" % (subject, c.get("security_relevant"), c.get("security"), want_sec)); ok = False
    if subject == "local: change" and c.get("path") != "local_merge":
        print("local: path %r" % c.get("path")); ok = False
    if subject.startswith("sec:") and c.get("path") != "direct":
        print("%s: path %r" % (subject, c.get("path"))); ok = False
for s in got:
    print("listed, not expected: %s" % s); ok = False
sys.exit(0 if ok else 1)
EOF

# text: the reason and what it names, the mark
run unposted-text "$ONLIST" --db "$DB" unposted
grep -q 'sub: quiet change (pulled: <pull1@x>)$' "$TMP/out" ||
	bad "unposted: the pulled commit does not name its pull request"
grep -q 'gh: contributed change (forge_review: pull request #12 from alice/fix-thing)$' "$TMP/out" ||
	bad "unposted: the forge request is not named"
grep -q 'crypto: fix timing leak (embargoed: distro embargo)$' "$TMP/out" ||
	bad "unposted: the embargo's text is not shown"
grep -q 'sec: syzbot fix (no_trace) \[security: Reported-by: syzbot+0123abcd@syzkaller.appspotmail.com\]$' "$TMP/out" ||
	bad "unposted: the security mark is not shown"

# --reason knows the new reasons; --security keeps the marked ones
for r in pulled:3 pulled_unannounced:2 forge_review:5 embargoed:2; do
	run "reason ${r%:*}" "$ONLIST" --db "$DB" unposted --reason "${r%:*}"
	expect_rc "reason ${r%:*}" 0
	[ "$(grep -c "(${r%:*}" "$TMP/out")" -eq "${r#*:}" ] &&
	[ "$(grep -c '^[0-9a-f]\{12\} ' "$TMP/out")" -eq "${r#*:}" ] ||
		bad "unposted --reason ${r%:*}: not the ${r#*:} commits"
done
run security "$ONLIST" --db "$DB" unposted --security
expect_rc security 0
[ "$(grep -c '^[0-9a-f]\{12\} ' "$TMP/out")" -eq 5 ] &&
[ "$(grep -c '\[security: ' "$TMP/out")" -eq 5 ] ||
	bad "unposted --security: not the five marked never-posted commits"

# lookup: the path of a posted commit through the pull request, and a
# never-posted one's reason in the words of the issue
run lookup-posted "$ONLIST" --db "$DB" lookup "$SUB_POSTED"
expect_rc lookup-posted 0
grep -q '^  path: pulled in <pull1@x> on v (2021-02-10) from git://git.example.org/sub.git, then merged 2021-02-12 in [0-9a-f]\{12\} Merge tag .sub-for-1. of git://mirror.example.net/sub$' "$TMP/out" ||
	bad "lookup: a posted commit's path through the pull request"
run lookup-pulled "$ONLIST" --db "$DB" lookup "main^{/sub: quiet change}"
grep -q '^  reason: pulled, came in the pull request <pull1@x> on v, never posted as a patch$' "$TMP/out" ||
	bad "lookup: the pulled reason"
run lookup-json "$ONLIST" --db "$DB" lookup --json "$UNREVIEWED" "$REVIEWED" "$SUB_POSTED"
python3 - "$TMP/out" "$INIT" <<'EOF' || bad "lookup --json: path and security of posted commits"
import json, sys
u, r, s = json.load(open(sys.argv[1]))
ok = True
if (u["posted"], u["security_relevant"], u["security"]) != (True, True, 'Fixes: %s ("init")' % sys.argv[2]):
    print("unreviewed:", u["posted"], u["security_relevant"], u["security"]); ok = False
if (r["posted"], r["security_relevant"], r["security"]) != (True, False, None):
    print("reviewed:", r["posted"], r["security_relevant"], r["security"]); ok = False
if (s["path"], s["pull_request"], s["pull_list"]) != ("pull", "pull1@x", "v") or u["path"] != "direct":
    print("paths:", s["path"], s["pull_request"], s["pull_list"], u["path"]); ok = False
sys.exit(0 if ok else 1)
EOF

# report: the fixes that bypassed review come first
run report "$ONLIST" --db "$DB" report --format text v0..main
expect_rc report 0
python3 - "$TMP/out" <<'EOF' || bad "report: fixes that bypassed review (above)"
import sys
t = open(sys.argv[1]).read()
i = t.find("Fixes that bypassed review (6)")
j = t.find("Never posted (")
if i < 0 or j < 0 or i > j:
    print("the section is missing or not first: at %d, never posted at %d" % (i, j)); sys.exit(1)
sec = t[i:j]
want = ["sec: fix with Fixes", "sec: cve fix", "sec: syzbot fix", "sec: stable fix",
        "sec: embargoed fix", "net: posted unreviewed fix"]
bad = [w for w in want if w not in sec] + [w for w in ("sec: forge issue fix", "net: posted reviewed fix", "crypto:") if w in sec]
for b in bad:
    print("wrong in the section:", b)
for title in ("Pulled without a posting (3)", "Merged from a tree nobody announced (2)",
              "Through a forge (5)", "Embargoed (2)"):
    if title not in t[j:]:
        print("no section", title); bad.append(title)
sys.exit(1 if bad else 0)
EOF
run report-json "$ONLIST" --db "$DB" report --format json v0..main
python3 - "$TMP/out" <<'EOF' || bad "report --format json: security and path"
import json, sys
r = json.load(open(sys.argv[1]))
cs = {c["subject"]: c for c in r["commits"]}
ok = cs["sec: cve fix"].get("security") == "CVE-2021-12345" and \
     cs["net: posted unreviewed fix"].get("security_relevant") is True and \
     cs["net: posted reviewed fix"].get("security_relevant") is False and \
     cs["sub: quiet change"].get("reason") == "pulled" and \
     cs["sub: posted fix"].get("path") == "pull"
sys.exit(0 if ok else 1)
EOF

# export: the same columns for every commit
run export "$ONLIST" --db "$DB" export --format jsonl
expect_rc export 0
python3 - "$TMP/out" <<'EOF' || bad "export: path and security columns"
import json, sys
rows = {r["subject"]: r for r in map(json.loads, open(sys.argv[1]))}
want = {
    "sub: quiet change": ("pulled", "pull", "pull1@x", 0),
    "sub: posted fix": (None, "pull", "pull1@x", 0),
    "gl: contributed change": ("forge_review", "forge", None, 0),
    "sec: stable fix": ("no_trace", "direct", None, 1),
    "net: posted unreviewed fix": (None, "direct", None, 1),
    "net: posted reviewed fix": (None, "direct", None, 0),
}
ok = True
for s, w in want.items():
    r = rows[s]
    got = (r["reason"], r["path"], r["pull_request"], r["security_relevant"])
    if got != w:
        print(s, got, "expected", w); ok = False
sys.exit(0 if ok else 1)
EOF

# stats: the single-signoff commits by path.  Every commit is signed off;
# all but "sec: syzbot fix" (Reported-by) have no other -by tag: 4 came in
# pull requests (sub: 2, sub2: 2), 2 in unannounced merges, 5 through a
# forge, 1 from a local branch, 8 directly.
run stats "$ONLIST" --db "$DB" stats --format json v0..main
expect_rc stats 0
python3 - "$TMP/out" <<'EOF' || bad "stats: single-signoff commits by path"
import json, sys
s = json.load(open(sys.argv[1]))["single_signoff_no_tags"]
want = {"direct": 8, "local_merge": 1, "pull": 4, "unannounced": 2, "forge": 5, "unknown": 0}
if s["count"] != 20 or s.get("paths") != want:
    print(s["count"], s.get("paths")); sys.exit(1)
EOF

# an embargo line without a text is refused
printf 'embargo subject crypto:*\n' >"$TMP/bad-rules"
run bad-rules "$ONLIST" --db "$DB" match --rules "$TMP/bad-rules"
[ "$rc" -ne 0 ] || bad "match: an embargo rule with no text was taken"
grep -q 'embargo' "$TMP/err" || bad "match: the refusal does not name the embargo form"
run rules-help "$ONLIST" match --rules-help
grep -q '^#   embargo commit SHA TEXT' "$TMP/out" || bad "match --rules-help: no embargo"

[ $nfail -eq 0 ]
