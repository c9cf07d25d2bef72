#!/bin/sh
# A public-inbox server that never ends: onlist fetch must not clone epoch
# after epoch for ever, nor wait for ever on a server that trickles.
#   - /inf/: every git/N.git answers (six distinct small epochs, then the
#     same one under every number, over git's dumb HTTP) and there is no
#     manifest.js.gz: fetch stops at --max-epochs with exit 1 and says
#     why; without --max-epochs it stops at the first repeated epoch;
#   - /listed/3/: the same, but manifest.js.gz lists 0..2: exactly three
#     epochs are cloned and fetch succeeds; /listed/100000/ does not get
#     past --max-epochs;
#   - /slowgit/100/: epoch 1 holds epoch 0's messages committed again
#     (another tip): fetch stops there, having added nothing from it;
#   - /drip/: 3 bytes a second: --timeout ends the source, exit 1, saying
#     the time ran out (without it, the stall limit would take a minute).
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

# one epoch: a bare repository whose commits each hold a message as blob m
E=$TMP/srv/epoch.git
git init -q --bare -b master "$E"
W=$TMP/w
git init -q -b master "$W"
for i in 1 2 3; do
	printf 'From: A <a@example.org>\nSubject: [PATCH] change %d\nMessage-ID: <m%d@example.org>\nDate: Mon, 1 Jan 2024 00:00:0%d +0000\n\nWhy.\n' \
		"$i" "$i" "$i" >"$W/m"
	git -C "$W" add m && git -C "$W" commit -q -m "m$i" || fail "git commit"
done
git -C "$W" push -q "$E" master || fail "git push"
git -C "$E" update-server-info || fail "update-server-info"
# six distinct epochs, one message each, served first under /inf/ and /listed/
mkdir -p "$TMP/srv/inf-epochs"
for i in 0 1 2 3 4 5; do
	D=$TMP/srv/inf-epochs/$i.git
	git init -q --bare -b master "$D"
	V=$TMP/v$i
	git init -q -b master "$V"
	printf 'From: A <a@example.org>\nSubject: epoch %d\nMessage-ID: <e%d@example.org>\nDate: Mon, 1 Jan 2024 00:00:0%d +0000\n\nWhy.\n' \
		"$i" "$i" "$i" >"$V/m"
	git -C "$V" add m && git -C "$V" commit -q -m "e$i" && git -C "$V" push -q "$D" master &&
		git -C "$D" update-server-info || fail "git push"
done
ln -s inf-epochs "$TMP/srv/listed-epochs"

python3 tests/faultserver.py 0 "$TMP/srv" --timeout 300 >"$TMP/port" &
srv=$!
trap 'kill $srv 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 1 100); do [ -s "$TMP/port" ] && break; sleep 0.3; done
port=$(head -n 1 "$TMP/port")
[ -n "$port" ] || fail "the fault server did not start"
base=http://127.0.0.1:$port
printf 'x%.0s' $(seq 1 3000) >"$TMP/srv/slow.mbox"

# endless epochs, no manifest
run endless "$ONLIST" -q --db "$TMP/inf.db" fetch --pace 0 --data "$TMP/data" \
	--max-epochs 4 --list inf "$base/inf/"
expect_rc endless 1
grep -q -- '--max-epochs' "$TMP/err" || bad "endless: the error does not name --max-epochs"
n=$(find "$TMP/data/mirrors" -type d -name '[0-9]*.git' | wc -l)
[ "$n" -le 4 ] || bad "endless: $n epochs cloned, --max-epochs was 4"
[ "$n" -ge 1 ] || bad "endless: nothing cloned (test bug?)"

# no --max-epochs: the first epoch that repeats an earlier one ends it
run repeats "$ONLIST" -q --db "$TMP/rep.db" fetch --pace 0 --data "$TMP/datar" \
	--timeout 120 --list rep "$base/inf/"
expect_rc repeats 1
grep -q 'epoch 7 is a copy of epoch 6' "$TMP/err" || bad "repeats: not stopped at the repeat"
n=$(find "$TMP/datar/mirrors" -type d -name '[0-9]*.git' | wc -l)
[ "$n" = 8 ] || bad "repeats: $n epochs cloned, expected 8 (0..5 distinct, 6, its copy 7)"
m=$(sqlite3 "$TMP/rep.db" 'select count(*) from messages')
[ "$m" = 9 ] || bad "repeats: $m messages imported, expected 9"

# the same messages committed again (another tip) under the next number:
# /slowgit/100/ serves DIR/slowgit-epochs/1.git for epoch 1, epoch.git for
# every other number.  Epoch 1 adds nothing and ends the walk (before, it
# took epoch 2, epoch 0's tip again, to end it).
R1=$TMP/srv/slowgit-epochs/1.git
git init -q --bare -b master "$R1"
V=$TMP/vcopy
git init -q -b master "$V"
for i in 1 2 3; do
	git -C "$W" show "HEAD~$((3 - i)):m" >"$V/m" || fail "git show"
	git -C "$V" add m && git -C "$V" commit -q -m "copy of m$i" || fail "git commit"
done
git -C "$V" push -q "$R1" master && git -C "$R1" update-server-info || fail "git push"
run recommitted "$ONLIST" -q --db "$TMP/rec.db" fetch --pace 0 --data "$TMP/datac" \
	--timeout 120 --list rec "$base/slowgit/100/"
expect_rc recommitted 1
grep -q 'epoch 1 holds only messages of earlier epochs' "$TMP/err" ||
	bad "recommitted: not stopped at the epoch that repeats messages: $(cat "$TMP/err")"
n=$(find "$TMP/datac/mirrors" -type d -name '[0-9]*.git' | wc -l)
[ "$n" = 2 ] || bad "recommitted: $n epochs cloned, expected 2 (epoch 0, its copy 1)"
m=$(sqlite3 "$TMP/rec.db" 'select count(*) from messages')
[ "$m" = 3 ] || bad "recommitted: $m messages imported, expected 3"

# a manifest that lists 100000 does not override --max-epochs
run "listed 100000" "$ONLIST" -q --db "$TMP/l100k.db" fetch --pace 0 --data "$TMP/datal" \
	--max-epochs 4 --timeout 120 --list l100k "$base/listed/100000/"
expect_rc "listed 100000" 1
grep -q -- '--max-epochs' "$TMP/err" || bad "listed 100000: the error does not name --max-epochs"
n=$(find "$TMP/datal/mirrors" -type d -name '[0-9]*.git' | wc -l)
[ "$n" -le 4 ] || bad "listed 100000: $n epochs cloned, --max-epochs was 4"

# the manifest lists three
run listed "$ONLIST" -q --db "$TMP/listed.db" fetch --pace 0 --data "$TMP/data2" \
	--list listed "$base/listed/3/"
expect_rc listed 0
n=$(find "$TMP/data2/mirrors" -type d -name '[0-9]*.git' | wc -l)
[ "$n" = 3 ] || bad "listed: $n epochs cloned, the manifest lists 3"
m=$(sqlite3 "$TMP/listed.db" 'select count(*) from messages')
[ "$m" = 3 ] || bad "listed: $m messages imported, expected 3"

# a trickle, ended by --timeout
t0=$(date +%s)
run timeout "$ONLIST" -q --db "$TMP/drip.db" fetch --pace 0 --data "$TMP/data3" \
	--timeout 3 --list drip "$base/drip/slow.mbox"
t1=$(date +%s)
expect_rc timeout 1
grep -q -- '--timeout' "$TMP/err" || bad "timeout: the error does not say the time ran out"
[ $((t1 - t0)) -lt 30 ] || bad "timeout: took $((t1 - t0)) s with --timeout 3"

# ---- list names: an epoch's path names its list, not the epoch ------------------
mkdir -p "$TMP/names/mylist/git" "$TMP/names/in"
git clone -q --bare "$TMP/srv/inf-epochs/0.git" "$TMP/names/mylist-0.git" &&
	git clone -q --bare "$TMP/srv/inf-epochs/1.git" "$TMP/names/mylist/git/0.git" &&
	git clone -q --bare "$TMP/srv/inf-epochs/2.git" "$TMP/names/in/git/12.git" || fail "git clone"
for p in "$TMP/names/mylist-0.git" "$TMP/names/mylist/git/0.git/" "$TMP/names/mylist"; do
	rm -f "$TMP/names.db"
	run "name of $p" "$ONLIST" -q --db "$TMP/names.db" fetch "$p"
	expect_rc "name of $p" 0
	l=$(sqlite3 "$TMP/names.db" 'select group_concat(distinct list) from message_lists')
	[ "$l" = mylist ] || bad "fetch $p: list named '$l', expected mylist"
done
# from inside the inbox, too
rm -f "$TMP/names.db"
case $ONLIST in /*) O=$ONLIST ;; *) O=$(pwd)/$ONLIST ;; esac
(cd "$TMP/names/in" && "$O" -q --db "$TMP/names.db" fetch git/12.git) >/dev/null 2>&1 ||
	bad "fetch git/12.git from inside the inbox failed"
l=$(sqlite3 "$TMP/names.db" 'select group_concat(distinct list) from message_lists')
[ "$l" = in ] || bad "fetch git/12.git from inside NAME: list named '$l', expected in"

# ---- a data folder someone else can write in -------------------------------------
# A hook planted in a mirror is not run when fetch updates it (git runs it
# on every ref update otherwise).
run plant "$ONLIST" -q --db "$TMP/plant.db" fetch --pace 0 --data "$TMP/data4" \
	--list plant "$base/slowgit/1/"
expect_rc plant 0
M=$(find "$TMP/data4/mirrors" -type d -name 0.git | head -n 1)
[ -d "$M" ] || fail "plant: no mirror cloned"
printf '#!/bin/sh\ntouch "%s/hooked"\n' "$TMP" >"$M/hooks/reference-transaction"
chmod +x "$M/hooks/reference-transaction"
printf 'From: A <a@example.org>\nSubject: [PATCH] change 4\nMessage-ID: <m4@example.org>\nDate: Mon, 1 Jan 2024 00:00:04 +0000\n\nWhy.\n' >"$W/m"
git -C "$W" commit -qam m4 && git -C "$W" push -q "$E" master &&
	git -C "$E" update-server-info || fail "git push"
run "planted hook" "$ONLIST" -q --db "$TMP/plant.db" fetch --pace 0 --data "$TMP/data4" \
	--list plant "$base/slowgit/1/"
expect_rc "planted hook" 0
[ -e "$TMP/hooked" ] && bad "planted hook: fetch ran the mirror's hook"
m=$(sqlite3 "$TMP/plant.db" 'select count(*) from messages')
[ "$m" = 4 ] || bad "planted hook: $m messages, expected 4 (the update did not happen?)"

# A mirror, or a whole data folder, that another user owns is refused
# (this needs root to give a directory away).
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chown -R nobody "$M"
	run "foreign mirror" "$ONLIST" -q --db "$TMP/plant.db" fetch --pace 0 \
		--data "$TMP/data4" --list plant "$base/slowgit/1/"
	expect_rc "foreign mirror" 1
	grep -q 'belongs to user' "$TMP/err" || bad "foreign mirror: not said why"
	chown -R 0 "$M"
	mkdir "$TMP/data5" && chown nobody "$TMP/data5"
	run "foreign data" "$ONLIST" -q --db "$TMP/plant.db" fetch --pace 0 \
		--data "$TMP/data5" --list plant "$base/slow.mbox"
	expect_rc "foreign data" 1
	grep -q 'belongs to user' "$TMP/err" || bad "foreign data: not said why"
	[ -z "$(ls -A "$TMP/data5")" ] || bad "foreign data: fetch wrote into it"
else
	echo "not root: the ownership checks need chown, left out"
fi

# ---- an https inbox redirected to plain http -------------------------------------
# Every request to the TLS server is redirected to the plain one: neither
# curl (manifest.js.gz) nor git (the epoch) may follow.
if command -v openssl >/dev/null 2>&1 &&
   openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
	-keyout "$TMP/key.pem" -out "$TMP/cert.pem" >/dev/null 2>&1; then
	python3 tests/faultserver.py 0 "$TMP/srv" --timeout 300 \
		--tls "$TMP/cert.pem" "$TMP/key.pem" >"$TMP/tlsport" &
	tls_srv=$!
	for _ in $(seq 1 100); do [ -s "$TMP/tlsport" ] && break; sleep 0.3; done
	tls_port=$(head -n 1 "$TMP/tlsport")
	[ -n "$tls_port" ] || fail "the TLS fault server did not start"
	run downgrade "$ONLIST" -q --db "$TMP/down.db" fetch --pace 0 --insecure \
		--data "$TMP/datad" --list down \
		"https://127.0.0.1:$tls_port/redirect-http/$port/slowgit/1/"
	expect_rc downgrade 1
	n=$(find "$TMP/datad" -type d -name '[0-9]*.git' 2>/dev/null | wc -l)
	[ "$n" = 0 ] || bad "downgrade: $n epochs cloned over plain http"
	m=$(sqlite3 "$TMP/down.db" 'select count(*) from messages')
	[ "$m" = 0 ] || bad "downgrade: $m messages imported over plain http"
	kill "$tls_srv" 2>/dev/null
else
	echo "no openssl: the https downgrade check left out"
fi

# ---- a clone that never ends ---------------------------------------------------
# /slowgit/1/ serves the epoch at 2 KiB/s (above git's own stall limit)
# while $TMP/srv/slow exists; a 400 KB pack would take minutes.  --timeout
# ends the clone and everything it started; so does a SIGTERM to onlist;
# and the next run is not hindered by what the killed clone left.
head -c 400000 /dev/urandom >"$W/big"
git -C "$W" add big && git -C "$W" commit -qm big && git -C "$W" push -q "$E" master &&
	git -C "$E" repack -adq && git -C "$E" update-server-info || fail "git repack"
touch "$TMP/srv/slow"
no_git_left() {	# no_git_left LABEL: no clone of ours still runs
	sleep 1
	if pgrep -f "$TMP/data7" >/dev/null || pgrep -f "$port/slowgit" >/dev/null; then
		bad "$1: git still runs after onlist ended: $(pgrep -af "$TMP/data7|$port/slowgit" | head -n 3)"
		# by process id: only the gits this test's fetch started
		for p in $(pgrep -f "$TMP/data7|$port/slowgit"); do
			kill -KILL "$p" 2>/dev/null
		done
	fi
}
t0=$(date +%s)
run "slow clone" "$ONLIST" -q --db "$TMP/slow.db" fetch --pace 0 --data "$TMP/data7" \
	--timeout 5 --list slow "$base/slowgit/1/"
t1=$(date +%s)
expect_rc "slow clone" 1
grep -q -- '--timeout' "$TMP/err" || bad "slow clone: the error does not say the time ran out"
[ $((t1 - t0)) -lt 30 ] || bad "slow clone: took $((t1 - t0)) s with --timeout 5"
no_git_left "slow clone"

"$ONLIST" -q --db "$TMP/slow.db" fetch --pace 0 --data "$TMP/data7" --timeout 0 \
	--list slow "$base/slowgit/1/" >"$TMP/term.out" 2>&1 &
pid=$!
sleep 3
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc -ne 0 ] || bad "SIGTERM during a clone: onlist exited 0"
no_git_left "SIGTERM during a clone"

rm -f "$TMP/srv/slow"
run "after the kill" "$ONLIST" -q --db "$TMP/slow.db" fetch --pace 0 --data "$TMP/data7" \
	--list slow "$base/slowgit/1/"
expect_rc "after the kill" 0

[ $nfail -eq 0 ] && echo "all epoch and deadline checks passed"
[ $nfail -eq 0 ]
