#!/bin/sh
# report --format mail: the weekly text report as one RFC 5322 message.
# Python's email parser and `git mailinfo` read it back: the headers are
# there and well formed, two consecutive weeks thread (In-Reply-To and
# References name the previous week's Message-ID), the body decodes to
# `report --format text` of the same week, and a user name or a
# repository name carrying CR/LF and non-ASCII cannot add a header.
# --send hands the same message to the configured sendmail command.
. tests/lib.sh
need_cmd git
need_cmd python3
need_onlist
make_tmp
isolate_git

FX=$TMP/fx
DB=$TMP/onlist.db
fixture_db "$FX" "$DB"
export GIT_CONFIG_GLOBAL=$TMP/gitconfig
git config --global user.name "Zoë Ångström"
git config --global user.email zoe@example.org
git config --global onlist.reportTo "Fixture List <fixture@lists.example.org>"
git config --global onlist.reportCc "a@example.org, Bö <b@example.org>"

W1=2020-W03 W2=2020-W04	# the fixture's last two weeks with landings
run w1 "$ONLIST" --db "$DB" report --format mail --week $W1
expect_rc w1 0
cp "$TMP/out" "$TMP/w1.eml"
run w2 "$ONLIST" --db "$DB" report --format mail	# the latest week
expect_rc w2 0
cp "$TMP/out" "$TMP/w2.eml"
"$ONLIST" --db "$DB" report --format text --week $W1 >"$TMP/w1.txt" || bad "text W1"
"$ONLIST" --db "$DB" report --format text --week $W2 >"$TMP/w2.txt" || bad "text W2"

# check.py MAIL TEXT WEEK PREV-MAIL-OR-- NAME: the message against the text
cat >"$TMP/check.py" <<'PY'
import email, email.policy, email.utils, sys
path, text, week, prev, repo = sys.argv[1:6]
raw = open(path, "rb").read()
m = email.message_from_bytes(raw, policy=email.policy.default)
bad = []
def want(c, what):
    if not c: bad.append(what)
want(all(b < 128 for b in raw), "the message is not all ASCII")
want(all(len(l) <= 78 for l in raw.split(b"\n")), "a line longer than 78")
want(not m.defects, "defects: %r" % m.defects)
want(sorted(k.lower() for k in m.keys()) == sorted([
    "date", "from", "to", "cc", "subject", "message-id", "in-reply-to",
    "references", "mime-version", "content-type",
    "content-transfer-encoding"]), "headers: %r" % m.keys())
f = m["From"].addresses
want(len(f) == 1 and f[0].display_name == "Zoë Ångström" and
     f[0].addr_spec == "zoe@example.org", "From: %r" % m["From"])
want([a.addr_spec for a in m["To"].addresses] == ["fixture@lists.example.org"],
     "To: %r" % m["To"])
want([(a.display_name, a.addr_spec) for a in m["Cc"].addresses] ==
     [("", "a@example.org"), ("Bö", "b@example.org")], "Cc: %r" % m["Cc"])
want(str(m["Subject"]) == "[onlist] %s: merged without the list, %s" % (repo, week),
     "Subject: %r" % str(m["Subject"]))
want(email.utils.parsedate_to_datetime(str(m["Date"])).tzinfo is not None,
     "Date: %r" % m["Date"])
mid = str(m["Message-ID"])
want(mid.startswith("<") and mid.endswith(">") and week in mid and "@example.org>" in mid,
     "Message-ID: %r" % mid)
if prev != "--":
    p = email.message_from_bytes(open(prev, "rb").read(), policy=email.policy.default)
    want(str(m["In-Reply-To"]) == str(p["Message-ID"]) == str(m["References"]),
         "not threaded to the previous week: %r %r" % (m["In-Reply-To"], p["Message-ID"]))
want(m.get_content_type() == "text/plain" and m.get_content_charset() == "utf-8",
     "Content-Type: %r" % m["Content-Type"])
want(m.get_content() == open(text, encoding="utf-8").read(),
     "the body does not decode to the text report")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
python3 "$TMP/check.py" "$TMP/w1.eml" "$TMP/w1.txt" $W1 -- repo || bad "the $W1 mail (above)"
python3 "$TMP/check.py" "$TMP/w2.eml" "$TMP/w2.txt" $W2 "$TMP/w1.eml" repo || bad "the $W2 mail (above)"

# git mailinfo, what git am reads: author, subject and the message text
git mailinfo "$TMP/msg" "$TMP/patch" <"$TMP/w2.eml" >"$TMP/info" || bad "git mailinfo failed"
grep -qx "Author: Zoë Ångström" "$TMP/info" || bad "git mailinfo: author: $(grep Author "$TMP/info")"
grep -qx "Email: zoe@example.org" "$TMP/info" || bad "git mailinfo: email"
grep -qx "Subject: repo: merged without the list, $W2" "$TMP/info" ||
	bad "git mailinfo: subject: $(grep Subject "$TMP/info")"
cat "$TMP/msg" "$TMP/patch" >"$TMP/mi.txt"
same_output "git mailinfo's text vs report --format text" "$TMP/w2.txt" "$TMP/mi.txt" ||
	nfail=$((nfail + 1))

# ---- hostile: a user name and a repository folder with line ends ------------------
git config --global user.name "$(printf 'Evil\r\nBcc: victim@example.com')"
EVIL=$(printf 'ev\r\nX-Injected: yes \342\230\203')
ln -s "$FX/repo" "$TMP/$EVIL" || fail "ln"
run evil "$ONLIST" --db "$DB" report --format mail --repo "$TMP/$EVIL"
expect_rc evil 0
python3 - "$TMP/out" <<'PY' || bad "a hostile name reached a header (above)"
import email, email.policy, sys
raw = open(sys.argv[1], "rb").read()
m = email.message_from_bytes(raw, policy=email.policy.default)
bad = []
keys = [k.lower() for k in m.keys()]
if "bcc" in keys or "x-injected" in keys: bad.append("injected: %r" % keys)
head = raw.split(b"\n\n", 1)[0]
if any(l.lower().startswith((b"bcc", b"x-injected")) for l in head.split(b"\n")):
    bad.append("an injected line in the header")
if m["From"].addresses[0].display_name != "Evil  Bcc: victim@example.com":
    bad.append("From: %r" % m["From"].addresses[0].display_name)
if str(m["Subject"]) != "[onlist] ev  X-Injected: yes \u2603: merged without the list, 2020-W04":
    bad.append("Subject: %r" % str(m["Subject"]))
if not all(b < 128 for b in raw): bad.append("not ASCII")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
run badto "$ONLIST" --db "$DB" report --format mail --to "$(printf 'a@example.org\nBcc: v@example.com')"
expect_rc badto 2
[ -s "$TMP/out" ] && bad "badto: a message was printed"
run notaddr "$ONLIST" --db "$DB" report --format mail --to "not an address"
expect_rc notaddr 2
run range "$ONLIST" --db "$DB" report --format mail --since 2020-01-01
expect_rc range 2
run toalone "$ONLIST" --db "$DB" report --to a@example.org
expect_rc toalone 2
git config --global user.name "Zoë Ångström"

# --week last: the whole ISO week before this one (the timer's)
last=$(python3 -c 'import datetime as d
y, w, _ = (d.datetime.now(d.timezone.utc).date() - d.timedelta(days=7)).isocalendar()
print("%d-W%02d" % (y, w))')
run last "$ONLIST" --db "$DB" report --format text --week last
expect_rc last 0
[ "$(head -n 1 "$TMP/out")" = "Commits that bypassed the lists: $last" ] ||
	bad "--week last: '$(head -n 1 "$TMP/out")', expected the week $last"

# ---- --send: onlist.sendmail gets the message; a failing one is an error ----------
cat >"$TMP/sendmail" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$TMP/sent.args"
cat >"$TMP/sent.eml"
EOF
chmod +x "$TMP/sendmail"
git config --global onlist.sendmail "$TMP/sendmail -t -i"
run send "$ONLIST" --db "$DB" report --format mail --send
expect_rc send 0
[ "$(cat "$TMP/sent.args" 2>/dev/null | tr '\n' ' ')" = "-t -i " ] || bad "send: sendmail's arguments"
python3 "$TMP/check.py" "$TMP/sent.eml" "$TMP/w2.txt" $W2 "$TMP/w1.eml" repo || bad "the sent mail (above)"
run sendfail "$ONLIST" --db "$DB" report --format mail --send --sendmail-cmd false
expect_rc sendfail 1
grep -q "not sent" "$TMP/err" || bad "sendfail: does not say the mail was not sent"

[ $nfail -eq 0 ]
