/* store_review.c - the review given on the list: read for review.c, which
 * decides it, and written back (review_tags, commit_review).  Speaks SQL,
 * like every src/store*.c file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <glib.h>

#include "onlist/msgmeta.h"
#include "onlist/review.h"
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
	" FROM message_trailers t"
	" JOIN message_info mi ON mi.msgid = t.msgid AND" ANSWERING("mi")
	" JOIN thread th ON th.msgid = t.msgid AND th.answers IS NOT NULL"
	" JOIN messages m ON m.msgid = t.msgid"
	" JOIN messages am ON am.msgid = th.answers"
	" JOIN message_info ai ON ai.msgid = th.answers"
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
	" JOIN message_info mi ON mi.msgid = q.msgid AND" ANSWERING("mi")
	" JOIN thread th ON th.msgid = q.msgid AND th.answers IS NOT NULL"
	" JOIN messages m ON m.msgid = q.msgid"
	" JOIN messages am ON am.msgid = th.answers"
	" JOIN message_info ai ON ai.msgid = th.answers"
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
 * posting. */
#define LINK_WINDOW "15552000"
#define LINK_PATCH(i, m) \
	" " i ".class = 'patch' AND NOT coalesce(" i ".reply, 0)" \
	" AND NOT coalesce(" i ".upstream, 0)" \
	" AND " m ".date BETWEEN c.author_date - " LINK_WINDOW \
	"   AND c.commit_date + 86400" \
	" AND NOT EXISTS (SELECT 1 FROM matches y WHERE y.message_id = " i ".msgid" \
	"   AND y.commit_sha <> c.sha AND " ONLIST__POSTED("y.method") ")" \
	" AND NOT EXISTS (SELECT 1 FROM series sa JOIN series sb ON sb.topic = sa.topic" \
	"   JOIN message_info ib ON ib.msgid = sb.msgid" \
	"   AND lower(ib.stripped) = lower(" i ".stripped)" \
	"   JOIN matches y ON y.message_id = sb.msgid" \
	"   WHERE sa.msgid = " i ".msgid AND y.commit_sha <> c.sha" \
	"   AND " ONLIST__POSTED("y.method") ")"
/* The links of every posted commit (LINKS_ALL), or of those in
 * temp.link_commits (LINKS_SOME), written to review_links.  The earlier
 * versions by files come from temp.link_versions: each commit's highest
 * posting version, computed once a commit (a correlated max() ran for each
 * of the author's patches: 23 s of 25 on 200,000 synthetic messages); a
 * commit posted as v1 has none, since every version is at least 1
 * (subject.c: an unversioned patch is v1). */
#define LINKS_ALL "", " (SELECT commit_sha FROM matches x WHERE " POSTED ")"
#define LINKS_SOME " AND x.commit_sha IN (SELECT sha FROM temp.link_commits)", \
	" (SELECT x.commit_sha FROM temp.link_commits k JOIN matches x" \
	"  ON x.commit_sha = k.sha WHERE " POSTED ")"
#define SQL_LINKS(a) SQL_LINKS_(a)
#define SQL_LINKS_(f, set) \
	"INSERT OR IGNORE INTO review_links SELECT x.commit_sha, x.message_id," \
	" s.topic, 1" \
	" FROM matches x JOIN series s ON s.msgid = x.message_id WHERE " POSTED f ";" \
	"INSERT OR IGNORE INTO review_links SELECT c.sha, m.msgid, s.topic, 0" \
	" FROM commits c JOIN message_info i ON lower(i.stripped) = lower(c.subject)" \
	" JOIN messages m ON m.msgid = i.msgid JOIN series s ON s.msgid = i.msgid" \
	" WHERE c.sha IN" set \
	" AND" LINK_PATCH("i", "m") " AND (lower(m.from_addr) = lower(c.author_email)" \
	"  OR EXISTS (SELECT 1 FROM message_author au WHERE au.msgid = i.msgid" \
	"   AND lower(au.addr) = lower(c.author_email)));" \
	"DROP TABLE IF EXISTS temp.link_versions;" \
	"CREATE TEMP TABLE link_versions(sha TEXT PRIMARY KEY," \
	" version INTEGER NOT NULL) WITHOUT ROWID;" \
	"INSERT INTO temp.link_versions SELECT x.commit_sha," \
	" max(coalesce(pi.version, 1))" \
	" FROM matches x JOIN message_info pi ON pi.msgid = x.message_id" \
	" WHERE " POSTED f " GROUP BY x.commit_sha;" \
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
	"INSERT OR IGNORE INTO temp.link_commits SELECT x.commit_sha"
	" FROM temp.link_msgs a JOIN matches x ON x.message_id = a.msgid"
	" WHERE " POSTED ";"
	"INSERT OR IGNORE INTO temp.link_commits SELECT c.sha"
	" FROM temp.link_msgs a CROSS JOIN message_info i ON i.msgid = a.msgid"
	" CROSS JOIN commits c ON lower(c.subject) = lower(i.stripped)"
	" JOIN messages m ON m.msgid = i.msgid"
	" WHERE i.class = 'patch' AND m.date BETWEEN c.author_date - " LINK_WINDOW
	"  AND c.commit_date + 86400;"
	"INSERT OR IGNORE INTO temp.link_commits SELECT c.sha"
	" FROM temp.link_msgs a CROSS JOIN messages m ON m.msgid = a.msgid"
	" CROSS JOIN message_info i ON i.msgid = m.msgid"
	" CROSS JOIN commits c ON lower(c.author_email) = lower(m.from_addr)"
	" JOIN message_patch p ON p.msgid = m.msgid AND p.files = c.files"
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
#define SQL_MEMBERS(f) \
	"SELECT s.msgid, s.series, s.topic, coalesce(i.class, 'patch')," \
	" coalesce(lower(m.from_addr), ''), coalesce(lower(i.stripped), '')," \
	" coalesce(lower(au.addr), '')," \
	" (SELECT group_concat(lower(c.addr), char(10)) FROM message_trailers c" \
	"   WHERE c.msgid = s.msgid AND lower(c.key) = 'co-developed-by'" \
	"   AND c.addr <> '')," \
	" coalesce(i.reply, 0), coalesce(i.part, -1), coalesce(i.total, -1)" \
	" FROM series s JOIN messages m ON m.msgid = s.msgid" \
	" LEFT JOIN message_info i ON i.msgid = s.msgid" \
	" LEFT JOIN message_author au ON au.msgid = s.msgid" \
	" WHERE s.topic IN" POSTED_TOPICS(f)
#define SQL_REPLIES(f) \
	"SELECT th.answers, coalesce(lower(m.from_addr), '')," \
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = th.msgid), s.topic," \
	" th.msgid, r.kind, r.text" \
	" FROM series s JOIN thread th ON th.answers = s.msgid" \
	" JOIN message_info i ON i.msgid = th.msgid AND" ANSWERING("i") \
	" JOIN messages m ON m.msgid = th.msgid" \
	" LEFT JOIN message_reply r ON r.msgid = th.msgid" \
	" WHERE s.topic IN" POSTED_TOPICS(f) \
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
static const char *const sql_members[] = { SQL_MEMBERS(""), SQL_MEMBERS(ONLY_L) };
static const char *const sql_replies[] = { SQL_REPLIES(""), SQL_REPLIES(ONLY_L) };
static const char *const sql_commits[] = { SQL_COMMITS("", ""),
					   SQL_COMMITS(ONLY, ONLY_L) };
static const char *const sql_trailers[] = { SQL_TRAILERS(""),
					    SQL_TRAILERS(ONLY) };

/* After new mail, the commits to compute again: those whose postings
 * changed (match_begin kept the old ones in temp.old_posted), and those
 * posted in a topic the thread build changed (temp.review_topics, from
 * meta review_dirty); their rows are deleted first. */
static const char sql_some_prepare[] =
	"CREATE TEMP TABLE IF NOT EXISTS review_topics(topic TEXT PRIMARY KEY);"
	"CREATE TEMP TABLE IF NOT EXISTS review_commits(sha TEXT PRIMARY KEY);"
	"DELETE FROM temp.review_topics; DELETE FROM temp.review_commits;";
static const char sql_put_topic[] =
	"INSERT OR IGNORE INTO temp.review_topics(topic) VALUES(?1)";
static const char sql_some_commits[] =
	/* anti-joins on keys, not EXCEPT: sorting both sides twice took
	 * 0.7 s CPU of 100,000 commits' postings, these 0.25 s */
	"DROP TABLE IF EXISTS temp.posted_diff;"
	"CREATE TEMP TABLE posted_diff AS SELECT o.commit_sha, o.message_id"
	" FROM temp.old_posted o WHERE NOT EXISTS (SELECT 1 FROM matches x"
	"  WHERE x.commit_sha = o.commit_sha AND x.message_id = o.message_id"
	"  AND " POSTED ");"
	"CREATE INDEX IF NOT EXISTS temp.old_posted_key"
	" ON old_posted(commit_sha, message_id);"
	"INSERT INTO temp.posted_diff SELECT x.commit_sha, x.message_id"
	" FROM matches x WHERE " POSTED " AND NOT EXISTS (SELECT 1"
	"  FROM temp.old_posted o WHERE o.commit_sha = x.commit_sha"
	"  AND o.message_id = x.message_id);"
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
	"DELETE FROM commit_review WHERE sha IN"
	" (SELECT sha FROM temp.review_commits);"
	"DELETE FROM commit_notice WHERE sha IN"
	" (SELECT sha FROM temp.review_commits);"
	"DELETE FROM posting_replies WHERE sha IN"
	" (SELECT sha FROM temp.review_commits);"
	"DELETE FROM series_replies WHERE sha IN"
	" (SELECT sha FROM temp.review_commits);"
	"DROP TABLE temp.old_tags;";

static const char sql_has_old_posted[] =
	"SELECT count(*) FROM sqlite_temp_master WHERE name = 'old_posted'";
static const char sql_states[] =
	"SELECT state, count(*) FROM commit_review GROUP BY state";
static const char sql_count_reviews[] = "SELECT count(*) FROM commit_review";
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

struct gtrailer {
	struct onlist_review_trailer t;
	const char *line;		/* "Key: value" */
};

struct build {
	struct onlist_store *s;
	GStringChunk *str;
	onlist_canon_fn canon;
	void *canon_data;
	onlist_bot_addr_fn is_bot;
	void *bot_data;
	GArray *tags;			/* struct onlist_review_tag */
	GArray *tag_seq;		/* int: message_trailers.seq of each */
	GHashTable *topic_tags;		/* topic -> GArray of tag indexes */
	GHashTable *members;		/* topic -> GArray of onlist_review_msg */
	GHashTable *replies;		/* topic -> GArray of onlist_review_reply */
	GHashTable *trailers;		/* sha -> GArray of struct gtrailer */
	int some;			/* 1: only temp.review_commits */
	int list_end;			/* temp.review_list_end is made */
	const char *const *notice;	/* the rules file's notice patterns */
	size_t nnotice;
};

static const char *intern(struct build *b, sqlite3_stmt *st, int col)
{
	const char *v = (const char *)sqlite3_column_text(st, col);

	return g_string_chunk_insert_const(b->str, v ? v : "");
}

static const char *canon(struct build *b, const char *addr)
{
	const char *c;

	if (!*addr || !b->canon || !(c = b->canon(addr, b->canon_data)))
		return addr;
	return g_string_chunk_insert_const(b->str, c);
}

/* "a\nb" with each line through canon() */
static const char *canon_lines(struct build *b, const char *lines)
{
	GString *o;
	gchar **v;

	if (!*lines || !b->canon)
		return lines;
	o = g_string_new(NULL);
	v = g_strsplit(lines, "\n", -1);
	for (gchar **p = v; *p; p++)
		g_string_append_printf(o, "%s%s", p == v ? "" : "\n",
				       canon(b, *p));
	g_strfreev(v);
	lines = g_string_chunk_insert_const(b->str, o->str);
	g_string_free(o, TRUE);
	return lines;
}

static GArray *bucket(GHashTable *h, const char *key, size_t elt)
{
	GArray *a = g_hash_table_lookup(h, key);

	if (!a) {
		a = g_array_new(FALSE, FALSE, (guint)elt);
		g_hash_table_insert(h, (gpointer)key, a);
	}
	return a;
}

static onlist_status load_tags(struct build *b, struct onlist_review_counts *c)
{
	struct onlist_store *s = b->s;
	sqlite3_stmt *st, *put;
	int rc;

	if (!(st = onlist__store_prepare(s, sql_tags)))
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_review_tag t;
		const char *topic = sqlite3_column_type(st, 14) == SQLITE_NULL ?
				    NULL : intern(b, st, 14);
		int seq = sqlite3_column_int(st, 1);
		guint k = b->tags->len;

		memset(&t, 0, sizeof t);
		t.msgid = intern(b, st, 0);
		t.key = intern(b, st, 2);
		t.name = intern(b, st, 3);
		t.addr = canon(b, intern(b, st, 4));
		t.sender = canon(b, intern(b, st, 6));
		t.bot = sqlite3_column_int(st, 8) ||
			(b->is_bot && *(const char *)sqlite3_column_text(st, 4) &&
			 b->is_bot((const char *)sqlite3_column_text(st, 4),
				   b->bot_data));
		t.target = intern(b, st, 9);
		t.target_from = canon(b, intern(b, st, 11));
		t.target_codev = canon_lines(b, intern(b, st, 12));
		t.target_author = canon(b, intern(b, st, 18));
		t.series_scope = sqlite3_column_int(st, 19);
		onlist_review_judge(&t);
		c->tags++;
		c->reviews += !t.why_not &&
			      onlist_review_kind(t.key) == ONLIST_TAG_REVIEW;
		g_array_append_val(b->tags, t);
		g_array_append_val(b->tag_seq, seq);
		if (topic)
			g_array_append_val(bucket(b->topic_tags, topic, sizeof(guint)), k);
		if (!(put = onlist__store_prepare(s, sql_put_tag))) {
			sqlite3_reset(st);
			return fail(s, "prepare");
		}
		bind_text(put, 1, t.msgid);
		sqlite3_bind_int(put, 2, seq);
		for (int i = 3; i <= 6; i++)	/* key, name, addr, value */
			sqlite3_bind_value(put, i, sqlite3_column_value(st, i - 1));
		sqlite3_bind_value(put, 7, sqlite3_column_value(st, 6));
		sqlite3_bind_int64(put, 8, sqlite3_column_int64(st, 7));
		bind_text(put, 9, t.target);
		sqlite3_bind_value(put, 10, sqlite3_column_value(st, 10));
		for (int i = 11; i <= 15; i++)	/* series .. total */
			sqlite3_bind_value(put, i, sqlite3_column_value(st, i + 2));
		bind_text(put, 16, t.why_not);
		if (sqlite3_step(put) != SQLITE_DONE) {
			sqlite3_reset(st);
			return fail(s, "insert review tag");
		}
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "load review tags");
}

static onlist_status load_topics(struct build *b)
{
	struct onlist_store *s = b->s;
	sqlite3_stmt *st;
	int rc;

	if (!(st = onlist__store_prepare(s, sql_members[b->some])))
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_review_msg m;
		const char *cls = (const char *)sqlite3_column_text(st, 3);

		/* in a series and no patch: a cover letter, by its subject
		 * or by its place in the thread (thread.h) */
		if (cls && !strcmp(cls, "pull"))
			continue;
		m.msgid = intern(b, st, 0);
		m.series = intern(b, st, 1);
		m.cover = cls && strcmp(cls, "patch");
		m.from = canon(b, intern(b, st, 4));
		m.stripped = intern(b, st, 5);
		m.posting = 0;
		m.linked = 0;
		m.author = canon(b, intern(b, st, 6));
		m.codev = canon_lines(b, intern(b, st, 7));
		m.reply = sqlite3_column_int(st, 8);
		m.part = sqlite3_column_int(st, 9);
		m.total = sqlite3_column_int(st, 10);
		g_array_append_val(bucket(b->members, intern(b, st, 2),
					  sizeof m), m);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail(s, "load topics");
	if (!(st = onlist__store_prepare(s, sql_replies[b->some])))
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_review_reply r;

		const char *kind = (const char *)sqlite3_column_text(st, 5);
		const char *text = (const char *)sqlite3_column_text(st, 6);

		r.target = intern(b, st, 0);
		r.sender = canon(b, intern(b, st, 1));
		r.bot = sqlite3_column_int(st, 2);
		r.msgid = intern(b, st, 4);
		/* the built-in patterns decided at import; a robot's notice
		 * (patchwork-bot) and the rules file's patterns need the text */
		r.notice = kind && (!strcmp(kind, "notice") ||
			   (!strcmp(kind, "discussion") && text &&
			    (b->nnotice || r.bot) &&
			    onlist_reply_is_notice(text, b->notice, b->nnotice,
						   r.bot)));
		g_array_append_val(bucket(b->replies, intern(b, st, 3),
					  sizeof r), r);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail(s, "load replies");
	if (!(st = onlist__store_prepare(s, sql_trailers[b->some])))
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gtrailer g;
		const char *v = (const char *)sqlite3_column_text(st, 2);
		char *name = NULL, *addr = NULL, *line;

		if (!v)
			v = "";
		if (onlist_split_ident(v, strlen(v), &name, &addr)) {
			sqlite3_reset(st);
			return ONLIST_ENOMEM;
		}
		g.t.key = intern(b, st, 1);
		g.t.name = g_string_chunk_insert_const(b->str, name);
		g.t.addr = canon(b, g_string_chunk_insert_const(b->str, addr));
		g.t.bot = b->is_bot && *addr && b->is_bot(addr, b->bot_data);
		line = g_strdup_printf("%s: %s", g.t.key, v);
		g.line = g_string_chunk_insert_const(b->str, line);
		g_free(line);
		free(name);
		free(addr);
		g_array_append_val(bucket(b->trailers, intern(b, st, 0),
					  sizeof g), g);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "load trailers");
}

/* sha's commit date and the end of its postings' archive (review.h's
 * `unknown`); 0 when not known. */
static onlist_status coverage(struct build *b, const char *sha,
			      int64_t *landed, int64_t *end)
{
	sqlite3_stmt *st;
	int rc;

	*landed = *end = 0;
	/* each list's last mail is a pass over the whole archive: made once,
	 * for the first commit that needs it, and not at all by a run whose
	 * commits carry no review tag in git */
	if (!b->list_end) {
		if (sqlite3_exec(b->s->db, sql_list_end, NULL, NULL,
				 NULL) != SQLITE_OK)
			return fail(b->s, "find where the archive ends");
		b->list_end = 1;
	}
	if (!(st = onlist__store_prepare(b->s, sql_coverage)))
		return fail(b->s, "prepare");
	bind_text(st, 1, sha);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*landed = sqlite3_column_int64(st, 0);
		*end = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(b->s, "read where the archive ends");
}

/* Why the review is unknown, in a line (commit_review.why): "the
 * archive ends 2026-01-19, before the commit landed 2026-01-28; git
 * carries Acked-by: ...".  g_free() it. */
static char *unknown_why(const struct onlist_review_in *in, const char *line)
{
	char a[16], l[16];
	time_t ta = (time_t)in->archive_end, tl = (time_t)in->landed;
	struct tm tm;

	strftime(a, sizeof a, "%Y-%m-%d", gmtime_r(&ta, &tm));
	strftime(l, sizeof l, "%Y-%m-%d", gmtime_r(&tl, &tm));
	return g_strdup_printf("the archive ends %s, %s the commit landed %s;"
			       " git carries %s", a,
			       in->archive_end < in->landed ? "before" :
			       "less than a day after", l, line);
}

/* One commit: its postings' topics gathered, judged, written. */
static onlist_status one_commit(struct build *b, const char *sha,
				const char *author, const char *subject,
				GPtrArray *postings, GPtrArray *linked,
				GPtrArray *topics, struct onlist_review_counts *c)
{
	GArray *msgs = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_msg));
	GArray *tags = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_tag));
	GArray *tagk = g_array_new(FALSE, FALSE, sizeof(guint));
	GArray *reps = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_reply));
	GArray *gt = g_hash_table_lookup(b->trailers, sha);
	GArray *trs = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_trailer));
	struct onlist_review_in in;
	struct onlist_review_out out;
	struct onlist_review_tally tally = { NULL, NULL, NULL };
	unsigned char *off, *counted = NULL;
	char *why = NULL;
	GString *off_text = g_string_new(NULL);
	onlist_status ret;
	sqlite3_stmt *st;

	for (guint i = 0; i < topics->len; i++) {
		const char *t = g_ptr_array_index(topics, i);
		GArray *a;

		if ((a = g_hash_table_lookup(b->members, t)))
			g_array_append_vals(msgs, a->data, a->len);
		if ((a = g_hash_table_lookup(b->replies, t)))
			g_array_append_vals(reps, a->data, a->len);
		if ((a = g_hash_table_lookup(b->topic_tags, t)))
			for (guint k = 0; k < a->len; k++) {
				guint ti = g_array_index(a, guint, k);

				g_array_append_val(tags, g_array_index(b->tags,
					struct onlist_review_tag, ti));
				g_array_append_val(tagk, ti);
			}
	}
	for (guint i = 0; i < msgs->len; i++) {
		struct onlist_review_msg *m =
			&g_array_index(msgs, struct onlist_review_msg, i);

		for (guint k = 0; k < postings->len && !m->posting; k++)
			m->posting = !strcmp(m->msgid, g_ptr_array_index(postings, k));
		m->linked = 0;
		for (guint k = 0; k < linked->len && !m->linked; k++)
			m->linked = !strcmp(m->msgid, g_ptr_array_index(linked, k));
	}
	for (guint i = 0; gt && i < gt->len; i++)
		g_array_append_val(trs, g_array_index(gt, struct gtrailer, i).t);
	off = g_malloc0(trs->len ? trs->len : 1);
	in.author = canon(b, author);
	in.subject = subject;
	in.trailers = (const struct onlist_review_trailer *)(void *)trs->data;
	in.ntrailers = trs->len;
	in.msgs = (const struct onlist_review_msg *)(void *)msgs->data;
	in.nmsgs = msgs->len;
	in.tags = (const struct onlist_review_tag *)(void *)tags->data;
	in.ntags = tags->len;
	in.replies = (const struct onlist_review_reply *)(void *)reps->data;
	in.nreplies = reps->len;
	/* where the archive ends matters only for a review tag in git
	 * (review.h: unknown); without one, landed 0 never makes it */
	in.landed = in.archive_end = 0;
	for (guint i = 0; i < trs->len; i++)
		if (onlist_review_kind(g_array_index(trs,
		    struct onlist_review_trailer, i).key) == ONLIST_TAG_REVIEW) {
			ret = coverage(b, sha, &in.landed, &in.archive_end);
			if (ret != ONLIST_OK)
				goto out;
			break;
		}
	out.off_list = off;
	counted = g_malloc0(reps->len ? reps->len : 1);
	out.counted = counted;
	if ((ret = onlist_review_commit(&in, &out)) != ONLIST_OK)
		goto out;
	if (out.notice >= 0 &&
	    (ret = onlist__store_step(b->s, onlist__store_prepare(b->s, sql_put_notice),
				      "insert notice", "tt", sha,
				      g_array_index(reps, struct onlist_review_reply,
						    out.notice).msgid)) != ONLIST_OK)
		goto out;
	/* the replies lookup shows, by the same rule (review.c) */
	tally.replies = g_new0(int, msgs->len + 1);
	tally.repliers = g_new0(int, msgs->len + 1);
	tally.series_replies = g_new0(int, msgs->len + 1);
	if ((ret = onlist_review_tally(&in, counted, &tally)) != ONLIST_OK)
		goto out;
	for (guint i = 0; i < msgs->len; i++) {
		const struct onlist_review_msg *m =
			&g_array_index(msgs, struct onlist_review_msg, i);

		if (tally.series_replies[i] >= 0 &&
		    (ret = onlist__store_step(b->s, onlist__store_prepare(b->s,
					sql_put_series_replies), "insert series replies",
					"tti", sha, m->series,
					tally.series_replies[i])) != ONLIST_OK)
			goto out;
		if (m->posting &&
		    (ret = onlist__store_step(b->s, onlist__store_prepare(b->s,
					sql_put_posting), "insert posting replies",
					"ttii", sha, m->msgid, tally.replies[i],
					tally.repliers[i])) != ONLIST_OK)
			goto out;
	}
	for (guint i = 0; i < trs->len; i++)
		if (off[i])
			g_string_append_printf(off_text, "%s%s",
					       off_text->len ? "\n" : "",
					       g_array_index(gt, struct gtrailer, i).line);
	if (!(st = onlist__store_prepare(b->s, sql_put_review))) {
		ret = fail(b->s, "prepare");
		goto out;
	}
	bind_text(st, 1, sha);
	bind_text(st, 2, onlist_review_state_name(out.state));
	if (out.evidence >= 0) {
		guint ti = g_array_index(tagk, guint, out.evidence);

		bind_text(st, 3, g_array_index(b->tags, struct onlist_review_tag,
					       ti).msgid);
		sqlite3_bind_int(st, 4, g_array_index(b->tag_seq, int, ti));
	}
	sqlite3_bind_int(st, 5, out.naks);
	bind_text(st, 6, off_text->len ? off_text->str : NULL);
	if (out.untold >= 0) {
		why = unknown_why(&in, g_array_index(gt, struct gtrailer,
						     out.untold).line);
		bind_text(st, 7, why);
	}
	if (sqlite3_step(st) != SQLITE_DONE) {
		ret = fail(b->s, "insert commit review");
		goto out;
	}
	c->commits++;
	c->computed++;
	c->state[out.state]++;
out:
	g_free(tally.replies);
	g_free(tally.repliers);
	g_free(tally.series_replies);
	g_free(off);
	g_free(counted);
	g_free(why);
	g_string_free(off_text, TRUE);
	g_array_free(msgs, TRUE);
	g_array_free(tags, TRUE);
	g_array_free(tagk, TRUE);
	g_array_free(reps, TRUE);
	g_array_free(trs, TRUE);
	return ret;
}

static void add_unique(GPtrArray *a, const char *v)
{
	for (guint i = 0; i < a->len; i++)
		if (!strcmp(g_ptr_array_index(a, i), v))
			return;
	g_ptr_array_add(a, (gpointer)v);
}

static onlist_status each_commit(struct build *b, struct onlist_review_counts *c)
{
	struct onlist_store *s = b->s;
	GPtrArray *postings = g_ptr_array_new(), *topics = g_ptr_array_new();
	GPtrArray *linked = g_ptr_array_new();
	const char *sha = NULL, *author = "", *subject = "";
	onlist_status ret = ONLIST_OK;
	sqlite3_stmt *st;
	int rc;

	if (!(st = onlist__store_prepare(s, sql_commits[b->some]))) {
		ret = fail(s, "prepare");
		goto out;
	}
	/* one_commit() writes with other statements while this one reads:
	 * SQLite allows that (the rows written are not the ones read) */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *x = intern(b, st, 0);

		if (sha && strcmp(sha, x)) {
			if ((ret = one_commit(b, sha, author, subject, postings,
					      linked, topics, c)) != ONLIST_OK)
				break;
			g_ptr_array_set_size(postings, 0);
			g_ptr_array_set_size(linked, 0);
			g_ptr_array_set_size(topics, 0);
		}
		sha = x;
		author = intern(b, st, 2);
		subject = intern(b, st, 4);
		g_ptr_array_add(sqlite3_column_int(st, 5) ? postings : linked,
				(gpointer)intern(b, st, 1));
		if (sqlite3_column_type(st, 3) != SQLITE_NULL)
			add_unique(topics, intern(b, st, 3));
	}
	if (ret == ONLIST_OK && rc != SQLITE_DONE)
		ret = fail(s, "load posted commits");
	sqlite3_reset(st);
	if (ret == ONLIST_OK && sha)
		ret = one_commit(b, sha, author, subject, postings, linked,
				 topics, c);
out:
	g_ptr_array_free(postings, TRUE);
	g_ptr_array_free(linked, TRUE);
	g_ptr_array_free(topics, TRUE);
	return ret;
}

static void free_array(gpointer p)
{
	g_array_free(p, TRUE);
}

/* Only some commits are to be computed again: the thread build named
 * the topics it changed, the classes and the addresses' canonical forms
 * are those of the last review; temp.review_commits is filled.  0: all
 * of them (nothing deleted yet); -1: a database error. */
static int only_some(struct onlist_store *s, const char *canon_key)
{
	char *dirty = onlist_store_get_meta(s, "review_dirty");
	char *was = onlist_store_get_meta(s, "review_canon");
	char *rows = onlist_store_get_meta(s, "review_rows");
	sqlite3_stmt *st;
	int some = 0, old_posted = 0;
	long n = -1;

	if ((st = onlist__store_prepare(s, sql_has_old_posted))) {
		old_posted = sqlite3_step(st) == SQLITE_ROW &&
			     sqlite3_column_int(st, 0) > 0;
		sqlite3_reset(st);
	}
	/* the table as the last review left it (not emptied by an upgrade,
	 * nor by an older onlist) */
	if ((st = onlist__store_prepare(s, sql_count_reviews))) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int64(st, 0);
		sqlite3_reset(st);
	}
	if (!dirty || !strcmp(dirty, "*") || !was || strcmp(was, canon_key) ||
	    !old_posted || !rows || n < 0 || atol(rows) != n)
		goto out;
	some = -1;
	if (sqlite3_exec(s->db, sql_some_prepare, NULL, NULL, NULL) != SQLITE_OK)
		goto out;
	for (char *p = dirty; *p;) {
		char *e = strchr(p, '\n');

		if (e)
			*e = '\0';
		if (!(st = onlist__store_prepare(s, sql_put_topic)))
			goto out;
		bind_text(st, 1, p);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_reset(st);
			goto out;
		}
		sqlite3_reset(st);
		if (!e)
			break;
		p = e + 1;
	}
	if (sqlite3_exec(s->db, sql_some_commits, NULL, NULL, NULL) == SQLITE_OK)
		some = 1;
out:
	free(dirty);
	free(was);
	free(rows);
	return some;
}

static onlist_status exec(struct onlist_store *s, const char *sql,
			  const char *what)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ?
	       ONLIST_OK : fail(s, what);
}

static onlist_status count_states(struct onlist_store *s,
				  struct onlist_review_counts *c)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_states);
	int rc;

	c->commits = 0;
	memset(c->state, 0, sizeof(c->state));
	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		long n = sqlite3_column_int64(st, 1);

		for (int k = 0; k < ONLIST_REVIEW_NSTATES; k++)
			if (name && !strcmp(name, onlist_review_state_name(k)))
				c->state[k] += n;
		c->commits += n;
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "count review states");
}

/* n[0]: the mails whose reply kind is known; n[1]: of them, those
 * stored after message id upto (none when upto < 0); n[2]: the highest
 * message id. */
static const char sql_reply_counts[] =
	"SELECT (SELECT count(*) FROM message_reply),"
	" CASE WHEN ?1 < 0 THEN 0 ELSE (SELECT count(*) FROM messages m"
	"  JOIN message_reply r ON r.msgid = m.msgid WHERE m.id > ?1) END,"
	" (SELECT coalesce(max(id), 0) FROM messages)";

static onlist_status reply_counts(struct onlist_store *s, long long upto,
				  long long n[3])
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

onlist_status onlist_store_review_build(struct onlist_store *s,
					 onlist_canon_fn canon_fn, void *data,
					 const char *canon_key,
					 onlist_bot_addr_fn is_bot,
					 void *bot_data,
					 const char *const *notice,
					 size_t nnotice,
					 struct onlist_review_counts *c)
{
	struct build b = { 0 };
	struct onlist_review_counts dummy;
	onlist_status ret;
	int some;
	GString *key = g_string_new(canon_key), *was_key = g_string_new(canon_key);
	long long nr[3];
	char *upto = onlist_store_get_meta(s, "review_upto");

	/* what the notices are decided by: the replies' kinds (more come
	 * with mail imported again) and the rules file's patterns; when
	 * that changes, every commit is computed again.  The kinds of the
	 * mails stored since the last review (ids above review_upto) are
	 * not counted in the comparison: their topics are the thread
	 * build's to name (new mail is in review_dirty) */
	if ((ret = reply_counts(s, upto ? atoll(upto) : -1, nr)) != ONLIST_OK) {
		free(upto);
		g_string_free(key, TRUE);
		g_string_free(was_key, TRUE);
		return ret;
	}
	free(upto);
	g_string_append_printf(key, "\x1freplies %lld", nr[0]);
	g_string_append_printf(was_key, "\x1freplies %lld", nr[0] - nr[1]);
	for (size_t i = 0; i < nnotice; i++) {
		g_string_append_printf(key, "\x1fnotice %s", notice[i]);
		g_string_append_printf(was_key, "\x1fnotice %s", notice[i]);
	}
	canon_key = key->str;
	b.notice = notice;
	b.nnotice = nnotice;

	if (!c)
		c = &dummy;
	memset(c, 0, sizeof *c);
	b.s = s;
	b.canon = canon_fn;
	b.canon_data = data;
	b.is_bot = is_bot;
	b.bot_data = bot_data;
	b.str = g_string_chunk_new(1 << 16);
	b.tags = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_tag));
	b.tag_seq = g_array_new(FALSE, FALSE, sizeof(int));
	b.topic_tags = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, free_array);
	b.members = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, free_array);
	b.replies = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, free_array);
	b.trailers = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, free_array);
	/* the tags are few: always all of them */
	if ((some = only_some(s, was_key->str)) < 0)
		ret = fail(s, "choose the commits to review");
	else if (sqlite3_exec(s->db, sql_clear_tags, NULL, NULL, NULL) != SQLITE_OK ||
		 (!some && sqlite3_exec(s->db, sql_clear_commits, NULL, NULL,
					NULL) != SQLITE_OK))
		ret = fail(s, "clear reviews");
	else if (b.some = some, (ret = exec(s, some ? sql_links_some :
					    sql_links_all,
				"link the versions of the commits")) == ONLIST_OK &&
		 (ret = load_tags(&b, c)) == ONLIST_OK &&
		 (!some || (ret = exec(s, sql_some_topics,
				       "choose the commits to review")) == ONLIST_OK) &&
		 (ret = load_topics(&b)) == ONLIST_OK &&
		 (ret = each_commit(&b, c)) == ONLIST_OK &&
		 (ret = count_states(s, c)) == ONLIST_OK &&
		 (ret = onlist_store_set_meta(s, "review_dirty", "")) == ONLIST_OK &&
		 (ret = onlist_store_set_meta(s, "review_canon", canon_key)) == ONLIST_OK) {
		char n[32];

		snprintf(n, sizeof n, "%ld", c->commits);
		ret = onlist_store_set_meta(s, "review_rows", n);
		snprintf(n, sizeof n, "%lld", nr[2]);
		if (ret == ONLIST_OK)
			ret = onlist_store_set_meta(s, "review_upto", n);
	}
	g_hash_table_destroy(b.topic_tags);
	g_hash_table_destroy(b.members);
	g_hash_table_destroy(b.replies);
	g_hash_table_destroy(b.trailers);
	g_array_free(b.tags, TRUE);
	g_array_free(b.tag_seq, TRUE);
	g_string_chunk_free(b.str);
	g_string_free(key, TRUE);
	g_string_free(was_key, TRUE);
	return ret;
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
