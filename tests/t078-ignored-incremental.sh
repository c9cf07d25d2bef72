#!/bin/sh
# onlist ignored from what `onlist match` saved (tables ignored_msgs and
# ignored_topics): after new mail and new commits, a match judges again
# only the topics they changed, and the answer is the one a database
# built in one go gives, and the one judged from the threads directly.
#
# First round: mail up to 2024-04-01, commits up to 2024-04-01.
#   ann   Ann's "a: one", 2024-02-01, unanswered    -> ignored
#   bob   Bob's "b: two", 2024-02-02, unanswered    -> ignored
#   cid   Cid's "a: three" v1, 2024-02-03           -> ignored
#   dee   Dee's "b: four", 2024-02-04, unanswered   -> ignored (stays so)
#   fay   Fay's "b: six", 2024-02-05, Rev answers   -> answered (stays so)
#   eli   Eli's "a: five", 2024-03-20               -> too recent
#   hal   Hal's "b: add a helper to batch requests", a new file src/h.c,
#         2024-02-06, unanswered                    -> ignored
# Second round: new mail up to 2024-06-15, commits up to 2024-06-01.
#   ann   Rev answers her (a new reply to an old patch) -> answered
#   bob   a commit applies his patch (no new mail: the matches change)
#                                                   -> applied
#   cid   v2, 2024-03-10, applied                   -> applied, both versions
#   eli   the line moves past it                    -> ignored
#   gus   Gus's "b: seven", 2024-06-10, new         -> unknown (after)
#   hal   his "b: add a helper to batch reqs" (another topic), 2024-04-10,
#         that Rev answers                          -> superseded
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

patch_repo
who Maint maint@example.org
commit 2024-01-02T10:00:00 README base "base"
commit 2024-01-03T10:00:00 src/a.c a "a: start"
commit 2024-01-03T11:00:00 src/b.c b "b: start"
base=$(git -C "$R" rev-parse HEAD)
who Ann ann@example.org
commit 2024-02-01T10:00:00 src/a.c one "a: one"; body ann
who Bob bob@example.org
commit 2024-02-02T10:00:00 src/b.c two "b: two"; body bob
who Cid cid@example.org
commit 2024-02-03T10:00:00 src/a.c three-draft "a: three"; body cid1
who Dee dee@example.org
commit 2024-02-04T10:00:00 src/b.c four "b: four"; body dee
who Fay fay@example.org
commit 2024-02-05T10:00:00 src/b.c six "b: six"; body fay
who Eli eli@example.org
commit 2024-03-20T10:00:00 src/a.c five "a: five"; body eli
who Hal hal@example.org
commit 2024-02-06T10:00:00 src/h.c helper-draft "b: add a helper to batch requests"; body hal1
commit 2024-04-10T10:00:00 src/h.c helper "b: add a helper to batch reqs"; body hal2
who Gus gus@example.org
commit 2024-06-10T10:00:00 src/b.c seven "b: seven"; body gus
who Maint maint@example.org
commit 2024-04-01T10:00:00 README more "README: more"
first=$(git -C "$R" rev-parse HEAD)
# the second round's commits: Bob's patch as posted, Cid's v2
who Bob bob@example.org
KEEP=1 commit 2024-05-01T10:00:00 src/b.c two "b: two"
who Cid cid@example.org
KEEP=1 commit 2024-03-10T10:00:00 src/a.c three "a: three"
KEEP=1 body cid2
who Maint maint@example.org
KEEP=1 commit 2024-06-01T10:00:00 README most "README: most"

text() { printf '%s\n' "$@" >"$TMP/text.body"; echo "$TMP/text.body"; }
{
	mail "$TMP/ann.body" "Ann <ann@example.org>" \
		"Thu, 01 Feb 2024 10:00:00 +0000" "ann1@x" "[PATCH] a: one"
	mail "$TMP/bob.body" "Bob <bob@example.org>" \
		"Fri, 02 Feb 2024 10:00:00 +0000" "bob1@x" "[PATCH] b: two"
	mail "$TMP/cid1.body" "Cid <cid@example.org>" \
		"Sat, 03 Feb 2024 10:00:00 +0000" "cid1@x" "[PATCH] a: three"
	mail "$TMP/dee.body" "Dee <dee@example.org>" \
		"Sun, 04 Feb 2024 10:00:00 +0000" "dee1@x" "[PATCH] b: four"
	mail "$TMP/fay.body" "Fay <fay@example.org>" \
		"Mon, 05 Feb 2024 10:00:00 +0000" "fay1@x" "[PATCH] b: six"
	mail "$(text 'Looks wrong to me.')" "Rev <rev@example.org>" \
		"Tue, 06 Feb 2024 10:00:00 +0000" "fay2@x" "Re: [PATCH] b: six" fay1@x
	mail "$TMP/hal1.body" "Hal <hal@example.org>" \
		"Tue, 06 Feb 2024 10:00:00 +0000" "hal1@x" "[PATCH] b: add a helper to batch requests"
	mail "$TMP/eli.body" "Eli <eli@example.org>" \
		"Wed, 20 Mar 2024 10:00:00 +0000" "eli1@x" "[PATCH] a: five"
	mail "$(text 'Something else.')" "Zed <zed@example.org>" \
		"Mon, 01 Apr 2024 10:00:00 +0000" "zed1@x" "news"
} >"$TMP/one.mbox"
{
	mail "$(text 'Why?')" "Rev <rev@example.org>" \
		"Fri, 05 Apr 2024 10:00:00 +0000" "ann2@x" "Re: [PATCH] a: one" ann1@x
	mail "$TMP/cid2.body" "Cid <cid@example.org>" \
		"Sun, 10 Mar 2024 10:00:00 +0000" "cid2@x" "[PATCH v2] a: three"
	mail "$TMP/hal2.body" "Hal <hal@example.org>" \
		"Wed, 10 Apr 2024 10:00:00 +0000" "hal2@x" "[PATCH] b: add a helper to batch reqs"
	mail "$(text 'Nice.')" "Rev <rev@example.org>" \
		"Thu, 11 Apr 2024 10:00:00 +0000" "hal3@x" "Re: [PATCH] b: add a helper to batch reqs" hal2@x
	mail "$TMP/gus.body" "Gus <gus@example.org>" \
		"Mon, 10 Jun 2024 10:00:00 +0000" "gus1@x" "[PATCH] b: seven"
	mail "$(text 'Later.')" "Zed <zed@example.org>" \
		"Sat, 15 Jun 2024 10:00:00 +0000" "zed2@x" "news again"
} >"$TMP/two.mbox"

states() {	# states DB: every topic's state, by the JSON
	"$ONLIST" --db "$1" ignored --state all --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(sorted((k, v) for k, v in d["counts"].items() if v))
for s in d["series"]:
    print(s["state"], s["message_id"], s["date"], s["versions"], s["series"],
          s["patches"], s["reply"], (s["commit"] or "")[:7])'
}
saved() {	# saved DB: whether ignored reads the saved tables
	[ "$(sqlite3 "$1" "SELECT (SELECT value FROM meta WHERE key = 'ignored_threads') =
		(SELECT value FROM meta WHERE key = 'threads_stamp')
		AND (SELECT count(*) FROM ignored_topics) > 0")" = 1 ]
}

# A: one round, then the other
A=$TMP/a.db
"$ONLIST" -q --db "$A" import --list proj "$TMP/one.mbox" >/dev/null || fail "import one"
"$ONLIST" -q --db "$A" scan --repo "$R" "$base~2..$first" >/dev/null || fail "scan one"
"$ONLIST" -q --db "$A" match >/dev/null || fail "match one"
saved "$A" || bad "first round: ignored reads no saved table"
states "$A" >"$TMP/got"
cat >"$TMP/want" <<'EOT'
[('answered', 1), ('ignored', 5), ('too_recent', 1)]
ignored ann1@x 2024-02-01T10:00:00Z [1] 1 1 None 
ignored bob1@x 2024-02-02T10:00:00Z [1] 1 1 None 
ignored cid1@x 2024-02-03T10:00:00Z [1] 1 1 None 
ignored dee1@x 2024-02-04T10:00:00Z [1] 1 1 None 
answered fay1@x 2024-02-05T10:00:00Z [1] 1 1 fay2@x 
ignored hal1@x 2024-02-06T10:00:00Z [1] 1 1 None 
too_recent eli1@x 2024-03-20T10:00:00Z [1] 1 1 None 
EOT
same_output "first round" "$TMP/want" "$TMP/got" || bad "first round: the states"

# a mark in a saved row no new mail or commit touches: a match that
# judged every topic again would wipe it
sqlite3 "$A" "UPDATE ignored_topics SET reply_name = 'Marked' WHERE topic =
	(SELECT topic FROM ignored_msgs WHERE msgid = 'fay1@x')" || fail "mark"
"$ONLIST" -q --db "$A" import --list proj "$TMP/two.mbox" >/dev/null || fail "import two"
"$ONLIST" -q --db "$A" scan --repo "$R" "$base~2..main" >/dev/null || fail "scan two"
"$ONLIST" -q --db "$A" match >/dev/null || fail "match two"
saved "$A" || bad "second round: ignored reads no saved table"
[ "$(sqlite3 "$A" "SELECT reply_name FROM ignored_topics WHERE topic =
	(SELECT topic FROM ignored_msgs WHERE msgid = 'fay1@x')")" = Marked ] ||
	bad "second round: a topic nothing changed was judged again"
sqlite3 "$A" "UPDATE ignored_topics SET reply_name = 'Rev' WHERE reply_name = 'Marked'" ||
	fail "unmark"
states "$A" >"$TMP/a.states"
cid2=$(git -C "$R" rev-parse main~1 | cut -c1-7)
bob=$(git -C "$R" rev-parse main~2 | cut -c1-7)
cat >"$TMP/want" <<EOT
[('answered', 3), ('applied', 2), ('ignored', 2), ('superseded', 1), ('unknown_after', 1)]
answered ann1@x 2024-02-01T10:00:00Z [1] 1 1 ann2@x 
applied bob1@x 2024-02-02T10:00:00Z [1] 1 1 None $bob
ignored dee1@x 2024-02-04T10:00:00Z [1] 1 1 None 
answered fay1@x 2024-02-05T10:00:00Z [1] 1 1 fay2@x 
superseded hal1@x 2024-02-06T10:00:00Z [1] 1 1 None 
applied cid2@x 2024-03-10T10:00:00Z [1, 2] 2 1 None $cid2
ignored eli1@x 2024-03-20T10:00:00Z [1] 1 1 None 
answered hal2@x 2024-04-10T10:00:00Z [1] 1 1 hal3@x 
unknown_after gus1@x 2024-06-10T10:00:00Z [1] 1 1 None 
EOT
same_output "second round" "$TMP/want" "$TMP/a.states" || bad "second round: the states"

# B: the same mail and commits in one go
B=$TMP/b.db
"$ONLIST" -q --db "$B" import --list proj "$TMP/one.mbox" >/dev/null || fail "import B"
"$ONLIST" -q --db "$B" import --list proj "$TMP/two.mbox" >/dev/null || fail "import B"
"$ONLIST" -q --db "$B" scan --repo "$R" "$base~2..main" >/dev/null || fail "scan B"
"$ONLIST" -q --db "$B" match >/dev/null || fail "match B"
states "$B" >"$TMP/b.states"
same_output "one go" "$TMP/a.states" "$TMP/b.states" || bad "incremental and one go differ"
dump='SELECT * FROM ignored_msgs ORDER BY topic, msgid; SELECT * FROM ignored_topics ORDER BY topic'
sqlite3 "$A" "$dump" >"$TMP/a.rows"
sqlite3 "$B" "$dump" >"$TMP/b.rows"
same_output "saved rows" "$TMP/a.rows" "$TMP/b.rows" || bad "the saved rows differ"

# C: A judged from the threads, the saved tables not current
C=$TMP/c.db
cp "$A" "$C"
sqlite3 "$C" "UPDATE meta SET value = 'old' WHERE key = 'ignored_threads'" || fail "age C"
saved "$C" && bad "C still reads the saved tables"
states "$C" >"$TMP/c.states"
same_output "from the threads" "$TMP/a.states" "$TMP/c.states" ||
	bad "saved and judged from the threads differ"
for db in "$A" "$C"; do
	for id in ann2@x bob1@x cid1@x dee1@x eli1@x gus1@x hal1@x hal3@x; do
		"$ONLIST" --db "$db" lookup "$id" | head -n 1
	done >"$db.lookup"
done
same_output "lookup" "$A.lookup" "$C.lookup" || bad "lookup: saved and from the threads differ"
grep -q "^<ann2@x>: answered: by Rev on 2024-04-05 <ann2@x>$" "$A.lookup" ||
	bad "lookup: Ann's reply"
grep -q "^<hal1@x>: superseded: " "$A.lookup" || bad "lookup: Hal's first"

# an older database (schema 13) gets the tables, and judges from the
# threads until the next match fills them
D=$TMP/d.db
cp "$B" "$D"
sqlite3 "$D" "DROP TABLE ignored_msgs; DROP TABLE ignored_topics;
	DELETE FROM meta WHERE key LIKE 'ignored_%'; PRAGMA user_version = 13" || fail "set D back"
"$ONLIST" -q --db "$D" status >/dev/null || fail "upgrade D"
saved "$D" && bad "D: saved tables before a match"
states "$D" >"$TMP/d.states"
same_output "upgraded" "$TMP/a.states" "$TMP/d.states" || bad "D: not what A says"
"$ONLIST" -q --db "$D" match >/dev/null || fail "match D"
saved "$D" || bad "D: no saved tables after a match"
states "$D" >"$TMP/d.states"
same_output "upgraded, matched" "$TMP/a.states" "$TMP/d.states" || bad "D: not what A says"

# random archives made to break incremental thread builds (t053's:
# versions, covers, late parents, v2 as a reply, change-ids), imported
# in random slices with a match after each: the saved tables are the
# ones of one import and one match
saved_dump() {
	sqlite3 "$1" "SELECT * FROM ignored_msgs ORDER BY topic, msgid;
		SELECT * FROM ignored_topics ORDER BY topic"
}
for seed in 1 2 3; do
	W=$TMP/r$seed
	mkdir -p "$W"
	python3 tests/t053-incremental-random.py "$seed" "$W/all.mbox" ||
		fail "seed $seed: the archive could not be built"
	"$ONLIST" -q --db "$W/full.db" import --list l "$W/all.mbox" >/dev/null ||
		fail "seed $seed: import"
	"$ONLIST" -q --db "$W/full.db" match >/dev/null || fail "seed $seed: match"
	saved_dump "$W/full.db" >"$W/full.dump"
	[ "$(sqlite3 "$W/full.db" 'SELECT count(*) FROM ignored_topics WHERE answer > 0')" -gt 5 ] ||
		fail "seed $seed: too few answered topics (test bug)"
	np=$(python3 - "$seed" "$W/all.mbox" "$W/part" <<'PY'
import random, re, sys
rnd = random.Random(int(sys.argv[1]) * 104729)
data = open(sys.argv[2], "rb").read()
msgs = [m for m in re.split(rb"(?m)^(?=From mboxrd@z )", data) if m]
k = i = 0
while i < len(msgs):
    n = rnd.randint(1, 60)
    k += 1
    open("%s.%d" % (sys.argv[3], k), "wb").write(b"".join(msgs[i:i + n]))
    i += n
print(k)
PY
)
	k=1
	while [ "$k" -le "$np" ]; do
		"$ONLIST" -q --db "$W/parts.db" import --list l "$W/part.$k" >/dev/null ||
			fail "seed $seed: import part $k"
		"$ONLIST" -q --db "$W/parts.db" match >/dev/null ||
			fail "seed $seed: match after part $k"
		k=$((k + 1))
	done
	saved_dump "$W/parts.db" >"$W/parts.dump"
	same_output "seed $seed: $np slices" "$W/full.dump" "$W/parts.dump" ||
		{ diff "$W/full.dump" "$W/parts.dump" | head -10; bad "seed $seed: saved rows of slices differ from one import"; }
done

[ $nfail -eq 0 ] && echo "all checks passed"
[ $nfail -eq 0 ]
