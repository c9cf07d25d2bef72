#!/bin/sh
# onlist ignored: the series posted to the list that nobody answered and
# nobody applied.  A scratch history and a list written here; expectations
# by hand.  The project's files are README, src/ and lib/; the newest
# commit is dated 2024-06-01, the newest mail 2024-07-01, so the line is
# 2024-06-01 less four weeks (2024-05-04).
#
#   ign      Ian's 2-patch series with a cover letter, 2024-02-01; his own
#            "ping?" is the only reply                        -> ignored
#   bot      Bea's patch, 2024-02-05; only the kernel test robot answers
#                                                             -> ignored
#   notice   Nat's patch, 2024-02-10; the maintainer says "Thanks,
#            applied." but no commit has it: applied elsewhere, or in a
#            branch not scanned: not ignored (README says why)
#   talk     Dan's patch, 2024-02-03, that Rev answers       -> answered
#   silent   Sam's patch: v1 2024-02-15 nobody answers, v2 2024-02-20,
#            applied as posted                               -> applied
#   reword   Hal's "b: add a helper to batch requests", 2024-02-06, unanswered;
#            his v2 "b: add a helper to batch reqs" (a new subject: another
#            topic), 2024-02-08, applied                  -> superseded
#   other    Kay's patch to io_uring/io_uring.c, a file the project does
#            not have (a kernel patch on a shared list)      -> not counted
#   eve      "=Eve Evil"'s patch, 2024-03-01, unanswered        -> ignored
#            (her name would be a formula in a spreadsheet: CSV quotes it)
#   recent   Rita's patch, 2024-05-20: under four weeks before the line
#                                                            -> too recent
#   late     Lou's patch, 2024-07-01: after the newest commit -> unknown
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

patch_repo
who Maint maint@example.org
commit 2024-01-02T10:00:00 README base "base"
commit 2024-01-03T10:00:00 src/a.c a "a: start"
commit 2024-01-03T11:00:00 src/b.c b "b: start"
commit 2024-01-03T12:00:00 lib/x.c x "lib: start"
base=$(git -C "$R" rev-parse HEAD)

who Ian ian@example.org
commit 2024-02-01T10:00:00 src/a.c frob1 "a: frob one"; body ign1
commit 2024-02-01T10:00:00 src/a.c frob2 "a: frob two"; body ign2
who Bea bea@example.org
commit 2024-02-05T10:00:00 src/b.c tweak "b: tweak"; body bot
who Nat nat@example.org
commit 2024-02-10T10:00:00 lib/x.c fix "lib: fix x"; body notice
who Dan dan@example.org
commit 2024-02-03T10:00:00 src/a.c talk "a: talk"; body talk
who Sam sam@example.org
commit 2024-02-15T10:00:00 src/c.c c-draft "src: add c"; body silent1
KEEP=1 commit 2024-02-20T10:00:00 src/c.c c "src: add c"
KEEP=1 body silent2
applied=$(git -C "$R" rev-parse HEAD)
who Hal hal@example.org
commit 2024-02-06T10:00:00 src/h.c helper-draft "b: add a helper to batch requests"; body reword1
KEEP=1 commit 2024-02-08T10:00:00 src/h.c helper "b: add a helper to batch reqs"
KEEP=1 body reword2
hal=$(git -C "$R" rev-parse HEAD)
who Kay kay@example.org
commit 2024-02-12T10:00:00 io_uring/io_uring.c ring "io_uring: ring"; body other
who "=Eve Evil" eve@example.org
commit 2024-03-01T10:00:00 src/b.c eve "b: eve"; body eve
who Rita rita@example.org
commit 2024-05-20T10:00:00 src/a.c recent "a: recent"; body recent
who Lou lou@example.org
commit 2024-07-01T10:00:00 src/b.c late "b: late"; body late
who Maint maint@example.org
commit 2024-06-01T10:00:00 README more "README: more"
[ "$(git -C "$R" ls-files | tr '\n' ' ')" = "README lib/x.c src/a.c src/b.c src/c.c src/h.c " ] ||
	fail "the history is not what the test expects"

text() { printf '%s\n' "$@" >"$TMP/text.body"; echo "$TMP/text.body"; }
{
	mail "$(text 'Two frobs.')" "Ian <ian@example.org>" \
		"Thu, 01 Feb 2024 09:00:00 +0000" "ign0@x" "[PATCH 0/2] a: frob"
	mail "$TMP/ign1.body" "Ian <ian@example.org>" \
		"Thu, 01 Feb 2024 09:00:01 +0000" "ign1@x" "[PATCH 1/2] a: frob one" ign0@x
	mail "$TMP/ign2.body" "Ian <ian@example.org>" \
		"Thu, 01 Feb 2024 09:00:02 +0000" "ign2@x" "[PATCH 2/2] a: frob two" ign0@x
	mail "$(text 'ping?')" "Ian <ian@example.org>" \
		"Thu, 15 Feb 2024 09:00:00 +0000" "ign3@x" "Re: [PATCH 0/2] a: frob" ign0@x
	mail "$TMP/bot.body" "Bea <bea@example.org>" \
		"Mon, 05 Feb 2024 10:00:00 +0000" "bot1@x" "[PATCH] b: tweak"
	mail "$(text 'Hi Bea,' '' 'kernel test robot noticed the following build warnings:')" \
		"kernel test robot <lkp@intel.com>" \
		"Tue, 06 Feb 2024 10:00:00 +0000" "bot2@x" "Re: [PATCH] b: tweak" bot1@x
	mail "$TMP/notice.body" "Nat <nat@example.org>" \
		"Sat, 10 Feb 2024 10:00:00 +0000" "nat1@x" "[PATCH] lib: fix x"
	mail "$(text 'Thanks, applied.')" "Maint <maint@example.org>" \
		"Sun, 11 Feb 2024 10:00:00 +0000" "nat2@x" "Re: [PATCH] lib: fix x" nat1@x
	mail "$TMP/talk.body" "Dan <dan@example.org>" \
		"Sat, 03 Feb 2024 10:00:00 +0000" "dan1@x" "[PATCH] a: talk"
	mail "$(text 'Why would we want this?')" "Rev <rev@example.org>" \
		"Sun, 04 Feb 2024 10:00:00 +0000" "dan2@x" "Re: [PATCH] a: talk" dan1@x
	mail "$TMP/silent1.body" "Sam <sam@example.org>" \
		"Thu, 15 Feb 2024 10:00:00 +0000" "sam1@x" "[PATCH] src: add c"
	mail "$TMP/silent2.body" "Sam <sam@example.org>" \
		"Tue, 20 Feb 2024 10:00:00 +0000" "sam2@x" "[PATCH v2] src: add c"
	mail "$TMP/reword1.body" "Hal <hal@example.org>" \
		"Tue, 06 Feb 2024 10:00:00 +0000" "hal1@x" "[PATCH] b: add a helper to batch requests"
	mail "$TMP/reword2.body" "Hal <hal@example.org>" \
		"Thu, 08 Feb 2024 10:00:00 +0000" "hal2@x" "[PATCH v2] b: add a helper to batch reqs"
	mail "$TMP/other.body" "Kay <kay@example.org>" \
		"Mon, 12 Feb 2024 10:00:00 +0000" "kay1@x" "[PATCH] io_uring: ring"
	mail "$TMP/eve.body" "=Eve Evil <eve@example.org>" \
		"Fri, 01 Mar 2024 10:00:00 +0000" "eve1@x" "[PATCH] b: eve"
	mail "$TMP/recent.body" "Rita <rita@example.org>" \
		"Mon, 20 May 2024 10:00:00 +0000" "rita1@x" "[PATCH] a: recent"
	mail "$TMP/late.body" "Lou <lou@example.org>" \
		"Mon, 01 Jul 2024 10:00:00 +0000" "lou1@x" "[PATCH] b: late"
} >"$TMP/list.mbox"

DB=$TMP/o.db
"$ONLIST" -q --db "$DB" import --list proj "$TMP/list.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$DB" scan --repo "$R" "$base~3..main" >/dev/null || fail "scan"
"$ONLIST" -q --db "$DB" match >/dev/null || fail "match"

# the list, by hand
cat >"$TMP/want" <<'EOT'
2024-02-01 proj Ian: [PATCH 0/2] a: frob (v1) <ign0@x>
2024-02-05 proj Bea: [PATCH] b: tweak (v1) <bot1@x>
2024-03-01 proj =Eve Evil: [PATCH] b: eve (v1) <eve1@x>

3 ignored; also 2 applied, 1 answered, 1 answered only by an applied notice, 1 superseded by a later version, 1 another project's, 1 too recent, 1 unknown (posted outside the scanned history)
EOT
run ignored "$ONLIST" --db "$DB" ignored
expect_rc ignored 0
sed '$d' "$TMP/out" >"$TMP/got"
same_output "ignored" "$TMP/want" "$TMP/got" || bad "ignored: the list"
tail -n 1 "$TMP/out" | grep -q "^judged: series posted 2024-01-03\.\.2024-05-04; 6 commits dated 2024-01-03\.\.2024-06-01 of .*repo, newest mail 2024-07-01$" ||
	bad "ignored: the scope line"

# every state, in JSON
run json "$ONLIST" --db "$DB" ignored --state all --json
expect_rc json 0
python3 - "$TMP/out" >"$TMP/got" <<'EOT' || bad "json: not what the schema says"
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(d["counts"].items()))
print(d["scope"]["first_commit"], d["scope"]["last_commit"], d["scope"]["last_mail"],
      d["scope"]["line"], d["scope"]["age_days"], d["scope"]["commits"])
for s in d["series"]:
    print(s["state"], s["message_id"], s["date"], s["versions"], s["series"],
          s["patches"], s["reply"], (s["commit"] or "")[:7], s["link"])
EOT
cat >"$TMP/want" <<EOT
[('answered', 1), ('applied', 2), ('ignored', 3), ('notice_only', 1), ('other_project', 1), ('superseded', 1), ('too_recent', 1), ('unknown_after', 1), ('unknown_before', 0)]
2024-01-03T10:00:00Z 2024-06-01T10:00:00Z 2024-07-01T10:00:00Z 2024-05-04T10:00:00Z 28 6
ignored ign0@x 2024-02-01T09:00:02Z [1] 1 2 None  https://lore.kernel.org/r/ign0@x
answered dan1@x 2024-02-03T10:00:00Z [1] 1 1 dan2@x  https://lore.kernel.org/r/dan1@x
ignored bot1@x 2024-02-05T10:00:00Z [1] 1 1 None  https://lore.kernel.org/r/bot1@x
superseded hal1@x 2024-02-06T10:00:00Z [1] 1 1 None  https://lore.kernel.org/r/hal1@x
applied hal2@x 2024-02-08T10:00:00Z [2] 1 1 None $(echo "$hal" | cut -c1-7) https://lore.kernel.org/r/hal2@x
notice_only nat1@x 2024-02-10T10:00:00Z [1] 1 1 nat2@x  https://lore.kernel.org/r/nat1@x
other_project kay1@x 2024-02-12T10:00:00Z [1] 1 1 None  https://lore.kernel.org/r/kay1@x
applied sam2@x 2024-02-20T10:00:00Z [1, 2] 2 1 None $(echo "$applied" | cut -c1-7) https://lore.kernel.org/r/sam2@x
ignored eve1@x 2024-03-01T10:00:00Z [1] 1 1 None  https://lore.kernel.org/r/eve1@x
too_recent rita1@x 2024-05-20T10:00:00Z [1] 1 1 None  https://lore.kernel.org/r/rita1@x
unknown_after lou1@x 2024-07-01T10:00:00Z [1] 1 1 None  https://lore.kernel.org/r/lou1@x
EOT
same_output "json" "$TMP/want" "$TMP/got" || bad "json: the states"

# the filters
only() {	# only LABEL EXPECTED-MSGIDS ARGS...
	l=$1 w=$2; shift 2
	got=$("$ONLIST" --db "$DB" ignored --json "$@" | python3 -c '
import json, sys
print(" ".join(s["message_id"] for s in json.load(sys.stdin)["series"]))')
	echo "$l: $got"
	[ "$got" = "$w" ] || bad "$l: got '$got', expected '$w'"
}
only since "bot1@x eve1@x" --since 2024-02-02
only until "ign0@x" --until 2024-02-02
only sender "bot1@x" --sender BEA
only list-none "" --list other
only list "ign0@x bot1@x eve1@x" --list proj
only paths-src "ign0@x bot1@x eve1@x" --paths src
only paths-b "bot1@x eve1@x" --paths ./src/b.c
only paths-lib "" --paths lib/
only age "ign0@x bot1@x eve1@x rita1@x" --age 1w
only age-days "ign0@x bot1@x" --age 93d

# CSV: quoted, and a name that a spreadsheet would run is defused
run csv "$ONLIST" --db "$DB" ignored --format csv
expect_rc csv 0
grep -q "^\"ignored\",\"2024-03-01T10:00:00Z\",\"proj\",\"'=Eve Evil\",\"eve@example.org\",\"\[PATCH\] b: eve\",\"v1\",1,1,\"eve1@x\"," "$TMP/out" ||
	bad "csv: Eve's row"
[ "$(wc -l <"$TMP/out")" -eq 4 ] || bad "csv: a header and three rows"

# lookup MESSAGE-ID: applied (which commit), answered, or ignored
look() {	# look LABEL ARG RC FIRST-LINE
	run "lookup $1" "$ONLIST" --db "$DB" lookup "$2"
	expect_rc "lookup $1" "$3"
	[ "$(head -n 1 "$TMP/out")" = "$4" ] || bad "lookup $1: '$(head -n 1 "$TMP/out")'"
}
look ignored ign1@x 1 "<ign1@x>: ignored: nobody but its authors and bots answered any version, and no scanned commit has one"
look bot "<bot1@x>" 1 "<bot1@x>: ignored: nobody but its authors and bots answered any version, and no scanned commit has one"
look reply dan2@x 0 "<dan2@x>: answered: by Rev on 2024-02-04 <dan2@x>"
look url https://lore.kernel.org/proj/nat1@x/T/ 0 "<nat1@x>: notice_only: only an applied notice, and no scanned commit has it: Maint on 2024-02-11 <nat2@x>"
look silent-v1 https://lore.kernel.org/r/sam1%40x 0 "<sam1@x>: applied: commit $applied"
look reword hal1@x 0 "<hal1@x>: superseded: unanswered, but a later series of its sender, changing the same files under much the same subject, was applied or answered"
look other kay1@x 0 "<kay1@x>: other_project: touches no file of the scanned repository"
look recent rita1@x 3 "<rita1@x>: too_recent: posted less than the age before the newest commit and mail"
look late lou1@x 3 "<lou1@x>: unknown_after: posted outside the scanned history (2024-01-03..2024-06-01)"
look none nosuch@x 1 ""
run "lookup json" "$ONLIST" --db "$DB" lookup --json sam1@x ign0@x "$applied"
got=$(python3 -c '
import json, sys
print(" ".join(x.get("state") or ("posted" if x["posted"] else "not posted")
               for x in json.load(open(sys.argv[1]))))' "$TMP/out")
[ "$got" = "applied ignored posted" ] || bad "lookup json: '$got'"
# one entry a line, postings and commits alike: "[", three "  {...}", "]"
got=$(awk 'NR == 1 && $0 != "[" || NR > 1 && NR < 5 && !/^  \{.*\},?$/ ||
	   NR == 5 && $0 != "]" || NR > 5 { print NR ": " $0 }' "$TMP/out")
[ -z "$got" ] || bad "lookup json layout: $got"

# the weekly report: the series whose four weeks ended in its week
week() {	# week LABEL WEEK COUNT MSGIDS
	got=$("$ONLIST" --db "$DB" report --week "$2" --format json | python3 -c '
import json, sys
u = json.load(sys.stdin)["still_unanswered"]
print(u["count"], u["age_days"], " ".join(s["message_id"] for s in u["series"]))')
	echo "report $1: $got"
	[ "$got" = "$3 28 $4" ] || bad "report $1: got '$got', expected '$3 28 $4'"
}
week W09 2024-W09 1 "ign0@x"
week W10 2024-W10 1 "bot1@x"
week W13 2024-W13 1 "eve1@x"
week W08 2024-W08 0 ""
week W25 2024-W25 0 ""	# Rita's four weeks end then, but after the line
run "report text" "$ONLIST" --db "$DB" report --week 2024-W09 --format text
grep -q "^Posted 4 weeks ago, still unanswered (1)$" "$TMP/out" || bad "report text: the section"
grep -q "^2024-02-01 Ian: \[PATCH 0/2\] a: frob <ign0@x>$" "$TMP/out" || bad "report text: the series"
run "report html" "$ONLIST" --db "$DB" report --week 2024-W10 --format html
grep -q "<p class=\"lg\">This week also: 1 series posted 4 weeks before, still unanswered</p>" "$TMP/out" ||
	bad "report html: the chart's totals line"
grep -q "<h2>Posted 4 weeks ago, still unanswered (1)</h2>" "$TMP/out" || bad "report html: the section"

# status says what the judgement uses
run status "$ONLIST" --db "$DB" status
grep -q "^ignored:  judged against .*repo (6 commits dated 2024-01-03\.\.2024-06-01, 6 paths) and the mail up to 2024-07-01: series posted 2024-01-03\.\.2024-05-04 are judged$" "$TMP/out" ||
	bad "status: the ignored line"
run "status json" "$ONLIST" --db "$DB" status --json
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["ignored_scope"]
assert (s["commits"], s["paths"], s["line"], s["last_mail"]) == \
    (6, 6, "2024-05-04T10:00:00Z", "2024-07-01T10:00:00Z"), s' "$TMP/out" || bad "status json: ignored_scope"

# bad arguments
for a in "--age soon" "--age -1" "--since 2024-13-01" "--state nosuch" "extra"; do
	run "usage $a" "$ONLIST" --db "$DB" ignored $a
	expect_rc "usage $a" 2
done

[ $nfail -eq 0 ] && echo "all checks passed"
[ $nfail -eq 0 ]
