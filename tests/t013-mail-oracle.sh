#!/bin/sh
# Mail side of patch-id, with git as the oracle: every commit of a generated
# history is turned into a mail by `git format-patch`, then re-encoded the
# ways mailers do (quoted-printable, base64, CRLF, latin-1, attachment).
# For each mail, `git mailinfo -u` + `git patch-id --stable` must give the
# same id that `onlist patch-id` gives on the mail itself.
set -u
top=$(pwd)
[ -x ./onlist ] || { echo "./onlist not built" >&2; exit 77; }
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

export GIT_AUTHOR_NAME="Ann Author" GIT_AUTHOR_EMAIL=ann@example.org
export GIT_COMMITTER_NAME="Ann Author" GIT_COMMITTER_EMAIL=ann@example.org
export GIT_AUTHOR_DATE="2013-06-01T10:00:00Z" GIT_COMMITTER_DATE="2013-06-01T10:00:00Z"
git init -q repo && cd repo || exit 1
i=0
while [ $i -lt 40 ]; do
	case $((i % 8)) in
	0) printf 'int f%d(void)\n{\n\treturn %d;\n}\n' $i $i > "f$((i % 5)).c" ;;
	1) printf 'caf\303\251 %d na\303\257ve\n' $i >> utf8.txt ;;
	2) printf 'line with trailing space %d   \n' $i >> ws.txt ;;
	3) printf 'crlf line %d\r\n' $i >> crlf.txt ;;
	4) [ -f f1.c ] && git mv -k f1.c "moved$i.c"; printf '/* moved */\n' >> "moved$i.c" 2>/dev/null || true ;;
	5) printf 'no newline %d' $i > nonl.txt ;;
	6) printf '\tindented %d\n\n\nafter blank\n' $i >> blank.txt ;;
	7) printf 'From the start of a line %d\n' $i >> from.txt ;;
	esac
	git add -A >/dev/null 2>&1
	git commit -q -m "change $i: edit things" -m "Explain change $i.

Signed-off-by: Ann Author <ann@example.org>" || exit 1
	i=$((i + 1))
done
git format-patch -q -o ../mails --root HEAD || exit 1
cd .. || exit 1

python3 - mails variants <<'PY' || exit 1
import email, email.policy, os, sys, base64, quopri
src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst)
def strip_from(raw):
    return raw.split(b"\n", 1)[1] if raw.startswith(b"From ") else raw
for n, name in enumerate(sorted(os.listdir(src))):
    raw = strip_from(open(os.path.join(src, name), "rb").read())
    head, body = raw.split(b"\n\n", 1)
    head = head.replace(b"Message-Id:", b"X-Old-Id:")
    mid = b"Message-Id: <%d.onlist-test@example.org>\n" % n
    def out(kind, h, b):
        open(os.path.join(dst, "%02d-%s.eml" % (n, kind)), "wb").write(h + b"\n\n" + b)
    out("plain", mid + head, body)
    bare = mid + b"\n".join(l for l in head.split(b"\n")
                            if not l.lower().startswith((b"content-", b"mime-version")))
    def mime(cte, charset="UTF-8"):
        return bare + (b"\nMIME-Version: 1.0\nContent-Type: text/plain; charset=%s"
                       b"\nContent-Transfer-Encoding: %s" % (charset.encode(), cte))
    out("qp", mime(b"quoted-printable"), quopri.encodestring(body))
    # base64, with CRLF inside the encoded text
    out("b64", mime(b"base64"), base64.encodebytes(body.replace(b"\n", b"\r\n")))
    # CRLF line ends on the whole message
    out("crlf", (mid + head).replace(b"\n", b"\r\n"), body.replace(b"\n", b"\r\n"))
    # latin-1 where the text allows it
    try:
        lat = body.decode("utf-8").encode("latin-1")
        out("latin1", mime(b"8bit", "ISO-8859-1"), lat)
    except UnicodeError:
        pass
    # patch as an attachment, message in the first part
    msg, sep, patch = body.partition(b"\n---\n")
    if sep:
        b = (b"--XX\nContent-Type: text/plain; charset=UTF-8\n\n" + msg + b"\n---\n"
             b"--XX\nContent-Type: text/x-patch; charset=UTF-8; name=p.patch\n"
             b"Content-Disposition: attachment; filename=p.patch\n"
             b"Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(patch) + b"--XX--\n")
        h = bare + b"\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX"
        out("attach", h, b)
PY

fail=0 n=0 with_id=0
for m in variants/*.eml; do
	n=$((n + 1))
	git mailinfo -u msg patch < "$m" > info 2>/dev/null || { echo "mailinfo failed on $m"; fail=1; continue; }
	want=$(git patch-id --stable < patch | cut -d' ' -f1)
	got=$("$top/onlist" patch-id < "$m" | cut -d' ' -f1)
	[ -n "$want" ] && with_id=$((with_id + 1))
	if [ "$want" != "$got" ]; then
		echo "MISMATCH $m: git '$want' onlist '$got'"
		fail=1
	fi
done
[ -n "${KEEP:-}" ] && echo "kept $tmp"; echo "$n mails compared, $with_id with a patch-id"
[ $with_id -ge $((n * 9 / 10)) ] || { echo "too few mails carry a patch-id"; fail=1; }
[ $n -ge 200 ] || { echo "expected at least 200 mails, made $n"; fail=1; }
exit $fail
