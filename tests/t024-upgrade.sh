#!/bin/sh
# A database made by an older onlist, opened by this one, holds what a fresh
# import of the same mail would, and lookup and report say the same of it.
#
# The old databases are made the way onlist made them: the same mail
# imported and scanned, then the tables of the later schema versions
# dropped (4: message_info, message_trailers, pulls, thread, series,
# replies; 5: message_patch, commit_patch, echoes) and PRAGMA user_version
# set back; a cover letter or pull request stored as a patch, as import
# did before version 4.  `onlist match` then opens (and upgrades) it and
# rebuilds the derived tables.  Two corpora: the fixture of
# make-fixtures.sh (mbox and maildir) and the threads of t015-threads.py
# (replies with review tags, change-ids, pull requests).
#
# Also: a version 4 database made before step 5's tables existed gets
# them filled; one whose mail is gone gets message_info from its headers;
# a database of a newer onlist is refused.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

q() { sqlite3 "$1" "$2"; }

# v4 and v5 tables; an index of step 5 on a version 1 table
V4_TABLES="message_info message_trailers pulls thread series replies"
V5_TABLES="message_patch commit_patch echoes"
make_old() {	# make_old DB VERSION: back to what that version kept
	for t in $V5_TABLES; do q "$1" "DROP TABLE $t"; done
	q "$1" "DROP INDEX IF EXISTS messages_from_lower"
	if [ "$2" -lt 4 ]; then
		# before classes, a cover letter or a pull request with a diff
		# was stored as a patch (with a patch-id no commit has)
		q "$1" "UPDATE messages SET has_patch = 1, patch_source = 'inline',
			patch_id = '0123456789012345678901234567890123456789'
			WHERE msgid IN (SELECT msgid FROM message_info
			WHERE class IN ('cover', 'pull'))"
		for t in $V4_TABLES; do q "$1" "DROP TABLE $t"; done
	fi
	q "$1" "PRAGMA user_version = $2"
	[ "$(q "$1" 'PRAGMA user_version')" = "$2" ] || fail "could not make $1 old"
}

# What import writes, dumped in a stable order (blobs as hex).
dump_import() {
	q "$1" "SELECT msgid, has_patch, patch_id, patch_source FROM messages ORDER BY msgid"
	q "$1" "SELECT * FROM message_info ORDER BY msgid"
	q "$1" "SELECT * FROM message_trailers ORDER BY msgid, seq"
	q "$1" "SELECT * FROM pulls ORDER BY msgid"
	q "$1" "SELECT msgid, repaired_id, hex(fp), hex(words), files, added, removed
		FROM message_patch ORDER BY msgid"
}

# compare LABEL FRESH OLD RANGE REPO: the upgraded database against the
# fresh one; both have been matched
compare() {
	label=$1 fresh=$2 old=$3 range=$4 repo=$5
	[ "$(q "$old" 'PRAGMA user_version')" = "$(q "$fresh" 'PRAGMA user_version')" ] ||
		bad "$label: schema version $(q "$old" 'PRAGMA user_version') after the upgrade"
	[ -z "$(q "$old" "SELECT value FROM meta WHERE key = 'upgrade_backfill'")" ] ||
		bad "$label: still marked as owing rows after the upgrade"
	dump_import "$fresh" >"$TMP/fresh.dump"
	dump_import "$old" >"$TMP/old.dump"
	same_output "$label: what import keeps (< fresh, > upgraded)" \
		"$TMP/fresh.dump" "$TMP/old.dump" || bad "$label: tables differ"
	shas=$(git -C "$repo" rev-list --no-merges "$range")
	# shellcheck disable=SC2086
	"$ONLIST" --db "$fresh" lookup --json $shas >"$TMP/fresh.lookup" 2>&1
	# shellcheck disable=SC2086
	"$ONLIST" --db "$old" lookup --json $shas >"$TMP/old.lookup" 2>&1
	[ -s "$TMP/fresh.lookup" ] || bad "$label: lookup printed nothing"
	same_output "$label: lookup --json (< fresh, > upgraded)" \
		"$TMP/fresh.lookup" "$TMP/old.lookup" || bad "$label: lookup differs"
	"$ONLIST" --db "$fresh" report --format json "$range" >"$TMP/fresh.report" 2>&1 ||
		bad "$label: report on the fresh database failed"
	"$ONLIST" --db "$old" report --format json "$range" >"$TMP/old.report" 2>&1 ||
		bad "$label: report on the upgraded database failed"
	same_output "$label: report --format json (< fresh, > upgraded)" \
		"$TMP/fresh.report" "$TMP/old.report" || bad "$label: report differs"
}

# build DB REPO RANGE SOURCE...: import each source, scan
build() {
	db=$1 repo=$2 range=$3
	shift 3
	for src in "$@"; do
		"$ONLIST" -q --db "$db" import --list fixture "$src" >/dev/null ||
			fail "import $src into $db"
	done
	"$ONLIST" -q --db "$db" scan --repo "$repo" "$range" >/dev/null || fail "scan $db"
}

# ---- the fixture, from version 3 (before classes and threads) ------------
FX=$TMP/fx
sh fixtures/make-fixtures.sh "$FX" >"$TMP/fixture.log" 2>&1 ||
	{ cat "$TMP/fixture.log"; fail "the fixture could not be built"; }
for db in fresh old; do
	build "$TMP/fx-$db.db" "$FX/repo" v1.0..v1.1 "$FX/list.mbox" "$FX/list.maildir"
done
make_old "$TMP/fx-old.db" 3
run "fixture: match (fresh)" "$ONLIST" --db "$TMP/fx-fresh.db" match
expect_rc "fixture: match (fresh)" 0
run "fixture: match (upgrade from 3)" "$ONLIST" --db "$TMP/fx-old.db" match
expect_rc "fixture: match (upgrade from 3)" 0
compare "fixture from 3" "$TMP/fx-fresh.db" "$TMP/fx-old.db" v1.0..v1.1 "$FX/repo"

# ---- threads, reviews, pull requests, from version 3 ----------------------
W=$TMP/w
python3 tests/t015-threads.py "$W" >/dev/null || fail "the t015 mails could not be built"
for db in fresh old; do
	build "$TMP/w-$db.db" "$W/repo" HEAD "$W/list.mbox"
done
make_old "$TMP/w-old.db" 3
[ "$(q "$TMP/w-old.db" 'SELECT count(*) FROM messages WHERE patch_id LIKE "0123%"')" -gt 0 ] ||
	bad "threads: no cover letter or pull request to store as a patch"
"$ONLIST" -q --db "$TMP/w-fresh.db" match >/dev/null || bad "threads: match (fresh)"
run "threads: match (upgrade from 3)" "$ONLIST" --db "$TMP/w-old.db" match
expect_rc "threads: match (upgrade from 3)" 0
compare "threads from 3" "$TMP/w-fresh.db" "$TMP/w-old.db" HEAD "$W/repo"
# the review tags are what the fresh import found (not zero, not unknown)
grep -q '"review_tags": [1-9]' "$TMP/old.report" ||
	bad "threads: the upgraded report shows no review tags"

# ---- version 4 without step 5's tables; any command upgrades --------------
cp "$TMP/fx-fresh.db" "$TMP/v4.db"
make_old "$TMP/v4.db" 4
run "v4: status" "$ONLIST" --db "$TMP/v4.db" status
expect_rc "v4: status" 0
dump_import "$TMP/fx-fresh.db" >"$TMP/fresh.dump"
dump_import "$TMP/v4.db" >"$TMP/v4.dump"
same_output "v4: what import keeps (< fresh, > upgraded)" \
	"$TMP/fresh.dump" "$TMP/v4.dump" || bad "v4: message_patch not filled"

# ---- the mail is gone: message_info from the headers ----------------------
mkdir "$TMP/gone"
cp "$FX/list.mbox" "$TMP/gone/list.mbox"
build "$TMP/gone.db" "$FX/repo" v1.0..v1.1 "$TMP/gone/list.mbox"
make_old "$TMP/gone.db" 3
rm -r "$TMP/gone"
run "gone: match" "$ONLIST" --db "$TMP/gone.db" match
expect_rc "gone: match" 0
n=$(q "$TMP/gone.db" "SELECT count(*) FROM messages m WHERE NOT EXISTS
	(SELECT 1 FROM message_info i WHERE i.msgid = m.msgid)")
[ "$n" = 0 ] || bad "gone: $n messages without message_info"
n=$(q "$TMP/gone.db" "SELECT count(*) FROM messages WHERE patch_id LIKE '0123%'")
[ "$n" = 0 ] || bad "gone: $n cover letters or pull requests still stored as patches"
n=$(q "$TMP/gone.db" "SELECT count(*) FROM message_info WHERE class = 'cover'")
m=$(q "$TMP/fx-fresh.db" "SELECT count(*) FROM message_info WHERE class = 'cover'")
[ "$n" = "$m" ] || bad "gone: $n cover letters found by subject, the fresh import has $m"
[ -z "$(q "$TMP/gone.db" "SELECT value FROM meta WHERE key = 'upgrade_backfill'")" ] ||
	bad "gone: still marked as owing rows"
run "gone: report" "$ONLIST" --db "$TMP/gone.db" report --format json v1.0..v1.1
expect_rc "gone: report" 0

# ---- a newer onlist's database is refused, untouched ----------------------
cp "$TMP/fx-fresh.db" "$TMP/newer.db"
q "$TMP/newer.db" "PRAGMA user_version = 99"
run "newer: status" "$ONLIST" --db "$TMP/newer.db" status
expect_rc "newer: status" 1
grep -q 'newer onlist' "$TMP/err" || bad "newer: the error does not say why"
[ "$(q "$TMP/newer.db" 'PRAGMA user_version')" = 99 ] || bad "newer: the version was changed"

[ $nfail -eq 0 ]
