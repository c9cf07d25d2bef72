#!/bin/sh
# The echo and bot rules (match_rules.c) as classify_one() applies them:
# the first rule a message hits, by list set, sender, subject, msgid and
# patchwork; list sets and senders that repeat (the first hit is kept per
# value), literal parts that appear without the glob matching, a msgid
# rule on a mixed-case Message-ID; then, after an old message gains a
# list, the pass over every message again.  The expected tables follow
# from the built-in rules (`onlist match --rules-help`), in their order:
# a list rule only when every list of the message is an echo list, then
# from, subject, msgid and patchwork; each row was checked by hand
# against that list (and agrees with onlist from before first hits
# were kept).
. tests/lib.sh
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp

cat >"$TMP/gen.py" <<'PY'
import sys
def mail(msgid, subject, frm="Dev <dev@example.org>", extra=""):
    return ("From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: %s\nSubject: %s\n"
            "Message-ID: <%s>\nDate: Sun, 01 Mar 2020 09:00:00 +0000\n%s\nbody\n"
            % (frm, subject, msgid, extra))
which = sys.argv[1]
if which == "lkml":
    for m in [
        mail("plain@x", "[PATCH] net: a fix"),
        mail("both@x", "[PATCH] x86: on two lists"),
        mail("stable-too@x", "[PATCH] mm: also stable"),
        mail("bot1@x", "[PATCH] a", "Tip-Bot2 for Someone <Tip-Bot2@Linutronix.DE>"),
        mail("bot2@x", "[PATCH] b", "tip-bot2 for Other <tip-bot2@linutronix.de>"),
        mail("tipbot@x", "[tip: x86/urgent] x86: thing", "TipBot <tipbot@example.org>"),
        mail("subj1@x", "Patch \"net: x\" has been added to the 6.1-stable tree"),
        mail("subj2@x", "patch added to branch, not a tree"),
        mail("subj3@x", "+ mm-fix.patch added to mm-hotfixes-unstable branch"),
        mail("subj4@x", "Re: [merged mm-stable] mm: thing"),
        mail("subj5@x", "[TIP: sched/core] odd case"),
        mail("Thanks.20200301.B4-TY@example.org", "Re: [PATCH] net: a fix", "Maint <maint@example.org>"),
        mail("not.b4-tyx@example.org", "Re: [PATCH] net: a fix", "Maint <maint@example.org>"),
        mail("b4-ty@example.org", "Re: [PATCH] net: a fix", "Maint <maint@example.org>"),
        mail("ci@x", "Re: [PATCH] net: a fix", "BlueZ Testbot <bluez.test.bot@gmail.com>"),
        mail("syz@x", "KASAN: bug", "syzbot <syzbot+abc@syzkaller.appspotmail.com>"),
        mail("pw@x", "Re: [PATCH] net: a fix", "Dev <dev@example.org>", "X-Patchwork-Hint: ignore\n"),
        mail("up@x", "[PATCH 5.10 01/10] net: a fix", "Greg <greg@example.org>"),
    ]:
        print(m)
elif which == "tip":
    for m in [
        mail("tiponly@x", "[tip: x86/cleanups] x86: tidy", "Dev <dev@example.org>"),
        mail("both@x", "[PATCH] x86: on two lists"),
        mail("bot1@x", "[PATCH] a", "Tip-Bot2 for Someone <Tip-Bot2@Linutronix.DE>"),
    ]:
        print(m)
elif which == "stable":
    for m in [
        mail("stable-too@x", "[PATCH] mm: also stable"),
        mail("stableonly@x", "[PATCH] mm: only stable"),
    ]:
        print(m)
elif which == "x86tip":
    print(mail("x86tip@x", "[PATCH] x86: via tip commits"))
elif which == "later":
    print(mail("stableonly@x", "[PATCH] mm: only stable"))
elif which == "later2":
    print(mail("new.B4-Ty@x", "Re: [PATCH] mm: only stable", "Maint <maint@example.org>"))
    print(mail("subj6@x", "patch added to branch"))
PY
DB=$TMP/e.db
imp() {	# imp LIST WHICH
	python3 "$TMP/gen.py" "$2" >"$TMP/$2.mbox" || fail "making $2.mbox"
	"$ONLIST" -q --db "$DB" import --list "$1" "$TMP/$2.mbox" >/dev/null ||
		fail "import $2"
}
echoes() { sqlite3 "$DB" "SELECT msgid, kind, rule FROM echoes ORDER BY 1"; }
imp linux-kernel lkml
imp linux-tip-commits tip
imp stable stable
imp x86-tip-commits-archive x86tip
run match "$ONLIST" --db "$DB" match
expect_rc match 0
echoes >"$TMP/got1"
cat >"$TMP/want1" <<'TXT'
Thanks.20200301.B4-TY@example.org|bot|msgid *.b4-ty@*
bot1@x|echo|from tip-bot*@*
bot2@x|echo|from tip-bot*@*
ci@x|bot|from *.bot@*
pw@x|bot|patchwork 1
stableonly@x|echo|list stable
subj1@x|echo|subject *patch*added to*tree*
subj2@x|echo|subject *patch*added to*tree*
subj3@x|echo|subject + *added to * branch
subj4@x|echo|subject *[merged*
subj5@x|echo|subject *[tip:*
syz@x|bot|from syzbot*@*
tipbot@x|echo|from tipbot@*
tiponly@x|echo|list linux-tip-commits
x86tip@x|echo|list *tip-commits*
TXT
diff "$TMP/want1" "$TMP/got1" || bad "echoes after the first run"
imp x86-tip-commits-archive later
imp linux-kernel later2
run match2 "$ONLIST" --db "$DB" match
expect_rc match2 0
echoes >"$TMP/got2"
# the new bot notice, and the old patch now only on echo lists: named by
# the first list rule that one of them matches
{ grep -v '^stableonly@x' "$TMP/want1"
  echo 'new.B4-Ty@x|bot|msgid *.b4-ty@*'
  echo 'stableonly@x|echo|list *tip-commits*'
} | LC_ALL=C sort >"$TMP/want2"
diff "$TMP/want2" "$TMP/got2" || bad "echoes after a list was gained"
[ $nfail -eq 0 ]
