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
	" coalesce((SELECT min(x.commit_sha) FROM matches x" \
	"   WHERE x.message_id = s.msgid), '')," \
	SKIP("i", "s.msgid") \
	" FROM series s JOIN messages m ON m.msgid = s.msgid" \
	" LEFT JOIN message_info i ON i.msgid = s.msgid" \
	" LEFT JOIN message_patch p ON p.msgid = s.msgid" where
/* in one order, the saved table's (ties between versions are settled by
 * it) */
static const char sql_members_all[] = MEMBERS(" ORDER BY s.topic, s.msgid");
static const char sql_members_one[] = MEMBERS(" WHERE s.topic = ?1"
					      " ORDER BY s.msgid");

typedef int (*member_cb)(const struct onlist_store_ignored_msg *m, void *data);

/* The rows of sql_all, or of sql_one for one topic: the fourteen columns
 * of a member in the order of MEMBERS and SAVED, and a fifteenth, skip,
 * when with_skip.  `what` names the read in an error. */
static onlist_status each_member(struct onlist_store *s, const char *sql_all,
				 const char *sql_one, const char *topic,
				 int with_skip, const char *what, member_cb cb,
				 void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, topic ? sql_one : sql_all);
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
		r.skip = with_skip ? sqlite3_column_int(st, 14) : 0;
		if (cb(&r, data))
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK : fail(s, what);
}

onlist_status onlist_store_ignored_members(struct onlist_store *s,
					   const char *topic,
					   int (*cb)(const struct onlist_store_ignored_msg *m,
						     void *data),
					   void *data)
{
	return each_member(s, sql_members_all, sql_members_one, topic, 1,
			   "read the series", cb, data);
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

/* ---- the saved judgement (schema 15) ------------------------------------ */

static const char sql_count_new[] =
	"SELECT coalesce((SELECT max(id) FROM messages), 0),"
	" (SELECT count(*) FROM message_reply),"
	" (SELECT count(*) FROM message_trailers),"
	" (SELECT count(*) FROM message_patch),"
	" (SELECT count(*) FROM messages m JOIN message_reply r"
	"  ON r.msgid = m.msgid WHERE m.id > ?1),"
	" (SELECT count(*) FROM messages m JOIN message_trailers r"
	"  ON r.msgid = m.msgid WHERE m.id > ?1),"
	" (SELECT count(*) FROM messages m JOIN message_patch r"
	"  ON r.msgid = m.msgid WHERE m.id > ?1)";

onlist_status onlist_store_ignored_counts(struct onlist_store *s, int64_t since,
					  int64_t out[7])
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_count_new);
	int rc;

	if (!st)
		return fail(s, "prepare");
	sqlite3_bind_int64(st, 1, since);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		for (int i = 0; i < 7; i++)
			out[i] = sqlite3_column_int64(st, i);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? ONLIST_OK : fail(s, "count the mail");
}

static const char sql_clear_all[] =
	"DELETE FROM ignored_msgs; DELETE FROM ignored_topics;";
static const char sql_clear_msgs[] = "DELETE FROM ignored_msgs WHERE topic = ?1";
static const char sql_clear_topic[] = "DELETE FROM ignored_topics WHERE topic = ?1";

onlist_status onlist_store_ignored_clear(struct onlist_store *s,
					 const char *topic)
{
	onlist_status st;

	if (!topic)
		return sqlite3_exec(s->db, sql_clear_all, NULL, NULL, NULL) ==
		       SQLITE_OK ? ONLIST_OK : fail(s, "clear the ignored topics");
	if ((st = onlist__store_step(s, onlist__store_prepare(s, sql_clear_msgs),
				     "clear an ignored topic", "t", topic)) != ONLIST_OK)
		return st;
	return onlist__store_step(s, onlist__store_prepare(s, sql_clear_topic),
				  "clear an ignored topic", "t", topic);
}

static const char sql_put_msg[] =
	"INSERT OR REPLACE INTO ignored_msgs(topic, msgid, series, date, list,"
	" from_addr, from_name, subject, author, codev, version, cover, files,"
	" commit_sha) VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14)";
static const char sql_put_topic[] =
	"INSERT OR REPLACE INTO ignored_topics(topic, answer, reply, reply_date,"
	" reply_from, reply_name) VALUES(?1,?2,?3,?4,?5,?6)";
/* a message that moved to another topic leaves its old one */
static const char sql_del_msgid[] =
	"DELETE FROM ignored_msgs WHERE msgid = ?1 AND topic <> ?2";

onlist_status onlist_store_ignored_put(struct onlist_store *s, const char *topic,
				       const struct onlist_ignored_msg *m,
				       size_t n, int answer,
				       const struct onlist_ignored_reply *r,
				       int fresh)
{
	onlist_status st = ONLIST_OK;

	for (size_t i = 0; i < n && st == ONLIST_OK; i++) {
		if (!fresh &&
		    (st = onlist__store_step(s, onlist__store_prepare(s, sql_del_msgid),
					     "save an ignored topic", "tt",
					     m[i].msgid, topic)) != ONLIST_OK)
			break;
		st = onlist__store_step(s, onlist__store_prepare(s, sql_put_msg),
					"save an ignored topic", "tttIttttttiitt",
					topic, m[i].msgid, m[i].series,
					(int64_t)m[i].date, m[i].list, m[i].from,
					m[i].from_name, m[i].subject, m[i].author,
					m[i].codev, m[i].version, m[i].cover,
					m[i].files, m[i].commit);
	}
	if (st == ONLIST_OK && n)
		st = onlist__store_step(s, onlist__store_prepare(s, sql_put_topic),
					"save an ignored topic", "titItt", topic,
					answer, r ? r->msgid : NULL,
					(int64_t)(r ? r->date : 0),
					r ? r->from : NULL, r ? r->from_name : NULL);
	return st;
}

/* the saved commit of a message is not the one the matches give now */
static const char sql_commit_changed[] =
	"SELECT DISTINCT g.topic FROM ignored_msgs g WHERE g.commit_sha IS NOT"
	" coalesce((SELECT min(x.commit_sha) FROM matches x"
	"  WHERE x.message_id = g.msgid), '')";

onlist_status onlist_store_ignored_commit_changed(struct onlist_store *s,
						  int (*cb)(const char *topic,
							    void *data),
						  void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_commit_changed);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(col(st, 0), data))
			break;
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "compare the matches");
}

#define SAVED(where) \
	"SELECT topic, series, msgid, date, list, from_addr, from_name," \
	" subject, author, codev, version, cover, files, commit_sha" \
	" FROM ignored_msgs" where " ORDER BY topic, msgid"
static const char sql_saved_all[] = SAVED("");
static const char sql_saved_one[] = SAVED(" WHERE topic = ?1");

onlist_status onlist_store_ignored_saved(struct onlist_store *s,
					 const char *topic,
					 int (*cb)(const struct onlist_store_ignored_msg *m,
						   void *data),
					 void *data)
{
	return each_member(s, sql_saved_all, sql_saved_one, topic, 0,
			   "read the ignored topics", cb, data);
}

#define ANSWERS(where) \
	"SELECT topic, answer, coalesce(reply, ''), coalesce(reply_date, 0)," \
	" coalesce(reply_from, ''), coalesce(reply_name, '')" \
	" FROM ignored_topics WHERE answer <> 0" where
static const char sql_answers_all[] = ANSWERS("");
static const char sql_answers_one[] = ANSWERS(" AND topic = ?1");

onlist_status onlist_store_ignored_answers(struct onlist_store *s,
					   const char *topic,
					   int (*cb)(const char *topic, int answer,
						     const struct onlist_ignored_reply *r,
						     void *data),
					   void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, topic ? sql_answers_one :
						 sql_answers_all);
	int rc;

	if (!st)
		return fail(s, "prepare");
	if (topic)
		onlist__bind_text(st, 1, topic);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_ignored_reply r = { 0 };

		r.msgid = col(st, 2);
		r.target = "";
		r.date = sqlite3_column_int64(st, 3);
		r.from = col(st, 4);
		r.from_name = col(st, 5);
		r.notice = sqlite3_column_int(st, 1) == 2;
		if (cb(col(st, 0), sqlite3_column_int(st, 1), &r, data))
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read the ignored topics");
}

static const char sql_later[] =
	"SELECT DISTINCT topic FROM ignored_msgs WHERE from_addr = ?1"
	" AND date > ?2 AND date < ?3 AND NOT cover"
	" UNION SELECT topic FROM ignored_msgs WHERE author = ?1 AND author <> ''"
	" AND date > ?2 AND date < ?3 AND NOT cover";

onlist_status onlist_store_ignored_later(struct onlist_store *s, const char *who,
					 int64_t after, int64_t before,
					 int (*cb)(const char *topic, void *data),
					 void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_later);
	int rc;

	if (!st)
		return fail(s, "prepare");
	onlist__bind_text(st, 1, who);
	sqlite3_bind_int64(st, 2, after);
	sqlite3_bind_int64(st, 3, before);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(col(st, 0), data))
			break;
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read the later patches");
}

static const char sql_file_topics[] =
	"SELECT count(*) FROM (SELECT DISTINCT topic FROM ignored_msgs"
	" WHERE NOT cover AND instr(char(10) || files || char(10),"
	" char(10) || ?1 || char(10)) > 0 LIMIT ?2)";

onlist_status onlist_store_ignored_file_topics(struct onlist_store *s,
					       const char *path, long limit,
					       long *n)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_file_topics);
	int rc;

	*n = 0;
	if (!st)
		return fail(s, "prepare");
	onlist__bind_text(st, 1, path);
	sqlite3_bind_int64(st, 2, limit);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		*n = (long)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? ONLIST_OK : fail(s, "count the topics of a file");
}
