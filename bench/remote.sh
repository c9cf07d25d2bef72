#!/bin/sh
# onlist lookup --remote beside the queries `b4 dig` makes, on the same
# local public-inbox server and the same commits.
#
#   bench/remote.sh [COMMITS]      (default: every commit of v1.0..v1.1)
#
# The fixture's list is served by Debian's public-inbox-httpd (index level
# full) behind tests/faultserver.py, which only counts the requests (/pi/ok/).
# For each commit, one process each:
#   onlist  lookup --remote (Link: Message-IDs, patchid: under 4 diff
#           algorithms, author + author date, subject + author; threads of
#           what it finds), a fresh database per run, --pace 0;
#   b4 dig  its method, as b4 0.14 asks lore: patchid: under myers,
#           histogram, patience and minimal in turn, bounded by the author
#           date, until one answers; else s:"SUBJECT" AND f:AUTHOR.
#           (python3 + urllib, one connection per request as b4 does.)
# Then onlist again on the same database: a repeat must make 0 requests.
# "found" counts commits the side finds a posting for, out of those a
# database that imported the whole list says were posted.  Goal: onlist
# finds as many or more, at most 8 requests a commit on average.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
onlist=$top/onlist
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
. tests/pi-server.sh
pi_need
tmp=$(mktemp -d)
fs_pid=
trap 'pi_stop; [ -n "$fs_pid" ] && kill "$fs_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

sh fixtures/make-fixtures.sh "$tmp/fx" >/dev/null 2>&1 || { echo "fixture failed"; exit 1; }
R=$tmp/fx/repo
git -C "$R" rev-list --no-merges v1.0..v1.1 >"$tmp/all"
if [ -n "${1:-}" ]; then head -n "$1" "$tmp/all" >"$tmp/shas"; else cp "$tmp/all" "$tmp/shas"; fi
n=$(wc -l <"$tmp/shas")

"$onlist" -q --db "$tmp/ref.db" import --list fixture "$tmp/fx/list.mbox" >/dev/null
"$onlist" -q --db "$tmp/ref.db" scan --repo "$R" v1.0..v1.1 >/dev/null
"$onlist" -q --db "$tmp/ref.db" match >/dev/null
posted=0
while read -r c; do
	if "$onlist" -q --db "$tmp/ref.db" lookup "$c" >/dev/null 2>&1; then
		posted=$((posted + 1)); echo "$c"
	fi
done <"$tmp/shas" >"$tmp/posted"

PI_LEVEL=full
export PI_LEVEL
pi_setup "$tmp/pi"
pi_init fixture
pi_import fixture "$tmp/fx/list.mbox"
pi_start
python3 tests/faultserver.py 0 "$tmp" --timeout 3600 --backend "$PI_URL" >"$tmp/fs.port" &
fs_pid=$!
i=0; until [ -s "$tmp/fs.port" ] || [ $i -ge 100 ]; do sleep 0.2; i=$((i + 1)); done
FS=http://127.0.0.1:$(head -n 1 "$tmp/fs.port")
count() {
	python3 - "$FS/_stats" "$1" <<'EOF'
import json, sys, urllib.request
s = json.load(urllib.request.urlopen(sys.argv[1]))
print(sum(v["count"] for k, v in s.items() if k.startswith(sys.argv[2])))
EOF
}
now() { date +%s.%N; }

# onlist, one process a commit, one database for the run
t0=$(now)
found=0
while read -r c; do
	if "$onlist" -q --db "$tmp/remote.db" lookup --remote "$FS/pi/ok/fixture/" \
		--repo "$R" --pace 0 "$c" >/dev/null 2>&1; then
		grep -qx "$c" "$tmp/posted" && found=$((found + 1))
	fi
done <"$tmp/shas"
t1=$(now)
req=$(count /pi/ok/)
# and again
while read -r c; do
	"$onlist" -q --db "$tmp/remote.db" lookup --remote "$FS/pi/ok/fixture/" \
		--repo "$R" --pace 0 "$c" >/dev/null 2>&1 || true
done <"$tmp/shas"
t2=$(now)
again=$(( $(count /pi/ok/) - req ))

# b4 dig's queries
python3 - "$FS/pi/b4/fixture/" "$R" "$tmp/shas" "$tmp/posted" >"$tmp/b4" <<'EOF'
import datetime, gzip, subprocess, sys, time, urllib.error, urllib.parse, urllib.request
url, repo, shas, posted = sys.argv[1:5]
posted = set(open(posted).read().split())
def git(*a, inp=None):
    return subprocess.run(["git", "-C", repo] + list(a), input=inp,
                          capture_output=True, check=True).stdout
def query(q):
    req = urllib.request.Request(url + "?" + urllib.parse.urlencode({"q": q, "x": "m"}),
                                 data=b"", method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            body = gzip.decompress(r.read())
        return body.count(b"\nFrom ") + body.startswith(b"From ")
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return 0
        raise
found = 0
t0 = time.time()
for sha in open(shas).read().split():
    meta = git("show", "-s", "--format=%ae%x00%at%x00%s", sha).decode().split("\0")
    addr, at, subj = meta[0], int(meta[1]), meta[2]
    day = datetime.datetime.utcfromtimestamp(at - 86400 * 30).strftime("%Y%m%d")
    hit = 0
    for alg in ("myers", "histogram", "patience", "minimal"):
        diff = git("diff-tree", "-p", "--full-index", "--diff-algorithm=" + alg, sha)
        pid = git("patch-id", "--stable", inp=diff).split()
        if pid and query("patchid:%s AND d:%s.." % (pid[0].decode(), day)):
            hit = 1
            break
    if not hit:
        words = " ".join("".join(ch if ch.isalnum() else " " for ch in subj).split())
        hit = query('s:"%s" AND f:%s' % (words, addr)) > 0
    found += hit and sha in posted
print(found, "%.2f" % (time.time() - t0))
EOF
b4found=$(cut -d' ' -f1 "$tmp/b4")
b4time=$(cut -d' ' -f2 "$tmp/b4")
b4req=$(count /pi/b4/)

awk -v n="$n" -v posted="$posted" -v req="$req" -v again="$again" \
    -v t1="$(echo "$t1 - $t0" | bc)" -v t2="$(echo "$t2 - $t1" | bc)" \
    -v found="$found" -v b4found="$b4found" -v b4req="$b4req" -v b4time="$b4time" 'BEGIN {
	printf "%d commits, %d posted (a whole-list import says)\n", n, posted
	printf "%-22s %8s %12s %10s %12s\n", "", "found", "requests", "req/commit", "ms/commit"
	printf "%-22s %4d/%-3d %12d %10.2f %12.0f\n", "onlist lookup --remote", found, posted, req, req / n, 1000 * t1 / n
	printf "%-22s %4s/%-3d %12d %10.2f %12.0f\n", "  the same again", "", posted, again, again / n, 1000 * t2 / n
	printf "%-22s %4d/%-3d %12d %10.2f %12.0f\n", "b4 dig queries", b4found, posted, b4req, b4req / n, 1000 * b4time / n
	printf "requests ratio onlist/b4: %.2f\n", b4req ? req / b4req : 0
}'
