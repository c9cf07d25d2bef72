#!/bin/sh
# Reading a whole public-inbox archive: onlist fetch next to public-inbox's
# own indexer, on the same v2 inbox.
#
#   bench/fetch.sh
#
# Environment: BENCH_MESSAGES (default 100000) messages in the inbox,
# BENCH_EPOCH (default 50000) messages per epoch (public-inbox starts a
# new epoch at about 1 GB; smaller here so that several epochs are read).
#
# The inbox's epochs are built once and cached under bench/out/ (keyed by
# both numbers): messages are the fixture archive (fixtures/make-fixtures.sh:
# patches, replies, odd encodings) and `git format-patch` of this repository
# (large patches), cycled with unique Message-IDs (threads kept within each
# cycle) and increasing dates, written with git fast-import in the layout
# public-inbox's own Import.pm writes (one commit per message, blob `m`,
# author = From, subject = Subject).  That is the fastest import path found:
# public-inbox's bulk import (InboxWritable->import_mbox) indexes as it
# goes, so it costs what public-inbox-index costs; writing the epochs and
# then running public-inbox-index is also how public-inbox mirrors are made.
#
# Each run then copies the epochs into a freshly initialised inbox (an empty
# index) and times, on the same messages:
#   1. public-inbox-index -L medium (from scratch, with Inline::C, i.e. the
#      vfork spawning public-inbox is meant to run with);
#   2. onlist fetch of the inbox directory, in place (epoch walk: git log
#      --raw and one git cat-file --batch per epoch, parse, store);
#   3. onlist fetch of http://127.0.0.1:PORT/bench/ from public-inbox-httpd
#      (git clone --mirror of each epoch over smart HTTP, then the same);
# and prints messages/s, MB/s and the ratios.  The peak RSS shown is the
# largest of onlist and the gits it runs: git cat-file maps the epoch's pack
# (and git log --reverse holds the commit list), so it follows the epoch's
# size, not the archive's; onlist's own reading holds one message at a time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/bench/out
onlist=$top/onlist
n=${BENCH_MESSAGES:-100000}
per=${BENCH_EPOCH:-50000}
cd "$top"
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
"$onlist" fetch --help >/dev/null 2>&1 || { echo "$onlist has no fetch command"; exit 1; }
command -v sqlite3 >/dev/null || { echo "needs the sqlite3 command"; exit 1; }
. "$top/tests/pi-server.sh"
pi_need
mkdir -p "$out"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C TZ=UTC
now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }
rss() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }
timed() {	# timed NAME CMD...: seconds in $secs, /usr/bin/time -v in $out/time-NAME
	name=$1; shift
	t0=$(now)
	/usr/bin/time -v -o "$out/time-$name" "$@"
	secs=$(calc "$(now) - $t0")
}

# ---- the epochs, built once -------------------------------------------------
cache=$out/pi-epochs-$n-$per
if [ ! -f "$cache/done" ]; then
	echo "== building $n messages in epochs of $per (once: $cache)"
	rm -rf "$cache"
	mkdir -p "$cache/git"
	if [ ! -f "$out/fixture/list.mbox" ]; then
		rm -rf "$out/fixture"
		sh "$top/fixtures/make-fixtures.sh" "$out/fixture" >/dev/null
	fi
	git -C "$top" format-patch --stdout --root HEAD >"$cache/fp.txt"
	python3 - "$n" "$per" "$cache" "$out/fixture/list.mbox" "$cache/fp.txt" <<'EOF'
import email.utils, os, re, subprocess, sys

n, per, top = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
from_line = re.compile(rb"^From \S+ \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\r?\n", re.M)
msgs = []
for path in sys.argv[4:]:
    data = open(path, "rb").read()
    for m in from_line.split(data):
        if m.strip():
            # mboxrd (the fixture) and format-patch (never escaped) alike
            msgs.append(re.sub(rb"(?m)^>(>*From )", rb"\1", m.rstrip(b"\n") + b"\n"))
if not msgs:
    sys.exit("no messages")
idref = re.compile(rb"<([^<>\s]+)>")
config = b"""[core]
\trepositoryFormatVersion = 0
\tfilemode = true
\tbare = true
[repack]
\twriteBitmaps = true
[include]
\tpath = ../../all.git/config
"""
fi = None
t0 = 1262304000                     # 2010-01-01, a message every 5 minutes
for i in range(n):
    if i % per == 0:
        if fi:
            fi.stdin.close()
            if fi.wait():
                sys.exit("git fast-import failed")
        e = "%s/git/%d.git" % (top, i // per)
        subprocess.run(["git", "init", "-q", "--bare", e], check=True)
        open(e + "/config", "wb").write(config)
        fi = subprocess.Popen(["git", "-C", e, "fast-import", "--quiet"],
                              stdin=subprocess.PIPE)
        w = fi.stdin.write
    cycle, m = divmod(i, len(msgs))
    m = msgs[m]
    lf, crlf = m.find(b"\n\n"), m.find(b"\r\n\r\n")
    crlf = crlf >= 0 and (lf < 0 or crlf < lf)
    sep = b"\r\n\r\n" if crlf else b"\n\n"
    head, _, body = m.partition(sep)
    nl = b"\r\n" if crlf else b"\n"
    keep, frm, subj, has_id = [], b"", b"(no subject)", False
    for l in re.split(rb"\r?\n(?![ \t])", head):
        k = l.split(b":", 1)[0].lower()
        if k == b"date":
            continue
        if k in (b"message-id", b"in-reply-to", b"references"):
            l = idref.sub(lambda x: b"<%s.c%d>" % (x.group(1), cycle), l)
            has_id |= k == b"message-id"
        elif k == b"from":
            frm = l[5:].strip()
        elif k == b"subject":
            subj = re.sub(rb"\s+", b" ", l[8:]).strip()
        keep.append(l)
    t = t0 + i * 300
    keep.append(b"Date: " + email.utils.formatdate(t).encode())
    if not has_id:
        keep.append(b"Message-ID: <%d.bench@onlist.example>" % i)
    raw = nl.join(keep) + sep + body
    name, addr = email.utils.parseaddr(frm.decode("utf-8", "replace"))
    name = name.replace("<", "").replace(">", "").replace("\n", " ")
    addr = addr.replace("<", "").replace(">", "")
    w(b"blob\nmark :1\ndata %d\n" % len(raw))
    w(raw)
    w(b"\ncommit refs/heads/master\n")
    w(("author %s <%s> %d +0000\n" % (name, addr, t)).encode())
    w(b"committer bench <bench@example.org> %d +0000\n" % t)
    w(b"data %d\n%s\n\n" % (len(subj) + 1, subj))
    w(b"deleteall\nM 100644 :1 m\n\n")
fi.stdin.close()
if fi.wait():
    sys.exit("git fast-import failed")
print("%d messages from %d distinct ones" % (n, len(msgs)), file=sys.stderr)
EOF
	rm -f "$cache/fp.txt"
	touch "$cache/done"
fi
epochs=$(ls -d "$cache"/git/*.git | wc -l)
bytes=0
for e in "$cache"/git/*.git; do
	b=$(git -C "$e" log --raw --no-abbrev --format= master | awk '{ print $4 }' |
		git -C "$e" cat-file --batch-check='%(objectsize)' | awk '{ s += $1 } END { print s }')
	bytes=$((bytes + b))
done
mb=$(calc "$bytes / 1048576")
echo "== $n messages, $(printf %.0f "$mb") MB, in $epochs epochs (average $(calc "int($bytes / $n)") bytes)"

# ---- a fresh inbox on those epochs ------------------------------------------
run=$out/pi-run
trap 'pi_stop' EXIT
[ ! -d "$run" ] || { PI_DIR=$run; pi_stop; rm -rf "$run"; }
pi_setup "$run"
pi_init bench 2
rm -rf "$run/bench/git"
cp -a "$cache/git" "$run/bench/git"

echo "== public-inbox-index -L medium (from scratch)"
timed pi-index env HOME="$PI_DIR/home" PI_CONFIG="$PI_DIR/config" \
	public-inbox-index -L medium "$run/bench" >"$out/pi-index.log" 2>&1 ||
	{ tail -n 20 "$out/pi-index.log"; exit 1; }
s_index=$secs

echo "== onlist fetch $run/bench (in place)"
mkdir -p "$run/local"
timed onlist-local "$onlist" -q --db "$run/local/onlist.db" fetch --list bench "$run/bench"
s_local=$secs
rss_local=$(rss "$out/time-onlist-local")

pi_start
echo "== onlist fetch $PI_URL/bench/ (public-inbox-httpd)"
mkdir -p "$run/http"
timed onlist-http "$onlist" -q --db "$run/http/onlist.db" fetch --list bench --pace 0 "$PI_URL/bench/"
s_http=$secs
rss_http=$(rss "$out/time-onlist-http")
pi_stop

m_local=$(sqlite3 "$run/local/onlist.db" "select count(*) from messages")
m_http=$(sqlite3 "$run/http/onlist.db" "select count(*) from messages")
# (fewer than $n: the fixture holds one message twice, as lists do)
echo "== stored: $m_local distinct Message-IDs in place, $m_http over HTTP"
[ "$m_local" = "$m_http" ] || echo "WARNING: the two fetches differ"

echo
printf '%-40s %9s %10s %8s %9s\n' "" seconds "msg/s" "MB/s" "peak RSS*"
line() {	# line LABEL SECONDS RSS_KB
	printf '%-40s %9.1f %10.0f %8.1f %9s\n' "$1" "$2" "$(calc "$n / $2")" \
		"$(calc "$mb / $2")" "${3:+$(calc "int($3 / 1024)") MB}"
}
line "public-inbox-index -L medium" "$s_index" ""
line "onlist fetch, inbox directory in place" "$s_local" "$rss_local"
line "onlist fetch over HTTP (clone + read)" "$s_http" "$rss_http"
echo "* the largest process, onlist or one of its gits"
echo
echo "onlist in place is $(calc "int($s_index / $s_local * 10 + 0.5) / 10")x as fast as public-inbox-index -L medium;"
echo "over HTTP (mirroring included) $(calc "int($s_index / $s_http * 10 + 0.5) / 10")x."
