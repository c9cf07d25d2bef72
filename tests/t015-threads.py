#!/usr/bin/env python3
"""t015-threads.py OUTDIR: the mails of tests/t015-threads.sh and what onlist
must make of them.

Patch mails come from `git format-patch` on a small repository (OUTDIR/repo,
built here); replies, pull requests and broken threading are written by
hand.  OUTDIR/expect holds the answers, decided here, line by line:

  class MSGID CLASS            message class
  series MSGID HEAD            the series head (cover letter or 1st patch)
  topic MSGID LABEL            same LABEL <=> same topic (versions of one work)
  review SHA KEY ADDR          a review trailer lookup must show for commit SHA
  noreview SHA ADDR            an address that must not appear as review
  replies MSGID N              replies by others than the author
  parent MSGID PARENT          thread parent ("-" for a root)
  pull MSGID URL REF TIP
"""
import os, subprocess, sys, email.utils

out = sys.argv[1]
repo = os.path.join(out, "repo")
env = dict(os.environ, GIT_AUTHOR_NAME="Ann Author", GIT_AUTHOR_EMAIL="ann@example.org",
           GIT_COMMITTER_NAME="Ann Author", GIT_COMMITTER_EMAIL="ann@example.org",
           GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null")

def git(*args, **kw):
    return subprocess.run(["git", "-C", repo] + list(args), env=env, check=True,
                          stdout=subprocess.PIPE, **kw).stdout.decode()

os.makedirs(repo)
git("init", "-q")
shas = []
for i in range(7):
    with open(os.path.join(repo, "f%d.c" % i), "w") as f:
        f.write("int f%d(void)\n{\n\treturn %d;\n}\n" % (i, i))
    git("add", "-A")
    env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = "2013-06-0%d 10:00:00 +0000" % (i + 1)
    git("commit", "-q", "-m", "part %d: add f%d" % (i, i), "-m",
        "Signed-off-by: Ann Author <ann@example.org>")
    shas.append(git("rev-parse", "HEAD").strip())

def fmt(args, outdir):
    """format-patch into outdir; Message-IDs made unique per run (git
    builds them from the commit and the current second, so two versions
    formatted in the same second would share them)."""
    d = os.path.join(out, outdir)
    git("format-patch", "-q", "-o", d, *args)
    mails = []
    for name in sorted(os.listdir(d)):
        raw = open(os.path.join(d, name), "rb").read()
        mails.append(raw.replace(b".git.ann@example.org>",
                                 b".%s.git.ann@example.org>" % outdir.encode()))
    return mails

def msgid(raw):
    for line in raw.split(b"\n"):
        if line.lower().startswith(b"message-id:"):
            return line.split(b":", 1)[1].strip().strip(b"<>").decode()
    raise SystemExit("no Message-ID")

mbox = []
expect = []
def add(raw):
    if not raw.startswith(b"From "):
        raw = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + raw
    if not raw.endswith(b"\n"):
        raw += b"\n"
    mbox.append(raw)

seq = [0]
def mail(frm, subject, body, irt=None, refs=None, mid=None, date=None):
    seq[0] += 1
    mid = mid or "hand-%d@example.org" % seq[0]
    h = ["From: %s" % frm, "Subject: %s" % subject, "Message-ID: <%s>" % mid,
         "Date: %s" % (date or "Tue, 11 Jun 2013 %02d:%02d:00 +0000" % (seq[0] // 60, seq[0] % 60))]
    if irt:
        h.append("In-Reply-To: <%s>" % irt)
    if refs:
        h.append("References: %s" % " ".join("<%s>" % r for r in refs))
    add(("\n".join(h) + "\n\n" + body).encode())
    return mid

# ---- series A: v1 (shallow thread) and v2 (deep thread), same cover subject
env["GIT_COMMITTER_DATE"] = "2013-06-10 10:00:00 +0000"
a1 = fmt(["--cover-letter", "--thread=shallow", "--subject-prefix=PATCH",
          "HEAD~6..HEAD~3"], "a1")
a2 = fmt(["--cover-letter", "--thread=deep", "-v2", "HEAD~6..HEAD~3"], "a2")
for m in a1 + a2:
    add(m.replace(b"*** SUBJECT HERE ***", b"store: three related changes"))
a1id = [msgid(m) for m in a1]
a2id = [msgid(m) for m in a2]
for i, m in enumerate(a1id):
    expect.append("class %s %s" % (m, "cover" if i == 0 else "patch"))
    expect.append("series %s %s" % (m, a1id[0]))
    expect.append("topic %s A" % m)
    expect.append("parent %s %s" % (m, "-" if i == 0 else a1id[0]))
for i, m in enumerate(a2id):
    expect.append("series %s %s" % (m, a2id[0]))
    expect.append("topic %s A" % m)
    expect.append("parent %s %s" % (m, "-" if i == 0 else a2id[i - 1]))

ann = "Ann Author <ann@example.org>"
bob, carol, dave = ("Bob Reviewer <bob@example.org>", "Carol Acker <carol@example.org>",
                    "Dave Tester <dave@example.org>")
# Replies to v2: Bob reviews patch 2; Carol acks the whole series on the cover;
# Ann (the author) "reviews" patch 1 -- not review; Dave quotes a tag
# (not his) and adds Tested-by deeper down under Bob's reply.
r_bob = mail(bob, "Re: [PATCH v2 2/3] part 2: add f2",
             "> +\treturn 1;\n\nLooks right.\n\nReviewed-by: Bob Reviewer <bob@example.org>\n",
             irt=a2id[2], refs=a2id[:3])
r_carol = mail(carol, "Re: [PATCH v2 0/3] store: three related changes",
               "For the series:\nAcked-by: Carol Acker <carol@example.org>\n",
               irt=a2id[0], refs=[a2id[0]])
mail(ann, "Re: [PATCH v2 1/3] part 1: add f1",
     "Self review.\nReviewed-by: Ann Author <ann@example.org>\n", irt=a2id[1], refs=a2id[:2])
r_dave = mail(dave, "Re: [PATCH v2 2/3] part 2: add f2",
              "> Reviewed-by: Eve Quoted <eve@example.org>\n> Looks right.\n\n"
              "  Tested-by: Dave Tester <dave@example.org>\n\n-- \nDave\nAcked-by: Sig Nature <sig@example.org>\n",
              irt=r_bob, refs=a2id[:3] + [r_bob])
expect.append("parent %s %s" % (r_dave, r_bob))
expect.append("class %s reply" % r_bob)
sha1 = shas[2]	# patch 2/3
expect.append("review %s Reviewed-by bob@example.org" % sha1)
expect.append("review %s Tested-by dave@example.org" % sha1)
expect.append("review %s Acked-by carol@example.org" % sha1)
expect.append("noreview %s eve@example.org" % sha1)
expect.append("noreview %s sig@example.org" % sha1)
expect.append("review %s Acked-by carol@example.org" % shas[1])
expect.append("noreview %s ann@example.org" % shas[1])
expect.append("replies %s 3" % a2id[2])	# bob, dave, carol (cover)
expect.append("replies %s 1" % a2id[1])	# carol; ann's own does not count
expect.append("replies %s 0" % a1id[1])

# A reply whose parent never reached the archive: hangs under the last
# stored References entry.
r_orphan = mail(bob, "Re: [PATCH v2 3/3] part 3: add f3", "Hm.\n",
                irt="lost-parent@example.org",
                refs=[a2id[0], a2id[3], "lost-parent@example.org"])
expect.append("parent %s %s" % (r_orphan, a2id[3]))
# Two mails that name each other: a loop, which must not hang anything.
mail(carol, "Re: loop one", "x\n", irt="loop-two@example.org", mid="loop-one@example.org")
mail(carol, "Re: loop two", "y\n", irt="loop-one@example.org", mid="loop-two@example.org")

# ---- series B: two versions with different cover subjects, one b4 change-id
env["GIT_COMMITTER_DATE"] = "2013-06-12 10:00:00 +0000"
b1 = fmt(["--cover-letter", "--thread", "HEAD~3..HEAD~1"], "b1")
b2 = fmt(["--cover-letter", "--thread", "-v2", "HEAD~3..HEAD~1"], "b2")
for m, subj in ((b1, b"net: first try"), (b2, b"net: second try, renamed")):
    m[0] = m[0].replace(b"*** SUBJECT HERE ***", subj).replace(
        b"*** BLURB HERE ***", b"Blurb.\n\n---\nbase-commit: %s\nchange-id: 20130612-net-tries-0123abcd" % shas[2].encode())
    for x in m:
        add(x)
for m in b1 + b2:
    expect.append("topic %s B" % msgid(m))
expect.append("series %s %s" % (msgid(b2[2]), msgid(b2[0])))

# ---- series C: threading broken; patches found by sender, length, date
c = []
diff = git("diff", shas[5], shas[6])
for i, (frm, part) in enumerate(((dave, "1/2"), (dave, "2/2"))):
    c.append(mail(frm, "[PATCH %s] broken thread %d" % (part, i),
                  "Change %d.\n\nSigned-off-by: %s\n---\n%s" % (i, frm, diff),
                  date="Wed, 12 Jun 2013 12:0%d:00 +0000" % i))
# same shape, other sender, same time: not of series C
c_other = mail(carol, "[PATCH 2/2] someone else", "x\n---\n" + diff,
               date="Wed, 12 Jun 2013 12:01:30 +0000")
for m in c:
    expect.append("class %s patch" % m)
    expect.append("series %s %s" % (m, c[0]))
    expect.append("topic %s C" % m)
expect.append("series %s %s" % (c_other, c_other))

# ---- a pull request, and a reply to it
pull = mail("Mara Maintainer <mara@example.org>", "[GIT PULL] fixes for 3.11",
            "Hi Linus,\n\nThe following changes since commit %s:\n\n  part 0 (2013-06-01)\n\n"
            "are available in the Git repository at:\n\n"
            "  git://git.example.org/pub/scm/fixes.git tags/fixes-3.11\n\n"
            "for you to fetch changes up to %s:\n\n  part 5 (2013-06-06)\n\n"
            "----------------------------------------------------------------\n"
            "%s" % (shas[0], shas[5], git("diff", shas[4], shas[5])))
expect.append("class %s pull" % pull)
expect.append("pull %s git://git.example.org/pub/scm/fixes.git tags/fixes-3.11 %s" % (pull, shas[5]))
r_pull = mail("Linus <linus@example.org>", "Re: [GIT PULL] fixes for 3.11",
              "> are available in the Git repository at:\n>\n>   git://evil.example.org/x.git\n\nPulled.\n",
              irt=pull)
expect.append("class %s reply" % r_pull)

open(os.path.join(out, "list.mbox"), "wb").write(b"".join(mbox))
open(os.path.join(out, "expect"), "w").write("\n".join(expect) + "\n")
open(os.path.join(out, "shas"), "w").write("\n".join(shas) + "\n")
