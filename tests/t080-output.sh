#!/bin/sh
# What report, stats and export write, in every format they offer, and
# where they write it.
#
# Formats: each runs and its output parses (JSON and JSON lines with
# python's json module after a strict UTF-8 decode, CSV with the csv
# module, HTML with html.parser); `--format=json`, `--format json` and
# `--json` give the same bytes; --db and the other options work after the
# command's name and after the operand.
#
# Strings from git: a repository with a subject and an author holding a
# raw Latin-1 byte (0xA7, no encoding header: what some old kernel commits
# have; written with hash-object, since git commit converts it), a subject and an author starting with '=' and '@', and an author
# holding ESC and U+202E.  Every output is valid UTF-8 (the byte becomes
# U+FFFD), CSV cells that a spreadsheet would run get a leading ', and the
# controls show as U+001B / U+202E in text and Markdown and inside
# <span class="ctl"> in HTML, never as the raw characters.
#
# Files: -o FILE replaces FILE only with a complete output.  A folder
# that does not exist, a read-only folder, and a write that fails half way
# (RLIMIT_FSIZE) each exit 1 and leave the previous FILE byte-identical
# with no temporary file behind; `> /dev/full` exits 1 with a message.
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
fixture_db "$FX" "$DB"

# check KIND FILE: FILE is strict UTF-8 and parses as KIND
check() {
	python3 - "$1" "$2" <<'PY'
import csv, io, json, sys
from html.parser import HTMLParser
kind, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
try:
    text = data.decode("utf-8", errors="strict")
except UnicodeDecodeError as e:
    print("%s: not UTF-8: %s" % (path, e)); sys.exit(1)
if not text:
    print("%s: empty" % path); sys.exit(1)
try:
    if kind == "json":
        json.loads(text)
    elif kind == "jsonl":
        for line in text.splitlines():
            json.loads(line)
    elif kind == "csv":
        rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
        if len(set(len(r) for r in rows)) != 1:
            print("%s: rows of %s fields" % (path, sorted(set(len(r) for r in rows))))
            sys.exit(1)
    elif kind == "html":
        if not text.startswith("<!DOCTYPE html>") or not text.rstrip().endswith("</html>"):
            print("%s: not one HTML page" % path); sys.exit(1)
        # HTMLParser alone accepts anything: check that every element
        # opened is closed, in order (void elements aside), so a value
        # that breaks out of its tag is caught here
        class Balance(HTMLParser):
            VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input",
                    "link", "meta", "source", "track", "wbr"}
            def __init__(self):
                super().__init__(convert_charrefs=True)
                self.stack = []
            def handle_starttag(self, tag, attrs):
                if tag not in self.VOID:
                    self.stack.append((tag, self.getpos()))
            def handle_startendtag(self, tag, attrs):
                pass
            def handle_endtag(self, tag):
                if tag in self.VOID:
                    return
                if not self.stack or self.stack[-1][0] != tag:
                    raise ValueError("</%s> at %s closes %s" % (
                        tag, self.getpos(),
                        self.stack[-1] if self.stack else "nothing"))
                self.stack.pop()
        b = Balance()
        b.feed(text)
        b.close()
        if b.stack:
            raise ValueError("left open: %s" % b.stack[-5:])
except Exception as e:
    print("%s: %s: %s" % (path, kind, e)); sys.exit(1)
PY
}

# ---- every format -----------------------------------------------------------
# fmt CMD FORMAT KIND ARGS...: run, expect exit 0 and output of KIND
fmt() {
	c=$1 f=$2 k=$3; shift 3
	run "$c $f" "$ONLIST" --db "$DB" "$c" --format "$f" "$@"
	expect_rc "$c --format $f" 0
	cp "$TMP/out" "$TMP/$c.$f"
	check "$k" "$TMP/$c.$f" || bad "$c --format $f: not $k (above)"
}
fmt report md text v1.0..v1.1
fmt report html html v1.0..v1.1
fmt report json json v1.0..v1.1
fmt stats text text v1.0..v1.1
fmt stats md text v1.0..v1.1
fmt stats csv csv v1.0..v1.1
fmt stats json json v1.0..v1.1
fmt export csv csv commits
fmt export jsonl jsonl postings
fmt export json json postings
grep -q '^# Commits that bypassed the lists: v1\.0\.\.v1\.1$' "$TMP/report.md" || bad "report md: no title"
grep -q '^Changelog statistics for v1\.0\.\.v1\.1$' "$TMP/stats.text" || bad "stats text: no title"
grep -q '^## Changelog statistics for v1' "$TMP/stats.md" || bad "stats md: no title"
head -n 1 "$TMP/stats.csv" | grep -q '^section,name,count,extra' || bad "stats csv: no header"
python3 - "$TMP/export.json" "$TMP/export.jsonl" <<'PY' || bad "export json is not the jsonl rows as one array (above)"
import json, sys
a = json.load(open(sys.argv[1], encoding="utf-8"))
b = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
if not isinstance(a, list) or a != b or not a:
    print("json: %s of %d, jsonl: %d rows" % (type(a).__name__, len(a), len(b))); sys.exit(1)
PY

# the spellings of an option, and options anywhere
for c in "report v1.0..v1.1" "stats v1.0..v1.1" "export postings"; do
	set -- $c
	"$ONLIST" --db "$DB" "$@" --format json >"$TMP/a.json" 2>"$TMP/err" || bad "$1 --format json: exit $?"
	check json "$TMP/a.json" || bad "$1 --format json: not JSON (above)"
	"$ONLIST" "$1" --format=json --db="$DB" $2 >"$TMP/b.json" 2>"$TMP/err" || bad "$1 --format=json --db=: exit $?"
	cmp -s "$TMP/a.json" "$TMP/b.json" || bad "$1: --format=json differs from --format json"
	"$ONLIST" "$1" $2 --json --db "$DB" >"$TMP/c.json" 2>"$TMP/err" || bad "$1 OPERAND --json --db: exit $?"
	cmp -s "$TMP/a.json" "$TMP/c.json" || bad "$1: --json after the operand differs from --format json"
	"$ONLIST" "$1" -q --db "$DB" -o "$TMP/d.json" --format json $2 2>"$TMP/err" || bad "$1 -o: exit $?"
	cmp -s "$TMP/a.json" "$TMP/d.json" || bad "$1: -o FILE differs from standard output"
	# the temporary file is 0600; the result gets the mode a new file would
	[ "$(stat -c %a "$TMP/d.json")" = "$(printf '%o' $((0666 & ~$(umask))))" ] ||
		bad "$1: -o FILE has mode $(stat -c %a "$TMP/d.json"), umask $(umask)"
	run "$1 typo" "$ONLIST" "$1" --db "$DB" --fromat json
	expect_rc "$1 --fromat" 2
	grep -q "did you mean '--format'" "$TMP/err" || bad "$1 --fromat: no hint"
	run "$1 bad format" "$ONLIST" "$1" --db "$DB" --format xml
	expect_rc "$1 --format xml" 2
done

# ---- strings from git --------------------------------------------------------
R=$TMP/odd
ODB=$TMP/odd.db
git init -q -b main "$R"
echo base >"$R/base"; git -C "$R" add base; git -C "$R" commit -q -m base
git -C "$R" tag o0
esc=$(printf '\033') rlo=$(printf '\342\200\256')
# Each commit has an empty explanation and no signoff, so that stats
# lists its author and subject too.
# odd FILE MESSAGE-FILE AUTHOR
odd() {
	echo "$1" >"$R/$1"; git -C "$R" add "$1"
	GIT_AUTHOR_NAME=$3 git -C "$R" commit -q -F "$2" ||
		fail "git commit $1"
}
# git commit (and commit-tree) would take a message that is not UTF-8 for
# Latin-1 and convert it; old commits were written by gits that did not,
# so this one is written as an object
echo latin >"$R/latin"; git -C "$R" add latin
now=$(date +%s)
printf 'tree %s\nparent %s\nauthor Jos\247 Latin <jose@example.org> %s +0000\ncommitter Tester <tester@example.org> %s +0000\n\ncaf\247 au lait\n' \
	"$(git -C "$R" write-tree)" "$(git -C "$R" rev-parse HEAD)" "$now" "$now" >"$TMP/latin.obj"
latin=$(git -C "$R" hash-object -t commit -w --stdin <"$TMP/latin.obj") || fail "hash-object"
git -C "$R" update-ref refs/heads/main "$latin" || fail "update-ref"
printf '=HYPERLINK("https://x.example/","click")\n' >"$TMP/msg.formula"
odd formula "$TMP/msg.formula" "@Mallory"
printf 'ctl: an author who writes to the terminal\n' >"$TMP/msg.ctl"
odd ctl "$TMP/msg.ctl" "Eve${esc}[31mRed${rlo}gnp"
git -C "$R" tag o1
# the premise: git kept the raw byte and wrote no encoding header
git -C "$R" cat-file commit "$latin" >"$TMP/latin.raw"
grep -q '^encoding ' "$TMP/latin.raw" && fail "git wrote an encoding header (test bug)"
grep -q "$(printf 'caf\247 au lait')" "$TMP/latin.raw" || fail "the commit does not hold the raw 0xA7 (test bug)"
"$ONLIST" -q --db "$ODB" scan --repo "$R" o0..o1 >/dev/null || fail "scan the odd repository"
# one message from an hour ago, so that the archive covers the commits just made
# (with no message at all, every commit is "unknown": not looked for)
printf 'From x Thu Jan  1 00:00:00 1970\nFrom: a@example.org\nSubject: hello\nMessage-ID: <now@x>\nDate: %s\n\nhi\n' "$(date -R -d '-1 hour')" >"$TMP/now.mbox"
"$ONLIST" -q --db "$ODB" import --list now "$TMP/now.mbox" >/dev/null || fail "import the message from now"

for f in md html json; do
	run "odd report $f" "$ONLIST" report --db "$ODB" --format $f o0..o1
	expect_rc "odd report $f" 0
	cp "$TMP/out" "$TMP/odd-report.$f"
done
for f in text md csv json; do
	run "odd stats $f" "$ONLIST" stats --db "$ODB" --format $f o0..o1
	expect_rc "odd stats $f" 0
	cp "$TMP/out" "$TMP/odd-stats.$f"
done
for f in csv jsonl json; do
	run "odd export $f" "$ONLIST" export --db "$ODB" --format $f commits
	expect_rc "odd export $f" 0
	cp "$TMP/out" "$TMP/odd-export.$f"
done
for k in report.md report.html report.json stats.text stats.md stats.csv \
	 stats.json export.csv export.jsonl export.json; do
	case $k in
	*.md|*.text) kind=text ;;
	*) kind=${k#*.} ;;
	esac
	check "$kind" "$TMP/odd-$k" || bad "$k from a Latin-1 commit: not UTF-8 $kind (above)"
done
python3 - "$TMP" "$esc" "$rlo" <<'PY' || bad "strings from git (above)"
import csv, io, json, sys
tmp, esc, rlo = sys.argv[1], sys.argv[2], sys.argv[3]
ok = True
def no(cond, msg):
    global ok
    if cond:
        print(msg); ok = False
def read(name):
    # validity was checked above: here, what the text says
    return open("%s/odd-%s" % (tmp, name), encoding="utf-8", errors="replace").read()
def part(f):	# each part on its own, so that one failure does not hide the next
    try:
        f()
    except Exception as e:
        no(True, "%s: %s: %s" % (f.__name__, type(e).__name__, e))

# JSON: the byte is U+FFFD, the controls round-trip as escapes
def report_json():
    r = json.loads(read("report.json"))
    subj = {c["subject"] for c in r["commits"]}
    no("caf\ufffd au lait" not in subj, "report json subjects: %r" % subj)
    authors = {c["author"] for c in r["commits"]}
    no("Jos\ufffd Latin" not in authors, "report json authors: %r" % authors)
    no("Eve\x1b[31mRed\u202egnp" not in authors, "report json: the control author did not round-trip")
def stats_json():
    s = json.loads(read("stats.json"))
    names = {a["name"] for a in s["empty_explanation"]["by_author"]}
    no("Jos\ufffd Latin" not in names, "stats json authors: %r" % names)
def export_json():
    e = json.loads(read("export.json"))
    no("caf\ufffd au lait" not in {x["subject"] for x in e}, "export json: no U+FFFD subject")
for f in (report_json, stats_json, export_json):
    part(f)

# CSV: a formula gets a leading '
def export_csv():
    rows = list(csv.DictReader(io.StringIO(read("export.csv"), newline="")))
    f = [x for x in rows if "HYPERLINK" in x["subject"]]
    no(len(f) != 1, "export csv: %d formula rows" % len(f))
    if f:
        no(f[0]["subject"] != "'=HYPERLINK(\"https://x.example/\",\"click\")", "export csv subject %r" % f[0]["subject"])
        no(f[0]["author_name"] != "'@Mallory", "export csv author %r" % f[0]["author_name"])
def stats_csv():
    rows = list(csv.reader(io.StringIO(read("stats.csv"), newline="")))
    names = [x[1] for x in rows if x[0] == "empty_explanation_author"]
    no("'@Mallory" not in names, "stats csv authors: %r" % names)
    no(any(x[1][:1] in "=+-@" for x in rows if x[1]), "stats csv: a name starts a formula")
for f in (export_csv, stats_csv):
    part(f)

# text, Markdown, HTML: the controls are spelled out, never raw
for name in ("report.md", "report.html", "stats.text", "stats.md", "export.csv", "stats.csv"):
    t = read(name)
    no(esc in t or rlo in t, "%s: a raw ESC or U+202E" % name)
no("EveU+001B\\[31mRedU+202Egnp" not in read("report.md"), "report md: the control author is not spelled out")
no("EveU+001B\\[31mRedU+202Egnp" not in read("stats.md"), "stats md: the control author is not spelled out")
no("EveU+001B[31mRedU+202Egnp" not in read("stats.text"), "stats text: the control author is not spelled out")
no('Eve<span class="ctl">U+001B</span>[31mRed<span class="ctl">U+202E</span>gnp' not in read("report.html"),
   "report html: the controls are not inside <span class=\"ctl\">")
no("caf\ufffd au lait" not in read("report.md") or "caf\ufffd au lait" not in read("stats.text"),
   "md/text: the Latin-1 byte is not U+FFFD")
# the author's column in stats text still lines up with the others
t = read("stats.text").splitlines()
cols = [l.rstrip().rfind(" ") for l in t if l.startswith("  ") and l.rstrip()[-1:].isdigit()
        and ("Eve" in l or "Mallory" in l or "Latin" in l) and "(" not in l]
no(len(cols) != 3 or len(set(cols)) != 1, "stats text: the author table does not line up: %r" % cols)
sys.exit(0 if ok else 1)
PY

# ---- where the output goes ---------------------------------------------------
# same_prev LABEL: the previous file is unchanged and no temporary is left
printf 'the previous report\n' >"$TMP/prev.want"
same_prev() {
	cmp -s "$TMP/prev.want" "$2/prev" || bad "$1: the previous file changed"
	[ -z "$(ls -A "$2" | grep -v '^prev$')" ] || bad "$1: left behind: $(ls -A "$2" | tr '\n' ' ')"
}
# as root a read-only folder is no obstacle: drop the capability that
# makes it one, where setpriv can
asuser=
if [ "$(id -u)" = 0 ]; then
	asuser="setpriv --bounding-set=-dac_override,-dac_read_search --inh-caps=-all"
	$asuser true 2>/dev/null || asuser=none
fi
for c in "report v1.0..v1.1" "stats v1.0..v1.1" "export postings"; do
	set -- $c
	run "$1 -o no folder" "$ONLIST" "$@" --db "$DB" -o "$TMP/nofolder/out"
	expect_rc "$1 -o into a missing folder" 1
	[ -s "$TMP/err" ] || bad "$1 -o into a missing folder: no message"
	[ ! -e "$TMP/nofolder" ] || bad "$1 -o: made the missing folder"

	mkdir -p "$TMP/ro"; cp "$TMP/prev.want" "$TMP/ro/prev"; chmod 555 "$TMP/ro"
	if [ "$asuser" != none ]; then
		run "$1 -o read-only" $asuser "$ONLIST" "$@" --db "$DB" -o "$TMP/ro/prev"
		expect_rc "$1 -o into a read-only folder" 1
		grep -q "ro/prev" "$TMP/err" || bad "$1 -o read-only: the message does not name the file"
		same_prev "$1 -o read-only" "$TMP/ro"
	fi
	chmod 755 "$TMP/ro"; rm -rf "$TMP/ro"

	run "$1 > /dev/full" sh -c '"$@" >/dev/full' sh "$ONLIST" "$@" --db "$DB"
	expect_rc "$1 > /dev/full" 1
	grep -q "standard output" "$TMP/err" || bad "$1 > /dev/full: no message about standard output"
done
[ "$asuser" = none ] && echo "note: root without setpriv: read-only folder not checked"

# a write that fails half way: a file size limit below the output's size
# (ulimit -f counts 512-byte blocks in sh, 1024 in bash: 100 is 50 kB or
# 100 kB, more than sqlite needs and less than either output)
for c in "report --json v1.0..v1.1" "export --json commits"; do
	set -- $c
	mkdir -p "$TMP/lim"; cp "$TMP/prev.want" "$TMP/lim/prev"
	"$ONLIST" --db "$DB" "$@" | [ "$(wc -c)" -gt 110000 ] || bad "$1: output too small for this check (test bug)"
	run "$1 -o over the size limit" sh -c 'ulimit -f 100; trap "" XFSZ; exec "$@"' sh \
		"$ONLIST" "$@" --db "$DB" -o "$TMP/lim/prev"
	expect_rc "$1 -o over the size limit" 1
	grep -q "lim/prev" "$TMP/err" || bad "$1 -o over the size limit: the message does not name the file"
	same_prev "$1 -o over the size limit" "$TMP/lim"
	rm -rf "$TMP/lim"
done
[ $nfail -eq 0 ]
