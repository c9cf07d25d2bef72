#!/bin/sh
# demo.sh - build the fixture (fixtures/make-fixtures.sh) into ./demo and run
# onlist's whole pipeline on it, printing each command before it runs; the
# last line compares onlist's answer with the fixture's expected-unposted.txt.
# It also writes demo/report.html, the weekly report as one HTML file.
# `make demo` builds ./onlist first.  ./demo is generated (and gitignored).
cd "$(dirname "$0")/.." || exit 1
[ -x ./onlist ] || { echo "demo: ./onlist is not built: run make" >&2; exit 1; }
rm -rf demo
sh fixtures/make-fixtures.sh demo || exit 1

run() {
	echo
	echo "\$ $*"
	"$@" || { echo "demo: '$*' failed (exit $?)" >&2; exit 1; }
}
run ./onlist --db demo/onlist.db import --list demo-list demo/list.mbox
run ./onlist --db demo/onlist.db scan --repo demo/repo v1.0..v1.1
run ./onlist --db demo/onlist.db match
run ./onlist --db demo/onlist.db status
echo
echo "\$ ./onlist --db demo/onlist.db unposted v1.0..v1.1"
./onlist --db demo/onlist.db unposted v1.0..v1.1 >demo/unposted.txt ||
	{ echo "demo: unposted failed" >&2; exit 1; }
cat demo/unposted.txt

# The weekly report of the last week of v1.1 (plain text for a mail here,
# HTML to a file, and a small site of the last weeks), and the changelog
# statistics of the range.
run ./onlist --db demo/onlist.db report --week 2020-W04 --format text
run ./onlist --db demo/onlist.db report --week 2020-W04 --format html -o demo/report.html
run ./onlist --db demo/onlist.db report --site demo/site --weeks 6
# a picture of the HTML at a phone's width, when Chromium is there
if command -v chromium >/dev/null 2>&1; then
	HOME=$PWD/demo timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --user-data-dir="$PWD/demo/.chromium" \
		--window-size=420,760 --screenshot="$PWD/demo/report.png" \
		"file://$PWD/demo/report.html" >/dev/null 2>&1 &&
		echo "demo: screenshot $PWD/demo/report.png"
	rm -rf demo/.chromium
fi
echo "demo: wrote $PWD/demo/report.html and $PWD/demo/site/index.html (open them in a browser)"
run ./onlist --db demo/onlist.db stats v1.0..v1.1

got=$(grep -c . demo/unposted.txt)
want=$(grep -c . demo/expected-unposted.txt)
cut -c1-12 demo/expected-unposted.txt | sort >demo/.want
cut -d' ' -f1 demo/unposted.txt | sort >demo/.got
echo
if [ "$got" -eq "$want" ] && cmp -s demo/.want demo/.got; then
	echo "demo: onlist finds $got unposted commits in v1.0..v1.1; the fixture expects $want, the same ones: OK"
	rm -f demo/.want demo/.got
else
	echo "demo: onlist finds $got unposted commits in v1.0..v1.1; the fixture expects $want:" \
		"MISMATCH (diff demo/.want demo/.got)"
	exit 1
fi
