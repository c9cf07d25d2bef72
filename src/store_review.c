/* store_review.c - the review given on the list: the rows
 * onlist_review_update() (review_update.c) gathers for review.c, which
 * decides it, and the tables it has written back (review_tags,
 * commit_review and the rows beside them).  Speaks SQL, like every
 * src/store*.c file; decides nothing. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/msgmeta.h"
#include "onlist/store_review.h"
#include "store_int.h"

#define fail onlist__store_fail
#define bind_text onlist__bind_text
#define POSTED ONLIST__POSTED("x.method")

/* The keys review.h reads: review, NAK, and who co-developed. */
#define REVIEW_KEYS ONLIST_SQL_TAG_KEYS	/* vocab.h: a review or a NAK */
#define PEOPLE_KEYS "('reviewed-by', 'acked-by', 'tested-by', 'nacked-by'," \
	" 'co-developed-by')"

/* What a patch or cover letter answered is: a mail in a series without a
 * patch of its own is a cover letter, by its subject or its place */
#define TARGET_CLASS(i) " CASE WHEN " i ".class IN ('reply', 'other')" \
	" THEN 'cover' ELSE " i ".class END"

/* Column 0 says how to read the rest: 0 a name and an address, 1 a
 * commit trailer's value ("Name <addr>"). */
static const char sql_people[] =
	"SELECT 0, name, lower(addr) FROM message_trailers"
	" WHERE lower(key) IN " PEOPLE_KEYS " AND addr <> ''"
	" UNION SELECT 0, m.from_name, lower(m.from_addr) FROM messages m"
	" WHERE m.msgid IN (SELECT msgid FROM message_trailers"
	"   WHERE lower(key) IN " REVIEW_KEYS ")"
	" UNION SELECT 0, m.from_name, lower(m.from_addr) FROM matches x"
	" JOIN messages m ON m.msgid = x.message_id WHERE " POSTED
	" UNION SELECT 0, c.author_name, lower(c.author_email) FROM commits c"
	" WHERE c.sha IN (SELECT commit_sha FROM matches x WHERE " POSTED ")"
	" UNION SELECT 1, '', t.value FROM trailers t"
	" WHERE lower(t.key) IN " PEOPLE_KEYS;

onlist_status onlist_store_review_people(struct onlist_store *s,
					 int (*cb)(const char *name,
						   const char *addr, void *data),
					 void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_people);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 1);
		const char *a = (const char *)sqlite3_column_text(st, 2);
		char *name = NULL, *addr = NULL;
		int stop = 0;

		if (!a || !*a)
			continue;
		if (sqlite3_column_int(st, 0) == 1) {
			if (onlist_split_ident(a, strlen(a), &name, &addr))
				continue;
			stop = *addr && cb(name, addr, data);
			free(name);
			free(addr);
		} else {
			stop = cb(n ? n : "", a, data);
		}
		if (stop)
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read people");
}

/* ---- the rebuild --------------------------------------------------------- */

static const char sql_clear_tags[] = "DELETE FROM review_tags";
static const char sql_clear_commits[] = "DELETE FROM commit_review;"
	"DELETE FROM commit_notice; DELETE FROM posting_replies;"
	"DELETE FROM series_replies;";

/* Each review trailer in a reply, with what it answers (replies only: a
 * patch's own Acked-by lines are its history, not review given here; a
 * "Re:" with a diff is a reply, its tags are given to what it answers). */
static const char sql_tags[] =
	"SELECT t.msgid, t.seq, t.key, coalesce(t.name, ''),"
	" coalesce(lower(t.addr), ''), coalesce(t.value, ''),"
	" coalesce(lower(m.from_addr), ''), m.date,"
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = t.msgid),"
	" th.answers," TARGET_CLASS("ai") ", coalesce(lower(am.from_addr), ''),"
	" (SELECT group_concat(lower(c.addr), char(10)) FROM message_trailers c"
	"   WHERE c.msgid = th.answers AND lower(c.key) = 'co-developed-by'),"
	" s.series, s.topic, ai.version, ai.part, ai.total,"
	" (SELECT coalesce(lower(au.addr), '') FROM message_author au"
	"   WHERE au.msgid = th.answers),"
	" (SELECT r.kind = 'series-tag' FROM message_reply r"
	"   WHERE r.msgid = t.msgid)"
	/* CROSS JOIN: the trailers stay the outer loop, the rest looked
	 * up by key; with no statistics, the planner's costs so close that
	 * any index may tip it into walking every message in date order to
	 * spare the sort (thread_answers made partial did: 19 s CPU on
	 * 1,000,000 x 100,000, against under 0.05 s) */
	" FROM message_trailers t"
	" CROSS JOIN message_info mi ON mi.msgid = t.msgid AND" ANSWERING("mi")
	" CROSS JOIN thread th ON th.msgid = t.msgid AND th.answers IS NOT NULL"
	" CROSS JOIN messages m ON m.msgid = t.msgid"
	" CROSS JOIN messages am ON am.msgid = th.answers"
	" CROSS JOIN message_info ai ON ai.msgid = th.answers"
	" LEFT JOIN series s ON s.msgid = th.answers"
	" WHERE lower(t.key) IN " REVIEW_KEYS
	/* and those a reply quotes from a mail the archive lost (issue 27):
	 * its In-Reply-To names a mail the database does not have, or its
	 * attribution line names another sender than the mail it answers;
	 * not a trailer the patch answered carries (its history), nor one
	 * given unquoted to it in a mail the database has (counted there).
	 * seq 1000 up: apart from the reply's own trailers */
	" UNION ALL SELECT q.msgid, 1000 + q.seq, q.key, coalesce(q.name, ''),"
	" coalesce(lower(q.addr), ''), coalesce(q.value, ''),"
	" coalesce(lower(m.from_addr), ''), m.date,"
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = q.msgid),"
	" th.answers," TARGET_CLASS("ai") ", coalesce(lower(am.from_addr), ''),"
	" (SELECT group_concat(lower(c.addr), char(10)) FROM message_trailers c"
	"   WHERE c.msgid = th.answers AND lower(c.key) = 'co-developed-by'),"
	" s.series, s.topic, ai.version, ai.part, ai.total,"
	" (SELECT coalesce(lower(au.addr), '') FROM message_author au"
	"   WHERE au.msgid = th.answers), 0"
	" FROM quoted_tags q"
	" CROSS JOIN message_info mi ON mi.msgid = q.msgid AND" ANSWERING("mi")
	" CROSS JOIN thread th ON th.msgid = q.msgid AND th.answers IS NOT NULL"
	" CROSS JOIN messages m ON m.msgid = q.msgid"
	" CROSS JOIN messages am ON am.msgid = th.answers"
	" CROSS JOIN message_info ai ON ai.msgid = th.answers"
	" LEFT JOIN series s ON s.msgid = th.answers"
	" WHERE lower(q.key) IN " REVIEW_KEYS
	" AND ((coalesce(m.in_reply_to, '') <> '' AND NOT EXISTS"
	"   (SELECT 1 FROM messages p WHERE p.msgid = m.in_reply_to))"
	"  OR (q.attrib <> '' AND NOT EXISTS (SELECT 1 FROM messages p"
	"   WHERE p.msgid = m.in_reply_to AND lower(p.from_addr) = q.attrib)))"
	" AND NOT EXISTS (SELECT 1 FROM message_trailers o"
	"  WHERE o.msgid = th.answers AND lower(o.key) = lower(q.key)"
	"  AND coalesce(lower(o.addr), '') = coalesce(lower(q.addr), '')"
	"  AND coalesce(lower(o.name), '') = coalesce(lower(q.name), ''))"
	" AND NOT (coalesce(q.addr, '') <> '' AND EXISTS (SELECT 1"
	"  FROM thread t2 JOIN message_trailers o ON o.msgid = t2.msgid"
	"  WHERE t2.answers = th.answers AND o.msgid <> q.msgid"
	"  AND lower(o.key) = lower(q.key) AND lower(o.addr) = lower(q.addr)))"
	" ORDER BY 8, 1, 2";
static const char sql_put_tag[] =
	"INSERT OR IGNORE INTO review_tags(msgid, seq, key, name, addr, value,"
	" sender, date, target, target_class, series, topic, version, part,"
	" total, why_not)"
	" VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16)";
/* The topics each posted commit was posted in, and those where an
 * earlier version of it went out under another subject, outside the
 * threads of its postings (ltp: v1 "Add backslash to ...", v2 "Join
 * string to ...", the commit named as v1): a patch (not a "Re:") by its
 * author (sender or in-body From; not a stable backport, which names
 * its "commit ... upstream"), sent from 180 days before the author
 * date to the commit, that is no posting of another commit nor has a
 * later version (same topic and subject) that is one, and has the
 * commit's subject, or its files and the part of its subject before the
 * first ':' ("controllers/cpuset:") and a lower version than a
 * posting.  msgid: the posting or that version; posted: 1 for a
 * posting.  A member of the topic is tried for a posting (a covering
 * index) before its subject (its message_info row): most members are
 * posted by no commit. */
#define LINK_WINDOW "15552000"
#define LINK_PATCH(i, m) \
	" " i ".class = 'patch' AND NOT coalesce(" i ".reply, 0)" \
	" AND NOT coalesce(" i ".upstream, 0)" \
	" AND " m ".date BETWEEN c.author_date - " LINK_WINDOW \
	"   AND c.commit_date + 86400" \
	" AND NOT EXISTS (SELECT 1 FROM matches y WHERE y.message_id = " i ".msgid" \
	"   AND y.commit_sha <> c.sha AND " ONLIST__POSTED("y.method") ")" \
	" AND NOT EXISTS (SELECT 1 FROM series sa CROSS JOIN series sb" \
	"   ON sb.topic = sa.topic CROSS JOIN matches y ON y.message_id = sb.msgid" \
	"   CROSS JOIN message_info ib ON ib.msgid = sb.msgid" \
	"   AND lower(ib.stripped) = lower(" i ".stripped)" \
	"   WHERE sa.msgid = " i ".msgid AND y.commit_sha <> c.sha" \
	"   AND " ONLIST__POSTED("y.method") ")"
/* The links of every posted commit (LINKS_ALL), or of those in
 * temp.link_commits (LINKS_SOME), written to review_links.  The earlier
 * versions by files come from temp.link_versions: each commit's highest
 * posting version, computed once a commit (a correlated max() ran for each
 * of the author's patches: 23 s of 25 on 200,000 synthetic messages); a
 * commit posted as v1 has none, since every version is at least 1
 * (subject.c: an unversioned patch is v1). */
/* The patches with a commit's subject: of all commits, every patch read
 * in Message-ID order and the commits of its subject looked up
 * (BY_PATCH: the commits are a small table, and the look-ups beside each
 * patch walk their tables' keys in order; 1,000,000 x 100,000 LKML shape,
 * sqlite3 shell: 2.2 s CPU -> 1.0 s); of some, from each commit
 * (BY_COMMIT).  The message's row and series only for a patch with a
 * commit's subject (CROSS JOIN: the planner read them for every patch
 * first, 310,000 look-ups for 70,000 pairs: 0.94 s -> 0.71 s). */
#define BY_PATCH " FROM message_info i CROSS JOIN commits c" \
	" ON lower(c.subject) = lower(i.stripped)" \
	" CROSS JOIN messages m ON m.msgid = i.msgid" \
	" CROSS JOIN series s ON s.msgid = i.msgid" \
	" WHERE i.msgid >= '' AND "
#define BY_COMMIT " FROM commits c JOIN message_info i" \
	" ON lower(i.stripped) = lower(c.subject)" \
	" JOIN messages m ON m.msgid = i.msgid JOIN series s ON s.msgid = i.msgid" \
	" WHERE "
/* Each commit's highest posting version: of all commits, the postings
 * read in Message-ID order (matches_message) and grouped after, so that
 * the look-ups into message_info walk its keys in order (+: from the
 * commits' key order, each look-up was a jump; 1,000,000 x 100,000 LKML
 * shape, sqlite3 shell: 0.17 s CPU -> 0.12 s); of some, by the commit. */
#define VERSIONS_ALL " FROM matches x CROSS JOIN message_info pi" \
	" ON pi.msgid = x.message_id WHERE x.message_id >= '' AND " POSTED \
	" GROUP BY +x.commit_sha"
#define VERSIONS_SOME " FROM matches x JOIN message_info pi" \
	" ON pi.msgid = x.message_id WHERE " POSTED \
	" AND x.commit_sha IN (SELECT sha FROM temp.link_commits)" \
	" GROUP BY x.commit_sha"
/* The postings' links: of all commits, the postings read in Message-ID
 * order (matches_message, covering) so that their series are looked up
 * in key order, and sorted to be written in the links' key order (from
 * the commits' key order each series was a jump; 5,000,000 x 1,000,000
 * LKML shape, sqlite3 shell: 3.2-3.7 s CPU -> 1.0 s); of some, by the
 * commit. */
#define POSTINGS_ALL " FROM matches x INDEXED BY matches_message" \
	" CROSS JOIN series s ON s.msgid = x.message_id" \
	" WHERE x.message_id >= '' AND " POSTED " ORDER BY 1, 2"
#define POSTINGS_SOME " FROM matches x JOIN series s ON s.msgid = x.message_id" \
	" WHERE " POSTED " AND x.commit_sha IN (SELECT sha FROM temp.link_commits)"
/* LINKS_ALL's set is a look-up of the commit's matches for each pair,
 * not the posted commits gathered into a list first (a walk of every
 * match; with the member order above, 1,000,000 x 100,000 LKML shape,
 * sqlite3 shell: 0.83 s CPU -> 0.77 s). */
#define LINKS_ALL POSTINGS_ALL, " (SELECT commit_sha FROM matches x" \
	" WHERE x.commit_sha = c.sha AND " POSTED ")", \
	BY_PATCH, VERSIONS_ALL
#define LINKS_SOME POSTINGS_SOME, \
	" (SELECT x.commit_sha FROM temp.link_commits k CROSS JOIN matches x" \
	"  ON x.commit_sha = k.sha WHERE " POSTED ")", BY_COMMIT, VERSIONS_SOME
/* A patch posted by any commit has no link to a commit by its subject:
 * to its own commit it has the posting's (the first statement of
 * SQL_LINKS: posted, in a series; INSERT OR IGNORE would drop it), and
 * LINK_PATCH refuses a posting of another commit.  Asked of the patch
 * alone, before its subject is looked up among the commits, in the
 * patches' own (Message-ID) order: nearly every patch with a commit's
 * subject is that commit's posting (5,000,000 x 1,000,000 LKML shape:
 * every one), and each cost LINK_PATCH's look-ups of every other member
 * of its topic and a jump into commits.  1,000,000 x 100,000, sqlite3
 * shell: 0.85 s CPU -> 0.27 s. */
#define NOT_POSTING " AND NOT EXISTS (SELECT 1 FROM matches z" \
	" WHERE z.message_id = i.msgid AND " ONLIST__POSTED("z.method") ")"
#define SQL_LINKS(a) SQL_LINKS_(a)
#define SQL_LINKS_(postings, set, by, versions) \
	"INSERT OR IGNORE INTO review_links SELECT x.commit_sha, x.message_id," \
	" s.topic, 1" postings ";" \
	"INSERT OR IGNORE INTO review_links SELECT c.sha, m.msgid, s.topic, 0" \
	by "c.sha IN" set NOT_POSTING \
	" AND" LINK_PATCH("i", "m") " AND (lower(m.from_addr) = lower(c.author_email)" \
	"  OR EXISTS (SELECT 1 FROM message_author au WHERE au.msgid = i.msgid" \
	"   AND lower(au.addr) = lower(c.author_email)));" \
	"DROP TABLE IF EXISTS temp.link_versions;" \
	"CREATE TEMP TABLE link_versions(sha TEXT PRIMARY KEY," \
	" version INTEGER NOT NULL) WITHOUT ROWID;" \
	"INSERT INTO temp.link_versions SELECT x.commit_sha," \
	" max(coalesce(pi.version, 1))" versions ";" \
	"INSERT OR IGNORE INTO review_links SELECT c.sha, m.msgid, s.topic, 0" \
	" FROM temp.link_versions v CROSS JOIN commits c ON c.sha = v.sha" \
	" CROSS JOIN messages m ON lower(m.from_addr) = lower(c.author_email)" \
	" JOIN message_info i ON i.msgid = m.msgid" \
	" JOIN message_patch p ON p.msgid = m.msgid AND p.files = c.files" \
	" JOIN series s ON s.msgid = m.msgid" \
	" WHERE v.version > 1 AND c.files <> '' AND instr(c.subject, ':') > 1" \
	/* an earlier version has a lower version than a posting: a patch \
	 * of the same version is another change to those files (ltp \
	 * "tst_net.sh: Add more doc" is no v2 of "tst_net.sh: Filter \
	 * out tst_ns_exec TINFO messages") */ \
	" AND coalesce(i.version, 1) < v.version" \
	" AND lower(substr(i.stripped, 1, instr(i.stripped, ':')))" \
	"  = lower(substr(c.subject, 1, instr(c.subject, ':')))" \
	" AND" LINK_PATCH("i", "m") ";" \
	"DROP TABLE temp.link_versions;"
static const char sql_links_all[] =
	"DELETE FROM review_links;"
	SQL_LINKS(LINKS_ALL);
/* After new mail: the links that can differ are those of the commits to
 * review again (their postings changed), of the commits posted in a topic
 * to review again, and those to a patch in such a topic, as stored and as
 * they would be now (a superset of the conditions: the patch's author,
 * date, class, and its subject or its files).  A patch's links change with
 * its topic or with its postings and those of its topic's members, and a
 * topic is to be reviewed again when its members changed (the thread
 * build) or one of them was posted or no longer is (only_some()). */
static const char sql_links_some[] =
	"CREATE TEMP TABLE IF NOT EXISTS link_commits(sha TEXT PRIMARY KEY)"
	" WITHOUT ROWID;"
	"CREATE TEMP TABLE IF NOT EXISTS link_msgs(msgid TEXT PRIMARY KEY)"
	" WITHOUT ROWID;"
	"DELETE FROM temp.link_commits; DELETE FROM temp.link_msgs;"
	"INSERT OR IGNORE INTO temp.link_msgs SELECT s.msgid FROM series s"
	" WHERE s.topic IN (SELECT topic FROM temp.review_topics);"
	"INSERT OR IGNORE INTO temp.link_commits SELECT sha FROM temp.review_commits;"
	"INSERT OR IGNORE INTO temp.link_commits SELECT l.sha FROM review_links l"
	" WHERE l.topic IN (SELECT topic FROM temp.review_topics);"
	/* CROSS JOIN, here and in LINKS_SOME: from the few rows of the
	 * temporary table (it has no statistics), not every match read
	 * for them (0.4 s each at 5,000,000 messages) */
	"INSERT OR IGNORE INTO temp.link_commits SELECT x.commit_sha"
	" FROM temp.link_msgs a CROSS JOIN matches x ON x.message_id = a.msgid"
	" WHERE " POSTED ";"
	"INSERT OR IGNORE INTO temp.link_commits SELECT c.sha"
	" FROM temp.link_msgs a CROSS JOIN message_info i ON i.msgid = a.msgid"
	" CROSS JOIN commits c ON lower(c.subject) = lower(i.stripped)"
	" JOIN messages m ON m.msgid = i.msgid"
	" WHERE i.class = 'patch' AND m.date BETWEEN c.author_date - " LINK_WINDOW
	"  AND c.commit_date + 86400;"
	/* the patch's files first: its sender's commits with those files
	 * are then one look-up (schema 22), not all the sender's commits */
	"INSERT OR IGNORE INTO temp.link_commits SELECT c.sha"
	" FROM temp.link_msgs a CROSS JOIN messages m ON m.msgid = a.msgid"
	" CROSS JOIN message_info i ON i.msgid = m.msgid"
	" CROSS JOIN message_patch p ON p.msgid = m.msgid"
	" CROSS JOIN commits c ON lower(c.author_email) = lower(m.from_addr)"
	" AND c.files = p.files"
	" WHERE i.class = 'patch' AND m.date BETWEEN c.author_date - " LINK_WINDOW
	"  AND c.commit_date + 86400"
	" AND c.files <> '' AND instr(c.subject, ':') > 1"
	" AND lower(substr(i.stripped, 1, instr(i.stripped, ':')))"
	"  = lower(substr(c.subject, 1, instr(c.subject, ':')))"
	" AND coalesce(i.version, 1) < (SELECT max(coalesce(pi.version, 1))"
	"  FROM matches x JOIN message_info pi ON pi.msgid = x.message_id"
	"  WHERE x.commit_sha = c.sha AND " POSTED ");"
	"DELETE FROM review_links WHERE sha IN (SELECT sha FROM temp.link_commits);"
	SQL_LINKS(LINKS_SOME)
	/* each of them reviewed again */
	"INSERT OR IGNORE INTO temp.review_commits SELECT sha FROM temp.link_commits;";
/* The topics of the commits (ONLY: some commit to be computed again). */
#define POSTED_TOPICS(f) \
	" (SELECT l.topic FROM review_links l WHERE 1" f ")"
#define ONLY_L " AND l.sha IN (SELECT sha FROM temp.review_commits)"
#define ONLY " AND x.commit_sha IN (SELECT sha FROM temp.review_commits)"
/* The series of all commits' topics (ALL_SERIES) are read in their own
 * (Message-ID) order, so that the look-ups beside each row walk their
 * tables' keys in order: on 5,000,000 x 1,000,000 LKML shape, the
 * members' statement took 36 s wall walking series_topic, a look-up
 * anywhere for each row.  A topic's rows come in Message-ID order either
 * way.  Those of some commits' topics: by the topic. */
#define ALL_SERIES " CROSS JOIN ", " WHERE s.msgid >= '' AND +s.topic IN"
#define SOME_SERIES " JOIN ", " WHERE s.topic IN"
#define SQL_MEMBERS(a) SQL_MEMBERS_ a
#define SQL_MEMBERS_(join, where, f) \
	MEMBER_COLS " FROM series s" join MEMBER_JOINS where POSTED_TOPICS(f)
#define MEMBER_COLS \
	"SELECT s.msgid, s.series, s.topic, coalesce(i.class, 'patch')," \
	" coalesce(lower(m.from_addr), ''), coalesce(lower(i.stripped), '')," \
	" coalesce(lower(au.addr), '')," \
	" (SELECT group_concat(lower(c.addr), char(10)) FROM message_trailers c" \
	"   WHERE c.msgid = s.msgid AND lower(c.key) = 'co-developed-by'" \
	"   AND c.addr <> '')," \
	" coalesce(i.reply, 0), coalesce(i.part, -1), coalesce(i.total, -1)"
#define MEMBER_JOINS "messages m ON m.msgid = s.msgid" \
	" LEFT JOIN message_info i ON i.msgid = s.msgid" \
	" LEFT JOIN message_author au ON au.msgid = s.msgid"
#define SQL_REPLIES(a) SQL_REPLIES_ a
#define SQL_REPLIES_(join, where, f) \
	"SELECT th.answers, coalesce(lower(m.from_addr), '')," \
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = th.msgid), s.topic," \
	" th.msgid, r.kind, r.text" \
	" FROM series s" join "thread th ON th.answers = s.msgid" \
	" JOIN message_info i ON i.msgid = th.msgid AND" ANSWERING("i") \
	" JOIN messages m ON m.msgid = th.msgid" \
	" LEFT JOIN message_reply r ON r.msgid = th.msgid" \
	where POSTED_TOPICS(f) \
	" ORDER BY m.date, th.msgid"
#define SQL_COMMITS(f, g) \
	"SELECT x.commit_sha, x.message_id, coalesce(lower(c.author_email), '')," \
	" s.topic, coalesce(lower(c.subject), ''), 1" \
	" FROM matches x JOIN commits c ON c.sha = x.commit_sha" \
	" LEFT JOIN series s ON s.msgid = x.message_id" \
	" WHERE " POSTED f \
	" UNION ALL SELECT l.sha, l.msgid, coalesce(lower(c.author_email), '')," \
	" l.topic, coalesce(lower(c.subject), ''), 0" \
	" FROM review_links l JOIN commits c ON c.sha = l.sha" \
	" WHERE NOT l.posted" g " ORDER BY 1"
#define SQL_TRAILERS(f) \
	"SELECT t.sha, t.key, t.value FROM trailers t" \
	" WHERE t.sha IN (SELECT commit_sha FROM matches x WHERE " POSTED f ")" \
	" ORDER BY t.sha, t.seq"
static const char sql_members_some[] = SQL_MEMBERS((SOME_SERIES, ONLY_L));
/* All commits' members: those of temp.review_targets (below), which holds
 * the same series rows, in the same order, that ALL_SERIES read: the
 * series and the topics' filter are read once for the members and the
 * replies (5,000,000 x 1,000,000 LKML shape: 2.3 s CPU in the sqlite3
 * shell). */
static const char sql_members_all[] = MEMBER_COLS
	" FROM temp.review_targets s CROSS JOIN " MEMBER_JOINS
	" WHERE s.msgid >= ''";
static const char sql_replies_some[] = SQL_REPLIES((SOME_SERIES, ONLY_L));
/* All commits' replies: the patches and cover letters of their topics
 * put in a temporary table (series read in its own order, each row
 * appended), the mails answering them gathered from thread_answers (the
 * targets in Message-ID order, so its keys are walked in order, and only
 * its two columns read) into a second table keyed by the mail, then that
 * table read in its own order, so that every look-up beside a reply walks
 * its table's keys in order.  From the series through thread_answers, the
 * replies came in the order of what they answer, each look-up a jump
 * (5,000,000 x 1,000,000 LKML shape, sqlite3 shell: 20-26 s CPU and
 * 41-56 s wall -> 12.4 s and 21 s, the thread table read whole); reading
 * every row of the thread table for the few that answer a target cost
 * more than those rows (1,000,000 x 100,000, sqlite3 shell: 0.94 s CPU ->
 * 0.65 s).  CROSS JOIN: the order of the walks.  The answers are sorted
 * before they are written, so that the table grows at its end: written
 * in the targets' order, each row went somewhere in it (5,000,000 x
 * 1,000,000, sqlite3 shell: 4.5 s CPU -> 1.4 s). */
static const char sql_targets[] =
	"DROP TABLE IF EXISTS temp.review_targets;"
	"CREATE TEMP TABLE review_targets(msgid TEXT PRIMARY KEY,"
	" topic TEXT NOT NULL, series TEXT NOT NULL) WITHOUT ROWID;"
	"INSERT INTO temp.review_targets SELECT s.msgid, s.topic, s.series"
	" FROM series s WHERE s.msgid >= '' AND +s.topic IN" POSTED_TOPICS("") ";";
static const char sql_reply_targets[] =
	"DROP TABLE IF EXISTS temp.review_answers;"
	"CREATE TEMP TABLE review_answers(msgid TEXT PRIMARY KEY,"
	" answers TEXT NOT NULL, topic TEXT NOT NULL) WITHOUT ROWID;"
	"INSERT INTO temp.review_answers SELECT th.msgid, th.answers, t.topic"
	" FROM temp.review_targets t CROSS JOIN thread th"
	" ON th.answers = t.msgid ORDER BY 1;";
static const char sql_reply_targets_drop[] =
	"DROP TABLE IF EXISTS temp.review_targets;"
	"DROP TABLE IF EXISTS temp.review_answers;";
static const char sql_replies_all[] =
	"SELECT th.answers, coalesce(lower(m.from_addr), ''),"
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = th.msgid), th.topic,"
	" th.msgid, r.kind, r.text"
	" FROM temp.review_answers th"
	" CROSS JOIN message_info i ON i.msgid = th.msgid AND" ANSWERING("i")
	" CROSS JOIN messages m ON m.msgid = th.msgid"
	" LEFT JOIN message_reply r ON r.msgid = th.msgid"
	" WHERE th.msgid >= ''"
	" ORDER BY m.date, th.msgid";
static const char sql_commits_some[] = SQL_COMMITS(ONLY, ONLY_L);
/* All commits' rows: SQL_COMMITS without the commit's columns, which
 * are read once, in the table's order, for the posted commits
 * (commit_cols()): joined to each match, every row was a jump into the
 * commits table (5,000,000 x 1,000,000 LKML shape, sqlite3 shell: 6-9 s
 * CPU, half of it reading pages -> 2.8 s and 0.8 s for the table).  A
 * posting's topic is its link's, just written (SQL_LINKS: a posted pair
 * has a link, posted, exactly when its mail is in a series, and with
 * that series' topic), in the matches' own key order: the series looked
 * up for each match were jumps too (the same shape: 2.0 s CPU -> 0.6 s). */
static const char sql_walk_all[] =
	"SELECT x.commit_sha, x.message_id, l.topic, 1"
	" FROM matches x LEFT JOIN review_links l"
	" ON l.sha = x.commit_sha AND l.msgid = x.message_id"
	" WHERE " POSTED
	" UNION ALL SELECT l.sha, l.msgid, l.topic, 0"
	" FROM review_links l WHERE NOT l.posted ORDER BY 1";
static const char sql_posted_shas[] =
	"SELECT x.commit_sha FROM matches x WHERE " POSTED;
static const char sql_commit_cols[] =
	"SELECT sha, coalesce(lower(author_email), ''),"
	" coalesce(lower(subject), '') FROM commits";
static const char sql_commit_one[] =
	"SELECT coalesce(lower(author_email), ''), coalesce(lower(subject), '')"
	" FROM commits WHERE sha = ?1";
static const char *const sql_trailers[] = { SQL_TRAILERS(""),
					    SQL_TRAILERS(ONLY) };

/* After new mail, the commits to compute again: those whose postings
 * changed, and those posted in a topic the thread build changed
 * (temp.review_topics, from meta review_dirty); their rows are deleted
 * first.  A posting changed where a commit and a mail gained their first
 * posting method or lost their last: the tiers log every row they write
 * or delete (temp.match_log, store_match.c; rows are only inserted or
 * ignored, and deleted), so what a pair had before is what it has now
 * less what the log added; only the pairs in the log are read, not every
 * match. */
static const char sql_some_prepare[] =
	"CREATE TEMP TABLE IF NOT EXISTS review_topics(topic TEXT PRIMARY KEY);"
	"CREATE TEMP TABLE IF NOT EXISTS review_commits(sha TEXT PRIMARY KEY);"
	"DELETE FROM temp.review_topics; DELETE FROM temp.review_commits;";
static const char sql_put_topic[] =
	"INSERT OR IGNORE INTO temp.review_topics(topic) VALUES(?1)";
static const char sql_some_commits[] =
	"DROP TABLE IF EXISTS temp.posted_diff;"
	"CREATE TEMP TABLE posted_diff AS SELECT commit_sha, message_id FROM"
	" (SELECT l.commit_sha, l.message_id,"
	"  sum(CASE WHEN" ONLIST__POSTED("l.method") " THEN l.op ELSE 0 END)"
	"  AS added, (SELECT count(*) FROM matches x"
	"   WHERE x.commit_sha = l.commit_sha AND x.message_id = l.message_id"
	"   AND " POSTED ") AS now"
	"  FROM temp.match_log l GROUP BY l.commit_sha, l.message_id)"
	" WHERE (now > 0) <> (now - added > 0);"
	"INSERT OR IGNORE INTO temp.review_commits SELECT commit_sha"
	" FROM temp.posted_diff;"
	/* a patch posted or no longer posted changes the version links to
	 * the members of its topic (LINK_PATCH) */
	"INSERT OR IGNORE INTO temp.review_topics SELECT s.topic"
	" FROM temp.posted_diff d JOIN series s ON s.msgid = d.message_id;"
	"DROP TABLE temp.posted_diff;"
	"DROP TABLE IF EXISTS temp.old_tags;"
	"CREATE TEMP TABLE old_tags AS SELECT * FROM review_tags;";
/* The commits whose review was unknown are computed again too: the
 * archive may have grown past their landing (review.h). */
#define SOME_UNKNOWN "INSERT OR IGNORE INTO temp.review_commits" \
	" SELECT sha FROM commit_review WHERE state = 'unknown';"
/* Run once the tags are written again: a tag that changed (a trailer
 * added to a stored reply by hand, say) makes its topic one of them. */
static const char sql_some_topics[] =
	"INSERT OR IGNORE INTO temp.review_topics SELECT topic FROM"
	" (SELECT * FROM temp.old_tags EXCEPT SELECT * FROM review_tags)"
	" WHERE topic IS NOT NULL;"
	"INSERT OR IGNORE INTO temp.review_topics SELECT topic FROM"
	" (SELECT * FROM review_tags EXCEPT SELECT * FROM temp.old_tags)"
	" WHERE topic IS NOT NULL;"
	"INSERT OR IGNORE INTO temp.review_commits SELECT x.commit_sha"
	" FROM matches x JOIN series s ON s.msgid = x.message_id"
	" WHERE " POSTED " AND s.topic IN (SELECT topic FROM temp.review_topics);"
	"INSERT OR IGNORE INTO temp.review_commits SELECT sha FROM review_links"
	" WHERE topic IN (SELECT topic FROM temp.review_topics);"
	SOME_UNKNOWN
	/* their states as they were, for the counts (review_update.c) */
	"DROP TABLE IF EXISTS temp.old_states;"
	"CREATE TEMP TABLE old_states AS SELECT state, count(*) AS n"
	" FROM commit_review WHERE sha IN (SELECT sha FROM temp.review_commits)"
	" GROUP BY state;"
	"DELETE FROM commit_review WHERE sha IN"
	" (SELECT sha FROM temp.review_commits);"
	"DELETE FROM commit_notice WHERE sha IN"
	" (SELECT sha FROM temp.review_commits);"
	"DELETE FROM posting_replies WHERE sha IN"
	" (SELECT sha FROM temp.review_commits);"
	"DELETE FROM series_replies WHERE sha IN"
	" (SELECT sha FROM temp.review_commits);"
	"DROP TABLE temp.old_tags;";

static const char sql_has_log[] =
	"SELECT count(*) FROM sqlite_temp_master WHERE name = 'match_log'";
static const char *const sql_states[] = {
	"SELECT state, count(*) FROM commit_review GROUP BY state",
	"SELECT state, count(*) FROM commit_review WHERE sha IN"
	" (SELECT sha FROM temp.review_commits) GROUP BY state",
	"SELECT state, n FROM temp.old_states",
};
static const char sql_any_review[] =
	"SELECT EXISTS (SELECT 1 FROM commit_review)";
static const char sql_put_notice[] =
	"INSERT OR REPLACE INTO commit_notice(sha, msgid) VALUES(?1,?2)";
static const char sql_put_posting[] =
	"INSERT OR REPLACE INTO posting_replies(sha, msgid, replies, repliers)"
	" VALUES(?1,?2,?3,?4)";
static const char sql_put_series_replies[] =
	"INSERT OR REPLACE INTO series_replies(sha, series, replies)"
	" VALUES(?1,?2,?3)";
static const char sql_put_review[] =
	"INSERT OR REPLACE INTO commit_review(sha, state, evidence_msgid,"
	" evidence_seq, naks, off_list_tags, why) VALUES(?1,?2,?3,?4,?5,?6,?7)";
/* Where the archive ends (review.h's `unknown`), per list: its last
 * message, by the rules of the archive's span (verdict.h: no date of 0
 * or more than a day ahead, nothing a remote lookup stored); the row
 * whose list is NULL is the whole database's, for a posting on no list. */
#define END_OK(m) " " m ".date > 0" \
	" AND " m ".date <= CAST(strftime('%s', 'now') AS INTEGER) + 86400" \
	" AND NOT EXISTS (SELECT 1 FROM source_state p WHERE p.key = 'partial'" \
	"  AND substr(" m ".source, 1, length(p.url)) = p.url)"
static const char sql_list_end[] =
	"DROP TABLE IF EXISTS temp.review_list_end;"
	"CREATE TEMP TABLE review_list_end AS SELECT l.list AS list,"
	" max(m.date) AS last FROM message_lists l"
	" JOIN messages m ON m.msgid = l.msgid WHERE" END_OK("m")
	" GROUP BY l.list;"
	"INSERT INTO temp.review_list_end SELECT NULL, max(m.date)"
	" FROM messages m WHERE" END_OK("m") ";";
/* A posted commit's commit date, and the end of the archive of the lists
 * its postings were on (the latest: a reply goes to every list the
 * patch went to), else of the whole database. */
static const char sql_coverage[] =
	"SELECT c.commit_date, coalesce((SELECT max(e.last) FROM matches x"
	"  JOIN message_lists l ON l.msgid = x.message_id"
	"  JOIN temp.review_list_end e ON e.list = l.list"
	"  WHERE x.commit_sha = c.sha AND " POSTED "),"
	" (SELECT last FROM temp.review_list_end WHERE list IS NULL))"
	" FROM commits c WHERE c.sha = ?1";

/* ---- what onlist_review_update() asks ------------------------------------ */

/* A walk ended: st reset; ret when a callback stopped it, else whether
 * SQLite came to the end. */
static onlist_status walk_end(struct onlist_store *s, sqlite3_stmt *st,
			      onlist_status ret, int rc, const char *what)
{
	sqlite3_reset(st);
	if (ret != ONLIST_OK)
		return ret;
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, what);
}

/* A callback stopped the walk: st reset, its status returned. */
static onlist_status stopped(sqlite3_stmt *st, onlist_status ret)
{
	sqlite3_reset(st);
	return ret;
}

/* The next row of st (NULL: its prepare failed): 1 with its columns in
 * out, as cols says; else 0, st reset, and *ret ONLIST_OK at the end or
 * ONLIST_EDB ("prepare", or what failed). */
static int next_row(struct onlist_store *s, sqlite3_stmt *st, void *out,
		    const struct onlist__column *cols, const char *what,
		    onlist_status *ret)
{
	int rc;

	if (!st) {
		*ret = fail(s, "prepare");
		return 0;
	}
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		onlist__store_columns(st, out, cols);
		return 1;
	}
	*ret = walk_end(s, st, ONLIST_OK, rc, what);
	return 0;
}

static onlist_status exec(struct onlist_store *s, const char *sql,
			  const char *what)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ?
	       ONLIST_OK : fail(s, what);
}

/* n[0]: the mails whose reply kind is known; n[1]: of them, those
 * stored after message id upto (none when upto < 0); n[2]: the highest
 * message id. */
static const char sql_reply_counts[] =
	"SELECT" ONLIST__ROWS("message_reply") ","
	" CASE WHEN ?1 < 0 THEN 0 ELSE (SELECT count(*) FROM messages m"
	"  JOIN message_reply r ON r.msgid = m.msgid WHERE m.id > ?1) END,"
	" (SELECT coalesce(max(id), 0) FROM messages)";

onlist_status onlist_store_review_reply_counts(struct onlist_store *s,
					       int64_t upto, int64_t n[3])
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_reply_counts);
	int rc;

	if (!st)
		return fail(s, "prepare");
	sqlite3_bind_int64(st, 1, upto);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		for (int i = 0; i < 3; i++)
			n[i] = sqlite3_column_int64(st, i);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? ONLIST_OK : fail(s, "count reply kinds");
}

int onlist_store_review_has_log(struct onlist_store *s)
{
	int64_t n = 0;

	return onlist__store_int64s(s, sql_has_log, -1, &n, 1) && n > 0;
}

int onlist_store_review_any(struct onlist_store *s)
{
	int64_t n;

	return onlist__store_int64s(s, sql_any_review, -1, &n, 1) ? n > 0 : -1;
}

onlist_status onlist_store_review_some_begin(struct onlist_store *s)
{
	return exec(s, sql_some_prepare, "choose the commits to review");
}

onlist_status onlist_store_review_some_topic(struct onlist_store *s,
					     const char *topic)
{
	return onlist__store_step(s, onlist__store_prepare(s, sql_put_topic),
				  "choose the commits to review", "t", topic);
}

onlist_status onlist_store_review_some_commits(struct onlist_store *s)
{
	return exec(s, sql_some_commits, "choose the commits to review");
}

onlist_status onlist_store_review_some_topics(struct onlist_store *s)
{
	return exec(s, sql_some_topics, "choose the commits to review");
}

onlist_status onlist_store_review_clear(struct onlist_store *s, int all)
{
	if (sqlite3_exec(s->db, sql_clear_tags, NULL, NULL, NULL) != SQLITE_OK ||
	    (all && sqlite3_exec(s->db, sql_clear_commits, NULL, NULL,
				 NULL) != SQLITE_OK))
		return fail(s, "clear reviews");
	return ONLIST_OK;
}

onlist_status onlist_store_review_links(struct onlist_store *s, int some)
{
	onlist_status ret;
	char *idx;

	if (some)
		return exec(s, sql_links_some, "link the versions of the commits");
	/* every row written anew: the topic index made after */
	if ((ret = onlist__store_indexes_drop(s, "review_links", &idx)) != ONLIST_OK)
		return ret;
	ret = exec(s, sql_links_all, "link the versions of the commits");
	if (ret == ONLIST_OK)
		ret = onlist__store_indexes_make(s, idx);
	free(idx);
	return ret;
}

#define R(type, field) \
	{ type, offsetof(struct onlist_store_review_tag_row, field) }
static const struct onlist__column tag_cols[] = {
	R('e', msgid), R('i', seq), R('t', key), R('t', name), R('e', addr),
	R('t', value), R('t', sender), R('I', date), R('i', echo),
	R('e', target), R('t', target_class), R('e', target_from),
	R('e', target_codev), R('t', series), R('t', topic), R('i', version),
	R('i', part), R('i', total), R('e', target_author),
	R('i', series_scope), { 0, 0 }
};
#undef R

onlist_status onlist_store_review_tags(struct onlist_store *s,
				       onlist_store_review_tag_cb cb,
				       void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_tags);
	onlist_status ret = ONLIST_OK;
	int rc;

	if (!st)
		return fail(s, "prepare");
	while (ret == ONLIST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_review_tag_row r;

		/* before the columns are read: reading converts them */
		r.has_version = sqlite3_column_type(st, 15) != SQLITE_NULL;
		r.has_part = sqlite3_column_type(st, 16) != SQLITE_NULL;
		r.has_total = sqlite3_column_type(st, 17) != SQLITE_NULL;
		onlist__store_columns(st, &r, tag_cols);
		ret = cb(&r, data);
	}
	return walk_end(s, st, ret, rc, "load review tags");
}

onlist_status onlist_store_review_put_tag(struct onlist_store *s,
				const struct onlist_store_review_tag_row *r,
				const char *why_not)
{
	sqlite3_stmt *put = onlist__store_prepare(s, sql_put_tag);

	if (!put)
		return fail(s, "prepare");
	onlist__store_bind(put, "tittttt", r->msgid, r->seq, r->key, r->name,
			   r->addr, r->value, r->sender);
	sqlite3_bind_int64(put, 8, r->date);
	bind_text(put, 9, r->target);
	bind_text(put, 10, r->target_class);
	bind_text(put, 11, r->series);
	bind_text(put, 12, r->topic);
	if (r->has_version)
		sqlite3_bind_int(put, 13, r->version);
	if (r->has_part)
		sqlite3_bind_int(put, 14, r->part);
	if (r->has_total)
		sqlite3_bind_int(put, 15, r->total);
	bind_text(put, 16, why_not);
	if (sqlite3_step(put) != SQLITE_DONE)
		return fail(s, "insert review tag");
	return ONLIST_OK;
}

#define R(type, field) \
	{ type, offsetof(struct onlist_store_review_member, field) }
static const struct onlist__column member_cols[] = {
	R('e', msgid), R('e', series), R('e', topic), R('t', cls),
	R('e', from), R('e', stripped), R('e', author), R('e', codev),
	R('i', reply), R('i', part), R('i', total), { 0, 0 }
};
#undef R

onlist_status onlist_store_review_members(struct onlist_store *s, int some,
					  onlist_store_review_member_cb cb,
					  void *data)
{
	sqlite3_stmt *st;
	struct onlist_store_review_member r;
	onlist_status ret = ONLIST_OK;

	if (!some && (ret = exec(s, sql_targets, "load topics")) != ONLIST_OK)
		return ret;
	st = onlist__store_prepare(s, some ? sql_members_some : sql_members_all);

	while (next_row(s, st, &r, member_cols, "load topics", &ret))
		if ((ret = cb(&r, data)) != ONLIST_OK)
			return stopped(st, ret);
	return ret;
}

#define R(type, field) \
	{ type, offsetof(struct onlist_store_review_reply_row, field) }
static const struct onlist__column reply_cols[] = {
	R('e', target), R('e', sender), R('i', echo), R('e', topic),
	R('e', msgid), R('t', kind), R('t', text), { 0, 0 }
};
#undef R

onlist_status onlist_store_review_replies(struct onlist_store *s, int some,
					  onlist_store_review_reply_cb cb,
					  void *data)
{
	sqlite3_stmt *st;
	struct onlist_store_review_reply_row r;
	onlist_status ret = ONLIST_OK;

	/* the targets _members() gathered just before */
	if (!some && (ret = exec(s, sql_reply_targets, "load replies"))
	    != ONLIST_OK)
		return ret;
	st = onlist__store_prepare(s, some ? sql_replies_some : sql_replies_all);
	while (next_row(s, st, &r, reply_cols, "load replies", &ret))
		if ((ret = cb(&r, data)) != ONLIST_OK) {
			ret = stopped(st, ret);
			break;
		}
	if (!some)
		sqlite3_exec(s->db, sql_reply_targets_drop, NULL, NULL, NULL);
	return ret;
}

#define R(type, field) \
	{ type, offsetof(struct onlist_store_review_trailer_row, field) }
static const struct onlist__column trailer_cols[] = {
	R('e', sha), R('e', key), R('t', value), { 0, 0 }
};
#undef R

onlist_status onlist_store_review_trailers(struct onlist_store *s, int some,
					   onlist_store_review_trailer_cb cb,
					   void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_trailers[some]);
	struct onlist_store_review_trailer_row r;
	onlist_status ret = ONLIST_OK;

	while (next_row(s, st, &r, trailer_cols, "load trailers", &ret))
		if ((ret = cb(&r, data)) != ONLIST_OK)
			return stopped(st, ret);
	return ret;
}

#define R(type, field) \
	{ type, offsetof(struct onlist_store_review_posted, field) }
static const struct onlist__column posted_cols[] = {
	R('e', sha), R('e', msgid), R('e', author), R('t', topic),
	R('e', subject), R('i', posted), { 0, 0 }
};
#undef R

/* The posted commits' author and subject (lower case, "" for NULL), by
 * sha: each value "author\0subject" in str; NULL for a posted commit the
 * commits table lacks. */
struct commit_cols {
	GHashTable *h;
	GStringChunk *str;
};

static onlist_status commit_cols(struct onlist_store *s, struct commit_cols *cc)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_posted_shas);
	GString *v = g_string_new(NULL);
	int rc;

	if (!st)
		goto fail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sha = (const char *)sqlite3_column_text(st, 0);

		if (sha && !g_hash_table_contains(cc->h, sha))
			g_hash_table_insert(cc->h,
					    g_string_chunk_insert(cc->str, sha),
					    NULL);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE ||
	    !(st = onlist__store_prepare(s, sql_commit_cols)))
		goto fail;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sha = (const char *)sqlite3_column_text(st, 0);
		gpointer key, val;

		if (!sha || !g_hash_table_lookup_extended(cc->h, sha, &key, &val))
			continue;
		g_string_assign(v, (const char *)sqlite3_column_text(st, 1));
		g_string_append_c(v, '\0');
		g_string_append(v, (const char *)sqlite3_column_text(st, 2));
		g_hash_table_insert(cc->h, key,
				    g_string_chunk_insert_len(cc->str, v->str,
							      (gssize)v->len));
	}
	sqlite3_reset(st);
	g_string_free(v, TRUE);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "read posted commits");
fail:
	g_string_free(v, TRUE);
	return fail(s, st ? "read posted commits" : "prepare");
}

/* r's commit columns from cc, else from the table (a commit no match
 * posts: not expected, looked up as SQL_COMMITS would join it); then
 * cb.  ONLIST_OK without cb when the commits table lacks it. */
static onlist_status commit_row(struct onlist_store *s, struct commit_cols *cc,
				struct onlist_store_review_posted *r,
				onlist_store_review_posted_cb cb, void *data)
{
	sqlite3_stmt *st;
	gpointer val;
	onlist_status ret = ONLIST_OK;
	int rc;

	if (g_hash_table_lookup_extended(cc->h, r->sha, NULL, &val)) {
		if (!val)
			return ONLIST_OK;
		r->author = val;
		r->subject = (const char *)val + strlen(val) + 1;
		return cb(r, data);
	}
	if (!(st = onlist__store_prepare(s, sql_commit_one)))
		return fail(s, "prepare");
	bind_text(st, 1, r->sha);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r->author = (const char *)sqlite3_column_text(st, 0);
		r->subject = (const char *)sqlite3_column_text(st, 1);
		ret = cb(r, data);
	}
	sqlite3_reset(st);
	if (ret == ONLIST_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = fail(s, "read posted commits");
	return ret;
}

#define R(type, field) \
	{ type, offsetof(struct onlist_store_review_posted, field) }
static const struct onlist__column walk_cols[] = {
	R('e', sha), R('e', msgid), R('t', topic), R('i', posted), { 0, 0 }
};
#undef R

onlist_status onlist_store_review_commits(struct onlist_store *s, int some,
					  onlist_store_review_posted_cb cb,
					  void *data)
{
	sqlite3_stmt *st;
	struct onlist_store_review_posted r;
	struct commit_cols cc;
	onlist_status ret = ONLIST_OK;

	if (some) {
		st = onlist__store_prepare(s, sql_commits_some);
		while (next_row(s, st, &r, posted_cols, "load posted commits",
				&ret))
			if ((ret = cb(&r, data)) != ONLIST_OK)
				return stopped(st, ret);
		return ret;
	}
	cc.h = g_hash_table_new(g_str_hash, g_str_equal);
	cc.str = g_string_chunk_new(1 << 16);
	if ((ret = commit_cols(s, &cc)) == ONLIST_OK) {
		st = onlist__store_prepare(s, sql_walk_all);
		while (next_row(s, st, &r, walk_cols, "load posted commits",
				&ret))
			if ((ret = commit_row(s, &cc, &r, cb, data)) != ONLIST_OK) {
				ret = stopped(st, ret);
				break;
			}
	}
	g_hash_table_destroy(cc.h);
	g_string_chunk_free(cc.str);
	return ret;
}

onlist_status onlist_store_review_list_end(struct onlist_store *s)
{
	return exec(s, sql_list_end, "find where the archive ends");
}

onlist_status onlist_store_review_coverage(struct onlist_store *s,
					   const char *sha, int64_t *landed,
					   int64_t *end)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_coverage);
	int rc;

	*landed = *end = 0;
	if (!st)
		return fail(s, "prepare");
	bind_text(st, 1, sha);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*landed = sqlite3_column_int64(st, 0);
		*end = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read where the archive ends");
}

onlist_status onlist_store_review_put_notice(struct onlist_store *s,
					     const char *sha,
					     const char *msgid)
{
	return onlist__store_step(s, onlist__store_prepare(s, sql_put_notice),
				  "insert notice", "tt", sha, msgid);
}

onlist_status onlist_store_review_put_series_replies(struct onlist_store *s,
						     const char *sha,
						     const char *series,
						     int replies)
{
	return onlist__store_step(s, onlist__store_prepare(s,
					sql_put_series_replies),
				  "insert series replies", "tti", sha, series,
				  replies);
}

onlist_status onlist_store_review_put_posting(struct onlist_store *s,
					      const char *sha,
					      const char *msgid, int replies,
					      int repliers)
{
	return onlist__store_step(s, onlist__store_prepare(s, sql_put_posting),
				  "insert posting replies", "ttii", sha, msgid,
				  replies, repliers);
}

onlist_status onlist_store_review_put(struct onlist_store *s,
				      const struct onlist_store_review_row *r)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_put_review);

	if (!st)
		return fail(s, "prepare");
	bind_text(st, 1, r->sha);
	bind_text(st, 2, r->state);
	if (r->evidence_msgid) {
		bind_text(st, 3, r->evidence_msgid);
		sqlite3_bind_int(st, 4, r->evidence_seq);
	}
	sqlite3_bind_int(st, 5, r->naks);
	bind_text(st, 6, r->off_list_tags);
	bind_text(st, 7, r->why);
	if (sqlite3_step(st) != SQLITE_DONE)
		return fail(s, "insert commit review");
	return ONLIST_OK;
}

onlist_status onlist_store_review_states(struct onlist_store *s, int which,
					 onlist_status (*cb)(const char *state,
							     int64_t n,
							     void *data),
					 void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_states[which]);
	onlist_status ret = ONLIST_OK;
	int rc;

	if (!st)
		return fail(s, "prepare");
	while (ret == ONLIST_OK && (rc = sqlite3_step(st)) == SQLITE_ROW)
		ret = cb((const char *)sqlite3_column_text(st, 0),
			 sqlite3_column_int64(st, 1), data);
	return walk_end(s, st, ret, rc, "count review states");
}

/* ---- at import ----------------------------------------------------------- */

static const char sql_put_quoted[] =
	"INSERT OR IGNORE INTO quoted_tags(msgid, seq, key, name, addr, value,"
	" attrib) VALUES(?1,?2,?3,?4,?5,?6,?7)";

onlist_status onlist_store_review_put_quoted_tags(struct onlist_store *s,
					   const char *msgid,
					   const struct onlist_quoted_tag *t,
					   size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (onlist__store_step(s, onlist__store_prepare(s, sql_put_quoted),
				       "insert quoted tag", "tittttt", msgid,
				       (int)k, t[k].key, t[k].name, t[k].addr,
				       t[k].value, t[k].attrib) != ONLIST_OK)
			return ONLIST_EDB;
	return ONLIST_OK;
}
