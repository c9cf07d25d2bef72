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
	for t in thread series replies review_tags commit_review review_links \
		posting_replies series_replies commit_notice matches echoes; do
		echo "== $t"
		sqlite3 "$1" "SELECT * FROM $t" | LC_ALL=C sort
	done
}

RULES=$W/rules
match() {	# match DB LABEL
	ONLIST_TIMING=1 "$ONLIST" --db "$1" match --rules "$RULES" >"$TMP/match.out" 2>"$TMP/match.err" ||
		{ cat "$TMP/match.err"; bad "match $2 failed"; }
}
# how many messages the last match computed threads of, and of how many
computed() {
	sed -n 's/^timing: threads of \([0-9]*\) of \([0-9]*\) messages computed$/\1 \2/p' "$TMP/match.err"
}

# Mail reaches a list archive out of order too (a reply before the patch
# it answers, a late patch of a series): the archive is shuffled, the same
# way for the whole import as for the parts.
split_mbox "$W/alpha.mbox" 0 "$TMP/alpha.mbox"

# ---- all at once ------------------------------------------------------------
full() {
# alpha alone, for the parts before beta comes in
cp "$TMP/seed.db" "$TMP/full-alpha.db"
"$ONLIST" -q --db "$TMP/full-alpha.db" import --list alpha "$TMP/alpha.mbox" >/dev/null || fail "import alpha"
match "$TMP/full-alpha.db" "alpha at once"
dump "$TMP/full-alpha.db" >"$TMP/full-alpha.dump"
cp "$TMP/seed.db" "$TMP/full.db"
"$ONLIST" -q --db "$TMP/full.db" import --list alpha "$TMP/alpha.mbox" >/dev/null || fail "import alpha"
"$ONLIST" -q --db "$TMP/full.db" import --list beta "$W/beta.mbox" >/dev/null || fail "import beta"
match "$TMP/full.db" full
cp "$TMP/match.out" "$TMP/full.out"
cp "$TMP/match.err" "$TMP/full.err"
dump "$TMP/full.db" >"$TMP/full.dump"
}
full
[ "$(sqlite3 "$TMP/full.db" "SELECT count(*) FROM commit_review")" -gt 20 ] ||
	fail "the whole import has no review states (test bug)"
# (the review's links to earlier versions under another subject are
# compared too: t044 has some)
[ "$(sqlite3 "$TMP/full.db" "SELECT count(*) FROM review_links WHERE NOT posted")" -gt 1 ] ||
	fail "the whole import has no version links (test bug)"

# in_parts SIZE: alpha in parts of SIZE messages, then beta, match after each
in_parts() {
	db=$TMP/parts$1.db
	cp "$TMP/seed.db" "$db"
	np=$(split_mbox "$TMP/alpha.mbox" "$1" "$TMP/alpha$1")
	k=1
	nfew=0	# matches that computed threads of only some messages
	rfew=0	# and reviews of only some commits
	while [ "$k" -le "$np" ]; do
		"$ONLIST" -q --db "$db" import --list alpha "$TMP/alpha$1.$k" >/dev/null ||
			fail "import alpha part $k"
		match "$db" "after part $k of $np"
		# after the first part, threads are built again only around
		# the new mail (store_thread.c), not from every message
		set -- "$1" $(computed)
		[ "$k" = 1 ] || [ "$2" -ge "$3" ] || nfew=$((nfew + 1))
		# and reviews only of the commits it can change
		set -- "$1" $(sed -n 's/^timing: reviews of \([0-9]*\) of \([0-9]*\) commits computed$/\1 \2/p' "$TMP/match.err")
		[ "$2" -ge "$3" ] || rfew=$((rfew + 1))
		k=$((k + 1))
	done
	# (beta's copy of the cross-posted patch reclassifies every message,
	# and so every review: compare before that too)
	dump "$db" >"$TMP/parts$1-alpha.dump"
	same_output "tables after alpha in parts of $1" "$TMP/full-alpha.dump" "$TMP/parts$1-alpha.dump" ||
		{ diff "$TMP/full-alpha.dump" "$TMP/parts$1-alpha.dump" | head -20; bad "alpha in parts of $1 differs from alpha at once"; }
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
# (the fixture is small and its mail closely linked: a slice often
# touches every thread, but not each one)
[ "$nfew" -ge 2 ] || bad "threads were computed from every message after each slice ($nfew)"
[ "$rfew" -ge 2 ] || bad "every review was computed after each slice ($rfew)"

# a second match with nothing new writes no thread row
ONLIST_TIMING=1 "$ONLIST" -q --db "$TMP/parts7.db" match --rules "$W/rules" >/dev/null 2>"$TMP/err"
grep -q '^timing: 0 thread rows written$' "$TMP/err" || bad "a match with nothing new wrote thread rows: $(grep rows "$TMP/err")"
# and its pages (SQLite's own counts, which the benchmarks compare): the
# threads phase writes none, and the whole run reads fewer than a match
# of everything; a count SQLite could not give is -1
pages() {	# pages FILE PHASE: "READ WRITTEN" at the end of PHASE
	sed -n "s/^timing: $2 done at [0-9.]* s CPU, \([0-9-]*\) pages read, \([0-9-]*\) written$/\1 \2/p" "$1"
}
set -- $(pages "$TMP/err" threads) $(pages "$TMP/err" match) $(pages "$TMP/full.err" match)
[ $# = 6 ] || bad "ONLIST_TIMING gave no page counts: $(grep 'done at' "$TMP/err" | head -3)"
[ "$2" = 0 ] || bad "a match with nothing new wrote $2 pages in its threads phase"
[ "$3" -ge 0 ] && [ "$5" -gt 0 ] && [ "$6" -gt 0 ] || bad "page counts: $*"
[ "$3" -lt "$5" ] || bad "a match with nothing new read $3 pages, a match of everything $5"

# other rules: every message is classified again (the CI bot is no bot
# without the rules file), and with the rules back the tables are the same
"$ONLIST" -q --db "$TMP/parts7.db" match >/dev/null || bad "match without rules"
[ "$(sqlite3 "$TMP/parts7.db" "SELECT count(*) FROM echoes WHERE msgid = 'bot-r@example.org'")" = 0 ] ||
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

# A reply without a tag, coming in after everything else: the commit
# goes from no_reply to discussed (nothing but the thread tells).
python3 - "$TMP/alpha.mbox" "$TMP/alpha-nodisc.mbox" "$TMP/disc.mbox" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
msgs = [m for m in re.split(rb"(?m)^(?=From mboxrd@z )", data) if m]
late = lambda m: b"\nMessage-ID: <disc-r@example.org>\n" in m.split(b"\n\n")[0]
open(sys.argv[2], "wb").write(b"".join(m for m in msgs if not late(m)))
open(sys.argv[3], "wb").write(b"".join(m for m in msgs if late(m)))
PY
cp "$TMP/seed.db" "$TMP/disc.db"
"$ONLIST" -q --db "$TMP/disc.db" import --list alpha "$TMP/alpha-nodisc.mbox" >/dev/null || fail "import alpha"
match "$TMP/disc.db" "without Ivan's question"
[ "$(sqlite3 "$TMP/disc.db" "SELECT state FROM commit_review r JOIN matches x ON x.commit_sha = r.sha WHERE x.message_id = 'disc@example.org'")" = no_reply ] ||
	bad "disc is not no_reply before Ivan's question (test bug)"
"$ONLIST" -q --db "$TMP/disc.db" import --list alpha "$TMP/disc.mbox" >/dev/null || fail "import the question"
match "$TMP/disc.db" "with Ivan's question"
sqlite3 "$TMP/full-alpha.db" "SELECT * FROM commit_review" | LC_ALL=C sort >"$TMP/want.review"
sqlite3 "$TMP/disc.db" "SELECT * FROM commit_review" | LC_ALL=C sort >"$TMP/got.review"
same_output "review after a late reply" "$TMP/want.review" "$TMP/got.review" ||
	bad "a late reply without a tag did not change the review"

# Commits scanned after their mail: the review of a commit whose posting
# was there all along is computed when the commit comes in.
rm -f "$TMP/scan.db"
"$ONLIST" -q --db "$TMP/scan.db" import --list alpha "$TMP/alpha.mbox" >/dev/null || fail "import alpha"
"$ONLIST" -q --db "$TMP/scan.db" scan --repo "$W/repo" base..main~5 >/dev/null || fail "scan part"
match "$TMP/scan.db" "before the last commits"
"$ONLIST" -q --db "$TMP/scan.db" scan --repo "$W/repo" base..main >/dev/null || fail "scan all"
match "$TMP/scan.db" "after the last commits"
for t in commit_review matches; do
	sqlite3 "$TMP/full-alpha.db" "SELECT * FROM $t" | LC_ALL=C sort >"$TMP/want.$t"
	sqlite3 "$TMP/scan.db" "SELECT * FROM $t" | LC_ALL=C sort >"$TMP/got.$t"
	same_output "$t after a later scan" "$TMP/want.$t" "$TMP/got.$t" ||
		bad "$t: commits scanned after their mail differ"
done

# The review table emptied behind onlist's back (a hand edit, an upgrade
# that forgot meta review_rows): the next match, after new mail, computes
# every review again, not only those the new mail reaches
# (review_update.c, only_some(): the table's rows are not counted, but
# one without any when the last review wrote some is seen).
cp "$TMP/full-alpha.db" "$TMP/emptied.db"
sqlite3 "$TMP/emptied.db" "DELETE FROM commit_review" || fail "empty commit_review"
cat >"$TMP/aside.mbox" <<'EOF'
From mboxrd@z Thu Jan  1 00:00:00 1970
From: Someone Else <else@example.org>
Subject: a question on nothing posted
Message-ID: <aside@example.org>
Date: Mon, 1 Mar 2021 11:00:00 +0000

Nothing to do with any patch.
EOF
"$ONLIST" -q --db "$TMP/emptied.db" import --list alpha "$TMP/aside.mbox" >/dev/null ||
	fail "import the aside"
cp "$TMP/emptied.db" "$TMP/emptied-scratch.db"
match "$TMP/emptied.db" "after the review table was emptied"
grep -q '^timing: patch-id since [0-9]' "$TMP/match.err" ||
	bad "the match after the aside was not incremental (test bug)"
sqlite3 "$TMP/emptied-scratch.db" "DELETE FROM meta WHERE key IN ('exact_stamp',
	'fuzzy_stamp', 'review_rows')"
match "$TMP/emptied-scratch.db" "from scratch after the aside"
[ "$(sqlite3 "$TMP/emptied-scratch.db" "SELECT count(*) FROM commit_review")" -gt 0 ] ||
	bad "no review from scratch (test bug)"
dump "$TMP/emptied.db" >"$TMP/emptied.dump"
dump "$TMP/emptied-scratch.db" >"$TMP/emptied-scratch.dump"
same_output "tables after the review table was emptied" "$TMP/emptied-scratch.dump" \
	"$TMP/emptied.dump" || bad "an emptied review table was not computed whole"

# Earlier versions that were commits after all (branch old, scanned
# later, no new mail): the patches the review linked as earlier versions
# of other commits (rnv-v1, fvn-v1) are postings of their own commits now,
# so those links go, as in a review from scratch.
cp "$TMP/full-alpha.db" "$TMP/old.db"
was=$(sqlite3 "$TMP/old.db" "SELECT msgid FROM review_links WHERE NOT posted
	AND msgid IN ('rnv-v1@example.org', 'fvn-v1@example.org') ORDER BY 1")
[ "$(echo $was)" = "fvn-v1@example.org rnv-v1@example.org" ] ||
	fail "rnv-v1 and fvn-v1 are not linked versions (test bug): $was"
"$ONLIST" -q --db "$TMP/old.db" scan --repo "$W/repo" base..old >/dev/null || fail "scan old"
match "$TMP/old.db" "after the old commits"
cp "$TMP/old.db" "$TMP/old-scratch.db"
sqlite3 "$TMP/old-scratch.db" "DELETE FROM meta WHERE key IN ('exact_stamp', 'fuzzy_stamp', 'review_rows')"
match "$TMP/old-scratch.db" "from scratch after the old commits"
[ -z "$(sqlite3 "$TMP/old-scratch.db" "SELECT msgid FROM review_links WHERE NOT posted
	AND msgid IN ('rnv-v1@example.org', 'fvn-v1@example.org')")" ] ||
	bad "a patch posted as its own commit is still linked as an earlier version (test bug)"
dump "$TMP/old.db" >"$TMP/old.dump"
dump "$TMP/old-scratch.db" >"$TMP/old-scratch.dump"
same_output "tables after the old commits" "$TMP/old-scratch.dump" "$TMP/old.dump" ||
	bad "old commits scanned later: the review differs from one from scratch"

# The mail the archive lost arrives after all, without its diff (a copy
# whose patch did not survive): the reply that quoted it answers a mail
# the database has, so the quoted match is no more, though no other tier
# takes the commit, and a match after the new mail alone (keeping the
# other commits' matches) equals a match from scratch.
lost=$(git -C "$W/repo" log --format=%H --grep='^lost: add the helper$' main)
[ -n "$lost" ] || fail "no lost commit (test bug)"
cat >"$TMP/lost.mbox" <<'EOF'
From mboxrd@z Thu Jan  1 00:00:00 1970
From: Ann Author <ann@example.org>
Subject: [PATCH] lost: add the helper
Message-ID: <lost@example.org>
Date: Mon, 1 Mar 2021 10:00:00 +0000

The diff of this one did not survive.
EOF
[ "$(sqlite3 "$TMP/parts7.db" "SELECT method FROM matches WHERE commit_sha = '$lost'")" = quoted ] ||
	bad "the lost commit is not matched as quoted before its posting came (test bug)"
"$ONLIST" -q --db "$TMP/parts7.db" import --list alpha "$TMP/lost.mbox" >/dev/null || fail "import the lost posting"
match "$TMP/parts7.db" "with the lost posting"
grep -q '^timing: patch-id since [0-9]' "$TMP/match.err" || bad "the lost posting: the tiers ran whole (test bug)"
got=$(sqlite3 "$TMP/parts7.db" "SELECT method || ' ' || message_id FROM matches WHERE commit_sha = '$lost'")
[ -z "$got" ] || bad "the lost commit is matched as '$got' once the mail it answered came"
cp "$TMP/parts7.db" "$TMP/scratch.db"
sqlite3 "$TMP/scratch.db" "DELETE FROM meta WHERE key IN ('exact_stamp', 'fuzzy_stamp')"
match "$TMP/scratch.db" "from scratch with the lost posting"
dump "$TMP/parts7.db" >"$TMP/lost-parts.dump"
dump "$TMP/scratch.db" >"$TMP/lost-scratch.dump"
same_output "tables with the lost posting" "$TMP/lost-scratch.dump" "$TMP/lost-parts.dump" ||
	bad "the lost posting: a match after it differs from one from scratch"

# A message cross-posted to alpha and beta is an echo while only alpha's
# copy is in, and no more once beta's is: classes of old mail change too.
RULES=$TMP/alpha-rules
echo "echo list alpha" >"$RULES"
full
in_parts "$half"
[ "$(sqlite3 "$TMP/full.db" "SELECT count(*) FROM echoes WHERE msgid = 'cross@example.org'")" = 0 ] ||
	bad "the cross-posted patch is an echo (test bug)"
[ $nfail -eq 0 ] && echo "all checks passed"
