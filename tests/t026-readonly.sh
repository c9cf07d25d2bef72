#!/bin/sh
# The reading commands read a database they may not write: one in a folder
# the user cannot write (and the file itself read-only), as a shared
# database on a server usually is.  They used to fail with "attempt to write
# a readonly database" (the WAL set-up writes).  A database made by an
# older onlist still needs its upgrade, which needs write access: the
# message says so and what to do.
. tests/lib.sh
need_cmd git
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

# As root a read-only folder is no obstacle: drop the capabilities that make
# it one (setpriv is in util-linux, on every Debian).
asuser=
if [ "$(id -u)" = 0 ]; then
	asuser="setpriv --bounding-set=-dac_override,-dac_read_search,-fowner --inh-caps=-all"
	$asuser true 2>/dev/null || fail "setpriv cannot drop capabilities here"
fi

FX=$TMP/fx
RO=$TMP/ro
mkdir "$RO"
DB=$RO/onlist.db
fixture_db "$FX" "$DB"
sha=$(git -C "$FX/repo" rev-parse v1.1)
# what the same commands say while the database is writable
for c in "report --format json v1.0..v1.1" "stats --format json v1.0..v1.1" \
	 "export commits" "status" "unposted v1.0..v1.1" "lookup $sha"; do
	name=$(echo "$c" | tr ' ./' '___')
	# shellcheck disable=SC2086 # the words are the command line
	"$ONLIST" --db "$DB" $c >"$TMP/want.$name" 2>&1
done
chmod a-w "$DB" "$RO"
for c in "report --format json v1.0..v1.1" "stats --format json v1.0..v1.1" \
	 "export commits" "status" "unposted v1.0..v1.1" "lookup $sha"; do
	name=$(echo "$c" | tr ' ./' '___')
	# shellcheck disable=SC2086
	run "read-only: $c" $asuser "$ONLIST" --db "$DB" $c
	expect_rc "read-only: $c" 0
	! grep -q "readonly" "$TMP/err" || bad "read-only: $c: $(head -n 1 "$TMP/err")"
	cat "$TMP/out" "$TMP/err" >"$TMP/got.$name"
	same_output "read-only: $c" "$TMP/want.$name" "$TMP/got.$name" || bad "read-only: $c: not what it says on a writable database"
done
ls -A "$RO" >"$TMP/left"
[ "$(cat "$TMP/left")" = "$(printf 'onlist.db\nonlist.db-shm\nonlist.db-wal')" ] ||
	[ "$(cat "$TMP/left")" = onlist.db ] || bad "read-only: files appeared in the folder: $(tr '\n' ' ' <"$TMP/left")"

# an older schema: the upgrade is a write, and the message says what to do
chmod u+w "$DB" "$RO"
sqlite3 "$DB" 'PRAGMA user_version = 4' || fail "sqlite3"
chmod a-w "$DB" "$RO"
run "read-only, old schema" $asuser "$ONLIST" --db "$DB" report --format json v1.0..v1.1
expect_rc "read-only, old schema" 1
grep -q "older onlist" "$TMP/err" || bad "read-only, old schema: the message does not say why: $(head -n 1 "$TMP/err")"
grep -q "write access" "$TMP/err" || bad "read-only, old schema: the message does not say what is needed"
chmod u+w "$DB" "$RO"

[ $nfail -eq 0 ] && echo "all read-only checks passed"
[ $nfail -eq 0 ]
