#!/bin/sh
# A repository with objects missing: a snapshot that lacks some blobs, a
# partial clone whose promisor remote cannot send them.  `onlist scan`
# stores every commit all the same and exits 0: a commit whose diff git
# cannot make is stored without a patch-id and recorded in commit_skipped
# with git's message and the object it names; the scan's summary counts
# it, `onlist skipped --commits` lists it, `onlist unposted` marks it
# [not diffed], and `onlist match` leaves it to the tiers that need no diff.
# Every other commit gets the patch-id `git log -p | git patch-id --stable`
# gives it in the intact repository, and scanning again changes nothing.
#
# The history: 12 commits, each adding or changing one file with content
# no other commit has, so that removing the blob a commit wrote breaks
# that commit alone (commit 7 changes the file of commit 2, whose blob is
# never removed).  The snapshot is a copy of .git made
# bare (no work tree git could take a missing blob's text from), its
# objects loose (nothing here packs them), so one rm removes one blob.
# Commits are broken in the middle of a git's share (one, and --jobs 1, 2,
# 3), then at the edges of the shares of --jobs 2 and 3 (the newest, the
# oldest, two neighbours): a git dies on each, and the next one must take
# over exactly after it.  A partial clone (--filter=blob:none) whose remote
# is there fetches lazily as git does; one whose remote is gone skips
# every commit, each with git's reason.
. tests/lib.sh
need_cmd git
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

q() { sqlite3 "$1" "$2"; }

R=$TMP/repo
git init -q -b main "$R" || fail "git init"
git -C "$R" config gc.auto 0		# keep every object loose
git -C "$R" config uploadpack.allowFilter true	# for the partial clones
n=0
commit() {	# commit FILE TEXT [TRAILER]
	n=$((n + 1))
	d="@$((1600000000 + n * 3600)) +0000"
	printf '%s\n' "$2" >>"$R/$1"
	git -C "$R" add "$1" || fail "git add"
	GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d \
		git -C "$R" commit -q -m "Change $1 ($n)" ${3:+-m "$3"} || fail "commit $n"
}
for i in 1 2 3 4 5 6; do
	commit "f$i.txt" "file $i, first line"
done
# changes what commit 2 added; the Link is all that can match it once
# its blob is gone
commit f2.txt "file 2, a line of commit 7" "Link: https://lore.kernel.org/r/c7@example.org"
for i in 8 9 10 11 12; do
	commit "f$i.txt" "file $i, first line"
done

# newest first, as the scan diffs them: pos 0 is commit 12, pos 11 commit 1
git -C "$R" rev-list main >"$TMP/order"
[ "$(wc -l <"$TMP/order")" -eq 12 ] || fail "expected 12 commits"
at() { sed -n "$(($1 + 1))p" "$TMP/order"; }
# the blob commit at position $1 wrote (its file's new text)
blob_of() {
	c=$(at "$1")
	git -C "$R" rev-parse "$c:$(git -C "$R" diff-tree --no-commit-id --name-only -r --root "$c")"
}

# git's patch-ids in the intact repository: "patch-id commit" lines
git -C "$R" log -p main | git patch-id --stable >"$TMP/git-ids" || fail "git patch-id"
[ "$(wc -l <"$TMP/git-ids")" -eq 12 ] || fail "git gave $(wc -l <"$TMP/git-ids") patch-ids for 12 commits"

# snapshot NAME POS...: a bare copy of the repository without the blobs of
# the commits at those positions; $TMP/NAME.broken lists those commits
snapshot() {
	s=$TMP/$1.git
	shift
	cp -R "$R/.git" "$s" && git -C "$s" config core.bare true || fail "copy to $s"
	: >"$s.broken"
	for p in "$@"; do
		b=$(blob_of "$p")
		f="$s/objects/$(echo "$b" | cut -c1-2)/$(echo "$b" | cut -c3-)"
		[ -f "$f" ] || fail "blob $b of position $p is not a loose object"
		rm -f "$f"
		! git -C "$s" cat-file -e "$b" 2>/dev/null || fail "blob $b still readable"
		echo "$(at "$p") $b" >>"$s.broken"
	done
}

# check LABEL DB BROKEN-LIST: what a scan of a damaged repository must leave
check() {
	label=$1 db=$2 broken=$3
	[ "$(q "$db" 'SELECT count(*) FROM commits')" -eq 12 ] ||
		bad "$label: $(q "$db" 'SELECT count(*) FROM commits') commits stored, not 12"
	# git's patch-id for every intact commit, none for a broken one
	awk 'FILENAME == ARGV[1] { broken[$1] = 1; next }
	     { print $2 "|" (($2 in broken) ? "" : $1) }' "$broken" "$TMP/git-ids" |
		sort >"$TMP/want-ids"
	q "$db" "SELECT sha || '|' || coalesce(patch_id, '') FROM commits ORDER BY sha" \
		>"$TMP/got-ids"
	same_output "$label: sha|patch-id (< git, > onlist)" "$TMP/want-ids" "$TMP/got-ids" ||
		bad "$label: patch-ids differ from git's"
	# one commit_skipped row per broken commit, naming the blob
	sort "$broken" >"$TMP/want-skip"
	q "$db" "SELECT sha || ' ' || coalesce(object, '-') FROM commit_skipped ORDER BY sha" \
		>"$TMP/got-skip"
	same_output "$label: skipped commit and object (< removed, > recorded)" \
		"$TMP/want-skip" "$TMP/got-skip" || bad "$label: wrong commits recorded as skipped"
	while read -r c b; do
		r=$(q "$db" "SELECT reason FROM commit_skipped WHERE sha = '$c'")
		case $r in *"$b"*) ;; *) bad "$label: reason for $c does not name $b: $r" ;; esac
		# the header is stored all the same
		s=$(q "$db" "SELECT subject || '|' || author_email || '|' || commit_date || '|' || files FROM commits WHERE sha = '$c'")
		w=$(git -C "$R" log -1 --format='%s|%ae|%ct|' "$c")$(git -C "$R" diff-tree --no-commit-id --name-only -r --root "$c")
		[ "$s" = "$w" ] || bad "$label: $c stored as '$s', git says '$w'"
	done <"$broken"
}

# ---- one blob missing, in the middle of a share -------------------------
snapshot one 5
for jobs in 1 2 3; do
	db=$TMP/one-$jobs.db
	run "one, --jobs $jobs: scan" "$ONLIST" --db "$db" scan --repo "$TMP/one.git" --jobs "$jobs" main
	expect_rc "one, --jobs $jobs: scan" 0
	grep -q '^main: 12 new commits, 1 of them skipped' "$TMP/out" ||
		bad "one, --jobs $jobs: the summary does not count the skipped commit"
	check "one, --jobs $jobs" "$db" "$TMP/one.git.broken"
done
db=$TMP/one-2.db
read -r broken blob <"$TMP/one.git.broken"

run "one: skipped --commits" "$ONLIST" --db "$db" skipped --commits
expect_rc "one: skipped --commits" 0
[ "$(wc -l <"$TMP/out")" -eq 1 ] && grep -q "^$broken: fatal: .*$blob" "$TMP/out" ||
	bad "one: skipped --commits does not list $broken with the blob"
run "one: skipped --commits --json" "$ONLIST" --db "$db" skipped --commits --json
expect_rc "one: skipped --commits --json" 0
grep -q "\"commit\": \"$broken\", \"object\": \"$blob\"" "$TMP/out" ||
	bad "one: skipped --commits --json does not give the commit and object"

# no message yet: every commit is "unknown" (not looked for), listed
# after the count only with --include-unknown
run "one: unposted" "$ONLIST" --db "$db" unposted --include-unknown
expect_rc "one: unposted" 0
[ "$(grep -c '^[0-9a-f]\{12\} ' "$TMP/out")" -eq 12 ] ||
	bad "one: unposted lists $(grep -c '^[0-9a-f]\{12\} ' "$TMP/out") commits, not 12"
short=$(echo "$broken" | cut -c1-12)
[ "$(grep -c ' \[not diffed\]$' "$TMP/out")" -eq 1 ] &&
	grep -q "^$short .* \[not diffed\]$" "$TMP/out" ||
	bad "one: unposted does not mark $short alone [not diffed]"
run "one: unposted --json" "$ONLIST" --db "$db" unposted --json --include-unknown
expect_rc "one: unposted --json" 0
[ "$(grep -c '"not_diffed": null' "$TMP/out")" -eq 11 ] &&
	grep -q "\"commit\": \"$broken\".*\"not_diffed\": \"fatal: [^\"]*$blob" "$TMP/out" ||
	bad "one: unposted --json does not give $broken alone a not_diffed reason"

run "one: scan --json" "$ONLIST" --db "$TMP/one-json.db" scan --repo "$TMP/one.git" --json main
expect_rc "one: scan --json" 0
grep -q '"new_commits": 12, "skipped_commits": 1}' "$TMP/out" ||
	bad "one: scan --json does not count the skipped commit"

# the other tiers run: match diffs the unmatched commits again, but not
# the one git cannot diff, which its Link: trailer matches to its posting
git -C "$R" format-patch -1 --stdout --add-header='Message-ID: <c7@example.org>' \
	"$broken" >"$TMP/c7.mbox" || fail "format-patch"
"$ONLIST" -q --db "$db" import --list test "$TMP/c7.mbox" >/dev/null || bad "one: import"
run "one: match" "$ONLIST" --db "$db" match --repo "$TMP/one.git"
expect_rc "one: match" 0
[ "$(q "$db" "SELECT count(*) FROM commit_patch")" -eq 11 ] ||
	bad "one: match diffed $(q "$db" "SELECT count(*) FROM commit_patch") commits, not the 11 intact ones"
[ "$(q "$db" "SELECT commit_sha || ' ' || message_id || ' ' || method FROM matches")" = \
	"$broken c7@example.org link" ] || bad "one: the Link: trailer did not match $broken"
run "one: unposted after match" "$ONLIST" --db "$db" unposted --include-unknown
[ "$(grep -c '^[0-9a-f]\{12\} ' "$TMP/out")" -eq 11 ] && ! grep -q "not diffed" "$TMP/out" ||
	bad "one: $broken is still unposted after its Link: matched"

# scanning again: nothing new, nothing changed
q "$TMP/one-1.db" .dump >"$TMP/dump1"
run "one: scan again" "$ONLIST" --db "$TMP/one-1.db" scan --repo "$TMP/one.git" main
expect_rc "one: scan again" 0
grep -q '^main: 0 new commits$' "$TMP/out" || bad "one: the second scan found new commits"
q "$TMP/one-1.db" .dump >"$TMP/dump2"
same_output "one: the database after a second scan (< first, > second)" \
	"$TMP/dump1" "$TMP/dump2" || bad "one: a second scan changed the database"

# ---- at the edges of the shares ------------------------------------------
# --jobs 2 shares 0-5 and 6-11; --jobs 3 shares 0-3, 4-7, 8-11
snapshot edges 0 3 4 5 6 11
for jobs in 2 3; do
	db=$TMP/edges-$jobs.db
	run "edges, --jobs $jobs: scan" "$ONLIST" --db "$db" scan --repo "$TMP/edges.git" --jobs "$jobs" main
	expect_rc "edges, --jobs $jobs: scan" 0
	grep -q '^main: 12 new commits, 6 of them skipped' "$TMP/out" ||
		bad "edges, --jobs $jobs: the summary does not count 6 skipped commits"
	check "edges, --jobs $jobs" "$db" "$TMP/edges.git.broken"
done

# ---- partial clones -----------------------------------------------------
P=$TMP/partial.git
git clone -q --bare --filter=blob:none "file://$R" "$P" 2>"$TMP/clone.err" ||
	fail "partial clone: $(cat "$TMP/clone.err")"
run "partial: scan" "$ONLIST" --db "$TMP/partial.db" scan --repo "$P" main
expect_rc "partial: scan" 0
grep -q '^main: 12 new commits$' "$TMP/out" || bad "partial: a commit was skipped"
: >"$TMP/none"
check "partial (blobs fetched lazily)" "$TMP/partial.db" "$TMP/none"

G=$TMP/gone.git
git clone -q --bare --filter=blob:none "file://$R" "$G" 2>"$TMP/clone.err" ||
	fail "partial clone: $(cat "$TMP/clone.err")"
git -C "$G" config remote.origin.url "file://$TMP/no-such-repository"
run "partial, remote gone: scan" "$ONLIST" --db "$TMP/gone.db" scan --repo "$G" --jobs 2 main
expect_rc "partial, remote gone: scan" 0
grep -q '^main: 12 new commits, 12 of them skipped' "$TMP/out" ||
	bad "partial, remote gone: the summary does not count 12 skipped commits"
[ "$(q "$TMP/gone.db" 'SELECT count(*) FROM commits WHERE patch_id IS NULL')" -eq 12 ] ||
	bad "partial, remote gone: a commit has a patch-id"
[ "$(q "$TMP/gone.db" "SELECT count(*) FROM commit_skipped WHERE reason LIKE '%promisor%'
	AND length(object) = 40 AND instr(reason, object)")" -eq 12 ] ||
	bad "partial, remote gone: not every commit is recorded with git's reason and object"

[ $nfail -eq 0 ]
