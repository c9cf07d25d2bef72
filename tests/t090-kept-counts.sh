#!/bin/sh
# What `onlist match` prints and starts from without reading every match or
# landing row (schema 23, kept by triggers as the rows change): the rows of
# each method (match_counts), the commits with a posted row (meta
# matched_commits, the closing "N of M commits matched"), the commits
# (row_counts, schema 26: that line's M) and the sums of the
# landing dates (landing_sum, in the tiers' stamps).  Each must equal the
# count of the whole table after every kind of run and edit: whole runs,
# runs after new mail that move and remove matches, --no-fuzzy (commits
# only the fuzzy tier matched lose their posting), and rows deleted, moved
# and written over by hand.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

eval_set 5090
db=$TMP/t.db
"$ONLIST" -q --db "$db" scan --repo "$W/repo" v1.0..v1.1 >/dev/null || fail "scan"

POSTED="method NOT IN ('', 'echo', 'late')"
# check LABEL: the kept counts against the tables, and the printed line
check() {
	sqlite3 "$db" "SELECT method, count(*) FROM matches GROUP BY 1 ORDER BY 1" \
		>"$TMP/counted"
	sqlite3 "$db" "SELECT method, n FROM match_counts WHERE n <> 0 ORDER BY 1" \
		>"$TMP/kept"
	same_output "rows per method ($1)" "$TMP/counted" "$TMP/kept" ||
		bad "$1: match_counts differs from the matches"
	sqlite3 "$db" "SELECT count(*), coalesce(sum(landed_date), 0),
		coalesce(sum(landed_date * length(sha) + unicode(sha)), 0) FROM landing" \
		>"$TMP/counted"
	sqlite3 "$db" "SELECT n, s, k FROM landing_sum" >"$TMP/kept"
	same_output "landing sums ($1)" "$TMP/counted" "$TMP/kept" ||
		bad "$1: landing_sum differs from the landing rows"
	for t in messages message_lists message_info echoes message_author \
		message_reply message_trailers message_patch commits; do
		counted=$(sqlite3 "$db" "SELECT count(*) FROM $t")
		kept=$(sqlite3 "$db" "SELECT n FROM row_counts WHERE name = '$t'")
		[ "$kept" = "$counted" ] || bad "$1: $kept rows of $t kept, $counted counted"
	done
	posted=$(sqlite3 "$db" "SELECT count(DISTINCT commit_sha) FROM matches WHERE $POSTED")
	kept=$(sqlite3 "$db" "SELECT coalesce((SELECT value FROM meta WHERE key = 'matched_commits'), 'none')")
	[ "$kept" = "$posted" ] || [ "$kept" = none ] ||
		bad "$1: $kept commits matched kept, $posted counted"
	return 0
}
# match LABEL [OPTION...]: the closing line says the counted number
match() {
	label=$1
	shift
	ONLIST_TIMING=1 "$ONLIST" --db "$db" match --rules "$TMP/rules" "$@" \
		>"$TMP/match.out" 2>"$TMP/match.err" ||
		{ cat "$TMP/match.err"; bad "match $label failed"; return; }
	check "$label"
	posted=$(sqlite3 "$db" "SELECT count(DISTINCT commit_sha) FROM matches WHERE $POSTED")
	ncommits=$(sqlite3 "$db" "SELECT count(*) FROM commits")
	grep -q "^$posted of $ncommits commits matched" "$TMP/match.out" ||
		{ tail -n 1 "$TMP/match.out"; bad "$label: match did not print $posted commits matched"; }
	[ -n "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'matched_commits'")" ] ||
		bad "$label: match did not keep the count of matched commits"
}

check "after scan"
# in slices, a match after each: later mail moves commits to earlier
# tiers (rows deleted and written in place)
python3 - "$W/eval.mbox" "$TMP/part" <<'PY'
import random, re, sys
data = open(sys.argv[1], "rb").read()
msgs = [m for m in re.split(rb"(?m)^(?=From mboxrd@z )", data) if m]
random.Random(90).shuffle(msgs)
n = max(1, len(msgs) // 4)
for k, i in enumerate(range(0, len(msgs), n), 1):
    open("%s.%d" % (sys.argv[2], k), "wb").write(b"".join(msgs[i:i + n]))
PY
incr=0
for part in $(ls "$TMP"/part.* | sort -t. -k2 -n); do
	"$ONLIST" -q --db "$db" import --list eval "$part" >/dev/null || fail "import $part"
	match "after $(basename "$part")"
	grep -q '^timing: patch-id since [0-9]' "$TMP/match.err" && incr=$((incr + 1))
done
[ "$incr" -ge 2 ] || bad "only $incr runs after new mail were in place (test bug)"
"$ONLIST" -q --db "$db" import --list stable "$W/stable.mbox" >/dev/null || fail "import stable"
match "after stable"
nfuzzy=$(sqlite3 "$db" "SELECT count(*) FROM matches WHERE method = 'fuzzy'")
[ "$nfuzzy" -gt 0 ] || fail "no fuzzy match (test bug)"

# a run that removes matches: without the fuzzy tier its commits go
before=$(sqlite3 "$db" "SELECT count(DISTINCT commit_sha) FROM matches WHERE $POSTED")
match "no fuzzy" --no-fuzzy
after=$(sqlite3 "$db" "SELECT count(DISTINCT commit_sha) FROM matches WHERE $POSTED")
[ "$after" -lt "$before" ] || bad "--no-fuzzy left every commit matched (test bug)"
match "fuzzy again"

# by hand: a commit's only posted rows deleted, a row moved to another
# commit and method (the count is dropped, then counted), a landing row
# written over and changed
sha=$(sqlite3 "$db" "SELECT commit_sha FROM matches WHERE $POSTED GROUP BY commit_sha
	HAVING count(*) = 1 LIMIT 1")
[ -n "$sha" ] || fail "no commit with one posting (test bug)"
sqlite3 "$db" "DELETE FROM matches WHERE commit_sha = '$sha'"
check "a commit's rows deleted"
sqlite3 "$db" "UPDATE matches SET commit_sha = '$sha', method = 'late'
	WHERE (commit_sha, message_id, method) IN (SELECT commit_sha, message_id,
	method FROM matches WHERE method = 'fuzzy' LIMIT 1)" || fail "sqlite3"
check "a row moved"
# the closing line of a read command counts while nothing is kept
"$ONLIST" --db "$db" status >"$TMP/status.out" 2>&1 || bad "status failed"
sqlite3 "$db" "SELECT sha, landed_date FROM landing LIMIT 1" >"$TMP/land"
IFS='|' read lsha ldate <"$TMP/land"
sqlite3 "$db" "INSERT OR REPLACE INTO landing(sha, landed_date, merge_sha)
	VALUES('$lsha', $((ldate + 7)), '$lsha')"
check "a landing row written over"
sqlite3 "$db" "UPDATE landing SET landed_date = landed_date - 7 WHERE sha = '$lsha';
	DELETE FROM landing WHERE sha = (SELECT max(sha) FROM landing)"
check "a landing row changed and one deleted"
# a commit row deleted by hand, one added (the commits are counted too,
# schema 26, for the closing line)
sqlite3 "$db" "DELETE FROM commits WHERE sha = (SELECT max(sha) FROM commits);
	INSERT INTO commits(sha, body_empty) VALUES('0123456789012345678901234567890123456789', 1)" ||
	fail "sqlite3"
check "a commit row deleted and one added"
# a list row gone: the classes are computed again, the echoes emptied
sqlite3 "$db" "DELETE FROM message_lists WHERE (msgid, list) IN
	(SELECT msgid, list FROM message_lists LIMIT 1)" || fail "sqlite3"
check "a list row deleted"
match "after the edits"
match "with nothing new"

# a database of schema 22 counts them once at its upgrade
sqlite3 "$db" "DROP TRIGGER matches_count_ins; DROP TRIGGER matches_count_del;
	DROP TRIGGER matches_count_upd; DROP TRIGGER landing_sum_replace;
	DROP TRIGGER landing_sum_ins; DROP TRIGGER landing_sum_del;
	DROP TRIGGER landing_sum_upd; DROP TABLE match_counts; DROP TABLE landing_sum;
	DROP TRIGGER messages_count_ins; DROP TRIGGER messages_count_del;
	DROP TRIGGER message_lists_count_ins; DROP TRIGGER message_lists_count_del;
	DROP TRIGGER message_info_count_ins; DROP TRIGGER message_info_count_del;
	DROP TRIGGER echoes_count_ins; DROP TRIGGER echoes_count_del;
	DROP TRIGGER message_author_count_ins; DROP TRIGGER message_author_count_del;
	DROP TRIGGER message_reply_count_ins; DROP TRIGGER message_reply_count_del;
	DROP TRIGGER message_trailers_count_ins; DROP TRIGGER message_trailers_count_del;
	DROP TRIGGER message_patch_count_ins; DROP TRIGGER message_patch_count_del;
	DROP TABLE row_counts;
	DELETE FROM meta WHERE key = 'matched_commits';
	DELETE FROM matches WHERE (commit_sha, message_id, method) IN (SELECT
		commit_sha, message_id, method FROM matches WHERE method = 'patch-id' LIMIT 3);
	UPDATE landing SET landed_date = landed_date + 1; PRAGMA user_version = 22" ||
	fail "could not make the database schema 22"
"$ONLIST" --db "$db" status >"$TMP/status.out" 2>&1 || bad "status failed"
[ -n "$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'matched_commits'")" ] ||
	bad "the upgrade did not count the matched commits"
check "after the upgrade"
match "after the upgrade"
[ $nfail -eq 0 ] && echo "all checks passed"
