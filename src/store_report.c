/* store_report.c - the SQL behind landing, report, stats and export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "onlist/report.h"
#include "store_int.h"

/* Part of the schema list in store.c (schema 3). */
const char onlist__report_schema[] =
	/* Where each commit landed on the mainline: the first-parent commit
	 * that brought it in (itself when applied directly). */
	"CREATE TABLE IF NOT EXISTS landing(\n"
	"  sha TEXT PRIMARY KEY,\n"
	"  landed_date INTEGER NOT NULL,\n"
	"  merge_sha TEXT NOT NULL,\n"
	"  merge_subject TEXT);\n"
	"CREATE INDEX IF NOT EXISTS landing_date ON landing(landed_date);\n";

static const char put_landing_sql[] =
	"INSERT OR REPLACE INTO landing(sha, landed_date, merge_sha,"
	" merge_subject) VALUES(?1, ?2, ?3, ?4)";

onlist_status onlist_store_put_landing(struct onlist_store *s,
				       const struct onlist_landing *l)
{
	sqlite3_stmt *st = onlist__store_prepare(s, put_landing_sql);

	if (!st)
		return ONLIST_EDB;
	onlist__bind_text(st, 1, l->sha);
	sqlite3_bind_int64(st, 2, l->landed_date);
	onlist__bind_text(st, 3, l->merge_sha);
	onlist__bind_text(st, 4, l->merge_subject);
	if (sqlite3_step(st) != SQLITE_DONE)
		return onlist__store_fail(s, "insert landing");
	return ONLIST_OK;
}

/* What makes a commit posted (store_int.h). */
#define POSTED ONLIST__POSTED("x.method")

/* Replies come from one of two places.  When the thread tables exist
 * (`replies`: patch, reply, by_author; `message_trailers`: the trailers of
 * each mail), they are used, review tags in replies included.  Otherwise
 * replies are found by In-Reply-To alone, gathered once per connection
 * into an indexed temporary table (messages.in_reply_to has no index of
 * its own, and one pass over the messages beats one per commit), and a
 * reply that carries a patch is taken for a series' next patch, not a
 * review; review tags are then unknown. */
static const char replies_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS onlist_replies AS"
	" SELECT msgid, in_reply_to, from_name, from_addr, date FROM messages"
	" WHERE in_reply_to IS NOT NULL AND in_reply_to <> '' AND NOT has_patch;"
	"CREATE INDEX IF NOT EXISTS temp.onlist_replies_parent"
	" ON onlist_replies(in_reply_to);";

static const char has_threads_sql[] =
	"SELECT count(*) FROM sqlite_master WHERE type = 'table'"
	" AND name IN ('replies', 'message_trailers')";

/* 1 when the thread tables exist, 0 when the fallback is ready, -1 on
 * error (message set). */
static int need_replies(struct onlist_store *s)
{
	sqlite3_stmt *st = onlist__store_prepare(s, has_threads_sql);
	int n = 0;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	if (n == 2)
		return 1;
	if (sqlite3_exec(s->db, replies_sql, NULL, NULL, NULL) != SQLITE_OK) {
		onlist__store_fail(s, "gather replies");
		return -1;
	}
	return 0;
}

#define REPORT_COLS(REPLIES, REVIEWS) \
	"SELECT c.sha, c.subject, c.author_name, c.author_email," \
	" c.committer_name, c.committer_email, c.author_date, c.commit_date," \
	" c.body_empty, c.files," \
	" (SELECT group_concat(key || ': ' || value, char(10)) FROM" \
	"   (SELECT key, value FROM trailers t WHERE t.sha = c.sha ORDER BY seq))," \
	" l.landed_date, l.merge_sha, l.merge_subject," \
	" (SELECT count(*) FROM matches x WHERE x.commit_sha = c.sha AND " POSTED ")," \
	" (SELECT count(*) FROM matches x WHERE x.commit_sha = c.sha AND " POSTED \
	"   AND x.method <> 'fuzzy')," \
	" (SELECT count(*) FROM matches x WHERE x.commit_sha = c.sha" \
	"   AND x.method = 'fuzzy')," \
	" (SELECT m.msgid FROM matches x JOIN messages m ON m.msgid = x.message_id" \
	"   WHERE x.commit_sha = c.sha AND " POSTED " ORDER BY m.date, m.msgid LIMIT 1)," \
	" (SELECT m.list FROM matches x JOIN messages m ON m.msgid = x.message_id" \
	"   WHERE x.commit_sha = c.sha AND " POSTED " ORDER BY m.date, m.msgid LIMIT 1)," \
	REPLIES "," REVIEWS \
	" FROM commits c LEFT JOIN landing l ON l.sha = c.sha "

#define IRT_REPLIES \
	" (SELECT count(*) FROM matches x JOIN temp.onlist_replies r" \
	"   ON r.in_reply_to = x.message_id WHERE x.commit_sha = c.sha AND " POSTED \
	"   AND lower(coalesce(r.from_addr, '')) <> lower(coalesce(c.author_email, '')))"
#define IRT_REVIEWS " NULL"
#define THREAD_REPLIES \
	" (SELECT count(*) FROM matches x JOIN replies r ON r.patch = x.message_id" \
	"   WHERE x.commit_sha = c.sha AND " POSTED " AND NOT r.by_author)"
#define THREAD_REVIEWS \
	" (SELECT count(*) FROM matches x JOIN replies r ON r.patch = x.message_id" \
	"   JOIN message_trailers t ON t.msgid = r.reply" \
	"   WHERE x.commit_sha = c.sha AND " POSTED " AND NOT r.by_author" \
	"   AND lower(t.key) IN ('reviewed-by', 'acked-by', 'tested-by'))"

#define BY_SHA "WHERE c.sha = ?1"
#define WINDOW "WHERE l.landed_date >= ?1 AND l.landed_date < ?2" \
	" ORDER BY l.landed_date, l.merge_sha, c.commit_date, c.sha"
#define ALL "ORDER BY c.commit_date, c.author_date, c.sha"

/* [0]: In-Reply-To fallback, [1]: thread tables */
static const char *const by_sha_sql[2] = {
	REPORT_COLS(IRT_REPLIES, IRT_REVIEWS) BY_SHA,
	REPORT_COLS(THREAD_REPLIES, THREAD_REVIEWS) BY_SHA,
};
static const char *const window_sql[2] = {
	REPORT_COLS(IRT_REPLIES, IRT_REVIEWS) WINDOW,
	REPORT_COLS(THREAD_REPLIES, THREAD_REVIEWS) WINDOW,
};
static const char *const all_sql[2] = {
	REPORT_COLS(IRT_REPLIES, IRT_REVIEWS) ALL,
	REPORT_COLS(THREAD_REPLIES, THREAD_REVIEWS) ALL,
};

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static onlist_status each_row(struct onlist_store *s, sqlite3_stmt *st,
			      onlist_report_cb cb, void *data, long *n)
{
	struct onlist_report_commit c;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&c, 0, sizeof c);
		c.sha = col(st, 0);
		c.subject = col(st, 1);
		c.author_name = col(st, 2);
		c.author_email = col(st, 3);
		c.committer_name = col(st, 4);
		c.committer_email = col(st, 5);
		c.author_date = sqlite3_column_int64(st, 6);
		c.commit_date = sqlite3_column_int64(st, 7);
		c.body_empty = sqlite3_column_int(st, 8);
		c.files = col(st, 9) ? col(st, 9) : "";
		c.trailers = col(st, 10) ? col(st, 10) : "";
		c.landed = sqlite3_column_type(st, 11) != SQLITE_NULL;
		c.landed_date = sqlite3_column_int64(st, 11);
		c.merge_sha = col(st, 12);
		c.merge_subject = col(st, 13);
		c.postings = sqlite3_column_int(st, 14);
		c.exact = sqlite3_column_int(st, 15);
		c.fuzzy = sqlite3_column_int(st, 16);
		c.msgid = col(st, 17);
		c.list = col(st, 18);
		c.replies = sqlite3_column_int(st, 19);
		c.review_tags = sqlite3_column_type(st, 20) == SQLITE_NULL ? -1
			      : sqlite3_column_int(st, 20);
		if (n)
			(*n)++;
		if (cb(&c, data))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return onlist__store_fail(s, "report query");
	/* no read snapshot left open */
	sqlite3_reset(st);
	return ONLIST_OK;
}

static sqlite3_stmt *report_stmt(struct onlist_store *s,
				 const char *const sql[2])
{
	int threads = need_replies(s);

	if (threads < 0)
		return NULL;
	return onlist__store_prepare(s, sql[threads]);
}

onlist_status onlist_store_report_commit(struct onlist_store *s,
					 const char *sha, onlist_report_cb cb,
					 void *data)
{
	sqlite3_stmt *st = report_stmt(s, by_sha_sql);
	onlist_status ret;
	long n = 0;

	if (!st)
		return ONLIST_EDB;
	onlist__bind_text(st, 1, sha);
	ret = each_row(s, st, cb, data, &n);
	return ret == ONLIST_OK && !n ? ONLIST_ENOTFOUND : ret;
}

onlist_status onlist_store_report_window(struct onlist_store *s,
					 int64_t since, int64_t until,
					 onlist_report_cb cb, void *data)
{
	sqlite3_stmt *st = report_stmt(s, window_sql);

	if (!st)
		return ONLIST_EDB;
	sqlite3_bind_int64(st, 1, since);
	sqlite3_bind_int64(st, 2, until);
	return each_row(s, st, cb, data, NULL);
}

onlist_status onlist_store_report_all(struct onlist_store *s,
				      onlist_report_cb cb, void *data)
{
	sqlite3_stmt *st = report_stmt(s, all_sql);

	if (!st)
		return ONLIST_EDB;
	return each_row(s, st, cb, data, NULL);
}

static const char weeks_sql[] =
	"SELECT (l.landed_date - ?1) / 604800, count(*),"
	" sum(NOT EXISTS (SELECT 1 FROM matches x WHERE x.commit_sha = l.sha"
	"   AND " POSTED "))"
	" FROM landing l JOIN commits c ON c.sha = l.sha"
	" WHERE l.landed_date >= ?1 AND l.landed_date < ?2 GROUP BY 1";

onlist_status onlist_store_report_weeks(struct onlist_store *s, int64_t since,
					int nweeks, long *counts,
					long *unposted)
{
	sqlite3_stmt *st = onlist__store_prepare(s, weeks_sql);
	int rc;

	for (int i = 0; i < nweeks; i++)
		counts[i] = unposted[i] = 0;
	if (!st)
		return ONLIST_EDB;
	sqlite3_bind_int64(st, 1, since);
	sqlite3_bind_int64(st, 2, since + (int64_t)nweeks * 604800);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t w = sqlite3_column_int64(st, 0);
		if (w >= 0 && w < nweeks) {
			counts[w] = sqlite3_column_int64(st, 1);
			unposted[w] = sqlite3_column_int64(st, 2);
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return onlist__store_fail(s, "weekly counts");
	return ONLIST_OK;
}

static const char latest_sql[] = "SELECT max(landed_date) FROM landing";

int64_t onlist_store_latest_landing(struct onlist_store *s)
{
	sqlite3_stmt *st = onlist__store_prepare(s, latest_sql);
	int64_t t = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_type(st, 0) != SQLITE_NULL)
		t = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return t;
}

static const char count_method_sql[] =
	"SELECT count(*) FROM matches WHERE method = ?1";

long onlist_store_count_method(struct onlist_store *s, const char *method)
{
	sqlite3_stmt *st = onlist__store_prepare(s, count_method_sql);
	long n = -1;

	if (!st)
		return -1;
	onlist__bind_text(st, 1, method);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return n;
}

/* ---- export: one fixed column list per table, documented in
 * docs/schema.md; changing one is a new schema version there. ---- */

static const struct {
	const char *sql, *types;
	int replies;
} export_q[] = {
	[ONLIST_EXPORT_COMMITS] = {
	"SELECT c.sha, c.author_name, c.author_email, c.author_date,"
	" c.committer_name, c.committer_email, c.commit_date, c.subject,"
	" c.body_empty, c.patch_id,"
	" (SELECT count(*) FROM trailers t WHERE t.sha = c.sha),"
	" (SELECT count(*) FROM trailers t WHERE t.sha = c.sha"
	"   AND lower(t.key) = 'signed-off-by'),"
	" l.landed_date, l.merge_sha, l.merge_subject,"
	" (SELECT count(*) FROM matches x WHERE x.commit_sha = c.sha"
	"   AND " POSTED ")"
	" FROM commits c LEFT JOIN landing l ON l.sha = c.sha"
	" ORDER BY c.commit_date, c.sha", "tttittititiiitti", 0 },
	[ONLIST_EXPORT_POSTINGS] = {
	"SELECT m.msgid, m.list, m.date, m.from_name, m.from_addr, m.subject,"
	" m.in_reply_to, m.has_patch, m.patch_id, m.patch_source"
	" FROM messages m ORDER BY m.date, m.msgid", "ttittttitt", 0 },
	[ONLIST_EXPORT_MATCHES] = {
	"SELECT commit_sha, message_id, method, score FROM matches"
	" ORDER BY commit_sha, message_id, method", "tttn", 0 },
	[ONLIST_EXPORT_REVIEWS] = {
	"SELECT x.commit_sha, x.message_id, r.msgid, r.date, r.from_name,"
	" r.from_addr, lower(coalesce(r.from_addr, '')) ="
	"   lower(coalesce(c.author_email, ''))"
	" FROM matches x JOIN commits c ON c.sha = x.commit_sha"
	" JOIN temp.onlist_replies r ON r.in_reply_to = x.message_id"
	" WHERE " POSTED
	" ORDER BY x.commit_sha, r.date, r.msgid", "tttitti", 1 },
	[ONLIST_EXPORT_TRAILERS] = {
	"SELECT sha, seq, key, value FROM trailers ORDER BY sha, seq",
	"titt", 0 },
};

/* The reviews export when the thread tables exist: the same columns. */
static const char reviews_thread_sql[] =
	"SELECT x.commit_sha, x.message_id, r.reply, m.date, m.from_name,"
	" m.from_addr, r.by_author"
	" FROM matches x JOIN replies r ON r.patch = x.message_id"
	" JOIN messages m ON m.msgid = r.reply"
	" WHERE " POSTED
	" ORDER BY x.commit_sha, m.date, r.reply";

static const char *const export_names[][17] = {
	[ONLIST_EXPORT_COMMITS] = { "sha", "author_name", "author_email",
		"author_date", "committer_name", "committer_email",
		"commit_date", "subject", "body_empty", "patch_id", "trailers",
		"signoffs", "landed_date", "merge_sha", "merge_subject",
		"postings", NULL },
	[ONLIST_EXPORT_POSTINGS] = { "msgid", "list", "date", "from_name",
		"from_addr", "subject", "in_reply_to", "has_patch", "patch_id",
		"patch_source", NULL },
	[ONLIST_EXPORT_MATCHES] = { "commit", "msgid", "method", "score", NULL },
	[ONLIST_EXPORT_REVIEWS] = { "commit", "posting", "reply", "date",
		"from_name", "from_addr", "by_author", NULL },
	[ONLIST_EXPORT_TRAILERS] = { "sha", "seq", "key", "value", NULL },
};

const char *onlist_export_types(enum onlist_export what)
{
	return export_q[what].types;
}

onlist_status onlist_store_export(struct onlist_store *s,
				  enum onlist_export what,
				  onlist_export_cb cb, void *data)
{
	const char *vals[17];
	sqlite3_stmt *st;
	int ncol = 0, rc;

	if ((unsigned)what > ONLIST_EXPORT_TRAILERS)
		return ONLIST_EUSAGE;
	const char *sql = export_q[what].sql;
	if (export_q[what].replies) {
		int threads = need_replies(s);
		if (threads < 0)
			return ONLIST_EDB;
		if (threads)
			sql = reviews_thread_sql;
	}
	if (!(st = onlist__store_prepare(s, sql)))
		return ONLIST_EDB;
	while (export_names[what][ncol])
		ncol++;
	if (cb(ncol, export_names[what], NULL, data))
		return ONLIST_OK;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < ncol; i++)
			vals[i] = col(st, i);
		if (cb(ncol, export_names[what], vals, data))
			break;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return onlist__store_fail(s, "export");
	return ONLIST_OK;
}
