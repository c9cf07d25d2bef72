#!/bin/sh
# The time bound in a history without merges: a commit landed with the
# first tag that contains it.  Three commits, a tag on the second (dated
# day 10), the third untagged; each posted with its exact patch:
#   1  posted on day 5                 -> posted (before the tag)
#   2  posted on day 20, after the tag -> late: unposted, the mail named
#   3  posted on day 40, no tag yet    -> posted (no bound yet)
# The commit dates are all day 1: a maintainer who committed before the
# posting must not make the posting late (only the tag bounds it).
. tests/lib.sh
need_cmd git
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

R=$TMP/repo
DB=$TMP/onlist.db
git init -q "$R"
day() { echo "@$((1370000000 + $1 * 86400)) +0000"; }
for i in 1 2 3; do
	echo "change $i" >"$R/f$i"
	git -C "$R" add -A
	GIT_AUTHOR_DATE=$(day 1) GIT_COMMITTER_DATE=$(day 1) git -C "$R" commit -q -m "change $i"
	[ $i -eq 2 ] && GIT_COMMITTER_DATE=$(day 10) git -C "$R" tag -a -m v1 v1
done
for i in 1 2 3; do
	case $i in 1) d=5 ;; 2) d=20 ;; 3) d=40 ;; esac
	git -C "$R" format-patch -1 --stdout "HEAD~$((3 - i))" |
		sed "s/^Date: .*/Date: $(date -R -u -d "$(day $d | cut -d' ' -f1)")/" >>"$TMP/list.mbox"
done
run import "$ONLIST" --db "$DB" import --list l "$TMP/list.mbox"
expect_rc import 0
run scan "$ONLIST" --db "$DB" scan --repo "$R" HEAD
expect_rc scan 0
run match "$ONLIST" --db "$DB" match
expect_rc match 0
got=$(sqlite3 "$DB" "select c.subject || ':' || m.method from matches m join commits c on c.sha = m.commit_sha order by c.subject" | tr '\n' ' ')
[ "$got" = "change 1:patch-id change 2:late change 3:patch-id " ] ||
	bad "matches: '$got', expected change 1 posted, change 2 late, change 3 posted"
"$ONLIST" --db "$DB" unposted >"$TMP/unposted"
[ "$(cut -d' ' -f2- "$TMP/unposted" | grep -c 'change 2')" = 1 ] && [ "$(wc -l <"$TMP/unposted")" = 1 ] ||
	bad "unposted: $(cat "$TMP/unposted"), expected change 2 alone"
sha2=$(git -C "$R" rev-parse HEAD~1)
run lookup "$ONLIST" --db "$DB" lookup "$sha2"
expect_rc lookup 1
grep -q 'after the commit landed: not counted' "$TMP/out" || bad "lookup does not name the late posting"
[ $nfail -eq 0 ] && echo "all checks passed"
