#!/bin/sh
# pi-server.sh - a real public-inbox (Debian's public-inbox 1.9) on 127.0.0.1,
# for the end-to-end tests and the benchmarks.  Nothing global is touched:
# the configuration ($PI_CONFIG) and HOME of every public-inbox command are
# in the directory given to pi_setup.
#
# Sourced (`. tests/pi-server.sh`), it defines:
#   pi_need              public-inbox usable, installed with apt-get when
#                        missing and root; else exit 77 saying why
#   pi_setup DIR         use DIR (created) for the configuration, the
#                        inboxes and the server; picks a free port:
#                        PI_PORT, PI_URL=http://127.0.0.1:PORT
#   pi_init NAME [1|2]   create inbox NAME (v2 unless 1) in DIR/NAME at
#                        index level $PI_LEVEL (default medium), address NAME@example.org
#   pi_import NAME MBOX  bulk-import an mboxrd file (one git fast-import,
#                        indexed as it goes), then public-inbox-index
#   pi_deliver NAME      deliver one message (stdin) with public-inbox-mda
#   pi_index NAME        public-inbox-index the inbox
#   pi_purge             public-inbox-purge --all the message on stdin
#   pi_start             start public-inbox-httpd -W0 on PI_PORT in the
#                        background, wait until it answers; the pid goes
#                        to DIR/httpd.pid, the base URL to DIR/httpd.url
#   pi_stop              stop it (safe to call twice, or when not started)
#   pi_msgids NAME       "<message-id> <YYYYMMDD>" for every message the
#                        inbox holds (removals applied), read from its git
#                        epochs with git and python3, not from public-inbox;
#                        the date is the Date header's day in UTC, as
#                        public-inbox's d: search prefix sees it
# A test that starts a server should stop it on exit:
#   trap 'pi_stop; rm -rf "$TMP"' EXIT
#
# Run as a command, for benchmarks and poking around by hand:
#   sh tests/pi-server.sh start DIR NAME [MBOX]   set up (once), import MBOX
#                                                 into a new inbox, serve;
#                                                 prints the inbox URL
#   sh tests/pi-server.sh stop DIR
#
# Measured with public-inbox 1.9.0 (see the report in FACTS.md terms):
# GET /NAME/all.mbox.gz, POST /NAME/?q=d:A..B&x=m (404 when nothing
# matches; A..B are days, both inclusive, UTC), /NAME/git/N.git for v2
# (smart HTTP; a v1 inbox is cloned at /NAME itself), /manifest.js.gz and
# /NAME/manifest.js.gz; an unknown inbox is a 404.

pi_skip() { echo "skip: $*"; exit 77; }
pi_die() { echo "pi-server: $*" >&2; exit 1; }

# Every public-inbox command runs through this: its own HOME and config,
# and git without the user's configuration.
pi_run() {
	env HOME="$PI_DIR/home" PI_CONFIG="$PI_DIR/config" \
		GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null "$@"
}

pi_need() {
	command -v python3 >/dev/null 2>&1 || pi_skip "python3 not installed"
	if ! command -v public-inbox-httpd >/dev/null 2>&1 ||
	   ! perl -MSearch::Xapian -e 1 >/dev/null 2>&1; then
		[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 ||
			pi_skip "public-inbox not installed (as root:" \
				"apt-get install --no-install-recommends public-inbox)"
		echo "pi-server: installing public-inbox" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get install -y -q --no-install-recommends public-inbox \
			>/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 &&
		  apt-get install -y -q --no-install-recommends public-inbox \
			>/dev/null 2>&1; } ||
			pi_skip "apt-get install public-inbox failed"
	fi
	command -v public-inbox-httpd >/dev/null 2>&1 ||
		pi_skip "public-inbox-httpd not found after installing"
	v=$(dpkg-query -W -f '${Version}' public-inbox 2>/dev/null || true)
	case $v in
	1.9*|"") ;;
	*) echo "pi-server: public-inbox $v, tested with 1.9" >&2 ;;
	esac
}

pi_setup() {
	mkdir -p "$1/home" || pi_die "cannot create $1"
	PI_DIR=$(cd "$1" && pwd)
	# a port free now; the server binds it a moment later
	PI_PORT=$(python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])') || pi_die "no free port"
	PI_URL=http://127.0.0.1:$PI_PORT
	# public-inbox spawns git (patch-id for every patch it indexes) with
	# vfork through Inline::C only when this directory exists; otherwise
	# it forks its whole process: measured 5x slower indexing (1.9.0)
	mkdir -p "$PI_DIR/home/.cache/public-inbox/inline-c"
	: > "$PI_DIR/config"
	# mail from the tests is not spam
	git config -f "$PI_DIR/config" publicinboxmda.spamcheck none
	export PI_DIR PI_PORT PI_URL
}

pi_init() {
	pi_run public-inbox-init -V"${2:-2}" -L "${PI_LEVEL:-medium}" "$1" "$PI_DIR/$1" \
		"$PI_URL/$1" "$1@example.org" >"$PI_DIR/init.log" 2>&1 ||
		{ cat "$PI_DIR/init.log" >&2; pi_die "public-inbox-init $1 failed"; }
}

# The bulk path: InboxWritable->import_mbox feeds one git fast-import and
# indexes as it goes, much faster than a public-inbox-mda per message
# (~0.4 s each).  Duplicate Message-IDs with the same content are dropped,
# as public-inbox-mda would.
pi_import() {
	pi_run perl -e '
use strict;
use PublicInbox::Config;
use PublicInbox::InboxWritable;
my ($name, $file) = @ARGV;
my $ibx = PublicInbox::Config->new->lookup_name($name) or die "no inbox $name\n";
$ibx = PublicInbox::InboxWritable->new($ibx);
open my $fh, "<", $file or die "$file: $!\n";
$ibx->import_mbox($fh, "mboxrd");
' "$1" "$2" >"$PI_DIR/import.log" 2>&1 ||
		{ tail -n 20 "$PI_DIR/import.log" >&2; pi_die "import of $2 failed"; }
	pi_index "$1"
}

pi_deliver() {
	pi_run ORIGINAL_RECIPIENT="$1@example.org" public-inbox-mda \
		--no-precheck >"$PI_DIR/mda.log" 2>&1 ||
		{ cat "$PI_DIR/mda.log" >&2; pi_die "public-inbox-mda failed"; }
}

# public-inbox-purge: the message (stdin) is removed from every epoch by
# rewriting the history from it on; it leaves an empty `m` in its place,
# and the old commits are pruned from the inbox.
pi_purge() {
	pi_run public-inbox-purge --all >"$PI_DIR/purge.log" 2>&1 ||
		{ cat "$PI_DIR/purge.log" >&2; pi_die "public-inbox-purge failed"; }
}

pi_index() {
	pi_run public-inbox-index -L "${PI_LEVEL:-medium}" "$PI_DIR/$1" >"$PI_DIR/index.log" 2>&1 ||
		{ tail -n 20 "$PI_DIR/index.log" >&2; pi_die "public-inbox-index $1 failed"; }
}

pi_start() {
	pi_stop
	# -W0: no worker processes, so the pid we keep is the server itself
	# a simple command, not pi_run: $! must be the server, not a subshell
	env HOME="$PI_DIR/home" PI_CONFIG="$PI_DIR/config" \
		GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		public-inbox-httpd -W0 -l "$PI_URL" \
		>"$PI_DIR/httpd.out" 2>"$PI_DIR/httpd.err" </dev/null &
	echo $! > "$PI_DIR/httpd.pid"
	echo "$PI_URL" > "$PI_DIR/httpd.url"
	i=0
	# any HTTP answer will do: / is a 404 without publicinbox.wwwlisting
	until python3 -c 'import sys, urllib.request, urllib.error
try:
    urllib.request.urlopen(sys.argv[1], timeout=2)
except urllib.error.HTTPError:
    pass' "$PI_URL/" 2>/dev/null; do
		if ! kill -0 "$(cat "$PI_DIR/httpd.pid")" 2>/dev/null; then
			cat "$PI_DIR/httpd.err" >&2
			rm -f "$PI_DIR/httpd.pid"
			pi_die "public-inbox-httpd exited"
		fi
		i=$((i + 1))
		[ $i -lt 300 ] || { pi_stop; pi_die "public-inbox-httpd does not answer on $PI_URL"; }
		sleep 0.1
	done
}

pi_stop() {
	[ -n "${PI_DIR:-}" ] && [ -f "$PI_DIR/httpd.pid" ] || return 0
	pid=$(cat "$PI_DIR/httpd.pid")
	rm -f "$PI_DIR/httpd.pid"
	kill "$pid" 2>/dev/null || return 0
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -9 "$pid" 2>/dev/null || true
	return 0
}

pi_msgids() {
	python3 - "$PI_DIR/$1" <<'EOF'
import datetime, email.parser, email.utils, glob, os, re, subprocess, sys
import threading

top = sys.argv[1]
epochs = sorted(glob.glob(os.path.join(top, "git", "*.git")),
                key=lambda p: int(os.path.basename(p)[:-4]))
if not epochs:
    epochs = [top]          # v1: the inbox is the repository
v1path = re.compile(r"^[0-9a-f]{2}/[0-9a-f]{38}$")
live = {}                   # message-id -> day
parser = email.parser.BytesHeaderParser()

def header_of(blob_data):
    h = parser.parsebytes(blob_data)
    ids = re.findall(r"<([^<>\s]+)>", h.get("Message-ID", "") or "")
    day = ""
    try:
        d = email.utils.parsedate_to_datetime(h.get("Date"))
        if d.tzinfo is None:
            d = d.replace(tzinfo=datetime.timezone.utc)
        day = d.astimezone(datetime.timezone.utc).strftime("%Y%m%d")
    except Exception:
        pass
    return (ids[0] if ids else None), day

for git in epochs:
    if subprocess.run(["git", "-C", git, "rev-parse", "-q", "--verify",
                       "master"], capture_output=True).returncode:
        continue            # an epoch nothing was written to
    log = subprocess.run(["git", "-C", git, "log", "--reverse", "--raw",
                          "--no-abbrev", "--no-renames", "--root",
                          "--format=commit %H", "master"],
                         capture_output=True, check=True).stdout.decode()
    todo = []               # (kind, blob)
    for line in log.splitlines():
        if not line.startswith(":"):
            continue
        meta, path = line.split("\t", 1)
        f = meta.split()
        old, new, st = f[2], f[3], f[4]
        if path == "m" and st in "AM":
            todo.append(("m", new))
        elif path == "d" and st in "AM":
            todo.append(("d", new))
        elif v1path.match(path):
            todo.append(("d", old) if st == "D" else ("m", new))
    cat = subprocess.Popen(["git", "-C", git, "cat-file", "--batch"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    def feed():
        cat.stdin.write("".join(b + "\n" for _, b in todo).encode())
        cat.stdin.close()
    threading.Thread(target=feed, daemon=True).start()
    for kind, _ in todo:
        head = cat.stdout.readline().split()
        data = cat.stdout.read(int(head[2]))
        cat.stdout.read(1)
        mid, day = header_of(data)
        if mid is None:
            continue
        if kind == "m":
            live[mid] = day
        else:
            live.pop(mid, None)
    cat.wait()
for mid in sorted(live):
    print(mid, live[mid])
EOF
}

# ---- as a command -------------------------------------------------------------
case ${0##*/} in
pi-server.sh)
	set -eu
	cmd=${1:-}
	case $cmd in
	start)
		[ $# -ge 3 ] || pi_die "usage: sh tests/pi-server.sh start DIR NAME [MBOX]"
		pi_need
		if [ -f "$2/port" ]; then
			PI_DIR=$(cd "$2" && pwd)
			PI_PORT=$(cat "$PI_DIR/port")
			PI_URL=http://127.0.0.1:$PI_PORT
		else
			pi_setup "$2"
			echo "$PI_PORT" > "$PI_DIR/port"
		fi
		if [ ! -d "$PI_DIR/$3" ]; then
			pi_init "$3"
			[ -z "${4:-}" ] || pi_import "$3" "$4"
		fi
		pi_start
		echo "$PI_URL/$3/"
		;;
	stop)
		[ $# -eq 2 ] || pi_die "usage: sh tests/pi-server.sh stop DIR"
		PI_DIR=$(cd "$2" && pwd)
		pi_stop
		;;
	*)
		pi_die "usage: sh tests/pi-server.sh start DIR NAME [MBOX] | stop DIR"
		;;
	esac
	;;
esac
