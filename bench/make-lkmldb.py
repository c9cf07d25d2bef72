#!/usr/bin/env python3
"""make-lkmldb.py DB MESSAGES COMMITS: fill an onlist database (schema
already created by onlist) with synthetic mail and commits shaped like
LKML plus mainline and stable, for bench/kernel.sh.
make-lkmldb.py --add DB N: add N new messages of the same shape, as a
fetch of new mail would, for the incremental figure.

The shape, beyond bench/make-matchdb.py's busy list:
- 40 lists: linux-kernel, 37 subsystem lists sized Zipf-like,
  linux-tip-commits and stable.  A patch goes to its subsystem list, to
  linux-kernel four times in five, to a second subsystem list one time in
  four and Cc's stable one time in twenty (1 to 4 rows in message_lists);
  its replies go to the same lists.
- 30% of the ordinary mail is patches, the rest replies; 20,000 authors,
  Zipf-like.
- Of the mainline commits (nine in ten): 55% posted exactly, 10% posted
  then edited (patch-id differs, fingerprint mostly shared), the rest never
  posted.  They come in order; merges every 100 to 500 commits land them
  (one in twenty is applied directly, landing on itself).
- One mainline commit in twelve went through tip: a tip-bot2 mail on
  linux-tip-commits (Cc linux-kernel), "[tip: x86/core] ...", with the
  commit's patch-id and fingerprint, an hour after the commit: an echo.
- The other tenth of COMMITS are stable backports: a second commit of an
  earlier mainline commit's patch, "commit <sha> upstream." in its body,
  applied directly; each has its stable review mail ("[PATCH 5.10 012/100]"
  on stable and linux-kernel, message_info.upstream = 1): an echo.
Fingerprints are random 32-bit hashes with the side bit set as onlist sets
it.  Rows are written in chunks, so memory stays small at 5M messages.
"""
import bisect, hashlib, itertools, random, sqlite3, struct, sys

import benchdb

T0 = 1100000000
NAUTH = 20000
NSUB = 37
CHUNK = 50000
AUTH_CW = list(itertools.accumulate(1.0 / (i + 1) ** 0.8 for i in range(NAUTH)))
SUB_CW = list(itertools.accumulate(1.0 / (i + 1) for i in range(NSUB)))
TIP = ["x86/core", "x86/urgent", "sched/core", "locking/core", "perf/core",
       "timers/core", "irq/core", "objtool/core"]
INFO_COLS = ("INSERT INTO message_info(msgid, class, reply, version, part,"
             " total, prefix, stripped, upstream) VALUES(?,?,?,?,?,?,?,?,?)")


def zipf(rnd, cw):
    return bisect.bisect(cw, rnd.random() * cw[-1])


def author(rnd):
    a = zipf(rnd, AUTH_CW)
    return "Dev %d" % a, "dev%d@example.org" % a


def blob(h):
    return struct.pack("<%dI" % len(h), *h)


def fp(rnd, n):
    return sorted((rnd.getrandbits(32) & ~1) | rnd.getrandbits(1) for _ in range(n))


def pid_of(key):
    return hashlib.sha1(key.encode()).hexdigest()


class Patch:
    """Patch mail i, the same each time it is asked for: what a commit, a
    reply or an echo of it needs, without keeping 1.5M of them."""
    def __init__(self, i):
        rnd = random.Random(i * 2654435761 + 7)
        self.i = i
        self.mid = "p%d@lkml.example" % i
        self.date = T0 + i * 300
        self.name, self.addr = author(rnd)
        sub = zipf(rnd, SUB_CW)
        self.lists = ["sub%d-devel" % sub]
        if rnd.random() < 0.8:
            self.lists.insert(0, "linux-kernel")
        if rnd.random() < 0.25:
            other = "sub%d-devel" % zipf(rnd, SUB_CW)
            if other not in self.lists:
                self.lists.append(other)
        if rnd.random() < 0.05:
            self.lists.append("stable")
        self.subj = "sub%d: change %d" % (sub, i)
        self.files = "drivers/sub%d/f%d.c" % (sub, rnd.randrange(50))
        self.pid = pid_of(self.mid)
        self.nfp = rnd.randrange(4, 60)

    def fp(self):
        return fp(random.Random(self.i * 40503 + 11), self.nfp)


class Writer:
    def __init__(self, con):
        self.con = con
        self.msgs, self.lists, self.info, self.patch = [], [], [], []

    def mail(self, mid, lists, date, name, addr, subject, parent, pid,
             cls, prefix, stripped, upstream=0, h=None, files=None,
             part=-1, total=-1):
        self.msgs.append((mid, lists[0], date, name, addr, subject, parent,
                          parent, 1 if h else 0, pid))
        self.lists.extend((mid, l) for l in lists)
        self.info.append((mid, cls, 1 if parent else 0, 1, part, total,
                          prefix, stripped, upstream))
        if h:
            self.patch.append((mid, None, blob(h), b"", files,
                               len(h) // 2, len(h) // 2))
        if len(self.msgs) >= CHUNK:
            self.flush()

    def flush(self):
        c = self.con
        c.executemany(benchdb.MESSAGES, self.msgs)
        c.executemany("INSERT INTO message_lists(msgid, list) VALUES(?, ?)", self.lists)
        c.executemany(INFO_COLS, self.info)
        c.executemany(benchdb.MESSAGE_PATCH, self.patch)
        self.msgs, self.lists, self.info, self.patch = [], [], [], []


def reply(w, rnd, p, mid, date):
    name, addr = author(rnd)
    w.mail(mid, p.lists, date, name, addr, "Re: [PATCH] " + p.subj, p.mid,
           None, "reply", "PATCH", p.subj)


def tip_mail(w, rnd, mid, c):
    """c: (sha, name, addr, date, subj, pid, h, files)"""
    branch = TIP[rnd.randrange(len(TIP))]
    w.mail(mid, ["linux-tip-commits", "linux-kernel"], c[3] + 3600,
           "tip-bot2 for " + c[1], "tip-bot2@linutronix.de",
           "[tip: %s] %s" % (branch, c[4]), "", c[5], "patch",
           "tip: " + branch, c[4], h=c[6], files=c[7])


def stable_mail(w, rnd, mid, date, c):
    n = rnd.randrange(1, 100)
    w.mail(mid, ["stable", "linux-kernel"], date,
           "Greg Kroah-Hartman", "gregkh@linuxfoundation.org",
           "[PATCH 5.10 %03d/100] %s" % (n, c[4]), "", c[5], "patch",
           "PATCH 5.10", c[4], upstream=1, h=c[6], files=c[7], part=n,
           total=100)


def make(db, nmsg, ncommit):
    rnd = random.Random(1)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    nstable = ncommit // 10
    nmain = ncommit - nstable
    ntip = nmain // 12
    rest = max(nmsg - ntip - nstable, 10)
    npatch = max(rest * 3 // 10, 1)
    nreply = rest - npatch
    w = Writer(con)
    for i in range(npatch):
        p = Patch(i)
        w.mail(p.mid, p.lists, p.date, p.name, p.addr, "[PATCH] " + p.subj,
               "", p.pid, "patch", "PATCH", p.subj, h=p.fp(), files=p.files)
    for i in range(nreply):
        p = Patch(rnd.randrange(npatch))
        reply(w, rnd, p, "r%d@lkml.example" % i, p.date + rnd.randrange(600, 7 * 86400))
    # mainline, in order; a merge every 100 to 500 commits
    commits, cpatch, landing, group = [], [], [], []
    main = []           # (sha, name, addr, date, subj, pid, fp, files) for backports
    tip_left = ntip
    per_merge, merges = rnd.randrange(100, 500), 0

    def land():
        nonlocal merges, per_merge
        top = max(c[3] for c in group) + 86400
        msha = pid_of("merge%d" % merges)
        for c in group:
            landing.append((c[0], top, msha, "Merge tag 'sub-%d' of git://git.example.org" % merges))
        merges += 1
        per_merge = rnd.randrange(100, 500)
        group.clear()

    def flush_commits():
        con.executemany(benchdb.COMMITS, commits)
        con.executemany(benchdb.COMMIT_PATCH, cpatch)
        con.executemany(benchdb.LANDING, landing)
        commits.clear(); cpatch.clear(); landing.clear()

    def commit(c, body):
        commits.append((c[0], c[1], c[2], c[3], "Maint", "maint@example.org",
                        c[3], c[4], body, 0, c[7], c[5]))
        cpatch.append((c[0], None, None, None, blob(c[6]), None, c[7],
                       len(c[6]) // 2, len(c[6]) // 2))

    for i in range(nmain):
        sha = pid_of("c%d" % i)
        r = rnd.random()
        # the patch posted about when this commit was made
        k = min(npatch - 1, max(0, i * npatch // nmain + rnd.randrange(-50, 10)))
        if r < 0.65:
            p = Patch(k)
            h, pid = p.fp(), p.pid
            if r >= 0.55:       # edited before it was applied
                h, pid = sorted(h[:-2] + fp(rnd, 2)), pid_of(sha)
            c = (sha, p.name, p.addr, p.date + 86400, p.subj, pid, h, p.files)
        else:
            name, addr = author(rnd)
            sub = zipf(rnd, SUB_CW)
            c = (sha, name, addr, T0 + k * 300 + 86400, "sub%d: own %d" % (sub, i),
                 pid_of(sha), fp(rnd, rnd.randrange(4, 60)),
                 "drivers/sub%d/f%d.c" % (sub, rnd.randrange(50)))
        commit(c, "Body.\n")
        if rnd.random() < 0.05:
            landing.append((sha, c[3], sha, None))      # applied directly
        else:
            group.append(c)
            if len(group) >= per_merge:
                land()
        if tip_left and rnd.random() < 1 / 12:
            tip_mail(w, rnd, "tip%d@lkml.example" % i, c)
            tip_left -= 1
        if len(main) < 200000 and rnd.random() < 0.5:
            main.append(c)
        elif main and rnd.random() < 0.5:
            main[rnd.randrange(len(main))] = c
        if len(commits) >= CHUNK:
            flush_commits()
    if group:
        land()
    # stable backports of mainline commits, and their review mail
    for j in range(nstable + tip_left):
        if not main:
            break
        u = main[rnd.randrange(len(main))]
        sha = pid_of("s%d" % j)
        date = u[3] + 30 * 86400 + rnd.randrange(86400)
        c = (sha,) + u[1:3] + (date,) + u[4:]
        if j < nstable:
            commit(c, "commit %s upstream.\n\nBody.\n" % u[0])
            landing.append((sha, date, sha, None))
        stable_mail(w, rnd, "st%d@lkml.example" % j, date - 2 * 86400, c)
        if len(commits) >= CHUNK:
            flush_commits()
    flush_commits()
    w.flush()
    con.commit()
    con.close()


def add(db, n):
    """N new messages: a tenth tip and stable echoes of recent commits, of
    the rest 30% new patches and replies, half to the new patches, half
    to old ones (new mail lands in old threads too)."""
    rnd = random.Random(2)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    npatch_old = con.execute("SELECT count(*) FROM message_info WHERE class = 'patch'"
                             " AND msgid LIKE 'p%'").fetchone()[0]
    t0 = con.execute("SELECT max(date) FROM messages").fetchone()[0] + 60
    base = con.execute("SELECT count(*) FROM messages").fetchone()[0]
    recent = con.execute("SELECT c.sha, c.author_name, c.author_email, c.commit_date,"
                         " c.subject, c.patch_id, p.fp, c.files FROM commits c"
                         " JOIN commit_patch p ON p.sha = c.sha"
                         " ORDER BY c.commit_date DESC LIMIT 200").fetchall()
    recent = [c[:6] + (list(struct.unpack("<%dI" % (len(c[6]) // 4), c[6])), c[7])
              for c in recent]
    w = Writer(con)
    nech = n // 10 if recent else 0
    for i in range(nech):
        c = recent[rnd.randrange(len(recent))]
        c = c[:3] + (max(c[3], t0) + i,) + c[4:]
        if i % 2:
            tip_mail(w, rnd, "ntip%d.%d@lkml.example" % (base, i), c)
        else:
            stable_mail(w, rnd, "nst%d.%d@lkml.example" % (base, i), c[3], c)
    new = []
    rest = n - nech
    for i in range(rest * 3 // 10):
        p = Patch(npatch_old + base + i)        # an index no old patch has
        p.mid = "np%d.%d@lkml.example" % (base, i)
        p.date = t0 + i * 300
        p.pid = pid_of(p.mid)
        new.append(p)
        w.mail(p.mid, p.lists, p.date, p.name, p.addr, "[PATCH] " + p.subj,
               "", p.pid, "patch", "PATCH", p.subj, h=p.fp(), files=p.files)
    for i in range(rest - len(new)):
        if i % 2 and new:
            p = new[rnd.randrange(len(new))]
        else:
            p = Patch(rnd.randrange(max(npatch_old, 1)))
        reply(w, rnd, p, "nr%d.%d@lkml.example" % (base, i), max(p.date, t0) + 3600 + i)
    w.flush()
    con.commit()
    con.close()


if __name__ == "__main__":
    if sys.argv[1] == "--add":
        add(sys.argv[2], int(sys.argv[3]))
    else:
        make(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
