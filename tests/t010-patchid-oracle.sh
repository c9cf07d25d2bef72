#!/bin/sh
# `onlist patch-id` against `git patch-id` (the oracle) on the diffs of a
# generated repository: many commits of every kind git patch-id treats
# specially (renames, copies, mode changes, binary files, missing final
# newlines, CRLF, whitespace-only edits, empty commits, merges, tricky commit
# messages), in the output of git log -p, format-patch and diff-tree.
#
# ONLIST_T010_COMMITS (default 340) and ONLIST_T010_SEED (default 1) vary it.
. tests/lib.sh
need_cmd git
need_cmd awk
need_onlist
make_tmp
isolate_git

ncommits=${ONLIST_T010_COMMITS:-340}
seed=${ONLIST_T010_SEED:-1}
top=$(pwd)
repo=$TMP/repo

# Deterministic pseudo-random numbers: rand N sets r to 0..N-1.
rand() {
	seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
	r=$(( (seed / 65536) % $1 ))
}

# Random text lines, some of them things patch-id looks at.
gen_text() {	# gen_text SEED NLINES
	awk -v seed="$1" -v n="$2" 'BEGIN {
		srand(seed)
		split("alpha beta gamma delta int return if else while static", w, " ")
		for (i = 0; i < n; i++) {
			k = int(rand() * 30)
			if (k == 0) print ""
			else if (k == 1) print "\tindented(" i ");"
			else if (k == 2) print "@@ -1,2 +3,4 @@ not a hunk " i
			else if (k == 3) print "diff --git a/fake b/fake " i
			else if (k == 4) print "    spaces   inside  \t " i
			else if (k == 5) printf "vt\vff\f%d\n", i
			else if (k == 6) print "--- looks like a header " i
			else if (k == 7) print "\\ No newline at end of file"
			else if (k == 8) print "commit 0123456789abcdef0123456789abcdef01234567"
			else if (k == 9) printf "trailing %d   \n", i
			else if (k == 10) printf "high \303\251\377 bytes %d\n", i
			else {
				line = w[1 + int(rand() * 10)]
				m = int(rand() * 8)
				for (j = 0; j < m; j++) line = line " " w[1 + int(rand() * 10)]
				print line " " i
			}
		}
	}'
}

# Edit a text file in place: replace, delete and insert a few lines.
edit_text() {	# edit_text FILE SEED
	awk -v seed="$2" 'BEGIN { srand(seed) }
	{
		x = rand()
		if (x < 0.06) next
		if (x < 0.12) { print "changed " int(rand() * 1000) " " $0; next }
		print
		if (x > 0.95) print "inserted " int(rand() * 1000)
	}
	END { if (NR == 0 || rand() < 0.3) print "appended " int(rand() * 1000) }' \
		"$1" >"$TMP/edit" && cat "$TMP/edit" >"$1"
}

pick_file() {	# pick_file PATTERN: a random tracked file in f, or nothing
	git -c core.quotepath=off ls-files -- "$1" >"$TMP/files"
	nf=$(wc -l <"$TMP/files")
	f=
	[ "$nf" -gt 0 ] || return 1
	rand "$nf"
	f=$(sed -n "$((r + 1))p" "$TMP/files")
}

messages() {	# a commit message; some trip up patch-id's log parsing
	rand 12
	head=$(git rev-parse -q --verify HEAD 2>/dev/null || echo 0123456789abcdef0123456789abcdef01234567)
	case $r in
	0) printf 'Backport fix %s\n\ncommit %s upstream.\n' "$i" "$head" ;;
	1) printf 'Mention diff %s\n\ndiff --git a/x b/x is quoted here\nmore text\n' "$i" ;;
	2) printf 'Hash line %s\n\n%s\n' "$i" "$(echo "$head" | tr a-f A-F)" ;;
	3) printf 'Separator %s\n\n---\n index 1..2 but indented\n' "$i" ;;
	4) printf 'Backslash %s\n\n\\ short\n\\ a much longer backslash line\n' "$i" ;;
	5) printf 'From line %s\n\nFrom %s Mon Sep 17 00:00:00 2001\n' "$i" "$head" ;;
	*) printf 'Change number %s\n\nSome explanation.\n' "$i" ;;
	esac
}

commit() { messages >"$TMP/msg"; git commit -q --allow-empty -F "$TMP/msg"; }

mkdir -p "$repo" && cd "$repo" && git init -q -b main . || fail "git init"
mkdir -p d1 d2/sub
for n in 1 2 3 4 5 6; do gen_text "$n" $((20 + n * 15)) >"d$((n % 2 + 1))/file$n.txt"; done
gen_text 7 40 | awk '{ printf "%s\r\n", $0 }' >crlf.txt
printf 'no final newline' >nonl.txt
printf 'BIN\000\001\002\003' >data.bin
ln -s d1/file2.txt link
i=0
git add -A && commit || fail "first commit"

i=1
while [ "$i" -le "$ncommits" ]; do
	rand 22
	case $r in
	0|1|2|3) # edit one to three text files
		rand 3; k=$((r + 1))
		while [ "$k" -gt 0 ]; do
			pick_file '*.txt' && edit_text "$f" "$seed"
			k=$((k - 1))
		done ;;
	4) # new file
		gen_text "$seed" $((seed % 60 + 1)) >"d2/sub/new$i.txt" ;;
	5) # rename with a small edit, or a pure rename
		if pick_file '*.txt'; then
			git mv "$f" "d$((i % 2 + 1))/ren$i.txt"
			rand 2; [ "$r" = 0 ] && edit_text "d$((i % 2 + 1))/ren$i.txt" "$seed"
		fi ;;
	6) # copy with a small edit (seen with -C)
		pick_file '*.txt' && cp "$f" "d1/copy$i.txt" && edit_text "d1/copy$i.txt" "$seed" ;;
	7) # mode change, alone or with an edit
		if pick_file '*.txt'; then
			if [ -x "$f" ]; then chmod -x "$f"; else chmod +x "$f"; fi
			rand 2; [ "$r" = 0 ] && edit_text "$f" "$seed"
		fi ;;
	8) # binary: new, or modified
		rand 2
		if [ "$r" = 0 ]; then
			{ printf 'BIN\000%s' "$i"; seq "$seed" $((seed + 300)); } >"bin$i.bin"
		elif pick_file '*.bin'; then
			{ printf '\000\377'; seq "$i" $((i + 50)); } >>"$f"
		fi ;;
	9) # final newline: drop or restore
		if pick_file '*.txt'; then
			if [ -n "$(tail -c 1 "$f")" ]; then echo >>"$f"
			else printf '%s' "$(cat "$f")" >"$TMP/edit"; cat "$TMP/edit" >"$f"; fi
		fi ;;
	10) # delete
		[ "$(git ls-files | wc -l)" -gt 8 ] && pick_file '*.txt' && git rm -q "$f" ;;
	11) # CRLF edits
		[ -f crlf.txt ] || printf 'crlf\r\n' >crlf.txt
		awk -v s="$seed" 'BEGIN{srand(s)} { if (rand() < 0.2) printf "crlf %d\r\n", int(rand()*99); print }' \
			crlf.txt >"$TMP/edit" && cat "$TMP/edit" >crlf.txt
		printf 'lf line %s\n' "$i" >>crlf.txt ;;
	12|13) # whitespace-only changes
		if pick_file '*.txt'; then
			awk -v s="$seed" 'BEGIN{srand(s)} {
				x = rand()
				if (x < 0.15) $0 = $0 "  "
				else if (x < 0.25) sub(/^    /, "\t")
				else if (x < 0.3) $0 = $0 "\r"
				else if (x < 0.35) gsub(/ /, "   ")
				print }' "$f" >"$TMP/edit" && cat "$TMP/edit" >"$f"
		fi ;;
	14) ;; # empty commit
	15) # several files touched, new ones too, deep paths
		for n in a b c; do gen_text "$seed$n" 5 >>"d2/multi-$n.txt"; done
		pick_file '*.txt' && edit_text "$f" "$seed" ;;
	16) # a merge of a short branch
		git checkout -q -b "topic$i"
		gen_text "$seed" 12 >"topic$i.txt" && git add -A && commit
		edit_text "topic$i.txt" "$seed" && git add -A && commit
		git checkout -q main
		gen_text "$i" 3 >>d1/file1.txt 2>/dev/null || true
		git add -A && commit
		git merge -q --no-ff -m "Merge topic$i" "topic$i" || fail "merge"
		i=$((i + 1)); continue ;;
	17) # symlink retarget
		ln -sfn "d2/new$i.txt" link ;;
	18) # one-line files: hunks without counts
		printf 'only %s\n' "$i" >"one.txt" ;;
	19) # file names with a space, and quoted paths
		printf 'spaced %s\n' "$i" >>"d1/with space.txt"
		printf 'tab %s\n' "$i" >>"d1/caf$(printf '\303\251').txt" ;;
	20) # a long line, beyond any small read buffer
		[ $((i % 5)) = 0 ] && awk -v n=$((120000 + i)) 'BEGIN { while (n-- > 0) printf "x%d", n % 10; print "" }' >long.txt ;;
	21) # empty file, then content
		if [ -f empty.txt ] && [ ! -s empty.txt ]; then echo filled >empty.txt; else : >empty.txt; fi ;;
	esac
	git add -A && commit || fail "commit $i"
	i=$((i + 1))
done

n=$(git rev-list --all | wc -l)
echo "generated $n commits (seed ${ONLIST_T010_SEED:-1})"
[ "$n" -ge 300 ] || fail "only $n commits generated"

# The corpus must hold what it claims to; count each feature in one log.
git log -p -C -C --binary --no-merges >"$TMP/in"
for feature in '^rename from' '^copy from' '^old mode' '^new file mode' \
	'^deleted file mode' '^GIT binary patch' '^\\ No newline' "$(printf '\r$')" \
	'^similarity index 100%' '^@@ -[0-9]* +[0-9]* @@' \
	'^    commit [0-9a-f]\{40\} upstream' '^    diff --git'; do
	c=$(grep -c -e "$feature" "$TMP/in")
	[ "$c" -gt 0 ] || fail "generated history lacks '$feature'"
done
git log -p | grep -q '^Binary files' ||
	fail "generated history lacks 'Binary files'"

bad=0
check() {	# check LABEL: compare both modes on $TMP/in
	for mode in --stable --unstable; do
		git patch-id $mode <"$TMP/in" >"$TMP/want" || fail "git patch-id $mode"
		(cd "$top" && "$ONLIST" patch-id $mode) <"$TMP/in" >"$TMP/got" ||
			{ echo "onlist patch-id $mode failed on $1"; bad=1; continue; }
		[ -s "$TMP/want" ] || fail "git printed nothing for $1"
		same_output "$1 $mode: $(wc -l <"$TMP/want") ids" "$TMP/want" "$TMP/got" || bad=1
	done
}

git log -p --no-merges >"$TMP/in"; check "git log -p --no-merges"
git log -p --no-merges --full-index >"$TMP/in"; check "git log -p --no-merges --full-index"
git format-patch --stdout --root HEAD >"$TMP/in"; check "git format-patch --stdout --root"
git rev-list --all | git diff-tree --stdin -p -M --root >"$TMP/in"
check "git diff-tree --stdin -p -M --root"
# Beyond the defaults: copies, binary data, combined merge diffs, -U0.
git log -p -C -C --binary --full-index >"$TMP/in"; check "git log -p -C -C --binary --full-index"
git log -p --cc -U0 >"$TMP/in"; check "git log -p --cc -U0"
git log -p --stat --no-renames -U1 >"$TMP/in"; check "git log -p --stat --no-renames -U1"

[ "$bad" = 0 ] || fail "onlist patch-id differs from git patch-id"
echo "all outputs identical"
