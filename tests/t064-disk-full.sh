#!/bin/sh
# A full disk during `onlist import`: the command ends with exit 1 and a
# message that says the disk is full (or a write came up short), the
# database passes `pragma integrity_check`, the summary line counts only
# what was committed, and once there is room again a re-run ends with the
# same content as an import that never ran out of space.
#
# The disk is a 1.2 MB tmpfs when we may mount one (root); otherwise the
# file size limit (`ulimit -f`, with SIGXFSZ ignored so that writes fail
# with EFBIG instead of killing the process; and once more with the signal
# left at its default, which onlist ignores itself).  All are run when
# possible.
. tests/lib.sh
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
mnt=
cleanup() { [ -n "$mnt" ] && umount "$mnt" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

sh fixtures/make-fixtures.sh "$TMP/fx" >"$TMP/fx.log" 2>&1 || fail "fixtures (not onlist's fault)"
python3 - "$TMP/big.mbox" <<'PY'
import sys
with open(sys.argv[1], 'wb') as f:
    for i in range(20000):
        f.write(b'From a@example.org Mon Jan  1 00:00:00 2001\n'
                b'Message-ID: <x.%d@example.org>\nSubject: [PATCH] c %d\n\n'
                b'Why.\n---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n'
                b'@@ -1 +1 @@\n-old\n+new %d\n\n' % (i, i, i))
PY
dump() { sqlite3 "$1" 'select msgid, subject, patch_id from messages order by msgid'; }
"$ONLIST" -q --db "$TMP/ref.db" import --list L "$TMP/fx/list.mbox" >/dev/null &&
"$ONLIST" -q --db "$TMP/ref.db" import --list B "$TMP/big.mbox" >/dev/null || fail "reference import"
dump "$TMP/ref.db" >"$TMP/ref.dump"

# full LABEL DB CMD-PREFIX...: import the fixture, then the big mbox with
# CMD-PREFIX in front (which makes the disk run out), and check.
full() {
	label=$1 db=$2; shift 2
	"$ONLIST" -q --db "$db" import --list L "$TMP/fx/list.mbox" >/dev/null ||
		{ bad "$label: the first, small import did not fit"; return; }
	before=$(sqlite3 "$db" 'select count(*) from messages')
	run "$label" "$@" "$ONLIST" --db "$db" import --list B "$TMP/big.mbox"
	expect_rc "$label" 1
	grep -q 'disk is full\|disk I/O error (.*\(space\|short\|too large\)' "$TMP/err" ||
		bad "$label: unclear message: $(cat "$TMP/err")"
	[ "$(sqlite3 "$db" 'pragma integrity_check')" = ok ] || bad "$label: integrity_check"
	after=$(sqlite3 "$db" 'select count(*) from messages')
	said=$(sed -n 's/.*: [0-9]* messages, \([0-9]*\) new.*/\1/p' "$TMP/out")
	echo "    $label: $before messages before, $after after, summary says $said new"
	[ "$((after - before))" = "${said:-x}" ] ||
		bad "$label: the summary claims $said new messages, $((after - before)) were kept"
}
# complete LABEL DB: import again with room, compare with the reference
complete() {
	run "$1: again with room" "$ONLIST" -q --db "$2" import --list B "$TMP/big.mbox"
	expect_rc "$1: again with room" 0
	dump "$2" >"$TMP/got.dump"
	same_output "$1: completed vs never full" "$TMP/ref.dump" "$TMP/got.dump" ||
		bad "$1: the database differs from an import that never ran out of space"
}

tested=0
if [ "$(id -u)" = 0 ] && mkdir "$TMP/mnt" &&
   mount -t tmpfs -o size=1200k onlist-t064 "$TMP/mnt" 2>/dev/null; then
	mnt=$TMP/mnt
	full "tmpfs full" "$mnt/t.db"
	mount -o remount,size=64m "$mnt" || bad "could not grow the tmpfs"
	complete "tmpfs" "$mnt/t.db"
	umount "$mnt" && mnt=
	tested=$((tested + 1))
else
	echo "note: cannot mount a tmpfs here (not root?); file size limit only"
fi

limited() { (trap '' XFSZ; ulimit -f 2048; exec "$@"); }
full "ulimit -f" "$TMP/u.db" limited
complete "ulimit -f" "$TMP/u.db"

# The same limit with SIGXFSZ left at its default, as a cron job or a
# shell gives it: onlist ignores the signal itself, so the write fails
# with EFBIG and is reported, instead of the process dying silently.
bare_limit() { (ulimit -f 2048; exec "$@"); }
full "ulimit -f, SIGXFSZ at its default" "$TMP/v.db" bare_limit
complete "ulimit -f, SIGXFSZ at its default" "$TMP/v.db"

[ $nfail -eq 0 ] && echo "all disk-full checks passed"
[ $nfail -eq 0 ]
