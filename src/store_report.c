/* store_report.c - the SQL behind landing, report, stats and export. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "onlist/buf.h"
#include "onlist/store_report.h"
#include "onlist/thread.h"	/* ONLIST_CLASS_* */
#include "store_int.h"

static const char put_landing_sql[] =
	"INSERT OR REPLACE INTO landing(sha, landed_date, merge_sha,"
	" merge_subject, merge_tip, merge_request)"
	" VALUES(?1, ?2, ?3, ?4, ?5, ?6)";

onlist_status onlist_store_report_put_landing(struct onlist_store *s,
				       const struct onlist_landing *l)
{
	return onlist__store_step(s, onlist__store_prepare(s, put_landing_sql),
				  "insert landing", "tItttt", l->sha,
				  l->landed_date, l->merge_sha, l->merge_subject,
				  l->merge_tip, l->merge_request);
}

/* What makes a commit posted (store_int.h). */
#define POSTED ONLIST__POSTED("x.method")

/* Replies are what the thread tables say (`replies`: patch, reply,
 * by_author; `message_trailers`: the trailers of each mail), built by
 * `onlist match`; every schema has them. */
#define REPLIES \
	" (SELECT count(*) FROM matches x JOIN replies r ON r.patch = x.message_id" \
	"   WHERE x.commit_sha = c.sha AND " POSTED " AND NOT r.by_author)"
#define REVIEWS \
	" (SELECT count(*) FROM matches x JOIN replies r ON r.patch = x.message_id" \
	"   JOIN message_trailers t ON t.msgid = r.reply" \
	"   WHERE x.commit_sha = c.sha AND " POSTED " AND NOT r.by_author" \
	"   AND lower(t.key) IN " ONLIST_SQL_REVIEW_KEYS ")"

/* The tiers that find a posting whose patch is not the commit's: the
 * change was modified before merge. */
#define EDITED ONLIST_SQL_EDITED("x.method")

#define REPORT_COLS \
	"SELECT c.sha, c.subject, c.author_name, c.author_email," \
	" c.committer_name, c.committer_email, c.author_date, c.commit_date," \
	" c.body_empty, c.files," \
	" (SELECT group_concat(key || ': ' || value, char(10)) FROM" \
	"   (SELECT key, value FROM trailers t WHERE t.sha = c.sha ORDER BY seq))," \
	" l.landed_date, l.merge_sha, l.merge_subject," \
	" (SELECT count(*) FROM matches x WHERE x.commit_sha = c.sha AND " POSTED ")," \
	" (SELECT count(*) FROM matches x WHERE x.commit_sha = c.sha AND " POSTED \
	"   AND NOT " EDITED ")," \
	" (SELECT count(*) FROM matches x WHERE x.commit_sha = c.sha" \
	"   AND " EDITED ")," \
	" (SELECT m.msgid FROM matches x JOIN messages m ON m.msgid = x.message_id" \
	"   WHERE x.commit_sha = c.sha AND " POSTED " ORDER BY m.date, m.msgid LIMIT 1)," \
	" (SELECT m.list FROM matches x JOIN messages m ON m.msgid = x.message_id" \
	"   WHERE x.commit_sha = c.sha AND " POSTED " ORDER BY m.date, m.msgid LIMIT 1)," \
	REPLIES "," REVIEWS ", c.body, l.sha IS NOT NULL" \
	" FROM commits c LEFT JOIN landing l ON l.sha = c.sha "

#define BY_SHA "WHERE c.sha = ?1"
#define WINDOW "WHERE l.landed_date >= ?1 AND l.landed_date < ?2" \
	" ORDER BY l.landed_date, l.merge_sha, c.commit_date, c.sha"
#define ALL "ORDER BY c.commit_date, c.author_date, c.sha"

static const char by_sha_sql[] = REPORT_COLS BY_SHA;
static const char window_sql[] = REPORT_COLS WINDOW;
static const char all_sql[] = REPORT_COLS ALL;

/* REPORT_COLS, in its order (review_tags is a count: never NULL). */
#define RC(type, field) { type, offsetof(struct onlist_report_commit, field) }
static const struct onlist__column report_cols[] = {
	RC('t', sha), RC('t', subject), RC('t', author_name),
	RC('t', author_email), RC('t', committer_name), RC('t', committer_email),
	RC('I', author_date), RC('I', commit_date), RC('i', body_empty),
	RC('e', files), RC('e', trailers), RC('I', landed_date),
	RC('t', merge_sha), RC('t', merge_subject),
	RC('i', postings), RC('i', exact), RC('i', fuzzy),
	RC('t', msgid), RC('t', list), RC('i', replies), RC('i', review_tags),
	RC('t', body), RC('i', landed),
	{ 0, 0 }
};
#undef RC

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
		onlist__store_columns(st, &c, report_cols);
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

onlist_status onlist_store_report_commit(struct onlist_store *s,
					 const char *sha, onlist_report_cb cb,
					 void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, by_sha_sql);
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
	sqlite3_stmt *st = onlist__store_prepare(s, window_sql);

	if (!st)
		return ONLIST_EDB;
	onlist__store_bind(st, "II", since, until);
	return each_row(s, st, cb, data, NULL);
}

onlist_status onlist_store_report_all(struct onlist_store *s,
				      onlist_report_cb cb, void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, all_sql);

	if (!st)
		return ONLIST_EDB;
	return each_row(s, st, cb, data, NULL);
}

/* The chart's rows: only what a commit's category needs (report.c), not
 * the report row's texts and counts; the counts of replies and review
 * tags only where no review state is stored. */
static const char window_states_sql[] =
	"SELECT c.sha, l.landed_date,"
	" EXISTS (SELECT 1 FROM matches x WHERE x.commit_sha = c.sha AND " POSTED "),"
	" r.state,"
	" CASE WHEN r.state IS NULL THEN" REPLIES " END,"
	" CASE WHEN r.state IS NULL THEN" REVIEWS " END"
	" FROM landing l JOIN commits c ON c.sha = l.sha"
	" LEFT JOIN commit_review r ON r.sha = c.sha"
	" WHERE l.landed_date >= ?1 AND l.landed_date < ?2";

#define SC(type, field) { type, offsetof(struct onlist_report_state, field) }
static const struct onlist__column state_cols[] = {
	SC('t', sha), SC('I', landed_date), SC('i', posted), SC('t', state),
	SC('i', replies), SC('i', review_tags), { 0, 0 }
};
#undef SC

onlist_status onlist_store_report_window_states(struct onlist_store *s,
						int64_t since, int64_t until,
						onlist_report_state_cb cb,
						void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, window_states_sql);
	struct onlist_report_state c;
	int rc;

	if (!st)
		return ONLIST_EDB;
	onlist__store_bind(st, "II", since, until);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&c, 0, sizeof c);
		onlist__store_columns(st, &c, state_cols);
		if (cb(&c, data))
			break;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return onlist__store_fail(s, "report chart query");
	return ONLIST_OK;
}

static const char postings_sql[] =
	"SELECT x.message_id, m.list, coalesce(i.version, 1)"
	" FROM matches x JOIN messages m ON m.msgid = x.message_id"
	" LEFT JOIN message_info i ON i.msgid = x.message_id"
	" WHERE x.commit_sha = ?1 AND " POSTED
	" GROUP BY x.message_id ORDER BY m.date, x.message_id";

#define PC(type, field) { type, offsetof(struct onlist_store_posting, field) }
static const struct onlist__column posting_cols[] = {
	PC('t', msgid), PC('t', list), PC('i', version), { 0, 0 }
};
#undef PC

onlist_status onlist_store_report_postings(struct onlist_store *s,
					   const char *sha,
					   onlist_posting_cb cb, void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, postings_sql);
	struct onlist_store_posting p;
	int rc;

	if (!st)
		return ONLIST_EDB;
	onlist__bind_text(st, 1, sha);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		memset(&p, 0, sizeof p);
		onlist__store_columns(st, &p, posting_cols);
		if (cb(&p, data))
			break;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return onlist__store_fail(s, "postings of a commit");
	return ONLIST_OK;
}

static const char latest_sql[] = "SELECT max(landed_date) FROM landing";

int64_t onlist_store_report_latest_landing(struct onlist_store *s)
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

/* ---- what a never-posted verdict needs -------------------------------- */

/* Messages lookup --remote fetched (a partial source, remote.h: their
 * source is a URL under the inbox's) are a few threads, not an archive:
 * they say nothing about what the archive covers. */
#define NOT_PARTIAL							\
	" AND NOT EXISTS (SELECT 1 FROM source_state p"			\
	"  WHERE p.key = 'partial'"					\
	"  AND substr(messages.source, 1, length(p.url)) = p.url)"

/* The archive's span: dates of 0 (1970) or more than a day in the future
 * are a broken Date:, not the archive's end. */
static const char span_sql[] =
	"SELECT (SELECT min(date) FROM messages WHERE date > 0" NOT_PARTIAL "),"
	" (SELECT max(date) FROM messages"
	"  WHERE date <= CAST(strftime('%s', 'now') AS INTEGER) + 86400"
	NOT_PARTIAL ")";

onlist_status onlist_store_report_span(struct onlist_store *s, int64_t *first,
				int64_t *last)
{
	sqlite3_stmt *st = onlist__store_prepare(s, span_sql);
	int rc;

	*first = *last = 0;
	if (!st)
		return onlist__store_fail(s, "prepare");
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*first = sqlite3_column_int64(st, 0);
		*last = sqlite3_column_int64(st, 1);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW ? ONLIST_OK : onlist__store_fail(s, "span");
}

/* The one stored commit a (possibly abbreviated) sha names, and its
 * first posting. */
static const char reverted_sql[] =
	"SELECT c.sha, (SELECT x.message_id FROM matches x"
	"  JOIN messages m ON m.msgid = x.message_id"
	"  WHERE x.commit_sha = c.sha AND " POSTED " ORDER BY m.date LIMIT 1)"
	" FROM commits c WHERE c.sha >= ?1 AND c.sha < ?1 || 'g' LIMIT 2";

onlist_status onlist_store_report_posting_of_prefix(struct onlist_store *s,
					     const char *prefix, char **sha,
					     char **msgid)
{
	sqlite3_stmt *st = onlist__store_prepare(s, reverted_sql);
	int rc, n = 0;

	*sha = *msgid = NULL;
	if (!st)
		return onlist__store_fail(s, "prepare");
	sqlite3_bind_text(st, 1, prefix, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && ++n == 1) {
		const char *a = (const char *)sqlite3_column_text(st, 0);
		const char *b = (const char *)sqlite3_column_text(st, 1);

		if ((a && !(*sha = strdup(a))) || (b && !(*msgid = strdup(b))))
			rc = SQLITE_NOMEM;
	}
	sqlite3_reset(st);
	if (n > 1 || rc == SQLITE_NOMEM) {	/* ambiguous, or no memory */
		free(*sha);
		free(*msgid);
		*sha = *msgid = NULL;
		return rc == SQLITE_NOMEM ? ONLIST_ENOMEM : ONLIST_OK;
	}
	return rc == SQLITE_DONE || rc == SQLITE_ROW ? ONLIST_OK :
	       onlist__store_fail(s, "reverted commit");
}

/* A mail with the commit's subject (after prefixes, any case) and no
 * patch: an announcement, a pull request, a notice.  Not a reply ("Re:
 * [PATCH] ..."): it answers a posting, it is none, and naming it says
 * the patch was near the list when it may not have been. */
static const char near_miss_sql[] =
	"SELECT m.msgid FROM message_info i JOIN messages m ON m.msgid = i.msgid"
	" WHERE lower(i.stripped) = lower(?1) AND NOT m.has_patch"
	" AND i.class IS NOT '" ONLIST_CLASS_REPLY "'"
	" ORDER BY m.date, m.msgid LIMIT 1";

onlist_status onlist_store_report_near_miss(struct onlist_store *s,
				     const char *subject, char **msgid)
{
	return onlist__store_first_text(s, near_miss_sql, subject, "near miss",
					msgid);
}

/* A series the commit's siblings were posted in (same merge, same
 * author) that has fewer patches on the list than it counts: the part
 * that never arrived may be this commit.  Its head (cover letter or first
 * patch) is named.
 *
 * Asked of every never-posted commit a report, unposted or lookup shows,
 * and a merge lands hundreds of commits: one query joining the siblings
 * read every sibling's commit row for each commit.  So the siblings of a
 * merge (sha, author) are read once and kept (struct onlist__gap_cache,
 * for the last GAP_MERGES merges, while the database is unchanged), and
 * only the siblings by the commit's author are asked for their series. */
static const char gap_commit_sql[] =
	"SELECT l.merge_sha, lower(c.author_email) FROM landing l"
	" CROSS JOIN commits c ON c.sha = l.sha"
	" WHERE l.sha = ?1 AND l.merge_sha <> l.sha";
static const char gap_siblings_sql[] =
	"SELECT l.sha, lower(c.author_email) FROM landing l"
	" CROSS JOIN commits c ON c.sha = l.sha WHERE l.merge_sha = ?1";
static const char gap_series_sql[] =
	"SELECT s.series FROM matches x CROSS JOIN series s"
	" ON s.msgid = x.message_id"
	" WHERE x.commit_sha = ?1 AND " POSTED
	" AND (SELECT max(i.total) FROM series t JOIN message_info i"
	"   ON i.msgid = t.msgid WHERE t.series = s.series) >"
	"  (SELECT count(DISTINCT i.part) FROM series t JOIN message_info i"
	"   ON i.msgid = t.msgid WHERE t.series = s.series AND i.class = 'patch')"
	" ORDER BY s.series LIMIT 1";
static const char data_version_sql[] = "PRAGMA data_version";

#define GAP_MERGES 32

struct gap_sibling {
	char *sha, *author;	/* author: lower(author_email), or NULL */
};
struct gap_merge {
	char *merge;		/* NULL: a free slot */
	struct gap_sibling *v;
	size_t n;
};
struct onlist__gap_cache {
	int64_t changes, version;	/* the database they were read from */
	int next;			/* the slot to take next */
	struct gap_merge m[GAP_MERGES];
};

static void gap_merge_clear(struct gap_merge *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->v[i].sha);
		free(g->v[i].author);
	}
	free(g->v);
	free(g->merge);
	memset(g, 0, sizeof *g);
}

void onlist__store_report_release(struct onlist_store *s)
{
	if (!s->gap)
		return;
	for (int i = 0; i < GAP_MERGES; i++)
		gap_merge_clear(&s->gap->m[i]);
	free(s->gap);
	s->gap = NULL;
}

static char *dup_col(sqlite3_stmt *st, int i, int *nomem)
{
	const char *v = col(st, i);
	char *d = v ? strdup(v) : NULL;

	if (v && !d)
		*nomem = 1;
	return d;
}

/* The cache, emptied when the database changed since it was filled (a
 * write through this handle, or another's commit). */
static onlist_status gap_cache(struct onlist_store *s,
			       struct onlist__gap_cache **out)
{
	sqlite3_stmt *st = onlist__store_prepare(s, data_version_sql);
	int64_t version, changes = sqlite3_total_changes64(s->db);
	int rc;

	if (!st)
		return ONLIST_EDB;
	rc = sqlite3_step(st);
	version = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW)
		return onlist__store_fail(s, "data version");
	if (!s->gap && !(s->gap = calloc(1, sizeof *s->gap)))
		return ONLIST_ENOMEM;
	if (s->gap->changes != changes || s->gap->version != version) {
		onlist__store_report_release(s);
		if (!(s->gap = calloc(1, sizeof *s->gap)))
			return ONLIST_ENOMEM;
		s->gap->changes = changes;
		s->gap->version = version;
	}
	*out = s->gap;
	return ONLIST_OK;
}

/* The commits merge landed, read once. */
static onlist_status gap_siblings(struct onlist_store *s, const char *merge,
				  const struct gap_merge **out)
{
	struct onlist__gap_cache *c = NULL;
	struct gap_merge *g;
	sqlite3_stmt *st;
	size_t alloc = 0;
	int rc = SQLITE_DONE, nomem = 0;
	onlist_status ret;

	if ((ret = gap_cache(s, &c)) != ONLIST_OK)
		return ret;
	for (int i = 0; i < GAP_MERGES; i++)
		if (c->m[i].merge && !strcmp(c->m[i].merge, merge)) {
			*out = &c->m[i];
			return ONLIST_OK;
		}
	g = &c->m[c->next];
	c->next = (c->next + 1) % GAP_MERGES;
	gap_merge_clear(g);
	if (!(st = onlist__store_prepare(s, gap_siblings_sql)))
		return ONLIST_EDB;
	onlist__bind_text(st, 1, merge);
	while (!nomem && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gap_sibling *nv = g->v;

		if (g->n == alloc &&
		    !(nv = onlist_grow(g->v, &alloc, sizeof *nv, 64))) {
			nomem = 1;
			break;
		}
		g->v = nv;
		nv[g->n].sha = dup_col(st, 0, &nomem);
		nv[g->n].author = dup_col(st, 1, &nomem);
		g->n++;
	}
	sqlite3_reset(st);
	if (nomem || !(g->merge = strdup(merge))) {
		gap_merge_clear(g);
		return ONLIST_ENOMEM;
	}
	if (rc != SQLITE_DONE) {
		gap_merge_clear(g);
		return onlist__store_fail(s, "series gap");
	}
	*out = g;
	return ONLIST_OK;
}

onlist_status onlist_store_report_series_gap(struct onlist_store *s, const char *sha,
				      char **msgid)
{
	sqlite3_stmt *st = onlist__store_prepare(s, gap_commit_sql);
	const struct gap_merge *g = NULL;
	char *merge = NULL, *author = NULL;
	int rc, nomem = 0;
	onlist_status ret = ONLIST_OK;

	*msgid = NULL;
	if (!st)
		return ONLIST_EDB;
	onlist__bind_text(st, 1, sha);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		merge = dup_col(st, 0, &nomem);
		author = dup_col(st, 1, &nomem);
	}
	sqlite3_reset(st);
	if (nomem)
		ret = ONLIST_ENOMEM;
	else if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = onlist__store_fail(s, "series gap");
	/* no landing by a merge, or no author to share */
	if (ret != ONLIST_OK || !merge || !author ||
	    (ret = gap_siblings(s, merge, &g)) != ONLIST_OK)
		goto out;
	/* the first series by name, as one query ordering them would */
	for (size_t i = 0; i < g->n && ret == ONLIST_OK; i++) {
		char *series = NULL;

		if (!g->v[i].author || strcmp(g->v[i].author, author) ||
		    !strcmp(g->v[i].sha, sha))
			continue;
		ret = onlist__store_first_text(s, gap_series_sql, g->v[i].sha,
					       "series gap", &series);
		if (series && (!*msgid || strcmp(series, *msgid) < 0)) {
			free(*msgid);
			*msgid = series;
		} else {
			free(series);
		}
	}
	if (ret != ONLIST_OK) {
		free(*msgid);
		*msgid = NULL;
	}
out:
	free(merge);
	free(author);
	return ret;
}

/* Only whether there is one, of any such method: counting read every
 * match of the table, for each method, at every report. */
static const char has_edited_sql[] =
	"SELECT EXISTS (SELECT 1 FROM matches x WHERE" EDITED
	" AND x.method <> '')";

int onlist_store_report_has_edited(struct onlist_store *s)
{
	sqlite3_stmt *st = onlist__store_prepare(s, has_edited_sql);
	int n = -1;

	if (!st)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_reset(st);
	return n;
}

/* ---- export: one fixed column list per table, documented in
 * docs/schema.md; changing one is a new schema version there. ---- */

static const struct {
	const char *sql, *types;
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
	"   AND " POSTED "),"
	" coalesce(r.state, CASE WHEN NOT EXISTS (SELECT 1 FROM matches x"
	"   WHERE x.commit_sha = c.sha AND " POSTED ") THEN 'never_posted' END),"
	/* reason: the review's why when it is unknown (review.h); for a
	 * commit never posted the command fills it in */
	" r.off_list_tags, r.why,"
	/* path, pull_request, via, security_relevant, security: so does
	 * it (paths.h) */
	" NULL, NULL, NULL, NULL, NULL"
	" FROM commits c LEFT JOIN landing l ON l.sha = c.sha"
	" LEFT JOIN commit_review r ON r.sha = c.sha"
	" ORDER BY c.commit_date, c.sha", "tttittititiiittittttttit" },
	[ONLIST_EXPORT_POSTINGS] = {
	"SELECT m.msgid, m.list, m.date, m.from_name, m.from_addr, m.subject,"
	" m.in_reply_to, m.has_patch, m.patch_id, m.patch_source"
	" FROM messages m ORDER BY m.date, m.msgid", "ttittttitt" },
	[ONLIST_EXPORT_MATCHES] = {
	"SELECT commit_sha, message_id, method, score FROM matches"
	" ORDER BY commit_sha, message_id, method", "tttn" },
	[ONLIST_EXPORT_REVIEWS] = {
	"SELECT t.msgid, t.seq, t.key, t.name, t.addr, t.value, t.sender,"
	" t.date, (SELECT group_concat(l.list, ' ') FROM message_lists l"
	"   WHERE l.msgid = t.msgid),"
	" t.target, t.target_class, t.version, t.part, t.total, t.series,"
	" replace(t.topic, char(31), ' '), t.why_not IS NULL AND lower(t.key) IN "
	ONLIST_SQL_REVIEW_KEYS ", t.why_not"
	" FROM review_tags t ORDER BY t.date, t.msgid, t.seq",
	"titttttitttiiittit" },
	[ONLIST_EXPORT_REPLIES] = {
	"SELECT x.commit_sha, x.message_id, r.reply, m.date, m.from_name,"
	" m.from_addr, r.by_author"
	" FROM matches x JOIN replies r ON r.patch = x.message_id"
	" JOIN messages m ON m.msgid = r.reply"
	" WHERE " POSTED
	" ORDER BY x.commit_sha, m.date, r.reply", "tttitti" },
	[ONLIST_EXPORT_TRAILERS] = {
	"SELECT sha, seq, key, value FROM trailers ORDER BY sha, seq",
	"titt" },
};

#define EXPORT_MAXCOL 25

static const char *const export_names[][EXPORT_MAXCOL] = {
	[ONLIST_EXPORT_COMMITS] = { "sha", "author_name", "author_email",
		"author_date", "committer_name", "committer_email",
		"commit_date", "subject", "body_empty", "patch_id", "trailers",
		"signoffs", "landed_date", "merge_sha", "merge_subject",
		"postings", "review_state", "off_list_tags", "reason", "path",
		"pull_request", "via", "security_relevant", "security", NULL },
	[ONLIST_EXPORT_POSTINGS] = { "msgid", "list", "date", "from_name",
		"from_addr", "subject", "in_reply_to", "has_patch", "patch_id",
		"patch_source", NULL },
	[ONLIST_EXPORT_MATCHES] = { "commit", "msgid", "method", "score", NULL },
	[ONLIST_EXPORT_REVIEWS] = { "reply", "seq", "key", "name", "addr",
		"value", "from_addr", "date", "lists", "target", "target_class",
		"version", "part", "total", "series", "topic", "review",
		"why_not", NULL },
	[ONLIST_EXPORT_REPLIES] = { "commit", "posting", "reply", "date",
		"from_name", "from_addr", "by_author", NULL },
	[ONLIST_EXPORT_TRAILERS] = { "sha", "seq", "key", "value", NULL },
};

const char *onlist_export_types(enum onlist_export what)
{
	return export_q[what].types;
}

onlist_status onlist_store_report_export(struct onlist_store *s,
				  enum onlist_export what,
				  onlist_export_cb cb, void *data)
{
	const char *vals[EXPORT_MAXCOL];
	sqlite3_stmt *st;
	int ncol = 0, rc;

	if ((unsigned)what > ONLIST_EXPORT_REPLIES)
		return ONLIST_EUSAGE;
	if (!(st = onlist__store_prepare(s, export_q[what].sql)))
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
