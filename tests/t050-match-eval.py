#!/usr/bin/env python3
"""t050-match-eval.py OUTDIR [SEED]: a labelled evaluation set for matching.

Builds OUTDIR/repo (a mainline of topic branches merged with --no-ff, a few
commits applied directly) and the lists that saw it: OUTDIR/eval.mbox (the
project's list) and OUTDIR/stable.mbox (a stable list: cross-posts and
backports).  Every commit gets a fate, chosen here, and OUTDIR/labels.txt
says, per commit, "<sha> <fate> <tier>" where tier is the matching tier that
must find it, or "-" when the commit must come out unposted:

  exact      posted as format-patch wrote it               patch-id
  reworded   posted; changelog and subject reworded on     patch-id
             apply (patch-id does not hash the message)
  link       posted; the commit carries Link: to the mail  link
  alg        posted as made with --histogram/--patience,   patch-id-alg
             and git's myers diff hashes differently
  mangled    posted; the mailer sent a blank context line  repaired
             as an empty line
  quilt      posted as a quilt patch (Index:, -p1 paths)   repaired
  drift      posted against an older tree: context lines   subject
             differ (same subject, same author)
  typo       posted; the maintainer fixed an added line    subject
  dropped    posted with a hunk the maintainer dropped     subject
  amdate     posted; the maintainer rewrote every added    author-date
             line and the subject, git am kept the mail's
             Date as the author date
  samesubj   posted; every added line rewritten, the       subject
             subject kept
  announce   never posted; the author mailed the same      -
             subject without a diff (an announcement)
  twosubj    never posted; two other patches by the author -
             went out under its subject
  resubj     never posted; the author replied "Re: <its     -
             subject>" with a sketch of another change
  rewritten  posted; a changed line fixed AND the subject  fuzzy
             reworded (found by author alone)
  stablecc   posted, cross-posted to stable@               patch-id
  alias      posted from the author's old address (tied to  fuzzy
             the new one by .mailmap), a line and the
             subject changed: only the mailmap finds it
  never      never posted                                  -
  linkbug    never posted; its Link: names a bug report    -
  linkother  never posted; its Link: names another         -
             project's patch on the list (other files,
             another subject and author)
  linkcover  posted as a cover letter only, which its       link
             Link: names
  linkreword posted and linked; the subject reworded on     link
             apply (the files tell it is this patch)
  linkmoved  posted and linked; the maintainer put the      link
             change in another file (the subject tells)
  echo       only a tip-bot notice after the merge         -
  late       posted, but a week after the merge            -
  backport   only a stable backport ("commit X upstream")  -
  merged     only mm's "[merged mm-stable] ... removed from  -
             -mm tree" notice (a subject rule)
  cibot      only a CI bot's copy, before the merge: an echo -
             by the rule t050-match-eval.sh passes (--rules)

git decides what is "the same" at every step: alg commits are kept only when
git patch-id differs between the algorithms, mangled/quilt only when git's
patch-id of the damaged mail differs from the commit's.
"""
import os, random, subprocess, sys

out = sys.argv[1]
rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 5050)
repo = os.path.join(out, "repo")
env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null",
           LC_ALL="C", TZ="UTC", GIT_AUTHOR_NAME="Mara",
           GIT_AUTHOR_EMAIL="mara@example.org", GIT_COMMITTER_NAME="Mara",
           GIT_COMMITTER_EMAIL="mara@example.org")

def git(*args, inp=None, extra=None):
    e = dict(env, **(extra or {}))
    r = subprocess.run(["git", "-C", repo] + list(args), env=e, input=inp,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode:
        sys.exit("git %s: %s%s" % (" ".join(args), r.stdout.decode(), r.stderr.decode()))
    return r.stdout.decode("utf-8", "replace")

def patch_id(diff_text):
    r = subprocess.run(["git", "patch-id", "--stable"], input=diff_text.encode(),
                       stdout=subprocess.PIPE, env=env)
    return r.stdout.decode().split(" ")[0] if r.stdout else ""

AUTHORS = [("Ann Author", "ann@example.org"), ("Bob Builder", "bob@example.org"),
           ("Chen Wei", "chen@example.org"), ("Dana Dev", "dana@example.org"),
           ("Emil Eng", "emil@example.org")]
WORDS = ("buffer cache lookup header offset retry limit timeout queue lock "
         "page inode socket frame entry table state count index flag").split()

os.makedirs(repo)
git("init", "-q", "-b", "main")
NFILES = 14
files = {}
for f in range(NFILES):
    lines = []
    for k in range(12):
        lines += ["int f%d_%d(int x)" % (f, k), "{",
                  "\tint v = x * %d;" % (k + 1), "",
                  "\tif (v > %d)" % (f * 100 + k), "\t\treturn v - %d;" % k,
                  "\treturn v;", "}", ""]
    files["src/m%d.c" % f] = lines

def write_all():
    for p, lines in files.items():
        os.makedirs(os.path.join(repo, os.path.dirname(p)), exist_ok=True)
        open(os.path.join(repo, p), "w").write("\n".join(lines) + "\n")

T0 = 1370000000       # June 2013
def at(t):
    d = "@%d +0000" % t
    return {"GIT_AUTHOR_DATE": d, "GIT_COMMITTER_DATE": d}

write_all()
# everyone once wrote from an older address
open(os.path.join(repo, ".mailmap"), "w").write("".join(
    "%s <%s> <%s>\n" % (n, e, e.replace("@example.org", "@old.example.net"))
    for n, e in AUTHORS))
git("add", "-A")
git("commit", "-q", "-m", "Initial import", extra=dict(at(T0), GIT_AUTHOR_NAME="Mara",
    GIT_AUTHOR_EMAIL="mara@example.org", GIT_COMMITTER_NAME="Mara",
    GIT_COMMITTER_EMAIL="mara@example.org"))

serial = [0]
def edit(nhunks):
    """change nhunks places of one file; returns the path"""
    p = "src/m%d.c" % rnd.randrange(NFILES)
    lines = files[p]
    funcs = rnd.sample(range(12), nhunks)
    for k in funcs:
        serial[0] += 1
        base = k * 9
        w = rnd.choice(WORDS)
        # change the 'return v - k' line and the 'if' bound: a blank line
        # (index base+3) is context above
        lines[base + 5] = "\t\treturn v - %d; /* %s %d */" % (k, w, serial[0])
        if rnd.random() < 0.5:
            lines[base + 4] = "\tif (v > %d && %s_%d)" % (k, w, serial[0])
    return p

def edit_alg():
    """swap two neighbouring functions and change one: myers and
    histogram/patience align the moved block differently (git decides
    whether they did, below)"""
    p = "src/m%d.c" % rnd.randrange(NFILES)
    lines = files[p]
    k = rnd.randrange(10)
    serial[0] += 1
    a, b = lines[k * 9:(k + 1) * 9], lines[(k + 1) * 9:(k + 2) * 9]
    files[p] = lines[:k * 9] + b + a + lines[(k + 2) * 9:]
    files[p][k * 9 + 5] = "\t\treturn v - %d; /* moved */" % serial[0]
    return p

labels = []
mails = []          # (date, raw bytes)
stable = []
TIERS = {"exact": "patch-id", "reworded": "patch-id", "link": "link",
         "alg": "patch-id-alg", "mangled": "repaired", "quilt": "repaired",
         "drift": "subject", "typo": "subject", "dropped": "subject",
         "amdate": "author-date", "samesubj": "subject", "announce": "-", "twosubj": "-", "resubj": "-",
         "rewritten": "fuzzy", "stablecc": "patch-id", "alias": "fuzzy", "never": "-",
         "echo": "-", "late": "-", "backport": "-", "linkbug": "-", "merged": "-", "cibot": "-",
         "linkother": "-", "linkcover": "link", "linkreword": "link", "linkmoved": "link"}
FATES = (["exact"] * 14 + ["reworded"] * 3 + ["link"] * 4 + ["alg"] * 5 +
         ["mangled"] * 5 + ["quilt"] * 4 + ["drift"] * 6 + ["typo"] * 6 +
         ["dropped"] * 5 + ["rewritten"] * 4 + ["stablecc"] * 3 + ["alias"] * 3 +
         ["never"] * 12 + ["linkbug"] * 2 + ["echo"] * 4 + ["late"] * 4 + ["backport"] * 4 + ["merged"] * 2 + ["cibot"] * 2 +
         ["amdate"] * 4 + ["samesubj"] * 4 + ["announce"] * 3 + ["twosubj"] * 3 +
         ["resubj"] * 2 + ["linkother"] * 3 + ["linkcover"] + ["linkreword"] * 2 +
         ["linkmoved"])

def mid():
    serial[0] += 1
    return "eval-%d.%d@example.org" % (serial[0], rnd.randrange(10**6))

def mail_of(sha, msgid, date, author, algo=None):
    args = ["format-patch", "-1", "--stdout", "--no-signature"]
    if algo:
        args.append("--diff-algorithm=" + algo)
    raw = git(*(args + [sha]))
    head, body = raw.split("\n\n", 1)
    hl = [l for l in head.split("\n")[1:]
          if not l.startswith(("Date:", "From:", "Message-Id:", "Message-ID:"))]
    hl += ["From: %s <%s>" % author, "Message-ID: <%s>" % msgid,
           "Date: %s" % subprocess.run(["date", "-R", "-u", "-d", "@%d" % date],
                                       stdout=subprocess.PIPE).stdout.decode().strip()]
    return "\n".join(hl), body

def hunks_of(body):
    """split the diff part of a mail body into (prefix, [hunk line lists])"""
    return body.split("\n")

def add_mail(date, head, body, where=None):
    raw = ("From mboxrd@z Thu Jan  1 00:00:00 1970\n" + head + "\n\n" + body)
    if not raw.endswith("\n"):
        raw += "\n"
    (where if where is not None else mails).append((date, raw))

def rfc2822(t):
    return subprocess.run(["date", "-R", "-u", "-d", "@%d" % t],
                          stdout=subprocess.PIPE).stdout.decode().strip()

def other_diff(k):
    """a patch to a file the commit does not touch"""
    serial[0] += 1
    return ("Another change under the same subject.\n\n---\n"
            "diff --git a/src/other%d.c b/src/other%d.c\n"
            "new file mode 100644\n"
            "--- /dev/null\n"
            "+++ b/src/other%d.c\n"
            "@@ -0,0 +1,2 @@\n"
            "+int other_%d_%d;\n"
            "+int other_%d_%d_b;\n" % ((serial[0],) * 3 + (serial[0], k) * 2))

t = T0 + 86400
plan = FATES[:]
rnd.shuffle(plan)
topics = [plan[i:i + 5] for i in range(0, len(plan), 5)]
for ti, fates in enumerate(topics):
    direct = ti % 6 == 5      # some commits go to main directly
    if not direct:
        git("checkout", "-q", "-b", "topic%d" % ti, "main")
    made = []
    for fate in fates:
        author = rnd.choice(AUTHORS)
        t += 3600 * rnd.randrange(2, 20)
        for attempt in range(20):
            saved = {p: l[:] for p, l in files.items()}
            if fate == "alg":
                edit_alg()
            else:
                edit(3 if fate == "dropped" else rnd.choice((1, 2)))
            write_all()
            if fate != "alg":
                break
            d = {a: patch_id(git("diff", "--diff-algorithm=" + a))
                 for a in ("myers", "histogram", "patience")}
            if d["histogram"] != d["myers"] or d["patience"] != d["myers"]:
                algo = "histogram" if d["histogram"] != d["myers"] else "patience"
                break
            files.clear()
            files.update(saved)
            write_all()
        else:
            fate = "exact"    # git found no difference: plain posting
            edit(1)
            write_all()
        w = rnd.choice(WORDS)
        subj = "m: %s the %s path %d" % (rnd.choice(("fix", "tighten", "rework")), w, serial[0])
        msgid = mid()
        msg = "%s\n\nThe %s %s was wrong in one place.\n\nSigned-off-by: %s <%s>\n" % (
            subj, w, rnd.choice(WORDS), author[0], author[1])
        if fate.startswith("link"):
            msg += "Link: https://lore.kernel.org/r/%s\n" % msgid
        git("add", "-A")
        git("commit", "-q", "-F", "-", inp=msg.encode(), extra=dict(at(t),
            GIT_AUTHOR_NAME=author[0], GIT_AUTHOR_EMAIL=author[1],
            GIT_COMMITTER_NAME="Mara", GIT_COMMITTER_EMAIL="mara@example.org"))
        sha = git("rev-parse", "HEAD").strip()
        made.append((sha, fate, msgid, author, t, algo if fate == "alg" else None))
    merge_t = t + 86400 * 2
    if not direct:
        git("checkout", "-q", "main")
        git("merge", "-q", "--no-ff", "-m", "Merge branch 'topic%d'" % ti,
            "topic%d" % ti, extra=dict(at(merge_t), GIT_COMMITTER_NAME="Mara",
                                       GIT_COMMITTER_EMAIL="mara@example.org"))
    else:
        merge_t = None
    for sha, fate, msgid, author, ct, algo in made:
        land = merge_t if merge_t else ct
        post = ct - 3600           # posted before it was committed... 
        if fate in ("never",):
            labels.append((sha, fate)); continue
        subj = git("log", "-1", "--format=%s", sha).strip()   # this commit's
        if fate == "announce":
            add_mail(post, "From: %s <%s>\nSubject: [ANNOUNCE] %s\nMessage-ID: <%s>\n"
                     "Date: %s" % (author[0], author[1], subj, msgid, rfc2822(post)),
                     "This is coming in the next release.  No patch here.\n")
            labels.append((sha, fate)); continue
        if fate == "resubj":
            add_mail(post, "From: %s <%s>\nSubject: Re: [PATCH] %s\n"
                     "Message-ID: <%s>\nDate: %s" % (author[0], author[1], subj, msgid,
                                                     rfc2822(post)),
                     other_diff(0))
            labels.append((sha, fate)); continue
        if fate == "twosubj":
            for k in range(2):
                add_mail(post - 86400 * (k + 1), "From: %s <%s>\nSubject: [PATCH] %s\n"
                         "Message-ID: <%s.%d>\nDate: %s" % (
                             author[0], author[1], subj, msgid, k, rfc2822(post - 86400 * (k + 1))),
                         other_diff(k))
            labels.append((sha, fate)); continue
        if fate == "linkbug":
            add_mail(post - 86400, "From: %s <%s>\nSubject: %s crashes on %s\n"
                     "Message-ID: <%s>\nDate: Mon, 3 Jun 2013 10:00:00 +0000" % (
                         "Rita Reporter", "rita@example.org", subj.split(":")[0],
                         rnd.choice(WORDS), msgid),
                     "It crashes when I do this.  No patch, just the report.\n")
            labels.append((sha, fate)); continue
        if fate == "linkother":
            # a kernel patch the commit follows, on the list both projects
            # share; a right-to-left override in its subject, which
            # --explain must show escaped
            add_mail(post - 86400, "From: Kai Kernel <kai@kernel.example.org>\n"
                     "Subject: [PATCH] io_uring: add the %s opcode =?UTF-8?Q?=E2=80=AEfast?=\n"
                     "Message-ID: <%s>\n"
                     "Date: %s" % (rnd.choice(WORDS), msgid, rfc2822(post - 86400)),
                     other_diff(0))
            labels.append((sha, fate)); continue
        if fate == "linkcover":
            add_mail(post, "From: %s <%s>\nSubject: [PATCH 0/1] m: a few %s fixes\n"
                     "Message-ID: <%s>\nDate: %s" % (author[0], author[1], rnd.choice(WORDS),
                                                    msgid, rfc2822(post)),
                     "One fix; the patch follows.\n")
            labels.append((sha, fate)); continue
        if fate == "linkmoved":
            add_mail(post, "From: %s <%s>\nSubject: [PATCH] %s\nMessage-ID: <%s>\n"
                     "Date: %s" % (author[0], author[1], subj, msgid, rfc2822(post)),
                     other_diff(0))
            labels.append((sha, fate)); continue
        if fate == "amdate":
            post = ct          # git am: the mail's Date is the author date
        head, body = mail_of(sha, msgid, post, author, algo)
        blines = body.split("\n")
        di = next(i for i, l in enumerate(blines) if l.startswith("diff --git"))
        if fate in ("reworded", "linkreword"):
            head = head.replace("Subject: [PATCH] m:", "Subject: [PATCH] m: originally,")
            blines[:di] = ["First wording of the change.", "", "---", ""]
        elif fate == "mangled":
            idx = [i for i in range(di, len(blines)) if blines[i] == " "]
            if not idx:
                fate = "exact"
            else:
                blines[idx[0]] = ""
        elif fate == "quilt":
            nb = []
            for l in blines[di:]:
                if l.startswith("diff --git "):
                    p = l.split(" b/", 1)[1]
                    nb += ["Index: linux/" + p, "=" * 67]
                elif l.startswith("index "):
                    continue
                elif l.startswith("--- a/"):
                    nb.append("--- linux.orig/" + l[6:] + "\t2013-06-01 10:00:00.000000000 +0000")
                elif l.startswith("+++ b/"):
                    nb.append("+++ linux/" + l[6:] + "\t2013-06-01 10:00:00.000000000 +0000")
                else:
                    nb.append(l)
            blines = blines[:di] + nb
        elif fate == "drift":
            for i in range(di, len(blines)):
                if blines[i].startswith("@@"):
                    j = i + 1
                    while j < len(blines) and not blines[j].startswith(" \t"):
                        j += 1
                    if j < len(blines):
                        blines[j] = blines[j] + " /* older tree */"
        elif fate in ("typo", "rewritten", "alias"):
            plus = [i for i in range(di, len(blines))
                    if blines[i].startswith("+") and not blines[i].startswith("+++")]
            blines[plus[-1]] = blines[plus[-1]].replace("*/", "(typo) */")
            if fate in ("rewritten", "alias"):
                head = head.replace("Subject: [PATCH] m:", "Subject: [PATCH] m: first try at")
            if fate == "alias":
                old = author[1].replace("@example.org", "@old.example.net")
                head = "\n".join(l if not l.startswith("From:") else
                                 "From: %s <%s>" % (author[0], old)
                                 for l in head.split("\n"))
        elif fate in ("amdate", "samesubj"):
            # every added line rewritten: no patch-id, no fuzzy score to speak of
            for i in range(di, len(blines)):
                if blines[i].startswith("+") and not blines[i].startswith("+++"):
                    blines[i] = "+\tgoto out; /* rewritten %d */" % i
            if fate == "amdate":
                head = head.replace("Subject: [PATCH] m:", "Subject: [PATCH] m: draft of")
        elif fate == "dropped":
            hs = [i for i in range(di, len(blines)) if blines[i].startswith("@@")]
            # the mail had one hunk more: put a made-up hunk after the last
            blines[-1:-1] = ["@@ -1,1 +1,1 @@", "-int dropped_%d;" % serial[0],
                             "+int dropped_%d; /* the maintainer dropped this */" % serial[0]] \
                if False else []
            # rather: the commit has 3 hunks, the mail only the first two
            if len(hs) >= 3:
                end = hs[2]
                stop = next((i for i in range(end, len(blines))
                             if blines[i].startswith("diff --git")), None)
                blines = blines[:end] + (blines[stop:] if stop else [""])
            else:
                fate = "exact"
        body = "\n".join(blines)
        # git is the oracle: the damaged forms must really hash differently
        if fate in ("mangled", "quilt", "drift", "typo", "dropped", "rewritten", "alias",
                    "amdate", "samesubj"):
            tmp = os.path.join(out, "mi")
            subprocess.run(["git", "mailinfo", "-u", tmp + ".msg", tmp + ".patch"],
                           input=(head + "\n\n" + body).encode(), env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            mail_id = patch_id(open(tmp + ".patch", encoding="utf-8",
                                    errors="replace").read())
            commit_id = patch_id(git("show", "--format=", sha))
            if fate == "quilt":
                pass      # git gives a quilt patch no id at all
            elif mail_id == commit_id:
                fate = "exact"
        if fate == "echo":
            head = head.replace("Subject: [PATCH]", "Subject: [tip: core/urgent]")
            head = "\n".join(l if not l.startswith("From:") else
                             "From: tip-bot2 for %s <tip-bot2@linutronix.de>" % author[0]
                             for l in head.split("\n"))
            head = head.replace("Date: ", "X-Was-Date: ")
            head += "\nDate: " + subprocess.run(["date", "-R", "-u", "-d", "@%d" % (land + 3600)],
                                                stdout=subprocess.PIPE).stdout.decode().strip()
        if fate == "merged":
            head = "\n".join("Subject: [merged mm-stable] m-%d.patch removed from -mm tree" % serial[0]
                             if l.startswith("Subject:") else
                             "From: Andrew Morton <akpm@linux-foundation.org>"
                             if l.startswith("From:") else
                             "Date: " + subprocess.run(["date", "-R", "-u", "-d", "@%d" % (land + 3600)],
                                                       stdout=subprocess.PIPE).stdout.decode().strip()
                             if l.startswith("Date:") else l for l in head.split("\n"))
        if fate == "cibot":
            head = "\n".join("From: CI Bot <ci-bot@example.org>" if l.startswith("From:") else l
                             for l in head.split("\n"))
        if fate == "late":
            head = "\n".join(l if not l.startswith("Date:") else
                             "Date: " + subprocess.run(["date", "-R", "-u", "-d", "@%d" % (land + 7 * 86400)],
                                                       stdout=subprocess.PIPE).stdout.decode().strip()
                             for l in head.split("\n"))
        if fate == "backport":
            head = head.replace("Subject: [PATCH]", "Subject: [PATCH 5.10 %02d/40]" % rnd.randrange(1, 40))
            body = "From: %s <%s>\n\ncommit %s upstream.\n\n%s" % (author[0], author[1], sha, body)
            add_mail(land + 30 * 86400, head, body, stable)
        else:
            add_mail(post, head, body)
            if fate == "stablecc":
                add_mail(post, head, body, stable)
        labels.append((sha, fate))

# direct commits in a history with merges: landed when committed
git("checkout", "-q", "main")
git("tag", "v1.0", git("rev-list", "--max-parents=0", "HEAD").strip())
git("tag", "v1.1")
with open(os.path.join(out, "eval.mbox"), "w") as f:
    for _, raw in sorted(mails, key=lambda m: m[0]):
        f.write(raw.replace("\n>From ", "\n>>From ").replace("\nFrom ", "\n>From ")
                   .replace(">From mboxrd@z", "From mboxrd@z", 1) + "\n")
for x in ("mi.msg", "mi.patch"):
    if os.path.exists(os.path.join(out, x)):
        os.unlink(os.path.join(out, x))
with open(os.path.join(out, "stable.mbox"), "w") as f:
    for _, raw in stable:
        f.write(raw + "\n")
with open(os.path.join(out, "labels.txt"), "w") as f:
    for sha, fate in labels:
        f.write("%s %s %s\n" % (sha, fate, TIERS[fate]))
