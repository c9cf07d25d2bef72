#!/bin/sh
# `onlist fetch` against a real public-inbox 1.9 server on 127.0.0.1
# (tests/pi-server.sh): the fixture archive is imported into a v2 inbox (and
# a v1 one), then
#   - the whole inbox over HTTP (git mirrors of its epochs): exactly the
#     messages the inbox holds, by Message-ID;
#   - again: nothing new;
#   - 5 messages delivered with public-inbox-mda, `onlist fetch` with no
#     SOURCE (the remembered one): exactly 5 new;
#   - a window, --since/--until, into a fresh database (public-inbox's
#     d:SINCE..UNTIL search, days inclusive, UTC): exactly the messages
#     whose Date header falls on those days;
#   - the inbox directory read in place into a fresh database, v2 and v1,
#     and the v1 inbox over HTTP: the same messages;
#   - public-inbox-purge (a rewritten history): the next fetches, over HTTP
#     and in place, still work and find nothing new;
#   - bad sources: an inbox the server does not have, and a local directory
#     that is neither a maildir nor an inbox: exit 1 and one line saying so.
# What the inbox holds is read from its git epochs by pi_msgids (git and
# python3), never from onlist or from public-inbox's own database.
. tests/lib.sh
. tests/pi-server.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
"$ONLIST" fetch --help >/dev/null 2>&1 || { echo "FAIL: $ONLIST fetch --help failed"; exit 1; }
pi_need
make_tmp
trap 'pi_stop; rm -rf "$TMP"' EXIT
isolate_git

# field WORD: the number before WORD in the summary line(s), summed
field() {
	sed -n "s/.* \([0-9][0-9]*\) $1[,.]*.*/\1/p; s/^\([0-9][0-9]*\) $1[,.]*.*/\1/p" \
		"$TMP/out" | awk '{ s += $1 } END { print s + 0 }'
}
# db_ids DB: the Message-IDs in the database, without <>, sorted
db_ids() {
	sqlite3 "$1" "select msgid from messages" | sed 's/^<//; s/>$//' | LC_ALL=C sort
}
# same_ids LABEL EXPECTED-FILE DB
same_ids() {
	db_ids "$3" >"$TMP/ids.got"
	cut -d' ' -f1 "$2" | LC_ALL=C sort >"$TMP/ids.want"
	same_output "$1: Message-IDs (< inbox, > database)" "$TMP/ids.want" \
		"$TMP/ids.got" || bad "$1: not the inbox's messages"
}
status_messages() {
	"$ONLIST" --db "$1" status --json 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["messages"])'
}
no_leftovers() {	# no_leftovers LABEL DATADIR: no half clone left behind
	[ -z "$(find "$2" -name '*.tmp' 2>/dev/null)" ] ||
		bad "$1: left $(find "$2" -name '*.tmp' | head -n 1)"
}

FX=$TMP/fx
echo "+ sh fixtures/make-fixtures.sh $FX"
sh fixtures/make-fixtures.sh "$FX" >"$TMP/fixture.log" 2>&1 ||
	{ cat "$TMP/fixture.log"; fail "the fixture could not be built (not onlist's fault)"; }

echo "+ public-inbox: init, import $FX/list.mbox, start the server"
pi_setup "$TMP/pi"
pi_init list 2
pi_import list "$FX/list.mbox"
pi_start
INBOX=$PI_URL/list/
echo "    $INBOX"
pi_msgids list >"$TMP/inbox.ids"
n=$(wc -l <"$TMP/inbox.ids")
[ "$n" -gt 200 ] || fail "the inbox holds only $n messages (not onlist's fault)"
echo "    the inbox holds $n messages"

# ---- the whole inbox over HTTP -----------------------------------------------
mkdir "$TMP/http"
DB=$TMP/http/onlist.db
run fetch-http "$ONLIST" --db "$DB" -q fetch --list list --pace 0 "$INBOX"
expect_rc fetch-http 0
[ "$(field new)" = "$n" ] || bad "fetch-http: '$(field new)' new, expected $n"
[ "$(status_messages "$DB")" = "$n" ] ||
	bad "fetch-http: status says $(status_messages "$DB") messages, expected $n"
same_ids fetch-http "$TMP/inbox.ids" "$DB"
[ -d "$TMP/http/onlist-data" ] || bad "fetch-http: no data directory $TMP/http/onlist-data"
no_leftovers fetch-http "$TMP/http/onlist-data"
# when the archive received each message: its epoch commit's time, as git says
for g in "$PI_DIR"/list/git/*.git; do git --git-dir="$g" log --format=%ct; done |
	sort -u >"$TMP/epoch.times"
sqlite3 "$DB" "SELECT DISTINCT received FROM messages" | sort -u >"$TMP/db.times"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM messages WHERE received_how = 'epoch'")" = "$n" ] ||
	bad "fetch-http: not every message has its epoch commit's time as received"
[ -z "$(comm -13 "$TMP/epoch.times" "$TMP/db.times")" ] ||
	bad "fetch-http: received times that are no epoch commit's: $(comm -13 "$TMP/epoch.times" "$TMP/db.times" | head -3)"

run fetch-again "$ONLIST" --db "$DB" -q fetch --list list --pace 0 "$INBOX"
expect_rc fetch-again 0
[ "$(field new)" = 0 ] || bad "fetch-again: '$(field new)' new, expected 0"
[ "$(field messages)" = 0 ] || bad "fetch-again: '$(field messages)' messages read, expected 0 (nothing new in the epochs)"

run sources "$ONLIST" --db "$DB" sources
expect_rc sources 0
grep -qF "$INBOX" "$TMP/out" || bad "sources: $INBOX not listed"

# ---- 5 new messages, then `onlist fetch` with no SOURCE --------------------
echo "+ public-inbox-mda: 5 new messages"
for i in 1 2 3 4 5; do
	{
		printf 'From: New Poster <new%d@example.org>\n' "$i"
		printf 'To: list@example.org\n'
		printf 'Subject: [PATCH] new file %d\n' "$i"
		printf 'Date: Mon, %d Feb 2020 10:00:00 +0000\n' "$((i + 2))"
		printf 'Message-ID: <t030-new-%d@example.org>\n\n' "$i"
		printf 'Adds new%d.txt.\n\n---\n' "$i"
		printf 'diff --git a/new%d.txt b/new%d.txt\n' "$i" "$i"
		printf 'new file mode 100644\nindex 0000000..%07d\n' "$i"
		printf -- '--- /dev/null\n+++ b/new%d.txt\n@@ -0,0 +1 @@\n+%d\n' "$i" "$i"
	} | pi_deliver list
done
pi_msgids list >"$TMP/inbox5.ids"
n5=$(wc -l <"$TMP/inbox5.ids")
[ "$n5" = $((n + 5)) ] || fail "the inbox holds $n5 messages after 5 more, expected $((n + 5)) (not onlist's fault)"

run fetch-remembered "$ONLIST" --db "$DB" -q fetch --pace 0
expect_rc fetch-remembered 0
[ "$(field new)" = 5 ] || bad "fetch-remembered: '$(field new)' new, expected 5"
[ "$(field 'with patch')" = 5 ] ||
	bad "fetch-remembered: '$(field 'with patch')' with patch, expected 5"
same_ids fetch-remembered "$TMP/inbox5.ids" "$DB"
no_leftovers fetch-remembered "$TMP/http/onlist-data"

# ---- a window ----------------------------------------------------------------
since=2020-01-05 until=2020-01-10
awk -v a="$(echo "$since" | tr -d -)" -v b="$(echo "$until" | tr -d -)" \
	'$2 >= a && $2 <= b' "$TMP/inbox5.ids" >"$TMP/window.ids"
nw=$(wc -l <"$TMP/window.ids")
[ "$nw" -gt 10 ] && [ "$nw" -lt "$n5" ] ||
	fail "the window holds $nw of $n5 messages: pick another (not onlist's fault)"
# the test's own reading of d: against the server's: they must agree before
# onlist's answer means anything
python3 - "$INBOX" "$since" "$until" "$TMP/window.ids" <<'EOF' ||
import gzip, re, sys, urllib.parse, urllib.request
inbox, since, until, want = sys.argv[1:]
q = "d:%s..%s" % (since.replace("-", ""), until.replace("-", ""))
req = urllib.request.Request(inbox + "?" + urllib.parse.urlencode({"q": q, "x": "m"}),
                             data=b"", method="POST")
body = gzip.decompress(urllib.request.urlopen(req, timeout=30).read())
got = set(m.decode() for m in re.findall(rb"(?im)^message-id:\s*<([^>]+)>", body))
want = set(l.split()[0] for l in open(want))
if got != want:
    print("server's %s: %d messages, the test expects %d; only server: %s; only test: %s"
          % (q, len(got), len(want), sorted(got - want)[:3], sorted(want - got)[:3]))
    sys.exit(1)
EOF
	fail "the test's window and public-inbox's d: disagree (not onlist's fault)"
mkdir "$TMP/window"
WDB=$TMP/window/onlist.db
run fetch-window "$ONLIST" --db "$WDB" -q fetch --list list --pace 0 \
	--since "$since" --until "$until" "$INBOX"
expect_rc fetch-window 0
[ "$(field new)" = "$nw" ] || bad "fetch-window: '$(field new)' new, expected $nw"
same_ids fetch-window "$TMP/window.ids" "$WDB"

# ---- in place: the inbox directories -------------------------------------------
mkdir "$TMP/local"
LDB=$TMP/local/onlist.db
run fetch-local-v2 "$ONLIST" --db "$LDB" -q fetch --list list "$PI_DIR/list"
expect_rc fetch-local-v2 0
[ "$(field new)" = "$n5" ] || bad "fetch-local-v2: '$(field new)' new, expected $n5"
same_ids fetch-local-v2 "$TMP/inbox5.ids" "$LDB"
db_ids "$DB" >"$TMP/ids.http"
db_ids "$LDB" >"$TMP/ids.local"
same_output "fetch-local-v2: in place vs over HTTP (< HTTP, > local)" \
	"$TMP/ids.http" "$TMP/ids.local" || bad "fetch-local-v2: differs from HTTP"
run fetch-local-again "$ONLIST" --db "$LDB" -q fetch --list list "$PI_DIR/list"
expect_rc fetch-local-again 0
[ "$(field new)" = 0 ] || bad "fetch-local-again: '$(field new)' new, expected 0"

echo "+ public-inbox: a v1 inbox of the same archive"
pi_init old 1
pi_import old "$FX/list.mbox"
pi_stop
pi_start	# the server reads its configuration when it starts
pi_msgids old >"$TMP/v1.ids"
mkdir "$TMP/v1local" "$TMP/v1http"
run fetch-local-v1 "$ONLIST" --db "$TMP/v1local/onlist.db" -q fetch --list old "$PI_DIR/old"
expect_rc fetch-local-v1 0
same_ids fetch-local-v1 "$TMP/v1.ids" "$TMP/v1local/onlist.db"
run fetch-http-v1 "$ONLIST" --db "$TMP/v1http/onlist.db" -q fetch --list old --pace 0 "$PI_URL/old/"
expect_rc fetch-http-v1 0
same_ids fetch-http-v1 "$TMP/v1.ids" "$TMP/v1http/onlist.db"

# ---- a purge rewrites the history ------------------------------------------------
# public-inbox-purge rewrites an epoch from the purged message on and prunes
# the old commits from the inbox: the commit a database last saw is gone from
# the inbox directory (still in a mirror, unreachable).  Both must go on.
echo "+ public-inbox-purge: one message of the middle of the archive"
git -C "$PI_DIR/list/git/0.git" show "master~100:m" | pi_purge
run fetch-after-purge-http "$ONLIST" --db "$DB" -q fetch --pace 0
expect_rc fetch-after-purge-http 0
[ "$(field new)" = 0 ] || bad "fetch-after-purge-http: '$(field new)' new, expected 0"
run fetch-after-purge-local "$ONLIST" --db "$LDB" -q fetch --list list "$PI_DIR/list"
expect_rc fetch-after-purge-local 0
[ "$(field new)" = 0 ] || bad "fetch-after-purge-local: '$(field new)' new, expected 0"

# ---- bad sources ---------------------------------------------------------------
one_line_error() {	# one_line_error LABEL WORD: exit 1, one line naming WORD
	expect_rc "$1" 1
	[ "$(grep -c . "$TMP/err")" = 1 ] ||
		bad "$1: $(grep -c . "$TMP/err") lines on stderr, expected one"
	grep -qF "$2" "$TMP/err" || bad "$1: the error does not name $2"
}
# ---- one message and its thread, as lookup --online will use them ------------
mid=$(sed -n 's/^[Mm]essage-[Ii][Dd]: *<\(.*\)>.*/\1/p' "$FX/list.mbox" | head -n 1)
RDB=$TMP/raw/onlist.db
mkdir -p "$TMP/raw"
run fetch-raw "$ONLIST" --db "$RDB" -q fetch --list list --pace 0 "$INBOX$mid/raw"
expect_rc fetch-raw 0
[ "$(sqlite3 "$RDB" 'SELECT msgid FROM messages')" = "$mid" ] ||
	bad "fetch-raw: expected exactly <$mid>, got: $(sqlite3 "$RDB" 'SELECT msgid FROM messages')"
run fetch-thread "$ONLIST" --db "$RDB" -q fetch --list list --pace 0 "$INBOX$mid/t.mbox.gz"
expect_rc fetch-thread 0
sqlite3 "$RDB" "SELECT count(*) FROM messages WHERE msgid = '$mid'" | grep -qx 1 ||
	bad "fetch-thread: the thread's root is missing or doubled"
run raw-sources "$ONLIST" --db "$RDB" sources
grep -q "/raw\|t.mbox.gz" "$TMP/out" && bad "sources: a one-off message or thread was remembered"

mkdir "$TMP/bad"
run bad-inbox "$ONLIST" --db "$TMP/bad/onlist.db" -q fetch --pace 0 --retries 0 \
	"$PI_URL/nosuchinbox/"
one_line_error bad-inbox nosuchinbox
no_leftovers bad-inbox "$TMP/bad/onlist-data"
mkdir -p "$TMP/nothing/sub"
echo "not mail" >"$TMP/nothing/README"
run bad-dir "$ONLIST" --db "$TMP/bad/onlist.db" -q fetch "$TMP/nothing"
one_line_error bad-dir "$TMP/nothing"
run bad-sources "$ONLIST" --db "$TMP/bad/onlist.db" sources
grep -q nosuchinbox "$TMP/out" && bad "sources: a source that failed was remembered"

[ $nfail -eq 0 ] || fail "$nfail check(s) failed"
echo "ok"
