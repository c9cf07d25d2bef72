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
# match from scratch, and hold that pair.  The commit's row is moved
# before its landing is written, and after: the tier finds the commits
# committed before the mail's year by the landing's copy of the commit
# date (schema 26), which must follow either.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

eval_set 5050
"$ONLIST" -q --db "$TMP/seed.db" scan --repo "$W/repo" v1.0..v1.1 >/dev/null || fail "scan"

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

# the commit committed two years before the mail, landed the day after
# it: the commit's row changed before its landing is written, or after
# (the landing's copy of the commit date, schema 26, follows either)
MOVE_COMMIT="UPDATE commits SET author_date = $date - 2 * 31536000,
	commit_date = $date - 2 * 31536000 WHERE sha = '$sha';"
MOVE_LANDING="INSERT OR REPLACE INTO landing(sha, landed_date, merge_sha)
	VALUES('$sha', $date + 86400, '$sha');"

# incremental LABEL SQL: the set but the mail, moved by SQL, matched; the
# mail, matched again; against a match from scratch
incremental() {
	label=$1 db=$TMP/incr-$1.db
	cp "$TMP/seed.db" "$db"
	"$ONLIST" -q --db "$db" import --list eval "$TMP/rest.mbox" >/dev/null ||
		fail "$label: import the rest"
	sqlite3 "$db" "$2" || fail "$label: move the commit"
	[ "$(sqlite3 "$db" "SELECT count(*) FROM landing l LEFT JOIN commits c
		ON c.sha = l.sha WHERE l.commit_date IS NOT c.commit_date")" = 0 ] ||
		bad "$label: a landing's commit date is not its commit's"
	"$ONLIST" -q --db "$db" match --rules "$TMP/rules" >/dev/null ||
		fail "$label: first match"
	"$ONLIST" -q --db "$db" import --list eval "$TMP/new.mbox" >/dev/null ||
		fail "$label: import the mail"
	ONLIST_TIMING=1 "$ONLIST" --db "$db" match --rules "$TMP/rules" >/dev/null \
		2>"$TMP/match.err" || { cat "$TMP/match.err"; fail "$label: match after the mail"; }
	grep -q '^timing: patch-id since [0-9]*, fuzzy since [0-9]' "$TMP/match.err" ||
		bad "$label: the match after the mail was not incremental (test bug)"
	dump_matches "$db" >"$TMP/incr.dump"

	cp "$db" "$TMP/scratch.db"
	sqlite3 "$TMP/scratch.db" "DELETE FROM meta WHERE key IN ('fuzzy_stamp',
		'exact_stamp', 'review_rows')"
	"$ONLIST" -q --db "$TMP/scratch.db" match --rules "$TMP/rules" >/dev/null ||
		fail "$label: match from scratch"
	dump_matches "$TMP/scratch.db" >"$TMP/scratch.dump"
	grep -q "^$sha|$msgid|fuzzy|" "$TMP/scratch.dump" ||
		bad "$label: the moved pair is no fuzzy match from scratch (test bug)"
	same_output "$label: matches after the mail" "$TMP/scratch.dump" "$TMP/incr.dump" ||
		bad "$label: the matches after the mail differ from those from scratch"
}
incremental commit-first "$MOVE_COMMIT $MOVE_LANDING"
incremental landing-first "$MOVE_LANDING $MOVE_COMMIT"
[ $nfail -eq 0 ] && echo "all checks passed"
