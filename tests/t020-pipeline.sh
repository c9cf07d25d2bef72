#!/bin/sh
# The whole pipeline on the fixture of fixtures/make-fixtures.sh: import the
# archive (mbox, then the same gzipped: nothing new; then the maildir), scan
# v1.0..v1.1, match, and `unposted v1.0..v1.1 --format json` must name
# exactly the commits of expected-unposted.txt, in that order.  Then lookup
# (posted, never posted, unknown), the matches table against postings.txt,
# idempotence of scan and match (sqlite3 .dump before and after), and the
# range filter of unposted after scanning more than the range.
#
# The expected files come from the fixture generator's own choices; with
# --check git confirms them before onlist runs, so a failure here is onlist's.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_cmd gzip
need_onlist
make_tmp
isolate_git

count() { grep "^$1=" "$FX/expected-counts" | cut -d= -f2; }
# field N WORD: the number before WORD in the import summary line
field() { sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p" "$TMP/out" | head -n 1; }

FX=$TMP/fx
DB=$TMP/onlist.db
echo "+ sh fixtures/make-fixtures.sh --check $FX"
sh fixtures/make-fixtures.sh --check "$FX" >"$TMP/fixture.log" 2>&1 ||
	{ cat "$TMP/fixture.log"; fail "the fixture could not be built (not onlist's fault)"; }
tail -n 2 "$TMP/fixture.log"

# ---- import ----------------------------------------------------------------
run import-mbox "$ONLIST" --db "$DB" import --list fixture "$FX/list.mbox"
expect_rc import-mbox 0
[ "$(field messages)" = "$(count mbox_messages)" ] ||
	bad "import list.mbox: '$(field messages)' messages, expected $(count mbox_messages)"
[ "$(field new)" = "$(count mbox_msgids)" ] ||
	bad "import list.mbox: '$(field new)' new, expected $(count mbox_msgids) (one mail is in it twice)"

run import-gz "$ONLIST" --db "$DB" import --list fixture "$FX/list.mbox.gz"
expect_rc import-gz 0
[ "$(field messages)" = "$(count mbox_messages)" ] ||
	bad "import list.mbox.gz: '$(field messages)' messages, expected $(count mbox_messages)"
[ "$(field new)" = 0 ] || bad "import list.mbox.gz after list.mbox: '$(field new)' new, expected 0"

run import-maildir "$ONLIST" --db "$DB" import --list fixture "$FX/list.maildir"
expect_rc import-maildir 0
[ "$(field messages)" = "$(count maildir_messages)" ] ||
	bad "import list.maildir: '$(field messages)' messages, expected $(count maildir_messages)"
[ "$(field new)" = "$(count maildir_new)" ] ||
	bad "import list.maildir: '$(field new)' new, expected $(count maildir_new)"

# ---- scan, match -----------------------------------------------------------
run scan "$ONLIST" --db "$DB" scan --repo "$FX/repo" v1.0..v1.1
expect_rc scan 0
run match "$ONLIST" --db "$DB" match
expect_rc match 0

# match's own summary as JSON: a second run matches the same commits, and
# its counts agree with the database
run "match json" "$ONLIST" --db "$DB" match --format json -q
expect_rc "match json" 0
python3 - "$TMP/out" "$DB" <<'EOF' || bad "match --format json (see above)"
import json, sqlite3, sys
m = json.load(open(sys.argv[1]))
db = sqlite3.connect(sys.argv[2])
q = lambda sql: db.execute(sql).fetchone()[0]
ok = True
want = {
    'commits': q("select count(*) from commits"),
    'commits_matched': q("select count(distinct commit_sha) from matches"
                         " where method not in ('late', 'echo')"),
}
for k, v in want.items():
    if m.get(k) != v:
        print('match --format json: %s is %r, expected %d' % (k, m.get(k), v))
        ok = False
pid = q("select count(*) from matches where method = 'patch-id'")
if m['matches']['patch-id'] != pid:
    print('match --format json: matches.patch-id is', m['matches']['patch-id'], 'not', pid)
    ok = False
sys.exit(0 if ok else 1)
EOF
run status "$ONLIST" --db "$DB" status --json
expect_rc status 0
cp "$TMP/out" "$TMP/status.json"
python3 - "$TMP/status.json" "$FX/expected-counts" <<'EOF' || bad "status --json (see above)"
import json, sys
st = json.load(open(sys.argv[1]))
exp = dict(l.strip().split('=') for l in open(sys.argv[2]))
want = {
    'messages': int(exp['all_msgids']),
    'patches': int(exp['all_patches']),
    'skipped': 0,
    'commits': int(exp['range_commits']),
    'matches': int(exp['range_postings']) + int(exp['range_modified']),
}
ok = True
for k, v in want.items():
    if st.get(k) != v:
        print('status --json: %s is %r, expected %d' % (k, st.get(k), v))
        ok = False
sys.exit(0 if ok else 1)
EOF
# each list's span: its first and last Date, read here from the mbox and
# the maildir with
# Python's own mail parser; never fetched (imported), so no "fetched"
python3 - "$TMP/status.json" "$FX/list.mbox" "$FX/list.maildir" <<'EOF' || bad "status --json: the list's span (see above)"
import json, mailbox, sys, time
from email.utils import parsedate_to_datetime
st = json.load(open(sys.argv[1]))
dates = []
for m in list(mailbox.mbox(sys.argv[2])) + list(mailbox.Maildir(sys.argv[3], create=False)):
    try:
        d = int(parsedate_to_datetime(m['Date']).timestamp())
    except Exception:
        continue
    if 0 < d <= time.time() + 86400:
        dates.append(d)
fmt = lambda t: time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(t))
got = st['lists']['fixture']
want = {'first': fmt(min(dates)), 'last': fmt(max(dates)), 'fetched': None}
bad = [k for k in want if got.get(k) != want[k]]
for k in bad:
    print('status --json: lists.fixture.%s is %r, expected %r' % (k, got.get(k), want[k]))
sys.exit(1 if bad else 0)
EOF
# a fetch records when it brought the list up to date
before=$(date -u +%s)
run fetch-local "$ONLIST" --db "$DB" fetch --list fixture "$FX/list.mbox"
expect_rc fetch-local 0
run status-fetched "$ONLIST" --db "$DB" status --json
python3 - "$TMP/out" "$before" <<'EOF' || bad "status --json: no fetched time after a fetch (see above)"
import calendar, json, sys, time
f = json.load(open(sys.argv[1]))['lists']['fixture'].get('fetched')
t = f and calendar.timegm(time.strptime(f, '%Y-%m-%dT%H:%M:%SZ'))
ok = bool(t) and int(sys.argv[2]) <= t <= time.time() + 1
print('' if ok else 'fetched is %r, expected a time after %s' % (f, sys.argv[2]))
sys.exit(0 if ok else 1)
EOF
run status-text "$ONLIST" --db "$DB" status
grep -q '^  fixture .* with a patch, [0-9-]*\.\.[0-9-]*, fetched [0-9-]*$' "$TMP/out" ||
	bad "status: no span and fetch date on the list's line"

# every match is a posting of postings.txt and every posting in range a match
git -C "$FX/repo" rev-list --no-merges v1.0..v1.1 >"$TMP/range"
awk 'NR == FNR { r[$1] = 1; next } ($1 in r) { print $1, $2 }' "$TMP/range" \
	"$FX/postings.txt" | sort -u >"$TMP/pairs.expected"
sqlite3 "$DB" "select commit_sha || ' ' || message_id from matches where method = 'patch-id'" |
	sort >"$TMP/pairs.db"
same_output "patch-id matches vs postings.txt (< expected, > database)" \
	"$TMP/pairs.expected" "$TMP/pairs.db" || bad "matches table"
# and the posted-then-changed ones by the tier the fixture says
awk 'NR == FNR { r[$1] = 1; next } ($1 in r) { print $1, $2, $3 }' "$TMP/range" \
	"$FX/modified.txt" | sort -u >"$TMP/mod.expected"
sqlite3 "$DB" "select commit_sha || ' ' || message_id || ' ' || method from matches where method != 'patch-id'" |
	sort >"$TMP/mod.db"
same_output "other matches vs modified.txt (< expected, > database)" \
	"$TMP/mod.expected" "$TMP/mod.db" || bad "repaired and fuzzy matches"

# ---- unposted --------------------------------------------------------------
check_unposted() {	# check_unposted LABEL: $TMP/out holds the JSON
	python3 - "$TMP/out" "$FX/expected-unposted.txt" "$1" <<'EOF'
import json, re, sys
label = sys.argv[3]
try:
    got = json.load(open(sys.argv[1], encoding='utf-8'))
except ValueError as e:
    print('%s: not JSON: %s' % (label, e))
    sys.exit(1)
want = open(sys.argv[2]).read().split()
ok = True
if not isinstance(got, list):
    print('%s: not a JSON array' % label)
    sys.exit(1)
for o in got:
    if not isinstance(o, dict) or not re.fullmatch(r'[0-9a-f]{40}', str(o.get('commit'))) \
            or not all(o.get(k) for k in ('subject', 'author', 'date')):
        print('%s: bad element %r' % (label, o))
        ok = False
shas = [o.get('commit') for o in got if isinstance(o, dict)]
if shas != want:
    ok = False
    print('%s: %d commits, expected %d' % (label, len(shas), len(want)))
    print('  listed but posted (or out of range):', [s[:12] for s in shas if s not in want][:8])
    print('  missing:', [s[:12] for s in want if s not in shas][:8])
    if sorted(shas) == sorted(want):
        print('  same commits, different order')
sys.exit(0 if ok else 1)
EOF
}
run unposted-json "$ONLIST" --db "$DB" unposted v1.0..v1.1 --format json
expect_rc unposted-json 0
check_unposted "unposted v1.0..v1.1 --format json" || bad "unposted --format json"

run unposted-text "$ONLIST" --db "$DB" unposted v1.0..v1.1
expect_rc unposted-text 0
cut -c1-12 "$FX/expected-unposted.txt" >"$TMP/short.expected"
cut -d' ' -f1 "$TMP/out" >"$TMP/short.got"
same_output "unposted v1.0..v1.1 (text): first words vs 12-char shas" \
	"$TMP/short.expected" "$TMP/short.got" || bad "unposted (text)"

# ---- lookup ------------------------------------------------------------------
# a commit posted once in the mbox (plain style), one posted more than once
# shellcheck disable=SC2046
set -- $(awk 'NR == FNR { r[$1] = 1; next } ($1 in r) && $4 == "plain" { print $1, $2; exit }' \
	"$TMP/range" "$FX/postings.txt")
posted=$1 posted_id=$2
run lookup-posted "$ONLIST" --db "$DB" lookup "$posted"
expect_rc lookup-posted 0
grep -qF "$posted_id" "$TMP/out" || bad "lookup $posted: Message-ID $posted_id not shown"
! grep -qi 'never posted' "$TMP/out" || bad "lookup $posted: says never posted"

multi=$(awk 'NR == FNR { r[$1] = 1; next } ($1 in r) { n[$1]++ } END { for (s in n) if (n[s] > 1) print s }' \
	"$TMP/range" "$FX/postings.txt" | sort | head -n 1)
if [ -n "$multi" ]; then
	run lookup-multi "$ONLIST" --db "$DB" lookup "$multi"
	expect_rc lookup-multi 0
	for id in $(awk -v s="$multi" '$1 == s { print $2 }' "$FX/postings.txt"); do
		grep -qF "$id" "$TMP/out" || bad "lookup $multi: posting $id not shown"
	done
fi

unposted=$(head -n 1 "$FX/expected-unposted.txt")
run lookup-unposted "$ONLIST" --db "$DB" lookup "$unposted"
expect_rc lookup-unposted 1	# exit 1: never posted
grep -qi 'never posted' "$TMP/out" || bad "lookup $unposted: does not say \"never posted\""

# --patch: the same answers for the patch itself, as a mail or a diff
git -C "$FX/repo" format-patch -1 --stdout "$posted" >"$TMP/posted.patch"
run lookup-patch "$ONLIST" --db "$DB" lookup --patch "$TMP/posted.patch"
expect_rc lookup-patch 0
grep -qF "$posted_id" "$TMP/out" || bad "lookup --patch (mail): Message-ID $posted_id not shown"
git -C "$FX/repo" show "$unposted" >"$TMP/unposted.diff"
run lookup-patch-unposted "$ONLIST" --db "$DB" lookup --json --patch "$TMP/unposted.diff"
expect_rc lookup-patch-unposted 1
grep -q '"posted": false' "$TMP/out" || bad "lookup --json --patch (diff): not \"posted\": false"

run lookup-unknown "$ONLIST" --db "$DB" lookup 0123456789abcdef0123456789abcdef01234567
expect_rc lookup-unknown 1
[ -s "$TMP/err" ] || [ -s "$TMP/out" ] || bad "lookup of an unknown commit says nothing"

run lookup-mixed "$ONLIST" --db "$DB" lookup "$posted" 0123456789abcdef0123456789abcdef01234567
expect_rc lookup-mixed 1
grep -qF "$posted_id" "$TMP/out" || bad "lookup KNOWN UNKNOWN: the known commit is not shown"

# ---- idempotence ---------------------------------------------------------------
sqlite3 "$DB" .dump >"$TMP/dump.before"
run rescan "$ONLIST" --db "$DB" scan --repo "$FX/repo" v1.0..v1.1
expect_rc rescan 0
run rematch "$ONLIST" --db "$DB" match
expect_rc rematch 0
sqlite3 "$DB" .dump >"$TMP/dump.after"
same_output "sqlite3 .dump before and after a second scan and match" \
	"$TMP/dump.before" "$TMP/dump.after" || bad "scan + match are not idempotent"

# ---- the range filter of unposted --------------------------------------------------
# with every commit of branch next scanned, unposted v1.0..v1.1 stays the same
run scan-all "$ONLIST" --db "$DB" scan --repo "$FX/repo" next
expect_rc scan-all 0
run match-all "$ONLIST" --db "$DB" match
expect_rc match-all 0
run unposted-json-2 "$ONLIST" --db "$DB" unposted v1.0..v1.1 --format json
expect_rc unposted-json-2 0
check_unposted "unposted v1.0..v1.1 --format json, after scanning next" ||
	bad "unposted RANGE after scanning more than RANGE"

run integrity sqlite3 "$DB" 'pragma integrity_check'
[ "$(cat "$TMP/out")" = ok ] || bad "pragma integrity_check: $(head -n 1 "$TMP/out")"

if [ $nfail -gt 0 ]; then
	echo "$nfail check(s) failed"
	exit 1
fi
echo "all checks passed"
