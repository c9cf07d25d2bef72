#!/bin/sh
# Threads, series, versions, pull requests and the review given in replies.
# tests/t015-threads.py writes the mails (patches from `git format-patch`,
# replies by hand) and, independently of onlist, what must come out of them
# (its docstring lists the forms).  onlist imports, scans and matches; the
# database, `onlist thread` and `onlist lookup` must agree with the plan.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

DB=$TMP/onlist.db
python3 tests/t015-threads.py "$TMP/w" || fail "the test mails could not be built"
run import "$ONLIST" --db "$DB" import --list t "$TMP/w/list.mbox"
expect_rc import 0
run scan "$ONLIST" --db "$DB" scan --repo "$TMP/w/repo" HEAD
expect_rc scan 0
run match "$ONLIST" --db "$DB" match
expect_rc match 0

q() { sqlite3 "$DB" "$1"; }
while read -r what a b c d; do
	case $what in
	class)
		got=$(q "select class from message_info where msgid='$a'")
		[ "$got" = "$b" ] || bad "class of <$a>: '$got', expected $b" ;;
	series)
		got=$(q "select series from series where msgid='$a'")
		[ "$got" = "$b" ] || bad "series of <$a>: '$got', expected <$b>" ;;
	topic)
		got=$(q "select topic from series where msgid='$a'")
		[ -n "$got" ] || bad "<$a> has no topic"
		echo "$b $got" >>"$TMP/topics" ;;
	parent)
		got=$(q "select coalesce(parent, '-') from thread where msgid='$a'")
		[ "$got" = "$b" ] || bad "parent of <$a>: '$got', expected '$b'" ;;
	replies)
		got=$(q "select count(*) from replies where patch='$a' and not by_author")
		[ "$got" = "$b" ] || bad "replies to <$a>: $got, expected $b" ;;
	pull)
		got=$(q "select url || ' ' || ref || ' ' || tip from pulls where msgid='$a'")
		[ "$got" = "$b $c $d" ] || bad "pull <$a>: '$got', expected '$b $c $d'"
		got=$(q "select has_patch || coalesce(patch_id, '-') from messages where msgid='$a'")
		[ "$got" = "0-" ] || bad "pull <$a> counted as a patch ($got)" ;;
	review|noreview)
		"$ONLIST" --db "$DB" lookup "$a" >"$TMP/lookup.$a" 2>&1 ||
			bad "lookup $a failed"
		"$ONLIST" --db "$DB" lookup --format json "$a" >"$TMP/lookup.$a.json" 2>&1
		if [ "$what" = review ]; then
			grep -q "^ *$b: .*<$c>" "$TMP/lookup.$a" ||
				bad "lookup $a does not show '$b: ... <$c>'"
			grep -q "\"key\": \"$b\", \"name\": \"[^\"]*\", \"addr\": \"$c\"" "$TMP/lookup.$a.json" ||
				bad "lookup --format json $a has no review $b by $c"
		else
			! grep -q -- "-by: .*<$b>" "$TMP/lookup.$a" ||
				bad "lookup $a shows $b as review"
		fi ;;
	esac
done <"$TMP/w/expect"

# Same label <=> same topic.
labels=$(cut -d' ' -f1 "$TMP/topics" | sort -u | wc -l)
topics=$(cut -d' ' -f2- "$TMP/topics" | sort -u | wc -l)
pairs=$(sort -u "$TMP/topics" | wc -l)
[ "$labels" = "$topics" ] && [ "$pairs" = "$labels" ] ||
	bad "topics: $labels version groups expected, got $topics topics in $pairs pairings"

# The other sender's [PATCH 2/2] must not join series C.
other=$(q "select series from series s join messages m using(msgid) where m.subject = '[PATCH 2/2] someone else'")
mine=$(q "select msgid from messages where subject = '[PATCH 2/2] someone else'")
[ "$other" = "$mine" ] || bad "another sender's patch joined a series: $other"

# onlist thread draws the tree: the reply to Bob's reply is one level
# deeper than Bob's, and the tags given are on the lines.
bobmsg=$(q "select msgid from messages where from_addr='bob@example.org' and subject like 'Re: [PATCH v2 2/3]%'")
run thread "$ONLIST" --db "$DB" thread "<$bobmsg>"
expect_rc thread 0
grep -q '^\*' "$TMP/out" || bad "thread: the asked-for message is not marked"
bobline=$(grep -n 'Reviewed-by: Bob Reviewer' "$TMP/out" | cut -d: -f1)
daveline=$(grep -n 'Tested-by: Dave Tester' "$TMP/out" | cut -d: -f1)
[ -n "$bobline" ] && [ -n "$daveline" ] && [ "$daveline" -gt "$bobline" ] ||
	bad "thread: Bob's review and Dave's test are not shown in order"
bi=$(sed -n "${bobline}p" "$TMP/out" | sed 's/[^ |].*//' | wc -c)
di=$(sed -n "${daveline}p" "$TMP/out" | sed 's/[^ |].*//' | wc -c)
[ "$di" -gt "$bi" ] || bad "thread: Dave's reply is not drawn below Bob's ($di <= $bi)"
run thread-url "$ONLIST" --db "$DB" thread "https://lore.kernel.org/r/$bobmsg/"
expect_rc thread-url 0
# the forms a reader copies from lore: the thread view, the mbox, a list's
# own path (these failed: the last path component was taken for the id)
for u in "https://lore.kernel.org/r/$bobmsg/T/" "https://lore.kernel.org/linux-fsdevel/$bobmsg/t.mbox.gz" \
	 "https://lore.kernel.org/all/$bobmsg/raw" "https://lore.kernel.org/r/$bobmsg/T/#u"; do
	run "thread $u" "$ONLIST" --db "$DB" thread "$u"
	expect_rc "thread $u" 0
	grep -q "Bob" "$TMP/out" || bad "thread $u: Bob's message is not shown"
done
run thread-not-an-id "$ONLIST" --db "$DB" thread "https://lore.kernel.org/linux-fsdevel/"
expect_rc thread-not-an-id 2
run thread-json "$ONLIST" --db "$DB" thread --format json "$bobmsg"
python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); assert len(t) >= 8, len(t)' "$TMP/out" ||
	bad "thread --format json: not a JSON array of the thread"
run thread-unknown "$ONLIST" --db "$DB" thread "no-such@example.org"
expect_rc thread-unknown 1
run thread-loop "$ONLIST" --db "$DB" thread "loop-one@example.org"
expect_rc thread-loop 0

# Matching and series together: commit part 2 was posted in v1 and v2.
n=$(grep -c 'posted to' "$TMP/lookup.$(sed -n 3p "$TMP/w/shas")")
[ "$n" -ge 2 ] || bad "lookup: part 2 should show the v1 and v2 postings, shows $n"
grep -q 'version 2, patch 2 of 3; 3 replies from 3 other people' "$TMP/lookup.$(sed -n 3p "$TMP/w/shas")" ||
	bad "lookup: the v2 posting of part 2 lacks its version and reply count"

[ "$(q 'pragma integrity_check')" = ok ] || bad "integrity_check"
[ $nfail -eq 0 ] && echo "all checks passed"
