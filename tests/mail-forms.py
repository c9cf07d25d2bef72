#!/usr/bin/env python3
"""mail-forms.py - re-encode git format-patch mails the ways mailers send them.

    mail-forms.py OUTDIR FORMAT-PATCH-DIR...

Every file in each FORMAT-PATCH-DIR is one `git format-patch` mail.  The
first directory holds plain mails: each is written as it is and in every
form below; the mails of the other directories (format-patch --attach,
--inline, a --cover-letter -v3 --thread series...) are written as they are,
named after their directory.  Each output file OUTDIR/NNN-FORM.mbox is a
one-message mboxrd (">From " escaped), with a public-inbox From_ line so
that neither git nor onlist takes it for a format-patch stream.

Forms (the body of the plain mail, re-encoded):
    qp, b64        quoted-printable / base64, UTF-8
    b64crlf        base64 of the body with CR LF line ends
    crlf           CR LF line ends on every line of the file
    latin1, cp1252 8-bit ISO-8859-1 / windows-1252, when the message can be
                   (the diff must stay ASCII: git converts only the message)
    iso2022jp      7-bit ISO-2022-JP, when the message can be
    flowed         format=flowed as Thunderbird writes it: trailing blanks
                   dropped, lines starting with " ", ">" or "From " stuffed,
                   lines over 76 columns wrapped at blanks
    inbody         in-body From:, Subject: and Date: above the message
    scissors       a note and a "-- >8 --" line above in-body headers
    octet          the message in a text/plain part, the patch (no "---")
                   in a base64 application/octet-stream attachment
    alternative    multipart/alternative: the mail in text/plain, an HTML
                   rendering after it
    signed         multipart/signed: the mail in a quoted-printable part,
                   then an application/pgp-signature part
    reply          a reply that quotes the whole mail with "> "
    quilt          the diff in quilt style ("Index:", no "diff --git")
    plaindiff      the diff with no "diff"/"index" lines (plain diff -u)
    blankfirst     the mail as it is, in an mbox that starts with blank lines
                   (spaces and tabs on them) before its From_ line, as git's
                   t5100/sample.mbox does
    badfrom        the mail after a first line "From pat016", no From_ line
                   (patchwork's tests/data/fuzz mails begin so): git am's
                   `git mailsplit -b` takes it as a bare message
    nulhdr         a NUL inside the From header
    nulpatch       NUL and backspace bytes in the added lines of the diff (as
                   git's t5100/nul-plain); nulb64: the same body in base64
                   (as t5100/nul-b64.in)
    nulmsg         a NUL in the commit message (onlist makes it U+FFFD; t013
                   compares git's message with its NULs made U+FFFD)
    nohdr          a first line that is no header, the mail's headers after
                   it: git reads all of it as the body
    bodyonly       the body alone, no header at all (as t5100/nul-plain)
    barediff       the diff alone: no header, no message, no From_ line
                   (patchwork's tests/data/patches, public-inbox's
                   t/solve/bare.patch): git mailinfo reads it as a body
    formatpatch    the mail as it is, after its own format-patch From_ line
                   ("From <commit> Mon Sep 17 00:00:00 2001", as
                   t5100/nul-b64.in); formatpatchb64: nulb64bare so
                   (t5100/nul-b64.in itself)

Forms where onlist departs from git on purpose come with an oracle: the
same mail as git needs it to give the answer onlist gives, written beside
it as OUTDIR/NNN-FORM.oracle, and t013 hands git that file instead:
    ebcdic         the UTF-8 message labelled charset=IBM037: git converts
                   the ASCII "---" and diff through EBCDIC and finds no
                   patch; the oracle is labelled UTF-8
    unknown8bit    labelled charset=unknown-8bit: git stops with "cannot
                   convert"; the oracle is labelled UTF-8
    nulcharset     labelled charset="u\0\0\0d" (patchwork's fuzzed
                   codec-null.mbox): git stops with "cannot convert from u";
                   the oracle is labelled UTF-8
Only the standard library.
"""
import base64
import os
import quopri
import re
import sys

FROM_LINE = b'From mboxrd@z Thu Jan  1 00:00:00 1970\n'
# what starts the file of a form instead of FROM_LINE
FILE_START = {'blankfirst': b' \t\n\t\n   \n\n' + FROM_LINE, 'badfrom': b'From pat016\n',
              'barediff': b''}


def split(msg):
    i = msg.index(b'\n\n')
    return msg[:i + 1], msg[i + 2:]


def strip_mime(head):
    """the header block without its MIME headers (continuations too)"""
    out, skip = [], False
    for line in head.splitlines(keepends=True):
        if line[:1] in (b' ', b'\t'):
            if not skip:
                out.append(line)
            continue
        skip = line.lower().startswith((b'content-', b'mime-version'))
        if not skip:
            out.append(line)
    return b''.join(out)


def with_type(head, ctype, cte=None):
    h = strip_mime(head) + b'MIME-Version: 1.0\nContent-Type: ' + ctype + b'\n'
    if cte:
        h += b'Content-Transfer-Encoding: ' + cte + b'\n'
    return h


def message_and_diff(body):
    """(text before the first "diff --git" line, the rest)"""
    i = body.find(b'\ndiff --git ')
    return (body, b'') if i < 0 else (body[:i + 1], body[i + 1:])


def charset_body(head, body, codec, charset):
    msg, diff = message_and_diff(body)
    if not diff.isascii():
        return None
    try:
        text = msg.decode('utf-8')
        enc = text.encode(codec)
    except UnicodeError:
        return None
    if text.isascii():
        return None                     # nothing to convert: not this form
    return with_type(head, b'text/plain; charset=' + charset, b'8bit' if codec != 'iso2022_jp'
                     else b'7bit'), enc + diff


def flow(body):
    out = []
    for line in body.split(b'\n'):
        if line != b'-- ':
            line = line.rstrip(b' ')
        if line.startswith((b' ', b'>', b'From ')):
            line = b' ' + line
        while len(line) > 76 and line != b'-- ':
            cut = line.rfind(b' ', 1, 76)
            if cut <= 0:
                break
            out.append(line[:cut + 1])      # soft break: ends in a blank
            line = line[cut + 1:]
        out.append(line)
    return b'\n'.join(out)


def quilt(body):
    out = []
    for line in body.split(b'\n'):
        m = re.match(rb'diff --git a/(\S+) b/', line)
        if m:
            out.append(b'Index: ' + m.group(1))
            out.append(b'=' * 67)
        elif not line.startswith(b'index '):
            out.append(line)
    return b'\n'.join(out)


def plaindiff(body):
    return b'\n'.join(l for l in body.split(b'\n')
                      if not l.startswith((b'diff --git ', b'index ')))


def header(head, name):
    m = re.search(rb'(?mi)^' + name + rb': (.*(?:\n[ \t].*)*)', head)
    return m.group(1).replace(b'\n', b'') if m else b''


def forms(msg):
    head, body = split(msg)
    h = strip_mime(head)
    utf8 = b'text/plain; charset=UTF-8'
    yield 'plain', msg
    yield 'blankfirst', msg
    yield 'badfrom', msg
    yield 'nulhdr', re.sub(rb'(?m)^From: (\S)', lambda m: m.group(0) + b'\0', head, count=1) + b'\n' + body
    text, diff = message_and_diff(body)
    if diff:
        nul = text + re.sub(rb'(?m)^\+(?!\+\+ )', b'+\x00\x08', diff)
        yield 'nulpatch', head + b'\n' + nul
        yield 'nulb64', with_type(head, utf8, b'base64') + b'\n' + base64.encodebytes(nul)
        # as t5100/nul-b64.in: base64 with no Content-Type at all, NULs
        # inside the lines of the message and of the diff
        bare = strip_mime(head) + b'Content-Transfer-Encoding: base64\n'
        inner = (text.replace(b'\n', b'\x00\n', 1) +
                 re.sub(rb'(?m)^\+(?!\+\+ )(.)', lambda m: b'+' + m.group(1) + b'\x00', diff))
        yield 'nulb64bare', bare + b'\n' + base64.encodebytes(inner)
        # a body that decodes to NUL bytes before the mail (patchwork's
        # fuzzed mails)
        yield 'nulrun', bare + b'\n' + base64.encodebytes(b'\x00' * 48 + b'\n' + body)
    yield 'nulmsg', head + b'\nA NUL\x00here.\n\n' + body
    yield 'nohdr', b'this line is no header\n' + msg
    yield 'bodyonly', body
    if diff:
        yield 'barediff', diff
    yield 'qp', with_type(head, utf8, b'quoted-printable') + b'\n' + quopri.encodestring(body)
    yield 'b64', with_type(head, utf8, b'base64') + b'\n' + base64.encodebytes(body)
    yield 'b64crlf', (with_type(head, utf8, b'base64') + b'\n' +
                      base64.encodebytes(body.replace(b'\n', b'\r\n')))
    yield 'crlf', msg.replace(b'\n', b'\r\n')
    for form, codec, cs in (('latin1', 'iso-8859-1', b'ISO-8859-1'),
                            ('cp1252', 'cp1252', b'windows-1252'),
                            ('iso2022jp', 'iso2022_jp', b'ISO-2022-JP')):
        r = charset_body(head, body, codec, cs)
        if r:
            yield form, r[0] + b'\n' + r[1]
    yield 'flowed', (with_type(head, b'text/plain; charset=UTF-8; format=flowed', b'8bit') +
                     b'\n' + flow(body))
    inbody = (b'From: Ivo Inbody <ivo@example.net>\nSubject: [PATCH] from the body\n'
              b'Date: Tue, 2 Jul 2013 10:00:00 +0000\n\n')
    yield 'inbody', head + b'\n' + inbody + body
    yield 'scissors', (head + b'\nHere is what I meant, untested:\n\n-- >8 --\n' + inbody + body)
    if diff:
        cut = text.rfind(b'\n---\n')
        note = text[:cut + 1] if cut >= 0 else text
        yield 'octet', (with_type(head, b'multipart/mixed; boundary="oct-1"') +
                        b'\nThis is a multi-part message in MIME format.\n'
                        b'--oct-1\nContent-Type: text/plain; charset=UTF-8\n\n' + note +
                        b'--oct-1\nContent-Type: application/octet-stream; name="fix.patch"\n'
                        b'Content-Transfer-Encoding: base64\n'
                        b'Content-Disposition: attachment; filename="fix.patch"\n\n' +
                        base64.encodebytes(diff) + b'--oct-1--\n')
    html = (b'<html><body><pre>' + body.replace(b'&', b'&amp;').replace(b'<', b'&lt;') +
            b'</pre></body></html>\n')
    yield 'alternative', (with_type(head, b'multipart/alternative; boundary="alt-1"') +
                          b'\n--alt-1\nContent-Type: text/plain; charset=UTF-8\n'
                          b'Content-Transfer-Encoding: 8bit\n\n' + body +
                          b'--alt-1\nContent-Type: text/html; charset=UTF-8\n\n' + html +
                          b'--alt-1--\n')
    yield 'signed', (with_type(head, b'multipart/signed; micalg=pgp-sha256; '
                               b'protocol="application/pgp-signature"; boundary="sig-1"') +
                     b'\nThis is an OpenPGP/MIME signed message (RFC 4880 and 3156)\n'
                     b'--sig-1\nContent-Type: text/plain; charset=UTF-8\n'
                     b'Content-Transfer-Encoding: quoted-printable\n\n' +
                     quopri.encodestring(body) +
                     b'\n--sig-1\nContent-Type: application/pgp-signature; name="signature.asc"\n'
                     b'Content-Description: OpenPGP digital signature\n\n'
                     b'-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEE0nl1st\n'
                     b'=AbCd\n-----END PGP SIGNATURE-----\n\n--sig-1--\n')
    subj = header(head, b'Subject')
    yield 'reply', (b'From: Rita Reviewer <rita@example.com>\nSubject: Re: ' + subj +
                    b'\nDate: Wed, 3 Jul 2013 10:00:00 +0000\n'
                    b'Message-Id: <reply@example.com>\n\nOn Monday Ann wrote:\n' +
                    b''.join(b'>' + (b' ' if l else b'') + l + b'\n'
                             for l in body.rstrip(b'\n').split(b'\n')) +
                    b'\nLooks good to me.\n')
    if diff:
        yield 'quilt', head + b'\n' + quilt(body)
        yield 'plaindiff', head + b'\n' + plaindiff(body)
    utf8_body = with_type(head, utf8, b'8bit') + b'\n' + body
    for form, cs in (('ebcdic', b'IBM037'), ('unknown8bit', b'unknown-8bit'),
                     ('nulcharset', b'"u\x00\x00\x00d"')):
        yield form, with_type(head, b'text/plain; charset=' + cs, b'8bit') + b'\n' + body, utf8_body


def mboxrd(msg, first=FROM_LINE):
    crlf = msg.endswith(b'\r\n')
    eol = b'\r\n' if crlf else b'\n'
    body = re.sub(rb'(?m)^(>*From )', rb'>\1', msg)
    return (first.replace(b'\n', eol) if crlf or b'\r\n' in msg[:200] else first) + body


def main():
    out, first, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    n = 0

    def write(form, msg, oracle=None, start=None):
        nonlocal n
        n += 1
        with open(os.path.join(out, '%03d-%s.mbox' % (n, form)), 'wb') as f:
            f.write(mboxrd(msg, FILE_START.get(form, FROM_LINE) if start is None else start))
        if oracle is not None:
            with open(os.path.join(out, '%03d-%s.oracle' % (n, form)), 'wb') as f:
                f.write(mboxrd(oracle))
    for d, plain in [(first, True)] + [(d, False) for d in rest]:
        for name in sorted(os.listdir(d)):
            raw = open(os.path.join(d, name), 'rb').read()
            from_line = None
            if raw.startswith(b'From '):
                from_line, raw = raw.split(b'\n', 1)
            if not plain:
                write(os.path.basename(d.rstrip('/')), raw)
                continue
            for form in forms(raw):
                write(*form)
                if form[0] == 'nulb64bare' and from_line:
                    write('formatpatchb64', form[1], start=from_line + b'\n')
            if from_line:
                write('formatpatch', raw, start=from_line + b'\n')


if __name__ == '__main__':
    main()
