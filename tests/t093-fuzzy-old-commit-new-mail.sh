#!/bin/sh
# After new mail, the fuzzy tier scores each new mail against the commits
# it can be a candidate of: those of its sender whose window holds it
# (store_fuzzy.c, sql_todo_author).  A commit committed more than a year
# before the mail is one only when its bound (the landing) is recent: it
# is found through temp.fz_recent, not by its commit date.  Here a fuzzy
# pair of t050's labelled set is moved so: the commit dated two years
# before its posting, landed the day after; the posting comes as new mail
# after a first match, under another subject than the commit's (else the
# subject alone would find the commit).  The matches must be those of a
# match from scratch, and hold that pair.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

eval_set 5050
"$ONLIST" -q --db "$TMP/seed.db" scan --repo "$W/repo" v1.0..v1.1 >/dev/null || fail "scan"

dump() {
	sqlite3 "$1" "SELECT commit_sha, message_id, method, printf('%.6f', score)
		FROM matches ORDER BY 1, 2, 3"
}

# a fuzzy pair of the whole set: the mail from the commit's author, under
# another stripped subject
cp "$TMP/seed.db" "$TMP/full.db"
"$ONLIST" -q --db "$TMP/full.db" import --list eval "$W/eval.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$TMP/full.db" match --rules "$TMP/rules" >/dev/null || fail "match"
pair=$(sqlite3 -separator ' ' "$TMP/full.db" "SELECT x.commit_sha, x.message_id, m.date
	FROM matches x JOIN commits c ON c.sha = x.commit_sha
	JOIN messages m ON m.msgid = x.message_id
	JOIN message_info i ON i.msgid = m.msgid
	WHERE x.method = 'fuzzy' AND lower(m.from_addr) = lower(c.author_email)
	AND NOT EXISTS (SELECT 1 FROM commit_subject s WHERE s.sha = c.sha
	AND s.stripped = lower(i.stripped)) ORDER BY 1, 2 LIMIT 1")
read -r sha msgid date <<EOF
$pair
EOF
[ -n "$date" ] || fail "no fuzzy pair under another subject in the set (test bug)"

# the set without that mail, then the mail alone
python3 - "$W/eval.mbox" "$msgid" "$TMP/rest.mbox" "$TMP/new.mbox" <<'PY' || fail "split"
import re, sys
src, mid, rest, new = sys.argv[1:]
msgs = re.split(r"(?m)^(?=From )", open(src).read())
out = {rest: [], new: []}
for m in msgs:
    head = m.split("\n\n", 1)[0]
    ours = re.search(r"(?im)^Message-ID:\s*<%s>" % re.escape(mid), head)
    out[new if ours else rest].append(m)
if len(out[new]) != 1:
    sys.exit(1)
for f, ms in out.items():
    open(f, "w").write("".join(ms))
PY

db=$TMP/incr.db
cp "$TMP/seed.db" "$db"
"$ONLIST" -q --db "$db" import --list eval "$TMP/rest.mbox" >/dev/null || fail "import the rest"
# committed two years before the mail, landed the day after it
sqlite3 "$db" "UPDATE commits SET author_date = $date - 2 * 31536000,
	commit_date = $date - 2 * 31536000 WHERE sha = '$sha';
	INSERT OR REPLACE INTO landing(sha, landed_date, merge_sha)
	VALUES('$sha', $date + 86400, '$sha')" || fail "move the commit"
"$ONLIST" -q --db "$db" match --rules "$TMP/rules" >/dev/null || fail "first match"
"$ONLIST" -q --db "$db" import --list eval "$TMP/new.mbox" >/dev/null || fail "import the mail"
ONLIST_TIMING=1 "$ONLIST" --db "$db" match --rules "$TMP/rules" >/dev/null 2>"$TMP/match.err" ||
	{ cat "$TMP/match.err"; fail "match after the mail"; }
grep -q '^timing: patch-id since [0-9]*, fuzzy since [0-9]' "$TMP/match.err" ||
	bad "the match after the mail was not incremental (test bug)"
dump "$db" >"$TMP/incr.dump"

cp "$db" "$TMP/scratch.db"
sqlite3 "$TMP/scratch.db" "DELETE FROM meta WHERE key IN ('fuzzy_stamp', 'exact_stamp',
	'review_rows')"
"$ONLIST" -q --db "$TMP/scratch.db" match --rules "$TMP/rules" >/dev/null ||
	fail "match from scratch"
dump "$TMP/scratch.db" >"$TMP/scratch.dump"
grep -q "^$sha|$msgid|fuzzy|" "$TMP/scratch.dump" ||
	bad "the moved pair is no fuzzy match from scratch (test bug)"
same_output "matches after the mail" "$TMP/scratch.dump" "$TMP/incr.dump" ||
	bad "the matches after the mail differ from those from scratch"
[ $nfail -eq 0 ] && echo "all checks passed"
