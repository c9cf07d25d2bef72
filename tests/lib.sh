# lib.sh - helpers for tests/t*.sh, which tests/run.sh runs from the repo root.
# Source it: `. tests/lib.sh`.  Exit 77 means skip; run.sh prints our last line.

ONLIST=${ONLIST:-./onlist}	# override to test another build

skip() { echo "skip: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip "$1 not installed"; }
need_onlist() { [ -x "$ONLIST" ] || skip "$ONLIST not built (run make)"; }

# A private temporary directory in $TMP, removed on exit.
make_tmp() {
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/onlist-test.XXXXXX") || exit 1
	trap 'rm -rf "$TMP"' EXIT
}

# git that ignores the user's and the system's configuration.
isolate_git() {
	export HOME="$TMP" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME=Tester GIT_AUTHOR_EMAIL=tester@example.org
	export GIT_COMMITTER_NAME=Tester GIT_COMMITTER_EMAIL=tester@example.org
	export LC_ALL=C TZ=UTC
}

# patch_repo: an empty git repository in $R ($TMP/repo, after make_tmp
# and isolate_git; committer Maint) and the helpers that write its
# history: at DATE (author and committer date), who NAME EMAIL (author),
# commit DATE FILE TEXT SUBJECT (TEXT appended to FILE), and body NAME:
# the last commit as git format-patch mails it, headers off, in
# $TMP/NAME.body; then the commit is dropped (a patch nobody applied)
# unless KEEP is set; and mail, which makes an mbox message of a body.
patch_repo() {
	R=$TMP/repo
	git init -q -b main "$R" || fail "git init"
	export GIT_COMMITTER_NAME=Maint GIT_COMMITTER_EMAIL=maint@example.org
	at() { GIT_AUTHOR_DATE="$1 +0000" GIT_COMMITTER_DATE="$1 +0000"; export GIT_AUTHOR_DATE GIT_COMMITTER_DATE; }
	who() { GIT_AUTHOR_NAME="$1" GIT_AUTHOR_EMAIL="$2"; export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL; }
	commit() {	# commit DATE FILE TEXT SUBJECT
		at "$1"; mkdir -p "$R/$(dirname "$2")"; printf '%s\n' "$3" >>"$R/$2"
		git -C "$R" add -A && git -C "$R" commit -q -m "$4" || fail "commit $4"
	}
	body() {
		git -C "$R" format-patch -q -1 --stdout HEAD | sed '1,/^$/d' >"$TMP/$1.body"
		[ -n "$KEEP" ] || git -C "$R" reset -q --hard HEAD~1
	}
	# mail BODYFILE FROM DATE MSGID SUBJECT [IN-REPLY-TO]: one mbox
	# message on standard output, a body from body() or any file
	mail() {
		printf 'From x@example.org Mon Jan  1 00:00:00 2024\n'
		printf 'From: %s\nDate: %s\nMessage-ID: <%s>\nSubject: %s\n' "$2" "$3" "$4" "$5"
		[ -z "$6" ] || printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$6" "$6"
		printf '\n'
		cat "$1"
		printf '\n'
	}
}

# landing_repo: an empty git repository in $R ($TMP/repo) on branch main
# and the helpers that write a history an hour per step from $t
# (1370000000): commit FILE [MSG] appends the time to FILE and commits it
# (the message ends with $TRAILER when set), and merge BRANCH [ARGS]
# merges it with --no-ff as "Merge branch 'BRANCH' of git://example.org/BRANCH".
landing_repo() {
	R=$TMP/repo
	t=1370000000
	git init -q -b main "$R" || fail "git init"
	commit() {	# commit FILE [MSG]
		t=$((t + 3600))
		echo "$t" >>"$R/$1"
		git -C "$R" add "$1"
		GIT_AUTHOR_DATE="@$t +0000" GIT_COMMITTER_DATE="@$t +0000" \
			git -C "$R" commit -q -m "${2:-change $1 at $t}${TRAILER:+

$TRAILER}" || fail "commit $1"
	}
	merge() {	# merge BRANCH [ARGS]
		t=$((t + 3600))
		_lr_b=$1; shift
		GIT_COMMITTER_DATE="@$t +0000" GIT_AUTHOR_DATE="@$t +0000" \
			git -C "$R" merge -q --no-ff "$@" \
			-m "Merge branch '$_lr_b' of git://example.org/$_lr_b" "$_lr_b" ||
			fail "merge $_lr_b"
	}
}

# eval_set SEED: t050's labelled set (tests/t050-match-eval.py: a
# repository, its mail and the labels) built from SEED in $W ($TMP/w;
# after make_tmp and isolate_git), and in $TMP/rules the rule that its CI
# bot's mails are echoes.
eval_set() {
	W=$TMP/w
	python3 tests/t050-match-eval.py "$W" "$1" ||
		fail "the evaluation set could not be built"
	printf 'echo from ci-bot@example.org\n' >"$TMP/rules"
}

# dump_matches DB: every match of DB, a line each, sorted, the score to
# six places (the incremental-against-whole tests compare these).
dump_matches() {
	sqlite3 "$1" "SELECT commit_sha, message_id, method, printf('%.6f', score)
		FROM matches ORDER BY 1, 2, 3"
}

# same_output LABEL EXPECTED ACTUAL: 0 when the files are identical, else
# print LABEL and the first line where they differ, and return 1.
# (Its variables are named so as not to clobber a caller's: sh has no locals.)
same_output() {
	cmp -s "$2" "$3" && return 0
	so_cmp=$(cmp "$2" "$3" 2>&1)
	so_line=$(echo "$so_cmp" | sed -n 's/.* line \([0-9]*\).*/\1/p')
	case $so_cmp in *EOF*) so_line=$(( ${so_line:-0} + 1 )) ;; esac	# one is a prefix
	echo "MISMATCH $1: $(wc -l <"$2") lines expected, $(wc -l <"$3") got;" \
		"first difference at line ${so_line:-?}:"
	echo "    expected: $(sed -n "${so_line:-1}p" "$2")"
	echo "    got:      $(sed -n "${so_line:-1}p" "$3")"
	return 1
}

# Checks that count failures instead of stopping at the first: `bad MSG`
# records one; a script ends with [ $nfail -eq 0 ].
nfail=0
bad() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
# run LABEL CMD...: stdout in $TMP/out, stderr in $TMP/err, exit code in rc;
# a signal or a sanitizer report is a failure whatever the test expects.
run() {
	label=$1; shift
	echo "+ $*"
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	head -n 5 "$TMP/out" | sed 's/^/    /'
	head -n 5 "$TMP/err" | sed 's/^/    err: /'
	[ $rc -lt 128 ] || bad "$label: killed by signal $((rc - 128))"
	! grep -q 'Sanitizer\|runtime error:' "$TMP/err" || bad "$label: sanitizer report"
	return 0
}
expect_rc() {	# expect_rc LABEL N
	[ "$rc" -eq "$2" ] || bad "$1: exit $rc, expected $2"
}

# fixture_db FX DB: build the fixture into FX, then import its list, scan
# v1.0..v1.1 and match into DB, failing the test (not onlist) if the
# fixture cannot be built
fixture_db() {
	sh fixtures/make-fixtures.sh "$1" >"$TMP/fixture.log" 2>&1 ||
		{ cat "$TMP/fixture.log"; fail "the fixture could not be built"; }
	"$ONLIST" -q --db "$2" import --list fixture "$1/list.mbox" >/dev/null || fail "import"
	"$ONLIST" -q --db "$2" scan --repo "$1/repo" v1.0..v1.1 >/dev/null || fail "scan"
	"$ONLIST" -q --db "$2" match >/dev/null || fail "match"
}

# lookup_verdict DB SHA: one line, "posted METHOD:FROM... STATE" (the
# postings that count, sorted) or "not posted  None", from lookup --json
lookup_verdict() {
	"$ONLIST" --db "$1" lookup --json "$2" | python3 -c '
import json, sys
c = json.load(sys.stdin)[0]
ps = [p for p in c["postings"] if p["counts"]]
print("posted" if c["posted"] else "not posted",
      " ".join(sorted(p["method"] + ":" + p["from"] for p in ps)),
      (c.get("review") or {}).get("state"))'
}
