#!/bin/sh
# onlist match on a synthetic database shaped like LKML plus mainline.
#
#   bench/kernel.sh [MESSAGES [COMMITS]]     (default 5000000 1000000)
#
# bench/make-lkmldb.py fills the database (40 lists, cross-posted patches
# and replies, tip-bot echoes on linux-tip-commits, stable backports with
# their review mail, merges every 100-500 commits: see its header); then
# `onlist match` runs in full, bench/make-lkmldb.py --add adds NEW messages
# (default 1000) of the same shape, and `onlist match` runs again.  Printed:
# elapsed, CPU (user + sys) and peak RSS of both runs, and the database's
# bytes per message, and the pages the incremental run read and wrote
# (SQLite's counts: unlike its time, the same on any machine; compare two
# sizes by them).  Issue 33's goals at 5M x 1M: full <= 3 min and
# <= 2 GB, incremental <= 1.5 s.  FROM=DB starts from a copy of DB (an
# unmatched database bench/make-lkmldb.py filled; generating 5M messages
# takes a long while).  Run it under nice -n 19.  See bench/README.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
nmsg=${1:-5000000}
ncommit=${2:-1000000}
out=$top/bench/out
mkdir -p "$out"
onlist=$top/onlist
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
db=$out/kernel.db
rm -f "$db" "$db-wal" "$db-shm"
if [ -n "${FROM:-}" ]; then
	echo "== starting from a copy of $FROM"
	cp "$FROM" "$db"
else
	# a match on no database makes an empty one
	"$onlist" -q --db "$db" match >/dev/null
	echo "== generating $nmsg messages and $ncommit commits (LKML shape)"
	/usr/bin/time -f '   generated in %e s, %M KB peak RSS' \
		python3 "$top/bench/make-lkmldb.py" "$db" "$nmsg" "$ncommit"
fi
fmt='%e s elapsed, %U s user, %S s system, %M KB peak RSS'
cpu() { sed -n 's/.* s elapsed, \(.*\) s user, \(.*\) s system, \(.*\) KB.*/\1 \2 \3/p' "$1" |
	awk '{ printf "%.1f s CPU (user + sys), %.0f MB peak RSS", $1 + $2, $3 / 1024 }'; }
echo "== onlist match (full)"
ONLIST_TIMING=1 /usr/bin/time -f "$fmt" \
	"$onlist" -q --db "$db" match 2>"$out/kernel.time" | sed 's/^/   /'
cat "$out/kernel.time"
secs=$(sed -n 's/ s elapsed.*//p' "$out/kernel.time")
full="$secs s, $(cpu "$out/kernel.time")"
nnew=${NEW:-1000}
echo "== $nnew new messages, onlist match again"
python3 "$top/bench/make-lkmldb.py" --add "$db" "$nnew"
ONLIST_TIMING=1 /usr/bin/time -f "$fmt" \
	"$onlist" -q --db "$db" match 2>"$out/kernel-incr.time" | sed 's/^/   /'
cat "$out/kernel-incr.time"
isecs=$(sed -n 's/ s elapsed.*//p' "$out/kernel-incr.time")
sqlite3 "$db" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
n=$(sqlite3 "$db" 'SELECT count(*) FROM messages')
lists=$(sqlite3 "$db" 'SELECT count(DISTINCT list), round(1.0 * count(*) / count(DISTINCT msgid), 2) FROM message_lists')
bytes=$(wc -c <"$db")
echo "kernel: $nmsg messages x $ncommit commits"
echo "  full match:        $full"
pages=$(sed -n 's/^timing: match done at .* s CPU, \([0-9-]*\) pages read, \([0-9-]*\) written$/\1 pages read, \2 written/p' "$out/kernel-incr.time")
echo "  incremental match: $nnew new messages in $isecs s, $(cpu "$out/kernel-incr.time"), $pages"
echo "  database: $bytes bytes, $n messages, $((bytes / n)) bytes per message;" \
	"lists, lists per message: $lists"
