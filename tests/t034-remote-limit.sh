#!/bin/sh
# match --remote asks before it would make more than 2,000 requests (about
# 6 a commit): 350 scanned commits with no posting are refused without
# --yes, with a line that says how many and what to do, and no request is
# made (the URL is a port nothing listens on).  Bad --pace is a usage error.
. tests/lib.sh
need_cmd git
need_onlist
make_tmp
isolate_git

R=$TMP/repo
git init -q -b main "$R" || fail "git init"
{
	i=1
	while [ $i -le 350 ]; do
		echo "commit refs/heads/main"
		echo "committer T <t@example.org> $((1600000000 + i)) +0000"
		echo "data <<END"
		echo "change $i"
		echo "END"
		echo "M 644 inline f$i"
		echo "data <<END"
		echo "$i"
		echo "END"
		i=$((i + 1))
	done
} | git -C "$R" fast-import --quiet || fail "fast-import"
"$ONLIST" -q --db "$TMP/l.db" scan --repo "$R" main >/dev/null || fail "scan"

run "over the limit" "$ONLIST" --db "$TMP/l.db" match --remote http://127.0.0.1:9/x/ --pace 0
expect_rc "over the limit" 2
grep -q "350 commits.*about 2100 requests.*--yes" "$TMP/err" || bad "no clear refusal: $(cat "$TMP/err")"
grep -q "connect\|refused" "$TMP/err" && bad "a request was made"

run "bad pace" "$ONLIST" --db "$TMP/l.db" match --remote http://127.0.0.1:9/x/ --pace -1
expect_rc "bad pace" 2
run "bad pace lookup" "$ONLIST" --db "$TMP/l.db" lookup --remote http://127.0.0.1:9/x/ --pace x HEAD
expect_rc "bad pace lookup" 2
run "repo without remote" "$ONLIST" --db "$TMP/l.db" lookup --repo "$R" HEAD
expect_rc "--repo without --remote" 2
[ $nfail -eq 0 ] && echo "all checks passed"
exit $nfail
