/* store_ignored.c - the SQL behind onlist ignored (store_ignored.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "onlist/store_ignored.h"
#include "store_int.h"

#define fail onlist__store_fail

static const char *col(sqlite3_stmt *st, int i)
{
	const char *v = (const char *)sqlite3_column_text(st, i);

	return v ? v : "";
}

static const char sql_commits[] =
	"SELECT coalesce(commit_date, 0), coalesce(files, '') FROM commits";

onlist_status onlist_store_ignored_commits(struct onlist_store *s,
					   int (*cb)(int64_t date,
						     const char *files,
						     void *data),
					   void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_commits);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(sqlite3_column_int64(st, 0), col(st, 1), data))
			break;
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read the commits");
}

/* A message that heads no topic of its own: pull requests, echo and bot
 * mails, stable backports, reviewers' diffs sent as replies. */
#define SKIP(i, id) \
	" (coalesce(" i ".class, '') = 'pull' OR coalesce(" i ".reply, 0)" \
	"  OR coalesce(" i ".upstream, 0)" \
	"  OR EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = " id "))"
/* Any match: a late one (posted after the commit landed) says the patch
 * is in the history as much as any other */
#define MEMBERS(where) \
	"SELECT s.topic, s.series, s.msgid, coalesce(m.date, 0)," \
	" coalesce(m.list, ''), coalesce(lower(m.from_addr), '')," \
	" coalesce(m.from_name, ''), coalesce(m.subject, '')," \
	" coalesce((SELECT lower(au.addr) FROM message_author au" \
	"   WHERE au.msgid = s.msgid), '')," \
	" coalesce((SELECT group_concat(lower(c.addr), char(10))" \
	"   FROM message_trailers c WHERE c.msgid = s.msgid" \
	"   AND lower(c.key) = 'co-developed-by' AND c.addr <> ''), '')," \
	" coalesce(i.version, 1), coalesce(i.class, 'patch') <> 'patch'," \
	" coalesce(p.files, '')," \
	" coalesce((SELECT x.commit_sha FROM matches x" \
	"   WHERE x.message_id = s.msgid LIMIT 1), '')," \
	SKIP("i", "s.msgid") \
	" FROM series s JOIN messages m ON m.msgid = s.msgid" \
	" LEFT JOIN message_info i ON i.msgid = s.msgid" \
	" LEFT JOIN message_patch p ON p.msgid = s.msgid" where
static const char sql_members_all[] = MEMBERS(" ORDER BY s.topic");
static const char sql_members_one[] = MEMBERS(" WHERE s.topic = ?1");

onlist_status onlist_store_ignored_members(struct onlist_store *s,
					   const char *topic,
					   int (*cb)(const struct onlist_store_ignored_msg *m,
						     void *data),
					   void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, topic ? sql_members_one :
						 sql_members_all);
	int rc;

	if (!st)
		return fail(s, "prepare");
	if (topic)
		onlist__bind_text(st, 1, topic);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_ignored_msg r;

		r.topic = col(st, 0);
		r.m.series = col(st, 1);
		r.m.msgid = col(st, 2);
		r.m.date = sqlite3_column_int64(st, 3);
		r.m.list = col(st, 4);
		r.m.from = col(st, 5);
		r.m.from_name = col(st, 6);
		r.m.subject = col(st, 7);
		r.m.author = col(st, 8);
		r.m.codev = col(st, 9);
		r.m.version = sqlite3_column_int(st, 10);
		r.m.cover = sqlite3_column_int(st, 11);
		r.m.files = col(st, 12);
		r.m.commit = col(st, 13);
		r.skip = sqlite3_column_int(st, 14);
		if (cb(&r, data))
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read the series");
}

/* A message that answers (store_review.c's rule): a reply, or a "Re:"
 * that carries a diff; not a cover letter found by its place. */
#define ANSWERING(i) " ((" i ".class IN ('reply', 'other') AND NOT EXISTS" \
	" (SELECT 1 FROM series sc WHERE sc.msgid = " i ".msgid)) OR" \
	" (" i ".class = 'patch' AND coalesce(" i ".reply, 0)))"
#define REPLIES(where) \
	"SELECT s.topic, th.msgid, th.answers, coalesce(m.date, 0)," \
	" coalesce(lower(m.from_addr), ''), coalesce(m.from_name, '')," \
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = th.msgid)," \
	" coalesce(r.kind, ''), coalesce(r.text, '')" \
	" FROM series s JOIN thread th ON th.answers = s.msgid" \
	" JOIN message_info i ON i.msgid = th.msgid AND" ANSWERING("i") \
	" JOIN messages m ON m.msgid = th.msgid" \
	" LEFT JOIN message_reply r ON r.msgid = th.msgid" where
/* in no order: the caller finds each one's topic in a table */
static const char sql_replies_all[] = REPLIES("");
static const char sql_replies_one[] = REPLIES(" WHERE s.topic = ?1");

onlist_status onlist_store_ignored_replies(struct onlist_store *s,
					   const char *topic,
					   int (*cb)(const struct onlist_store_ignored_reply *r,
						     void *data),
					   void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, topic ? sql_replies_one :
						 sql_replies_all);
	int rc;

	if (!st)
		return fail(s, "prepare");
	if (topic)
		onlist__bind_text(st, 1, topic);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_ignored_reply r;

		r.topic = col(st, 0);
		r.r.msgid = col(st, 1);
		r.r.target = col(st, 2);
		r.r.date = sqlite3_column_int64(st, 3);
		r.r.from = col(st, 4);
		r.r.from_name = col(st, 5);
		r.r.bot = sqlite3_column_int(st, 6);
		r.r.notice = 0;
		r.kind = col(st, 7);
		r.text = col(st, 8);
		if (cb(&r, data))
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read the replies");
}

/* The replies to the messages of temp.ignored_targets only: on a real
 * list most topics are applied or another project's, and the replies
 * to them (most of the mail) need not be read. */
static const char sql_targets_make[] =
	"CREATE TEMP TABLE IF NOT EXISTS ignored_targets(msgid TEXT PRIMARY KEY)"
	" WITHOUT ROWID; DELETE FROM temp.ignored_targets;";
static const char sql_target_put[] =
	"INSERT OR IGNORE INTO temp.ignored_targets(msgid) VALUES(?1)";
static const char sql_targets_drop[] = "DROP TABLE IF EXISTS temp.ignored_targets";
static const char sql_replies_targets[] =
	"SELECT '', th.msgid, th.answers, coalesce(m.date, 0),"
	" coalesce(lower(m.from_addr), ''), coalesce(m.from_name, ''),"
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = th.msgid),"
	" coalesce(r.kind, ''), coalesce(r.text, '')"
	" FROM temp.ignored_targets t JOIN thread th ON th.answers = t.msgid"
	" JOIN message_info i ON i.msgid = th.msgid AND" ANSWERING("i")
	" JOIN messages m ON m.msgid = th.msgid"
	" LEFT JOIN message_reply r ON r.msgid = th.msgid";

onlist_status onlist_store_ignored_replies_to(struct onlist_store *s,
					      const char *const *msgids, size_t n,
					      int (*cb)(const struct onlist_store_ignored_reply *r,
							void *data),
					      void *data)
{
	sqlite3_stmt *st;
	onlist_status ret = ONLIST_OK;
	int rc;

	if (sqlite3_exec(s->db, sql_targets_make, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "make a temporary table");
	for (size_t i = 0; i < n && ret == ONLIST_OK; i++)
		ret = onlist__store_step(s, onlist__store_prepare(s, sql_target_put),
					 "insert a target", "t", msgids[i]);
	if (ret != ONLIST_OK)
		goto out;
	if (!(st = onlist__store_prepare(s, sql_replies_targets))) {
		ret = fail(s, "prepare");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_ignored_reply r;

		r.topic = "";
		r.r.msgid = col(st, 1);
		r.r.target = col(st, 2);
		r.r.date = sqlite3_column_int64(st, 3);
		r.r.from = col(st, 4);
		r.r.from_name = col(st, 5);
		r.r.bot = sqlite3_column_int(st, 6);
		r.r.notice = 0;
		r.kind = col(st, 7);
		r.text = col(st, 8);
		if (cb(&r, data))
			break;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = fail(s, "read the replies");
out:
	/* the statements that name it go before it does */
	sqlite3_reset(onlist__store_prepare(s, sql_target_put));
	sqlite3_exec(s->db, sql_targets_drop, NULL, NULL, NULL);
	return ret;
}

static const char sql_topic[] =
	"SELECT coalesce((SELECT topic FROM series WHERE msgid = ?1),"
	" (SELECT s.topic FROM thread th JOIN series s ON s.msgid = th.answers"
	"  WHERE th.msgid = ?1))";

onlist_status onlist_store_ignored_topic(struct onlist_store *s,
					 const char *msgid, char **topic)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_topic);
	const char *t;
	int rc;

	*topic = NULL;
	if (!st)
		return fail(s, "prepare");
	onlist__bind_text(st, 1, msgid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && (t = (const char *)sqlite3_column_text(st, 0)) &&
	    !(*topic = strdup(t))) {
		sqlite3_reset(st);
		return ONLIST_ENOMEM;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? ONLIST_OK : fail(s, "read the topic");
}
