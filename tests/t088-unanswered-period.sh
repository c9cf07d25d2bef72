#!/bin/sh
# The report's "Posted 4 weeks ago, still unanswered": a period's section
# reads the topics of the period from the saved judgement, and of the rest
# only those that may supersede them.  A scratch history and a list written
# here; expectations by hand.  The newest commit and mail are dated
# 2024-06-01 (the line: 2024-05-04); the week 2023-W14 (from Monday
# 2023-04-03) shows the series whose latest version was posted from
# 2023-03-06 to 2023-03-12.
#
#   amy   2023-03-06, unanswered; her "a: teach foo to bar quickly",
#         2023-03-20 (after the period), applied      -> superseded
#   bob   2023-03-06 "b: speed up the token reader loop", unanswered; his
#         "b: speed up the token reader", 2023-02-20, applied: before,
#         so no later version                         -> listed
#   cy    2023-03-07 "c: add gadget", unanswered; his "c: add gadget
#         support" applied 2024-03-20: more than a year after -> listed
#   dee   2023-03-08 "d: add the widget driver" (src/widget.c), unanswered;
#         her "d: wire up the frobnicator", 2023-04-15, applied, another
#         subject, but src/widget.c is changed by those two topics only
#         (a rare file: one piece of work)             -> superseded
#   eli   2023-03-09 "e: tune the scheduler" (src/e.c), unanswered; his
#         "e: document the knobs", 2023-04-20, applied: another subject,
#         and src/e.c is changed by four topics (Fay's in January, Gus's
#         in May, outside the period and of other senders, count): not
#         rare                                          -> listed
#   ida   v1 2023-03-10 and v2 2023-03-15 "f: fold the lists", one topic,
#         unanswered: dated by v2, after the period      -> not in W14;
#         in W15, as its v2
#   jo    2023-03-06 "g: cache the lookups", unanswered; his "g: cache the
#         lookups in a table", 2023-03-09 (in the period), answered by Rev
#                                                      -> superseded
#   kim   2023-03-07, unanswered                         -> listed
#   mo    2023-03-11 "j: count the jobs", unanswered; "j: count the jobs
#         twice", 2023-04-02, sent by Maint with Mo's in-body From:,
#         applied                                      -> superseded
# The same sections are then made again from a whole read (the saved
# judgement made stale: every topic read from the threads) and compared
# byte for byte, for a range of weeks, a --since/--until period and each
# format, and onlist ignored of a period.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

patch_repo
who Maint maint@example.org
commit 2023-01-02T10:00:00 README base "base"
for f in a b c e g h i j; do
	commit 2023-01-02T11:00:00 src/$f.c $f "$f: start"
done
base=$(git -C "$R" rev-parse HEAD)

who Fay fay@example.org
KEEP=1 commit 2023-01-20T10:00:00 src/e.c fay "e: start over"; KEEP=1 body fay
who Bob bob@example.org
KEEP=1 commit 2023-02-20T10:00:00 src/b.c token "b: speed up the token reader"
KEEP=1 body bob0
who Amy amy@example.org
commit 2023-03-06T09:00:00 src/a.c foo-draft "a: teach foo to bar"; body amy1
who Bob bob@example.org
commit 2023-03-06T10:00:00 src/b.c loop "b: speed up the token reader loop"
body bob1
who Jo jo@example.org
commit 2023-03-06T11:00:00 src/g.c cache "g: cache the lookups"; body jo1
commit 2023-03-09T11:00:00 src/g.c table "g: cache the lookups in a table"; body jo2
who Cy cy@example.org
commit 2023-03-07T09:00:00 src/c.c gadget-draft "c: add gadget"; body cy1
who Kim kim@example.org
commit 2023-03-07T11:00:00 src/h.c plain "h: plain"; body kim1
who Dee dee@example.org
commit 2023-03-08T10:00:00 src/widget.c widget-draft "d: add the widget driver"; body dee1
who Eli eli@example.org
commit 2023-03-09T10:00:00 src/e.c tune "e: tune the scheduler"; body eli1
who Ida ida@example.org
commit 2023-03-10T10:00:00 src/i.c fold1 "f: fold the lists"; body ida1
commit 2023-03-15T10:00:00 src/i.c fold2 "f: fold the lists"; body ida2
who Mo mo@example.org
commit 2023-03-11T10:00:00 src/j.c jobs-draft "j: count the jobs"; body mo1
who Amy amy@example.org
KEEP=1 commit 2023-03-20T10:00:00 src/a.c foo "a: teach foo to bar quickly"
KEEP=1 body amy2
who Mo mo@example.org
KEEP=1 commit 2023-04-02T10:00:00 src/j.c jobs "j: count the jobs twice"
KEEP=1 body mo2
who Dee dee@example.org
KEEP=1 commit 2023-04-15T10:00:00 src/widget.c widget "d: wire up the frobnicator"
KEEP=1 body dee2
who Eli eli@example.org
KEEP=1 commit 2023-04-20T10:00:00 src/e.c knobs "e: document the knobs"
KEEP=1 body eli2
who Gus gus@example.org
commit 2023-05-10T10:00:00 src/e.c gus "e: gus tweak"; body gus1
who Cy cy@example.org
KEEP=1 commit 2024-03-20T10:00:00 src/c.c gadget "c: add gadget support"
KEEP=1 body cy2
who Maint maint@example.org
commit 2024-06-01T10:00:00 README more "README: more"

text() { printf '%s\n' "$@" >"$TMP/text.body"; echo "$TMP/text.body"; }
# Mo's v2 as Maint sends it: Mo's in-body From: first
{ printf 'From: Mo <mo@example.org>\n\n'; cat "$TMP/mo2.body"; } >"$TMP/mo2b.body"
{
	mail "$TMP/fay.body" "Fay <fay@example.org>" \
		"Fri, 20 Jan 2023 10:00:00 +0000" "fay1@x" "[PATCH] e: start over"
	mail "$TMP/bob0.body" "Bob <bob@example.org>" \
		"Mon, 20 Feb 2023 10:00:00 +0000" "bob0@x" "[PATCH] b: speed up the token reader"
	mail "$TMP/amy1.body" "Amy <amy@example.org>" \
		"Mon, 06 Mar 2023 09:00:00 +0000" "amy1@x" "[PATCH] a: teach foo to bar"
	mail "$TMP/bob1.body" "Bob <bob@example.org>" \
		"Mon, 06 Mar 2023 10:00:00 +0000" "bob1@x" "[PATCH] b: speed up the token reader loop"
	mail "$TMP/jo1.body" "Jo <jo@example.org>" \
		"Mon, 06 Mar 2023 11:00:00 +0000" "jo1@x" "[PATCH] g: cache the lookups"
	mail "$TMP/cy1.body" "Cy <cy@example.org>" \
		"Tue, 07 Mar 2023 09:00:00 +0000" "cy1@x" "[PATCH] c: add gadget"
	mail "$TMP/kim1.body" "Kim <kim@example.org>" \
		"Tue, 07 Mar 2023 11:00:00 +0000" "kim1@x" "[PATCH] h: plain"
	mail "$TMP/dee1.body" "Dee <dee@example.org>" \
		"Wed, 08 Mar 2023 10:00:00 +0000" "dee1@x" "[PATCH] d: add the widget driver"
	mail "$TMP/eli1.body" "Eli <eli@example.org>" \
		"Thu, 09 Mar 2023 10:00:00 +0000" "eli1@x" "[PATCH] e: tune the scheduler"
	mail "$TMP/jo2.body" "Jo <jo@example.org>" \
		"Thu, 09 Mar 2023 11:00:00 +0000" "jo2@x" "[PATCH] g: cache the lookups in a table"
	mail "$(text 'Why a table?')" "Rev <rev@example.org>" \
		"Fri, 10 Mar 2023 09:00:00 +0000" "jo3@x" "Re: [PATCH] g: cache the lookups in a table" jo2@x
	mail "$TMP/ida1.body" "Ida <ida@example.org>" \
		"Fri, 10 Mar 2023 10:00:00 +0000" "ida1@x" "[PATCH] f: fold the lists"
	mail "$TMP/mo1.body" "Mo <mo@example.org>" \
		"Sat, 11 Mar 2023 10:00:00 +0000" "mo1@x" "[PATCH] j: count the jobs"
	mail "$TMP/ida2.body" "Ida <ida@example.org>" \
		"Wed, 15 Mar 2023 10:00:00 +0000" "ida2@x" "[PATCH v2] f: fold the lists"
	mail "$TMP/amy2.body" "Amy <amy@example.org>" \
		"Mon, 20 Mar 2023 10:00:00 +0000" "amy2@x" "[PATCH] a: teach foo to bar quickly"
	mail "$TMP/mo2b.body" "Maint <maint@example.org>" \
		"Sun, 02 Apr 2023 10:00:00 +0000" "mo2@x" "[PATCH] j: count the jobs twice"
	mail "$TMP/dee2.body" "Dee <dee@example.org>" \
		"Sat, 15 Apr 2023 10:00:00 +0000" "dee2@x" "[PATCH] d: wire up the frobnicator"
	mail "$TMP/eli2.body" "Eli <eli@example.org>" \
		"Thu, 20 Apr 2023 10:00:00 +0000" "eli2@x" "[PATCH] e: document the knobs"
	mail "$TMP/gus1.body" "Gus <gus@example.org>" \
		"Wed, 10 May 2023 10:00:00 +0000" "gus1@x" "[PATCH] e: gus tweak"
	mail "$TMP/cy2.body" "Cy <cy@example.org>" \
		"Wed, 20 Mar 2024 10:00:00 +0000" "cy2@x" "[PATCH] c: add gadget support"
	mail "$(text 'Noted.')" "Maint <maint@example.org>" \
		"Sat, 01 Jun 2024 10:00:00 +0000" "last@x" "news"
} >"$TMP/list.mbox"

DB=$TMP/o.db
"$ONLIST" -q --db "$DB" import --list proj "$TMP/list.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$DB" scan --repo "$R" main >/dev/null || fail "scan"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match"

# what onlist ignored judges of each (no period: every topic read)
run states "$ONLIST" --db "$DB" ignored --state all --json
expect_rc states 0
python3 -c '
import json, sys
for s in json.load(open(sys.argv[1]))["series"]:
    print(s["state"], s["message_id"])' "$TMP/out" >"$TMP/got"
cat >"$TMP/want" <<'EOT'
applied fay1@x
applied bob0@x
superseded amy1@x
ignored bob1@x
superseded jo1@x
ignored cy1@x
ignored kim1@x
superseded dee1@x
ignored eli1@x
answered jo2@x
superseded mo1@x
ignored ida2@x
applied amy2@x
applied mo2@x
applied dee2@x
applied eli2@x
ignored gus1@x
applied cy2@x
EOT
same_output "states" "$TMP/want" "$TMP/got" || bad "ignored: the states"

week() {	# week LABEL WEEK COUNT MSGIDS
	got=$("$ONLIST" --db "$DB" report --week "$2" --format json | python3 -c '
import json, sys
u = json.load(sys.stdin)["still_unanswered"]
print(u["count"], " ".join(s["message_id"] for s in u["series"]))')
	echo "report $1: $got"
	[ "$got" = "$3 $4" ] || bad "report $1: got '$got', expected '$3 $4'"
}
week W14 2023-W14 4 "bob1@x cy1@x kim1@x eli1@x"
week W15 2023-W15 1 "ida2@x"
week W13 2023-W13 0 ""
week W23 2023-W23 1 "gus1@x"
run "report text" "$ONLIST" --db "$DB" report --week 2023-W14 --format text
sed -n '/^Posted 4 weeks ago/,/^$/p; /^2023-03-/p' "$TMP/out" >"$TMP/got"
cat >"$TMP/want" <<'EOT'
Posted 4 weeks ago, still unanswered (4)
----------------------------------------

2023-03-06 Bob: [PATCH] b: speed up the token reader loop <bob1@x>
2023-03-07 Cy: [PATCH] c: add gadget <cy1@x>
2023-03-07 Kim: [PATCH] h: plain <kim1@x>
2023-03-09 Eli: [PATCH] e: tune the scheduler <eli1@x>
EOT
same_output "report text" "$TMP/want" "$TMP/got" || bad "report text: the section"

# the same reports from a whole read: the saved judgement made stale, the
# topics are read from the threads, every one of them
periods="--week=2023-W10 --week=2023-W14 --week=2023-W15 --week=2023-W18
--week=2023-W22 --week=2024-W16 --since=2023-03-01,--until=2023-06-01
--since=2023-04-05,--until=2023-04-12"
iperiods="--since=2023-03-06,--until=2023-03-13 --since=2023-03-08
--since=2023-02-01,--until=2023-05-01"
report_all() {	# report_all TAG
	for p in $periods; do
		for f in text md html json; do
			# shellcheck disable=SC2046
			"$ONLIST" -q --db "$DB" report $(echo "$p" | tr ',' ' ') \
				--format $f >"$TMP/$1.$p.$f" 2>/dev/null ||
				bad "report $p $f: exit $?"
		done
	done
	# onlist ignored of a period reads the same way
	for p in $iperiods; do
		# shellcheck disable=SC2046
		"$ONLIST" -q --db "$DB" ignored --state all $(echo "$p" | tr ',' ' ') \
			--json >"$TMP/$1.ignored$p" 2>/dev/null || bad "ignored $p: exit $?"
	done
}
report_all part
sqlite3 "$DB" "UPDATE meta SET value = 'stale' WHERE key = 'ignored_threads'" ||
	fail "sqlite3"
report_all whole
n=0
for p in $periods; do
	for f in text md html json; do
		n=$((n + 1))
		cmp -s "$TMP/part.$p.$f" "$TMP/whole.$p.$f" ||
			bad "report $p $f: not the whole read's"
	done
done
for p in $iperiods; do
	n=$((n + 1))
	cmp -s "$TMP/part.ignored$p" "$TMP/whole.ignored$p" ||
		bad "ignored $p: not the whole read's"
done
echo "$n outputs compared with a whole read"

[ $nfail -eq 0 ] && echo "all checks passed"
[ $nfail -eq 0 ]
