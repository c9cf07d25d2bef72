#!/bin/sh
# The reading commands read a database they may not write: one in a folder
# the user cannot write (and the file itself read-only), as a shared
# database on a server usually is.  They used to fail with "attempt to write
# a readonly database" (the WAL set-up writes).  A database made by an
# older onlist still needs its upgrade, which needs write access: the
# message says so and what to do.
. tests/lib.sh
need_cmd git
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

# As root a read-only folder is no obstacle: drop the capabilities that make
# it one (setpriv is in util-linux, on every Debian).
asuser=
if [ "$(id -u)" = 0 ]; then
	asuser="setpriv --bounding-set=-dac_override,-dac_read_search,-fowner --inh-caps=-all"
	$asuser true 2>/dev/null || fail "setpriv cannot drop capabilities here"
fi

FX=$TMP/fx
RO=$TMP/ro
mkdir "$RO"
DB=$RO/onlist.db
fixture_db "$FX" "$DB"
sha=$(git -C "$FX/repo" rev-parse v1.1)
# what the same commands say while the database is writable
for c in "report --format json v1.0..v1.1" "stats --format json v1.0..v1.1" \
	 "export commits" "status" "unposted v1.0..v1.1" "lookup $sha"; do
	name=$(echo "$c" | tr ' ./' '___')
	# shellcheck disable=SC2086 # the words are the command line
	"$ONLIST" --db "$DB" $c >"$TMP/want.$name" 2>&1
done
chmod a-w "$DB" "$RO"
for c in "report --format json v1.0..v1.1" "stats --format json v1.0..v1.1" \
	 "export commits" "status" "unposted v1.0..v1.1" "lookup $sha"; do
	name=$(echo "$c" | tr ' ./' '___')
	# shellcheck disable=SC2086
	run "read-only: $c" $asuser "$ONLIST" --db "$DB" $c
	expect_rc "read-only: $c" 0
	! grep -q "readonly" "$TMP/err" || bad "read-only: $c: $(head -n 1 "$TMP/err")"
	cat "$TMP/out" "$TMP/err" >"$TMP/got.$name"
	same_output "read-only: $c" "$TMP/want.$name" "$TMP/got.$name" || bad "read-only: $c: not what it says on a writable database"
done
ls -A "$RO" >"$TMP/left"
[ "$(cat "$TMP/left")" = "$(printf 'onlist.db\nonlist.db-shm\nonlist.db-wal')" ] ||
	[ "$(cat "$TMP/left")" = onlist.db ] || bad "read-only: files appeared in the folder: $(tr '\n' ' ' <"$TMP/left")"

chmod u+w "$DB" "$RO"

# ---- the WAL -----------------------------------------------------------------------
# hold DB open from another process, as a reader would: idle (MODE idle) or
# inside a read transaction (MODE read), until $TMP/holder.pid is killed
hold() {
	rm -f "$TMP/held"
	python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
if sys.argv[2] == "read":
    c.execute("BEGIN")
c.execute("SELECT count(*) FROM messages").fetchone()
open(sys.argv[3], "w").close()
time.sleep(120)
' "$1" "$2" "$TMP/held" &
	echo $! >"$TMP/holder.pid"
	i=0
	while [ ! -e "$TMP/held" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	[ -e "$TMP/held" ] || fail "the reader holding the database did not start"
}
release() { kill "$(cat "$TMP/holder.pid")" 2>/dev/null; wait 2>/dev/null; }
cat >"$TMP/one.mbox" <<'MBOX'
From dev@example.org Mon Jan  1 00:00:00 2024
From: Dev <dev@example.org>
To: list@example.org
Subject: one more
Date: Mon, 1 Jan 2024 00:00:00 +0000
Message-ID: <one-more@example.org>

hello
MBOX
count() { sqlite3 "file:$1?immutable=1" 'SELECT count(*) FROM messages'; }
before=$(count "$DB")

# A write command ends with a checkpoint: with a reader's connection open
# (which keeps SQLite's own checkpoint at close from running) a plain
# copy of the database file still holds the new message.
W=$TMP/w
mkdir "$W"
cp "$DB" "$W/onlist.db"
hold "$W/onlist.db" idle
run "import beside a reader" "$ONLIST" -q --db "$W/onlist.db" import --list extra "$TMP/one.mbox"
expect_rc "import beside a reader" 0
cp "$W/onlist.db" "$TMP/copy.db"
release
[ "$(count "$TMP/copy.db")" = $((before + 1)) ] ||
	bad "checkpoint: a copy of the database file holds $(count "$TMP/copy.db") messages, expected $((before + 1))"

# The read-only fallback (immutable) cannot read a WAL without its -shm:
# when the WAL holds committed writes, the reading commands say that the
# newest writes may be missing.
rm -rf "$W" && mkdir "$W"
cp "$DB" "$W/onlist.db"
hold "$W/onlist.db" read		# the import's rows stay in the WAL
"$ONLIST" -q --db "$W/onlist.db" import --list extra "$TMP/one.mbox" >/dev/null || fail "import"
mkdir "$TMP/ro2"
cp "$W/onlist.db" "$W/onlist.db-wal" "$TMP/ro2/"	# no -shm: a plain copy
release
chmod a-w "$TMP/ro2/onlist.db" "$TMP/ro2/onlist.db-wal" "$TMP/ro2"
run "read-only, WAL without -shm" $asuser "$ONLIST" --db "$TMP/ro2/onlist.db" status
expect_rc "read-only, WAL without -shm" 0
if ! grep -q "^messages: *$((before + 1)) " "$TMP/out"; then
	grep -q "newest writes may be missing" "$TMP/err" ||
		bad "read-only, WAL without -shm: $(grep '^messages' "$TMP/out") and not a word about the WAL"
fi
chmod u+w "$TMP/ro2"
# no committed writes in the WAL: nothing to say
rm -f "$TMP/ro2/onlist.db-wal"
chmod a-w "$TMP/ro2"
run "read-only, no WAL" $asuser "$ONLIST" --db "$TMP/ro2/onlist.db" status
! grep -q "WAL\|-wal" "$TMP/err" || bad "read-only, no WAL: a warning: $(head -n 1 "$TMP/err")"
chmod u+w "$TMP/ro2"

# an older schema: the upgrade is a write, and the message says what to do
sqlite3 "$DB" 'PRAGMA user_version = 4' || fail "sqlite3"
chmod a-w "$DB" "$RO"
run "read-only, old schema" $asuser "$ONLIST" --db "$DB" report --format json v1.0..v1.1
expect_rc "read-only, old schema" 1
grep -q "older onlist" "$TMP/err" || bad "read-only, old schema: the message does not say why: $(head -n 1 "$TMP/err")"
grep -q "write access" "$TMP/err" || bad "read-only, old schema: the message does not say what is needed"
chmod u+w "$DB" "$RO"

[ $nfail -eq 0 ] && echo "all read-only checks passed"
[ $nfail -eq 0 ]
