/* test_report.c - the report model (report.h) on a small database built
 * here: seven commits that landed in one window, each written to fall in
 * one section, and the model's rows, sections, totals and tables checked
 * against expectations written by hand.
 *
 * The archive holds mail from day 100 to day 110 (T + days).  Commits:
 *   A  never posted, carries a CVE id: a fix that bypassed review
 *   B  posted (m1), no reply, Cc: stable: a fix that bypassed review
 *   C  posted (m3, v2), discussed
 *   D  posted (m4), reviewed; its CVE id does not mark it
 *   E  never posted, landed 40 days before the archive: not looked for
 *   F  never posted, "Release 1.2": a release
 *   G  posted only in an edited form (fuzzy, m5), no reply
 * Committers: Carl (A, B, C), Dora (D, E, F, G). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "onlist/report.h"

#define DAY 86400
#define T ((int64_t)1700000000)
#define SHA(c) c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c c

/* A day from T, and the commits' shas, as SQL literals. */
#define AT(n) "(1700000000 + " #n " * 86400)"
#define SA "'" SHA("a") "'"
#define SB "'" SHA("b") "'"
#define SC "'" SHA("c") "'"
#define SD "'" SHA("d") "'"
#define SE "'" SHA("e") "'"
#define SF "'" SHA("f") "'"
#define SG "'" SHA("1") "'"

static const char fill_sql[] =
	"INSERT INTO messages(msgid, list, date, from_name, from_addr, subject,"
	" in_reply_to, has_patch) VALUES"
	" ('m1', 'l', " AT(100) ", 'Bea', 'b@x', '[PATCH] b: fix', NULL, 1),"
	" ('m3', 'l', " AT(101) ", 'Cid', 'c@x', '[PATCH v2] c: add', NULL, 1),"
	" ('r3', 'l', " AT(102) ", 'Rae', 'r@x', 'Re: [PATCH v2] c: add', 'm3', 0),"
	" ('m4', 'l', " AT(103) ", 'Dan', 'd@x', '[PATCH] d: fix', NULL, 1),"
	" ('m5', 'l', " AT(110) ", 'Gus', 'g@x', '[PATCH] g: other', NULL, 1);"
	"INSERT INTO message_info(msgid, class, version) VALUES"
	" ('m1', 'patch', 1), ('m3', 'patch', 2), ('r3', 'reply', 2),"
	" ('m4', 'patch', 1), ('m5', 'patch', 1);"
	"INSERT INTO commits(sha, author_name, author_email, author_date,"
	" committer_name, committer_email, commit_date, subject, body,"
	" body_empty, files) VALUES"
	" (" SA ", 'Ann', 'a@x', " AT(104) ", 'Carl', 'carl@x', " AT(104) ", 'a: plug a leak',"
	"  'Fixes CVE-2023-1234.\n\nSigned-off-by: Ann <a@x>', 0, 'src/a.c'),"
	" (" SB ", 'Bea', 'b@x', " AT(104) ", 'Carl', 'carl@x', " AT(104) ", 'b: fix',"
	"  'Cc: stable@vger.kernel.org', 1, 'lib/b.c'),"
	" (" SC ", 'Cid', 'c@x', " AT(104) ", 'Carl', 'carl@x', " AT(104) ", 'c: add',"
	"  'More.', 0, 'src/c.c\nsrc/d.c'),"
	" (" SD ", 'Dan', 'd@x', " AT(104) ", 'Dora', 'dora@x', " AT(104) ", 'd: fix',"
	"  'CVE-2023-9999', 0, 'README'),"
	" (" SE ", 'Eve', 'e@x', " AT(60) ", 'Dora', 'dora@x', " AT(60) ", 'e: old',"
	"  'Old.', 0, 'src/e.c'),"
	" (" SF ", 'Fay', 'f@x', " AT(105) ", 'Dora', 'dora@x', " AT(105) ", 'Release 1.2',"
	"  '', 1, 'VERSION'),"
	" (" SG ", 'Gus', 'g@x', " AT(106) ", 'Dora', 'dora@x', " AT(106) ", 'g: change',"
	"  'Changed.', 0, 'src/g.c');"
	"INSERT INTO trailers(sha, seq, key, value) VALUES"
	" (" SA ", 0, 'Signed-off-by', 'Ann <a@x>'), (" SA ", 1, 'Acked-by', 'Zed <z@x>');"
	"INSERT INTO landing(sha, landed_date, merge_sha, merge_subject)"
	" SELECT sha, commit_date, sha, subject FROM commits;"
	"INSERT INTO matches(commit_sha, message_id, method) VALUES"
	" (" SB ", 'm1', 'patch_id'), (" SC ", 'm3', 'patch_id'), (" SD ", 'm4', 'patch_id'),"
	" (" SG ", 'm5', 'fuzzy');"
	"INSERT INTO replies(patch, reply, by_author) VALUES ('m3', 'r3', 0);"
	"INSERT INTO commit_review(sha, state) VALUES"
	" (" SB ", 'no_reply'), (" SC ", 'discussed'), (" SD ", 'reviewed'), (" SG ", 'no_reply');";

static char dbpath[64];
static struct onlist_store *db;

static int setup(void **state)
{
	struct onlist_store *s = NULL;
	char *err = NULL;
	const char *sql = fill_sql;
	sqlite3 *h;
	int fd;

	(void)state;
	snprintf(dbpath, sizeof dbpath, "/tmp/test_report.XXXXXX");
	assert_true((fd = mkstemp(dbpath)) >= 0);
	close(fd);
	unlink(dbpath);
	assert_int_equal(onlist_store_open(&s, dbpath, &err), ONLIST_OK);
	onlist_store_close(s);
	assert_int_equal(sqlite3_open(dbpath, &h), SQLITE_OK);
	if (sqlite3_exec(h, sql, NULL, NULL, &err) != SQLITE_OK)
		fail_msg("filling the database: %s", err);
	sqlite3_close(h);
	assert_int_equal(onlist_store_open_read(&db, dbpath, &err), ONLIST_OK);
	return 0;
}

static int teardown(void **state)
{
	char side[80];

	(void)state;
	onlist_store_close(db);
	unlink(dbpath);
	snprintf(side, sizeof side, "%s-wal", dbpath);
	unlink(side);
	snprintf(side, sizeof side, "%s-shm", dbpath);
	unlink(side);
	return 0;
}

/* The window: day 50 to day 120, so that E (day 60) is in it. */
static struct onlist_report *build(struct onlist_report_ctx *cx)
{
	struct onlist_report *r = NULL;
	char *err = NULL;

	cx->db = db;
	cx->depth = 1;
	if (onlist_report_ctx_load(cx, &err) ||
	    onlist_report_new(&r, "test") ||
	    onlist_report_load_window(r, cx, T + 50 * DAY, T + 120 * DAY, &err) ||
	    onlist_report_finish(r, cx, &err))
		fail_msg("building the report: %s", err ? err : "?");
	return r;
}

static const struct onlist_report_row *row(const struct onlist_report *r,
					   char c)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (r->rows[i].sha[0] == c)
			return &r->rows[i];
	fail_msg("no row %c", c);
	return NULL;
}

static void test_rows(void **state)
{
	struct onlist_report_ctx cx = { 0 };
	struct onlist_report *r = build(&cx);
	const struct onlist_report_row *x;

	(void)state;
	assert_int_equal(r->nrows, 7);
	assert_int_equal(cx.span.first, T + 100 * DAY);
	assert_int_equal(cx.span.last, T + 110 * DAY);
	/* by landing date: E first, then A B C D (same day, by sha), F, G */
	assert_int_equal(r->rows[0].sha[0], 'e');
	assert_int_equal(r->rows[6].sha[0], '1');

	x = row(r, 'a');
	assert_string_equal(x->subject, "a: plug a leak");
	assert_string_equal(x->author, "Ann");
	assert_string_equal(x->committer, "Carl");
	assert_string_equal(x->trailers,
			    "Signed-off-by: Ann <a@x>\nAcked-by: Zed <z@x>");
	assert_string_equal(x->subsys, "src");
	assert_int_equal(x->cat, ONLIST_REPORT_NEVER);
	assert_int_equal(x->v.reason, ONLIST_REASON_NO_TRACE);
	assert_string_equal(x->v.security, "CVE-2023-1234");
	assert_true(x->security);
	assert_int_equal(x->postings, 0);
	assert_null(x->msgid);
	assert_true(x->landed);
	assert_string_equal(x->merge_sha, x->sha);

	x = row(r, 'b');
	assert_int_equal(x->cat, ONLIST_REPORT_NOREPLY);
	assert_true(x->body_empty);
	assert_int_equal(x->postings, 1);
	assert_int_equal(x->exact, 1);
	assert_string_equal(x->msgid, "m1");
	assert_string_equal(x->list, "l");
	assert_int_equal(x->npost, 1);
	assert_string_equal(x->post[0].msgid, "m1");
	assert_int_equal(x->post[0].version, 1);
	assert_true(x->security);	/* Cc: stable, no review */
	assert_string_equal(x->subsys, "lib");

	x = row(r, 'c');
	assert_int_equal(x->cat, ONLIST_REPORT_DISCUSSED);
	assert_int_equal(x->replies, 1);
	assert_int_equal(x->post[0].version, 2);
	assert_false(x->security);

	x = row(r, 'd');
	assert_int_equal(x->cat, ONLIST_REPORT_REVIEWED);
	assert_null(x->v.security);	/* a CVE id, but reviewed */
	assert_false(x->security);
	assert_string_equal(x->subsys, "(top level)");

	x = row(r, 'e');
	assert_int_equal(x->cat, ONLIST_REPORT_UNKNOWN);
	assert_false(x->security);

	x = row(r, 'f');
	assert_int_equal(x->cat, ONLIST_REPORT_NEVER);
	assert_int_equal(x->v.reason, ONLIST_REASON_RELEASE);

	x = row(r, '1');
	assert_int_equal(x->cat, ONLIST_REPORT_NOREPLY);
	assert_true(x->modified);
	assert_int_equal(x->exact, 0);
	assert_int_equal(x->fuzzy, 1);

	onlist_report_free(r);
	onlist_report_ctx_release(&cx);
}

/* The rows' first letters, in order, of a list of row numbers. */
static void list_is(const struct onlist_report *r,
		    const struct onlist_report_list *l, const char *want)
{
	char got[16] = "";

	for (size_t i = 0; i < l->n && i < sizeof got - 1; i++)
		got[i] = r->rows[l->v[i]].sha[0];
	assert_string_equal(got, want);
}

static void test_sections(void **state)
{
	struct onlist_report_ctx cx = { 0 };
	struct onlist_report *r = build(&cx);

	(void)state;
	assert_int_equal(r->count[ONLIST_REPORT_NEVER], 2);
	assert_int_equal(r->count[ONLIST_REPORT_NOREPLY], 2);
	assert_int_equal(r->count[ONLIST_REPORT_DISCUSSED], 1);
	assert_int_equal(r->count[ONLIST_REPORT_SERIES], 0);
	assert_int_equal(r->count[ONLIST_REPORT_REVIEWED], 1);
	assert_int_equal(r->count[ONLIST_REPORT_UNKNOWN], 1);
	list_is(r, &r->cat[ONLIST_REPORT_NEVER], "af");
	list_is(r, &r->cat[ONLIST_REPORT_NOREPLY], "b1");
	list_is(r, &r->never[ONLIST_REASON_NO_TRACE], "a");
	list_is(r, &r->never[ONLIST_REASON_RELEASE], "f");
	list_is(r, &r->never[ONLIST_REASON_REVERT], "");
	list_is(r, &r->security, "ab");
	assert_true(r->modified_known);	/* a fuzzy match exists */
	assert_int_equal(r->modified, 1);
	assert_false(r->maintainers);
	assert_string_equal(onlist_report_cat_name(ONLIST_REPORT_SERIES),
			    "reviewed_series");

	/* per committer: Carl 1 of 3 never posted before Dora's 1 of 4 */
	assert_int_equal(r->ngroups[ONLIST_REPORT_BY_COMMITTER], 2);
	{
		const struct onlist_report_group *g =
			r->groups[ONLIST_REPORT_BY_COMMITTER];

		assert_string_equal(g[0].name, "Carl");
		assert_int_equal(g[0].commits, 3);
		assert_int_equal(g[0].never, 1);
		assert_int_equal(g[0].no_reply, 1);
		assert_int_equal(g[0].discussed, 1);
		assert_int_equal(g[0].modified, 0);
		assert_string_equal(g[1].name, "Dora");
		assert_int_equal(g[1].commits, 4);
		assert_int_equal(g[1].never, 1);
		assert_int_equal(g[1].no_reply, 1);
		assert_int_equal(g[1].modified, 1);
	}
	/* per subsystem: (top level) D, src A C E G, lib B, VERSION F is
	 * (top level) too; the largest never-posted share first */
	{
		const struct onlist_report_group *g =
			r->groups[ONLIST_REPORT_BY_SUBSYSTEM];

		assert_int_equal(r->ngroups[ONLIST_REPORT_BY_SUBSYSTEM], 3);
		assert_string_equal(g[0].name, "(top level)");	/* 1 of 2 */
		assert_string_equal(g[1].name, "src");		/* 1 of 4 */
		assert_string_equal(g[2].name, "lib");		/* 0 of 1 */
	}
	onlist_report_free(r);
	onlist_report_ctx_release(&cx);
}

static void test_weeks(void **state)
{
	struct onlist_report_ctx cx = { 0 };
	struct onlist_report_week w[3];
	int64_t since = T + 100 * DAY;
	char *err = NULL;

	(void)state;
	cx.db = db;
	cx.depth = 1;
	assert_int_equal(onlist_report_ctx_load(&cx, &err), ONLIST_OK);
	assert_int_equal(onlist_report_week_counts(&cx, since, 3, w, &err),
			 ONLIST_OK);
	/* day 104: A B C D; day 105, 106: F G; nothing in the third week */
	assert_int_equal(w[0].start, since);
	assert_int_equal(w[0].total, 6);
	assert_int_equal(w[0].n[ONLIST_REPORT_NEVER], 2);
	assert_int_equal(w[0].n[ONLIST_REPORT_NOREPLY], 2);
	assert_int_equal(w[0].n[ONLIST_REPORT_REVIEWED], 1);
	assert_int_equal(w[1].total, 0);
	assert_int_equal(w[2].start, since + 2 * 7 * DAY);
	onlist_report_ctx_release(&cx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_weeks),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
