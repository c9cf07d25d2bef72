#!/bin/sh
# lookup --remote probes before it judges (issue 28), against Debian's
# public-inbox-httpd on 127.0.0.1 at index levels full, medium and basic:
#  - subjects with an apostrophe, a colon, quotes, brackets, query words
#    (OR, AND, NOT, f:) and non-ASCII are found by the subject tier (the
#    commits were edited on the way in: no patch-id or author date finds
#    them), by phrase at level full and word by word at level medium;
#  - a commit posted under another subject, its patch edited, is found by
#    the remote fuzzy tier (the author's patches to its files);
#  - a commit never posted is never_posted where every tier was asked, and
#    unknown, with the reason, where the server cannot search (basic);
#  - a mistyped inbox name is an error naming the inboxes the server has,
#    exit 2, nothing judged;
#  - a repeat makes no request.
. tests/lib.sh
. tests/pi-server.sh
need_cmd git
need_cmd python3
need_onlist
pi_need
make_tmp
isolate_git

R=$TMP/repo
python3 - "$TMP/list.mbox" "$R" <<'EOF' || fail "the fixture could not be built"
import email.header, email.utils, os, subprocess, sys
mbox, repo = sys.argv[1], sys.argv[2]
subs = ["autoconf: don't build X by default",
        'net: fix "foo" handling (again)',
        "docs: [RFC] brackets [in] subject",
        "i18n: Übersetzung für café",
        "mm/slab: a+b -c OR d AND e NOT f",
        "x86: fix s:colon and f:prefix words"]
body = ("Rework the frobnicator so that it handles the empty list, the "
        "error path and the retry loop the way the callers expect.\n")
lines = ["line %d of the frobnicator" % k for k in range(12)]

def diff(path, new):
    h = "diff --git a/%s b/%s\nindex 1111111..2222222 100644\n--- a/%s\n+++ b/%s\n" % (path, path, path, path)
    return h + "@@ -1 +1,%d @@\n-old\n" % len(new) + "".join("+%s\n" % l for l in new)

out = open(mbox, "w")
def mail(i, subject, text, path, new):
    s = "[PATCH] " + subject
    if any(ord(c) > 127 for c in s):
        s = email.header.Header(s, "utf-8").encode()
    out.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
              "From: A U Thor <author@example.org>\nTo: t@example.org\n"
              "Subject: %s\nDate: %s\nMessage-ID: <m%d@example.org>\n"
              "MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
              "Content-Transfer-Encoding: 8bit\n\n%s---\n%s\n"
              % (s, email.utils.formatdate(1700000000 + i * 3600), i, text,
                 diff(path, new)))
for i, s in enumerate(subs):
    mail(i, s, "body %d\n" % i, "src/file%d.c" % i, ["new %d" % i])
mail(6, "frob: rework the frobnicator", body, "src/frob.c", lines)
# an unrelated patch, the newest: the feed's first entry, to probe
# patchid: with
mail(7, "misc: keep the probe busy", "x\n", "src/other.c", ["other"])
out.close()

os.makedirs(os.path.join(repo, "src"))
run = lambda *a, **k: subprocess.run(a, cwd=repo, check=True, **k)
run("git", "init", "-q", "-b", "main")
for i in range(6):
    open(os.path.join(repo, "src/file%d.c" % i), "w").write("old\n")
for f in ("frob.c", "never.c"):
    open(os.path.join(repo, "src", f), "w").write("old\n")
env = dict(os.environ, GIT_AUTHOR_NAME="A U Thor",
           GIT_AUTHOR_EMAIL="author@example.org", GIT_COMMITTER_NAME="C",
           GIT_COMMITTER_EMAIL="c@example.org",
           GIT_AUTHOR_DATE="1699990000 +0000",
           GIT_COMMITTER_DATE="1699990000 +0000")
run("git", "add", ".")
run("git", "commit", "-qm", "base", env=env)
def commit(i, path, text, msg):
    open(os.path.join(repo, path), "w").write(text)
    run("git", "add", ".")
    env["GIT_AUTHOR_DATE"] = "%d +0000" % (1700000000 + i * 3600 + 7)
    env["GIT_COMMITTER_DATE"] = "%d +0000" % (1700100000 + i)
    run("git", "commit", "-qm", msg, env=env)
# edited on the way in: another line than the mail's, another author date
for i, s in enumerate(subs):
    commit(i, "src/file%d.c" % i, "new %d, edited\n" % i, s)
# posted under another subject, one line of twelve changed
commit(6, "src/frob.c", "".join(l + "\n" for l in lines[:11]) + "edited\n",
       "frob: make the frobnicator robust\n\n" + body)
commit(7, "src/never.c", "never\n", "never: a change nobody saw")
EOF
C=$(git -C "$R" rev-list --reverse main~8..main)
FROB=$(git -C "$R" rev-parse main~1)
NEVER=$(git -C "$R" rev-parse main)

summary() {
	python3 -c '
import json, sys
for c in json.load(sys.stdin):
    meth = sorted(set(p["method"] for p in c["postings"] if p["counts"]))
    print(c["commit"][:12], "posted" if c["posted"] else c.get("category"),
          ",".join(meth) or "-", c.get("why") or "-")
'
}
short() { echo "$1" | cut -c1-12; }

trap 'pi_stop; rm -rf "$TMP"' EXIT
for level in full medium basic; do
	pi_stop
	PI_LEVEL=$level
	export PI_LEVEL
	pi_setup "$TMP/pi-$level"
	pi_init t
	pi_import t "$TMP/list.mbox"
	pi_start
	run "level $level" "$ONLIST" --db "$TMP/$level.db" lookup --json \
		--remote "$PI_URL/t/" --repo "$R" --pace 0 $C
	summary <"$TMP/out" >"$TMP/$level.txt" || { bad "level $level: no JSON"; cat "$TMP/err"; continue; }
	cat "$TMP/$level.txt"
	first=$(sed -n 's/^lookup: \([0-9]*\) requests* to .*/\1/p' "$TMP/err")
	echo "  level $level: $first requests for 8 commits"
	if [ $level = basic ]; then
		expect_rc "level basic: never posted is unknown" 3
		grep -q "^$(short "$NEVER") unknown - .*cannot search" "$TMP/basic.txt" ||
			bad "basic: the unposted commit is not unknown with the reason"
		grep -q "never_posted" "$TMP/basic.txt" &&
			bad "basic: a commit is never_posted though nothing could be searched"
		run "basic text" "$ONLIST" --db "$TMP/$level.db" lookup "$NEVER"
		grep -q "unknown: not every tier could be asked: .*index level basic" "$TMP/out" ||
			bad "basic: the text does not say why: $(cat "$TMP/out")"
		# unposted says the same: unknown for the server's reason,
		# not "outside the archive"
		run "basic unposted" "$ONLIST" --db "$TMP/$level.db" unposted --include-unknown
		grep -q "outside the archive" "$TMP/out" &&
			bad "basic unposted: a commit asked remotely is 'outside the archive': $(cat "$TMP/out")"
		grep -q "commits unknown: a server could not be asked every tier" "$TMP/out" &&
		grep -q "^$(short "$NEVER") .*(unknown: .*index level basic" "$TMP/out" ||
			bad "basic unposted: the text does not say why: $(cat "$TMP/out")"
		run "basic unposted json" "$ONLIST" --db "$TMP/$level.db" unposted --include-unknown --json
		python3 -c 'import json, sys
c = [c for c in json.load(open(sys.argv[2])) if c["commit"] == sys.argv[1]]
sys.exit(not (c and c[0]["category"] == "unknown" and
              "index level basic" in (c[0].get("why") or "")))' "$NEVER" "$TMP/out" ||
			bad "basic unposted --json: no why: $(cat "$TMP/out")"
		continue
	fi
	expect_rc "level $level" 1	# one commit never posted
	for c in $C; do
		case $c in
		"$NEVER") want="never_posted -" ;;
		"$FROB") want="posted fuzzy" ;;
		*) want="posted subject" ;;
		esac
		grep -q "^$(short "$c") $want " "$TMP/$level.txt" ||
			bad "level $level: $(short "$c") is not '$want': $(grep "^$(short "$c")" "$TMP/$level.txt")"
	done
	[ "$first" -le 64 ] || bad "level $level: $first requests for 8 commits"
	run "level $level again" "$ONLIST" --db "$TMP/$level.db" lookup --json \
		--remote "$PI_URL/t/" --repo "$R" --pace 0 $C
	summary <"$TMP/out" >"$TMP/$level-again.txt"
	same_output "level $level repeat" "$TMP/$level.txt" "$TMP/$level-again.txt" ||
		bad "level $level: a repeat says otherwise"
	grep -q "^lookup: 0 requests" "$TMP/err" || bad "level $level repeat: $(cat "$TMP/err")"
	if [ $level = medium ]; then
		grep -q "cannot search by phrase" "$TMP/err" ||
			bad "medium: no note that subjects are searched word by word"
	fi
done

# a mistyped inbox: an error that names the inbox there is, nothing judged
run "mistyped inbox" "$ONLIST" --db "$TMP/typo.db" lookup --json --remote "$PI_URL/tt/" \
	--repo "$R" --pace 0 $C
expect_rc "mistyped inbox" 2
grep -q "no inbox at .*/tt/.*lists t" "$TMP/err" || bad "mistyped inbox: $(cat "$TMP/err")"
grep -q "posted" "$TMP/out" && bad "mistyped inbox: commits were judged: $(cat "$TMP/out")"
[ $nfail -eq 0 ] && echo "lookup --remote probe: all cases passed"
exit $nfail
