#!/bin/sh
# Mail extraction, with git as the oracle.  The commits of a generated
# history become mails through `git format-patch` (plain, --attach,
# --inline, --cover-letter -v3 --thread), and tests/mail-forms.py re-encodes
# the plain ones the ways mailers do (quoted-printable, base64, CR LF,
# Latin-1, windows-1252, ISO-2022-JP, format=flowed, in-body headers, a
# scissors line, an octet-stream attachment, multipart/alternative and
# /signed, a quoting reply, quilt and plain diffs) and the shapes of damaged
# mail git reads (NUL bytes in headers, patch and message, no header line
# first or none at all, blank lines before the From_ line, a bare "From "
# first line, a format-patch file as it is, and one whose body is base64
# holding NUL bytes, as git's t5100/nul-b64.in).  Each mail goes through
# what `git am` does: `git mailsplit -b --mboxrd`, `git mailinfo -u MSG PATCH`,
# then `git patch-id --stable < PATCH`; `onlist patch-id --mailinfo` on the
# same file must write the same MSG byte for byte, the same PATCH (or none
# where git's holds no diff) and print the same patch-id.  Where onlist
# departs from git on purpose (a mail git garbles or refuses), the form
# comes with an oracle, the mail as git needs it to give onlist's answer
# (NNN-FORM.oracle, see mail-forms.py), and git reads that instead.
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git
top=$(pwd)
cd "$TMP" || exit 1

export GIT_AUTHOR_DATE="2013-06-01T10:00:00Z" GIT_COMMITTER_DATE="2013-06-01T10:00:00Z"
git init -q repo && cd repo || exit 1
git config i18n.commitEncoding UTF-8
N=${ONLIST_T013_COMMITS:-24}
i=0
while [ $i -lt "$N" ]; do
	case $((i % 8)) in
	0) printf 'int f%d(void)\n{\n\treturn %d;\n}\n' $i $i > "f$((i % 5)).c" ;;
	1) printf 'caf\303\251 %d na\303\257ve\n' $i >> utf8.txt ;;
	2) printf 'line with trailing space %d   \n' $i >> ws.txt ;;
	3) printf 'crlf line %d\r\n' $i >> crlf.txt ;;
	4) [ -f f1.c ] && git mv -k f1.c "moved$i.c"; printf '/* moved */\n' >> "moved$i.c" ;;
	5) printf 'no newline %d' $i > nonl.txt ;;
	6) printf '\tindented %d\n\n\nafter blank\n' $i >> blank.txt ;;
	7) printf 'x = "%s" + %d\n' "$(printf 'long line %.0s' 1 2 3 4 5 6 7 8 9)" $i >> long.txt ;;
	esac
	git add -A >/dev/null 2>&1
	case $((i % 6)) in
	0) body="Explain change $i in plain ASCII." ;;
	1) body="Fix the caf$(printf '\303\251') in Jos$(printf '\303\251')'s na$(printf '\303\257')ve parser.
From now on, lines that start with From are fine.
>From the archive, too." ;;
	2) body="Japanese: $(printf '\346\227\245\346\234\254\350\252\236\343\201\256\343\203\206\343\202\271\343\203\210') ($i)." ;;
	3) body="Changes since v1:
---
- moved the check up
- this line is long enough that a mailer will want to wrap it somewhere before the end of it, $i
Quotes: $(printf '\342\200\234')smart$(printf '\342\200\235') and a dash $(printf '\342\200\224') $i." ;;
	4) body="Reported-by: Rita Reviewer <rita@example.com>" ;;
	5) body="" ;;
	esac
	git commit -q -m "change $i: edit things" ${body:+-m "$body"} \
		-m "Signed-off-by: Ann Author <ann@example.org>" || exit 1
	i=$((i + 1))
done
git format-patch -q -o ../plain --root HEAD || exit 1
git format-patch -q -o ../attach --attach HEAD~6 || exit 1
git format-patch -q -o ../inline --inline HEAD~6 || exit 1
git format-patch -q -o ../series --cover-letter -v3 --thread -n HEAD~5 || exit 1
cd .. || exit 1
python3 "$top/tests/mail-forms.py" mails plain attach inline series || exit 1

n=0 with_id=0 with_patch=0 departs=0
: >forms
for m in mails/*.mbox; do
	n=$((n + 1))
	form=${m#mails/???-}; form=${form%.mbox}
	echo "$form" >>forms
	rm -rf split; mkdir split
	oracle=${m%.mbox}.oracle
	if [ -f "$oracle" ]; then
		# the departure is real: git garbles or refuses the mail itself
		rm -rf split-m split-o; mkdir split-m split-o
		if git mailsplit -b --mboxrd -osplit-m "$m" >/dev/null &&
		   git mailinfo -u msg patch <split-m/0001 >info 2>err &&
		   git mailsplit -b --mboxrd -osplit-o "$oracle" >/dev/null &&
		   git mailinfo -u omsg opatch <split-o/0001 >info 2>err &&
		   cmp -s msg omsg && cmp -s patch opatch; then
			bad "$m: git reads it as it reads its oracle: nothing to depart from"
		fi
		departs=$((departs + 1))
	else
		oracle=$m
	fi
	if ! git mailsplit -b --mboxrd -osplit "$oracle" >/dev/null ||
	   ! git mailinfo -u msg patch <split/0001 >info 2>err; then
		bad "$m: git cannot read it: $(cat err)"
		continue
	fi
	# git prints one id per diff it finds; onlist keeps the first (they
	# differ only when a part after the patch repeats it, as an HTML
	# alternative of the whole mail does)
	want=$(git patch-id --stable <patch | head -n 1 | cut -d' ' -f1)
	got=$("$top/$ONLIST" patch-id --mailinfo omsg opatch <"$m" | cut -d' ' -f1)
	[ -n "$want" ] && with_id=$((with_id + 1))
	[ -s opatch ] && with_patch=$((with_patch + 1))
	[ "$want" = "$got" ] || bad "$m: patch-id: git '$want' onlist '$got'"
	# a format-patch file as `onlist patch-id` reads it without --mailinfo:
	# as git am would (base64 too, where git patch-id finds no diff)
	case $form in formatpatch*)
		got=$("$top/$ONLIST" patch-id <"$m" | head -n 1 | cut -d' ' -f1)
		[ "$want" = "$got" ] || bad "$m: patch-id of the format-patch file: git '$want' onlist '$got'"
	esac
	# onlist's one departure in the body: a NUL in the message is U+FFFD
	case $form in nulmsg|nulb64bare|nulrun|formatpatchb64) ;; *) false ;; esac && python3 -c 'import sys
d = open(sys.argv[1], "rb").read()
open(sys.argv[1], "wb").write(d.replace(b"\0", "\ufffd".encode()))' msg
	same_output "$m (message)" msg omsg || bad "$m: message differs"
	if [ -s opatch ]; then
		same_output "$m (patch)" patch opatch || bad "$m: patch differs"
	elif grep -q '^diff -\|^Index: \|^+++ ' patch; then
		bad "$m: git found a diff, onlist none"
	fi
	case $form in
	reply) [ ! -s opatch ] || bad "$m: a quoting reply counts as a patch" ;;
	series) if grep -q '^Subject: \[PATCH v3 0*0/' "$m"; then
			covers=$((covers + 1))
			[ ! -s opatch ] || bad "$m: a cover letter counts as a patch"
		fi ;;
	quilt|plaindiff) [ -s opatch ] && [ -z "$got" ] ||
		bad "$m: a diff without git headers: a patch with no patch-id" ;;
	esac
done
[ "${covers:-0}" -eq 1 ] || bad "expected one cover letter, saw ${covers:-0}"
echo "$n mails compared, $with_patch with a patch, $with_id with a patch-id," \
	"$departs against an oracle; forms:"
sort forms | uniq -c | sort -rn | awk '{ printf "  %s %s", $2, $1 } END { print "" }'
[ "$n" -ge 200 ] || bad "expected at least 200 mails, made $n"
[ "$with_id" -ge $((n / 2)) ] || bad "too few mails carry a patch-id"
[ $nfail -eq 0 ]
