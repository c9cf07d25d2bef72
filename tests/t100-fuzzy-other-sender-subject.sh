#!/bin/sh
# The fuzzy tier's candidates of a commit are its author's mails in its
# window and, from any other sender, the mails with its stripped subject
# (store_fuzzy.c, sql_cand_subject).  A whole match reads the latter,
# like the former, in one pass before its walk (temp.fz_mail, skey); a
# match after new mail asks the messages.  Here a fuzzy pair of t050's
# labelled set is moved so that only the subject finds it: the mail is
# sent by somebody else under the commit's own subject.  A match from
# scratch must hold the pair as a fuzzy match, and a match with the mail
# coming as new mail must give the same matches.
. tests/lib.sh
need_cmd git
need_cmd python3
need_cmd sqlite3
need_onlist
make_tmp
isolate_git

eval_set 5050
"$ONLIST" -q --db "$TMP/seed.db" scan --repo "$W/repo" v1.0..v1.1 >/dev/null || fail "scan"

# a fuzzy pair of the whole set whose mail is from the commit's author
cp "$TMP/seed.db" "$TMP/first.db"
"$ONLIST" -q --db "$TMP/first.db" import --list eval "$W/eval.mbox" >/dev/null || fail "import"
"$ONLIST" -q --db "$TMP/first.db" match --rules "$TMP/rules" >/dev/null || fail "match"
sha=$(sqlite3 "$TMP/first.db" "SELECT x.commit_sha FROM matches x
	JOIN commits c ON c.sha = x.commit_sha
	JOIN messages m ON m.msgid = x.message_id
	WHERE x.method = 'fuzzy' AND lower(m.from_addr) = lower(c.author_email)
	ORDER BY 1, x.message_id LIMIT 1")
msgid=$(sqlite3 "$TMP/first.db" "SELECT message_id FROM matches
	WHERE commit_sha = '$sha' AND method = 'fuzzy' ORDER BY 1 LIMIT 1")
subject=$(sqlite3 "$TMP/first.db" "SELECT subject FROM commits WHERE sha = '$sha'")
[ -n "$msgid" ] && [ -n "$subject" ] || fail "no fuzzy pair from the author in the set (test bug)"

# that mail sent by somebody else under the commit's subject, on its own;
# the rest of the set without it
python3 - "$W/eval.mbox" "$msgid" "$subject" "$TMP/rest.mbox" "$TMP/new.mbox" <<'PY' || fail "split"
import re, sys
src, mid, subject, rest, new = sys.argv[1:]
msgs = re.split(r"(?m)^(?=From )", open(src).read())
out = {rest: [], new: []}
for m in msgs:
    head, sep, body = m.partition("\n\n")
    if not re.search(r"(?im)^Message-ID:\s*<%s>" % re.escape(mid), head):
        out[rest].append(m)
        continue
    head = re.sub(r"(?im)^From:.*(\n[ \t].*)*$", "From: Relay Sender <relay@other.example>", head)
    head = re.sub(r"(?im)^Subject:.*(\n[ \t].*)*$", "Subject: [PATCH] " + subject, head)
    # no in-body From: the mail is the relay's
    body = re.sub(r"\AFrom: .*\n\n?", "", body)
    out[new].append(head + sep + body)
if len(out[new]) != 1:
    sys.exit(1)
for f, ms in out.items():
    open(f, "w").write("".join(ms))
PY

# from scratch: the set with the moved mail
cp "$TMP/seed.db" "$TMP/scratch.db"
cat "$TMP/rest.mbox" "$TMP/new.mbox" >"$TMP/all.mbox"
"$ONLIST" -q --db "$TMP/scratch.db" import --list eval "$TMP/all.mbox" >/dev/null ||
	fail "import the moved set"
"$ONLIST" -q --db "$TMP/scratch.db" match --rules "$TMP/rules" >/dev/null ||
	fail "match from scratch"
[ "$(sqlite3 "$TMP/scratch.db" "SELECT lower(from_addr) FROM messages
	WHERE msgid = '$msgid'")" = relay@other.example ] ||
	bad "the moved mail is not the relay's (test bug)"
dump_matches "$TMP/scratch.db" >"$TMP/scratch.dump"
grep -q "^$sha|$msgid|fuzzy|" "$TMP/scratch.dump" ||
	bad "from scratch, the commit is not matched to the other sender's mail of its subject"

# the mail as new mail after a first match
cp "$TMP/seed.db" "$TMP/incr.db"
"$ONLIST" -q --db "$TMP/incr.db" import --list eval "$TMP/rest.mbox" >/dev/null ||
	fail "import the rest"
"$ONLIST" -q --db "$TMP/incr.db" match --rules "$TMP/rules" >/dev/null || fail "first match"
"$ONLIST" -q --db "$TMP/incr.db" import --list eval "$TMP/new.mbox" >/dev/null ||
	fail "import the mail"
ONLIST_TIMING=1 "$ONLIST" --db "$TMP/incr.db" match --rules "$TMP/rules" >/dev/null \
	2>"$TMP/match.err" || { cat "$TMP/match.err"; fail "match after the mail"; }
grep -q '^timing: patch-id since [0-9]*, fuzzy since [0-9]' "$TMP/match.err" ||
	bad "the match after the mail was not incremental (test bug)"
dump_matches "$TMP/incr.db" >"$TMP/incr.dump"
same_output "matches after the mail" "$TMP/scratch.dump" "$TMP/incr.dump" ||
	bad "the matches after the mail differ from those from scratch"
[ $nfail -eq 0 ] && echo "all checks passed"
