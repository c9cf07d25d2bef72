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

/* sql_one with topic bound to ?1, or sql_all when topic is NULL; NULL
 * when it cannot be prepared (the handle's message set). */
static sqlite3_stmt *prepare_topic(struct onlist_store *s, const char *sql_all,
				   const char *sql_one, const char *topic)
{
	sqlite3_stmt *st = onlist__store_prepare(s, topic ? sql_one : sql_all);

	if (st && topic)
		onlist__bind_text(st, 1, topic);
	return st;
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
 * is in the history as much as any other.  The fourteen columns of
 * ignored_msgs, in the order of member_cols. */
#define MEMBER_COLS \
	" s.topic, s.series, s.msgid, coalesce(m.date, 0)," \
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
	"   WHERE x.message_id = s.msgid), '')"
#define MEMBERS_FROM(join) \
	" FROM series s" join "messages m ON m.msgid = s.msgid" \
	" LEFT JOIN message_info i ON i.msgid = s.msgid" \
	" LEFT JOIN message_patch p ON p.msgid = s.msgid"
#define MEMBERS(join, where) \
	"SELECT" MEMBER_COLS "," SKIP("i", "s.msgid") MEMBERS_FROM(join) where
/* in one order, the saved table's (ties between versions are settled by
 * it) */
/* All of them: series read in its own order (the Message-ID's), so that
 * the lookups beside each row walk their tables' keys in order too, and
 * sorted after (in the order of series_topic, which the planner would
 * walk instead: each lookup a jump; 1,000,000 x 100,000 LKML shape,
 * sqlite3 shell: 5.0 s CPU -> 2.1 s); series walked (CROSS JOIN), not
 * the Message-ID index of messages, three times its size */
static const char sql_members_all[] = MEMBERS(" CROSS JOIN ",
					      " WHERE s.msgid >= ''"
					      " ORDER BY +s.topic, s.msgid");
static const char sql_members_one[] = MEMBERS(" JOIN ", " WHERE s.topic = ?1"
					      " ORDER BY s.msgid");

/* A whole save (store_ignored.h): the members none skips written as
 * read, in the saved table's order (each row appended), and the row of
 * each topic a commit has (its replies decide nothing), without a trip
 * through C for each (1,000,000 x 100,000 LKML shape, perf: each row
 * copied in C and bound back, 1.3 s of the phase's 7.8 s CPU; the
 * statement costs about what the read did alone) */
static const char sql_save_all[] =
	"INSERT OR REPLACE INTO ignored_msgs(topic, series, msgid, date, list,"
	" from_addr, from_name, subject, author, codev, version, cover, files,"
	" commit_sha) SELECT" MEMBER_COLS MEMBERS_FROM(" CROSS JOIN ")
	" WHERE s.msgid >= '' AND NOT" SKIP("i", "s.msgid")
	" ORDER BY +s.topic, s.msgid";
static const char sql_save_applied[] =
	"INSERT OR REPLACE INTO ignored_topics(topic, answer, reply, reply_date,"
	" reply_from, reply_name) SELECT DISTINCT topic, 0, NULL, 0, NULL, NULL"
	" FROM ignored_msgs WHERE commit_sha <> ''";

onlist_status onlist_store_ignored_save_all(struct onlist_store *s,
					    long *applied)
{
	*applied = 0;
	if (sqlite3_exec(s->db, sql_save_all, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(s->db, sql_save_applied, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "save the ignored topics");
	*applied = (long)sqlite3_changes(s->db);
	return ONLIST_OK;
}

/* The columns of a member, in the order of MEMBERS and SAVED. */
#define M(type, field) { type, offsetof(struct onlist_store_ignored_msg, field) }
static const struct onlist__column member_cols[] = {
	M('e', topic), M('e', m.series), M('e', m.msgid), M('I', m.date),
	M('e', m.list), M('e', m.from), M('e', m.from_name), M('e', m.subject),
	M('e', m.author), M('e', m.codev), M('i', m.version), M('i', m.cover),
	M('e', m.files), M('e', m.commit), { 0, 0 }
};
#undef M

#define SAVED(where) \
	"SELECT topic, series, msgid, date, list, from_addr, from_name," \
	" subject, author, codev, version, cover, files, commit_sha" \
	" FROM ignored_msgs" where " ORDER BY topic, msgid"
static const char sql_saved_all[] = SAVED("");
static const char sql_saved_one[] = SAVED(" WHERE topic = ?1");
/* the saved members of the topics with no row yet (a whole save's,
 * after onlist_store_ignored_save_all()) */
#define WAITING(g) " NOT EXISTS (SELECT 1 FROM ignored_topics t" \
	" WHERE t.topic = " g ".topic)"
static const char sql_saved_waiting[] = SAVED(" g WHERE" WAITING("g"));

onlist_status onlist_store_ignored_members(struct onlist_store *s, int saved,
					   const char *topic,
					   onlist_store_ignored_msg_cb cb,
					   void *data)
{
	sqlite3_stmt *st = saved == 2 ? onlist__store_prepare(s, sql_saved_waiting) :
		saved ? prepare_topic(s, sql_saved_all, sql_saved_one, topic) :
		prepare_topic(s, sql_members_all, sql_members_one, topic);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_ignored_msg r;

		/* the fourteen columns of MEMBERS and SAVED, and skip */
		onlist__store_columns(st, &r, member_cols);
		r.skip = saved ? 0 : sqlite3_column_int(st, 14);
		if (cb(&r, data))
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, saved ? "read the ignored topics" : "read the series");
}

/* ANSWERING(): a message that answers, by the review's rule (store_int.h) */
/* A reply's columns, and the joins after its thread row th: the order
 * reply_rows() reads. */
#define REPLY_COLS \
	"SELECT th.msgid, th.answers, coalesce(m.date, 0)," \
	" coalesce(lower(m.from_addr), ''), coalesce(m.from_name, '')," \
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = th.msgid)," \
	" coalesce(r.kind, ''), coalesce(r.text, '')"
#define REPLY_JOINS \
	" JOIN message_info i ON i.msgid = th.msgid AND" ANSWERING("i") \
	" JOIN messages m ON m.msgid = th.msgid" \
	" LEFT JOIN message_reply r ON r.msgid = th.msgid"

/* REPLY_COLS' columns. */
#define R(type, field) { type, offsetof(struct onlist_store_ignored_reply, field) }
static const struct onlist__column reply_cols[] = {
	R('e', r.msgid), R('e', r.target), R('I', r.date),
	R('e', r.from), R('e', r.from_name), R('i', r.bot), R('e', kind),
	R('e', text), { 0, 0 }
};
#undef R

/* Each row of st (REPLY_COLS) to cb, until it returns non-zero. */
static onlist_status reply_rows(struct onlist_store *s, sqlite3_stmt *st,
				onlist_store_ignored_reply_cb cb, void *data)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_ignored_reply r;

		onlist__store_columns(st, &r, reply_cols);
		r.r.notice = 0;
		r.n = sqlite3_column_count(st) > 8 ? sqlite3_column_int64(st, 8) : -1;
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
static const char sql_targets_drop[] =
	"DROP TABLE IF EXISTS temp.ignored_targets;";
/* from the targets (CROSS JOIN keeps them the outer loop): the planner,
 * knowing nothing of the temporary table, would scan message_info whole
 * for each call (a thousand calls after new mail: 3 s) */
static const char sql_replies_targets[] =
	REPLY_COLS " FROM temp.ignored_targets t"
	" CROSS JOIN thread th ON th.answers = t.msgid" REPLY_JOINS;

static onlist_status replies(struct onlist_store *s, const char *sql,
			     const char *const *msgids, size_t n,
			     onlist_store_ignored_reply_cb cb, void *data)
{
	sqlite3_stmt *st;
	onlist_status ret = ONLIST_OK;

	if (sqlite3_exec(s->db, sql_targets_make, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "make a temporary table");
	for (size_t i = 0; i < n && ret == ONLIST_OK; i++)
		ret = onlist__store_step(s, onlist__store_prepare(s, sql_target_put),
					 "insert a target", "t", msgids[i]);
	if (ret != ONLIST_OK)
		goto out;
	if (!(st = onlist__store_prepare(s, sql))) {
		ret = fail(s, "prepare");
		goto out;
	}
	ret = reply_rows(s, st, cb, data);
out:
	/* the statements that name the table go before it does
	 * (reply_rows() reset the other) */
	sqlite3_reset(onlist__store_prepare(s, sql_target_put));
	return ret;
}

onlist_status onlist_store_ignored_replies_to(struct onlist_store *s,
					      const char *const *msgids, size_t n,
					      onlist_store_ignored_reply_cb cb,
					      void *data)
{
	return replies(s, sql_replies_targets, msgids, n, cb, data);
}

/* A whole save's replies: from one pass over the thread table in its
 * own order (the lookups beside each row in key order, as the members';
 * for targets that are most of the series, on 1,000,000 x 100,000, 5.9 s
 * CPU -> 2.8 s), each reply's target asked of the caller's place() as
 * the row is read, before any look-up (the targets were a temporary
 * table filled from the saved members, sorted twice: by topic for their
 * places, by Message-ID for the table; 0.7 s of the phase's 7.2 s CPU on
 * that archive).  CROSS JOIN: the look-ups in this order. */
static const char sql_replies_waiting[] =
	REPLY_COLS ", onlist_ignored_place(th.answers) FROM thread th"
	" CROSS JOIN message_info i ON i.msgid = th.msgid AND" ANSWERING("i")
	" CROSS JOIN messages m ON m.msgid = th.msgid"
	" LEFT JOIN message_reply r ON r.msgid = th.msgid"
	" WHERE th.msgid >= '' AND th.answers IS NOT NULL"
	" AND onlist_ignored_place(th.answers) >= 0";

/* what onlist_ignored_place() calls */
struct place_fn {
	long (*place)(const char *msgid, void *data);
	void *data;
};

/* onlist_ignored_place(msgid): the caller's place of it, NULL when it
 * has none */
static void place_sql(sqlite3_context *c, int argc, sqlite3_value **argv)
{
	const struct place_fn *p = sqlite3_user_data(c);
	const char *id = (const char *)sqlite3_value_text(argv[0]);
	long n = id ? p->place(id, p->data) : -1;

	(void)argc;
	if (n >= 0)
		sqlite3_result_int64(c, n);
	else
		sqlite3_result_null(c);
}

onlist_status onlist_store_ignored_replies_waiting(struct onlist_store *s,
						   long (*place)(const char *msgid,
								 void *data),
						   onlist_store_ignored_reply_cb cb,
						   void *data)
{
	struct place_fn p = { place, data };
	sqlite3_stmt *st = NULL;
	onlist_status ret;

	/* the function lives as long as the statement: prepared here, not
	 * kept with the others */
	if (sqlite3_create_function(s->db, "onlist_ignored_place", 1,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC, &p,
				    place_sql, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(s->db, sql_replies_waiting, -1, &st, NULL)
	    != SQLITE_OK)
		ret = fail(s, "prepare");
	else
		ret = reply_rows(s, st, cb, data);
	sqlite3_finalize(st);
	sqlite3_create_function(s->db, "onlist_ignored_place", 1, SQLITE_UTF8,
				NULL, NULL, NULL, NULL);
	return ret;
}

void onlist_store_ignored_targets_drop(struct onlist_store *s)
{
	sqlite3_exec(s->db, sql_targets_drop, NULL, NULL, NULL);
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
	ONLIST__ROWS("message_reply") "," ONLIST__ROWS("message_trailers") ","
	ONLIST__ROWS("message_patch") ","
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

onlist_status onlist_store_ignored_index_drop(struct onlist_store *s,
					      char **saved)
{
	return onlist__store_indexes_drop(s, "ignored_msgs", saved);
}

onlist_status onlist_store_ignored_index_make(struct onlist_store *s,
					      const char *saved)
{
	return onlist__store_indexes_make(s, saved);
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

onlist_status onlist_store_ignored_put_msgs(struct onlist_store *s,
					    const char *topic,
					    const struct onlist_ignored_msg *m,
					    size_t n, int fresh)
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
	return st;
}

onlist_status onlist_store_ignored_put_topic(struct onlist_store *s,
					     const char *topic, int answer,
					     const struct onlist_ignored_reply *r)
{
	return onlist__store_step(s, onlist__store_prepare(s, sql_put_topic),
				  "save an ignored topic", "titItt", topic,
				  answer, r ? r->msgid : NULL,
				  (int64_t)(r ? r->date : 0),
				  r ? r->from : NULL, r ? r->from_name : NULL);
}

onlist_status onlist_store_ignored_put(struct onlist_store *s, const char *topic,
				       const struct onlist_ignored_msg *m,
				       size_t n, int answer,
				       const struct onlist_ignored_reply *r,
				       int fresh)
{
	onlist_status st = onlist_store_ignored_put_msgs(s, topic, m, n, fresh);

	if (st == ONLIST_OK && n)
		st = onlist_store_ignored_put_topic(s, topic, answer, r);
	return st;
}

/* The text of each row's first column (a topic) to cb, until it returns
 * non-zero; `what` names the read in an error. */
static onlist_status topic_rows(struct onlist_store *s, sqlite3_stmt *st,
				const char *what,
				onlist_store_ignored_topic_cb cb,
				void *data)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(col(st, 0), data))
			break;
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK : fail(s, what);
}

/* The saved commit of a message is not the one the matches give now.
 * The rows were saved from the last run's matches and only match writes
 * either, so only a message whose matches differ from those can have
 * another commit: those are looked up by message, not every saved row
 * read (the table grows with the archive, the difference with the
 * change).  After new mail the tiers log what they change (a key whose
 * ops do not cancel out differs, temp.match_log, store_match.c); a
 * whole run compares with the copy it made (temp.old_matches). */
#define COMMIT_CHANGED(changed) \
	"SELECT DISTINCT g.topic FROM ignored_msgs g" \
	" WHERE g.msgid IN (" changed ")" \
	" AND g.commit_sha IS NOT" \
	" coalesce((SELECT min(x.commit_sha) FROM matches x" \
	"  WHERE x.message_id = g.msgid), '')"
static const char sql_commit_changed[] = COMMIT_CHANGED(
	"SELECT o.message_id FROM temp.old_matches o"
	"  WHERE NOT EXISTS (SELECT 1 FROM matches x"
	"   WHERE x.commit_sha = o.commit_sha AND x.message_id = o.message_id"
	"   AND x.method = o.method)"
	"  UNION SELECT x.message_id FROM matches x"
	"  WHERE NOT EXISTS (SELECT 1 FROM temp.old_matches o"
	"   WHERE o.method = x.method AND o.commit_sha = x.commit_sha"
	"   AND o.message_id = x.message_id)");
static const char sql_commit_changed_log[] = COMMIT_CHANGED(
	"SELECT message_id FROM temp.match_log"
	"  GROUP BY commit_sha, message_id, method HAVING sum(op) <> 0");
#undef COMMIT_CHANGED
static const char sql_logged[] =
	"SELECT EXISTS (SELECT 1 FROM temp.sqlite_master"
	" WHERE type = 'table' AND name = 'match_log')";

onlist_status onlist_store_ignored_commit_changed(struct onlist_store *s,
						  onlist_store_ignored_topic_cb cb,
						  void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_logged);
	int logged;

	if (!st || sqlite3_step(st) != SQLITE_ROW) {
		if (st)
			sqlite3_reset(st);
		return fail(s, "compare the matches");
	}
	logged = sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	if (!(st = onlist__store_prepare(s, logged ? sql_commit_changed_log :
					 sql_commit_changed)))
		return fail(s, "prepare");
	return topic_rows(s, st, "compare the matches", cb, data);
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
	sqlite3_stmt *st = prepare_topic(s, sql_answers_all, sql_answers_one,
					 topic);
	int rc;

	if (!st)
		return fail(s, "prepare");
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
					 onlist_store_ignored_topic_cb cb,
					 void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_later);

	if (!st)
		return fail(s, "prepare");
	onlist__bind_text(st, 1, who);
	sqlite3_bind_int64(st, 2, after);
	sqlite3_bind_int64(st, 3, before);
	return topic_rows(s, st, "read the later patches", cb, data);
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

/* the index ignored_msgs_date holds the key: no row is read */
static const char sql_dated[] =
	"SELECT DISTINCT topic FROM ignored_msgs"
	" WHERE date >= ?1 AND date < ?2 ORDER BY topic";

onlist_status onlist_store_ignored_dated(struct onlist_store *s, int64_t from,
					 int64_t to,
					 onlist_store_ignored_topic_cb cb,
					 void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_dated);

	if (!st)
		return fail(s, "prepare");
	sqlite3_bind_int64(st, 1, from);
	sqlite3_bind_int64(st, 2, to);
	return topic_rows(s, st, "read the topics of a period", cb, data);
}

static const char sql_patch_files[] =
	"SELECT topic, files FROM ignored_msgs WHERE NOT cover ORDER BY topic";

onlist_status onlist_store_ignored_patch_files(struct onlist_store *s,
					       int (*cb)(const char *topic,
							 const char *files,
							 void *data),
					       void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_patch_files);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb(col(st, 0), col(st, 1), data))
			break;
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read the files of the ignored topics");
}
