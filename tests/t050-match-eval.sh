#!/bin/sh
# Matching measured on a labelled set: tests/t050-match-eval.py builds a
# repository of merged topic branches and the lists that saw it, and decides
# for every commit whether and how it was posted (unchanged, under another
# diff algorithm, mangled by a mailer, as a quilt patch, edited before
# merge; or never, only as an echo, only a week after the merge, only as a
# stable backport).  onlist imports, scans and matches; this script prints
# precision and recall per tier and for "posted" as a whole, and fails
# below the floors set here.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

W=$TMP/w
DB=$TMP/onlist.db
python3 tests/t050-match-eval.py "$W" "${SEED:-5050}" || fail "the evaluation set could not be built"
run import "$ONLIST" --db "$DB" import --list eval "$W/eval.mbox"
expect_rc import 0
run import-stable "$ONLIST" --db "$DB" import --list stable "$W/stable.mbox"
expect_rc import-stable 0
run scan "$ONLIST" --db "$DB" scan --repo "$W/repo" v1.0..v1.1
expect_rc scan 0
printf '# our CI mails every patch it tests back to the list\necho from ci-bot@example.org\n' >"$TMP/rules"
run match "$ONLIST" --db "$DB" match --rules "$TMP/rules"
expect_rc match 0
printf 'echo sender nobody\n' >"$TMP/bad-rules"
run bad-rules "$ONLIST" --db "$DB" match --rules "$TMP/bad-rules"
expect_rc bad-rules 2
grep -q 'bad-rules:1' "$TMP/err" || bad "a bad rules file: the error does not name the line"
# the same rules from the project's git config (onlist.rules): the same
# echoes and the same matches as with --rules
sqlite3 "$DB" "select * from echoes order by 1" >"$TMP/echoes.cli"
sqlite3 "$DB" "select commit_sha, method from matches order by 1, 2" >"$TMP/matches.cli"
[ -s "$TMP/echoes.cli" ] || bad "--rules: no echo recorded (test bug?)"
git -C "$W/repo" config onlist.rules "$TMP/rules"
run match-config-rules "$ONLIST" --db "$DB" match
expect_rc match-config-rules 0
sqlite3 "$DB" "select * from echoes order by 1" >"$TMP/echoes.cfg"
sqlite3 "$DB" "select commit_sha, method from matches order by 1, 2" >"$TMP/matches.cfg"
same_output "onlist.rules: echoes" "$TMP/echoes.cli" "$TMP/echoes.cfg" || bad "onlist.rules: not the echoes --rules gives"
same_output "onlist.rules: matches" "$TMP/matches.cli" "$TMP/matches.cfg" || bad "onlist.rules: not the matches --rules gives"
git -C "$W/repo" config onlist.rules "$TMP/bad-rules"
run bad-config-rules "$ONLIST" --db "$DB" match
expect_rc bad-config-rules 2
grep -q 'onlist.rules' "$TMP/err" || bad "a bad onlist.rules file: the error does not name the key"
run match-rules-again "$ONLIST" --db "$DB" match --rules "$TMP/rules"
expect_rc match-rules-again 0
git -C "$W/repo" config --unset onlist.rules
sqlite3 "$DB" "select commit_sha, method from matches" >"$TMP/matches"
"$ONLIST" --db "$DB" unposted --format json >"$TMP/unposted.json" || bad "unposted failed"

python3 - "$W/labels.txt" "$TMP/matches" "$TMP/unposted.json" <<'PY' || bad "below a floor (see above)"
import json, sys
labels = dict((l.split()[0], (l.split()[1], l.split()[2])) for l in open(sys.argv[1]))
methods = {}
for l in open(sys.argv[2]):
    sha, m = l.strip().split("|")
    methods.setdefault(sha, set()).add(m)
ORDER = ["link", "patch-id", "patch-id-alg", "repaired", "author-date", "subject", "fuzzy"]
def got(sha):
    ms = methods.get(sha, set())
    for m in ORDER:
        if m in ms:
            return m
    return "-"
unposted = set(c["commit"] for c in json.load(open(sys.argv[3])))
ok = True
print("%-13s %5s %5s %5s %9s %7s" % ("tier", "truth", "found", "right", "precision", "recall"))
for tier in ORDER + ["-"]:
    truth = set(s for s, (f, t) in labels.items() if t == tier)
    found = set(s for s in labels if got(s) == tier)
    right = truth & found
    p = len(right) / len(found) if found else 1.0
    r = len(right) / len(truth) if truth else 1.0
    print("%-13s %5d %5d %5d %9.2f %7.2f" % (tier if tier != "-" else "unposted",
          len(truth), len(found), len(right), p, r))
    # floors: the exact tiers must be exact; fuzzy is allowed a miss
    floor_p, floor_r = (0.9, 0.75) if tier == "fuzzy" else (1.0, 1.0)
    if tier == "-":
        floor_p, floor_r = 0.9, 1.0   # nothing unposted may look posted
    if p < floor_p or r < floor_r:
        print("  below the floor (precision %.2f, recall %.2f)" % (floor_p, floor_r))
        ok = False
for s, (f, t) in sorted(labels.items(), key=lambda x: x[1]):
    if got(s) != t:
        print("  %s %-9s expected %-12s got %s" % (s[:12], f, t, got(s)))
# the unposted command agrees with the matches table
want = set(s for s in labels if got(s) == "-")
if want != unposted:
    print("unposted lists %d commits, the matches table leaves %d unmatched" % (len(unposted), len(want)))
    ok = False
# echoes, late postings and backports are named, not counted
for s, (f, t) in labels.items():
    need = {"echo": "echo", "late": "late", "backport": "echo",
            "merged": "echo", "cibot": "echo"}.get(f)
    if need and need not in methods.get(s, set()):
        print("  %s %s: no '%s' row naming the mail" % (s[:12], f, need))
        ok = False
sys.exit(0 if ok else 1)
PY
# --explain names a refused link, its files and subject (escaped), and
# says nothing of the kind for a link that was taken
awk '$2 ~ /^link/ { print $1, $2 }' "$W/labels.txt" >"$TMP/links"
while read -r sha fate; do
	"$ONLIST" --db "$DB" match --explain "$sha" >"$TMP/explain" || { bad "--explain $sha failed"; continue; }
	mid=$(git -C "$W/repo" log -1 --format='%(trailers:key=Link,valueonly)' "$sha" | sed 's|.*/r/||')
	case $fate in
	linkother)
		grep -qF "Link: <$mid> names a patch that touches none of the commit's files (it touches src/other" "$TMP/explain" &&
		grep -q ") and has another subject (\"io_uring: add the .* opcode U+202Efast\"): not this commit's posting" "$TMP/explain" ||
			bad "--explain $fate: the refused link is not explained: $(cat "$TMP/explain")"
		grep -q "$(printf '\342\200\256')" "$TMP/explain" && bad "--explain: a raw U+202E in the output" ;;
	*)
		grep -q "names a patch" "$TMP/explain" && bad "--explain $fate: a link taken is said to be refused" ;;
	esac
done <"$TMP/links"
grep -q linkother "$TMP/links" || bad "no linkother commit in the set (test bug?)"
[ "$(sqlite3 "$DB" 'pragma integrity_check')" = ok ] || bad "integrity_check"
[ $nfail -eq 0 ] && echo "all checks passed"
