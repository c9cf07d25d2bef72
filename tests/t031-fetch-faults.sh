#!/bin/sh
# onlist fetch against a misbehaving HTTP server on 127.0.0.1
# (tests/faultserver.py): dropped connections, resets, 500s, 429, trickled
# bytes, a truncated gzip, a server that ignores Range, no Content-Length.
# Every case must end with exactly the messages a local import of the same
# file gives.  Then: conditional refetch (304), a 404, an unknown local
# directory, and a second fetch while one holds the lock.
set -u
top=$(pwd)
ONLIST=${ONLIST:-./onlist}	# override to test another build
case $ONLIST in /*) ;; *) ONLIST=$top/$ONLIST ;; esac
[ -x "$ONLIST" ] || { echo "$ONLIST not built" >&2; exit 77; }
# a broken --help is a failure, not a reason to skip
"$ONLIST" fetch --help >/dev/null 2>&1 || { echo "FAIL: $ONLIST fetch --help failed"; exit 1; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 77; }
tmp=$(mktemp -d)
srv_pid=
cleanup() { [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

sh fixtures/make-fixtures.sh "$tmp/fx" >/dev/null || exit 1
mkdir "$tmp/srv" && cp "$tmp/fx/list.mbox.gz" "$tmp/srv/" || exit 1
python3 tests/faultserver.py 0 "$tmp/srv" --timeout 300 > "$tmp/port" &
srv_pid=$!
for _ in $(seq 1 100); do [ -s "$tmp/port" ] && break; sleep 0.3; done
port=$(head -n 1 "$tmp/port")
[ -n "$port" ] || { echo "fault server did not start"; exit 1; }
base=http://127.0.0.1:$port

"$ONLIST" -q --db "$tmp/ref.db" import --list L "$tmp/fx/list.mbox.gz" > "$tmp/ref.out" || exit 1
sqlite3 "$tmp/ref.db" "SELECT msgid, patch_id FROM messages ORDER BY msgid" > "$tmp/ref.rows"
want=$(wc -l < "$tmp/ref.rows")
[ "$want" -gt 100 ] || { echo "fixture too small: $want"; exit 1; }

for fault in drop reset fail-once flaky/2 429 trickle truncgz norange nolength redirect/2; do
	db=$tmp/$(echo "$fault" | tr / _).db
	url="$base/$fault/list.mbox.gz?t=$fault"
	out=$("$ONLIST" -q --db "$db" fetch --pace 0 --retries 4 --data "$tmp/data" --list L "$url" 2>&1)
	rc=$?
	[ $rc -eq 0 ] || { bad "$fault: exit $rc: $out"; continue; }
	sqlite3 "$db" "SELECT msgid, patch_id FROM messages ORDER BY msgid" > "$tmp/got.rows"
	cmp -s "$tmp/ref.rows" "$tmp/got.rows" ||
		bad "$fault: messages differ from a local import ($(wc -l < "$tmp/got.rows") vs $want)"
	echo "$fault: ok ($out)"
done

# On a terminal a download shows its progress (http.h's callback, drawn by
# the command): size so far, rate, on stderr; `script` gives it a terminal.
if command -v script >/dev/null 2>&1; then
	script -qec "'$ONLIST' --db '$tmp/tty.db' fetch --pace 0 --data '$tmp/ttydata' --list L '$base/trickle/list.mbox.gz?t=tty'" \
		/dev/null >"$tmp/tty.out" 2>&1 || bad "fetch on a terminal failed: $(tail -n 3 "$tmp/tty.out")"
	grep -q 'list.mbox.gz[^:]*: [0-9.]* [KMG]*i*B of [0-9.]* KiB, .*/s' "$tmp/tty.out" ||
		bad "fetch on a terminal: no progress line: $(cat -v "$tmp/tty.out" | head -c 300)"
else
	bad "no script(1) to give fetch a terminal (util-linux)"
fi

# Conditional refetch: the second run sends the validators and imports nothing.
db=$tmp/etag.db
"$ONLIST" -q --db "$db" fetch --pace 0 --data "$tmp/data" --list L "$base/etag/list.mbox.gz" > "$tmp/e1" 2>&1 || bad "etag first fetch: $(cat "$tmp/e1")"
"$ONLIST" -q --db "$db" fetch --pace 0 --data "$tmp/data" > "$tmp/e2" 2>&1 || bad "etag refetch: $(cat "$tmp/e2")"
grep -q "0 messages, 0 new" "$tmp/e2" || bad "refetch of an unchanged file imported something: $(cat "$tmp/e2")"
python3 - "$base/_stats?key=/etag/list.mbox.gz" <<'PY' || bad "no conditional request seen"
import json, sys, urllib.request
s = json.load(urllib.request.urlopen(sys.argv[1]))
sys.exit(0 if s.get("conditional", 0) >= 1 and s.get("count", 0) == 2 else 1)
PY
"$ONLIST" --db "$db" sources | grep -q "etag/list.mbox.gz" || bad "source not remembered"

# A 404: one line, exit 1, nothing imported.
db=$tmp/404.db
out=$("$ONLIST" -q --db "$db" fetch --pace 0 --retries 1 --data "$tmp/data" "$base/status/404" 2>&1)
rc=$?
[ $rc -eq 1 ] || bad "404 exit $rc"
echo "$out" | grep -q "404" || bad "404 message: $out"
[ "$(sqlite3 "$db" 'SELECT count(*) FROM messages')" = 0 ] || bad "404 imported messages"

# A directory that is nothing onlist knows.
mkdir "$tmp/nothing"
out=$("$ONLIST" -q --db "$tmp/n.db" fetch "$tmp/nothing" 2>&1)
[ $? -eq 1 ] || bad "unknown directory did not fail"
echo "$out" | grep -q "neither a maildir nor a public-inbox" || bad "unknown directory message: $out"

# Two fetches at once: the second is refused while the first holds the lock.
if command -v flock >/dev/null; then
	db=$tmp/lock.db
	flock "$db.fetch-lock" sleep 3 &
	holder=$!
	sleep 0.5
	out=$("$ONLIST" -q --db "$db" fetch "$tmp/fx/list.mbox.gz" 2>&1)
	rc=$?
	[ $rc -eq 1 ] || bad "second fetch not refused (exit $rc)"
	echo "$out" | grep -q "another onlist fetch is running" || bad "lock message: $out"
	wait "$holder"
fi

# A fetch leaves no lock behind.
db=$tmp/nolock.db
"$ONLIST" -q --db "$db" fetch --list L "$tmp/fx/list.mbox.gz" >/dev/null 2>&1 || bad "plain fetch failed"
[ -e "$db.fetch-lock" ] && bad "the lock $db.fetch-lock stayed behind"

# Links planted where fetch writes (someone else can write in the folder):
# a .part linked to a file of the victim's is not resumed into (the
# server's body would be appended to it), and a lock linked to a path is
# not created there.
printf 'the victim keeps this\n' >"$tmp/victim"
cp "$tmp/victim" "$tmp/victim.orig"
mkdir -p "$tmp/data6/downloads/127.0.0.1_$port"
ln -s "$tmp/victim" "$tmp/data6/downloads/127.0.0.1_$port/list.mbox.gz.part"
db=$tmp/part.db
out=$("$ONLIST" -q --db "$db" fetch --pace 0 --data "$tmp/data6" --list L "$base/list.mbox.gz" 2>&1)
rc=$?
cmp -s "$tmp/victim" "$tmp/victim.orig" || bad "a .part link: the victim's file was written to"
[ $rc -eq 0 ] || bad "a .part link: exit $rc: $out"
[ "$(sqlite3 "$db" 'SELECT count(*) FROM messages')" = "$want" ] || bad "a .part link: not all messages imported"
ln -s "$tmp/made-by-lock" "$tmp/link.db.fetch-lock"
out=$("$ONLIST" -q --db "$tmp/link.db" fetch --list L "$tmp/fx/list.mbox.gz" 2>&1)
rc=$?
[ -e "$tmp/made-by-lock" ] && bad "a lock link: fetch created the file it points to"
[ $rc -eq 1 ] || bad "a lock link: exit $rc, expected 1: $out"
echo "$out" | grep -q "symbolic link" || bad "a lock link: not said why: $out"

# A window's dates are dates; a password in a source URL is refused, and
# neither printed, stored nor named in a folder.
for d in abc 2024-13-01 2024-02-30 "2024-01-01 OR x" 20240101; do
	out=$("$ONLIST" -q --db "$tmp/since.db" fetch --since "$d" --data "$tmp/data8" "$base/x/" 2>&1)
	rc=$?
	[ $rc -eq 2 ] || bad "--since '$d': exit $rc, expected 2: $out"
done
out=$("$ONLIST" -q --db "$tmp/pw.db" fetch --data "$tmp/data9" --list L "http://user:s3cret@127.0.0.1:$port/list.mbox.gz" 2>&1)
rc=$?
[ $rc -eq 2 ] || bad "password URL: exit $rc, expected 2: $out"
echo "$out" | grep -q s3cret && bad "password URL: the password was printed"
[ -e "$tmp/pw.db" ] && sqlite3 "$tmp/pw.db" .dump 2>/dev/null | grep -q s3cret && bad "password URL: stored"
find "$tmp/data9" 2>/dev/null | grep -q s3cret && bad "password URL: named in a folder"

[ $fail -eq 0 ] && echo "all fetch fault cases passed"
exit $fail
