#!/bin/sh
# Mail anyone can post to a list must not flip a verdict (issue 29, 3 and 4).
# One repository, one topic branch merged on 2024-03-01 (so the landing
# bounds every posting), one commit per case; the honest list "real" and a
# list "evil" Mallory posts to.  What each commit must come out as is
# written below by hand:
#
#   posted     posted by Bob, <same@x>; Mallory posts another mail with
#              that Message-ID to evil: Bob's posting whatever the order
#              the lists are imported in, both mails kept, the second named
#              in `skipped`
#   backdated  never sent in time: Mallory's copy of its patch, dated
#              2024-02-20 but archived 2024-06-15 (From_ line), with a
#              sock-puppet Reviewed-by: not posted, not reviewed
#   hopdated   the same, archived in June by its Received: field alone
#   authordate never sent: Mallory's mail From Alice dated the author date
#              with another file and subject: not posted
#   linked     its Link: names <cover@x>; a cover letter with that id came
#              three months after landing: not posted
#   moderated  its mail dated 2024-02-21, archived 2024-02-21 12:00: posted
#              (a received time within a day changes nothing)
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

R=$TMP/repo
git init -q -b main "$R" || fail "git init"
at() { GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; export GIT_AUTHOR_DATE GIT_COMMITTER_DATE; }
commit() {	# commit DATE SUBJECT FILE [BODY]
	at "$1"
	mkdir -p "$R/$(dirname "$3")"
	printf 'line of %s\n' "$2" >>"$R/$3"
	git -C "$R" add -A
	git -C "$R" commit -q -m "$2" ${4:+-m "$4"}
}
export GIT_AUTHOR_NAME=Alice GIT_AUTHOR_EMAIL=alice@example.org
export GIT_COMMITTER_NAME=Maint GIT_COMMITTER_EMAIL=maint@example.org
commit "2024-01-02T10:00:00" "base" README
git -C "$R" checkout -q -b topic
commit "2024-02-10T10:00:00" "net: posted change" net/a.c
posted=$(git -C "$R" rev-parse HEAD)
commit "2024-02-11T10:00:00" "net: backdated change" net/b.c
backdated=$(git -C "$R" rev-parse HEAD)
commit "2024-02-11T11:00:00" "net: hopdated change" net/e.c
hopdated=$(git -C "$R" rev-parse HEAD)
commit "2024-02-12T10:00:00" "lib: author date change" lib/c.c
authordate=$(git -C "$R" rev-parse HEAD)
commit "2024-02-13T10:00:00" "mm: linked change" mm/d.c "Link: https://lore.example.org/r/cover@x"
linked=$(git -C "$R" rev-parse HEAD)
commit "2024-02-14T10:00:00" "fs: moderated change" fs/f.c
moderated=$(git -C "$R" rev-parse HEAD)
git -C "$R" checkout -q main
at "2024-03-01T10:00:00"
git -C "$R" merge -q --no-ff -m "Merge topic" topic || fail "git merge"
for c in posted backdated hopdated moderated; do
	eval "sha=\$$c"
	git -C "$R" format-patch -q -1 --stdout "$sha" >"$TMP/$c.patch" || fail "format-patch"
done

# mail NAME FROMLINE_DATE FROM DATE MSGID SUBJECT [EXTRA HEADER]: the body
# from $TMP/NAME.body (everything after format-patch's headers)
body_of() { sed '1,/^$/d' "$TMP/$1.patch"; }
mail() {
	printf 'From x@example.org %s\n' "$2"
	printf 'From: %s\nDate: %s\nMessage-ID: <%s>\nSubject: %s\n' "$3" "$4" "$5" "$6"
	[ -n "$7" ] && printf '%s\n' "$7"
	printf '\n'
	cat "$TMP/$1.body"
	printf '\n'
}
for c in posted backdated hopdated moderated; do body_of "$c" >"$TMP/$c.body"; done
printf 'Thanks, this is not the patch you think.\n' >"$TMP/other.body"
printf 'Reviewed-by: Sock Puppet <sock@example.net>\n' >"$TMP/review.body"
printf 'This series does things.\n' >"$TMP/cover.body"
printf 'Some text.\n' >"$TMP/early.body"
# a diff of another file, for the author-date forgery
printf 'Unrelated.\n---\n x/y.c | 1 +\n\ndiff --git a/x/y.c b/x/y.c\nnew file mode 100644\nindex 0000000..e69de29\n--- /dev/null\n+++ b/x/y.c\n@@ -0,0 +1 @@\n+hello\n' >"$TMP/unrelated.body"

{
	mail early "Tue Jan  2 09:00:00 2024" "Alice <alice@example.org>" \
		"Tue, 2 Jan 2024 09:00:00 +0000" "early@x" "hello list"
	mail posted "Sat Feb 10 10:05:00 2024" "Bob <bob@example.org>" \
		"Sat, 10 Feb 2024 10:00:00 +0000" "same@x" "[PATCH] net: posted change"
	mail moderated "Wed Feb 21 12:00:00 2024" "Alice <alice@example.org>" \
		"Wed, 21 Feb 2024 09:00:00 +0000" "mod@x" "[PATCH] fs: moderated change"
	mail backdated "Sat Jun 15 10:00:00 2024" "Mallory <mallory@example.net>" \
		"Tue, 20 Feb 2024 10:00:00 +0000" "back@x" "[PATCH] net: backdated change"
	mail review "Sat Jun 15 10:10:00 2024" "Sock Puppet <sock@example.net>" \
		"Tue, 20 Feb 2024 11:00:00 +0000" "rev@x" "Re: [PATCH] net: backdated change" \
		"In-Reply-To: <back@x>"
	mail hopdated "Thu Jan  1 00:00:00 1970" "Mallory <mallory@example.net>" \
		"Tue, 20 Feb 2024 10:00:00 +0000" "hop@x" "[PATCH] net: hopdated change" \
		"Received: from list.example.org by archive.example.org; Sat, 15 Jun 2024 10:00:00 +0000"
	mail unrelated "Mon Feb 12 10:00:00 2024" "Alice <alice@example.org>" \
		"Mon, 12 Feb 2024 10:00:00 +0000" "ad@x" "[PATCH] docs: something else"
	mail cover "Sat Jun  1 10:00:00 2024" "Mallory <mallory@example.net>" \
		"Sat, 1 Jun 2024 10:00:00 +0000" "cover@x" "[PATCH 0/1] mm: linked change"
	mail review "Sat Jun  1 10:10:00 2024" "Sock Puppet <sock@example.net>" \
		"Sat, 1 Jun 2024 10:10:00 +0000" "rev2@x" "Re: [PATCH 0/1] mm: linked change" \
		"In-Reply-To: <cover@x>"
} >"$TMP/real.mbox"
# the same mail twice (a second delivery with other list headers) is one
mail posted "Sat Feb 10 10:06:00 2024" "Bob <bob@example.org>" \
	"Sat, 10 Feb 2024 10:00:00 +0000" "same@x" "[PATCH] net: posted change" \
	"List-Id: <copy.example.org>" >"$TMP/copy.mbox"
mail other "Sun Feb 11 09:00:00 2024" "Mallory <mallory@example.net>" \
	"Fri, 9 Feb 2024 10:00:00 +0000" "same@x" "[PATCH] net: posted change" \
	>"$TMP/evil.mbox"

build() {	# build DB LIST... : import in this order, scan, match
	db=$1
	shift
	for l in "$@"; do
		"$ONLIST" -q --db "$db" import --list "$l" "$TMP/$l.mbox" >/dev/null ||
			fail "import $l into $db"
	done
	"$ONLIST" -q --db "$db" scan --repo "$R" main~1..main >/dev/null || fail "scan $db"
	"$ONLIST" -q --db "$db" match >/dev/null || fail "match $db"
}
build "$TMP/ab.db" real copy evil
build "$TMP/ba.db" evil real copy
# and with a match in between (the second mail moves the first off the id)
build "$TMP/inc.db" evil
build "$TMP/inc.db" real copy

check() {	# check NAME SHA EXPECTED
	for db in ab ba inc; do
		got=$(lookup_verdict "$TMP/$db.db" "$2")
		[ "$got" = "$3" ] || bad "$1 ($db): got '$got', expected '$3'"
	done
}
check posted "$posted" "posted patch-id:Bob no_reply"
check backdated "$backdated" "not posted  None"
check hopdated "$hopdated" "not posted  None"
check authordate "$authordate" "not posted  None"
check linked "$linked" "not posted  None"
check moderated "$moderated" "posted patch-id:Alice no_reply"

# import order does not matter: the same rows either way
dump() {
	sqlite3 "$1" "SELECT msgid, list, date, from_addr, subject, has_patch,
		patch_id, received, received_how, content_hash FROM messages ORDER BY msgid;
		SELECT * FROM message_lists ORDER BY msgid, list;
		SELECT msgid, class FROM message_info ORDER BY msgid;
		SELECT msgid, repaired_id, files FROM message_patch ORDER BY msgid;
		SELECT commit_sha, message_id, method FROM matches ORDER BY 1, 2, 3"
}
dump "$TMP/ab.db" >"$TMP/ab.dump"
dump "$TMP/ba.db" >"$TMP/ba.dump"
same_output "import order (< real first, > evil first)" "$TMP/ab.dump" "$TMP/ba.dump" ||
	bad "the database depends on the import order"
dump "$TMP/inc.db" >"$TMP/inc.dump"
same_output "a match in between (< at once, > in two steps)" \
	"$TMP/ab.dump" "$TMP/inc.dump" || bad "matching in two steps gives other rows"
# both mails of <same@x> kept, each with its own headers and patch
for db in ab ba; do
	n=$(sqlite3 "$TMP/$db.db" "SELECT count(*) FROM messages WHERE msgid LIKE 'same@x%'")
	[ "$n" = 2 ] || bad "$db: $n rows for <same@x>, expected 2 (Bob's, Mallory's; the copy is one)"
	own=$(sqlite3 "$TMP/$db.db" "SELECT m.from_addr, p.msgid IS NOT NULL FROM messages m
		LEFT JOIN message_patch p ON p.msgid = m.msgid
		WHERE m.msgid LIKE 'same@x%' ORDER BY 1")
	[ "$own" = "bob@example.org|1
mallory@example.net|0" ] || bad "$db: a mail's row describes another's patch: $own"
	"$ONLIST" --db "$TMP/$db.db" skipped >"$TMP/skipped.out" 2>&1
	grep -q "Message-ID seen before" "$TMP/skipped.out" ||
		bad "$db: skipped does not name the second mail of <same@x>"
	"$ONLIST" --db "$TMP/$db.db" status >"$TMP/status.out" 2>&1
	grep -q "Message-ID seen before" "$TMP/status.out" ||
		bad "$db: status does not say a Message-ID names two mails"
done
# when received and Date disagree by more than a day, lookup shows both
"$ONLIST" --db "$TMP/ab.db" lookup "$backdated" >"$TMP/lookup.out" 2>&1
cat "$TMP/lookup.out"
grep -q "archived 2024-06-15" "$TMP/lookup.out" ||
	bad "lookup does not show when the archive received the backdated mail"

# the one the archive had first holds the id (replies thread to it)
for db in ab ba inc; do
	[ "$(sqlite3 "$TMP/$db.db" "SELECT from_addr FROM messages WHERE msgid = 'same@x'")" = bob@example.org ] ||
		bad "$db: <same@x> is not Bob's mail, which the archive had first"
done
[ "${nfail:-0}" -eq 0 ] || fail "$nfail check(s) failed"
echo "ok"
