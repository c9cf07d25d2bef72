#!/bin/sh
# The tiers of `onlist match` keep the last run's matches when nothing
# they read changed but new messages (store_match.c, the tier stamps).
# What they read is not counted at each run: a row rewritten or deleted
# (by onlist or by hand) is counted in meta edits by triggers (schema step
# 20), so that an edit which leaves every count as it was still makes the
# tiers run whole, and the matches stay those of a match from scratch.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

eval_set 5086
db=$TMP/t.db
"$ONLIST" -q --db "$db" scan --repo "$W/repo" v1.0..v1.1 >/dev/null || fail "scan"
"$ONLIST" -q --db "$db" import --list eval "$W/eval.mbox" >/dev/null || fail "import"

match() {	# match DB LABEL
	ONLIST_TIMING=1 "$ONLIST" --db "$1" match --rules "$TMP/rules" >/dev/null 2>"$TMP/match.err" ||
		{ cat "$TMP/match.err"; bad "match $2 failed"; }
}
kept() {	# kept LABEL: the tiers kept the last run's matches
	grep -q '^timing: patch-id since [0-9]*, fuzzy since [0-9]' "$TMP/match.err" ||
		bad "$1: the tiers ran whole"
}
whole() {	# whole LABEL: the tiers ran whole, as a match from scratch
	grep -q '^timing: patch-id since -1, fuzzy since -1$' "$TMP/match.err" ||
		bad "$1: the tiers kept matches"
	cp "$db" "$TMP/scratch.db"
	sqlite3 "$TMP/scratch.db" "DELETE FROM meta WHERE key IN ('fuzzy_stamp', 'exact_stamp')"
	match "$TMP/scratch.db" "from scratch ($1)"
	dump_matches "$db" >"$TMP/got.dump"
	dump_matches "$TMP/scratch.db" >"$TMP/want.dump"
	same_output "matches ($1)" "$TMP/want.dump" "$TMP/got.dump" ||
		bad "$1: matches differ from a match from scratch"
}

match "$db" "first"
match "$db" "again"
kept "nothing new"
[ "$(sqlite3 "$db" "SELECT count(*) FROM echoes")" -gt 1 ] ||
	fail "fewer than two echoes in the set (test bug)"

# a patch mail's subject rewritten: every count as it was
msg=$(sqlite3 "$db" "SELECT msgid FROM messages WHERE has_patch ORDER BY id LIMIT 1")
sqlite3 "$db" "UPDATE messages SET subject = subject || ' (v2)' WHERE msgid = '$msg'"
match "$db" "a subject rewritten"
whole "a subject rewritten"
match "$db" "after the subject"
kept "after the subject"

# an echo row rewritten: the count of echoes as it was
sqlite3 "$db" "UPDATE echoes SET rule = rule || ' '
	WHERE msgid = (SELECT min(msgid) FROM echoes)"
match "$db" "an echo rewritten"
whole "an echo rewritten"

# a patch mail's fingerprint deleted
a=$(sqlite3 "$db" "SELECT msgid FROM message_patch ORDER BY msgid LIMIT 1")
sqlite3 "$db" "DELETE FROM message_patch WHERE msgid = '$a'"
match "$db" "a fingerprint deleted"
whole "a fingerprint deleted"

# a message deleted by hand (onlist never does), and a new one imported:
# as many messages as before
victim=$(sqlite3 "$db" "SELECT msgid FROM messages WHERE has_patch ORDER BY id DESC LIMIT 1")
for t in message_info message_lists message_trailers message_patch messages; do
	sqlite3 "$db" "DELETE FROM $t WHERE msgid = '$victim'" || bad "delete from $t"
done
cat >"$TMP/new.mbox" <<'MB'
From mboxrd@z Thu Jan  1 00:00:00 1970
From: New Person <new@example.org>
Subject: [PATCH] something new
Date: Mon, 1 Mar 2021 10:00:00 +0000
Message-ID: <new-t086@example.org>

no diff here
MB
"$ONLIST" -q --db "$db" import --list eval "$TMP/new.mbox" >/dev/null || fail "import new"
match "$db" "a message deleted, another imported"
whole "a message deleted, another imported"

# a commit's diff dropped and computed again
sqlite3 "$db" "DELETE FROM commit_patch WHERE sha = (SELECT min(sha) FROM commit_patch)"
match "$db" "a commit diff deleted"
whole "a commit diff deleted"
match "$db" "after everything"
kept "after everything"
[ $nfail -eq 0 ] && echo "all checks passed"
