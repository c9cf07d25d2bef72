#!/bin/sh
# onlist export: every table in both formats has the columns docs/schema.md
# lists, in that order; CSV and JSON lines carry the same rows; row counts
# equal the database's own; and the example queries in docs/schema.md run.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
fixture_db "$FX" "$DB"

run version "$ONLIST" export --schema-version
grep -q "^## Export schema, version $(cat "$TMP/out")$" docs/schema.md ||
	bad "docs/schema.md does not document export schema $(cat "$TMP/out")"
for t in commits postings matches reviews replies trailers; do
	run "export $t csv" "$ONLIST" --db "$DB" export --format csv "$t"
	expect_rc "export $t csv" 0
	cp "$TMP/out" "$TMP/$t.csv"
	run "export $t jsonl" "$ONLIST" --db "$DB" export --format jsonl -o "$TMP/$t.jsonl" "$t"
	expect_rc "export $t jsonl" 0
	case $t in
	commits) n=$(sqlite3 "$DB" "SELECT count(*) FROM commits") ;;
	postings) n=$(sqlite3 "$DB" "SELECT count(*) FROM messages") ;;
	matches) n=$(sqlite3 "$DB" "SELECT count(*) FROM matches") ;;
	trailers) n=$(sqlite3 "$DB" "SELECT count(*) FROM trailers") ;;
	reviews) n=$(sqlite3 "$DB" "SELECT count(*) FROM review_tags") ;;
	replies)	# the thread tables when they exist, else In-Reply-To
		if [ "$(sqlite3 "$DB" "SELECT count(*) FROM sqlite_master WHERE name IN ('replies', 'message_trailers')")" = 2 ]; then
			n=$(sqlite3 "$DB" "SELECT count(*) FROM matches x JOIN replies r ON r.patch = x.message_id WHERE x.method NOT IN ('echo', 'late')")
		else
			n=$(sqlite3 "$DB" "SELECT count(*) FROM matches x JOIN messages r ON r.in_reply_to = x.message_id WHERE NOT r.has_patch AND x.method NOT IN ('echo', 'late')")
		fi ;;
	esac
	python3 - "$t" "$TMP/$t.csv" "$TMP/$t.jsonl" docs/schema.md "$n" <<'PY' || bad "export $t (above)"
import csv, json, re, sys
t, csvf, jsonf, doc, n = sys.argv[1:6]
# the documented columns: the table rows after "### <t>"
cols, on = [], False
for line in open(doc):
    if line.startswith("#"):
        on = line.strip() == "### " + t
        continue
    if on:
        m = re.match(r"\| `([a-z_]+)` \| (\w+) \|", line)
        if m: cols.append((m.group(1), m.group(2)))
names = [c for c, _ in cols]
rows = list(csv.reader(open(csvf, newline="")))
jl = [json.loads(l) for l in open(jsonf)]
ok = True
if rows[0] != names: print("csv header", rows[0], "documented", names); ok = False
if len(rows) - 1 != int(n): print("csv rows", len(rows) - 1, "database", n); ok = False
if len(jl) != int(n): print("jsonl rows", len(jl), "database", n); ok = False
for j, r in zip(jl, rows[1:]):
    if list(j.keys()) != names: print("jsonl keys", list(j.keys())); ok = False; break
    for (c, ty), v in zip(cols, r):
        x = j[c]
        if x is None:
            if v != "": print(c, "null in jsonl, %r in csv" % v); ok = False
        elif ty == "integer":
            if not isinstance(x, int) or str(x) != v: print(c, x, v); ok = False
        elif ty == "real":
            if float(v) != x: print(c, x, v); ok = False
        elif x != v: print(c, repr(x), repr(v)); ok = False
    if not ok: break
sys.exit(0 if ok else 1)
PY
done
[ "$(wc -l <"$TMP/replies.jsonl")" -gt 0 ] || bad "the fixture has replies, but none were exported"
[ "$(wc -l <"$TMP/reviews.jsonl")" -gt 0 ] || bad "the fixture has review tags in replies, but none were exported"
# the example queries run
sed -n '/^```sql$/,/^```$/p' docs/schema.md | grep -v '^```' >"$TMP/examples.sql"
sqlite3 "$DB" <"$TMP/examples.sql" >"$TMP/examples.out" 2>&1 || { cat "$TMP/examples.out"; bad "docs/schema.md example queries fail"; }
# a number column holding text (a tampered database): still JSON
cp "$DB" "$TMP/tampered.db"
sqlite3 "$TMP/tampered.db" "
UPDATE matches SET score = 'nan' WHERE (commit_sha, message_id, method) =
	(SELECT commit_sha, message_id, method FROM matches
	 ORDER BY commit_sha, message_id, method LIMIT 1);
UPDATE matches SET score = '0x1f' WHERE (commit_sha, message_id, method) =
	(SELECT commit_sha, message_id, method FROM matches
	 ORDER BY commit_sha DESC, message_id, method LIMIT 1)" ||
	bad "could not tamper with the database"
for f in json jsonl; do
	run "tampered $f" "$ONLIST" --db "$TMP/tampered.db" export --format $f matches
	expect_rc "tampered $f" 0
	python3 -c '
import json, sys
t = open(sys.argv[1]).read()
rows = json.loads(t) if sys.argv[2] == "json" else [json.loads(l) for l in t.splitlines()]
s = sorted(str(r["score"]) for r in rows if isinstance(r["score"], str))
sys.exit(0 if s == ["0x1f", "nan"] else 1)' "$TMP/out" $f ||
		bad "export $f: a tampered number column breaks the JSON"
done
run "bad table" "$ONLIST" --db "$DB" export nothing
expect_rc "bad table" 2
[ $nfail -eq 0 ]
