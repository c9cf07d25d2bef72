#!/bin/sh
# Landing: for every non-merge commit of a range, the first-parent commit of
# the tip that brought it in, and when.  A repository with direct commits,
# --no-ff merges, a topic that merged another topic, a fast-forwarded topic
# and a merge of an old base is scanned; each landing onlist records is
# checked against git: the oldest commit of `git rev-list --first-parent TIP`
# that is in `git rev-list --ancestry-path X..TIP` (or X itself).
. tests/lib.sh
need_cmd git
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

DB=$TMP/onlist.db
landing_repo
commit base
git -C "$R" tag v1
commit a1 "direct one"
git -C "$R" checkout -q -b t1
commit t1a; commit t1b
git -C "$R" checkout -q main
commit a2 "direct two"
git -C "$R" checkout -q -b t2 v1		# forked at the old base
commit t2a
git -C "$R" checkout -q -b t3
commit t3a; commit t3b
git -C "$R" checkout -q t2
merge t3					# a topic merging a topic
commit t2b
git -C "$R" checkout -q main
merge t1
merge t2
git -C "$R" checkout -q -b t4
commit t4a
git -C "$R" checkout -q main
git -C "$R" merge -q --ff-only t4		# fast-forward: lands directly
git -C "$R" checkout -q -b t5
commit t5a
git -C "$R" checkout -q main
commit a3 "direct three"
git -C "$R" tag -a -m "Merge tag" t5tag t5
t=$((t + 3600))
GIT_COMMITTER_DATE="@$t +0000" GIT_AUTHOR_DATE="@$t +0000" \
	git -C "$R" merge -q --no-ff -m "Merge tag 't5tag' of git://example.org/t5" t5tag
commit a4
git -C "$R" tag v2

run scan "$ONLIST" --db "$DB" scan --repo "$R" v1..v2
expect_rc scan 0

# git's answer
git -C "$R" rev-list --first-parent v1..v2 >"$TMP/mainline"
: >"$TMP/want"
for x in $(git -C "$R" rev-list --no-merges v1..v2); do
	if grep -qx "$x" "$TMP/mainline"; then
		l=$x
	else
		l=$(git -C "$R" rev-list --ancestry-path "$x..v2" |
			grep -Fx -f - "$TMP/mainline" | tail -n 1)
	fi
	printf '%s|%s|%s|%s\n' "$x" "$(git -C "$R" log -1 --format=%ct "$l")" \
		"$l" "$(git -C "$R" log -1 --format=%s "$l")" >>"$TMP/want"
done
sort "$TMP/want" -o "$TMP/want"
sqlite3 "$DB" "SELECT sha, landed_date, merge_sha, merge_subject FROM landing ORDER BY sha" >"$TMP/got"
same_output landing "$TMP/want" "$TMP/got" || bad "landing table differs from git"
n=$(wc -l <"$TMP/want")
[ "$n" -eq 12 ] || bad "the test repository has $n non-merge commits, expected 12"
# the merges show in the table, and a direct commit names itself
grep -q "Merge branch 't2' of git://example.org/t2" "$TMP/got" || bad "no landing through the t2 merge"
grep -q "Merge tag 't5tag'" "$TMP/got" || bad "no landing through the tag merge"
[ "$(awk -F'|' '$1 == $3' "$TMP/got" | wc -l)" -eq 5 ] ||
	bad "expected 5 commits landing directly (a1 a2 t4a a3 a4), got $(awk -F'|' '$1 == $3' "$TMP/got" | wc -l)"

# scanning again changes nothing
sqlite3 "$DB" .dump >"$TMP/dump1"
run rescan "$ONLIST" --db "$DB" scan --repo "$R" v1..v2
expect_rc rescan 0
sqlite3 "$DB" .dump >"$TMP/dump2"
cmp -s "$TMP/dump1" "$TMP/dump2" || bad "a second scan changed the database"
[ $nfail -eq 0 ]
