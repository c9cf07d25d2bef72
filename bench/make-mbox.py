#!/usr/bin/env python3
"""Make a benchmark mbox of at least SIZE_MB from `git format-patch --stdout`
output on stdin: every message gets a unique Message-Id and, in turn, one of
the encodings mailers use (8bit, quoted-printable, base64, CRLF); every third
one an RFC 2047 From name (UTF-8) and Subject word (ISO-8859-1), as list mail
from non-ASCII names carries.  The input is cycled (with new Message-Ids)
until the size is reached.

usage: git format-patch --stdout ... | make-mbox.py SIZE_MB OUT.mbox
"""
import base64, quopri, re, sys

size = int(sys.argv[1]) * 1024 * 1024
out = open(sys.argv[2], "wb")
sep = re.compile(rb"^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001\n", re.M)
data = sys.stdin.buffer.read()
msgs = [m for m in sep.split(data) if m.strip()]
if not msgs:
    sys.exit("make-mbox.py: no format-patch messages on stdin")
written = n = 0
while written < size:
    for m in msgs:
        head, _, body = m.partition(b"\n\n")
        keep = [l for l in head.split(b"\n")
                if not l.lower().startswith((b"content-", b"mime-version", b"message-id"))]
        if n % 3 == 0:
            keep = [b"From: =?UTF-8?q?J=C3=B6rg?= " + l[6:] if l.startswith(b"From: ") else l
                    for l in keep]
            keep = [l + b" =?ISO-8859-1?Q?caf=E9?=" if l.startswith(b"Subject: ") else l
                    for l in keep]
        head = b"\n".join(keep) + b"\nMessage-Id: <%d.bench@onlist.example>\nMIME-Version: 1.0\n" % n
        kind = n % 4
        if kind == 1:
            head += b"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: quoted-printable"
            body = quopri.encodestring(body)
        elif kind == 2:
            head += b"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: base64"
            body = base64.encodebytes(body)
        else:
            head += b"Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit"
        # mboxrd: escape body lines that look like From_ lines
        body = re.sub(rb"^(>*From )", rb">\1", body, flags=re.M)
        msg = head + b"\n\n" + body
        if kind == 3:
            msg = msg.replace(b"\n", b"\r\n")
        rec = b"From bench@onlist.example Mon Jun  3 10:00:00 2013\n" + msg.rstrip(b"\r\n") + b"\n\n"
        out.write(rec)
        written += len(rec)
        n += 1
        if written >= size:
            break
print(n, "messages,", written, "bytes", file=sys.stderr)
