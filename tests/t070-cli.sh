#!/bin/sh
# The command line the commands share (onlist_cli_getopt) and what their
# data output may contain.
#
# Options: every command that prints data gives one valid JSON document
# for --format=json and for --format json (the same one); --db after the
# command's name is the database used (nothing appears in the current
# directory); a misspelt option is answered with the nearest one and exit
# 2, a misspelt command too; a write error on standard output (/dev/full)
# exits 1 with a message, also for --help and --version.
#
# Text from git: a commit whose author name and subject hold ESC and
# U+202E (RIGHT-TO-LEFT OVERRIDE) shows them as U+001B and U+202E in the
# text of lookup and unposted, never as the raw bytes; a commit whose
# subject has a raw Latin-1 byte (0xA7; with an empty encoding header and
# with none) gives JSON that is valid UTF-8 from lookup and unposted.
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git
case $ONLIST in /*) O=$ONLIST ;; *) O=$(pwd)/$ONLIST ;; esac

R=$TMP/repo
DB=$TMP/cli.db
ESC=$(printf '\033')
RLO=$(printf '\342\200\256')

# ---- a repository and a list ---------------------------------------------------
git init -q "$R"
echo a >"$R/a"
git -C "$R" add a
git -C "$R" commit -q -m "Start"
git -C "$R" tag v0
echo b >"$R/b"
git -C "$R" add b
git -C "$R" commit -q -m "Add b" -m "Because b was missing."
A=$(git -C "$R" rev-parse HEAD)
# E: ESC and U+202E in the author's name and in the subject
echo e >"$R/e"
git -C "$R" add e
printf 'Fix e \033[2J\033]0;pwned\007 %s desrever\n\nBody.\n' "$RLO" >"$TMP/msg-e"
GIT_AUTHOR_NAME="Eve ${ESC}[31m${RLO} Mallory" git -C "$R" commit -q -F "$TMP/msg-e"
E=$(git -C "$R" rev-parse HEAD)
# L and L2: a Latin-1 byte in the subject.  git -c i18n.commitEncoding=
# writes an empty "encoding" header (git 2.39); the default writes none.
echo l >"$R/l"
git -C "$R" add l
printf 'Caf\247 for l\n\nBody.\n' >"$TMP/msg-l"
git -C "$R" -c i18n.commitEncoding= commit -q -F "$TMP/msg-l" 2>/dev/null
L=$(git -C "$R" rev-parse HEAD)
echo l2 >"$R/l2"
git -C "$R" add l2
printf 'Sect\247 for l2\n\nBody.\n' >"$TMP/msg-l2"
git -C "$R" commit -q -F "$TMP/msg-l2" 2>/dev/null
L2=$(git -C "$R" rev-parse HEAD)
git -C "$R" cat-file commit "$E" | grep -q "$ESC" ||
	fail "git dropped the ESC of the author name (not onlist's fault)"
for c in "$L" "$L2"; do
	git -C "$R" cat-file commit "$c" | od -An -tx1 | grep -q ' a7' ||
		fail "git did not keep the 0xA7 byte (not onlist's fault)"
done
git -C "$R" cat-file commit "$L2" | grep -q '^encoding' &&
	fail "git wrote an encoding header for L2 (not onlist's fault)"

# A was posted, and reviewed by someone whose name holds ESC and U+202E;
# the last mail of the archive has no header and is skipped.
when=$(git -C "$R" log -1 --format=%aD "$A")
{
	git -C "$R" format-patch -1 --stdout --add-header="Message-ID: <t070-a@example.org>" "$A"
	echo
	echo "From rev@example.org Mon Jan  1 00:00:00 2001"
	echo "From: =?UTF-8?Q?Rev_=1B[31m_=E2=80=AE_Iewer?= <rev@example.org>"
	echo "Subject: Re: [PATCH] Add b"
	echo "Date: $when"
	echo "Message-ID: <t070-r@example.org>"
	echo "In-Reply-To: <t070-a@example.org>"
	echo "References: <t070-a@example.org>"
	echo "MIME-Version: 1.0"
	echo "Content-Type: text/plain; charset=utf-8"
	echo "Content-Transfer-Encoding: 8bit"
	echo
	echo "Looks good."
	echo
	echo "Reviewed-by: Rev ${ESC}[31m ${RLO} Iewer <rev@example.org>"
	echo
	echo "From broken@example.org Mon Jan  1 00:00:00 2001"
	echo
	echo
} >"$TMP/list.mbox"

# Run from an empty directory: an --db that is not taken would make
# ./onlist.db here.
mkdir "$TMP/cwd"
cd "$TMP/cwd" || exit 1

json_ok() {	# json_ok LABEL: $TMP/out is one JSON document, strict UTF-8
	python3 -c '
import json, sys
try:
    json.loads(sys.stdin.buffer.read().decode("utf-8"))
except (ValueError, UnicodeDecodeError) as e:
    print("    %s" % e)
    sys.exit(1)' <"$TMP/out" || bad "$1: not one valid JSON document"
}
# both LABEL CMD [ARGS...]: CMD --db DB ARGS --format=json, then
# CMD ARGS --format json --db DB; both valid JSON, exit $want
want=0
both() {
	what=$1 cmd=$2; shift 2
	run "$what --format=json" "$O" "$cmd" --db "$DB" "$@" --format=json
	expect_rc "$what --format=json" "$want"
	json_ok "$what --format=json"
	cp "$TMP/out" "$TMP/out.eq"
	run "$what --format json" "$O" "$cmd" "$@" --format json --db "$DB"
	expect_rc "$what --format json" "$want"
	json_ok "$what --format json"
}

# ---- the commands that change the database: JSON of their counts -------------------
both fetch fetch --list t070 "$TMP/list.mbox"
both import import --list t070 "$TMP/list.mbox"
both scan scan --repo "$R" v0..HEAD
both match match

# ---- the commands that read it: JSON, the same for both spellings -----------------
same_json() {	# the two runs of `both` printed the same
	cmp -s "$TMP/out" "$TMP/out.eq" || bad "$1: --format=json and --format json differ"
}
both status status; same_json status
python3 - "$TMP/out" "$DB" <<'EOF' || bad "status --db after the command name: not that database"
import json, sys
st = json.load(open(sys.argv[1]))
sys.exit(0 if st["database"] == sys.argv[2] and st["commits"] == 4 else 1)
EOF
want=1	# E and L were never posted
both lookup lookup "$A" "$E" "$L" "$L2"; same_json lookup
want=0
both lookup-posted lookup "$A"; same_json lookup-posted
both unposted unposted; same_json unposted
both unposted-range unposted v0..HEAD; same_json unposted-range
both thread thread "<t070-a@example.org>"; same_json thread
both skipped skipped; same_json skipped
both skipped-by-reason skipped --by-reason; same_json skipped-by-reason
both skipped-commits skipped --commits; same_json skipped-commits
both sources sources; same_json sources
grep -q 't070' "$TMP/out" || bad "sources --format json: the fetched mbox is not listed"
[ ! -e "$TMP/cwd/onlist.db" ] || bad "a command opened ./onlist.db: --db after its name was not taken"

# ---- text from git: escaped ------------------------------------------------------------
escaped() {	# escaped LABEL: no raw ESC or U+202E in $TMP/out, and [U+...] given
	python3 - "$TMP/out" "$2" <<'EOF' || bad "$1"
import sys
d = open(sys.argv[1], "rb").read()
raw = [n for n, b in (("ESC", b"\x1b"), ("U+202E", "\u202e".encode())) if b in d]
if raw:
    print("    raw %s in the output" % " and ".join(raw))
    sys.exit(1)
if sys.argv[2] == "shown" and not (b"U+001B" in d and b"U+202E" in d):
    print("    U+001B or U+202E not shown")
    sys.exit(1)
EOF
}
run "lookup E" "$O" --db "$DB" lookup "$E"
expect_rc "lookup E" 1
escaped "lookup of a commit with ESC and U+202E in author and subject" shown
run "unposted" "$O" --db "$DB" unposted
expect_rc unposted 0
grep -q "^$(echo "$E" | cut -c1-12) " "$TMP/out" || bad "unposted: E is not listed"
escaped "unposted with ESC and U+202E in an author and a subject" shown
run "lookup A" "$O" --db "$DB" lookup "$A"
expect_rc "lookup A" 0
# a full sha with anything after it names no commit (it was cut at 40
# characters and matched)
run "lookup A-junk" "$O" --db "$DB" lookup "$A-junk"
expect_rc "lookup A-junk" 1
! grep -q 't070-a@example.org' "$TMP/out" || bad "lookup A-junk: matched the commit A"
run "lookup A" "$O" --db "$DB" lookup "$A"
grep -q 't070-a@example.org' "$TMP/out" || bad "lookup A: its posting is not shown"
escaped "lookup of a commit reviewed by a name with ESC and U+202E"
run "thread" "$O" --db "$DB" thread "t070-a@example.org"
escaped "thread with a reply from a name with ESC and U+202E"

# ---- a Latin-1 subject: JSON stays UTF-8 ------------------------------------------------
for c in "$L" "$L2"; do
	run "lookup L json" "$O" --db "$DB" lookup --format json "$c"
	expect_rc "lookup L json" 1
	json_ok "lookup --format json of a Latin-1 subject"
	grep -q "$c" "$TMP/out" || bad "lookup --format json: $c is not shown"
done
run "unposted json" "$O" --db "$DB" unposted --json
json_ok "unposted --json with Latin-1 subjects"
grep -q "$L" "$TMP/out" && grep -q "$L2" "$TMP/out" ||
	bad "unposted --json: L or L2 is not listed"

# ---- mistakes: the nearest name, exit 2 -------------------------------------------------
for cmd in lookup unposted status thread skipped sources import fetch scan match; do
	run "$cmd --formt" "$O" --db "$DB" "$cmd" --formt json X </dev/null
	expect_rc "$cmd --formt" 2
	grep -q "did you mean '--format'" "$TMP/err" || bad "$cmd --formt: no \"did you mean '--format'\""
done
run "patch-id --unstabel" "$O" patch-id --unstabel </dev/null
expect_rc "patch-id --unstabel" 2
grep -q "did you mean '--unstable'" "$TMP/err" || bad "patch-id --unstabel: no \"did you mean '--unstable'\""
run "lookp" "$O" --db "$DB" lookp "$A"
expect_rc lookp 2
grep -q "did you mean 'lookup'" "$TMP/err" || bad "onlist lookp: no \"did you mean 'lookup'\""
run "format xml" "$O" --db "$DB" lookup --format=xml "$A"
expect_rc "format xml" 2

# ---- a full disk -------------------------------------------------------------------------
if [ -w /dev/full ]; then
	for args in status "lookup $A" unposted "thread t070-a@example.org" skipped sources \
		    --help --version "status --help" "lookup --help" "patch-id --help"; do
		# shellcheck disable=SC2086
		"$O" --db "$DB" $args >/dev/full 2>"$TMP/err"
		rc=$?
		[ $rc -eq 1 ] || bad "$args >/dev/full: exit $rc, expected 1"
		grep -q 'cannot write' "$TMP/err" || bad "$args >/dev/full: no message ($(cat "$TMP/err"))"
	done
else
	echo "no /dev/full: write errors not checked"
fi

# patch-id's JSON: the same ids and names git prints, as an array
git -C "$R" log -p >"$TMP/log.p"
git patch-id --stable <"$TMP/log.p" | sort >"$TMP/pid.git"
run "patch-id json" "$O" patch-id --format=json <"$TMP/log.p"
expect_rc "patch-id json" 0
python3 -c '
import json, sys
for r in json.load(open(sys.argv[1])):
    print(r["patch_id"], r["name"])' "$TMP/out" | sort >"$TMP/pid.json" || bad "patch-id json: not JSON"
[ -s "$TMP/pid.git" ] || bad "patch-id json: git printed no ids (test bug)"
same_output "patch-id --format=json" "$TMP/pid.git" "$TMP/pid.json" || bad "patch-id --format=json: not git's ids"

# ---- a password in a --remote URL is refused, never stored or printed -----------------
for c in lookup match; do
	rm -f "$TMP/pw.db"
	if [ $c = lookup ]; then
		run "$c --remote with a password" "$O" --db "$TMP/pw.db" $c --remote "http://u:s3cret@127.0.0.1:9/x/" HEAD
	else
		run "$c --remote with a password" "$O" --db "$TMP/pw.db" $c --remote "http://u:s3cret@127.0.0.1:9/x/"
	fi
	expect_rc "$c --remote with a password" 2
	grep -q s3cret "$TMP/out" "$TMP/err" && bad "$c --remote: the password was printed"
	[ -e "$TMP/pw.db" ] && bad "$c --remote with a password: a database was written"
done

# ---- One program, linked the ordinary way ---------------------------------------------
# No symbol is resolved at run time: the program does not call dlopen(),
# and a copy of it alone in an empty folder does every command, reading
# mail (GMime) and hashing (libcrypto) included.
case $O in /*) OABS=$O ;; *) OABS=$PWD/$O ;; esac
if nm -u "$OABS" | grep -qw 'dlopen\|dlsym'; then
	bad "the program resolves symbols at run time: $(nm -u "$OABS" | grep -w 'dlopen\|dlsym' | tr '\n' ' ')"
fi
for lib in libgmime libcurl libcrypto libsqlite3; do
	ldd "$OABS" | grep -q "$lib" || bad "the program is not linked with $lib"
done
mkdir -p "$TMP/alone"
cp "$OABS" "$TMP/alone/onlist"
run "lookup from a lone copy" "$TMP/alone/onlist" --db "$DB" lookup "$A"
expect_rc "lookup from a lone copy" 0
grep -q "t070-a@example.org" "$TMP/out" || bad "lookup from a lone copy: the posting is not shown"
printf 'From: a@example.org\nSubject: x\nMessage-ID: <alone@x>\n\nbody\n' >"$TMP/alone.eml"
run "import from a lone copy" "$TMP/alone/onlist" --db "$TMP/alone.db" import "$TMP/alone.eml"
expect_rc "import from a lone copy" 0
run "patch-id from a lone copy" sh -c '"$1" patch-id <"$2"' sh "$TMP/alone/onlist" "$TMP/alone.eml"
expect_rc "patch-id from a lone copy" 0

[ $nfail -eq 0 ] && echo "all checks passed"
[ $nfail -eq 0 ]
