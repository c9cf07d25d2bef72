#!/bin/sh
# Import speed on a real archive, side by side with public-inbox-index.
#
#   bench/import-real.sh ARCHIVE [NAME]
#
# ARCHIVE is an mbox, an mbox.gz or a public-inbox v2 epoch (a git
# directory whose commits each hold one message in `m`, as in a lore
# mirror: linux-mailinglist-archives/<list>.<epoch> or
# https://lore.kernel.org/<list>/git/<N>.git).  Both tools get the same
# messages: the epoch is written out as mboxrd for onlist (untimed), the
# mbox is committed into an epoch for public-inbox (untimed).  Then, in
# this one run:
#   - onlist import (mail parsing, patch-ids and database writes
#     included): MB/s, messages/s, peak RSS;
#   - public-inbox-index -L medium of the same epoch in a fresh v2 inbox
#     (Debian's public-inbox; tests/pi-server.sh installs it as root);
#   - the ratio of the two wall times, and peak RSS of onlist on the
#     first tenth and half of the messages against all of them (flat
#     memory; a tenth of a small archive may not fill SQLite's 16 MB
#     cache yet, and past that peak RSS follows the largest message).
# Prints one summary block; everything is kept in bench/out/real/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { sed -n '2,21s/^# \{0,1\}//p' "$0"; exit 2; }
arch=$1
name=${2:-$(basename "$arch" | sed 's/\.git$//; s/\.gz$//; s/\.mbox$//')}
out=$top/bench/out/real
onlist=$top/onlist
[ -x "$onlist" ] || { echo "build ./onlist first (make)"; exit 1; }
rm -rf "$out" && mkdir -p "$out"
now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }
rss() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }
wall() { sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$1" |
	awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }'; }

echo "== preparing $arch (untimed)"
if [ -d "$arch" ] && git --git-dir "$arch" rev-parse -q --verify HEAD >/dev/null; then
	epoch=$arch
	python3 "$top/bench/pi-convert.py" to-mbox "$epoch" "$out/all.mbox" >/dev/null
else
	case $arch in
	*.gz) gzip -dc "$arch" > "$out/all.mbox" ;;
	*) cp "$arch" "$out/all.mbox" ;;
	esac
	epoch=$out/epoch.git
	python3 "$top/bench/pi-convert.py" to-epoch "$out/all.mbox" "$epoch" >/dev/null
fi
bytes=$(stat -c %s "$out/all.mbox")
msgs=$(grep -c '^From ' "$out/all.mbox" || true)
mb=$(calc "$bytes / 1048576")
# the first tenth of the messages, cut at a From_ line
awk -v n=$((msgs / 10)) '/^From / { if (++c > n) exit } { print }' \
	"$out/all.mbox" > "$out/tenth.mbox"
awk -v n=$((msgs / 2)) '/^From / { if (++c > n) exit } { print }' \
	"$out/all.mbox" > "$out/half.mbox"
# peak RSS also follows the largest single message (it is parsed whole)
big=$(awk '/^From / { if (n > m) m = n; n = 0 } { n += length($0) + 1 }
	END { if (n > m) m = n; print m }' "$out/all.mbox")

echo "== onlist import: $msgs messages, $(printf %.0f "$mb") MB"
/usr/bin/time -v -o "$out/time-onlist" "$onlist" -q --db "$out/onlist.db" \
	import --list "$name" "$out/all.mbox" >/dev/null
/usr/bin/time -v -o "$out/time-tenth" "$onlist" -q --db "$out/tenth.db" \
	import --list "$name" "$out/tenth.mbox" >/dev/null
/usr/bin/time -v -o "$out/time-half" "$onlist" -q --db "$out/half.db" \
	import --list "$name" "$out/half.mbox" >/dev/null
o_s=$(wall "$out/time-onlist")

echo "== public-inbox-index -L medium on the same $msgs messages"
. "$top/tests/pi-server.sh"
pi_need
pi_setup "$out/pi"
mkdir -p "$PI_DIR/$name/git"
git clone -q --bare "$epoch" "$PI_DIR/$name/git/0.git"
pi_run public-inbox-init -V2 -L medium "$name" "$PI_DIR/$name" \
	"http://127.0.0.1/$name" "$name@example.org" >"$out/pi-init.log" 2>&1
/usr/bin/time -v -o "$out/time-pi" env HOME="$PI_DIR/home" \
	PI_CONFIG="$PI_DIR/config" GIT_CONFIG_NOSYSTEM=1 \
	GIT_CONFIG_GLOBAL=/dev/null \
	public-inbox-index -L medium "$PI_DIR/$name" >"$out/pi-index.log" 2>&1
p_s=$(wall "$out/time-pi")
p_n=$(sqlite3 "$PI_DIR/$name/msgmap.sqlite3" 'select count(*) from msgmap' 2>/dev/null || echo "?")

awk -v b="$bytes" -v m="$msgs" -v s="$o_s" -v p="$p_s" -v pn="$p_n" \
    -v r1="$(rss "$out/time-tenth")" -v r2="$(rss "$out/time-onlist")" \
    -v rh="$(rss "$out/time-half")" -v big="$big" \
    -v name="$name" 'BEGIN {
	printf "archive %s: %d messages, %.0f MB\n", name, m, b / 1048576
	printf "onlist import:         %7.1f MB/s %7.0f msg/s  (%.1f s)\n", b / 1048576 / s, m / s, s
	printf "public-inbox-index -L medium: %.1f MB/s %5.0f msg/s  (%.1f s, %s messages indexed)\n", b / 1048576 / p, m / p, p, pn
	printf "ratio public-inbox/onlist: %.1fx\n", p / s
	printf "peak RSS: %d kB on a tenth, %d kB on half, %d kB on all (%.2fx for 10x input, %.2fx for 2x)\n", r1, rh, r2, r2 / r1, r2 / rh
	printf "  (SQLite cache 16 MB once full; the largest message is %d kB)\n", big / 1024
}'
