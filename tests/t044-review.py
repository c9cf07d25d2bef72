#!/usr/bin/env python3
"""t044-review.py OUTDIR: the repository and list archives of
tests/t044-review.sh, one case of review on the list per commit.

OUTDIR/repo         git repository; the applied commits are base..main, one
                    file per case; branch `old` holds earlier versions that
                    were posted and never applied
OUTDIR/alpha.mbox   the list "alpha"
OUTDIR/beta.mbox    the list "beta" (a patch cross-posted to both, and a
                    reply that reached beta only)
OUTDIR/rules        match rules: the CI bot
OUTDIR/cases        "CASE SHA" for every applied commit (the test decides,
                    by hand, what each case's state must be)
OUTDIR/ids          "NAME MSGID" of the mails the test names

Patch mails are `git format-patch` of the commits with their headers set
here (subject, Message-ID, threading, date) and the commit's review
trailers left out, as they are added when a patch is applied.  Replies
are written by hand.  Nothing here runs onlist.
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

tick = [0]
def commit(path, text, subject, trailers=(), author=None):
    tick[0] += 1
    with open(os.path.join(repo, path), "w") as f:
        f.write(text)
    git("add", "-A")
    e = dict(env)
    if author:
        name, addr = author.split(" <")
        e["GIT_AUTHOR_NAME"], e["GIT_AUTHOR_EMAIL"] = name, addr.rstrip(">")
    e["GIT_AUTHOR_DATE"] = e["GIT_COMMITTER_DATE"] = "2021-03-10 %02d:%02d:00 +0000" % (tick[0] // 60, tick[0] % 60)
    msg = subject + "\n\nThe %s case.\n\n" % path + "\n".join(
        list(trailers) + ["Signed-off-by: " + (author or ann)]) + "\n"
    subprocess.run(["git", "-C", repo, "commit", "-q", "-F", "-"], input=msg.encode(),
                   env=e, check=True)
    return git("rev-parse", "HEAD").strip()

os.makedirs(repo)
git("init", "-q", "-b", "main")
with open(os.path.join(repo, ".mailmap"), "w") as f:
    f.write("Bob Reviewer <bob@example.org> <bob@work.example.com>\n")
commit("README", "review cases\n", "base")
git("tag", "base")

# Earlier versions, never applied: their diffs differ from what landed.
git("checkout", "-q", "-b", "old")
old_v1 = commit("v1only.c", "int v1only(void) { return 0; }\n", "v1only: add the helper")
old_later = commit("later.c", "int later(void) { return 2; }\n", "later: add the helper")
old_rv = commit("rv1.c", "int rv1(void) { return 0; }\n", "rv: add the first helper")
old_ren1 = commit("ren1.c", "int ren1(void) { return 0; }\n", "ren: add the first helper")
old_ren2 = commit("ren2.c", "int ren2(void) { return 0; }\n", "ren: add the second helper")
old_tko1 = commit("tko1.c", "int tko1(void) { return 0; }\n", "tko: add the first helper")
old_tko2 = commit("tko2.c", "int tko2(void) { return 0; }\n", "tko: add the second helper")
old_v3 = commit("vthree.c", "int vthree(void) { return 0; }\n", "vthree: add the helper")
old_ib = commit("inbody.c", "int inbody(void) { return 0; }\n", "inbody: add the helper")
old_2a = commit("twoaddr.c", "int twoaddr(void) { return 0; }\n", "twoaddr: add the helper")
old_1w = commit("oneword.c", "int oneword(void) { return 0; }\n", "oneword: add the helper",
                author="Kim <kim@example.com>")
old_ovt = commit("ovt1.c", "int ovt1(void) { return 0; }\n", "ovt: add the first helper")
old_rnv = commit("rnv.c", "int rnv(void) { return 0; }\n", "rnv: add the helper")
old_fvn = commit("fvn.c", "int fvn(void) { return 0; }\n", "fvn: add the helper")
old_fsib = commit("fsib.c", "int fsib(void) { return 0; }\n", "fsib: add the helper")
old_fsame = commit("fsame.c", "int fsame(void) { return 0; }\n", "fsame: fix the limit")
old_fapp = commit("fapp.c", "int fapp(void) { return 0; }\n", "fapp: add notes")
old_gap1 = commit("gap1.c", "int gap1(void) { return 0; }\n", "gap: add the first helper")
old_gap3 = commit("gap3.c", "int gap3(void) { return 0; }\n", "gap: add the last helper")
git("checkout", "-q", "main")

cases = []
def case(name, path, subject, **kw):
    sha = commit(path, "int %s(void) { return 1; }\n" % path.split(".")[0], subject, **kw)
    cases.append((name, sha))
    return sha

s_patch = case("tag-patch", "tagpatch.c", "tagpatch: add the helper",
               trailers=["Reviewed-by: Bob Reviewer <bob@work.example.com>"])
s_cover1 = case("tag-cover-1", "cover1.c", "cover: add the first helper")
s_cover2 = case("tag-cover-2", "cover2.c", "cover: add the second helper")
s_1n1 = case("series-1n-1", "onen1.c", "onen: add the first helper")
s_1n2 = case("series-1n-2", "onen2.c", "onen: add the second helper")
s_1n3 = case("series-1n-3", "onen3.c", "onen: add the third helper")
s_v1 = case("v1-only", "v1only.c", "v1only: add the helper")
s_later = case("later-version", "later.c", "later: add the helper")
s_cross = case("cross-list", "cross.c", "cross: add the helper")
s_author = case("by-author", "author.c", "author: add the helper")
s_codev = case("by-codev", "codev.c", "codev: add the helper",
               trailers=["Co-developed-by: Cody Coder <cody@example.org>"])
s_bot = case("by-bot", "bot.c", "bot: add the helper")
s_btag = case("bot-tag", "bottag.c", "bottag: fix the helper")
s_nak = case("nak", "nak.c", "nak: add the helper")
s_off = case("off-list", "offlist.c", "offlist: add the helper",
             trailers=["Reviewed-by: Frank Offlist <frank@example.org>",
                       "Acked-by: Quinn Quoted <quinn@example.org>"])
s_un1 = case("unthreaded-1", "unthr1.c", "unthr: add the first helper")
s_un2 = case("unthreaded-2", "unthr2.c", "unthr: add the second helper")
s_rv1 = case("v2-reply-v1-1", "rv1.c", "rv: add the first helper")
s_rv2 = case("v2-reply-v1-2", "rv2.c", "rv: add the second helper")
s_disc = case("discussed", "disc.c", "disc: add the helper")
s_none = case("no-reply", "none.c", "none: add the helper")
s_norefs = case("missing-refs", "norefs.c", "norefs: add the helper")
jack = "Jack Fixer <jack@example.org>"
s_refix = case("reply-fix", "refix.c", "refix: fix the second helper", author=jack)
s_ren1 = case("renamed-1", "ren1.c", "ren: add the first helper")
s_ren2 = case("renamed-2", "ren2.c", "ren: add the second helper")
s_tko1 = case("taken-over-1", "tko1.c", "tko: add the first helper")
s_tko2 = case("taken-over-2", "tko2.c", "tko: add the second helper")
s_bnak = case("bare-nak", "barenak.c", "barenak: add the helper")
s_ty = case("applied-ty", "ty.c", "ty: add the helper")
s_dr = case("diff-reply", "dr.c", "dr: add the helper")
s_drt = case("diff-reply-tag", "drt.c", "drt: add the helper")
s_v3 = case("v3-after-tags", "vthree.c", "vthree: add the helper")
s_ib = case("inbody-author", "inbody.c", "inbody: add the helper")
s_2a = case("same-name", "twoaddr.c", "twoaddr: add the helper")
s_1w = case("one-word-name", "oneword.c", "oneword: add the helper",
            author="Kim <kim@example.net>")
s_st = case("stable-backport", "stab.c", "stab: add the helper")
# issue 27: applied notices, who is no reviewer, cover letters by structure
mo = "Mo Maintainer <mo@example.org>"
s_ntc = {}
for k in ("applied", "queued", "fornext", "merged", "committed", "rule", "para", "long"):
    s_ntc[k] = case("notice-" + k, "ntc%s.c" % k, "ntc%s: add the helper" % k)
s_ntc_au = case("notice-by-author", "ntcau.c", "ntcau: add the helper", author=mo)
s_cred = case("credited-ack", "cred.c", "cred: add the helper",
              author="Ann Author <ann@corp.example.com>")
s_cvn1 = case("cover-vn-1", "cvn1.c", "cvn: add the first helper")
s_cvn2 = case("cover-vn-2", "cvn2.c", "cvn: add the second helper")
s_cnn1 = case("cover-nonum-1", "cnn1.c", "cnn: add the first helper")
s_cnn2 = case("cover-nonum-2", "cnn2.c", "cnn: add the second helper")
s_rfc1 = case("cover-rfc-1", "rfc1.c", "rfcc: add the first helper")
s_rfc2 = case("cover-rfc-2", "rfc2.c", "rfcc: add the second helper")
s_ovt1 = case("cover-old-thread-1", "ovt1.c", "ovt: add the first helper")
s_ovt2 = case("cover-old-thread-2", "ovt2.c", "ovt: add the second helper")
s_lost = case("lost-patch", "lost.c", "lost: add the helper")
s_mid = case("midline-tag", "midtag.c", "midtag: add the helper")
s_ska = case("sketch-ack", "ska.c", "ska: add the helper")
s_rnv = case("renamed-version-subject", "rnv.c", "rnv: add the helper")
s_fvn = case("renamed-version-files", "fvn.c", "fvn: add the helper and its test")
s_hd1 = case("head-1n-1", "headn1.c", "headn: add the first helper")
s_hd2 = case("head-1n-2", "headn2.c", "headn: add the second helper")
s_sks1 = case("sketch-scope-1", "sks1.c", "sks: add the first helper")
s_sks2 = case("sketch-scope-2", "sks2.c", "sks: add the second helper")
s_sib1 = case("sibling-disc-1", "sib1.c", "sib: add the first helper")
s_sib2 = case("sibling-disc-2", "sib2.c", "sib: add the second helper")
s_fsib = case("files-sibling", "fsib.c", "fsib: add the option")
s_fsame = case("files-same-version", "fsame.c", "fsame: add more doc")
s_fappa = case("files-applied-a", "fapp.c", "fapp: add notes")
s_fappb = commit("fapp.c", "int fapp(void) { return 2; }\n", "fapp: update notes")
cases.append(("files-applied-b", s_fappb))
s_gapa = case("gap-split-1", "gapa.c", "gap: add the python helper")
s_gapb = case("gap-split-2", "gapb.c", "gap: add the python tests")
s_gapn = case("gap-new", "gapn.c", "gap: add the docs")
s_lack = case("lost-ack", "lack.c", "lack: add the helper")
s_latt = case("lost-ack-attributed", "latt.c", "latt: add the helper")
s_lcar = case("lost-carried", "lcar.c", "lcar: add the helper",
              trailers=["Acked-by: Quinn Quoted <quinn@example.org>"])

# ---- mails ----------------------------------------------------------------
alpha, beta, ids = [], [], []
seq = [0]

def date():
    seq[0] += 1
    return "Mon, 1 Mar 2021 %02d:%02d:00 +0000" % (seq[0] // 60, seq[0] % 60)

def headers(frm, subject, mid, irt, refs):
    h = ["From: %s" % frm, "Subject: %s" % subject, "Message-ID: <%s>" % mid,
         "Date: %s" % date(), "To: alpha@lists.example.org"]
    if irt:
        h.append("In-Reply-To: <%s>" % irt)
    if refs:
        h.append("References: %s" % " ".join("<%s>" % r for r in refs))
    return h

def add(raw, lists=("alpha",)):
    raw = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n" + raw
    if not raw.endswith(b"\n"):
        raw += b"\n"
    if "alpha" in lists:
        alpha.append(raw)
    if "beta" in lists:
        beta.append(raw)

def patch(name, sha, subject, irt=None, refs=None, lists=("alpha",), frm=ann, top=""):
    """The commit as git format-patch mails it, headers ours, and without
    the review trailers the maintainer added when applying it; `top`
    goes first in the body (an in-body From: line)."""
    mail = git("format-patch", "--stdout", "-1", sha)
    body = top + mail.split("\n\n", 1)[1]
    body = "\n".join(l for l in body.split("\n")
                     if not l.startswith(("Reviewed-by:", "Acked-by:", "Tested-by:")))
    mid = "%s@example.org" % name
    add(("\n".join(headers(frm, subject, mid, irt, refs)) + "\n\n" + body).encode(), lists)
    ids.append((name, mid))
    return mid

def mail(name, frm, subject, body, irt=None, refs=None, lists=("alpha",), mid=None):
    mid = mid or "%s@example.org" % name
    add(("\n".join(headers(frm, subject, mid, irt, refs)) + "\n\n" + body).encode(), lists)
    ids.append((name, mid))
    return mid

bob = "Bob Reviewer <bob@example.org>"
carol = "Carol Acker <carol@example.org>"
dave = "Dave Tester <dave@example.org>"
eve = "Eve Naysayer <eve@example.org>"
gina = "Gina Glance <gina@example.org>"
hank = "Hank Helper <hank@example.org>"
ivan = "Ivan Inquirer <ivan@example.org>"
cody = "Cody Coder <cody@example.org>"
bot = "Test Bot <testbot@ci.example.org>"

# tag on the patch (Bob, whose address in git is another one: .mailmap)
p = patch("tagpatch", s_patch, "[PATCH] tagpatch: add the helper")
mail("tagpatch-r", bob, "Re: [PATCH] tagpatch: add the helper",
     "> +int tagpatch(void)\n\nLooks good.\n\nReviewed-by: Bob Reviewer <bob@example.org>\n",
     irt=p, refs=[p])

# tag on the cover letter
c = mail("cover-0", ann, "[PATCH 0/2] cover: two helpers", "Two helpers.\n\nAnn Author (2):\n")
p1 = patch("cover-1", s_cover1, "[PATCH 1/2] cover: add the first helper", irt=c, refs=[c])
p2 = patch("cover-2", s_cover2, "[PATCH 2/2] cover: add the second helper", irt=c, refs=[c])
mail("cover-r", carol, "Re: [PATCH 0/2] cover: two helpers",
     "For the series:\nAcked-by: Carol Acker <carol@example.org>\n", irt=c, refs=[c])
# another author's fix, posted only as a reply inside that series: a patch
# of its own, not "part 2 of 2" with the series' review
patch("refix", s_refix, "Re: [PATCH 2/2] cover: add the second helper",
      irt=p2, refs=[c, p2], frm=jack)

# tag on 1/3 "for these three patches"; no cover letter
p1 = patch("onen-1", s_1n1, "[PATCH 1/3] onen: add the first helper")
p2 = patch("onen-2", s_1n2, "[PATCH 2/3] onen: add the second helper", irt=p1, refs=[p1])
p3 = patch("onen-3", s_1n3, "[PATCH 3/3] onen: add the third helper", irt=p1, refs=[p1])
mail("onen-r", dave, "Re: [PATCH 1/3] onen: add the first helper",
     "For these three patches:\n\nTested-by: Dave Tester <dave@example.org>\n",
     irt=p1, refs=[p1])

# review on v1 only; v2 (another diff) applied
v1 = patch("v1only-v1", old_v1, "[PATCH] v1only: add the helper")
mail("v1only-r", bob, "Re: [PATCH] v1only: add the helper",
     "Reviewed-by: Bob Reviewer <bob@example.org>\n", irt=v1, refs=[v1])
patch("v1only-v2", s_v1, "[PATCH v2] v1only: add the helper")

# v1 applied; review only in the thread of a later v2 (never applied)
patch("later-v1", s_later, "[PATCH] later: add the helper")
v2 = patch("later-v2", old_later, "[PATCH v2] later: add the helper")
mail("later-r", carol, "Re: [PATCH v2] later: add the helper",
     "Acked-by: Carol Acker <carol@example.org>\n", irt=v2, refs=[v2])

# cross-posted to alpha and beta; the review reached beta only
p = patch("cross", s_cross, "[PATCH] cross: add the helper", lists=("alpha", "beta"))
mail("cross-r", hank, "Re: [PATCH] cross: add the helper",
     "Reviewed-by: Hank Helper <hank@example.org>\n", irt=p, refs=[p], lists=("beta",))

# the author "reviews" her own patch: no review, and no reply by others
p = patch("author", s_author, "[PATCH] author: add the helper")
mail("author-r", ann, "Re: [PATCH] author: add the helper",
     "Self-check done.\nReviewed-by: Ann Author <ann@example.org>\n", irt=p, refs=[p])

# the co-developer acks it: no review either
p = patch("codev", s_codev, "[PATCH] codev: add the helper")
mail("codev-r", cody, "Re: [PATCH] codev: add the helper",
     "Acked-by: Cody Coder <cody@example.org>\n", irt=p, refs=[p])

# a CI bot answers PASS with a Tested-by
p = patch("bot", s_bot, "[PATCH] bot: add the helper")
mail("bot-r", bot, "Re: [PATCH] bot: add the helper",
     "PASS: 123 tests\n\nTested-by: Test Bot <testbot@ci.example.org>\n", irt=p, refs=[p])

# a person passes on the bot's word: the reply is discussion, the tag
# (an address the built-in "syzbot*@*" rule names) no review
p = patch("bottag", s_btag, "[PATCH] bottag: fix the helper")
mail("bottag-r", gina, "Re: [PATCH] bottag: fix the helper",
     "syzbot ran the reproducer on this: no crash.\n\n"
     "Tested-by: syzbot+0123abcd4567ef89@syzkaller.appspotmail.com\n",
     irt=p, refs=[p])

# a NAK
p = patch("nak", s_nak, "[PATCH] nak: add the helper")
mail("nak-r", eve, "Re: [PATCH] nak: add the helper",
     "This breaks things.\n\nNacked-by: Eve Naysayer <eve@example.org>\n", irt=p, refs=[p])

# review trailers in git that nobody gave on the list; a quoted one does not count
p = patch("offlist", s_off, "[PATCH] offlist: add the helper")
mail("offlist-r", ivan, "Re: [PATCH] offlist: add the helper",
     "> Acked-by: Quinn Quoted <quinn@example.org>\n\nHm, why?\n", irt=p, refs=[p])

# a series whose patches are not threaded to the cover letter
c = mail("unthr-0", ann, "[PATCH 0/2] unthr: two helpers", "Two more.\n")
patch("unthr-1", s_un1, "[PATCH 1/2] unthr: add the first helper")
patch("unthr-2", s_un2, "[PATCH 2/2] unthr: add the second helper")
mail("unthr-r", gina, "Re: [PATCH 0/2] unthr: two helpers",
     "Reviewed-by: Gina Glance <gina@example.org>\n", irt=c, refs=[c])

# v2 sent as a reply to v1; Hank reviews v2's first patch (only)
old1 = mail("rv-v1-0", ann, "[PATCH 0/2] rv: two helpers", "First try.\n")
patch("rv-v1-1", old_rv, "[PATCH 1/2] rv: add the first helper", irt=old1, refs=[old1])
c2 = mail("rv-v2-0", ann, "[PATCH v2 0/2] rv: two helpers", "Second try.\n",
          irt=old1, refs=[old1])
q1 = patch("rv-v2-1", s_rv1, "[PATCH v2 1/2] rv: add the first helper", irt=c2, refs=[old1, c2])
patch("rv-v2-2", s_rv2, "[PATCH v2 2/2] rv: add the second helper", irt=c2, refs=[old1, c2])
mail("rv-r", hank, "Re: [PATCH v2 1/2] rv: add the first helper",
     "Reviewed-by: Hank Helper <hank@example.org>\n", irt=q1, refs=[old1, c2, q1])

# discussed, no tag
p = patch("disc", s_disc, "[PATCH] disc: add the helper")
mail("disc-r", ivan, "Re: [PATCH] disc: add the helper", "Why not inline it?\n",
     irt=p, refs=[p])

# nobody answers
patch("none", s_none, "[PATCH] none: add the helper")

# a review whose mailer dropped In-Reply-To and References
patch("norefs", s_norefs, "[PATCH] norefs: add the helper")
mail("norefs-r", gina, "Re: [PATCH] norefs: add the helper",
     "Reviewed-by: Gina Glance <gina@example.org>\n")

# the cover letter renamed between v1 and v2 (not threaded to each other);
# Carol acked v1's first patch, for the whole series
c1 = mail("ren-v1-0", ann, "[PATCH 0/2] ren: two helpers", "First try.\n")
r1 = patch("ren-v1-1", old_ren1, "[PATCH 1/2] ren: add the first helper", irt=c1, refs=[c1])
patch("ren-v1-2", old_ren2, "[PATCH 2/2] ren: add the second helper", irt=c1, refs=[c1])
mail("ren-r", carol, "Re: [PATCH 1/2] ren: add the first helper",
     "For the series:\nAcked-by: Carol Acker <carol@example.org>\n", irt=r1, refs=[c1, r1])
c2 = mail("ren-v2-0", ann, "[PATCH v2 0/2] ren: the helpers, reworked", "Second try.\n")
patch("ren-v2-1", s_ren1, "[PATCH v2 1/2] ren: add the first helper", irt=c2, refs=[c2])
patch("ren-v2-2", s_ren2, "[PATCH v2 2/2] ren: add the second helper", irt=c2, refs=[c2])

# v2 sent by Jack, who took the series over, as a reply to Ann's v1, under
# another cover subject; Bob reviewed v1's first patch only (not the
# second: a sibling's own tag is no review of the series)
c1 = mail("tko-v1-0", ann, "[PATCH 0/2] tko: two helpers", "First try.\n")
r1 = patch("tko-v1-1", old_tko1, "[PATCH 1/2] tko: add the first helper", irt=c1, refs=[c1])
patch("tko-v1-2", old_tko2, "[PATCH 2/2] tko: add the second helper", irt=c1, refs=[c1])
mail("tko-r", bob, "Re: [PATCH 1/2] tko: add the first helper",
     "Reviewed-by: Bob Reviewer <bob@example.org>\n", irt=r1, refs=[c1, r1])
c2 = mail("tko-v2-0", jack, "[PATCH v2 0/2] tko: the helpers, taken over",
          "Ann is away; here is v2.\n", irt=c1, refs=[c1])
patch("tko-v2-1", s_tko1, "[PATCH v2 1/2] tko: add the first helper", irt=c2,
      refs=[c1, c2], frm=jack)
patch("tko-v2-2", s_tko2, "[PATCH v2 2/2] tko: add the second helper", irt=c2,
      refs=[c1, c2], frm=jack)

# a bare NAK line, and a quoted one that is none
p = patch("barenak", s_bnak, "[PATCH] barenak: add the helper")
r = mail("barenak-r", eve, "Re: [PATCH] barenak: add the helper",
         "> +int barenak(void)\n\nThis leaks.\n\nNAK\n", irt=p, refs=[p])
mail("barenak-q", ann, "Re: [PATCH] barenak: add the helper",
     "> NAK\n\nIt does not: see v1.\n", irt=r, refs=[p, r])

# the maintainer's b4 "Applied, thanks!" notice is the only answer: a
# receipt (built-in rule, Message-ID *.b4-ty@*), not a discussion
mo = "Mo Maintainer <mo@example.org>"
p = patch("ty", s_ty, "[PATCH] ty: add the helper")
mail("ty-r", mo, "Re: [PATCH] ty: add the helper",
     "On Mon, 1 Mar 2021, Ann Author wrote:\n> ty: add the helper\n\n"
     "Applied, thanks!\n\n[1/1] ty: add the helper\n"
     "      commit: 0123456789abcdef0123456789abcdef01234567\n\n"
     "Best regards,\n-- \nMo Maintainer\n",
     irt=p, refs=[p], mid="161461234567.1234.5678901234567890123.b4-ty@example.org")

# reviewers who answer with a diff ("Re:" and a patch of their own): a
# reply to the patch all the same, and the ack in it a review tag
def sketch(path, n):
    return ("---\ndiff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n"
            "+++ b/%s\n@@ -0,0 +1 @@\n+int %s_sketch(void) { return %d; }\n"
            % (path, path, path, path.split(".")[0], n))
p = patch("dr", s_dr, "[PATCH] dr: add the helper")
mail("dr-r", ivan, "Re: [PATCH] dr: add the helper",
     "Why not a macro?  How about this instead:\n\n" + sketch("drmacro.h", 1),
     irt=p, refs=[p])
p = patch("drt", s_drt, "[PATCH] drt: add the helper")
mail("drt-r", carol, "Re: [PATCH] drt: add the helper",
     "Fine by me; a test on top, if you like.\n\n"
     "Acked-by: Carol Acker <carol@example.org>\n\n" + sketch("drt_test.c", 2),
     irt=p, refs=[p])

# v3 written after the tags, "[PATCH BlueZ] V3: ...", as on linux-bluetooth;
# Carol acked v1
v1 = patch("vthree-v1", old_v3, "[PATCH BlueZ] vthree: add the helper")
mail("vthree-r", carol, "Re: [PATCH BlueZ] vthree: add the helper",
     "Acked-by: Carol Acker <carol@example.org>\n", irt=v1, refs=[v1])
patch("vthree-v3", s_v3, "[PATCH BlueZ] V3: vthree: add the helper")

# Ann's v1, reviewed by Dave; Mo posted v2 for her, with her in-body From:
# (her name spelt otherwise there: the address links them, not the name)
v1 = patch("inbody-v1", old_ib, "[PATCH] inbody: add the helper")
mail("inbody-r", dave, "Re: [PATCH] inbody: add the helper",
     "Reviewed-by: Dave Tester <dave@example.org>\n", irt=v1, refs=[v1])
patch("inbody-v2", s_ib, "[PATCH v2] inbody: add the helper", frm=mo,
      top="From: Ann Q. Author <ann@example.org>\n\n")

# Ann sent v2 from her work address: one two-word name, two addresses
v1 = patch("twoaddr-v1", old_2a, "[PATCH] twoaddr: add the helper")
mail("twoaddr-r", gina, "Re: [PATCH] twoaddr: add the helper",
     "Reviewed-by: Gina Glance <gina@example.org>\n", irt=v1, refs=[v1])
patch("twoaddr-v2", s_2a, "[PATCH v2] twoaddr: add the helper",
      frm="Ann Author <ann@work.example.com>")

# "Kim" from two addresses: a one-word name is no proof of one person;
# Bob's review of the first Kim's patch is not the second Kim's
v1 = patch("oneword-v1", old_1w, "[PATCH] oneword: add the helper",
           frm="Kim <kim@example.com>")
mail("oneword-r", bob, "Re: [PATCH] oneword: add the helper",
     "Reviewed-by: Bob Reviewer <bob@example.org>\n", irt=v1, refs=[v1])
patch("oneword-v2", s_1w, "[PATCH v2] oneword: add the helper",
      frm="Kim <kim@example.net>")

# Ann's patch, unanswered; Greg backported it to 5.10 with her in-body
# From: and Hank tested the backport: no review of Ann's posting
patch("stab", s_st, "[PATCH] stab: add the helper")
greg = "Greg Stable <greg@stable.example.org>"
b = patch("stab-510", s_st, "[PATCH 5.10] stab: add the helper", frm=greg,
          top="From: Ann Author <ann@example.org>\n\ncommit %s upstream.\n\n" % s_st)
mail("stab-r", hank, "Re: [PATCH 5.10] stab: add the helper",
     "Tested-by: Hank Helper <hank@example.org>\n", irt=b, refs=[b])

# ---- issue 27 --------------------------------------------------------------
# the maintainer's notice is the only answer: no reply, the notice kept
notices = {
    "applied": "Thanks, applied.\n",
    "queued": "Now queued up, thanks.\n",
    "fornext": "Applied to for-next, thanks!\n",
    "merged": "Merged. Thanks!\n",
    "committed": "Committed... (tag: libntc-1-2-3)\n",
    # the rules file adds "notice text *landed*"
    "rule": "Landed in main, thanks.\n",
    # a notice and a paragraph: discussion
    "para": "Applied, but please split such changes next time: the rename\n"
            "and the fix would have been easier to review apart, and the\n"
            "changelog should say why the old name was wrong.\n",
    # one long sentence, its verb up front (ltp): a notice all the same
    "long": "Hi Ann,\n\nI merged this patch, as well as all the others related to "
            "tests description in RST format.\n\nKind regards,\nMo\n",
}
for k, text in notices.items():
    p = patch("ntc-" + k, s_ntc[k], "[PATCH] ntc%s: add the helper" % k)
    mail("ntc-%s-r" % k, mo, "Re: [PATCH] ntc%s: add the helper" % k,
         "On Mon, 1 Mar 2021, Ann Author wrote:\n> +int ntc%s(void)\n\n%s\n-- \nMo\n"
         % (k, text), irt=p, refs=[p])
# the commit's author is the maintainer, who answers the patch Ann sent
# with a notice: the same state as the notice on Ann's own patch
p = patch("ntc-au", s_ntc_au, "[PATCH] ntcau: add the helper")
mail("ntc-au-r", mo, "Re: [PATCH] ntcau: add the helper", "Thanks, applied.\n",
     irt=p, refs=[p])
# Sam posts Ann's patch (her in-body From:); git has her other address;
# her ack of it is no review, nor any reply
sam = "Sam Sender <sam@example.org>"
p = patch("cred", s_cred, "[PATCH] cred: add the helper", frm=sam,
          top="From: Ann Author <ann@example.org>\n\n")
mail("cred-r", ann, "Re: [PATCH] cred: add the helper",
     "Acked-by: Ann Author <ann@example.org>\n", irt=p, refs=[p])
# a cover letter without "0/N": "[v4] ..." and acked on it
c = mail("cvn-0", ann, "[v4] cvn: annotate the helpers", "Two helpers, annotated.\n")
patch("cvn-1", s_cvn1, "[PATCH v4 1/2] cvn: add the first helper", irt=c, refs=[c])
patch("cvn-2", s_cvn2, "[PATCH v4 2/2] cvn: add the second helper", irt=c, refs=[c])
mail("cvn-r", carol, "Re: [v4] cvn: annotate the helpers",
     "> Two helpers, annotated.\n\nThe patches look otherwise good to me.\n\n"
     "Acked-by: Carol Acker <carol@example.org>\n\nFeel free to apply them.\n",
     irt=c, refs=[c])
# "[PATCH]" without numbers as the cover; the ack one level down
c = mail("cnn-0", ann, "[PATCH] cnn: two helpers", "Two helpers.\n")
patch("cnn-1", s_cnn1, "[PATCH 1/2] cnn: add the first helper", irt=c, refs=[c])
patch("cnn-2", s_cnn2, "[PATCH 2/2] cnn: add the second helper", irt=c, refs=[c])
q = mail("cnn-q", ivan, "Re: [PATCH] cnn: two helpers", "Why two?\n", irt=c, refs=[c])
mail("cnn-r", carol, "Re: [PATCH] cnn: two helpers",
     "> Why two?\n\nFine either way.\n\nAcked-by: Carol Acker <carol@example.org>\n",
     irt=q, refs=[c, q])
# an "[RFC]" cover, and a reply on it that says it covers the series
c = mail("rfc-0", ann, "[RFC] rfcc: a plan in two patches", "A plan.\n")
patch("rfc-1", s_rfc1, "[RFC PATCH 1/2] rfcc: add the first helper", irt=c, refs=[c])
patch("rfc-2", s_rfc2, "[RFC PATCH 2/2] rfcc: add the second helper", irt=c, refs=[c])
mail("rfc-r", dave, "Re: [RFC] rfcc: a plan in two patches",
     "For the series:\n\nReviewed-by: Dave Tester <dave@example.org>\n",
     irt=c, refs=[c])
# v1 (one patch) discussed; v2's "[V2]" cover sent as a reply into v1's
# review thread, with a patch that first appears in v2; Carol acks v2
c1 = mail("ovt-v1-0", ann, "[PATCH 0/1] ovt: a helper", "One helper.\n")
o1 = patch("ovt-v1-1", old_ovt, "[PATCH 1/1] ovt: add the first helper", irt=c1, refs=[c1])
g = mail("ovt-g", gina, "Re: [PATCH 0/1] ovt: a helper", "What about a second one?\n",
         irt=c1, refs=[c1])
c2 = mail("ovt-v2-0", ann, "[V2] ovt: two helpers", "Now with a second one.\n",
          irt=g, refs=[c1, g])
patch("ovt-v2-1", s_ovt1, "[PATCH v2 1/2] ovt: add the first helper", irt=c2,
      refs=[c1, g, c2])
patch("ovt-v2-2", s_ovt2, "[PATCH v2 2/2] ovt: add the second helper", irt=c2,
      refs=[c1, g, c2])
mail("ovt-r", carol, "Re: [V2] ovt: two helpers",
     "Acked-by: Carol Acker <carol@example.org>\n", irt=c2, refs=[c1, g, c2])
# the archive lost Ann's patch; Mo's "Committed" answers its Message-ID
# and quotes the whole of it
body = git("format-patch", "--stdout", "-1", s_lost).split("\n\n", 1)[1]
quoted = "".join("> %s\n" % l if l else ">\n" for l in body.split("\n"))
mail("lost-r", mo, "Re: [PATCH] lost: add the helper",
     "On Mon, 1 Mar 2021, Ann Author wrote:\n" + quoted +
     "\nCommitted... (tag: liblost-1-0-0)\n", irt="lost@example.org",
     refs=["lost@example.org"])
# the tag follows the reviewer's comment on the same line (ltp)
p = patch("midtag", s_mid, "[PATCH] midtag: add the helper")
mail("midtag-r", gina, "Re: [PATCH] midtag: add the helper",
     "> +int midtag(void)\n\nThis one can be static.\n\n"
     "Otherwise: Reviewed-by: Gina Glance <gina@example.org>\n", irt=p, refs=[p])
# the maintainer proposes a change as a "Re:" with a diff; Gina's tag
# answers it, and is given to the patch (ltp: "Yes. Feel free to add:")
p = patch("ska", s_ska, "[PATCH] ska: add the helper")
r = mail("ska-s", mo, "Re: [PATCH] ska: add the helper",
         "I'd merge it with this on top:\n\n" + sketch("ska_fix.c", 3), irt=p, refs=[p])
mail("ska-r", gina, "Re: [PATCH] ska: add the helper",
     "Yes. Feel free to add:\nReviewed-by: Gina Glance <gina@example.org>\n",
     irt=r, refs=[p, r])
# v2 went out under another subject, in a thread of its own; Bob reviewed
# v1, whose subject the commit keeps (ltp 253c7f...)
p = patch("rnv-v1", old_rnv, "[PATCH] rnv: add the helper")
mail("rnv-r", bob, "Re: [PATCH] rnv: add the helper",
     "Reviewed-by: Bob Reviewer <bob@example.org>\n", irt=p, refs=[p])
patch("rnv-v2", s_rnv, "[PATCH v2] rnv: join the helper to the others")
# likewise, the commit named after v2: linked by author, files and the
# subject's "fvn:" part
p = patch("fvn-v1", old_fvn, "[PATCH] fvn: add the helper")
mail("fvn-r", carol, "Re: [PATCH] fvn: add the helper",
     "Acked-by: Carol Acker <carol@example.org>\n", irt=p, refs=[p])
patch("fvn-v2", s_fvn, "[PATCH v2] fvn: add the helper and its test")
# no cover letter: 2/2 answers 1/2, which stands for the cover; Gina
# acks 1/2 (selinux: "The code looks fine. ... Acked-by:" on v2 1/6)
# (sent by Jack: from Ann, the sks cover letter below, minutes later,
# would be taken for its unthreaded cover)
p = patch("headn-1", s_hd1, "[PATCH 1/2] headn: add the first helper", frm=jack)
patch("headn-2", s_hd2, "[PATCH 2/2] headn: add the second helper", irt=p, refs=[p], frm=jack)
mail("headn-r", gina, "Re: [PATCH 1/2] headn: add the first helper",
     "The code looks fine.\n\nAcked-by: Gina Glance <gina@example.org>\n",
     irt=p, refs=[p])
# Hank answers 2/2 with a diff and an ack "for all 2" (selinux: Petr's
# "For all 12:" above a fix): the series' review
c = mail("sks-0", ann, "[PATCH 0/2] sks: two helpers", "Two helpers.\n")
patch("sks-1", s_sks1, "[PATCH 1/2] sks: add the first helper", irt=c, refs=[c])
p = patch("sks-2", s_sks2, "[PATCH 2/2] sks: add the second helper", irt=c, refs=[c])
mail("sks-r", hank, "Re: [PATCH 2/2] sks: add the second helper",
     "For all 2:\nAcked-by: Hank Helper <hank@example.org>\n\nAnd on top:\n\n" +
     sketch("sks_fix.c", 4), irt=p, refs=[c, p])
# Ivan asks about the first patch of a series only: the second one got
# no reply
c = mail("sib-0", ann, "[PATCH 0/2] sib: two helpers", "Two helpers.\n")
p = patch("sib-1", s_sib1, "[PATCH 1/2] sib: add the first helper", irt=c, refs=[c])
patch("sib-2", s_sib2, "[PATCH 2/2] sib: add the second helper", irt=c, refs=[c])
mail("sib-r", ivan, "Re: [PATCH 1/2] sib: add the first helper", "Why not inline it?\n",
     irt=p, refs=[c, p])

# v1 (one patch) discussed on its cover; v2 adds "fsib: add the option"
# before it, touching the same file under the same "fsib:" prefix: v1's
# patch is v2's 2/2, not an earlier version of the option (io-uring
# 209fb0e9b6a8)
c = mail("fsib-v1-0", ann, "[PATCH 0/1] fsib: a helper", "A helper.\n")
patch("fsib-v1-1", old_fsib, "[PATCH 1/1] fsib: add the helper", irt=c, refs=[c])
mail("fsib-q", ivan, "Re: [PATCH 0/1] fsib: a helper", "Why a helper?\n", irt=c, refs=[c])
c = mail("fsib-v2-0", ann, "[PATCH v2 0/2] fsib: a helper, an option", "And an option.\n")
patch("fsib-v2-1", s_fsib, "[PATCH v2 1/2] fsib: add the option", irt=c, refs=[c])
patch("fsib-v2-2", old_fsib, "[PATCH v2 2/2] fsib: add the helper", irt=c, refs=[c])
# Ann's other patch to fsame.c, never applied here, reviewed by Bob; then
# her "fsame: add more doc", also a v1: another change to that file,
# not a later version of the first (ltp 22fc4a913276)
p = patch("fsame-o", old_fsame, "[PATCH] fsame: fix the limit")
mail("fsame-r", bob, "Re: [PATCH] fsame: fix the limit",
     "Reviewed-by: Bob Reviewer <bob@example.org>\n", irt=p, refs=[p])
patch("fsame-d", s_fsame, "[PATCH] fsame: add more doc")
# Ann's "fapp: add notes" v1 (Ivan asks about it) and v2, applied; then
# her "[PATCH v2] fapp: update notes", to the same file: v1 of "add
# notes" is no earlier version of it, its own v2 being another commit
# (io-uring 10a0f65c617e after bb75e12e)
p = patch("fapp-v1", old_fapp, "[PATCH] fapp: add notes")
mail("fapp-q", ivan, "Re: [PATCH] fapp: add notes", "Why notes?\n", irt=p, refs=[p])
patch("fapp-v2", s_fappa, "[PATCH v2] fapp: add notes")
patch("fapp-b", s_fappb, "[PATCH v2] fapp: update notes")
# v1's 2/3 never reached the list (too large); Hank acks v1 "For all 3";
# v2 splits that patch in two (2/5, 3/5) and adds 5/5, the docs
# (selinux cb0b5f3: v1 9/12 lost, "For all 12: Acked-by" on v1)
p = patch("gap-v1-1", old_gap1, "[PATCH 1/3] gap: add the first helper")
q = patch("gap-v1-3", old_gap3, "[PATCH 3/3] gap: add the last helper", irt=p, refs=[p])
mail("gap-r", hank, "Re: [PATCH 3/3] gap: add the last helper",
     "For all 3:\nAcked-by: Hank Helper <hank@example.org>\n", irt=q, refs=[p, q])
c = mail("gap-v2-0", ann, "[PATCH 0/5 v2] gap: helpers", "v2: 2/3 split in two, docs.\n")
patch("gap-v2-1", old_gap1, "[PATCH 1/5 v2] gap: add the first helper", irt=c, refs=[c])
patch("gap-v2-2", s_gapa, "[PATCH 2/5 v2] gap: add the python helper", irt=c, refs=[c])
patch("gap-v2-3", s_gapb, "[PATCH 3/5 v2] gap: add the python tests", irt=c, refs=[c])
patch("gap-v2-4", old_gap3, "[PATCH 4/5 v2] gap: add the last helper", irt=c, refs=[c])
patch("gap-v2-5", s_gapn, "[PATCH 5/5 v2] gap: add the docs", irt=c, refs=[c])
# the archive lost Carol's ack; Mo's "Merged." answers it and quotes it
p = patch("lack", s_lack, "[PATCH] lack: add the helper")
mail("lack-r", mo, "Re: [PATCH] lack: add the helper",
     "On Mon, 1 Mar 2021, Carol Acker <carol@example.org> wrote:\n"
     "> On Mon, 1 Mar 2021, Ann Author wrote:\n>> +int lack(void)\n>\n"
     "> Acked-by: Carol Acker <carol@example.org>\n\nMerged. Thanks!\n",
     irt="lack-c@example.org", refs=[p, "lack-c@example.org"])
# Mo answers the patch itself, quoting Dave's test report the archive lost
p = patch("latt", s_latt, "[PATCH] latt: add the helper")
mail("latt-r", mo, "Re: [PATCH] latt: add the helper",
     "On Mon, 1 Mar 2021 10:00, Dave Tester\n<dave@example.org> wrote:\n"
     "> Tested-by: Dave Tester <dave@example.org>\n\nThanks, applied.\n",
     irt=p, refs=[p])
# the archive lost the patch, which carried an older ack; Mo's receipt
# quotes it whole: the ack is the patch's history, not review given here
body = git("format-patch", "--stdout", "-1", s_lcar).split("\n\n", 1)[1]
quoted = "".join("> %s\n" % l if l else ">\n" for l in body.split("\n"))
mail("lcar-r", mo, "Re: [PATCH] lcar: add the helper",
     "On Mon, 1 Mar 2021, Ann Author wrote:\n" + quoted +
     "\nCommitted... (tag: liblcar-1-0-0)\n", irt="lcar@example.org",
     refs=["lcar@example.org"])

# the archives go on months after the commits landed (2021-03-10): a
# review tag in git that no mail shows was given off the list, not after
# the archive's end (review.h's `unknown`, tests/t079)
add(("From: %s\nSubject: later\nMessage-ID: <later@example.org>\n"
     "Date: Tue, 1 Jun 2021 09:00:00 +0000\nTo: alpha@lists.example.org\n\n"
     "Later.\n" % ivan).encode(), lists=("alpha", "beta"))
open(os.path.join(out, "alpha.mbox"), "wb").write(b"".join(alpha))
open(os.path.join(out, "beta.mbox"), "wb").write(b"".join(beta))
open(os.path.join(out, "rules"), "w").write("bot from testbot@*\nnotice text *landed*\n")
open(os.path.join(out, "cases"), "w").write("".join("%s %s\n" % c for c in cases))
open(os.path.join(out, "ids"), "w").write("".join("%s %s\n" % i for i in ids))
