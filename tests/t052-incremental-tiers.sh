#!/bin/sh
# After new mail, the tiers keep the last run's matches of the commits new
# mail cannot change and compute again the others (store_match.c); the
# fuzzy tier scores the new mails against the commits they can be a
# candidate of (same person, same subject) and keeps the last run's
# matches: the matches must be those of a match from scratch, scores
# included, with a match of every method in the set.  The mail is
# t050's labelled set (postings edited before merge, echoes, late resends),
# which has fuzzy matches; it is imported in shuffled slices, with `match`
# after each, so that a commit's posting often comes after the commit was
# scored without it.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

W=$TMP/w
python3 tests/t050-match-eval.py "$W" 5050 || fail "the evaluation set could not be built"
# the set has no quoted match: a reply that quotes the whole patch of a
# commit never posted, answering a Message-ID the archive does not have
# (the posting lost), sent on the commit's author date
python3 - "$W" <<'PY' || fail "the quoting reply could not be built"
import subprocess, sys
w = sys.argv[1]
def git(*a):
    return subprocess.run(["git", "-C", w + "/repo"] + list(a), check=True,
                          capture_output=True, text=True).stdout
sha = next(l.split()[0] for l in open(w + "/labels.txt") if l.split()[1] == "never")
body = git("format-patch", "--stdout", "-1", sha).split("\n\n", 1)[1]
quoted = "".join("> %s\n" % l if l else ">\n" for l in body.split("\n"))
date = git("log", "-1", "--format=%aD", sha).strip()
with open(w + "/eval.mbox", "a") as f:
    f.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
            "From: Mo Maintainer <mo@example.org>\n"
            "Subject: Re: the lost patch\n"
            "Date: %s\n"
            "Message-ID: <quoted-t052@example.org>\n"
            "In-Reply-To: <lost-t052@example.org>\n"
            "References: <lost-t052@example.org>\n\n"
            "On Mon, 1 Mar 2021, someone wrote:\n%s\nApplied, thanks.\n\n"
            % (date, quoted.replace("\nFrom ", "\n>From ")))
PY
printf 'echo from ci-bot@example.org\n' >"$TMP/rules"
"$ONLIST" -q --db "$TMP/seed.db" scan --repo "$W/repo" v1.0..v1.1 >/dev/null || fail "scan"

# ONLIST_TIMING=1: match says whether the patch-id and fuzzy tiers kept
# matches of the last run ("... since ID") or ran whole (-1)
match() {	# match DB LABEL [OPTION...]
	mdb=$1 label=$2
	shift 2
	ONLIST_TIMING=1 "$ONLIST" --db "$mdb" match --rules "$TMP/rules" "$@" >"$TMP/match.out" 2>"$TMP/match.err" ||
		{ cat "$TMP/match.err"; bad "match $label failed"; }
}
# the review built from them (review_update.c computes again only the
# commits the new mail and the new matches can change) and its version
# links
dump_review() {
	for t in review_links commit_review posting_replies series_replies \
		commit_notice review_tags; do
		echo "== $t"
		sqlite3 "$1" "SELECT * FROM $t" | LC_ALL=C sort
	done
}

# ---- all at once
cp "$TMP/seed.db" "$TMP/full.db"
"$ONLIST" -q --db "$TMP/full.db" import --list eval "$W/eval.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$TMP/full.db" import --list stable "$W/stable.mbox" >/dev/null || fail "import stable"
match "$TMP/full.db" "at once"
cp "$TMP/match.out" "$TMP/full.out"
dump_matches "$TMP/full.db" >"$TMP/full.dump"
nfuzzy=$(grep -c '|fuzzy|' "$TMP/full.dump")
[ "$nfuzzy" -gt 3 ] || fail "only $nfuzzy fuzzy matches in the whole set (test bug)"
# every tier matches something in the set (the labels of t050-match-eval.py
# and the quoting reply above say which commits; not the code under test)
for m in link patch-id patch-id-alg repaired quoted author-date subject \
	fuzzy late echo; do
	grep -q "|$m|" "$TMP/full.dump" || fail "no $m match in the whole set (test bug)"
done

# ---- in slices of N messages, shuffled
python3 - "$W/eval.mbox" "$TMP/part" <<'PY'
import random, re, sys
data = open(sys.argv[1], "rb").read()
msgs = [m for m in re.split(rb"(?m)^(?=From mboxrd@z )", data) if m]
random.Random(52).shuffle(msgs)
n = max(1, len(msgs) // 6)
for k, i in enumerate(range(0, len(msgs), n), 1):
    open("%s.%d" % (sys.argv[2], k), "wb").write(b"".join(msgs[i:i + n]))
PY
db=$TMP/parts.db
cp "$TMP/seed.db" "$db"
incr=0
rsome=0
for part in $(ls "$TMP"/part.* | sort -t. -k2 -n); do
	"$ONLIST" -q --db "$db" import --list eval "$part" >/dev/null || fail "import $part"
	match "$db" "after $part"
	grep -q '^timing: patch-id since [0-9]*, fuzzy since [0-9]' "$TMP/match.err" &&
		incr=$((incr + 1))
	# the review computed only the commits the slice can change
	sed -n 's/^timing: reviews of \([0-9]*\) of \([0-9]*\) commits computed$/\1 \2/p' \
		"$TMP/match.err" >"$TMP/reviews"
	read rnew rall <"$TMP/reviews" || bad "match said nothing of the reviews"
	[ "$rnew" -lt "$rall" ] && rsome=$((rsome + 1))
	dump_matches "$db" >"$TMP/parts.dump"
	dump_review "$db" >"$TMP/parts.review"
	# the same mail matched from scratch (no stamp: nothing kept; no
	# count of review rows: every review computed again)
	cp "$db" "$TMP/scratch.db"
	sqlite3 "$TMP/scratch.db" "DELETE FROM meta WHERE key IN ('fuzzy_stamp', 'exact_stamp',
		'review_rows')"
	match "$TMP/scratch.db" "from scratch after $part"
	grep -q '^timing: patch-id since -1, fuzzy since -1$' "$TMP/match.err" ||
		bad "without a stamp the tiers were not run whole"
	grep -q '^timing: reviews of \([0-9]*\) of \1 commits computed$' "$TMP/match.err" ||
		bad "without a count of review rows not every review was computed"
	dump_matches "$TMP/scratch.db" >"$TMP/scratch.dump"
	same_output "matches after $part" "$TMP/scratch.dump" "$TMP/parts.dump" ||
		{ diff "$TMP/scratch.dump" "$TMP/parts.dump" | head -20; bad "after $part: kept matches differ from a whole run"; }
	dump_review "$TMP/scratch.db" >"$TMP/scratch.review"
	same_output "review after $part" "$TMP/scratch.review" "$TMP/parts.review" ||
		{ diff "$TMP/scratch.review" "$TMP/parts.review" | head -20; bad "after $part: the review differs from a whole run"; }
done
[ "$incr" -ge 3 ] || bad "only $incr slices kept fuzzy matches (test bug)"
[ "$rsome" -ge 3 ] || bad "only $rsome slices kept reviews (test bug)"
"$ONLIST" -q --db "$db" import --list stable "$W/stable.mbox" >/dev/null || fail "import stable"
match "$db" "after stable"
dump_matches "$db" >"$TMP/parts.dump"
same_output "matches after slices" "$TMP/full.dump" "$TMP/parts.dump" ||
	{ diff "$TMP/full.dump" "$TMP/parts.dump" | head -20; bad "slices differ from one import"; }
same_output "counts after slices" "$TMP/full.out" "$TMP/match.out" ||
	bad "match counts after slices differ"

# the last run kept fuzzy matches (else this test tests nothing): a stamp
# of what the tier read is there, and with nothing new every fuzzy match is
# kept, the same
[ -n "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'fuzzy_stamp'")" ] ||
	bad "no fuzzy stamp after a fuzzy run"
match "$db" "with nothing new"
dump_matches "$db" >"$TMP/parts.dump"
same_output "matches with nothing new" "$TMP/full.dump" "$TMP/parts.dump" ||
	bad "a match with nothing new changed the matches"

# a kept match that is wrong is found: change a fuzzy score behind its back
# and match with nothing new: the change stays (kept, not recomputed) ...
sqlite3 "$db" "UPDATE matches SET score = 0.123 WHERE method = 'fuzzy'"
match "$db" "kept"
[ "$(sqlite3 "$db" "SELECT count(*) FROM matches WHERE method = 'fuzzy' AND score = 0.123")" = "$nfuzzy" ] ||
	bad "with nothing new the fuzzy matches were not kept"
# the same for the patch-id matches: one removed stays removed
npid=$(sqlite3 "$db" "SELECT count(*) FROM matches WHERE method = 'patch-id'")
[ "$npid" -gt 3 ] || bad "only $npid patch-id matches (test bug)"
sqlite3 "$db" "DELETE FROM matches WHERE rowid IN (SELECT rowid FROM matches
	WHERE method = 'patch-id' LIMIT 1)" 2>/dev/null ||
	sqlite3 "$db" "DELETE FROM matches WHERE (commit_sha, message_id) IN
		(SELECT commit_sha, message_id FROM matches WHERE method = 'patch-id' LIMIT 1)
		AND method = 'patch-id'"
match "$db" "kept patch-id"
[ "$(sqlite3 "$db" "SELECT count(*) FROM matches WHERE method = 'patch-id'")" = $((npid - 1)) ] ||
	bad "with nothing new the patch-id matches were not kept"
# ... until something the tiers read changes: another threshold (fuzzy),
# a commit's bound (both), and back
match "$db" "other threshold" --threshold 0.45
match "$db" "threshold back"
sqlite3 "$db" "UPDATE landing SET landed_date = landed_date + 1 WHERE rowid IN
	(SELECT rowid FROM landing WHERE merge_sha <> sha LIMIT 1)"
match "$db" "a bound moved"
grep -q '^timing: patch-id since -1, fuzzy since -1$' "$TMP/match.err" ||
	bad "a moved bound: the tiers kept matches"
sqlite3 "$db" "UPDATE landing SET landed_date = landed_date - 1 WHERE rowid IN
	(SELECT rowid FROM landing WHERE merge_sha <> sha LIMIT 1)"
match "$db" "the bound back"
dump_matches "$db" >"$TMP/parts.dump"
same_output "matches after the threshold changed and back" "$TMP/full.dump" "$TMP/parts.dump" ||
	bad "threshold changed and back: matches differ"
# --no-fuzzy leaves nothing to keep
sqlite3 "$db" "UPDATE matches SET score = 0.123 WHERE method = 'fuzzy'"
match "$db" "no fuzzy" --no-fuzzy
[ "$(sqlite3 "$db" "SELECT count(*) FROM matches WHERE method = 'fuzzy'")" = 0 ] ||
	bad "--no-fuzzy left fuzzy matches"
match "$db" "fuzzy again"
dump_matches "$db" >"$TMP/parts.dump"
same_output "matches after --no-fuzzy" "$TMP/full.dump" "$TMP/parts.dump" ||
	bad "after --no-fuzzy: matches differ"
[ $nfail -eq 0 ] && echo "all checks passed"
