#!/bin/sh
# bash completion (contrib/completion/onlist.bash), driven through its
# completion function the way bash calls it (COMP_WORDS, COMP_CWORD).
# What it must offer comes from elsewhere: the commands from `onlist
# --help`, each command's options from its --help text, the --format
# values from the error message onlist gives for a wrong one, the refs
# from git for-each-ref, the list names from the fixture.
. tests/lib.sh
need_cmd bash
need_cmd git
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
fixture_db "$FX" "$DB"
R=$FX/repo

# comp WORD...: what completing the last word offers, sorted, a line each
cat >"$TMP/comp.bash" <<'B'
. contrib/completion/onlist.bash
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(( $# - 1 ))
	COMPREPLY=()
	_onlist onlist "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sed '/^$/d' | LC_ALL=C sort
}
B
comp() { bash -c '. "$0"; comp "$@"' "$TMP/comp.bash" "$ONLIST" "$@"; }
sorted() { tr ' ' '\n' | sed '/^$/d' | LC_ALL=C sort; }

bash -c '. contrib/completion/onlist.bash; complete -p onlist' | grep -q "_onlist" ||
	bad "the script does not register a completion for onlist"

# the commands, as --help lists them
"$ONLIST" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p' | LC_ALL=C sort >"$TMP/want"
[ -s "$TMP/want" ] || fail "onlist --help lists no command"
comp "" >"$TMP/got"
same_output "commands" "$TMP/want" "$TMP/got" || nfail=$((nfail + 1))
[ "$(comp rep)" = report ] || bad "'rep' should complete to report, got '$(comp rep)'"
[ "$(comp upd)" = update ] || bad "'upd' should complete to update"
comp --d | grep -qx -- "--db" || bad "global options: --db missing"

# each command's options: every --option its help names is offered
for cmd in $("$ONLIST" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p'); do
	"$ONLIST" $cmd --help | grep -o -- '^  *--[a-z][a-z-]*' | sed 's/^ *//' |
		LC_ALL=C sort -u >"$TMP/want"
	comp $cmd -- >"$TMP/got"
	missing=$(LC_ALL=C comm -23 "$TMP/want" "$TMP/got")
	[ -z "$missing" ] || bad "$cmd --: not offered: $(echo $missing)"
done
comp report --for | grep -qx -- "--format" || bad "report --for: no --format"

# --format values: those onlist names when it refuses one
"$ONLIST" --db "$DB" report --format nonesuch 2>&1 >/dev/null |
	sed -n "s/.*--format is \(.*\), not 'nonesuch'.*/\1/p" | sed 's/,/ /g; s/ or / /' |
	sorted >"$TMP/want"
grep -qx mail "$TMP/want" || bad "report's formats do not include mail"
comp report --format "" >"$TMP/got"
same_output "report --format values" "$TMP/want" "$TMP/got" || nfail=$((nfail + 1))
comp report --format = "" >"$TMP/got"
same_output "report --format=values" "$TMP/want" "$TMP/got" || nfail=$((nfail + 1))
[ "$(comp report --format m)" = "$(printf 'mail\nmd')" ] || bad "report --format m: '$(comp report --format m)'"

# refs of --repo's repository, and ranges
{ git -C "$R" for-each-ref --format='%(refname:short)'; echo HEAD; } | LC_ALL=C sort >"$TMP/want"
comp scan --repo "$R" "" >"$TMP/got"
same_output "scan --repo R: refs" "$TMP/want" "$TMP/got" || nfail=$((nfail + 1))
[ "$(comp scan --repo "$R" v1.0..ma)" = "v1.0..main" ] ||
	bad "scan v1.0..ma: '$(comp scan --repo "$R" v1.0..ma)'"
[ "$(comp update --repo="$R" --branch ne)" = "next" ] ||
	bad "update --branch ne: '$(comp update --repo="$R" --branch ne)'"
# onlist.repo when there is no --repo
export GIT_CONFIG_GLOBAL=$TMP/gitconfig
git config --global onlist.repo "$R"
[ "$(comp unposted v1.)" = "$(printf 'v1.0\nv1.1')" ] ||
	bad "unposted v1. with onlist.repo: '$(comp unposted v1.)'"

# list names from the database --db names
[ "$(comp --db "$DB" fetch --list "")" = fixture ] ||
	bad "fetch --list: '$(comp --db "$DB" fetch --list "")'"
[ -z "$(comp --db "$TMP/none.db" fetch --list "")" ] || bad "no database: lists offered"
[ ! -e "$TMP/none.db" ] || bad "completion created a database"

# files where a file goes; nothing for an option's free value
touch "$TMP/some.mbox"
[ "$(comp import "$TMP/some.m")" = "$TMP/some.mbox" ] || bad "import: no file offered"
[ -z "$(comp report --week "")" ] || bad "report --week: something offered"
[ -z "$(comp nosuchcmd "")" ] || bad "an unknown command: something offered"

[ $nfail -eq 0 ]
