#!/bin/sh
# Defaults from git config, with git's own rules, and the options winning:
#   - the database: --db (before or after the command), then $ONLIST_DB,
#     then `git config onlist.db` (the repository in the current folder,
#     then the user's ~/.gitconfig), then ./onlist.db;
#   - the report's commit links: --commit-url, then onlist.commitUrl, then
#     the origin remote's host (cgit, GitHub), else no link at all;
#     posting links: --posting-url, then onlist.postingUrl, then lore;
#   - a configured template is held to the http(s) rule like an option;
#   - stats' version bumps: --release-subject, then onlist.releasePattern.
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git
export GIT_CONFIG_GLOBAL="$TMP/gitconfig"	# the user's configuration
ONLIST=$(cd "$(dirname "$ONLIST")" && pwd)/$(basename "$ONLIST")

# ---- the database ------------------------------------------------------------------
W=$TMP/work
git init -q "$W"
db_of() {	# the database a status run in $W looks for (none is there: the
		# error names it)
	(cd "$W" && "$@") >"$TMP/out" 2>"$TMP/err"
	sed -n 's/^onlist: no database at \(.*\): run .*/\1/p' "$TMP/err"
}
got=$(db_of "$ONLIST" status)
[ "$got" = onlist.db ] || bad "no configuration: database '$got', expected onlist.db"

git config --global onlist.db "$TMP/user.db"
got=$(db_of "$ONLIST" status)
[ "$got" = "$TMP/user.db" ] || bad "user config: database '$got'"

git -C "$W" config onlist.db "$TMP/repo.db"
got=$(db_of "$ONLIST" status)
[ "$got" = "$TMP/repo.db" ] || bad "repository config over the user's: database '$got'"

got=$(db_of env ONLIST_DB="$TMP/env.db" "$ONLIST" status)
[ "$got" = "$TMP/env.db" ] || bad "ONLIST_DB over config: database '$got'"

got=$(db_of env ONLIST_DB="$TMP/env.db" "$ONLIST" --db "$TMP/opt.db" status)
[ "$got" = "$TMP/opt.db" ] || bad "--db over ONLIST_DB: database '$got'"

git -C "$W" config onlist.db '~/home.db'
got=$(db_of "$ONLIST" status)
[ "$got" = "$HOME/home.db" ] || bad "~/ in onlist.db: database '$got', expected $HOME/home.db"
git -C "$W" config --unset onlist.db
git config --global --unset onlist.db

# ---- links in the report -----------------------------------------------------------
FX=$TMP/fx
DB=$TMP/links.db
fixture_db "$FX" "$DB"

# links LABEL WANT-COMMIT-PREFIX WANT-POSTING-PREFIX [REPORT OPTIONS]: every
# commit's url starts with the first (or is null for "none"), every
# posting's with the second
links() {
	label=$1 wc=$2 wp=$3; shift 3
	run "$label" "$ONLIST" report --db "$DB" --format json "$@" v1.0..v1.1
	expect_rc "$label" 0
	python3 - "$TMP/out" "$wc" "$wp" <<'PY' || bad "$label: links (above)"
import json, sys
r = json.load(open(sys.argv[1]))
wc, wp = sys.argv[2], sys.argv[3]
bad = 0
for c in r["commits"]:
    u = c["url"]
    if (wc == "none" and u is not None) or \
       (wc != "none" and not (u and u.startswith(wc) and u.endswith(c["sha"]))):
        print("commit", c["sha"], "url", u); bad += 1
    p = c.get("posting")
    if p and not (p["url"] or "").startswith(wp):
        print("posting", p); bad += 1
    if bad > 3:
        break
sys.exit(1 if bad else 0)
PY
}
cgit=https://git.kernel.org/pub/scm/linux/kernel/git/onlist/fixture.git/commit/?id=
links "origin on cgit" "$cgit" https://lore.kernel.org/r/

git -C "$FX/repo" remote set-url origin git@github.com:onlist/fixture.git
links "origin on GitHub (scp-like)" https://github.com/onlist/fixture/commit/ https://lore.kernel.org/r/

git -C "$FX/repo" config onlist.commitUrl 'https://example.org/c/%s'
git -C "$FX/repo" config onlist.postingUrl 'https://example.org/m/%s'
links "onlist.commitUrl over the remote" https://example.org/c/ https://example.org/m/

links "--commit-url over onlist.commitUrl" https://example.net/x/ https://example.org/m/ \
	--commit-url 'https://example.net/x/%s'

git -C "$FX/repo" config onlist.commitUrl 'javascript:alert(%s)'
run "javascript: in onlist.commitUrl" "$ONLIST" report --db "$DB" --format html v1.0..v1.1
expect_rc "javascript: in onlist.commitUrl" 2
grep -q onlist.commitUrl "$TMP/err" || bad "javascript: in onlist.commitUrl: the error does not name the key"

git -C "$FX/repo" config --unset onlist.commitUrl
git -C "$FX/repo" config --unset onlist.postingUrl
git -C "$FX/repo" remote remove origin
links "no remote, no configuration: no commit links" none https://lore.kernel.org/r/
run "no links, md" "$ONLIST" report --db "$DB" v1.0..v1.1
expect_rc "no links, md" 0
! grep -q 'torvalds' "$TMP/out" || bad "no links, md: a link into torvalds' tree for another project"
run "no links, html" "$ONLIST" report --db "$DB" --format html v1.0..v1.1
expect_rc "no links, html" 0
grep -q '<span class="sha">' "$TMP/out" || bad "no links, html: the commits are not shown without a link"
! grep -q 'href=""' "$TMP/out" || bad "no links, html: an empty link"

# ---- onlist.releasePattern: what stats counts as a version bump ------------------
bumps() {	# bumps LABEL [STATS OPTIONS]: "NOSOB BUMPS" from stats --format json
	blabel=$1; shift
	run "$blabel" "$ONLIST" stats --db "$DB" --format json --release-author "" "$@" >&2
	python3 -c 'import json,sys; n=json.load(open(sys.argv[1]))["no_signoff"]; print(n["count"], n["version_bumps"]["count"])' "$TMP/out"
}
set -- $(bumps "stats, built-in pattern" v1.0..v1.1)
nosob=$1 builtin=$2
[ "${nosob:-0}" -gt 0 ] || bad "stats: the fixture has no commit without a signoff (test bug)"
git -C "$FX/repo" config onlist.releasePattern '.'
set -- $(bumps "stats, onlist.releasePattern" v1.0..v1.1)
[ "$2" = "$nosob" ] || bad "onlist.releasePattern '.': $2 version bumps, expected all $nosob unsigned commits (built-in: $builtin)"
set -- $(bumps "stats, --release-subject over the configuration" --release-subject 'x^' v1.0..v1.1)
[ "$2" = 0 ] || bad "--release-subject over onlist.releasePattern: $2 version bumps, expected 0"
git -C "$FX/repo" config onlist.releasePattern '(unclosed'
run "bad onlist.releasePattern" "$ONLIST" stats --db "$DB" v1.0..v1.1
expect_rc "bad onlist.releasePattern" 2
grep -q onlist.releasePattern "$TMP/err" || bad "bad onlist.releasePattern: the error does not name the key"

# A pattern whose compilation multiplies (23.8 GB, killed after 37 s) is
# refused before regcomp() sees it, as an option and as configuration;
# the address space is capped at 2 GB so that a regression fails here
# instead of taking the machine's memory.  An ASan build maps terabytes
# of shadow memory at start and cannot run under such a cap: there
# `timeout` is the guard (killed is a failure either way), and the
# capped run is `make check`'s.
hostile='((((a{1,100}){1,100}){1,100}){1,100})'
git -C "$FX/repo" config onlist.releasePattern "$hostile"
cap='ulimit -v 2000000;'
nm "$ONLIST" 2>/dev/null | grep -q __asan_init && cap=
for c in "stats --release-subject $hostile v1.0..v1.1" "stats v1.0..v1.1" "unposted v1.0..v1.1"; do
	# shellcheck disable=SC2086 # the words are the command line
	run "hostile pattern: $c" sh -c "$cap"' exec timeout 120 "$@"' sh "$ONLIST" --db "$DB" $c
	expect_rc "hostile pattern: $c" 2
	grep -q "unbounded memory" "$TMP/err" || bad "hostile pattern: $c: not refused as such: $(head -n 1 "$TMP/err")"
done
git -C "$FX/repo" config onlist.releasePattern '^v[0-9]+(\.[0-9]+)*$'
run "a common release pattern" "$ONLIST" stats --db "$DB" v1.0..v1.1
expect_rc "a common release pattern" 0
git -C "$FX/repo" config --unset onlist.releasePattern

[ $nfail -eq 0 ] && echo "all configuration checks passed"
[ $nfail -eq 0 ]
