#!/bin/sh
# Hostile sizes end in bounded time and memory, with a correct result or a
# skip recorded with its reason:
#   - a 96 MiB line (streamed through a pipe, never on disk) in the middle
#     of an mbox: that message is over ONLIST_MESSAGE_MAX (64 MiB) and is
#     recorded as skipped; the messages around it are imported.  (A 1 GB
#     line goes the same way, only slower; 96 MiB keeps CI quick.)
#   - a maildir file over the cap, and a public-inbox message (read in
#     place from an epoch) over the cap: skipped the same way.
#   - a mail with 100,000 MIME parts.
#   - a patch with 1,000,000 hunks: the patch-id equals git's.
#   - an 8 MiB line in quoted-printable and in base64: decoded in linear
#     time, the patch-id equals git's.
#   - a thread 10,000 messages deep (In-Reply-To and References chains,
#     the last message carrying all 9,999 ancestors).
# Each command runs under /usr/bin/time: peak RSS and wall time are
# printed and checked against generous bounds.
. tests/lib.sh
need_cmd python3
need_cmd sqlite3
need_cmd git
need_onlist
[ -x /usr/bin/time ] || skip "/usr/bin/time not installed (Debian package time)"
make_tmp
isolate_git

# Under ASan (make sanitize) memory and time are several times larger:
# freed memory sits in quarantine, every access is checked.
scale=1
grep -q __asan_init "$ONLIST" 2>/dev/null && scale=4 && echo "ASan build: bounds x$scale"

# measured LABEL MAXMB MAXSECS CMD...: run(), then check peak RSS and time
measured() {
	mlabel=$1 maxmb=$(($2 * scale)) maxs=$(($3 * scale)); shift 3
	run "$mlabel" /usr/bin/time -f '%M %e' -o "$TMP/time" "$@"
	read -r kb secs <"$TMP/time" || { bad "$mlabel: no time output"; return; }
	mb=$((kb / 1024))
	echo "    $mlabel: peak RSS $mb MB, $secs s"
	[ "$mb" -le "$maxmb" ] || bad "$mlabel: peak RSS $mb MB > $maxmb MB"
	awk -v s="$secs" -v m="$maxs" 'BEGIN { exit !(s <= m) }' ||
		bad "$mlabel: took $secs s > $maxs s"
}
q() { sqlite3 "$DB" "$1"; }

# ---- a 96 MiB line, from a pipe ----------------------------------------------
DB=$TMP/long.db
cat >"$TMP/gen.py" <<'PY'
import sys
w = sys.stdout.buffer.write
def msg(n, body=b'hello\n'):
    w(b'From a@example.org Mon Jan  1 00:00:00 2001\n'
      b'Message-ID: <m%d@example.org>\nFrom: A <a@example.org>\n'
      b'Subject: message %d\n\n' % (n, n) + body)
msg(1)
msg(2, b'')
chunk = b'x' * (1 << 20)
for _ in range(96):        # one line of 96 MiB, never held whole here
    w(chunk)
w(b'\n')
msg(3)
PY
python3 "$TMP/gen.py" >"$TMP/long.mbox.pipe" &
# (written to a file first only to keep `run`'s exit code that of onlist)
wait $!
measured "96 MiB line" 200 60 sh -c "cat '$TMP/long.mbox.pipe' | '$ONLIST' -q --db '$DB' import --list long -"
rm -f "$TMP/long.mbox.pipe"
expect_rc "96 MiB line" 0
[ "$(q 'select group_concat(msgid, " ") from (select msgid from messages order by msgid)')" = \
	"m1@example.org m3@example.org" ] ||
	bad "96 MiB line: messages 1 and 3 not imported: $(q 'select msgid from messages')"
q 'select reason from skipped' | grep -q 'message larger than 67108864 bytes' ||
	bad "96 MiB line: no skip recorded: $(q 'select * from skipped')"
grep -q '1 skipped' "$TMP/out" || bad "96 MiB line: summary: $(cat "$TMP/out")"

# ---- a maildir file over the cap --------------------------------------------------
DB=$TMP/maildir.db
mkdir -p "$TMP/md/cur" "$TMP/md/new" "$TMP/md/tmp"
printf 'Message-ID: <small@example.org>\nSubject: small\n\nhi\n' >"$TMP/md/cur/1"
{ printf 'Message-ID: <big@example.org>\nSubject: big\n\n'
  head -c 70000000 /dev/zero | tr '\0' 'y'; } >"$TMP/md/cur/2"
measured "big maildir file" 200 60 "$ONLIST" -q --db "$DB" import --list md "$TMP/md"
expect_rc "big maildir file" 0
[ "$(q 'select msgid from messages')" = small@example.org ] ||
	bad "big maildir file: messages: $(q 'select msgid from messages')"
q 'select source, reason from skipped' | grep -q 'cur/2|message larger than' ||
	bad "big maildir file: no skip recorded: $(q 'select * from skipped')"
rm -rf "$TMP/md"

# ---- a public-inbox blob over the cap ------------------------------------------------
DB=$TMP/epoch.db
git init -q --bare "$TMP/pi/git/0.git" || fail "git init (not onlist's fault)"
python3 - <<'PY' | git -C "$TMP/pi/git/0.git" fast-import --quiet || fail "git fast-import (not onlist's fault)"
import sys
out = sys.stdout.buffer
for n, m in enumerate([b'Message-ID: <e1@example.org>\nSubject: small\n\nhi\n',
                       b'Message-ID: <e2@example.org>\nSubject: big\n\n' + b'z' * 70000000 + b'\n',
                       b'Message-ID: <e3@example.org>\nSubject: after\n\nhi\n']):
    out.write(b'commit refs/heads/master\ncommitter A <a@example.org> %d +0000\n'
              b'data 0\nM 100644 inline m\ndata %d\n' % (1000000000 + n, len(m)) + m + b'\n')
PY
measured "big public-inbox blob" 300 60 "$ONLIST" -q --db "$DB" fetch --list pi --data "$TMP/data" "$TMP/pi"
expect_rc "big public-inbox blob" 0
[ "$(q 'select group_concat(msgid, " ") from (select msgid from messages order by msgid)')" = \
	"e1@example.org e3@example.org" ] || bad "big public-inbox blob: messages: $(q 'select msgid from messages')"
q 'select reason from skipped' | grep -q 'message larger than 67108864 bytes' ||
	bad "big public-inbox blob: no skip recorded: $(q 'select * from skipped')"
rm -rf "$TMP/pi" "$TMP/data"

# ---- 100,000 MIME parts -----------------------------------------------------------
DB=$TMP/parts.db
python3 - "$TMP/parts.mbox" <<'PY'
import sys
with open(sys.argv[1], 'wb') as f:
    f.write(b'From a@example.org Mon Jan  1 00:00:00 2001\n'
            b'Message-ID: <parts@example.org>\nFrom: A <a@example.org>\n'
            b'Subject: many parts\nMIME-Version: 1.0\n'
            b'Content-Type: multipart/mixed; boundary="b"\n\n')
    for i in range(100000):
        f.write(b'--b\nContent-Type: text/plain\n\npart %d\n' % i)
    f.write(b'--b--\n')
PY
measured "100,000 MIME parts" 1500 120 "$ONLIST" -q --db "$DB" import --list parts "$TMP/parts.mbox"
expect_rc "100,000 MIME parts" 0
n=$(q "select count(*) from messages where msgid = 'parts@example.org'")$(q 'select count(*) from skipped')
[ "$n" = 10 ] || [ "$n" = 01 ] || bad "100,000 MIME parts: neither stored nor skipped ($n)"
rm -f "$TMP/parts.mbox"

# ---- 1,000,000 hunks ----------------------------------------------------------------
DB=$TMP/hunks.db
python3 - "$TMP/hunks.mbox" "$TMP/hunks.patch" <<'PY'
import sys
patch = [b'diff --git a/f b/f\nindex 0000001..0000002 100644\n--- a/f\n+++ b/f\n']
# one-line hunks, all at line 1: git does not check line numbers, and
# short hunks keep the mail (~21 MB) under the message cap
for i in range(1000000):
    patch.append(b'@@ -1 +1 @@\n-a%d\n+b%d\n' % (i % 7, i % 5))
patch = b''.join(patch)
open(sys.argv[2], 'wb').write(patch)
with open(sys.argv[1], 'wb') as f:
    f.write(b'From a@example.org Mon Jan  1 00:00:00 2001\n'
            b'Message-ID: <hunks@example.org>\nFrom: A <a@example.org>\n'
            b'Subject: [PATCH] a million hunks\n\nBig.\n---\n' + patch)
PY
echo "    patch: $(wc -c <"$TMP/hunks.patch") bytes"
want=$(git patch-id --stable <"$TMP/hunks.patch" | cut -d' ' -f1)
measured "1,000,000 hunks" 800 120 "$ONLIST" -q --db "$DB" import --list hunks "$TMP/hunks.mbox"
expect_rc "1,000,000 hunks" 0
got=$(q "select patch_id from messages where msgid = 'hunks@example.org'")
[ -n "$want" ] && [ "$got" = "$want" ] || bad "1,000,000 hunks: patch-id '$got', git says '$want'"
rm -f "$TMP/hunks.mbox" "$TMP/hunks.patch"

# ---- an 8 MiB line in quoted-printable and in base64 ---------------------------------
# Decoding used to copy the partial line for every encoded line: quadratic,
# 30 s for this QP line and about a minute for the base64 one.  Linear now:
# well under a second each, so 20 s is a generous bound.
for te in quoted-printable base64; do
	DB=$TMP/long-$te.db
	python3 - "$TMP/long.mbox" "$TMP/long.patch" "$te" <<'PY'
import base64, quopri, sys
patch = (b'diff --git a/f b/f\nindex 0000001..0000002 100644\n--- a/f\n+++ b/f\n'
         b'@@ -1 +1 @@\n-a\n+' + b'x' * (8 << 20) + b'\n')
open(sys.argv[2], 'wb').write(patch)
body = b'Long.\n---\n' + patch
enc = quopri.encodestring(body) if sys.argv[3] == 'quoted-printable' \
    else base64.encodebytes(body)
with open(sys.argv[1], 'wb') as f:
    f.write(b'From a@example.org Mon Jan  1 00:00:00 2001\n'
            b'Message-ID: <long@example.org>\nFrom: A <a@example.org>\n'
            b'Subject: [PATCH] one long line\nMIME-Version: 1.0\n'
            b'Content-Type: text/plain\nContent-Transfer-Encoding: ' +
            sys.argv[3].encode() + b'\n\n' + enc)
PY
	want=$(git patch-id --stable <"$TMP/long.patch" | cut -d' ' -f1)
	measured "8 MiB $te line" 300 20 "$ONLIST" -q --db "$DB" import --list long "$TMP/long.mbox"
	expect_rc "8 MiB $te line" 0
	got=$(q "select patch_id from messages where msgid = 'long@example.org'")
	[ -n "$want" ] && [ "$got" = "$want" ] || bad "8 MiB $te line: patch-id '$got', git says '$want'"
done
rm -f "$TMP/long.mbox" "$TMP/long.patch"

# ---- a thread 10,000 deep -------------------------------------------------------------
DB=$TMP/thread.db
python3 - "$TMP/thread.mbox" <<'PY'
import sys
N = 10000
with open(sys.argv[1], 'wb') as f:
    for i in range(N):
        f.write(b'From a@example.org Mon Jan  1 00:00:00 2001\n'
                b'Message-ID: <t%d@example.org>\nFrom: A <a@example.org>\n'
                b'Subject: Re: deep\n' % i)
        if i:
            f.write(b'In-Reply-To: <t%d@example.org>\n' % (i - 1))
            # the last one carries the whole chain; the others, like
            # most mailers, only their last 10 ancestors
            first = 0 if i == N - 1 else max(0, i - 10)
            f.write(b'References:' + b''.join(
                b' <t%d@example.org>\n' % j for j in range(first, i)))
        f.write(b'\nreply %d\n\n' % i)
PY
measured "10,000 deep thread" 500 120 "$ONLIST" -q --db "$DB" import --list thread "$TMP/thread.mbox"
expect_rc "10,000 deep thread" 0
[ "$(q 'select count(*) from messages')" = 10000 ] ||
	bad "deep thread: $(q 'select count(*) from messages') messages stored"
n=$(q "select refs from messages where msgid = 't9999@example.org'" | wc -w)
[ "$n" = 9999 ] || bad "deep thread: the last message keeps $n references, not 9999"
[ "$(q "select in_reply_to from messages where msgid = 't9999@example.org'")" = t9998@example.org ] ||
	bad "deep thread: In-Reply-To of the last message"
# whatever reads the database afterwards must end too
measured "status on the deep thread" 300 60 "$ONLIST" --db "$DB" status
expect_rc "status" 0
measured "unposted on the deep thread" 300 60 "$ONLIST" --db "$DB" unposted
expect_rc "unposted" 0

[ "$(sqlite3 "$DB" 'pragma integrity_check')" = ok ] || bad "integrity_check"
[ $nfail -eq 0 ] && echo "all resource checks passed"
[ $nfail -eq 0 ]
