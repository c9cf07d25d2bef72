#!/bin/sh
# Hostile input that aims at the database and at the git command lines.
#
# SQL: every value onlist stores is bound, never pasted into SQL.  Mails
# whose headers hold quotes, "'); DROP TABLE ...", NUL bytes, and 100 kB
# values are imported; each is stored exactly (NUL bytes excepted: a
# header cannot carry one, GMime drops it or the text ends there) or
# skipped with a reason, every table is still there, and the database is
# intact.
#
# Options: git is run with argument vectors, never a shell, and an
# argument that begins with '-' cannot become an option: a scan range, an
# unposted range, a lookup name, a fetch source (also one that exists as
# a repository named "--upload-pack=touch FILE"), an import path.  Each
# is refused or taken as a name, and the file the injected option would
# create never appears.
. tests/lib.sh
need_cmd python3
need_cmd sqlite3
need_cmd git
need_onlist
make_tmp
isolate_git
DB=$TMP/h.db
q() { sqlite3 "$DB" "$1"; }

# ---- SQL -----------------------------------------------------------------------
# hostile.mbox and, for each message, the value each column must hold
# (hex of the UTF-8), in expected.txt: "msgid-hex column value-hex"
python3 - "$TMP/hostile.mbox" "$TMP/expected.txt" <<'PY'
import sys
mbox, exp = open(sys.argv[1], 'wb'), open(sys.argv[2], 'w')
def mail(mid, headers, body=b'body\n', expect=()):
    mbox.write(b'From a@example.org Mon Jan  1 00:00:00 2001\n'
               b'Message-ID: <' + mid + b'>\n' + headers + b'\n' + body + b'\n')
    for col, val in expect:
        exp.write('%s %s %s\n' % (mid.hex(), col, val.hex()))
drop = b"x'); DROP TABLE messages; --"
mail(b"q1@example.org",
     b"Subject: " + drop + b"\nFrom: \"Robert'); DROP TABLE commits;--\" <bobby@example.org>\n",
     expect=[('subject', drop), ('from_name', b"Robert'); DROP TABLE commits;--"),
             ('from_addr', b'bobby@example.org')])
quoted = b"it's \"quoted\" `ticked` \\back\\slashed; select 1; /* c */ -- end"
mail(b"q2'\");DROP TABLE skipped;--@example.org",
     b"Subject: " + quoted + b"\nIn-Reply-To: <');DELETE-FROM-messages;--@x>\n",
     expect=[('msgid', b"q2'\");DROP TABLE skipped;--@example.org"),
             ('subject', quoted),
             ('in_reply_to', b"');DELETE-FROM-messages;--@x")])
big = b'S' * 100000
mail(b"big-subject@example.org", b"Subject: " + big + b"\n", expect=[('subject', big)])
refs = b' '.join(b'<r%d@example.org>' % i for i in range(5000))   # ~90 kB
mail(b"big-refs@example.org", b"Subject: refs\nReferences: " + refs + b"\n",
     expect=[('refs', refs.replace(b'<', b'').replace(b'>', b''))])
big_from = b'N' * 100000
mail(b"big-from@example.org", b"Subject: f\nFrom: " + big_from + b" <n@example.org>\n",
     expect=[('from_name', big_from), ('from_addr', b'n@example.org')])
# NUL bytes: not stored (a header cannot carry one), the rest is
mail(b"nul@example.org", b"Subject: before\x00after\nFrom: A\x00B <a@example.org>\n")
mail(b"nul-body@example.org", b"Subject: nul in body\n", body=b"a\x00b\n---\n"
     b"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\x00\n+b\n")
# a header block that never ends, 100 kB of one header name
mail(b"long-name@example.org", b"X-" + b"h" * 100000 + b": v\nSubject: long name\n")
PY
run "import hostile mails" "$ONLIST" --db "$DB" import --list "l'); DROP TABLE messages;--" "$TMP/hostile.mbox"
expect_rc "import hostile mails" 0
for t in messages message_lists skipped commits matches meta; do
	[ "$(q "select count(*) from sqlite_master where type = 'table' and name = '$t'")" = 1 ] ||
		bad "table $t is gone"
done
[ "$(q 'pragma integrity_check')" = ok ] || bad "integrity_check"
[ "$(q "select list from message_lists limit 1")" = "l'); DROP TABLE messages;--" ] ||
	bad "the list name was not stored exactly: $(q 'select list from message_lists limit 1')"
while read -r idhex col valhex; do
	got=$(q "select hex($col) from messages where hex(msgid) = upper('$idhex')")
	want=$(echo "$valhex" | tr a-f A-F)
	[ "$got" = "$want" ] ||
		bad "$(echo "$idhex" | xxd -r -p 2>/dev/null || echo "$idhex"): $col not stored exactly (${#got} hex digits, want ${#want})"
done <"$TMP/expected.txt"
n=$(q "select count(*) from messages")
s=$(q "select count(*) from skipped")
echo "    stored $n, skipped $s: $(q 'select reason from skipped' | tr '\n' ' ')"
[ $((n + s)) -eq 8 ] || bad "8 mails, $n stored + $s skipped"
[ "$(q "select count(*) from messages where instr(subject || from_name || msgid || refs, char(0)) > 0")" = 0 ] ||
	bad "a NUL byte reached the database"
nul=$(q "select subject from messages where msgid = 'nul@example.org'")
case $nul in before*) ;; *) [ "$s" -gt 0 ] || bad "NUL subject stored as '$nul'" ;; esac
q "select source, offset, reason from skipped"
run "status after hostile mails" "$ONLIST" --db "$DB" status
expect_rc "status" 0

# ---- options that begin with '-' ---------------------------------------------------
sh fixtures/make-fixtures.sh "$TMP/fx" >"$TMP/fx.log" 2>&1 || fail "fixtures (not onlist's fault)"
R=$TMP/fx/repo
"$ONLIST" -q --db "$DB" scan --repo "$R" v1.0..v1.1 >/dev/null || bad "scan"
P=$TMP/pwned
cd "$TMP" || exit 1
top=$OLDPWD
O=$top/$ONLIST
case $ONLIST in /*) O=$ONLIST ;; esac
git init -q --bare -- "--upload-pack=touch $P.fetch" || bad "git init of the hostile repo name"
touch -- "-hostile.mbox"
cp "$TMP/hostile.mbox" ./-hostile.mbox
refused() {	# refused LABEL EXPECTED-RC ONLIST-ARGS...
	label=$1 want=$2; shift 2
	run "$label" "$O" --db "$DB" "$@"
	expect_rc "$label" "$want"
	for f in "$P"*; do
		[ -e "$f" ] && bad "$label: $f was created"
		rm -f "$f"
	done
}
refused "scan range --output" 2 scan --repo "$R" "--output=$P.scan"
refused "scan -- range --output" 2 scan --repo "$R" -- "--output=$P.scan"
refused "scan --repo -x" 1 scan --repo "-x" v1.1
refused "unposted range --output" 2 unposted --repo "$R" "--output=$P.unposted"
refused "lookup --output" 1 lookup -- "--output=$P.lookup"
refused "lookup --git-dir" 1 lookup -- "--git-dir=$TMP"
refused "fetch -- --upload-pack (no such path)" 1 fetch --data "$TMP/d" -- "--upload-pack=touch $P.nopath"
refused "fetch ext:: transport" 1 fetch --data "$TMP/d" -- "ext::sh -c touch% $P.ext"
# a repository that exists under that name is read in place as a (v1,
# empty) inbox: a name, not an option
refused "fetch -- a repository named --upload-pack=..." 0 fetch --data "$TMP/d" -- "--upload-pack=touch $P.fetch"
refused "import -x" 2 import -x
refused "import -- -hostile.mbox" 0 import --list dash -- -hostile.mbox
grep -q '^-hostile.mbox: 8 messages' "$TMP/out" || bad "import of ./-hostile.mbox: $(cat "$TMP/out")"
cd "$top" || exit 1

# ---- what a repository's configuration may make git run -----------------------
# A scanned repository whose config pulls in, through include.path, a
# core.fsmonitor command and a hooks directory: git starts neither during
# scan, match or unposted (each would create $P.fsmonitor or $P.hook).
H=$TMP/hostile-repo
git clone -q "$R" "$H" || fail "git clone (not onlist's fault)"
printf '#!/bin/sh\ntouch "%s.fsmonitor"\n' "$P" >"$TMP/evil.sh"
chmod +x "$TMP/evil.sh"
mkdir "$TMP/evil-hooks" || fail "mkdir"
for hk in reference-transaction post-checkout pre-auto-gc post-index-change; do
	printf '#!/bin/sh\ntouch "%s.hook"\n' "$P" >"$TMP/evil-hooks/$hk"
	chmod +x "$TMP/evil-hooks/$hk"
done
printf '[core]\n\tfsmonitor = %s\n\thooksPath = %s\n' "$TMP/evil.sh" "$TMP/evil-hooks" >"$TMP/evil.cfg"
git -C "$H" config include.path "$TMP/evil.cfg" || fail "git config"
# the trap is armed: git status runs it
git -C "$H" status >/dev/null 2>&1
[ -e "$P.fsmonitor" ] || bad "test bug: git status did not run the planted fsmonitor"
rm -f "$P.fsmonitor" "$P.hook"
for cmd in "scan --repo $H v1.0..v1.1" "match" "unposted --repo $H v1.0..v1.1"; do
	# shellcheck disable=SC2086
	run "hostile config: $cmd" "$ONLIST" --db "$TMP/fsm.db" $cmd
	for f in "$P.fsmonitor" "$P.hook"; do
		[ -e "$f" ] && bad "hostile config: $cmd ran $f"
		rm -f "$f"
	done
done

[ $nfail -eq 0 ] && echo "all hostile-input checks passed"
[ $nfail -eq 0 ]
