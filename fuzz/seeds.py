#!/usr/bin/env python3
"""Seed corpora for the fuzz harnesses, made from the fixtures.

    python3 fuzz/seeds.py FIXTURES OUTDIR

FIXTURES is a directory written by fixtures/make-fixtures.sh; OUTDIR gets
one subdirectory per harness (mbox, mail, patchid, http, gzip, subject,
patchfp, maintainers).  Seeds are
kept small (a few KB) so that libFuzzer's default input size stays small
and executions fast.  Deterministic: the same fixtures give the same seeds.
A harness with no entry here still runs, from fuzz/seeds/NAME/ if that
exists, or from nothing."""
import gzip
import hashlib
import os
import re
import subprocess
import sys

fx, out = sys.argv[1], sys.argv[2]
MAX = 16384
FROM = re.compile(rb'^From \S.* \w{3} \w{3} [ \d]\d \d\d:\d\d', re.M)


def put(name, data):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), 'wb') as f:
        f.write(data)


def gz(data):
    return gzip.compress(data, mtime=0)


mbox = open(os.path.join(fx, 'list.mbox'), 'rb').read()
starts = [m.start() for m in FROM.finditer(mbox)] + [len(mbox)]
msgs = [mbox[a:b] for a, b in zip(starts, starts[1:])]
small = [m for m in msgs if len(m) <= MAX]
# every 8th message, so that the encodings the fixture varies all appear
picked = small[::8]

for m in picked:
    body = m[m.index(b'\n') + 1:]          # without the From_ line
    put('mail', body)
    put('mbox', m)
for i in range(0, len(picked) - 2, 6):
    put('mbox', b''.join(picked[i:i + 3]))
    put('mbox', gz(b''.join(picked[i:i + 3])))
put('mbox', b'From a@b Mon Jan  1 00:00:00 2001\n>From x\n>>From y\n\n'
            b'From body line\n')

# patch-id: git log -p of the fixture repository, one commit per seed, and
# format-patch text of a few; the mails above carry patches too
repo = os.path.join(fx, 'repo')
log = subprocess.run(['git', '-C', repo, 'log', '-p', '--full-index',
                      '--no-merges', '-n', '300', 'main'],
                     capture_output=True, check=True).stdout
commits = re.split(rb'(?m)^(?=commit [0-9a-f]{40})', log)
for c in [c for c in commits if 0 < len(c) <= MAX][::10]:
    put('patchid', c)
for m in picked[::2]:
    put('patchid', m)

# gzip check: whole streams, several members, padding, cut short
for i, m in enumerate(picked[:12]):
    z = gz(m)
    put('gzip', b'\x01' + z)
    put('gzip', b'\x00' + z + gz(b'second member\n') + b'\0' * 8)
    put('gzip', b'\x01' + z[:len(z) // 2])
put('gzip', b'\x00' + b'From plain text, not gzip\n')

# HTTP answers around a small body
body = b''.join(picked[:2])
zbody = gz(body)


def resp(flags, status, headers, payload):
    h = b'HTTP/1.1 ' + status + b'\r\n' + b''.join(
        k + b': ' + v + b'\r\n' for k, v in headers) + b'\r\n'
    put('http', bytes([flags]) + h + payload)


cl = lambda p: (b'Content-Length', str(len(p)).encode())
resp(0, b'200 OK', [cl(body), (b'ETag', b'"x1"')], body)
resp(2, b'200 OK', [cl(zbody), (b'Content-Type', b'application/gzip'),
                    (b'Last-Modified', b'Mon, 03 Jun 2013 10:00:00 GMT')], zbody)
resp(2, b'200 OK', [(b'Content-Type', b'application/x-gzip')], zbody[:40])
resp(3, b'200 OK', [(b'Transfer-Encoding', b'chunked')],
     b'%x\r\n' % len(zbody) + zbody + b'\r\n0\r\n\r\n')
resp(6, b'304 Not Modified', [(b'ETag', b'W/"x2"')], b'')
resp(0, b'404 Not Found', [cl(b'no')], b'no')
resp(0, b'503 Service Unavailable', [(b'Retry-After', b'120'), cl(b'')], b'')
resp(0, b'429 Too Many', [(b'Retry-After', b'Wed, 21 Oct 2015 07:28:00 GMT')], b'')
resp(2, b'206 Partial Content', [(b'Content-Range', b'bytes 0-9/%d' % len(zbody)),
                                 cl(zbody[:10])], zbody[:10])
resp(0, b'301 Moved', [(b'Location', b'/elsewhere'), cl(b'')], b'')
resp(0, b'200 OK', [cl(body + body)], body)   # shorter than it says

# subject prefixes and the text of mails: subjects and bodies of the
# fixture's mails (replies with trailers, a request-pull, cover letters)
for m in picked:
    sub = re.search(rb'(?m)^Subject: (.*)$', m)
    if sub:
        put('subject', sub.group(1))
    put('subject', m[m.find(b'\n\n') + 2:][:MAX])
for s in (b'Re: AW: [RFC PATCH net-next v2 03/12] tcp: foo',
          b'[PATCH [net] v2,1/3] x', b'Re[2]: [PATCHv4 1/2] y', b'[GIT PULL] z',
          b'are available in the Git repository at:\n\n  git://x/y.git tag\n\n'
          b'for you to fetch changes up to 0123456789abcdef0123:\n',
          b'> Reviewed-by: Q <q@x>\nAcked-by: A <a@x>\n-- \nTested-by: S <s@x>\n',
          b'---\nbase-commit: abc\nchange-id: 20230101-x-0123\n'):
    put('subject', s)

# diff fingerprints and repaired ids: the patch-id seeds, and damaged forms
for c in [c for c in commits if 0 < len(c) <= MAX][::20]:
    put('patchfp', c)
    put('patchfp', re.sub(rb'(?m)^ $', b'', c))                 # mangled
    put('patchfp', re.sub(rb'(?m)^(diff --git|index ).*\n', b'', c))  # quilt-ish

# MAINTAINERS
put('maintainers', b'EXT4 FILE SYSTEM\nM:\tA <a@x>\nF:\tfs/ext4/\nX:\tfs/ext4/x.c\n\n'
                   b'NETWORKING\nF:\tnet/\nN:\t[^a-z]tcp\nF:\tinclude/*/net*.h\n\n'
                   b'THE REST\nF:\t*\nF:\t*/\n')
