#!/bin/sh
# What the keys cost: the fuzzy tier's look-ups after new mail, with the
# tables keyed by commit sha (as onlist keeps them) and keyed by the
# commit's rowid (the order commits arrived in).
#
#   bench/keys.sh DB...
#
# Each DB is one flat.sh takes: matched, then new mail added
# (`bench/make-lkmldb.py --add DB 1000`).  From each, the script copies
# into a scratch database (bench/out/keys.db) the two tables the tier's
# walk over its pairs reads (store_fuzzy.c, sql_fuzzy_pairs): matches,
# whether an earlier tier matched the commit, and commit_patch, the
# commit's fingerprint; each in both layouts.  The pairs are gathered as
# the tier gathers them: the commits of the new patch mails' senders
# committed within a year of their mails.  Then the same look-ups over
# the same pairs run in each layout, each in a fresh sqlite3 with
# onlist's 16 MB cache, and the pages SQLite read ("page cache misses")
# are printed.  Then the mail side the same way: the thread rows of the
# threads the new mail answers, keyed by Message-ID (as kept) and by
# messages.id (arrival order).  Nothing in DB is changed.  See
# bench/README.
set -eu
[ $# -ge 1 ] || { sed -n '2,21p' "$0"; exit 2; }
command -v sqlite3 >/dev/null || { echo "keys.sh: needs the sqlite3 shell" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/bench/out
mkdir -p "$out"
scratch=$out/keys.db
tiers="('link', 'patch-id', 'patch-id-alg', 'repaired', 'quoted', 'author-date', 'subject')"
# misses SQL: the page cache misses of the last statement of SQL
misses() {
	sqlite3 "$scratch" "PRAGMA cache_size=-16384;" ".stats on" "$1" 2>&1 |
		sed -n 's/^Page cache misses: *//p' | tail -1
}
for db in "$@"; do
	[ -f "$db" ] || { echo "keys.sh: no database $db" >&2; exit 2; }
	rm -f "$scratch"
	# the path, quoted for SQL
	q=$(printf '%s' "$db" | sed "s/'/''/g")
	sqlite3 "$scratch" >/dev/null <<SQL
ATTACH 'file:$q?mode=ro' AS s;
PRAGMA cache_size=-65536;
CREATE TABLE rid(sha TEXT PRIMARY KEY, rid INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO rid SELECT sha, rowid FROM s.commits;
CREATE TABLE m_sha(commit_sha TEXT NOT NULL, message_id TEXT NOT NULL,
  method TEXT NOT NULL, score REAL,
  PRIMARY KEY(commit_sha, message_id, method)) WITHOUT ROWID;
INSERT INTO m_sha SELECT commit_sha, message_id, method, score
  FROM s.matches ORDER BY 1, 2, 3;
CREATE TABLE m_rid(rid INTEGER NOT NULL, message_id TEXT NOT NULL,
  method TEXT NOT NULL, score REAL,
  PRIMARY KEY(rid, message_id, method)) WITHOUT ROWID;
INSERT INTO m_rid SELECT r.rid, m.message_id, m.method, m.score
  FROM s.matches m JOIN rid r ON r.sha = m.commit_sha ORDER BY 1, 2, 3;
CREATE TABLE p_sha(sha TEXT PRIMARY KEY, fp BLOB, words BLOB,
  files TEXT) WITHOUT ROWID;
INSERT INTO p_sha SELECT sha, fp, words, files FROM s.commit_patch
  ORDER BY sha;
CREATE TABLE p_rid(rid INTEGER PRIMARY KEY, sha TEXT, fp BLOB, words BLOB,
  files TEXT);
INSERT INTO p_rid SELECT r.rid, p.sha, p.fp, p.words, p.files
  FROM s.commit_patch p JOIN rid r ON r.sha = p.sha ORDER BY 1;
CREATE TABLE senders(addr TEXT PRIMARY KEY, lo INTEGER, hi INTEGER)
  WITHOUT ROWID;
INSERT INTO senders SELECT lower(m.from_addr), min(m.date), max(m.date)
  FROM s.messages m JOIN s.message_info i ON i.msgid = m.msgid
  WHERE m.id > (SELECT max(id) - 1000 FROM s.messages)
  AND i.class = 'patch' AND m.date IS NOT NULL GROUP BY 1;
CREATE TABLE pairs(sha TEXT PRIMARY KEY, rid INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO pairs SELECT c.sha, c.rowid FROM senders a
  CROSS JOIN s.commits c ON lower(c.author_email) = a.addr
  AND c.commit_date BETWEEN a.lo - 31536000 AND a.hi + 31536000;
CREATE TABLE pairs_rid(rid INTEGER PRIMARY KEY, sha TEXT NOT NULL);
INSERT INTO pairs_rid SELECT rid, sha FROM pairs;
-- the pairs no earlier tier matched: their fingerprints are read
CREATE TABLE untiered(sha TEXT PRIMARY KEY, rid INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO untiered SELECT sha, rid FROM pairs t WHERE NOT EXISTS
  (SELECT 1 FROM m_sha x WHERE x.commit_sha = t.sha AND x.method IN $tiers);
CREATE TABLE untiered_rid(rid INTEGER PRIMARY KEY, sha TEXT NOT NULL);
INSERT INTO untiered_rid SELECT rid, sha FROM untiered;
SQL
	counts=$(sqlite3 "$scratch" "SELECT (SELECT count(*) FROM senders),
		(SELECT count(*) FROM pairs), (SELECT count(*) FROM untiered),
		(SELECT count(*) FROM rid);" | tr '|' ' ')
	set -- $counts
	echo "$db: $4 commits; $1 senders of new patch mails, $2 pairs, $3 not matched by an earlier tier"
	pages=$(sqlite3 "$scratch" "SELECT (SELECT sum(pgsize) / 4096 FROM dbstat
		WHERE name = n) FROM (SELECT 'm_sha' AS n UNION ALL SELECT 'm_rid'
		UNION ALL SELECT 'p_sha' UNION ALL SELECT 'p_rid');" | tr '\n' ' ')
	set -- $pages
	echo "  table pages: matches $1 by sha, $2 by rowid; commit_patch $3 by sha, $4 by rowid"
	a=$(misses "SELECT count(*) FROM pairs t WHERE NOT EXISTS (SELECT 1 FROM m_sha x WHERE x.commit_sha = t.sha AND x.method IN $tiers);")
	b=$(misses "SELECT count(*), sum(length(p.fp)) FROM untiered t CROSS JOIN p_sha p ON p.sha = t.sha;")
	c=$(misses "SELECT count(*) FROM pairs_rid t WHERE NOT EXISTS (SELECT 1 FROM m_rid x WHERE x.rid = t.rid AND x.method IN $tiers);")
	d=$(misses "SELECT count(*), sum(length(p.fp)) FROM untiered_rid t CROSS JOIN p_rid p ON p.rid = t.rid;")
	printf '  %-22s %8s %8s\n' "pages read" "by sha" "by rowid"
	printf '  %-22s %8d %8d\n' "earlier tier matched?" "$a" "$c"
	printf '  %-22s %8d %8d\n' "fingerprint" "$b" "$d"
	printf '  %-22s %8d %8d\n' "both" "$((a + b))" "$((c + d))"
	# the mail side: the thread rows of the threads the new mail
	# answers, keyed by Message-ID (as kept) and by messages.id
	rm -f "$scratch"
	sqlite3 "$scratch" >/dev/null <<SQL
ATTACH 'file:$q?mode=ro' AS s;
PRAGMA cache_size=-65536;
CREATE TABLE t_msgid(msgid TEXT PRIMARY KEY, parent TEXT, root TEXT NOT NULL,
  depth INTEGER, answers TEXT) WITHOUT ROWID;
INSERT INTO t_msgid SELECT msgid, parent, root, depth, answers FROM s.thread
  ORDER BY msgid;
CREATE TABLE t_id(id INTEGER PRIMARY KEY, msgid TEXT, parent TEXT,
  root TEXT NOT NULL, depth INTEGER, answers TEXT);
INSERT INTO t_id SELECT m.id, t.msgid, t.parent, t.root, t.depth, t.answers
  FROM s.thread t JOIN s.messages m ON m.msgid = t.msgid ORDER BY 1;
CREATE TABLE part(msgid TEXT PRIMARY KEY, id INTEGER) WITHOUT ROWID;
INSERT OR IGNORE INTO part SELECT t2.msgid, m2.id FROM s.messages m
  JOIN s.thread t ON t.msgid = m.in_reply_to
  JOIN s.thread t2 ON t2.root = t.root JOIN s.messages m2 ON m2.msgid = t2.msgid
  WHERE m.id > (SELECT max(id) - 1000 FROM s.messages);
CREATE TABLE part_id(id INTEGER PRIMARY KEY, msgid TEXT);
INSERT INTO part_id SELECT id, msgid FROM part;
SQL
	n=$(sqlite3 "$scratch" "SELECT count(*) FROM part;")
	e=$(misses "SELECT count(*), sum(depth) FROM part p CROSS JOIN t_msgid t ON t.msgid = p.msgid;")
	f=$(misses "SELECT count(*), sum(depth) FROM part_id p CROSS JOIN t_id t ON t.id = p.id;")
	printf '  %-22s %8s %8s\n' "pages read" "by msgid" "by id"
	printf '  %-22s %8d %8d\n' "thread rows ($n)" "$e" "$f"
done
rm -f "$scratch"
