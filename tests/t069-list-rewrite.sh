#!/bin/sh
# A list that rewrites From: for DMARC ("Name via LIST <list@host>", the
# writer in Reply-To: or X-Original-From:) must not make its writers one
# person.  Expectations written by hand:
#
#   reviewed  Wei's patch, applied as mailed (git am kept the rewritten
#             author "Wei Gao via ltp <ltp@lists.example.org>"); Petr,
#             also rewritten, answers with a Reviewed-by: posted by
#             patch-id, reviewed (the list address is nobody's)
#   edited    Wei's second patch, changed by the maintainer before he
#             committed it with the mail's Date: as author date (git am):
#             posted by author-date through the writer behind the
#             rewritten author, its only reply "Merged, thanks!" from the
#             maintainer: no_reply
#   sketch    Ann's patch, to which Cyril answered with a diff of his own
#             ("Re:" with the patch's subject), then Reviewed-by on v2:
#             reviewed (a reviewer's sketch does not make him an author)
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

R=$TMP/repo
git init -q -b main "$R" || fail "git init"
at() { GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; export GIT_AUTHOR_DATE GIT_COMMITTER_DATE; }
export GIT_AUTHOR_NAME="Wei Gao via ltp" GIT_AUTHOR_EMAIL=ltp@lists.example.org
export GIT_COMMITTER_NAME=Maint GIT_COMMITTER_EMAIL=maint@example.org
at "2024-01-02T10:00:00"
printf 'base\n' >"$R/README"; git -C "$R" add -A; git -C "$R" commit -q -m base
git -C "$R" checkout -q -b topic
at "2024-02-10T10:00:00"
printf 'one\n' >"$R/a.c"; git -C "$R" add -A; git -C "$R" commit -q -m "a: add one"
reviewed=$(git -C "$R" rev-parse HEAD)
git -C "$R" format-patch -q -1 --stdout "$reviewed" | sed '1,/^$/d' >"$TMP/reviewed.body"
# the mailed version of the second patch, then the one committed
at "2024-02-11T10:00:00"
printf 'two\n' >"$R/b.c"; git -C "$R" add -A; git -C "$R" commit -q -m "b: add two"
git -C "$R" format-patch -q -1 --stdout HEAD | sed '1,/^$/d' >"$TMP/edited.body"
printf 'two, as the maintainer likes it\nmore\n' >"$R/b.c"
git -C "$R" add -A; git -C "$R" commit -q --amend --no-edit
edited=$(git -C "$R" rev-parse HEAD)
export GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.org
at "2024-02-12T10:00:00"
printf 'three\n' >"$R/c.c"; git -C "$R" add -A; git -C "$R" commit -q -m "c: add three"
sketch=$(git -C "$R" rev-parse HEAD)
git -C "$R" format-patch -q -1 --stdout "$sketch" | sed '1,/^$/d' >"$TMP/sketch.body"
git -C "$R" checkout -q main
at "2024-03-01T10:00:00"
git -C "$R" merge -q --no-ff -m "Merge topic" topic || fail "git merge"

mail() {	# mail BODYFILE FROM DATE MSGID SUBJECT EXTRA-HEADERS
	printf 'From x@example.org Mon Jan  1 00:00:00 2024\n'
	printf 'From: %s\nDate: %s\nMessage-ID: <%s>\nSubject: %s\n%s\n\n' "$2" "$3" "$4" "$5" "$6"
	cat "$1"
	printf '\n'
}
printf 'Reviewed-by: Petr Vorel <pvorel@example.cz>\n' >"$TMP/rb.body"
printf 'Merged, thanks!\n' >"$TMP/merged.body"
{
	mail "$TMP/reviewed.body" "Wei Gao via ltp <ltp@lists.example.org>" \
		"Sat, 10 Feb 2024 10:00:00 +0000" "p1@x" "[LTP] [PATCH] a: add one" \
		"Reply-To: Wei Gao <wegao@example.com>"
	mail "$TMP/rb.body" "Petr Vorel via ltp <ltp@lists.example.org>" \
		"Sat, 10 Feb 2024 12:00:00 +0000" "r1@x" "Re: [LTP] [PATCH] a: add one" \
		"$(printf 'Reply-To: Petr Vorel <pvorel@example.cz>\nIn-Reply-To: <p1@x>')"
	mail "$TMP/edited.body" "Wei Gao via ltp <ltp@lists.example.org>" \
		"Sun, 11 Feb 2024 10:00:00 +0000" "p2@x" "[LTP] [PATCH] b: add two" \
		"X-Original-From: Wei Gao <wegao@example.com>"
	mail "$TMP/merged.body" "Maint <maint@example.org>" \
		"Sun, 11 Feb 2024 12:00:00 +0000" "m2@x" "Re: [LTP] [PATCH] b: add two" \
		"In-Reply-To: <p2@x>"
	mail "$TMP/sketch.body" "Ann <ann@example.org>" \
		"Mon, 12 Feb 2024 09:00:00 +0000" "s1@x" "[PATCH] c: add three" ""
	printf 'How about this instead:\n\n---\n' >"$TMP/sk.body"
	sed -n '/^diff --git/,$p' "$TMP/sketch.body" | sed 's/^+three$/+three, shorter/' >>"$TMP/sk.body"
	mail "$TMP/sk.body" "Cyril <cyril@example.cz>" \
		"Mon, 12 Feb 2024 09:30:00 +0000" "s2@x" "Re: [PATCH] c: add three" \
		"In-Reply-To: <s1@x>"
	mail "$TMP/sketch.body" "Ann <ann@example.org>" \
		"Mon, 12 Feb 2024 10:00:00 +0000" "s3@x" "[PATCH v2] c: add three" "In-Reply-To: <s2@x>"
	printf 'Reviewed-by: Cyril <cyril@example.cz>\n' >"$TMP/rb2.body"
	mail "$TMP/rb2.body" "Cyril <cyril@example.cz>" \
		"Mon, 12 Feb 2024 11:00:00 +0000" "s4@x" "Re: [PATCH v2] c: add three" \
		"In-Reply-To: <s3@x>"
} >"$TMP/ltp.mbox"

DB=$TMP/o.db
"$ONLIST" -q --db "$DB" import --list ltp "$TMP/ltp.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$DB" scan --repo "$R" main~1..main >/dev/null || fail "scan"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match"

check() {
	got=$(lookup_verdict "$DB" "$2")
	echo "$1: $got"
	[ "$got" = "$3" ] || bad "$1: got '$got', expected '$3'"
}
check reviewed "$reviewed" "posted patch-id:Wei Gao reviewed"
check edited "$edited" "posted author-date:Wei Gao no_reply"
check sketch "$sketch" "posted patch-id:Ann patch-id:Ann reviewed"

[ $nfail -eq 0 ] && echo "all checks passed"
[ $nfail -eq 0 ]
