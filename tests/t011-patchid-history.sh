#!/bin/sh
# `onlist patch-id` against `git patch-id` over a real project's history.
#
#   [ONLIST_HISTORY_REPO=/path/to/repo.git] [ONLIST_HISTORY_RANGE='v1.0..main'] \
#	sh tests/t011-patchid-history.sh
#
# ONLIST_HISTORY_RANGE (default HEAD) is split into words, so it may carry
# log options too (e.g. '--full-index HEAD~5000..HEAD').  The log is written
# once to a temporary file (it can take gigabytes: set TMPDIR), then both
# programs read that file, so the timings below exclude diff generation.
. tests/lib.sh
# Without one named, onlist's own history: a real project's commits (C,
# shell, Markdown, renames, binary-free), there on every clone, so the test
# runs in CI rather than skipping.  A shallow clone has too little of it.
if [ -z "$ONLIST_HISTORY_REPO" ]; then
	ONLIST_HISTORY_REPO=$(git rev-parse --show-toplevel 2>/dev/null) ||
		skip "not in a git clone: set ONLIST_HISTORY_REPO to a repository"
	[ "$(git -C "$ONLIST_HISTORY_REPO" rev-parse --is-shallow-repository)" = false ] ||
		skip "a shallow clone: set ONLIST_HISTORY_REPO to a full one"
fi
[ -d "$ONLIST_HISTORY_REPO" ] || fail "ONLIST_HISTORY_REPO=$ONLIST_HISTORY_REPO: no such directory"
need_cmd git
need_onlist
make_tmp
range=${ONLIST_HISTORY_RANGE:-HEAD}

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
rate() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", n / 1048576 / (b - a) }'; }

# shellcheck disable=SC2086 # the range is meant to be split
commits=$(git -C "$ONLIST_HISTORY_REPO" rev-list --count --no-merges $range 2>/dev/null) ||
	commits='?'	# the range carried options rev-list refuses
t0=$(now)
# shellcheck disable=SC2086 # the range is meant to be split
git -C "$ONLIST_HISTORY_REPO" log -p --no-merges $range >"$TMP/log" || fail "git log -p"
t1=$(now)
bytes=$(wc -c <"$TMP/log")
echo "$ONLIST_HISTORY_REPO $range: $commits commits, $((bytes / 1048576)) MiB of git log -p in $(secs "$t0" "$t1") s"

bad=0
for mode in --stable --unstable; do
	t0=$(now)
	git patch-id $mode <"$TMP/log" >"$TMP/want" || fail "git patch-id $mode"
	t1=$(now)
	"$ONLIST" patch-id $mode <"$TMP/log" >"$TMP/got" || fail "onlist patch-id $mode"
	t2=$(now)
	echo "patch-id $mode: git $(secs "$t0" "$t1") s ($(rate "$bytes" "$t0" "$t1") MiB/s)," \
		"onlist $(secs "$t1" "$t2") s ($(rate "$bytes" "$t1" "$t2") MiB/s)," \
		"$(wc -l <"$TMP/want") ids"
	same_output "$mode" "$TMP/want" "$TMP/got" || bad=1
done
[ "$bad" = 0 ] || fail "onlist patch-id differs from git patch-id on $ONLIST_HISTORY_REPO"
echo "identical"
