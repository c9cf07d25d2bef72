#!/usr/bin/env python3
"""t053-incremental-random.py SEED OUT.mbox: a random archive shaped to
stress what `onlist match` builds again around new mail (store_thread.c):
few senders (series grouped by sender within an hour collide), versions of
one subject, covers and unthreaded series, v2 sent as a reply to v1,
change-ids, replies that name missing or later messages, orphan replies
that only share a subject, reference loops, one person from two addresses
(a two-word name, and a one-word one), versions posted by someone else
with the author's in-body From:, some as stable backports.  The messages are written in
a shuffled order; t053 imports them in random slices and compares the
tables with one import of everything."""
import random, sys

seed, out = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(seed)
senders = ["ann@example.org", "bob@example.org", "cy@example.org",
           "dee@example.org", "Ann@Example.org"]
words = ["fix", "add", "drop", "tidy", "rework"]
things = ["parser", "cache", "lock", "timer"]
# display names; cy and bob write from a second address too
names = {"ann@example.org": "Ann Author", "Ann@Example.org": "Ann Author",
         "bob@example.org": "Bob", "cy@example.org": "Cy Young",
         "dee@example.org": "Dee Dee", "cy@home.example.net": "Cy  young",
         "bob@other.example.net": "Bob", "mo@example.org": "Mo Maintainer"}
alias = {"cy@example.org": "cy@home.example.net",
         "bob@example.org": "bob@other.example.net"}
ident = lambda a: "%s <%s>" % (names[a], a) if a in names else a
T0 = 1614556800
msgs = []
n = [0]

def mid():
    n[0] += 1
    return "m%d.%d@example.org" % (seed, n[0])

def diff(k):
    return ("\n---\n x.c | 2 +-\n\ndiff --git a/x.c b/x.c\n--- a/x.c\n+++ b/x.c\n"
            "@@ -1 +1 @@\n-int x = %d;\n+int x = %d;\n" % (k, k + 1))

def add(frm, subject, date, body, irt=None, refs=()):
    m = mid()
    h = ["From: %s" % ident(frm), "Subject: %s" % subject, "Message-ID: <%s>" % m,
         "Date: %s" % __import__("email.utils").utils.formatdate(date)]
    if irt:
        h.append("In-Reply-To: <%s>" % irt)
    if refs:
        h.append("References: %s" % " ".join("<%s>" % r for r in refs))
    msgs.append("\n".join(h) + "\n\n" + body + "\n")
    return m

ghost = lambda: "ghost%d@example.org" % rnd.randrange(6)
heads = []      # (msgid, subject, sender, date)
for topic in range(40):
    frm = rnd.choice(senders)
    subj = "%s: %s the %s" % (rnd.choice(things), rnd.choice(words), rnd.choice(things))
    date = T0 + rnd.randrange(0, 40 * 3600)
    prev_cover = None
    for version in range(1, rnd.choice([2, 2, 3, 4])):
        vtag = "" if version == 1 else " v%d" % version
        total = rnd.choice([1, 1, 2, 3])
        cover = None
        threaded = rnd.random() < 0.75
        refs0 = []
        if total > 1 and rnd.random() < 0.7:
            body = "The work.\n"
            if rnd.random() < 0.3:
                body += "\n---\nchange-id: %d-%d\n" % (seed, topic)
            irt = prev_cover if prev_cover and rnd.random() < 0.3 else None
            if rnd.random() < 0.15:
                subj = subj + " again"        # a renamed cover letter
            cover = add(frm, "[PATCH%s 0/%d] %s" % (vtag, total, subj), date, body,
                        irt=irt, refs=[irt] if irt else ())
            refs0 = [cover]
            prev_cover = cover
        first = None
        for part in range(1, total + 1):
            ptag = "" if total == 1 else " %d/%d" % (part, total)
            up = (cover or first) if threaded else None
            # sent from the author's other address, or by Mo with the
            # author's in-body From: (now and then as a backport)
            who, top, stag = frm, "", ""
            k = rnd.random()
            if k < 0.1 and frm in alias:
                who = alias[frm]
            elif k < 0.25:
                who, top = "mo@example.org", "From: %s\n\n" % ident(frm)
                if rnd.random() < 0.3:
                    stag = " 5.10"
                    top += "commit %040x upstream.\n\n" % (topic * 10 + part)
            p = add(who, "[PATCH%s%s%s] %s part %d" % (stag, vtag, ptag, subj, part),
                    date + part * rnd.choice([1, 60, 4000]),
                    top + "Change.\n" + diff(topic * 10 + part),
                    irt=up, refs=[up] if up else ())
            first = first or p
            heads.append((p, "%s part %d" % (subj, part), frm, date))
            # replies, some with a tag, some to the cover
            for r in range(rnd.choice([0, 0, 1, 2])):
                who = rnd.choice(senders + ["bot@ci.example.org"])
                target = cover if cover and rnd.random() < 0.3 else p
                body = "> change\n\nLooks fine.\n"
                if rnd.random() < 0.4:
                    body += "\nReviewed-by: R <%s>\n" % who
                kind = rnd.random()
                if kind < 0.15:         # no References at all
                    add(who, "Re: [PATCH%s%s] %s part %d" % (vtag, ptag, subj, part),
                        date + 7200 + r, body)
                elif kind < 0.3:        # a missing parent in between
                    g = ghost()
                    add(who, "Re: [PATCH] x", date + 7200 + r, body, irt=g, refs=[target, g])
                else:
                    add(who, "Re: [PATCH] x", date + 7200 + r, body, irt=target,
                        refs=[target])
        date += rnd.randrange(3600, 5 * 86400)
# mails answering ids that come later, ghosts, and a loop
later = ["late%d.%d@example.org" % (seed, k) for k in range(4)]
for k, g in enumerate(later):
    add(rnd.choice(senders), "Re: early", T0 + k, "early\n", irt=g, refs=[g])
for k, g in enumerate(later):
    m = "<%s>" % g
    msgs.append("From: %s\nSubject: [PATCH] late %d\nMessage-ID: %s\nDate: %s\n\nlate\n%s\n"
                % (ident(rnd.choice(senders)), k, m,
                   __import__("email.utils").utils.formatdate(T0 + 100 + k), diff(900 + k)))
a, b = "loopa%d@example.org" % seed, "loopb%d@example.org" % seed
for x, y in ((a, b), (b, a)):
    msgs.append("From: cy@example.org\nSubject: Re: loop\nMessage-ID: <%s>\n"
                "In-Reply-To: <%s>\nDate: %s\n\nloop\n"
                % (x, y, __import__("email.utils").utils.formatdate(T0 + 5)))
rnd.shuffle(msgs)
with open(out, "w") as f:
    for m in msgs:
        f.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n" + m)
