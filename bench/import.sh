#!/bin/sh
# Import speed, side by side with git's own pipeline on the same mbox.
#
#   bench/import.sh [REPO [RANGE [SIZE_MB]]]
#
# Builds an mbox of >= SIZE_MB (default 200) from `git format-patch RANGE` of
# REPO (default: this repository's whole history, `--root`, cycled) with MIME
# variants, then
#   - onlist import (patch-ids and database writes included): MB/s, msg/s,
#     peak RSS;
#   - git mailsplit + git mailinfo -u + git patch-id --stable per message, on
#     the first GIT_SAMPLE (default 3000) messages, extrapolated;
#   - peak RSS of onlist import at SIZE_MB/10 and at SIZE_MB, to show that
#     memory stays flat as the archive grows.
#
#   bench/import.sh ARCHIVE
#
# With an mbox, an mbox.gz or a public-inbox epoch instead of a REPO: real
# mail, against public-inbox-index -L medium (bench/import-real.sh).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ge 1 ] && { [ -f "$1" ] ||
   { [ -d "$1" ] && [ -f "$1/HEAD" ] && [ ! -d "$1/.git" ]; }; }; then
	exec sh "$top/bench/import-real.sh" "$@"
fi
repo=${1:-$top}
range=${2:---root}	# `format-patch HEAD` would be the commits after HEAD: none
size=${3:-200}
sample=${GIT_SAMPLE:-3000}
out=$top/bench/out
mkdir -p "$out"
onlist=$top/onlist
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }

echo "== making mboxes from $repo $range"
git -C "$repo" format-patch --stdout --no-merges "$range" > "$out/fp.txt"
python3 "$top/bench/make-mbox.py" "$size" "$out/big.mbox" < "$out/fp.txt"
python3 "$top/bench/make-mbox.py" $((size / 10)) "$out/small.mbox" < "$out/fp.txt"
rm -f "$out/fp.txt"
bytes=$(stat -c %s "$out/big.mbox")
msgs=$(grep -c '^From bench@onlist.example ' "$out/big.mbox")
calc() { awk "BEGIN { print $* }"; }
mb=$(calc "$bytes / 1048576")

rss() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }

echo "== onlist import ($msgs messages, $(printf %.0f "$mb") MB)"
rm -f "$out/bench.db"*
/usr/bin/time -v -o "$out/time-big" "$onlist" -q --db "$out/bench.db" import "$out/big.mbox"
secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/time-big" |
	awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
rss_big=$(rss "$out/time-big")
rm -f "$out/bench.db"*
/usr/bin/time -v -o "$out/time-small" "$onlist" -q --db "$out/bench.db" import "$out/small.mbox" >/dev/null
rss_small=$(rss "$out/time-small")
rm -f "$out/bench.db"*

echo "== git mailsplit + mailinfo -u + patch-id --stable (first $sample messages)"
rm -rf "$out/split" && mkdir "$out/split"
t0=$(date +%s.%N)
git mailsplit --mboxrd -o"$out/split" "$out/big.mbox" >/dev/null
t1=$(date +%s.%N)
n=0 gbytes=0
for f in "$out"/split/*; do
	[ $n -ge "$sample" ] && break
	git mailinfo -u "$out/msg" "$out/patch" < "$f" >/dev/null 2>&1 || true
	git patch-id --stable < "$out/patch" >/dev/null
	gbytes=$((gbytes + $(stat -c %s "$f")))
	n=$((n + 1))
done
t2=$(date +%s.%N)
rm -rf "$out/split" "$out/msg" "$out/patch"

awk -v b="$bytes" -v m="$msgs" -v s="$secs" -v sp="$(calc "$t1 - $t0")" \
    -v per="$(calc "$t2 - $t1")" -v n="$n" -v gb="$gbytes" \
    -v r1="$rss_small" -v r2="$rss_big" 'BEGIN {
	ob = b / 1048576 / s; om = m / s
	# git: mailsplit of the whole file, plus the per-message rate of the sample
	gs = sp + per * m / n
	gb_s = b / 1048576 / gs; gm = m / gs
	printf "onlist import: %8.1f MB/s %9.0f msg/s  (%.1f s)\n", ob, om, s
	printf "git pipeline:  %8.1f MB/s %9.0f msg/s  (%.1f s, extrapolated from %d messages)\n", gb_s, gm, gs, n
	printf "ratio onlist/git: %.1fx\n", gs / s
	printf "peak RSS: %d kB at %d MB/10, %d kB at full size (%.2fx for 10x input)\n", r1, b / 1048576, r2, r2 / r1
}'
