#!/bin/sh
# A public-inbox archive is mail, which `fetch DIR` reads, not `import`
# (mbox, maildir) nor `scan` (a project's history).  Made with the real
# public-inbox (v2 and v1; no server):
#   - `import` of an inbox folder or of one of its epochs said only "a
#     directory, but not a maildir": it now says to use `onlist fetch DIR`;
#   - `scan` of an epoch (every commit one file `m`) or of a v1 inbox
#     (every commit one file xx/<38 hex>) stored its messages as commits
#     without a word: it is refused, exit 1, saying why, and nothing is
#     written; `--force` scans it all the same;
#   - a project with a file named `m` is scanned as before.
. tests/lib.sh
. tests/pi-server.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
pi_need
make_tmp
isolate_git

python3 - >"$TMP/list.mbox" <<'PY'
for i in range(3):
    print("From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Dev <dev@example.org>\n"
          "To: l@example.org\nSubject: [PATCH] change %d\n"
          "Date: Mon, %d Jan 2024 00:00:00 +0000\nMessage-ID: <m%d@example.org>\n\n"
          "body %d\n" % (i, i + 1, i, i))
PY
PI_LEVEL=basic
pi_setup "$TMP/pi"
pi_init v2 2
pi_import v2 "$TMP/list.mbox"
pi_init v1 1
pi_import v1 "$TMP/list.mbox"
V2=$PI_DIR/v2 V1=$PI_DIR/v1 DB=$TMP/o.db

for dir in "$V2" "$V2/git/0.git" "$V1"; do
	run "import $dir" "$ONLIST" --db "$DB" import "$dir"
	expect_rc "import $dir" 1
	grep -qF "read it with \`onlist fetch $dir\`" "$TMP/err" ||
		bad "import $dir: does not point to fetch: $(head -n 1 "$TMP/err")"
done
rm -f "$DB"*

for repo in "$V2/git/0.git" "$V1"; do
	run "scan $repo" "$ONLIST" --db "$DB" scan --repo "$repo" HEAD
	expect_rc "scan $repo" 1
	grep -q "looks like a public-inbox archive" "$TMP/err" ||
		bad "scan $repo: not refused as mail: $(head -n 1 "$TMP/err")"
	grep -q -- "--force" "$TMP/err" || bad "scan $repo: --force not named"
	[ ! -e "$DB" ] || bad "scan $repo: a database was written"
done
run "scan --force" "$ONLIST" --db "$DB" scan --force --repo "$V2/git/0.git" HEAD
expect_rc "scan --force" 0
grep -q "looks like a public-inbox archive" "$TMP/err" || bad "scan --force: no warning"
n=$(sqlite3 "$DB" 'select count(*) from commits' 2>&1)
[ "$n" = 3 ] || bad "scan --force: $n commits stored, expected 3"

# a project that has a file named m
R=$TMP/proj
git init -q "$R"
echo a >"$R/m" && git -C "$R" add m && git -C "$R" commit -q -m "add m"
echo b >"$R/m" && echo c >"$R/c" && git -C "$R" add m c && git -C "$R" commit -q -m "m and c"
run "scan a project with m" "$ONLIST" --db "$TMP/p.db" scan --repo "$R" HEAD
expect_rc "scan a project with m" 0
! grep -q "public-inbox" "$TMP/err" || bad "scan a project with m: taken for mail"

[ $nfail -eq 0 ] && echo "all mail-or-project checks passed"
[ $nfail -eq 0 ]
