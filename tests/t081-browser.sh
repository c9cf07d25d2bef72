#!/bin/sh
# The weekly HTML report in a real browser (Debian's chromium, headless,
# installed here when missing and root): the demo's week is rendered to a
# screenshot at 420 px; the DOM Chromium builds (--dump-dom) holds every
# section the JSON report counts, with the same counts, and the chart's
# bars carry the JSON's weekly numbers; and at 420 px the page does not
# scroll sideways, and the chart's numbers are drawn at least 9 px high.
#
# How the width is measured: a wrapper page in the test's folder loads the
# report, untouched, into an <iframe> 420 px wide and, on its load event,
# writes the report document's scrollWidth and clientWidth and every
# element that sticks out past the right edge into its own DOM, which
# --dump-dom prints.  Chromium is started with
# --allow-file-access-from-files so that the wrapper may read a file://
# frame, and --virtual-time-budget so that --dump-dom waits for the
# load event.  This needs no script inside the report (it has none and
# must keep none) and no DevTools client: --remote-debugging-pipe would
# need a CDP client written here, --dump-dom alone gives no layout, and a
# screenshot's pixels cannot tell a scroll bar from content.
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

if ! command -v chromium >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 ||
		skip "chromium not installed (as root: apt-get install chromium)"
	echo "installing chromium" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 ||
	{ apt-get update -q >/dev/null 2>&1 &&
	  apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1; } ||
		fail "apt-get install chromium failed"
fi
# its own profile and no crash reporter, so that runs do not share state
chrome() {
	HOME=$TMP timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--no-first-run --disable-extensions --user-data-dir="$TMP/profile" \
		--hide-scrollbars "$@" 2>>"$TMP/chromium.log"
}

FX=$TMP/fx
DB=$TMP/onlist.db
fixture_db "$FX" "$DB"
# the demo's report: the week of the last landing (scripts/demo.sh)
last=$(git -C "$FX/repo" log -1 --format=%ct v1.1)
week=$(date -u -d "@$last" +%G-W%V)
"$ONLIST" --db "$DB" report --week "$week" --format html -o "$TMP/report.html" || fail "report html"
"$ONLIST" --db "$DB" report --week "$week" --format json >"$TMP/report.json" || fail "report json"

# ---- a screenshot at 420 px ----------------------------------------------------
chrome --window-size=420,1600 --screenshot="$TMP/shot.png" "file://$TMP/report.html"
python3 - "$TMP/shot.png" <<'PY' || bad "no 420 px wide PNG screenshot (see $TMP/chromium.log)"
import struct, sys
b = open(sys.argv[1], "rb").read(32)
ok = b[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">I", b[16:20])[0] == 420
sys.exit(0 if ok else 1)
PY

# ---- the DOM against the JSON ----------------------------------------------------
chrome --dump-dom "file://$TMP/report.html" >"$TMP/dom.html"
[ -s "$TMP/dom.html" ] || fail "chromium --dump-dom printed nothing: $(tail -n 3 "$TMP/chromium.log")"
python3 - "$TMP/dom.html" "$TMP/report.json" <<'PY' || bad "the rendered page and the JSON disagree (above)"
import json, re, sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    """headings with their text, <li> per section, the chart's bars"""
    def __init__(self):
        super().__init__()
        self.stack, self.heads, self.text, self.items, self.bars = [], [], [], {}, []
        self.section = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("h1", "h2", "h3", "p"):
            self.text = []
        if tag == "li" and self.section and not self.in_legend:
            self.items[self.section] = self.items.get(self.section, 0) + 1
        if tag == "ul":
            self.in_legend = a.get("class") == "lg"
        if tag == "g" and a.get("class") == "wk":
            self.bars.append((a["data-week"], int(a["data-commits"]), int(a["data-never"])))
        self.stack.append(tag)
    in_legend = False
    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3", "p"):
            t = " ".join("".join(self.text).split())
            self.heads.append((tag, t))
            if tag == "h2":
                self.section = t
        if tag == "ul":
            self.in_legend = False
    def handle_data(self, d):
        self.text.append(d)

dom = Dom(); dom.feed(open(sys.argv[1], encoding="utf-8").read())
r = json.load(open(sys.argv[2])); t = r["totals"]
ok = True
def need(tag, text):
    global ok
    if (tag, text) not in dom.heads:
        print("not in the page: <%s>%s" % (tag, text)); ok = False
need("h1", "Commits that bypassed the lists: " + r["title"])
sections = [("Never posted", "never_posted"), ("Posted, no reply", "no_reply"),
            ("Posted, discussed without a review tag", "discussed"),
            ("Reviewed only on the series", "reviewed_series")]
for title, k in sections:
    need("h2", "%s (%d)" % (title, t[k]))
    # every commit of a listed category is an entry of its section
    n = sum(c["category"] == k for c in r["commits"])
    items = dom.items.get("%s (%d)" % (title, t[k]), 0)
    # release bumps are folded into one line, not entries
    if k == "never_posted":
        n -= sum(c["category"] == k and c["reason"] == "release" for c in r["commits"])
    if items != n:
        print("section %s: %d entries, the JSON has %d" % (title, items, n)); ok = False
# the reasons of never posted, as subsections whose counts add up
h3 = [int(m.group(1)) for tag, s in dom.heads if tag == "h3" for m in [re.search(r"\((\d+)\)$", s)] if m]
if sum(h3) != t["never_posted"]:
    print("the never-posted subsections add up to", sum(h3), "not", t["never_posted"]); ok = False
summary = [s for tag, s in dom.heads if tag == "p" and " commits: " in s]
want = "%d commits: %d never posted" % (t["commits"], t["never_posted"])
if not summary or not summary[0].startswith(want):
    print("totals line", summary[:1], "does not start", want); ok = False
for k, words in (("no_reply", "posted with no reply"), ("discussed", "discussed without a review tag"),
                 ("reviewed_series", "reviewed only on the series"), ("reviewed", "reviewed on the list")):
    if summary and "%d %s" % (t[k], words) not in summary[0]:
        print("totals line lacks '%d %s'" % (t[k], words)); ok = False
if t["unknown"] and not any(("%d commit" % t["unknown"]) in s and "outside the archive" in s for _, s in dom.heads):
    print("no line on the", t["unknown"], "commits outside the archive"); ok = False
for title in ("Per committer", "Per subsystem", "Per week"):
    if not any(tag == "h2" and s == title for tag, s in dom.heads):
        print("no section", title); ok = False
want_bars = [(w["week"], w["commits"], w["never_posted"]) for w in r["weeks"]]
if dom.bars != want_bars:
    print("chart bars", dom.bars[-3:], "JSON weeks", want_bars[-3:]); ok = False
sys.exit(0 if ok else 1)
PY

# ---- no sideways scrolling at 420 px --------------------------------------------
cat >"$TMP/wrap.html" <<'EOF2'
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="report.html" style="width:420px;height:900px;border:0"></iframe>
<pre id="out">not measured</pre>
<script>
document.getElementById("f").addEventListener("load", function () {
  var d = this.contentDocument, e = d.documentElement, w = d.defaultView, out = [];
  /* an element past the right edge is fine inside a box that scrolls
     itself (a wide table): the page does not move */
  function boxed(n) {
    for (n = n.parentElement; n && n !== d.body; n = n.parentElement) {
      var o = w.getComputedStyle(n).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  }
  d.querySelectorAll("body *").forEach(function (n) {
    var r = n.getBoundingClientRect();
    if (r.right > e.clientWidth + 0.5 && !boxed(n))
      out.push(n.tagName.toLowerCase() + "@" + Math.round(r.right));
  });
  /* the chart's numbers, as high as they are drawn at this width */
  var least = 1000;
  d.querySelectorAll("svg.ch text.tot, svg.ch text.np, svg.ch text.wl").forEach(function (t) {
    least = Math.min(least, t.getBoundingClientRect().height);
  });
  document.getElementById("out").textContent = "scrollWidth=" + e.scrollWidth +
    " clientWidth=" + e.clientWidth + " chartText=" + Math.round(least * 10) / 10 +
    " outside=" + out.length + " " + out.slice(0, 5).join(" ");
});
</script></body></html>
EOF2
chrome --allow-file-access-from-files --virtual-time-budget=10000 --window-size=600,1000 \
	--dump-dom "file://$TMP/wrap.html" >"$TMP/wrap.dom"
m=$(sed -n 's/.*<pre id="out">\([^<]*\)<.*/\1/p' "$TMP/wrap.dom")
echo "measured at 420 px: $m"
case $m in
scrollWidth=*) ;;
*) fail "the layout was not measured ('$m'; see $TMP/chromium.log)" ;;
esac
sw=$(echo "$m" | sed 's/scrollWidth=\([0-9]*\).*/\1/')
cw=$(echo "$m" | sed 's/.*clientWidth=\([0-9]*\).*/\1/')
[ "$cw" -gt 300 ] && [ "$cw" -le 420 ] || bad "the frame is $cw px wide, not about 420 (test bug)"
[ "$sw" -le "$cw" ] || bad "at 420 px the page scrolls sideways: $m"
echo "$m" | grep -q "outside=0 " || bad "at 420 px elements stick out of the page: $m"
# a glyph box of 9 px holds a digit of about 6.5 px: the least that reads
th=$(echo "$m" | sed 's/.*chartText=\([0-9.]*\).*/\1/')
python3 -c "import sys; sys.exit(0 if 9 <= float(sys.argv[1]) < 1000 else 1)" "$th" ||
	bad "at 420 px the chart's numbers are $th px high, less than 9"
[ $nfail -eq 0 ]
