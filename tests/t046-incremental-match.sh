#!/bin/sh
# An archive imported in parts, with `match` after each part, leaves the
# same derived tables as the whole archive imported at once and matched
# once: the thread, series and reply rows written after new mail are only
# those that changed (store_thread.c), only new mail is classified echo or
# bot (store_match.c), and nothing else may differ.
# The archive is t044's (review cases: covers, versions, a v2 sent as a
# reply to v1, a renamed cover letter, unthreaded series, lost References),
# shuffled (mail reaches an archive out of order), then cut in halves, and
# in slices of 7 messages (so that a cover letter, its patches and the
# replies to it arrive in different imports, in any order).
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

W=$TMP/w
python3 tests/t044-review.py "$W" || fail "the test mails could not be built"
"$ONLIST" -q --db "$TMP/seed.db" scan --repo "$W/repo" base..main >/dev/null || fail "scan"

# split MBOX N OUTPREFIX: OUTPREFIX.1, .2, ... of N messages each (the
# last one less); prints how many parts
split_mbox() {
	python3 - "$@" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
msgs = [m for m in re.split(rb"(?m)^(?=From mboxrd@z )", data) if m]
n = int(sys.argv[2])
if n == 0:	# the whole archive in an order of its own
    import random
    random.Random(12).shuffle(msgs)
    open(sys.argv[3], "wb").write(b"".join(msgs))
    sys.exit(0)
parts = [msgs[i:i + n] for i in range(0, len(msgs), n)]
for k, p in enumerate(parts, 1):
    open("%s.%d" % (sys.argv[3], k), "wb").write(b"".join(p))
print(len(parts))
PY
}

# dump DB: the derived tables, each row once, in a fixed order
dump() {
	for t in thread series replies review_tags commit_review matches echoes; do
		echo "== $t"
		sqlite3 "$1" "SELECT * FROM $t" | LC_ALL=C sort
	done
}

RULES=$W/rules
match() {	# match DB LABEL
	"$ONLIST" --db "$1" match --rules "$RULES" >"$TMP/match.out" 2>"$TMP/match.err" ||
		{ cat "$TMP/match.err"; bad "match $2 failed"; }
}

# Mail reaches a list archive out of order too (a reply before the patch
# it answers, a late patch of a series): the archive is shuffled, the same
# way for the whole import as for the parts.
split_mbox "$W/alpha.mbox" 0 "$TMP/alpha.mbox"

# ---- all at once ------------------------------------------------------------
full() {
cp "$TMP/seed.db" "$TMP/full.db"
"$ONLIST" -q --db "$TMP/full.db" import --list alpha "$TMP/alpha.mbox" >/dev/null || fail "import alpha"
"$ONLIST" -q --db "$TMP/full.db" import --list beta "$W/beta.mbox" >/dev/null || fail "import beta"
match "$TMP/full.db" full
cp "$TMP/match.out" "$TMP/full.out"
dump "$TMP/full.db" >"$TMP/full.dump"
}
full
[ "$(sqlite3 "$TMP/full.db" "SELECT count(*) FROM commit_review")" -gt 20 ] ||
	fail "the whole import has no review states (test bug)"

# in_parts SIZE: alpha in parts of SIZE messages, then beta, match after each
in_parts() {
	db=$TMP/parts$1.db
	cp "$TMP/seed.db" "$db"
	np=$(split_mbox "$TMP/alpha.mbox" "$1" "$TMP/alpha$1")
	k=1
	while [ "$k" -le "$np" ]; do
		"$ONLIST" -q --db "$db" import --list alpha "$TMP/alpha$1.$k" >/dev/null ||
			fail "import alpha part $k"
		match "$db" "after part $k of $np"
		k=$((k + 1))
	done
	"$ONLIST" -q --db "$db" import --list beta "$W/beta.mbox" >/dev/null || fail "import beta"
	match "$db" "after beta"
	dump "$db" >"$TMP/parts$1.dump"
	same_output "tables after import in parts of $1" "$TMP/full.dump" "$TMP/parts$1.dump" ||
		{ diff "$TMP/full.dump" "$TMP/parts$1.dump" | head -20; bad "parts of $1 differ from one import"; }
	same_output "counts after import in parts of $1" "$TMP/full.out" "$TMP/match.out" ||
		bad "match counts after parts of $1 differ"
}

half=$(( ($(grep -c '^From mboxrd@z ' "$TMP/alpha.mbox") + 1) / 2 ))
in_parts "$half"
[ "$np" = 2 ] || bad "the archive was not cut in two (test bug)"
in_parts 7
[ "$np" -gt 5 ] || bad "the archive was not cut in slices (test bug)"

# a second match with nothing new writes no thread row
ONLIST_TIMING=1 "$ONLIST" -q --db "$TMP/parts7.db" match --rules "$W/rules" >/dev/null 2>"$TMP/err"
grep -q '^timing: 0 thread rows written$' "$TMP/err" || bad "a match with nothing new wrote thread rows: $(grep rows "$TMP/err")"

# other rules: every message is classified again (the CI bot is no bot
# without the rules file), and with the rules back the tables are the same
"$ONLIST" -q --db "$TMP/parts7.db" match >/dev/null || bad "match without rules"
[ "$(sqlite3 "$TMP/parts7.db" "SELECT count(*) FROM echoes")" = 0 ] ||
	bad "without the rules file the bot's reply is still classified"
match "$TMP/parts7.db" "with the rules again"
dump "$TMP/parts7.db" >"$TMP/again.dump"
same_output "tables after the rules changed and back" "$TMP/full.dump" "$TMP/again.dump" ||
	bad "rules changed and back: tables differ"

# the classes emptied behind its back (an older onlist's match): all again
sqlite3 "$TMP/parts7.db" "DELETE FROM echoes"
match "$TMP/parts7.db" "after the echoes were emptied"
dump "$TMP/parts7.db" >"$TMP/again.dump"
same_output "tables after the echoes were emptied" "$TMP/full.dump" "$TMP/again.dump" ||
	bad "echoes emptied: tables differ"

[ "$(sqlite3 "$TMP/parts7.db" 'pragma integrity_check')" = ok ] || bad "integrity_check"

# A message removed from the database by hand (onlist never does): its
# thread, series and reply rows go, as if it had never been imported.
python3 - "$TMP/alpha.mbox" "$TMP/alpha-less.mbox" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
msgs = [m for m in re.split(rb"(?m)^(?=From mboxrd@z )", data) if m]
open(sys.argv[2], "wb").write(b"".join(
    m for m in msgs if b"\nMessage-ID: <cover-1@example.org>\n" not in m.split(b"\n\n")[0]))
PY
cp "$TMP/seed.db" "$TMP/less.db"
"$ONLIST" -q --db "$TMP/less.db" import --list alpha "$TMP/alpha-less.mbox" >/dev/null || fail "import alpha less"
"$ONLIST" -q --db "$TMP/less.db" import --list beta "$W/beta.mbox" >/dev/null || fail "import beta"
match "$TMP/less.db" "without cover-1"
for t in message_info message_lists message_trailers message_patch messages; do
	sqlite3 "$TMP/parts7.db" "DELETE FROM $t WHERE msgid = 'cover-1@example.org'" || bad "delete from $t"
done
match "$TMP/parts7.db" "after cover-1 was removed"
for t in thread series replies; do
	sqlite3 "$TMP/less.db" "SELECT * FROM $t" | LC_ALL=C sort >"$TMP/less.$t"
	sqlite3 "$TMP/parts7.db" "SELECT * FROM $t" | LC_ALL=C sort >"$TMP/removed.$t"
	same_output "$t after a message was removed" "$TMP/less.$t" "$TMP/removed.$t" ||
		bad "$t: a removed message left rows"
done
grep -q 'cover-1@example.org' "$TMP/less.thread" && bad "the message was not left out (test bug)"

# A message cross-posted to alpha and beta is an echo while only alpha's
# copy is in, and no more once beta's is: classes of old mail change too.
RULES=$TMP/alpha-rules
echo "echo list alpha" >"$RULES"
full
in_parts "$half"
[ "$(sqlite3 "$TMP/full.db" "SELECT count(*) FROM echoes WHERE msgid = 'cross@example.org'")" = 0 ] ||
	bad "the cross-posted patch is an echo (test bug)"
[ $nfail -eq 0 ] && echo "all checks passed"
