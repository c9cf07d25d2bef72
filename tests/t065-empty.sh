#!/bin/sh
# Reports over nothing: a week in which no commit landed, and a range with
# no commits.  Each ends with exit 0 and a document that says there were
# none (JSON: zero totals), never with a crash or a sanitizer report: an
# empty week once handed qsort() a NULL array (undefined behaviour that
# `make sanitize` reports, UBSan's "null pointer passed as argument").
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
fixture_db "$FX" "$DB"

# ISO week 1 of 1990: long before any fixture commit
for fmt in json md html; do
	run "empty week $fmt" "$ONLIST" --db "$DB" report --week 1990-W01 --format $fmt
	expect_rc "empty week $fmt" 0
	[ -s "$TMP/out" ] || bad "empty week $fmt: no output"
	[ $fmt != json ] || python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["commits"] == [], r["commits"]
assert all(v == 0 for v in r["totals"].values() if isinstance(v, int)), r["totals"]
' "$TMP/out" || bad "empty week json: not an empty report"
done
run "empty range report" "$ONLIST" --db "$DB" report --format json v1.1..v1.1
expect_rc "empty range report" 0
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["commits"] == []' "$TMP/out" ||
	bad "empty range report: not an empty report"
for fmt in text json; do
	run "empty range stats $fmt" "$ONLIST" --db "$DB" stats --format $fmt v1.1..v1.1
	expect_rc "empty range stats $fmt" 0
done
[ $nfail -eq 0 ] && echo "all empty-report checks passed"
[ $nfail -eq 0 ]
