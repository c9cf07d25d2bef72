#!/bin/sh
# corpus-check.sh [-m MIRRORS] [-o ONLIST] OUTDIR
#
# A validation tool, not a test: it needs other projects' test corpora,
# which onlist neither ships nor fetches.  It compares `onlist patch-id`
# with git's patch-id (`git mailinfo -u MSG PATCH < MAIL; git patch-id
# --stable < PATCH`, what `git am` would see) on every mail of the mail
# test corpora of git (t/t5100, t/t4256, t/t4258, and format-patch output
# of its own history, plain, --attach and --inline), patchwork
# (patchwork/tests/data), b4 (src/tests/samples), public-inbox (t/) and
# notmuch (test/corpora).
#
# MIRRORS (default /work/.mirror) holds bare git repositories named
# OWNER+NAME/repo: git+git, getpatchwork+patchwork, mricon+b4,
# nojb+public-inbox (a mirror of public-inbox.org's public-inbox.git) and
# notmuch+notmuch; a corpus whose repository is absent is said so and left
# out.  Every mail is extracted under OUTDIR/mail/CORPUS/, mboxes split the
# way `git am` splits them (`git mailsplit -b`).  A mail `git mailinfo -u`
# refuses ("cannot convert from CHARSET", a bogus charset label) is
# compared with what `git mailinfo -n` (`git am --no-utf8`) makes of it:
# onlist keeps such a patch rather than lose it; one neither reads has no
# patch-id.  Printed: one line per difference ("DIFF CORPUS FILE git=ID
# onlist=ID"), then per corpus the mails checked, those with a patch-id,
# those compared with -n, and the differences.  Exit 1 when any differs.
set -u
mirrors=/work/.mirror
onlist=$(cd "$(dirname "$0")/.." && pwd)/onlist
while getopts m:o: opt; do
	case $opt in
	m) mirrors=$OPTARG ;;
	o) onlist=$OPTARG ;;
	*) echo "usage: $0 [-m MIRRORS] [-o ONLIST] OUTDIR" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-m MIRRORS] [-o ONLIST] OUTDIR" >&2; exit 2; }
out=$1
[ -x "$onlist" ] || { echo "$0: no onlist binary at $onlist (make onlist, or -o)" >&2; exit 2; }
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
# git's own settings only: the user's config must not change any answer
export HOME="$out/home" GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
mkdir -p "$HOME"

# extract CORPUS REPO PATHSPEC-REGEX: every blob of REPO's HEAD whose path
# matches the regex, into $out/raw/CORPUS/ (slashes become '~')
extract() {
	git_dir=$mirrors/$2/repo
	if [ ! -d "$git_dir" ]; then
		echo "corpus $1: no repository at $git_dir: left out" >&2
		return
	fi
	mkdir -p "$out/raw/$1"
	git --git-dir="$git_dir" ls-tree -r HEAD |
	awk -F'\t' -v re="$3" '$1 ~ / blob / && $2 ~ re { print $1 "\t" $2 }' |
	while IFS='	' read -r meta path; do
		blob=${meta##* }
		git --git-dir="$git_dir" cat-file blob "$blob" \
			>"$out/raw/$1/$(printf '%s' "$path" | tr / '~')"
	done
}

rm -rf "$out/raw" "$out/mail"
extract git git+git \
	'^t/t5100/([^/]*mbox[^/]*|[^/]*\.in|nul-plain|empty|0001mboxrd|0002mboxrd)$|^t/t4256/1/patch$|^t/t4258/mbox$'
extract patchwork getpatchwork+patchwork '^patchwork/tests/data/(mail|series|fuzz|patches)/'
extract b4 mricon+b4 '^src/tests/samples/[^/]*\.(mbox|eml|txt|patch)$'
extract public-inbox nojb+public-inbox '^t/([^/]*\.(eml|mbox|patch)|data/[^/]*\.(eml|mbox|patch)|solve/[^/]*)$'
extract notmuch notmuch+notmuch '^test/corpora/'

# format-patch output of git's own recent history, as it comes out
if [ -d "$mirrors/git+git/repo" ]; then
	fp=$out/raw/format-patch
	mkdir -p "$fp"
	g="git --git-dir=$mirrors/git+git/repo"
	$g format-patch -q -o "$fp/plain" --no-merges -300 HEAD >/dev/null
	$g format-patch -q -o "$fp/attach" --attach --no-merges -40 HEAD >/dev/null
	$g format-patch -q -o "$fp/inline" --inline --no-merges -40 HEAD >/dev/null
	for d in plain attach inline; do
		for f in "$fp/$d"/*; do mv "$f" "$fp/$d~${f##*/}"; done
		rmdir "$fp/$d"
	done
fi

# split every file as `git am` does; a file mailsplit cannot read is one mail
for dir in "$out"/raw/*; do
	corpus=${dir##*/}
	for f in "$dir"/*; do
		[ -f "$f" ] || continue
		dest=$out/mail/$corpus/${f##*/}
		mkdir -p "$dest"
		if ! git mailsplit -b -o"$dest" "$f" >/dev/null 2>&1 ||
		   [ -z "$(ls "$dest")" ]; then
			rm -rf "$dest"; mkdir -p "$dest"
			cp "$f" "$dest/0001"
		fi
	done
done

total_diff=0
tmp=$out/tmp
mkdir -p "$tmp"
for dir in "$out"/mail/*; do
	corpus=${dir##*/}
	n=0 ids=0 diffs=0 no_utf8=0
	for m in "$dir"/*/*; do
		[ -f "$m" ] || continue
		n=$((n + 1))
		: >"$tmp/patch"
		if git mailinfo -u "$tmp/msg" "$tmp/patch" <"$m" >/dev/null 2>&1; then
			want=$(git patch-id --stable <"$tmp/patch" | head -n 1 | cut -d' ' -f1)
		elif : >"$tmp/patch" &&
		     git mailinfo -n "$tmp/msg" "$tmp/patch" <"$m" >/dev/null 2>&1; then
			want=$(git patch-id --stable <"$tmp/patch" | head -n 1 | cut -d' ' -f1)
			no_utf8=$((no_utf8 + 1))
		else
			want=	# git am refuses it: no patch-id
		fi
		got=$("$onlist" patch-id --mailinfo "$tmp/omsg" "$tmp/opatch" \
			<"$m" 2>"$tmp/err" | head -n 1 | cut -d' ' -f1)
		[ -n "$want" ] && ids=$((ids + 1))
		if [ "$want" != "$got" ]; then
			diffs=$((diffs + 1))
			echo "DIFF $corpus ${m#"$dir"/} git=${want:-none} onlist=${got:-none}"
		fi
	done
	echo "corpus $corpus: $n mails, $ids with a git patch-id," \
		"$no_utf8 compared with mailinfo -n, $diffs differ"
	total_diff=$((total_diff + diffs))
done
echo "total differences: $total_diff"
[ "$total_diff" -eq 0 ]
