#!/usr/bin/env python3
"""make-matchdb.py DB MESSAGES COMMITS: fill an onlist database (schema
already created by onlist) with synthetic mail and commits shaped like a
busy list, for bench/match.sh.

30% of the messages are patch mails, the rest replies in their threads;
authors are Zipf-like (a few prolific, many occasional).  Half the commits
have an exact posting, a tenth a posting with a few changed lines edited,
the rest none; every commit came in by a merge (a landing row), so the time
bound is exercised.  Fingerprints are random 32-bit hashes with the side bit
set as onlist sets it.
"""
import random, sqlite3, struct, sys

import benchdb

db, nmsg, ncommit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(1)
con = sqlite3.connect(db)
con.execute("PRAGMA journal_mode=WAL")
con.execute("PRAGMA synchronous=OFF")
NAUTH = 5000
weights = [1.0 / (i + 1) ** 0.8 for i in range(NAUTH)]
authors = ["dev%d@example.org" % i for i in range(NAUTH)]
T0 = 1300000000

def fp(n):
    return sorted((rnd.getrandbits(32) & ~1) | rnd.getrandbits(1) for _ in range(n))

def blob(h):
    return struct.pack("<%dI" % len(h), *h)

def hexid():
    return "%040x" % rnd.getrandbits(160)

npatch = nmsg * 3 // 10
patches = []        # (msgid, author, date, fp, subject)
msgs, info, mpatch, lists = [], [], [], []
pick = rnd.choices(range(NAUTH), weights, k=npatch)
for i in range(npatch):
    a = authors[pick[i]]
    mid = "p%d@example.org" % i
    date = T0 + i * 300     # a patch every five minutes: years of a busy list
    h = fp(rnd.randrange(4, 60))
    subj = "sub%d: change %d" % (i % 700, i)
    pid = hexid()
    patches.append((mid, a, date, h, subj, pid))
    msgs.append((mid, "bench", date, a, a, "[PATCH] " + subj, "", "", 1, pid))
    info.append((mid, "patch", 0, 1, -1, -1, "PATCH", subj))
    mpatch.append((mid, None, blob(h), b"", "f.c", len(h) // 2, len(h) // 2))
for i in range(nmsg - npatch):
    p = patches[rnd.randrange(npatch)]
    mid = "r%d@example.org" % i
    a = authors[rnd.choices(range(NAUTH), weights)[0]]
    msgs.append((mid, "bench", p[2] + 3600, a, a, "Re: [PATCH] " + p[4], p[0], p[0], 0, None))
    info.append((mid, "reply", 1, 1, -1, -1, "PATCH", p[4]))
con.executemany(benchdb.MESSAGES, msgs)
con.executemany("INSERT INTO message_lists(msgid, list) VALUES(?, 'bench')",
                ((m[0],) for m in msgs))
con.executemany("INSERT INTO message_info(msgid, class, reply, version, part,"
                " total, prefix, stripped) VALUES(?,?,?,?,?,?,?,?)", info)
con.executemany(benchdb.MESSAGE_PATCH, mpatch)
commits, cpatch, landing = [], [], []
for i in range(ncommit):
    sha = hexid()
    r = rnd.random()
    if r < 0.5:
        p = patches[rnd.randrange(npatch)]
        a, pid, h, subj, date = p[1], p[5], p[3], p[4], p[2] + 86400
    elif r < 0.6:
        p = patches[rnd.randrange(npatch)]
        a, pid, subj, date = p[1], hexid(), p[4], p[2] + 86400
        h = sorted(p[3][:-2] + fp(2))
    else:
        a = authors[rnd.choices(range(NAUTH), weights)[0]]
        pid, h, subj, date = hexid(), fp(rnd.randrange(4, 60)), "own%d: thing" % i, T0 + rnd.randrange(npatch * 300)
    commits.append((sha, a, a, date, "Maint", "maint@example.org", date, subj, "Body.\n", 0, "f.c", pid))
    cpatch.append((sha, None, None, None, blob(h), None, "f.c", len(h) // 2, len(h) // 2))
    landing.append((sha, date + 7 * 86400, "%040x" % (i // 50), "Merge branch"))
con.executemany(benchdb.COMMITS, commits)
con.executemany(benchdb.COMMIT_PATCH, cpatch)
con.executemany(benchdb.LANDING, landing)
con.commit()
con.close()
