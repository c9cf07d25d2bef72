#!/bin/sh
# onlist stats against git: a repository with known authors (several
# addresses joined by .mailmap and by an extra alias file), bodies and
# trailers, and merges; every count and table of `stats --format json`
# is computed again here from `git log` (%aN/%cN go through the same
# mailmap; %(trailers) is git's own trailer parse) with awk.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd awk
need_onlist
make_tmp
isolate_git

R=$TMP/repo
DB=$TMP/onlist.db
t=1370000000
git init -q -b main "$R"
echo base >"$R/base"; git -C "$R" add base; git -C "$R" commit -q -m base
git -C "$R" tag v1

# mk AUTHOR COMMITTER MESSAGE: "Name <email>" each
mk() {
	t=$((t + 60))
	echo "$t" >>"$R/f$((t % 7))"
	git -C "$R" add -A
	an=${1% <*}; ae=${1#*<}; ae=${ae%>}
	cn=${2% <*}; ce=${2#*<}; ce=${ce%>}
	GIT_AUTHOR_NAME="$an" GIT_AUTHOR_EMAIL="$ae" GIT_AUTHOR_DATE="@$t +0000" \
	GIT_COMMITTER_NAME="$cn" GIT_COMMITTER_EMAIL="$ce" GIT_COMMITTER_DATE="@$t +0000" \
		git -C "$R" commit -q --cleanup=verbatim -F - <<MSG
$3
MSG
}
A="Ann Author <ann@example.org>"
A2="ann <ann@old.example.com>"		# .mailmap: Ann Author
B="Bob Builder <bob@example.net>"
B2="B. Builder <bob@work.example>"	# alias file: Bob Builder
C="Chen Wei <chen@example.cn>"
M="Mara Maintainer <mara@example.org>"
M2="mara <mara@laptop.local>"		# .mailmap: Mara Maintainer
L="Linus Torvalds <torvalds@example.org>"
printf 'Ann Author <ann@example.org> <ann@old.example.com>\nMara Maintainer <mara@example.org> <mara@laptop.local>\n' >"$R/.mailmap"
printf 'Bob Builder <bob@example.net> <bob@work.example>\n' >"$TMP/aliases"
git -C "$R" add .mailmap; git -C "$R" commit -q -m "add mailmap" -m "So that people are counted once.

Signed-off-by: $M"

# the cases, each named in its subject
mk "$A" "$M" "only trailers

Signed-off-by: $A
Signed-off-by: $M"
mk "$A2" "$M" "subject only"
mk "$B" "$M" "text and trailers

Explains itself.

Signed-off-by: $B
Reviewed-by: $C
Signed-off-by: $M"
mk "$B2" "$M2" "divider in the body

a line
---
more text

Signed-off-by: $B2"
mk "$C" "$M" "non-trailer line inside the block

Signed-off-by: $C
[mara: fixed a typo]
Signed-off-by: $M"
mk "$C" "$C" "signoff in the middle

Signed-off-by: $C
and then some more prose that ends the message."
mk "$A" "$A" "lower-case key

signed-off-by: $A"
mk "$A" "$M" "signoff and cc

Cc: stable@vger.kernel.org
Signed-off-by: $A"
mk "$B" "$B" "signoff and reported-by

Reported-by: $C
Signed-off-by: $B"
mk "$C" "$M2" "co-developed

Co-developed-by: $A
Signed-off-by: $A
Signed-off-by: $C"
mk "$L" "$L" "Linux 1.2"
mk "$L" "$L" "Linux 1.2-rc1"
mk "$C" "$L" "Linux 1.3"	# not a bump: Chen wrote it
mk "$B" "$B" "Fixes only

Fixes: 123456789012 (\"base\")"
# a side branch and a merge (the merge is never counted)
git -C "$R" checkout -q -b side
mk "$C" "$C" "on a side branch

Acked-by: $B
Signed-off-by: $C"
git -C "$R" checkout -q main
mk "$A2" "$M2" "before the merge

Signed-off-by: $A2"
git -C "$R" merge -q --no-ff -m "Merge branch 'side'" side
# some volume, deterministic
i=0
for who in "$A" "$B" "$C" "$A2" "$B2" "$M2"; do
	for k in 0 1 2; do
		i=$((i + 1))
		case $(( (i * 7) % 4 )) in
		0) body="" ;;
		1) body="Signed-off-by: $who" ;;
		2) body="Because of number $i.

Signed-off-by: $who
Tested-by: $B" ;;
		3) body="Because of number $i." ;;
		esac
		mk "$who" "$( [ $((i % 3)) -eq 0 ] && echo "$M" || echo "$M2")" "change $i

$body"
	done
done
git -C "$R" tag v2

run scan "$ONLIST" --db "$DB" scan --repo "$R" v1..v2
expect_rc scan 0
run stats "$ONLIST" --db "$DB" stats --format json --top 0 --mailmap "$TMP/aliases" v1..v2
expect_rc stats 0
cp "$TMP/out" "$TMP/stats.json"

# ---- git's answer --------------------------------------------------------
G="git -C $R -c mailmap.file=$TMP/aliases"
$G log --no-merges -z --format='%H%x01%aN%x01%cN%x01%s%x01%b%x01%(trailers)%x01%(trailers:only,unfold)' v1..v2 >"$TMP/log"
awk 'BEGIN { RS = "\0"; FS = "\001" }
function nonblank(s,   n, i, a) {
	n = split(s, a, "\n"); k = 0
	for (i = 1; i <= n; i++) if (a[i] ~ /[^ \t\r]/) k++
	return k
}
NF >= 7 {
	sha = $1; sub(/^\n/, "", sha)
	empty = nonblank($5) == nonblank($6)
	nsob = 0; nby = 0
	n = split($7, tl, "\n")
	for (i = 1; i <= n; i++) {
		if (tl[i] == "") continue
		key = tolower(substr(tl[i], 1, index(tl[i], ":") - 1))
		if (key == "signed-off-by") nsob++
		else if (key ~ /-by$/) nby++
	}
	if (empty) print $2 > (dir "/empty.authors")
	if (nsob == 0) print sha > (dir "/nosob")
	if (nsob == 0 && $4 ~ /^Linux [0-9]+\.[0-9]+(\.[0-9]+)?(-rc[0-9]+)?$/ && $2 == "Linus Torvalds") print sha > (dir "/bumps")
	if (nsob == 1 && nby == 0) print $3 > (dir "/single.committers")
	total++
}
END { print total > (dir "/total") }' dir="$TMP" "$TMP/log"
# the trailers git log prints are the ones interpret-trailers finds in the
# message (without the patch divider rule, as git reads commit messages):
# the README's definition and the oracle above agree
for x in $(git -C "$R" rev-list --no-merges v1..v2); do
	a=$(git -C "$R" log -1 --format=%B "$x" | git interpret-trailers --parse --no-divider | grep -ci '^signed-off-by:')
	b=$(git -C "$R" log -1 --format='%(trailers:key=Signed-off-by)' "$x" | grep -ci '^signed-off-by:')
	[ "$a" = "$b" ] || bad "$x: interpret-trailers sees $a signoffs, %(trailers) $b"
done
# and .mailmap through check-mailmap says what %aN said
[ "$(git -C "$R" check-mailmap 'ann <ann@old.example.com>')" = "Ann Author <ann@example.org>" ] ||
	bad "git check-mailmap does not map ann (test bug)"
tab=$(printf '\t')
tally() { sort "$1" | uniq -c | awk '{ c = $1; sub(/^ *[0-9]+ /, ""); print c "\t" $0 }' |
	sort -t "$tab" -k1,1nr -k2,2; }
{
	echo "commits $(cat "$TMP/total")"
	echo "empty $(wc -l <"$TMP/empty.authors")"
	tally "$TMP/empty.authors" | sed 's/^/empty_author /'
	echo "nosob $(wc -l <"$TMP/nosob")"
	sort "$TMP/nosob" | sed 's/^/nosob_commit /'
	echo "bumps $(wc -l <"$TMP/bumps")"
	sort "$TMP/bumps" | sed 's/^/bump_commit /'
	echo "single $(wc -l <"$TMP/single.committers")"
	tally "$TMP/single.committers" | sed 's/^/single_committer /'
} >"$TMP/want"

python3 - "$TMP/stats.json" >"$TMP/got" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("commits", s["commits"])
e = s["empty_explanation"]
print("empty", e["count"])
for r in e["by_author"]:
    print("empty_author %d\t%s" % (r["count"], r["name"]))
n = s["no_signoff"]
print("nosob", n["count"])
for c in sorted(n["commits"]):
    print("nosob_commit", c)
if len(n["commits"]) != n["count"]:
    print("no_signoff.commits has %d entries, count says %d" % (len(n["commits"]), n["count"]))
print("bumps", n["version_bumps"]["count"])
for c in sorted(n["version_bumps"]["commits"]):
    print("bump_commit", c)
g = s["single_signoff_no_tags"]
print("single", g["count"])
for r in g["by_committer"]:
    print("single_committer %d\t%s" % (r["count"], r["name"]))
PY
same_output "stats vs git log" "$TMP/want" "$TMP/got" || bad "stats --format json differs from git's answer"

# the cases git decides, spelled out, so that a wrong oracle shows too
grep -q "^bumps 2$" "$TMP/want" || bad "expected 2 version bumps (Linux 1.2, 1.2-rc1)"
grep -q "^empty_author 1	Ann Author" "$TMP/want" && bad "mailmap not applied: Ann counted under two rows"
grep -c "Ann Author" "$TMP/got" >/dev/null || bad "Ann Author missing"
! grep -q "B. Builder\|^.*	ann$\|	mara$" "$TMP/got" || bad "an unmapped name is left in the tables"

# text, md and csv: the same numbers
for f in text md csv; do
	run "stats $f" "$ONLIST" --db "$DB" stats --format $f --mailmap "$TMP/aliases" v1..v2
	expect_rc "stats $f" 0
	cp "$TMP/out" "$TMP/stats.$f"
done
n=$(sed -n 's/^empty //p' "$TMP/want")
grep -q "Empty explanation: $n commits" "$TMP/stats.text" || bad "text: empty explanation is not $n"
grep -q "^### Empty explanation: $n commits" "$TMP/stats.md" || bad "md: empty explanation is not $n"
grep -q "^empty_explanation,,$n,$" "$TMP/stats.csv" || bad "csv: empty explanation is not $n"
# every scanned commit, without a range: the same total
run "stats all" "$ONLIST" --db "$DB" stats --format json
grep -q "\"commits\": $(cat "$TMP/total")," "$TMP/out" || bad "stats without a range: wrong total"
# the version-bump rule is configurable: any author, or another subject
run "stats any releaser" "$ONLIST" --db "$DB" stats --format json --release-author '' v1..v2
python3 -c "import json,sys; n=json.load(open(sys.argv[1]))['no_signoff']; sys.exit(0 if n['version_bumps']['count'] == 3 and n['count'] == $(wc -l <"$TMP/nosob") else 1)" "$TMP/out" ||
	bad "--release-author '': expected 3 version bumps (Linux 1.2, 1.2-rc1, 1.3 by Chen)"
run "stats other subject" "$ONLIST" --db "$DB" stats --format json --release-subject '^Fixes only$' --release-author 'Bob Builder' v1..v2
python3 -c "import json,sys; n=json.load(open(sys.argv[1]))['no_signoff']; sys.exit(0 if n['version_bumps']['count'] == 1 else 1)" "$TMP/out" ||
	bad "--release-subject '^Fixes only\$' by Bob: expected 1 version bump"
run "stats bad regex" "$ONLIST" --db "$DB" stats --release-subject "(" v1..v2
expect_rc "stats bad regex" 2
cat "$TMP/want"
[ $nfail -eq 0 ]
