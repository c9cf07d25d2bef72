#!/bin/sh
# Bad input: truncated mbox and mbox.gz, broken MIME, raw Latin-1 headers, a
# 50 MB message, an empty file, a directory that is not a maildir, files that
# are not mail, unescaped "From " lines, a range git rejects, a path that is
# not a repository, a database that cannot be created, bad arguments.  Mail
# of the shapes in patchwork's fuzz corpus (NULs in headers, no header line
# first) is read where git reads it.
#
# Each must end in a clear error (non-zero exit and a message, where the whole
# input is unusable) or in messages imported / skips recorded with a reason
# (`status --json`), never in a crash (exit >= 128), a hang (timeout) or a
# sanitizer report, and the database must pass `pragma integrity_check`.
# Every case gets its own database; a table of outcomes closes the log.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_cmd gzip
need_onlist
make_tmp
isolate_git

LIMIT=${ONLIST_T021_TIMEOUT:-300}	# seconds per command
if command -v timeout >/dev/null 2>&1; then TO="timeout -k 10 $LIMIT"; else TO=""; fi

: >"$TMP/table"
# run CASE CMD...: output in $TMP/out, $TMP/err, exit code in rc, seconds in secs.
run() {
	case_=$1; shift
	echo "+ $*"
	start=$(date +%s)
	$TO "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	secs=$(( $(date +%s) - start ))
	head -n 5 "$TMP/out" | sed 's/^/    /'
	head -n 5 "$TMP/err" | sed 's/^/    err: /'
	if [ -n "$TO" ] && [ $rc -eq 124 ]; then
		bad "$case_: no answer after ${LIMIT}s (hang?)"
	elif [ $rc -ge 128 ]; then
		bad "$case_: killed by signal $((rc - 128)) (crash)"
	fi
	! grep -q 'Sanitizer\|runtime error:' "$TMP/err" || bad "$case_: sanitizer report"
	return 0
}
# status DB: sets messages, patches, skipped from `status --json` ("" if none)
status() {
	messages="" patches="" skipped=""
	[ -e "$1" ] || return 0
	"$ONLIST" --db "$1" status --json >"$TMP/st" 2>/dev/null || return 0
	eval "$(python3 -c '
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except ValueError:
    s = {}
for k in ("messages", "patches", "skipped"):
    print("%s=%s" % (k, s.get(k, "")))' "$TMP/st")"
}
integrity() {	# integrity CASE DB
	[ -e "$2" ] || return 0
	ic=$(sqlite3 "$2" 'pragma integrity_check' 2>&1)
	[ "$ic" = ok ] || bad "$1: pragma integrity_check says: $ic"
}
# record CASE DB: one line of the closing table
record() {
	status "$2"
	printf '%-22s exit %-3s %4ss  messages=%-5s skipped=%-3s %s\n' "$1" "$rc" "$secs" \
		"${messages:--}" "${skipped:--}" "$(head -n 1 "$TMP/err" | cut -c1-90)" >>"$TMP/table"
}
# A whole input that is unusable: non-zero exit (not usage's 2 unless said)
# and a message on stderr.
expect_error() {	# expect_error CASE
	[ $rc -ne 0 ] || bad "$1: exit 0 for an unusable input"
	[ -s "$TMP/err" ] || bad "$1: no error message on stderr"
}
# An input with some good mail: exit 0 or 1, and every message either
# imported or recorded as skipped.
expect_partial() {	# expect_partial CASE DB MIN-MESSAGES
	[ $rc -le 1 ] || bad "$1: exit $rc"
	[ $rc -eq 0 ] || [ -s "$TMP/err" ] || bad "$1: exit $rc without a message"
	status "$2"
	[ "${messages:-0}" -ge "$3" ] || bad "$1: $messages messages imported, expected at least $3"
}

FX=$TMP/fx
sh fixtures/make-fixtures.sh "$FX" >"$TMP/fixture.log" 2>&1 ||
	{ cat "$TMP/fixture.log"; fail "the fixture could not be built (not onlist's fault)"; }
B=$TMP/bad
mkdir "$B"

# ---- the inputs ------------------------------------------------------------------
python3 - "$FX" "$B" <<'EOF'
import os, re, sys
fx, b = sys.argv[1], sys.argv[2]
mbox = open(os.path.join(fx, 'list.mbox'), 'rb').read()
gz = open(os.path.join(fx, 'list.mbox.gz'), 'rb').read()
FROM = re.compile(rb'^From (?:[0-9a-f]{40} Mon Sep 17 00:00:00 2001|mboxrd@z |\S+@\S+ \w{3} \w{3} )', re.M)
starts = [m.start() for m in FROM.finditer(mbox)]

def w(name, data):
    with open(os.path.join(b, name), 'wb') as f:
        f.write(data)

# cut in the middle of a message (inside its diff), and a gzip stream cut short
mid = starts[len(starts) // 2]
cut = mbox.index(b'\n@@ ', mid) + 20
w('truncated.mbox', mbox[:cut])
w('truncated.complete', b'%d\n' % sum(1 for s in starts if s < mid))
w('truncated.mbox.gz', gz[:len(gz) // 2])

# one good patch mail, to see that import goes on after the broken ones
good = mbox[starts[1]:starts[2]]
good_id = re.search(rb'(?im)^Message-Id: <([^>]+)>', good).group(1)
w('good.msgid', good_id + b'\n')
w('good.eml', good[good.index(b'\n') + 1:])	# without its From_ line

def msg(n, headers, body):
    return b'From broken@example.org Mon Jan  6 10:%02d:00 2020\n' % n + headers + b'\n' + body + b'\n'
H = b'From: Broken <broken@example.org>\nDate: Mon, 6 Jan 2020 10:00:00 +0000\n'
patch = (b'---\n f | 1 +\n\ndiff --git a/f b/f\nindex 1111111..2222222 100644\n--- a/f\n+++ b/f\n'
         b'@@ -1 +1,2 @@\n a\n+b\n')
broken = [
    # multipart without a boundary parameter
    msg(1, H + b'Message-ID: <nobound@x>\nSubject: no boundary\nMIME-Version: 1.0\n'
        b'Content-Type: multipart/mixed\n', b'--x\nContent-Type: text/plain\n\nhello\n--x--\n'),
    # a boundary that never appears, and one never closed
    msg(2, H + b'Message-ID: <lostbound@x>\nSubject: lost boundary\nMIME-Version: 1.0\n'
        b'Content-Type: multipart/mixed; boundary="nowhere"\n', b'just text\n' + patch),
    msg(3, H + b'Message-ID: <unclosed@x>\nSubject: [PATCH] unclosed\nMIME-Version: 1.0\n'
        b'Content-Type: multipart/mixed; boundary="b1"\n',
        b'--b1\nContent-Type: text/plain\n\nmsg\n--b1\nContent-Type: text/x-patch\n\n' + patch),
    # base64 with garbage, quoted-printable with bad escapes, an unknown charset
    msg(4, H + b'Message-ID: <badb64@x>\nSubject: bad base64\nMIME-Version: 1.0\n'
        b'Content-Type: text/plain\nContent-Transfer-Encoding: base64\n',
        b'!!!!not*base64@@@@\nSGVsbG8=====\n\x00\x01\n'),
    msg(5, H + b'Message-ID: <badqp@x>\nSubject: bad qp\nMIME-Version: 1.0\n'
        b'Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n',
        b'=ZZ=4\n=\n' + patch.replace(b'+b', b'+b=XY')),
    msg(6, H + b'Message-ID: <badcharset@x>\nSubject: =?x-no-such-charset?q?=FF=FE?=\n'
        b'MIME-Version: 1.0\nContent-Type: text/plain; charset="x-no-such-charset"\n', b'\xff\xfe\n' + patch),
    # headers that are not headers, a NUL in the body, a 1 MB header line
    msg(7, b'this line is no header\n' + H + b'Message-ID: <nohdr@x>\nSubject: garbage header\n', patch),
    msg(8, H + b'Message-ID: <nul@x>\nSubject: [PATCH] NUL inside\n', b'a\x00b\n' + patch),
    msg(9, H + b'Message-ID: <longhdr@x>\nSubject: ' + b'x' * (1 << 20) + b'\n', b'long\n'),
    # an encoded-word that is cut, a message/rfc822 part that is cut
    msg(10, H + b'Message-ID: <cutword@x>\nSubject: =?UTF-8?B?w6k\n', b'body\n'),
    msg(11, H + b'Message-ID: <cutrfc822@x>\nSubject: fwd\nMIME-Version: 1.0\n'
        b'Content-Type: multipart/mixed; boundary="b2"\n',
        b'--b2\nContent-Type: message/rfc822\n\nFrom: a\nSubject: inner\nContent-Type: multi'),
    # no headers at all, only a body: skipped ("no mail header")
    msg(12, b'', b'nothing but body\n'),
    # shapes from patchwork's tests/data/fuzz: a NUL inside the charset
    # (git: "cannot convert from u"), a NUL in the From header, an encoded
    # word in a charset that does not convert, a bare "From pat016" line
    msg(13, H.replace(b'From: Broken', b'From: Br\x00oken') + b'Message-ID: <nulhdr@x>\n'
        b'Subject: [PATCH] n\x00ul =?gb2312?B?sA==?= tail\nMIME-Version: 1.0\n'
        b'Content-Type: text/plain; charset="u\x00\x00\x00d"\n', b'why\n' + patch),
    msg(14, b'From pat016\n' + H + b'Message-ID: <pat016@x>\nSubject: [PATCH] bare\n',
        b'why\n' + patch),
    # the first line a body line, then a patch (git reads all of it as body)
    msg(15, b'', b'Here is the fix.\n' + patch),
]
w('broken-mime.mbox', b''.join(broken) + good)
w('broken-mime.count', b'%d\n' % (len(broken) + 1))

# raw Latin-1 bytes in the headers and an undeclared Latin-1 body
w('latin1.mbox', b'From jose@example.org Mon Jan  6 10:00:00 2020\n'
  b'From: Jos\xe9 N\xfa\xf1ez <jose@example.org>\nDate: Mon, 6 Jan 2020 10:00:00 +0000\n'
  b'Message-ID: <latin1@x>\nSubject: [PATCH] caf\xe9: cr\xe8me br\xfbl\xe9e\n\n'
  b'Na\xefve.\n\nSigned-off-by: Jos\xe9 N\xfa\xf1ez <jose@example.org>\n' + patch + b'\n')

# a 50 MB message (one huge patch), then a good one
lines = 1000000
big = [b'From big@example.org Mon Jan  6 10:00:00 2020\n',
       b'From: Big <big@example.org>\nDate: Mon, 6 Jan 2020 10:00:00 +0000\n'
       b'Message-ID: <big@x>\nSubject: [PATCH] add a huge file\n\n---\n'
       b'diff --git a/huge b/huge\nnew file mode 100644\nindex 0000000..1111111\n'
       b'--- /dev/null\n+++ b/huge\n@@ -0,0 +1,%d @@\n' % lines]
big.append(b''.join(b'+%048d\n' % i for i in range(lines)))
big.append(b'\n')
w('huge.mbox', b''.join(big) + good)

w('empty.mbox', b'')
os.makedirs(os.path.join(b, 'notmaildir', 'sub'))
w('notmaildir/notes.txt', b'hello\n')
w('notmaildir/sub/x', b'\x00\x01\x02')
# not mail at all: binary noise with NULs, and an ELF-like header
w('noise.bin', bytes((i * 7919 + 13) % 256 for i in range(65536)))
w('fake.elf', b'\x7fELF\x02\x01\x01\x00' + bytes(range(256)) * 64)

# git format-patch --stdout as it is: body lines starting with "From " unescaped
EOF
[ $? -eq 0 ] || fail "could not write the bad inputs"
# format-patch output with unescaped "From now on ..." body lines
git -C "$FX/repo" format-patch --stdout -N v1.0~20..v1.0 >"$B/unescaped.mbox"
n_unescaped=$(grep -c '^From [0-9a-f]\{40\} Mon Sep 17 00:00:00 2001$' "$B/unescaped.mbox")
n_bodyfrom=$(grep -c '^From [^0-9]' "$B/unescaped.mbox")
echo "unescaped.mbox: $n_unescaped messages, $n_bodyfrom body lines beginning \"From \""

imp() {	# imp CASE FILE: import FILE into a fresh database $TMP/CASE.db
	db=$TMP/$1.db
	run "$1" "$ONLIST" --db "$db" import --list bad "$2"
}

# ---- truncated ---------------------------------------------------------------------
imp truncated "$B/truncated.mbox"
expect_partial truncated "$db" "$(cat "$B/truncated.complete")"
integrity truncated "$db"; record truncated "$db"

imp truncated-gz "$B/truncated.mbox.gz"
[ $rc -ne 0 ] || { status "$db"; [ "${skipped:-0}" -gt 0 ]; } ||
	bad "truncated-gz: exit 0 and no skip recorded for a gzip stream cut in half"
[ $rc -eq 0 ] || [ -s "$TMP/err" ] || bad "truncated-gz: exit $rc without a message"
integrity truncated-gz "$db"; record truncated-gz "$db"

# ---- broken MIME: every message imported or skipped, the good one imported -----------
imp broken-mime "$B/broken-mime.mbox"
expect_partial broken-mime "$db" 1
status "$db"
total=$(cat "$B/broken-mime.count")
[ $(( ${messages:-0} + ${skipped:-0} )) -eq "$total" ] ||
	bad "broken-mime: $messages imported + $skipped skipped, expected $total in all"
n=$(sqlite3 "$db" "select count(*) from messages where msgid = '$(cat "$B/good.msgid")' and patch_id is not null" 2>&1)
[ "$n" = 1 ] || bad "broken-mime: the good patch mail after the broken ones is missing ($n)"
n=$(sqlite3 "$db" "select count(*) from skipped where reason = ''" 2>&1)
[ "$n" = 0 ] || bad "broken-mime: $n skips without a reason"
# what git reads, onlist reads too: the patch of each, the header past a NUL
# and past a word that does not convert
n=$(sqlite3 "$db" "select count(*) from messages where msgid in ('nulhdr@x', 'pat016@x')
	and patch_id is not null" 2>&1)
[ "$n" = 2 ] || bad "broken-mime: the NUL-charset and the \"From pat016\" patches: $n of 2 found"
n=$(sqlite3 "$db" "select count(*) from messages where msgid = 'nulhdr@x'
	and from_name = 'Br oken' and subject like '%n ul =?gb2312?B?sA==?= tail'" 2>&1)
[ "$n" = 1 ] || bad "broken-mime: a NUL or a bad encoded word cut a header short: \
$(sqlite3 "$db" "select from_name, subject from messages where msgid = 'nulhdr@x'")"
n=$(sqlite3 "$db" "select count(*) from messages where patch_id is not null
	and subject = '' and msgid like '%@onlist.synthetic'" 2>&1)
[ "$n" -ge 1 ] || bad "broken-mime: a patch mail whose first line is a body line was not read"
n=$(sqlite3 "$db" "select count(*) from skipped where reason like '%no mail header%'" 2>&1)
[ "$n" = 1 ] || bad "broken-mime: the mail with neither header nor patch: $n skips say so"
# The import names the reasons; `onlist skipped` lists every skip with its
# place, and --by-reason adds up to the skipped count.
if [ "${skipped:-0}" -gt 0 ]; then
	grep -q 'skipped, by reason' "$TMP/out" ||
		bad "broken-mime: import prints no summary of the skip reasons"
	"$ONLIST" --db "$db" skipped >"$TMP/skipped" 2>&1 || bad "skipped: exit $?"
	[ "$(grep -c "^$B/broken-mime.mbox:[0-9]*: ." "$TMP/skipped")" = "$skipped" ] ||
		bad "skipped: $(wc -l <"$TMP/skipped") lines with place and reason, expected $skipped"
	"$ONLIST" --db "$db" skipped --by-reason >"$TMP/skipped" 2>&1 || bad "skipped --by-reason: exit $?"
	[ "$(awk '{ n += $1 } END { print n }' "$TMP/skipped")" = "$skipped" ] ||
		bad "skipped --by-reason: counts do not add up to $skipped"
	"$ONLIST" --db "$db" skipped "$B/no-such-file" >"$TMP/skipped" 2>/dev/null
	[ ! -s "$TMP/skipped" ] || bad "skipped FILE lists skips of other files"
fi
integrity broken-mime "$db"; record broken-mime "$db"

# ---- raw Latin-1: imported, stored as valid UTF-8 ---------------------------------
imp latin1 "$B/latin1.mbox"
expect_partial latin1 "$db" 1
sqlite3 "$db" "select hex(subject), hex(from_name) from messages" >"$TMP/hex" 2>&1
python3 - "$TMP/hex" <<'EOF' || bad "latin1: subject or author stored as invalid UTF-8"
import sys
for line in open(sys.argv[1]):
    for h in line.strip().split('|'):
        s = bytes.fromhex(h).decode('utf-8')     # raises on invalid UTF-8
        print('    stored: %r%s' % (s, '' if 'é' in s else '  (no é: Latin-1 not recognised)'))
EOF
integrity latin1 "$db"; record latin1 "$db"

# ---- 50 MB ------------------------------------------------------------------------------
imp huge "$B/huge.mbox"
expect_partial huge "$db" 1
n=$(sqlite3 "$db" "select count(*) from messages where msgid = '$(cat "$B/good.msgid")'" 2>&1)
[ "$n" = 1 ] || bad "huge: the mail after the 50 MB one is missing"
n=$(sqlite3 "$db" "select count(*) from messages where msgid = 'big@x'" 2>&1)
s=$(sqlite3 "$db" "select count(*) from skipped" 2>&1)
[ "$n" = 1 ] || [ "$s" -ge 1 ] || bad "huge: the 50 MB mail is neither imported nor recorded as skipped"
integrity huge "$db"; record huge "$db"

# ---- empty file: "0 messages" or an error; never a crash ------------------------------------
imp empty "$B/empty.mbox"
[ $rc -le 1 ] || bad "empty: exit $rc"
[ $rc -eq 0 ] || [ -s "$TMP/err" ] || bad "empty: exit $rc without a message"
integrity empty "$db"; record empty "$db"

# ---- a maildir with a FIFO and a symbolic link: skipped, never read ------------------
# A FIFO used to hang the import (timeout ends it here, and fails the
# case); a link was followed, so cur/x -> a secret stored the secret.
mkdir -p "$TMP/md/cur" "$TMP/md/new" "$TMP/md/tmp"
cp "$B/good.eml" "$TMP/md/cur/1.good"
mkfifo "$TMP/md/cur/2.fifo"
printf 'From: x@example.org\nSubject: SECRET-CONTENT\nMessage-ID: <secret@x>\n\nroot:hash\n' >"$TMP/secret"
ln -s "$TMP/secret" "$TMP/md/cur/3.link"
db=$TMP/md.db
run maildir-special timeout 30 "$ONLIST" --db "$db" import --list md "$TMP/md"
[ $rc -ne 124 ] || bad "maildir-special: import hung on the FIFO"
expect_partial maildir-special "$db" 1
n=$(sqlite3 "$db" "select count(*) from messages where msgid = 'secret@x' or subject like '%SECRET%'" 2>&1)
[ "$n" = 0 ] || bad "maildir-special: the symbolic link was followed and its target stored"
n=$(sqlite3 "$db" "select count(*) from messages where msgid = '$(cat "$B/good.msgid")'" 2>&1)
[ "$n" = 1 ] || bad "maildir-special: the good message beside them was not imported"
sqlite3 "$db" "select reason from skipped" >"$TMP/reasons" 2>&1
grep -q 'FIFO' "$TMP/reasons" || bad "maildir-special: the FIFO is not recorded as skipped: $(cat "$TMP/reasons")"
grep -q 'symbolic link' "$TMP/reasons" || bad "maildir-special: the link is not recorded as skipped: $(cat "$TMP/reasons")"
integrity maildir-special "$db"; record maildir-special "$db"
# the same maildir by three spellings of a relative path: each skipped file
# is recorded once, and the summary's "by reason" names them
db=$TMP/md-rel.db
abs=$(cd "$(dirname "$ONLIST")" && pwd)/$(basename "$ONLIST")
for spelling in md ./md md/; do
	(cd "$TMP" && "$abs" --db "$db" import --list md "$spelling") >"$TMP/out" 2>"$TMP/err"
	grep -q 'skipped, by reason' "$TMP/out" ||
		bad "maildir '$spelling': the summary does not list the skipped files by reason"
done
n=$(sqlite3 "$db" 'select count(*) from skipped' 2>&1)
[ "$n" = 2 ] || bad "maildir by three spellings: $n skipped rows, expected 2 (one a file)"

# ---- unusable inputs: an error ----------------------------------------------------------
imp notmaildir "$B/notmaildir"
expect_error notmaildir
integrity notmaildir "$db"; record notmaildir "$db"

imp noise "$B/noise.bin"
expect_error noise
integrity noise "$db"; record noise "$db"

imp elf "$B/fake.elf"
expect_error elf
integrity elf "$db"; record elf "$db"

imp missing "$B/no-such-file.mbox"
expect_error missing
grep -q 'no-such-file' "$TMP/err" || bad "missing: the error does not name the file"
integrity missing "$db"; record missing "$db"

# ---- unescaped From lines: split only at real From_ lines ---------------------------------
imp unescaped "$B/unescaped.mbox"
[ $rc -eq 0 ] || bad "unescaped: exit $rc"
status "$db"
[ "${messages:-0}" -eq "$n_unescaped" ] ||
	bad "unescaped: $messages messages, expected $n_unescaped (\"From \" body lines are no separators)"
[ "${patches:-0}" -eq "$n_unescaped" ] || bad "unescaped: $patches with a patch, expected $n_unescaped"
integrity unescaped "$db"; record unescaped "$db"

# ---- scan: a range git rejects, a path that is no repository --------------------------------
db=$TMP/scan.db
run bad-range "$ONLIST" --db "$db" scan --repo "$FX/repo" v9.9..v10
expect_error bad-range
grep -q 'v9.9\|v10\|revision' "$TMP/err" || bad "bad-range: the error does not say what git rejected"
n=$(sqlite3 "$db" 'select count(*) from commits' 2>/dev/null || echo 0)
[ "$n" = 0 ] || bad "bad-range: $n commits stored"
integrity bad-range "$db"; record bad-range "$db"

mkdir "$TMP/plain-dir"
run not-a-repo "$ONLIST" --db "$db" scan --repo "$TMP/plain-dir" HEAD
expect_error not-a-repo
integrity not-a-repo "$db"; record not-a-repo "$db"

run dash-range "$ONLIST" --db "$db" scan --repo "$FX/repo" --output="$TMP/pwned"
[ $rc -ne 0 ] || bad "dash-range: a range that is an option was accepted"
[ ! -e "$TMP/pwned" ] || bad "dash-range: git was handed --output"
record dash-range "$db"

# ---- a damaged public-inbox mirror: one message blob lost --------------------------------------
# The rest of the epoch is imported; the lost one is recorded as skipped;
# a second fetch adds nothing and fails nothing.
E=$TMP/inbox/git/0.git
git init -q --bare "$E"
tip=
for i in 1 2 3; do
	b=$(printf 'Message-ID: <lost%d@example.org>\nSubject: m%d\nFrom: a@example.org\n\nbody %d\n' \
		$i $i $i | git -C "$E" hash-object -w --stdin)
	t=$(printf '100644 blob %s\tm\n' "$b" | git -C "$E" mktree)
	tip=$(git -C "$E" commit-tree ${tip:+-p $tip} -m "m$i" "$t")
	[ $i -eq 2 ] && lost=$b
done
git -C "$E" update-ref refs/heads/master "$tip"
rm "$E/objects/$(echo "$lost" | cut -c1-2)/$(echo "$lost" | cut -c3-)"
run lost-blob "$ONLIST" --db "$TMP/lost.db" fetch --list lost "$TMP/inbox"
[ $rc -eq 0 ] || bad "lost-blob: exit $rc: one lost message stopped the fetch"
n=$(sqlite3 "$TMP/lost.db" "select count(*) from messages" 2>&1)
[ "$n" = 2 ] || bad "lost-blob: $n messages imported, expected the 2 that are there"
n=$(sqlite3 "$TMP/lost.db" "select count(*) from skipped where reason like '%$lost%missing%'" 2>&1)
[ "$n" = 1 ] || bad "lost-blob: the lost message is not recorded as skipped ($n)"
run lost-blob-again "$ONLIST" --db "$TMP/lost.db" fetch --list lost "$TMP/inbox"
[ $rc -eq 0 ] || bad "lost-blob-again: exit $rc"
n=$(sqlite3 "$TMP/lost.db" "select count(*) from skipped" 2>&1)
[ "$n" = 1 ] || bad "lost-blob-again: $n skips after fetching twice, expected 1"
integrity lost-blob "$TMP/lost.db"; record lost-blob "$TMP/lost.db"

# ---- the database and the arguments ---------------------------------------------------------
run no-db-dir "$ONLIST" --db "$TMP/no/such/dir/x.db" status
expect_error no-db-dir
record no-db-dir "$TMP/no/such/dir/x.db"

run bad-command "$ONLIST" --db "$TMP/args.db" frobnicate
[ $rc -eq 2 ] || bad "bad-command: exit $rc, expected 2 (usage)"
record bad-command "$TMP/args.db"
run bad-format "$ONLIST" --db "$TMP/args.db" unposted --format xml
[ $rc -eq 2 ] || bad "bad-format: exit $rc, expected 2 (usage)"
record bad-format "$TMP/args.db"
run no-files "$ONLIST" --db "$TMP/args.db" import
[ $rc -eq 2 ] || bad "no-files: import without files: exit $rc, expected 2 (usage)"
record no-files "$TMP/args.db"

echo
echo "case                   outcome"
cat "$TMP/table"
if [ $nfail -gt 0 ]; then
	echo "$nfail check(s) failed"
	exit 1
fi
echo "all checks passed"
