#!/bin/sh
# --db names a file, whatever it looks like to SQLite: "file:x?mode=memory"
# is not a URI (Debian builds SQLite to read URIs even when onlist does not
# ask it to) and ":memory:" is not an in-memory database.  A message
# imported through each name must be in a file of exactly that name, and
# a second onlist opening the name must see it.
#
# A command that only reads never creates a database: on a missing file
# (a mistyped --db, an empty folder) it says there is none and what to
# run, exit 1, and leaves no file behind; it used to make an empty one and
# answer "0 messages" or print nothing, exit 0.
. tests/lib.sh
need_cmd sqlite3
need_onlist
make_tmp
case $ONLIST in /*) ;; *) ONLIST=$PWD/$ONLIST ;; esac

cat >"$TMP/one.mbox" <<'MBOX'
From dev@example.org Mon Jan  1 00:00:00 2024
From: Dev <dev@example.org>
To: list@example.org
Subject: hello
Date: Mon, 1 Jan 2024 00:00:00 +0000
Message-ID: <hello@example.org>

hello
MBOX

cd "$TMP" || exit 1
for name in 'file:x?mode=memory' ':memory:' 'file:y.db'; do
	run "import $name" "$ONLIST" --db "$name" import --list l one.mbox
	expect_rc "import $name" 0
	[ -f "$name" ] || bad "--db '$name': no file of that name (ls: $(ls | tr '\n' ' '))"
	n=$(sqlite3 "./$name" 'SELECT count(*) FROM messages' 2>&1)
	[ "$n" = 1 ] || bad "--db '$name': the file holds '$n' messages, expected 1"
	run "status $name" "$ONLIST" --db "$name" status
	expect_rc "status $name" 0
	grep -q '^messages: *1 ' "$TMP/out" || bad "--db '$name': a second onlist does not see the message"
done
[ ! -e x ] && [ ! -e y.db ] || bad "a URI's path was opened instead of the name given"

mkdir "$TMP/empty"
cd "$TMP/empty" || exit 1
for c in status unposted "lookup 0123456789abcdef" report stats "export commits" \
	 "thread x@y" skipped sources; do
	for db in "" "--db typo.db"; do
		# shellcheck disable=SC2086 # the words are the command line
		run "no database: $c $db" "$ONLIST" $db $c
		expect_rc "no database: $c $db" 1
		want="onlist: no database at ${db#--db }"
		[ -n "$db" ] || want="onlist: no database at onlist.db"
		grep -qF "$want: run \`onlist import\` or \`onlist fetch\` first, or give --db" \
			"$TMP/err" || bad "no database: $c $db: not said: $(head -n 1 "$TMP/err")"
		[ -z "$(ls -A)" ] || bad "no database: $c $db: made $(ls -A | tr '\n' ' ')"
		rm -f ./* 2>/dev/null
	done
done
[ $nfail -eq 0 ]
