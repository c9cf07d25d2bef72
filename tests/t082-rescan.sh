#!/bin/sh
# Rescans: a scan of a range already scanned lists it and does nothing else
# (no diff, no landing walk, no row written); a scan whose tip moved along
# its first-parent line diffs the new commits and walks only the new part;
# and however a range was reached (a shorter one first, another range
# first, a tip merged as a second parent, an excluded branch merged later,
# a shallow clone made deeper),
# the commits, their patch-ids, trailers and landings are those of one
# scan of the range into an empty database.  A `git` first on PATH logs
# every git onlist starts.
. tests/lib.sh
need_cmd git
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

TRAILER="Signed-off-by: Tester <tester@example.org>"
landing_repo

# v0 - a1 - a2 (v1) - a3 - M(t1) (v2) - M(side) - a4 - M(t2) (v3) - a5 - M(t3) (v4)
#       \- s1 - s2 (side)        t3: t3a - t3b, from v3 (tip t3)
topic() {	# topic NAME FILE...: a branch off main, a commit a file
	git -C "$R" checkout -q -b "$1"; shift
	for f; do commit "$f"; done
	git -C "$R" checkout -q main
}

commit base; git -C "$R" tag v0
commit a1; topic side s1 s2
commit a2; git -C "$R" tag v1
topic t1 t1a t1b
commit a3; merge t1; git -C "$R" tag v2
merge side; commit a4; topic t2 t2a
merge t2; git -C "$R" tag v3
topic t3 t3a t3b
commit a5; merge t3; git -C "$R" tag v4

# every git onlist starts, one line each
real_git=$(command -v git)
mkdir "$TMP/bin"
cat >"$TMP/bin/git" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >>"$TMP/git.log"
exec "$real_git" "\$@"
EOF
chmod +x "$TMP/bin/git"
PATH=$TMP/bin:$PATH
export ONLIST_TIMING=1

dump() {	# dump DB: the tables a scan writes, rows sorted
	for tb in commits commit_patch trailers landing commit_skipped; do
		sqlite3 "$1" ".dump $tb" | sort
	done
}
scan() {	# scan DB RANGE
	: >"$TMP/git.log"
	run "scan $2" "$ONLIST" --db "$1" scan --repo "$R" "$2"
	expect_rc "scan $2" 0
}
# did LABEL WHAT: the timing line of the last scan says WHAT
did() {
	grep -q "^timing: scan: $2" "$TMP/err" ||
		bad "$1: expected '$2', got: $(grep 'listed' "$TMP/err")"
}
# once RANGE: a scan of RANGE into an empty database, dumped in $TMP/want
once() {
	rm -f "$TMP/once.db"
	scan "$TMP/once.db" "$1"
	did "$1 into an empty database" \
		"[0-9]* commits listed, [0-9]* diffed; landings: the whole range walked"
	dump "$TMP/once.db" >"$TMP/want"
}
same() {	# same LABEL DB: DB holds what one scan into an empty one does
	dump "$2" >"$TMP/got"
	same_output "$1" "$TMP/want" "$TMP/got" || bad "$1: not what one scan gives"
}

# a shorter range, then the longer one: the new part alone is walked
once v1..v3
DB=$TMP/a.db
scan "$DB" v1..v2
scan "$DB" v1..v3
did "v1..v2 then v1..v3" "7 commits listed, 4 diffed; landings: the new part walked, 4 written"
same "v1..v2 then v1..v3" "$DB"
grep -q -- "--first-parent --parents [0-9a-f]*\.\.[0-9a-f]* --$" "$TMP/git.log" ||
	bad "v1..v3 after v1..v2: the new part was not what was walked"

# the same range again: listed, nothing diffed, nothing walked or written
sqlite3 "$DB" .dump >"$TMP/before"
scan "$DB" v1..v3
did "rescan" "7 commits listed, 0 diffed; landings: kept, 0 written"
sqlite3 "$DB" .dump >"$TMP/after"
same_output "rescan" "$TMP/before" "$TMP/after" || bad "a rescan changed the database"
# one rev-list, one rev-parse, and the inbox probe's name-only diff of
# the newest commits; no diff -p, no landing walk
grep -q " rev-list --no-merges " "$TMP/git.log" || bad "rescan: no rev-list"
for w in " -p " "--first-parent" "--parents" " log "; do
	! grep -q -- "$w" "$TMP/git.log" ||
		bad "rescan ran a git with '$w': $(grep -- "$w" "$TMP/git.log")"
done
n=$(wc -l <"$TMP/git.log")
[ "$n" -eq 3 ] || bad "rescan started $n gits, expected 3: $(cat "$TMP/git.log")"
# with nothing new, `update`'s scan of the same branch is still nothing
scan "$DB" v3..v3
did "an empty range" "0 commits listed, 0 diffed"

# an excluded branch that the new part merges: its commits are not the
# range's, though a walk of the new part meets them
once side..v3
DB=$TMP/b.db
scan "$DB" side..v2
scan "$DB" side..v3
did "side..v2 then side..v3" "[0-9]* commits listed, [0-9]* diffed; landings: the new part walked"
same "side..v2 then side..v3" "$DB"

# a tip that the new tip merged as its second parent: the landings of
# t3's commits change (a merge brings them now), so the whole is walked
once v3..v4
DB=$TMP/c.db
scan "$DB" v3..t3
scan "$DB" v3..v4
did "v3..t3 then v3..v4" "[0-9]* commits listed, [0-9]* diffed; landings: the whole range walked"
same "v3..t3 then v3..v4" "$DB"

# another range between two scans of one: the last range scanned decides
once v0..v4
DB=$TMP/d.db
scan "$DB" v0..v4
scan "$DB" v3..t3
scan "$DB" v0..v4
did "v0..v4, v3..t3, v0..v4" "[0-9]* commits listed, 0 diffed; landings: the whole range walked"
same "v0..v4, v3..t3, v0..v4" "$DB"
# a branch rewound and grown again elsewhere: not on the line, walked whole
git -C "$R" branch -q moving v2
scan "$DB" v0..moving
git -C "$R" branch -q -f moving side
scan "$DB" v0..moving
did "a rewound branch" "[0-9]* commits listed, 0 diffed; landings: the whole range walked"

# a shallow clone made deeper: the same tip, more commits behind it; the
# range is not what it was, and is walked whole
S=$TMP/shallow
git clone -q --depth 2 --branch main "file://$R" "$S" 2>/dev/null ||
	fail "cannot make a shallow clone"
DB=$TMP/e.db
: >"$TMP/git.log"
run "scan shallow" "$ONLIST" --db "$DB" scan --repo "$S" HEAD
git -C "$S" fetch -q --deepen=3 origin main 2>/dev/null || fail "cannot deepen"
run "scan deeper" "$ONLIST" --db "$DB" scan --repo "$S" HEAD
expect_rc "scan deeper" 0
did "a deeper clone" "[0-9]* commits listed, [0-9]* diffed; landings: the whole range walked"
# (the landings only: a commit that was the shallow clone's boundary was
# diffed as a root, and a stored commit is not diffed again)
rm -f "$TMP/once.db"
run "scan deeper once" "$ONLIST" --db "$TMP/once.db" scan --repo "$S" HEAD
sqlite3 "$TMP/once.db" ".dump landing" | sort >"$TMP/want"
sqlite3 "$DB" ".dump landing" | sort >"$TMP/got"
same_output "a deeper clone" "$TMP/want" "$TMP/got" ||
	bad "a deeper clone: not the landings one scan gives"
[ $nfail -eq 0 ]
