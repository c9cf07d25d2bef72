#!/usr/bin/env python3
"""Convert between a public-inbox v2 epoch and an mboxrd file, streaming.

  pi-convert.py to-mbox EPOCH.git OUT.mbox   every message of the epoch, oldest
                                             first, as mboxrd
  pi-convert.py to-epoch MBOX OUT.git        an epoch (one commit per message,
                                             the message in blob `m`) made with
                                             git fast-import

The benchmarks use it to run onlist (which reads mbox) and public-inbox-index
(which reads epochs) on the same messages.  Nothing is held in memory but one
message at a time.
"""
import re
import subprocess
import sys

FROM_ = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
ESC = re.compile(rb"^(>*From )", re.M)
UNESC = re.compile(rb"^>(>*From )", re.M)


def to_mbox(epoch, out):
    revs = subprocess.Popen(
        ["git", "--git-dir", epoch, "rev-list", "--reverse", "HEAD"],
        stdout=subprocess.PIPE)
    cat = subprocess.Popen(
        ["git", "--git-dir", epoch, "cat-file", "--batch"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    n = 0
    with open(out, "wb") as f:
        for line in revs.stdout:
            cat.stdin.write(line.strip() + b":m\n")
            cat.stdin.flush()
            head = cat.stdout.readline().split()
            if head[-1] == b"missing":
                continue        # a purge commit: no `m`
            body = cat.stdout.read(int(head[2]))
            cat.stdout.read(1)
            if not body.endswith(b"\n"):
                body += b"\n"
            f.write(FROM_)
            f.write(ESC.sub(rb">\1", body))
            f.write(b"\n")
            n += 1
    cat.stdin.close()
    cat.wait()
    revs.wait()
    return n


def messages(path):
    msg = None
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b"From "):
                if msg is not None:
                    yield b"".join(msg)
                msg = []
            elif msg is not None:
                msg.append(UNESC.sub(rb"\1", line))
    if msg is not None:
        yield b"".join(msg)


def to_epoch(mbox, out):
    subprocess.run(["git", "init", "-q", "--bare", out], check=True)
    fi = subprocess.Popen(["git", "--git-dir", out, "fast-import", "--quiet"],
                          stdin=subprocess.PIPE)
    w = fi.stdin.write
    n = 0
    for m in messages(mbox):
        if m.endswith(b"\n\n"):
            m = m[:-1]          # the separator line before the next From_
        n += 1
        w(b"commit refs/heads/master\n")
        w(b"committer bench <bench@onlist.example> %d +0000\n" % n)
        w(b"data 1\n\n")
        w(b"M 100644 inline m\ndata %d\n" % len(m))
        w(m)
        w(b"\n")
    fi.stdin.close()
    if fi.wait() != 0:
        sys.exit("git fast-import failed")
    return n


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("to-mbox", "to-epoch"):
        sys.exit(__doc__)
    n = (to_mbox if sys.argv[1] == "to-mbox" else to_epoch)(*sys.argv[2:])
    print(n)


if __name__ == "__main__":
    main()
