/* store_read.c - what the commands read: the read queries behind the
 * typed readers of store.h (commits by prefix, unposted commits, lists,
 * skipped messages and commits, sources, totals, postings), each filled
 * into its row struct by a column table beside its SQL. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "onlist/store.h"
#include "store_int.h"

#define fail onlist__store_fail
#define bind_text onlist__bind_text

/* The read queries behind the typed readers (the end of this file). */
enum query {
	Q_UNPOSTED_ALL, Q_IS_UNPOSTED, Q_COMMIT_BY_PREFIX, Q_POSTINGS,
	Q_POSTINGS_BY_PATCH, Q_COUNT_MESSAGES, Q_SKIPPED, Q_SKIPPED_BY_REASON,
	Q_SOURCES, Q_PARTIAL_SOURCES, Q_SKIPPED_COMMITS, Q_COUNT_TOTALS,
	Q_COUNT_MATCHED,
};

/* A posting's message_info (its class, version and part), beside it:
 * lookup asked for it once per posting, counting its replies again. */
#define INFO_COLS \
	" i.msgid IS NOT NULL, i.class, i.version, i.part, i.total, i.prefix"

/* How many commits have a posted row: kept in meta by triggers
 * (store_schema.c step 23), counted until a match run keeps it again
 * after a row's commit or method was changed by hand.  Counting took
 * 1.2 s of the 5.5 s of a 5M-message database's match after new mail. */
#define MATCHED_COMMITS \
	" coalesce((SELECT CAST(value AS INTEGER) FROM meta" \
	"  WHERE key = 'matched_commits')," \
	" (SELECT count(DISTINCT commit_sha) FROM matches" \
	"  WHERE" ONLIST__POSTED("method") "))"

static const char *const query_sql[] = {
	[Q_UNPOSTED_ALL] =
	"SELECT sha, commit_date, author_name, author_email, subject,"
	" (SELECT reason FROM commit_skipped k WHERE k.sha = c.sha),"
	" body, files,"
	" coalesce((SELECT landed_date FROM landing l WHERE l.sha = c.sha),"
	"  commit_date)"
	" FROM commits c WHERE NOT EXISTS"
	" (SELECT 1 FROM matches m WHERE m.commit_sha = c.sha"
	" AND" ONLIST__POSTED("m.method") ")"
	" ORDER BY commit_date, author_date, sha",
	[Q_IS_UNPOSTED] =
	"SELECT sha, commit_date, author_name, author_email, subject,"
	" (SELECT reason FROM commit_skipped k WHERE k.sha = c.sha),"
	" body, files,"
	" coalesce((SELECT landed_date FROM landing l WHERE l.sha = c.sha),"
	"  commit_date)"
	" FROM commits c WHERE sha = ?1 AND NOT EXISTS"
	" (SELECT 1 FROM matches m WHERE m.commit_sha = c.sha"
	" AND" ONLIST__POSTED("m.method") ")",
	[Q_COMMIT_BY_PREFIX] =
	"SELECT sha, commit_date, author_name, author_email, subject"
	" FROM commits WHERE sha >= ?1 AND sha < ?1 || 'g'"
	" ORDER BY sha LIMIT 2",	/* a range: GLOB on a parameter scans */
	[Q_POSTINGS] =
	"SELECT (SELECT group_concat(list, ',') FROM message_lists l"
	"         WHERE l.msgid = m.msgid),"
	" m.msgid, m.date, m.subject, x.method, m.from_name, m.from_addr,"
	" x.score, (SELECT kind || ' rule: ' || rule FROM echoes e"
	"           WHERE e.msgid = m.msgid)," INFO_COLS
	" FROM matches x JOIN messages m ON m.msgid = x.message_id"
	" LEFT JOIN message_info i ON i.msgid = m.msgid"
	" WHERE x.commit_sha = ?1 ORDER BY m.date, m.msgid",
	[Q_POSTINGS_BY_PATCH] =
	"SELECT (SELECT group_concat(list, ',') FROM message_lists l"
	"         WHERE l.msgid = m.msgid),"
	" m.msgid, m.date, m.subject,"
	" CASE WHEN e.msgid IS NOT NULL THEN 'echo'"
	"  WHEN m.patch_id = ?1 THEN 'patch-id' ELSE 'repaired' END,"
	" m.from_name, m.from_addr, 1.0, e.kind || ' rule: ' || e.rule,"
	INFO_COLS
	" FROM messages m LEFT JOIN echoes e ON e.msgid = m.msgid"
	" LEFT JOIN message_info i ON i.msgid = m.msgid"
	" WHERE m.patch_id = ?1 OR m.msgid IN"
	"  (SELECT msgid FROM message_patch WHERE repaired_id = ?2)"
	" ORDER BY m.date, m.msgid",
	[Q_COUNT_MESSAGES] =
	"SELECT l.list, count(*), sum(m.has_patch),"
	" min(CASE WHEN m.date > 0 THEN m.date END),"
	" max(CASE WHEN m.date <= CAST(strftime('%s', 'now') AS INTEGER) + 86400"
	"  THEN m.date END),"
	" (SELECT max(CAST(t.value AS INTEGER)) FROM sources o"
	"  JOIN source_state t ON t.url = o.url AND t.key = 'fetched'"
	"  WHERE o.list = l.list)"
	" FROM message_lists l"
	" JOIN messages m ON m.msgid = l.msgid GROUP BY l.list ORDER BY l.list",
	[Q_SKIPPED] =
	"SELECT source, offset, reason FROM skipped"
	" WHERE ?1 IS NULL OR source GLOB ?1 ORDER BY source, offset",
	[Q_SKIPPED_BY_REASON] =
	"SELECT reason, count(*) FROM skipped WHERE ?1 IS NULL OR source GLOB ?1"
	" GROUP BY reason ORDER BY count(*) DESC, reason",
	[Q_SOURCES] =
	"SELECT url, list, added, 0, 0 FROM sources ORDER BY added, url",
	[Q_PARTIAL_SOURCES] =
	"SELECT p.url, p.value,"
	" (SELECT CAST(a.value AS INTEGER) FROM source_state a"
	"  WHERE a.url = p.url AND a.key = 'partial_added'), 1,"
	" (SELECT count(*) FROM source_state q"
	"  WHERE q.url = p.url AND (q.key GLOB 'q:*' OR q.key GLOB 'raw:*'))"
	" FROM source_state p WHERE p.key = 'partial' ORDER BY 3, 1",
	[Q_SKIPPED_COMMITS] =
	"SELECT k.sha, k.object, k.reason, c.subject FROM commit_skipped k"
	" LEFT JOIN commits c ON c.sha = k.sha"
	" ORDER BY c.commit_date, c.author_date, k.sha",
	[Q_COUNT_TOTALS] =
	"SELECT (SELECT count(*) FROM messages),"
	" (SELECT count(*) FROM messages WHERE has_patch),"
	" (SELECT count(*) FROM skipped),"
	" (SELECT count(*) FROM commits),"
	" (SELECT count(*) FROM matches),"
	" (SELECT count(DISTINCT commit_sha) FROM matches"
	"  WHERE" ONLIST__POSTED("method") ")",
	/* what match and lookup --remote print: the commits alone, not
	 * every message counted (0.2 s of a 1M database's run after new
	 * mail, more than its tiers) */
	[Q_COUNT_MATCHED] =
	"SELECT" ONLIST__ROWS("commits") "," MATCHED_COMMITS,
};

/* Where each column of those queries goes in its row struct (store.h). */
#define COL(row, t, f) { t, offsetof(struct row, f) }
#define C(t, f) COL(onlist_commit_row, t, f)
static const struct onlist__column commit_cols[] = {	/* COMMIT_BY_PREFIX */
	C('t', sha), C('t', date), C('t', author_name), C('t', author_email),
	C('t', subject), { 0, 0 },
};
#undef C
#define C(t, f) COL(onlist_unposted_row, t, f)
static const struct onlist__column unposted_cols[] = {	/* (IS_)UNPOSTED_* */
	C('t', sha), C('t', date), C('t', author_name), C('t', author_email),
	C('t', subject), C('t', not_diffed), C('t', body), C('t', files),
	C('I', landed), { 0, 0 },
};
#undef C
#define C(t, f) COL(onlist_list_row, t, f)
static const struct onlist__column list_cols[] = {	/* COUNT_MESSAGES */
	C('e', list), C('I', messages), C('I', patches), C('t', first),
	C('t', last), C('t', fetched), { 0, 0 },
};
#undef C
#define C(t, f) COL(onlist_reason_row, t, f)
static const struct onlist__column reason_cols[] = {	/* SKIPPED_BY_REASON */
	C('e', reason), C('I', count), { 0, 0 },
};
#undef C
#define C(t, f) COL(onlist_skip_row, t, f)
static const struct onlist__column skip_cols[] = {	/* SKIPPED */
	C('e', source), C('I', offset), C('e', reason), { 0, 0 },
};
#undef C
#define C(t, f) COL(onlist_skipped_commit_row, t, f)
static const struct onlist__column skipped_commit_cols[] = {
	C('t', sha), C('t', object), C('t', reason), C('t', subject),
	{ 0, 0 },
};
#undef C
#define C(t, f) COL(onlist_source_row, t, f)
static const struct onlist__column source_cols[] = {	/* (PARTIAL_)SOURCES */
	C('t', url), C('e', list), C('t', added), C('i', partial),
	C('I', answers), { 0, 0 },
};
#undef C
#define C(f) COL(onlist_totals, 'I', f)
static const struct onlist__column totals_cols[] = {	/* COUNT_TOTALS */
	C(messages), C(patches), C(skipped), C(commits), C(matches),
	C(commits_matched), { 0, 0 },
};
static const struct onlist__column matched_cols[] = {	/* COUNT_MATCHED */
	C(commits), C(commits_matched), { 0, 0 },
};
#undef C
#undef COL

/* A walk over the rows of a query of query_sql: rows_begin(), then
 * rows_next() until it says no more, then rows_end() for the status.  The
 * statement is prepared for the one walk, so that a callback may start
 * another query. */
struct rows {
	struct onlist_store *s;
	sqlite3_stmt *st;
	onlist_status ret;
};

/* p1 (NULL: SQL NULL) bound to ?1 when the query has one. */
static void rows_begin(struct rows *r, struct onlist_store *s, enum query q,
		       const char *p1)
{
	r->s = s;
	r->ret = ONLIST_OK;
	if (sqlite3_prepare_v2(s->db, query_sql[q], -1, &r->st, NULL)
	    != SQLITE_OK) {
		r->st = NULL;
		r->ret = fail(s, "prepare query");
		return;
	}
	if (sqlite3_bind_parameter_count(r->st) >= 1)
		bind_text(r->st, 1, p1);
}

/* 1 with the next row in *out, 0 at the end or on an error (r->ret). */
static int rows_next(struct rows *r, const struct onlist__column *cols,
		     void *out)
{
	int rc;

	if (!r->st || r->ret != ONLIST_OK)
		return 0;
	rc = sqlite3_step(r->st);
	if (rc == SQLITE_ROW) {
		onlist__store_columns(r->st, out, cols);
		return 1;
	}
	if (rc != SQLITE_DONE) {
		sqlite3_reset(r->st);	/* the error is the reset's too */
		r->ret = fail(r->s, "query");
	}
	return 0;
}

static onlist_status rows_end(struct rows *r)
{
	sqlite3_finalize(r->st);
	return r->ret;
}

/* The body of a reader: each row of query q (?1 = p1) into a struct T
 * through cols, to cb until it returns non-zero. */
#define READ_ROWS(T, q, p1, cols)					\
	struct T row;							\
	struct rows r;							\
									\
	rows_begin(&r, s, q, p1);					\
	while (rows_next(&r, cols, &row) && !cb(&row, data))		\
		;							\
	return rows_end(&r);
/* A typed reader of store.h: NAME(s, cb, data), or with READER_P
 * NAME(s, P, cb, data) where P is the query's ?1. */
#define READER(name, T, q, cols)					\
onlist_status name(struct onlist_store *s, T##_cb cb, void *data)	\
{									\
	READ_ROWS(T, q, NULL, cols)					\
}
#define READER_P(name, p, T, q, cols)					\
onlist_status name(struct onlist_store *s, const char *p, T##_cb cb,	\
		   void *data)						\
{									\
	READ_ROWS(T, q, p, cols)					\
}

onlist_status onlist_store_postings(struct onlist_store *s, const char *sha,
				    const char *patch_id, const char *repaired,
				    onlist_posting_row_cb cb, void *data)
{
#define COL(t, f) { t, offsetof(struct onlist_posting_row, f) }
	static const struct onlist__column cols[] = {
		COL('t', lists), COL('t', msgid), COL('t', date),
		COL('t', subject), COL('t', method), COL('t', from_name),
		COL('t', from_addr), COL('d', score), COL('t', echo_rule),
		COL('i', info), COL('t', cls), COL('t', version),
		COL('t', part), COL('t', total), COL('t', prefix), { 0, 0 },
	};
#undef COL
	sqlite3_stmt *st = onlist__store_prepare(s, sha ?
		query_sql[Q_POSTINGS] : query_sql[Q_POSTINGS_BY_PATCH]);
	int rc;

	if (!st)
		return ONLIST_EDB;
	if (sha) {
		sqlite3_bind_text(st, 1, sha, -1, SQLITE_TRANSIENT);
	} else {
		sqlite3_bind_text(st, 1, patch_id, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 2, repaired, -1, SQLITE_TRANSIENT);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_posting_row r;

		onlist__store_columns(st, &r, cols);
		if (cb(&r, data))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		onlist_status ret = fail(s, "postings");

		sqlite3_reset(st);
		return ret;
	}
	sqlite3_reset(st);
	return ONLIST_OK;
}

/* ---- the typed readers (store.h): a query, its row and its columns ----- */

READER_P(onlist_store_commits_by_prefix, prefix, onlist_commit_row,
	 Q_COMMIT_BY_PREFIX, commit_cols)
READER(onlist_store_unposted, onlist_unposted_row, Q_UNPOSTED_ALL,
       unposted_cols)
READER_P(onlist_store_unposted_commit, sha, onlist_unposted_row,
	 Q_IS_UNPOSTED, unposted_cols)
READER(onlist_store_lists, onlist_list_row, Q_COUNT_MESSAGES, list_cols)
READER_P(onlist_store_skipped_by_reason, glob, onlist_reason_row,
	 Q_SKIPPED_BY_REASON, reason_cols)
READER_P(onlist_store_skipped, glob, onlist_skip_row, Q_SKIPPED, skip_cols)
READER(onlist_store_skipped_commits, onlist_skipped_commit_row,
       Q_SKIPPED_COMMITS, skipped_commit_cols)
READER(onlist_store_sources, onlist_source_row, Q_SOURCES, source_cols)
READER(onlist_store_partial_sources, onlist_source_row, Q_PARTIAL_SOURCES,
       source_cols)
#undef READER_P
#undef READER
#undef READ_ROWS

/* A query of one row of counts into *out (all 0 on error). */
static onlist_status count_row(struct onlist_store *s, enum query q,
			       const struct onlist__column *cols,
			       struct onlist_totals *out)
{
	struct rows r;

	memset(out, 0, sizeof(*out));
	rows_begin(&r, s, q, NULL);
	rows_next(&r, cols, out);
	if (r.ret != ONLIST_OK)
		memset(out, 0, sizeof(*out));
	return rows_end(&r);
}

onlist_status onlist_store_count_totals(struct onlist_store *s,
					struct onlist_totals *out)
{
	return count_row(s, Q_COUNT_TOTALS, totals_cols, out);
}

onlist_status onlist_store_count_matched(struct onlist_store *s,
					 struct onlist_totals *out)
{
	return count_row(s, Q_COUNT_MATCHED, matched_cols, out);
}
