#!/bin/sh
# `onlist scan` against `git format-patch | git patch-id --stable` on a
# generated history: every non-merge commit must get the patch-id of its own
# format-patch mail, and commits with an empty diff none.  With
# ONLIST_TIMING=1 the scan prints its own CPU time and its gits'.
#
# The history has >= 300 commits, the same on every run with a given awk
# (a fixed seed, fixed dates): text edits, renames with and without edits,
# binary files added, changed and deleted, mode changes, deletions,
# whitespace-only changes, files without a final newline, names with spaces
# and non-ASCII bytes, empty commits, and a merged side branch.
. tests/lib.sh
need_onlist
need_cmd git
need_cmd sqlite3
make_tmp
isolate_git

repo=$TMP/repo
git init -q -b main "$repo" || fail "git init"
cd "$repo" || fail "cd $repo"

n=0
commit() {
	n=$((n + 1))
	d="@$((1600000000 + n * 60)) +0000"
	# a step that happens to change nothing still makes a commit
	GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d git commit -q --allow-empty "$@" ||
		fail "commit $n"
}

# A small deterministic generator (an LCG): `rnd N` sets r to 0..N-1.
seed=12345
rnd() {
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	r=$(( (seed / 65536) % $1 ))
}

# text FILE LINES: a file of numbered lines of C-ish text.
text() {
	awk -v n="$2" -v s="$seed" 'BEGIN {
		srand(s)
		for (i = 1; i <= n; i++) {
			if (i % 7 == 0) print ""
			else if (i % 5 == 0) printf "\tif (x%d) {\n\t\tcall(%d);\n\t}\n", i, i
			else printf "line %d of %d: %d\n", i, n, int(rand() * 1000)
		}
	}' >"$1"
}

# edit FILE: change, insert and delete a few lines in place.
edit() {
	[ -f "$1" ] || return 0
	rnd 1000
	awk -v s="$r" 'BEGIN { srand(s) } {
		x = rand()
		if (x < 0.05) next
		if (x < 0.10) { print "changed " $0 " " s; next }
		if (x < 0.13) print "inserted before " NR
		print
	}' "$1" >"$1.new" && mv "$1.new" "$1"
}

binary() {
	rnd 100000
	awk -v s="$r" 'BEGIN { srand(s); for (i = 0; i < 200; i++) printf "%c", int(rand() * 256) }' \
		| LC_ALL=C tr -d '\n' >"$1"
	printf '\000\001\002' >>"$1"
}

mkdir -p src doc bin
for i in 1 2 3 4 5 6 7 8; do text "src/f$i.c" $((20 + i * 7)); done
printf 'no newline at the end' >doc/nonl.txt
binary bin/blob1.bin
text "doc/with space.txt" 12
text "$(printf 'doc/caf\303\251.txt')" 9
git add -A && commit -m "Initial import"

i=0
while [ $n -lt 330 ]; do
	i=$((i + 1))
	files=$(git -c core.quotePath=false ls-files)
	nfiles=$(echo "$files" | wc -l)
	rnd "$nfiles"
	f=$(echo "$files" | sed -n "$((r + 1))p")
	rnd 20
	case $r in
	0 | 1 | 2 | 3 | 4 | 5)
		case $f in *.bin) binary "$f" ;; *) edit "$f" ;; esac
		git add -A && commit -m "Edit $f ($i)" -m "Why: step $i of the test history."
		;;
	6)
		# pure rename
		new=$(dirname "$f")/r$i-$(basename "$f")
		git mv "$f" "$new" && commit -m "Rename $f ($i)"
		;;
	7)
		# rename with an edit, often still similar enough to pair
		new=src/m$i.c
		git mv "$f" "$new"
		case $f in *.bin) binary "$new" ;; *) edit "$new" ;; esac
		git add -A && commit -m "Move and edit $f ($i)"
		;;
	8)
		chmod +x "$f" 2>/dev/null
		git update-index --chmod=+x "$f"
		commit -m "Make $f executable ($i)"
		;;
	9)
		git update-index --chmod=-x "$f"
		commit -m "Make $f not executable ($i)"
		;;
	10)
		[ "$nfiles" -gt 6 ] || continue
		git rm -q "$f" && commit -m "Delete $f ($i)"
		;;
	11)
		# whitespace only: trailing blanks and tab/space swaps
		case $f in *.bin) continue ;; esac
		sed -e 's/$/  /' -e 's/\t/    /' "$f" >"$f.new" && mv "$f.new" "$f"
		git add -A && commit -m "Whitespace in $f ($i)"
		;;
	12)
		# take away or give back the final newline
		case $f in *.bin) continue ;; esac
		if [ -n "$(tail -c 1 "$f")" ]; then echo >>"$f"
		else printf '%s' "$(cat "$f")" >"$f.tmp" && mv "$f.tmp" "$f"; fi
		git add -A && commit -m "Final newline of $f ($i)"
		;;
	13)
		binary "bin/b$i.bin"
		git add -A && commit -m "Add binary b$i ($i)"
		;;
	14)
		text "src/n$i.c" $((5 + i % 40))
		edit "$f"
		git add -A && commit -m "Add n$i.c and touch $f ($i)" \
			-m "Signed-off-by: Tester <tester@example.org>"
		;;
	15)
		commit -m "Empty commit $i" \
			-m "Signed-off-by: Tester <tester@example.org>"
		;;
	16)
		# copy-like: a new file equal to an old one, plus an edit elsewhere
		cp "$f" "src/copy$i" && edit src/f1.c
		git add -A && commit -m "Copy $f ($i)"
		;;
	*)
		# several files at once
		for g in $(echo "$files" | grep '^src/' | head -n 3); do edit "$g"; done
		git add -A && commit -m "Edit several files ($i)"
		;;
	esac
	if [ $i -eq 150 ]; then
		git checkout -q -b side HEAD~5 || fail "branch"
		text src/side.c 30 && git add -A && commit -m "Side: add side.c"
		edit src/side.c && git add -A && commit -m "Side: edit side.c"
		git checkout -q main
		d="@$((1600000000 + n * 60 + 30)) +0000"
		GIT_AUTHOR_DATE=$d GIT_COMMITTER_DATE=$d \
			git merge -q --no-ff -m "Merge side" side || fail "merge"
	fi
done
cd - >/dev/null || fail "cd back"

total=$(git -C "$repo" rev-list --count --no-merges HEAD)
[ "$total" -ge 300 ] || fail "only $total commits generated"

git -C "$repo" format-patch --stdout --root HEAD >"$TMP/mbox" ||
	fail "git format-patch"
# say what the history exercises, so a generator change that loses a
# feature shows in the log
echo "format-patch: $(grep -c '^rename from' "$TMP/mbox") renames," \
	"$(grep -c '^GIT binary patch' "$TMP/mbox") binary diffs," \
	"$(grep -c '^new mode' "$TMP/mbox") mode changes," \
	"$(grep -c '^deleted file mode' "$TMP/mbox") deletions," \
	"$(grep -c '^\\ No newline at end of file' "$TMP/mbox") missing final newlines"
git patch-id --stable <"$TMP/mbox" | sort >"$TMP/want" || fail "git patch-id"
t0=$(date +%s)
ONLIST_TIMING=1 "$ONLIST" --db "$TMP/db" scan --repo "$repo" HEAD >"$TMP/scan.out" 2>&1 ||
	{ cat "$TMP/scan.out"; fail "onlist scan"; }
echo "onlist scan: $(($(date +%s) - t0)) s"
# ONLIST_TIMING=1: onlist's CPU time and its gits' apart (bench/patchid.sh
# reads this line); the gits diffed every commit, which takes CPU time
grep -E '^timing: scan: onlist [0-9]+\.[0-9]{2} s CPU, its gits [0-9]+\.[0-9]{2} s CPU$' \
	"$TMP/scan.out" >"$TMP/timing" || { cat "$TMP/scan.out"; fail "no timing line"; }
awk '{ exit !($9 > 0) }' "$TMP/timing" || fail "the gits took no CPU time: $(cat "$TMP/timing")"
cat "$TMP/timing"
sqlite3 "$TMP/db" "select patch_id||' '||sha from commits where patch_id is not null order by 1" \
	| sort >"$TMP/got" || fail "sqlite3"
empty=$(sqlite3 "$TMP/db" "select count(*) from commits where patch_id is null")
scanned=$(sqlite3 "$TMP/db" "select count(*) from commits")

echo "$total commits, $scanned scanned, $(wc -l <"$TMP/want") with a patch-id, $empty without"
[ "$scanned" -eq "$total" ] || fail "scanned $scanned of $total commits"
same_output "patch-ids" "$TMP/want" "$TMP/got" ||
	fail "onlist scan and git format-patch | git patch-id differ"
echo "identical"
