#!/bin/sh
# onlist update: fetch every remembered source, scan the branches `git
# config onlist.repo`/`onlist.branch` name, match; one line per stage.
# git is the oracle for the commits scanned (rev-list), and the database
# must hold what the three commands run by hand give.  A second run finds
# nothing new, says so and changes nothing; a source that fails makes the
# exit 1 while the scan and the match still run.
. tests/lib.sh
need_cmd git
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
sh fixtures/make-fixtures.sh "$FX" >"$TMP/fixture.log" 2>&1 ||
	{ cat "$TMP/fixture.log"; fail "the fixture could not be built"; }
R=$FX/repo
git -C "$R" branch weekly v1.0
export GIT_CONFIG_GLOBAL=$TMP/gitconfig
git config --global --add onlist.repo "$R"
git config --global --add onlist.branch weekly

# the database's content, less what records when a source was last read
dump() { sqlite3 "$1" .dump | grep -v "^INSERT INTO source_state VALUES(.*,'fetched'," ; }
nomerge() { git -C "$R" rev-list --no-merges --count "$@"; }

run fetch "$ONLIST" --db "$DB" fetch --list fixture "$FX/list.mbox"
expect_rc fetch 0

# ---- first run: the branch up to v1.0 ---------------------------------------
run update1 "$ONLIST" --db "$DB" update
expect_rc update1 0
[ "$(wc -l <"$TMP/out")" -eq 3 ] || bad "update: $(wc -l <"$TMP/out") lines, expected one per stage"
grep -q "^fetch: 1 source, nothing new$" "$TMP/out" || bad "update1: fetch line"
grep -q "^scan: 1 branch of 1 repository, $(nomerge v1.0) new commits$" "$TMP/out" ||
	bad "update1: scan should find the $(nomerge v1.0) commits of v1.0"
grep -q "^match: " "$TMP/out" || bad "update1: no match line"

# ---- the branch moves to v1.1: only what is new is scanned --------------------
git -C "$R" branch -f weekly v1.1
run update2 "$ONLIST" --db "$DB" update
expect_rc update2 0
grep -q "^scan: 1 branch of 1 repository, $(nomerge v1.0..v1.1) new commits$" "$TMP/out" ||
	bad "update2: scan should find the $(nomerge v1.0..v1.1) commits of v1.0..v1.1"

# the same as the commands by hand
run byhand "$ONLIST" -q --db "$TMP/hand.db" fetch --list fixture "$FX/list.mbox"
"$ONLIST" -q --db "$TMP/hand.db" scan --repo "$R" v1.0 >/dev/null &&
"$ONLIST" -q --db "$TMP/hand.db" scan --repo "$R" v1.0..v1.1 >/dev/null &&
"$ONLIST" -q --db "$TMP/hand.db" match >/dev/null || bad "the commands by hand failed"
"$ONLIST" --db "$DB" unposted --json v1.1 >"$TMP/u.update" || bad "unposted (update)"
"$ONLIST" --db "$TMP/hand.db" unposted --json v1.1 >"$TMP/u.hand" || bad "unposted (by hand)"
[ -s "$TMP/u.hand" ] || bad "unposted by hand printed nothing"
same_output "unposted after update vs by hand" "$TMP/u.hand" "$TMP/u.update" || nfail=$((nfail + 1))

# ---- again: nothing new, said, nothing changed ---------------------------------
dump "$DB" >"$TMP/before"
run update3 "$ONLIST" --db "$DB" update
expect_rc update3 0
[ "$(grep -c "nothing new" "$TMP/out")" -eq 3 ] ||
	bad "update3: every stage should say 'nothing new'"
dump "$DB" >"$TMP/after"
same_output "the database after a run with nothing new" "$TMP/before" "$TMP/after" ||
	nfail=$((nfail + 1))

# ---- -q: nothing on stdout -------------------------------------------------------
run quiet "$ONLIST" --db "$DB" update -q
expect_rc quiet 0
[ -s "$TMP/out" ] && bad "update -q printed on stdout"

# ---- a source that fails: exit 1, and the scan and the match still run ---------
run fetch2 "$ONLIST" --db "$DB" fetch --list other "$FX/list.maildir"
expect_rc fetch2 0
mv "$FX/list.maildir" "$TMP/gone"
git -C "$R" branch -f weekly next
new=$(nomerge v1.1..next)
[ "$new" -gt 0 ] || fail "the fixture's next branch has no commit past v1.1"
run failing "$ONLIST" --db "$DB" update
expect_rc failing 1
grep -q "list.maildir" "$TMP/err" || bad "failing: the source that failed is not named"
grep -q "^fetch: 2 sources, .*(failed)$" "$TMP/out" || bad "failing: the fetch line does not say it failed"
grep -q "^scan: 1 branch of 1 repository, $new new commits$" "$TMP/out" ||
	bad "failing: the scan did not run after the failed fetch"
grep -q "^match: " "$TMP/out" || bad "failing: the match did not run"
mv "$TMP/gone" "$FX/list.maildir"

# ---- --repo/--branch instead of the configuration; a branch git does not know --
git -C "$R" checkout -q -B extra next || fail "git checkout"
echo "one more line" >"$R/weekly-file"
git -C "$R" add weekly-file && git -C "$R" commit -q -m "Add a file after next" ||
	fail "git commit"
run badbranch "$ONLIST" --db "$DB" update --repo "$R" --branch nosuch --branch extra
expect_rc badbranch 1
grep -q "nosuch" "$TMP/err" || bad "badbranch: the unknown branch is not named"
grep -q "^scan: 2 branches of 1 repository, $(nomerge next..extra) new commit (1 failed)$" "$TMP/out" ||
	bad "badbranch: extra should still be scanned"

# no repository at all: said, the other stages still run
: >"$TMP/empty"
GIT_CONFIG_GLOBAL=$TMP/empty run norepo "$ONLIST" --db "$DB" update
expect_rc norepo 1
grep -q "onlist.repo" "$TMP/err" || bad "norepo: does not say how to configure a repository"
grep -q "^match: " "$TMP/out" || bad "norepo: the match did not run"

# onlist.scanFrom: a branch never scanned starts after it, not at the root
git config --global onlist.scanFrom v1.0
git -C "$R" branch -f weekly v1.1
run scanfrom "$ONLIST" --db "$TMP/from.db" update
expect_rc scanfrom 0
grep -q "^scan: 1 branch of 1 repository, $(nomerge v1.0..v1.1) new commits$" "$TMP/out" ||
	bad "scanfrom: should scan the $(nomerge v1.0..v1.1) commits of v1.0..v1.1"

[ $nfail -eq 0 ]
