#!/usr/bin/env python3
"""t079-review-unknown.py OUTDIR: the repository and list archives of
tests/t079-review-unknown.sh: commits whose git message carries a review
tag, posted to lists whose archives end at different times.

OUTDIR/repo          git repository, the applied commits base..main, all
                     committed 2021-03-10 12:00 UTC (the f-* one at 12:00
                     too), one file per case
OUTDIR/alpha.mbox    list alpha: ends 2021-03-02, before the commits landed
OUTDIR/beta.mbox     list beta: goes on to 2021-06-01
OUTDIR/gamma.mbox    list gamma: ends 2021-03-10 18:00, six hours after
OUTDIR/late.mbox     alpha again: one mail of 2021-06-01 (imported later)
OUTDIR/cases         "CASE SHA"

Patch mails are `git format-patch` of the commits, their review trailers
left out (the maintainer adds them when applying).  Nothing here runs
onlist.
"""
import os, subprocess, sys

out = sys.argv[1]
repo = os.path.join(out, "repo")
ann = "Ann Author <ann@example.org>"
env = dict(os.environ, GIT_AUTHOR_NAME="Ann Author", GIT_AUTHOR_EMAIL="ann@example.org",
           GIT_COMMITTER_NAME="Mara Maintainer", GIT_COMMITTER_EMAIL="mara@example.org",
           GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", TZ="UTC", LC_ALL="C")

def git(*args):
    return subprocess.run(["git", "-C", repo] + list(args), env=env, check=True,
                          stdout=subprocess.PIPE).stdout.decode()

cases = []
def case(name, trailers, date="2021-03-10 12:00:00 +0000"):
    path = name + ".c"
    with open(os.path.join(repo, path), "w") as f:
        f.write("int %s(void) { return 0; }\n" % name.replace("-", "_"))
    git("add", "-A")
    e = dict(env, GIT_AUTHOR_DATE="2021-02-28 10:00:00 +0000", GIT_COMMITTER_DATE=date)
    msg = "%s: add the helper\n\nThe %s case.\n\n%s\n" % (
        name, name, "\n".join(list(trailers) + ["Signed-off-by: " + ann]))
    subprocess.run(["git", "-C", repo, "commit", "-q", "-F", "-"], input=msg.encode(),
                   env=e, check=True)
    sha = git("rev-parse", "HEAD").strip()
    cases.append((name, sha))
    return sha

os.makedirs(repo)
git("init", "-q", "-b", "main")
with open(os.path.join(repo, "README"), "w") as f:
    f.write("review cases\n")
git("add", "-A")
subprocess.run(["git", "-C", repo, "commit", "-q", "-m", "base"], check=True,
               env=dict(env, GIT_AUTHOR_DATE="2021-01-01 00:00:00 +0000",
                        GIT_COMMITTER_DATE="2021-01-01 00:00:00 +0000"))
git("tag", "base")

carol = "Carol Acker <carol@example.org>"
dave = "Dave Tester <dave@example.org>"
ivan = "Ivan Inquirer <ivan@example.org>"
s = {}
s["late-ack"] = case("late-ack", ["Acked-by: " + carol])
s["late-disc"] = case("late-disc", ["Reviewed-by: " + dave])
s["off-list"] = case("off-list", ["Acked-by: " + carol])
s["cross"] = case("cross", ["Acked-by: " + carol])
s["on-list"] = case("on-list", ["Acked-by: " + carol])
s["own-ack"] = case("own-ack", ["Acked-by: " + ann])
s["bot-test"] = case("bot-test", ["Tested-by: syzbot+1234@syzkaller.appspotmail.com"])
s["hours"] = case("hours", ["Acked-by: " + carol])

boxes = {"alpha": [], "beta": [], "gamma": [], "late": []}

def add(lists, frm, subject, mid, date, body, irt=None):
    h = ["From: %s" % frm, "Subject: %s" % subject, "Message-ID: <%s>" % mid,
         "Date: %s" % date, "To: %s@lists.example.org" % lists[0]]
    if irt:
        h += ["In-Reply-To: <%s>" % irt, "References: <%s>" % irt]
    raw = ("From mboxrd@z Thu Jan  1 00:00:00 1970\n" + "\n".join(h) + "\n\n" +
           body).encode()
    if not raw.endswith(b"\n"):
        raw += b"\n"
    for l in lists:
        boxes[l].append(raw)

def patch(name, lists, date="Mon, 1 Mar 2021 10:00:00 +0000"):
    mail = git("format-patch", "--stdout", "-1", s[name])
    body = mail.split("\n\n", 1)[1]
    body = "\n".join(l for l in body.split("\n")
                     if not l.startswith(("Reviewed-by:", "Acked-by:", "Tested-by:")))
    mid = name + "@example.org"
    add(lists, ann, "[PATCH] %s: add the helper" % name, mid, date, body)
    return mid

patch("late-ack", ["alpha"])
p = patch("late-disc", ["alpha"])
add(["alpha"], ivan, "Re: [PATCH] late-disc: add the helper", "late-disc-q@example.org",
    "Mon, 1 Mar 2021 11:00:00 +0000", "Why a helper?\n", irt=p)
patch("off-list", ["beta"])
patch("cross", ["alpha", "beta"])
p = patch("on-list", ["alpha"])
add(["alpha"], carol, "Re: [PATCH] on-list: add the helper", "on-list-r@example.org",
    "Mon, 1 Mar 2021 12:00:00 +0000", "Acked-by: %s\n" % carol, irt=p)
patch("own-ack", ["alpha"])
patch("bot-test", ["alpha"])
patch("hours", ["gamma"])
# where each archive ends
add(["alpha"], ivan, "alpha: the last mail", "alpha-end@example.org",
    "Tue, 2 Mar 2021 09:00:00 +0000", "Nothing else.\n")
add(["beta"], ivan, "beta: a later mail", "beta-end@example.org",
    "Tue, 1 Jun 2021 09:00:00 +0000", "Later.\n")
add(["gamma"], ivan, "gamma: the last mail", "gamma-end@example.org",
    "Wed, 10 Mar 2021 18:00:00 +0000", "Nothing else.\n")
add(["late"], ivan, "alpha: months later", "alpha-late@example.org",
    "Tue, 1 Jun 2021 10:00:00 +0000", "Later.\n")

for name, raws in boxes.items():
    open(os.path.join(out, name + ".mbox"), "wb").write(b"".join(raws))
open(os.path.join(out, "cases"), "w").write("".join("%s %s\n" % c for c in cases))
