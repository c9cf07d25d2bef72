/* store_review_read.c - what lookup and the report read of the review
 * that store_review.c wrote: one commit's state and its evidence, the
 * versions of its topic, and the replies to each posting.  Speaks SQL,
 * like every src/store*.c file. */
#include <stdlib.h>
#include <string.h>

#include "onlist/store_review.h"
#include "store_int.h"

#define fail onlist__store_fail
#define POSTED ONLIST__POSTED("x.method")

static const char sql_review[] =
	"SELECT r.state, r.naks, r.off_list_tags, t.key, t.value, t.msgid,"
	" t.sender, t.target, tm.subject, t.target_class, t.version, t.part,"
	" t.total, n.msgid,"
	" coalesce(nullif(nm.from_name, ''), nm.from_addr), nm.date, r.why"
	" FROM commit_review r LEFT JOIN review_tags t"
	"  ON t.msgid = r.evidence_msgid AND t.seq = r.evidence_seq"
	" LEFT JOIN messages tm ON tm.msgid = t.target"
	" LEFT JOIN commit_notice n ON n.sha = r.sha"
	" LEFT JOIN messages nm ON nm.msgid = n.msgid"
	" WHERE r.sha = ?1";

static char *dup_col(const char *const *c, int i)
{
	return c[i] ? strdup(c[i]) : NULL;
}

static int take_review(int ncol, const char *const *c, void *data)
{
	struct onlist_commit_review *r = data;

	(void)ncol;
	r->state = dup_col(c, 0);
	r->naks = c[1] ? atoi(c[1]) : 0;
	r->off_list_tags = dup_col(c, 2);
	r->ev_key = dup_col(c, 3);
	r->ev_value = dup_col(c, 4);
	r->ev_msgid = dup_col(c, 5);
	r->ev_from = dup_col(c, 6);
	r->ev_target = dup_col(c, 7);
	r->ev_target_subject = dup_col(c, 8);
	r->ev_target_class = dup_col(c, 9);
	r->ev_version = c[10] ? atoi(c[10]) : 0;
	r->ev_part = c[11] ? atoi(c[11]) : -1;
	r->ev_total = c[12] ? atoi(c[12]) : -1;
	r->notice_msgid = dup_col(c, 13);
	r->notice_name = dup_col(c, 14);
	r->notice_date = dup_col(c, 15);
	r->why = dup_col(c, 16);
	return 1;
}

onlist_status onlist_store_review_commit(struct onlist_store *s,
					 const char *sha,
					 struct onlist_commit_review *out)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_review);

	*out = (struct onlist_commit_review)ONLIST_COMMIT_REVIEW_INIT;
	if (!st)
		return fail(s, "prepare");
	return onlist__store_rows(s, st, &sha, 1, take_review, out, NULL);
}

void onlist_commit_review_release(struct onlist_commit_review *r)
{
	free(r->state);
	free(r->off_list_tags);
	free(r->ev_key);
	free(r->ev_value);
	free(r->ev_msgid);
	free(r->ev_from);
	free(r->ev_target);
	free(r->ev_target_subject);
	free(r->ev_target_class);
	free(r->notice_msgid);
	free(r->notice_name);
	free(r->notice_date);
	free(r->why);
	*r = (struct onlist_commit_review)ONLIST_COMMIT_REVIEW_INIT;
}

static const char sql_versions[] =
	"SELECT s.series, coalesce(i.version, 1), m.date,"
	" (SELECT group_concat(l.list, char(10)) FROM message_lists l"
	"   WHERE l.msgid = s.series),"
	" m.subject,"
	/* by the rule of the review state (review.h), when the review has
	 * a row for it */
	" coalesce((SELECT sr.replies FROM series_replies sr WHERE sr.sha = ?1"
	"   AND sr.series = s.series),"
	" (SELECT count(DISTINCT th.msgid) FROM series s2"
	"   JOIN thread th ON th.answers = s2.msgid"
	"   JOIN message_info ri ON ri.msgid = th.msgid AND" ANSWERING("ri")
	"   JOIN messages rm ON rm.msgid = th.msgid"
	"   WHERE s2.series = s.series"
	"   AND lower(rm.from_addr) <> lower(m.from_addr)"
	"   AND NOT EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = th.msgid))),"
	" (SELECT group_concat(t.key || ': ' || t.value, char(10)) FROM"
	"   (SELECT key, value FROM review_tags WHERE series = s.series"
	"    AND why_not IS NULL ORDER BY date, msgid, seq) t),"
	" EXISTS (SELECT 1 FROM series s3 JOIN matches x"
	"   ON x.message_id = s3.msgid WHERE s3.series = s.series"
	"   AND x.commit_sha = ?1 AND " POSTED ")"
	" FROM series s JOIN messages m ON m.msgid = s.series"
	" LEFT JOIN message_info i ON i.msgid = s.series"
	" WHERE s.msgid = s.series AND s.topic IN"
	" (SELECT s4.topic FROM matches x JOIN series s4"
	"   ON s4.msgid = x.message_id WHERE x.commit_sha = ?1 AND " POSTED ")"
	" ORDER BY 2, m.date, s.series";

/* The columns of sql_versions, named once. */
struct version_rows {
	onlist_version_row_cb cb;
	void *data;
};

static int version_row(int ncol, const char *const *c, void *data)
{
	const struct version_rows *v = data;
	struct onlist_version_row r = {
		.series = c[0], .version = c[1] ? atoi(c[1]) : 1,
		.date = c[2], .lists = c[3], .subject = c[4],
		.replies = c[5] ? atoi(c[5]) : 0, .tags = c[6],
		.posted = c[7] && atoi(c[7]),
	};

	(void)ncol;
	return v->cb(&r, v->data);
}

onlist_status onlist_store_review_topic_versions(struct onlist_store *s,
					  const char *sha,
					  onlist_version_row_cb cb,
					  void *data)
{
	struct version_rows v = { cb, data };
	sqlite3_stmt *st = onlist__store_prepare(s, sql_versions);

	if (!st)
		return fail(s, "prepare");
	return onlist__store_rows(s, st, &sha, 1, version_row, &v, NULL);
}

static const char sql_posting_replies[] =
	"SELECT replies, repliers FROM posting_replies WHERE sha = ?1"
	" AND msgid = ?2";

static int take_counts2(int ncol, const char *const *c, void *data)
{
	int *v = data;

	(void)ncol;
	v[0] = c[0] ? atoi(c[0]) : 0;
	v[1] = c[1] ? atoi(c[1]) : 0;
	return 1;
}

onlist_status onlist_store_review_posting_replies(struct onlist_store *s,
					   const char *sha, const char *msgid,
					   int *replies, int *repliers)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_posting_replies);
	const char *p[2] = { sha, msgid };
	int v[2] = { 0, 0 };
	long n = 0;
	onlist_status ret;

	if (!st)
		return fail(s, "prepare");
	ret = onlist__store_rows(s, st, p, 2, take_counts2, v, &n);
	if (ret == ONLIST_OK && !n)
		return ONLIST_ENOTFOUND;
	*replies = v[0];
	*repliers = v[1];
	return ret;
}
