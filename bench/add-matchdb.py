#!/usr/bin/env python3
"""add-matchdb.py DB N: add N new messages to a database made by
make-matchdb.py, as a fetch of new mail would, for the incremental figure
of bench/match.sh.

30% are new patch mails; the rest are replies, half to the new patches,
half to old ones (new mail lands in old threads too, which is what makes
an incremental rebuild work for its living).
"""
import random, sqlite3, struct, sys

import benchdb

db, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(2)
con = sqlite3.connect(db)
con.execute("PRAGMA journal_mode=WAL")
npatch_old = con.execute("SELECT count(*) FROM message_info WHERE class = 'patch'").fetchone()[0]
t0 = con.execute("SELECT max(date) FROM messages").fetchone()[0] + 60
base = con.execute("SELECT count(*) FROM messages").fetchone()[0]
msgs, info, mpatch, new = [], [], [], []
for i in range(n * 3 // 10):
    a = "dev%d@example.org" % rnd.randrange(5000)
    mid = "np%d.%d@example.org" % (base, i)
    h = sorted((rnd.getrandbits(32) & ~1) | rnd.getrandbits(1) for _ in range(rnd.randrange(4, 60)))
    subj = "sub%d: new change %d" % (i % 700, i)
    date = t0 + i * 300
    new.append((mid, date, subj))
    msgs.append((mid, "bench", date, a, a, "[PATCH] " + subj, "", "", 1, "%040x" % rnd.getrandbits(160)))
    info.append((mid, "patch", 0, 1, -1, -1, "PATCH", subj))
    mpatch.append((mid, None, struct.pack("<%dI" % len(h), *h), b"", "f.c", len(h) // 2, len(h) // 2))
for i in range(n - len(msgs)):
    if i % 2:
        p = new[rnd.randrange(len(new))]
    else:
        k = rnd.randrange(npatch_old)
        p = ("p%d@example.org" % k, 1300000000 + k * 300, "sub%d: change %d" % (k % 700, k))
    a = "dev%d@example.org" % rnd.randrange(5000)
    mid = "nr%d.%d@example.org" % (base, i)
    msgs.append((mid, "bench", max(p[1], t0) + 3600 + i, a, a, "Re: [PATCH] " + p[2], p[0], p[0], 0, None))
    info.append((mid, "reply", 1, 1, -1, -1, "PATCH", p[2]))
con.executemany(benchdb.MESSAGES, msgs)
con.executemany("INSERT INTO message_lists(msgid, list) VALUES(?, 'bench')",
                ((m[0],) for m in msgs))
con.executemany("INSERT INTO message_info(msgid, class, reply, version, part,"
                " total, prefix, stripped) VALUES(?,?,?,?,?,?,?,?)", info)
con.executemany(benchdb.MESSAGE_PATCH, mpatch)
con.commit()
con.close()
