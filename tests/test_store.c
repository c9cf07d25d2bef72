/* test_store.c - the typed rows of store.h, as the commands read them.
 *
 * A new database gets two commits (one scan could not diff), three mails
 * on two lists, skipped messages in two files, a fetch source and a
 * partial one; each reader's rows are written out one line a row and
 * compared with the lines written here by hand from store.h: the fields
 * each row kind names, which may be NULL (shown "-"), the order, and that
 * a callback's non-zero stops the walk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "onlist/repo_scan.h"
#include "onlist/store.h"

#define A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define B "abcdef0123456789abcdef0123456789abcdef01"

struct fixture {
	char dir[32], path[64];
	struct onlist_store *s;
};

/* What a reader passed: one line a row. */
struct out {
	char text[2048];
	int n, stop_at;		/* stop_at: the callback returns 1 there */
};

#define S(x) ((x) ? (x) : "-")

static int add(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int add(struct out *o, const char *fmt, ...)
{
	size_t len = strlen(o->text);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->text + len, sizeof(o->text) - len, fmt, ap);
	va_end(ap);
	return ++o->n == o->stop_at;
}

static int commit_row(const struct onlist_commit_row *r, void *data)
{
	return add(data, "%s %s %s <%s> %s\n", r->sha, S(r->date),
		   S(r->author_name), S(r->author_email), S(r->subject));
}

static int unposted_row(const struct onlist_unposted_row *r, void *data)
{
	return add(data, "%.6s %s %s [%s] %s|%s %lld\n", r->sha, S(r->date),
		   S(r->subject), S(r->not_diffed), S(r->body), S(r->files),
		   (long long)r->landed);
}

static int list_row(const struct onlist_list_row *r, void *data)
{
	return add(data, "%s %lld %lld %s..%s %s\n", r->list,
		   (long long)r->messages, (long long)r->patches, S(r->first),
		   S(r->last), S(r->fetched));
}

static int reason_row(const struct onlist_reason_row *r, void *data)
{
	return add(data, "%lld %s\n", (long long)r->count, r->reason);
}

static int skip_row(const struct onlist_skip_row *r, void *data)
{
	return add(data, "%s:%lld: %s\n", r->source, (long long)r->offset,
		   r->reason);
}

static int skipped_commit_row(const struct onlist_skipped_commit_row *r,
			      void *data)
{
	return add(data, "%.6s %s %s (%s)\n", r->sha, S(r->object), r->reason,
		   S(r->subject));
}

static int source_row(const struct onlist_source_row *r, void *data)
{
	return add(data, "%s [%s] %s partial=%d answers=%lld\n", r->url,
		   r->list, S(r->added), r->partial, (long long)r->answers);
}

static void put_commit(struct onlist_store *s, const char *sha,
		       const char *subject, int64_t date, const char *skip)
{
	struct onlist_commit c = { .author_name = "Ann", .author_email = "a@x",
				   .author_date = date, .commit_date = date,
				   .subject = (char *)subject, .body = "why",
				   .files = "a.c\n", .skip_reason = (char *)skip };

	snprintf(c.sha, sizeof(c.sha), "%s", sha);
	assert_int_equal(onlist_store_put_commit(s, &c), ONLIST_OK);
}

static void put_mail(struct onlist_store *s, const char *list,
		     const char *msgid, int64_t date, int patch)
{
	struct onlist_message_row m = { .list = list, .msgid = msgid,
					.date = date, .subject = "[PATCH] x",
					.has_patch = patch,
					.content_hash = msgid };
	char *key = NULL;
	int added, dup;

	assert_int_equal(onlist_store_put_message(s, &m, &added, &key, &dup),
			 ONLIST_OK);
	free(key);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *err = NULL;
	int added;

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_store.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->path, sizeof(f->path), "%s/s.db", f->dir);
	if (onlist_store_open(&f->s, f->path, &err) != ONLIST_OK)
		fail_msg("open: %s", err ? err : "?");
	free(err);
	put_commit(f->s, A, "first", 1600000000, NULL);
	put_commit(f->s, B, "second", 1600000100, "fatal: bad\nobject");
	put_mail(f->s, "lkml", "<1@x>", 1600000000, 1);
	put_mail(f->s, "lkml", "<2@x>", 1600000200, 0);
	put_mail(f->s, "fsdevel", "<3@x>", 1600000300, 1);
	assert_int_equal(onlist_store_put_skip(f->s, "/m/a.mbox", 10,
					       "no header", &added), ONLIST_OK);
	assert_int_equal(onlist_store_put_skip(f->s, "/m/a.mbox", 5,
					       "too big", &added), ONLIST_OK);
	assert_int_equal(onlist_store_put_skip(f->s, "/n/b.mbox", 0,
					       "no header", &added), ONLIST_OK);
	assert_int_equal(onlist_store_add_source(f->s, "/m/a.mbox", "lkml"),
			 ONLIST_OK);
	assert_int_equal(onlist_store_set_state(f->s, "https://x/y/",
						"partial", "xlist"), ONLIST_OK);
	assert_int_equal(onlist_store_set_state(f->s, "https://x/y/",
						"partial_added", "1700000000"),
			 ONLIST_OK);
	assert_int_equal(onlist_store_set_state(f->s, "https://x/y/", "q:1",
						"a"), ONLIST_OK);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char side[80];

	onlist_store_close(f->s);
	unlink(f->path);
	snprintf(side, sizeof(side), "%s-wal", f->path);
	unlink(side);
	snprintf(side, sizeof(side), "%s-shm", f->path);
	unlink(side);
	rmdir(f->dir);
	free(f);
	return 0;
}

static void test_commits_by_prefix(void **state)
{
	struct fixture *f = *state;
	static const struct {
		const char *prefix, *rows;
	} cases[] = {
		{ "aaaa", A " 1600000000 Ann <a@x> first\n" },
		{ "a", A " 1600000000 Ann <a@x> first\n"	/* ambiguous: */
		       B " 1600000100 Ann <a@x> second\n" },
		{ "b", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct out o = { "", 0, 0 };

		assert_int_equal(onlist_store_commits_by_prefix(f->s,
				 cases[i].prefix, commit_row, &o), ONLIST_OK);
		assert_string_equal(o.text, cases[i].rows);
	}
}

static void test_unposted(void **state)
{
	struct fixture *f = *state;
	struct out o = { "", 0, 0 }, one = { "", 0, 0 }, stop = { "", 0, 1 };

	assert_int_equal(onlist_store_unposted(f->s, unposted_row, &o),
			 ONLIST_OK);
	/* no landing row: landed is the commit date */
	assert_string_equal(o.text,
		"aaaaaa 1600000000 first [-] why|a.c\n 1600000000\n"
		"abcdef 1600000100 second [fatal: bad\nobject] why|a.c\n"
		" 1600000100\n");
	assert_int_equal(onlist_store_unposted_commit(f->s, B, unposted_row,
						      &one), ONLIST_OK);
	assert_int_equal(one.n, 1);
	assert_int_equal(onlist_store_unposted(f->s, unposted_row, &stop),
			 ONLIST_OK);
	assert_int_equal(stop.n, 1);
}

static void test_lists(void **state)
{
	struct fixture *f = *state;
	struct out o = { "", 0, 0 };

	assert_int_equal(onlist_store_lists(f->s, list_row, &o), ONLIST_OK);
	assert_string_equal(o.text,
		"fsdevel 1 1 1600000300..1600000300 -\n"
		"lkml 2 1 1600000000..1600000200 -\n");
}

static void test_skipped(void **state)
{
	struct fixture *f = *state;
	static const struct {
		const char *glob, *skips, *reasons;
	} cases[] = {
		{ NULL, "/m/a.mbox:5: too big\n/m/a.mbox:10: no header\n"
			"/n/b.mbox:0: no header\n",
		  "2 no header\n1 too big\n" },
		{ "/m/*", "/m/a.mbox:5: too big\n/m/a.mbox:10: no header\n",
		  "1 no header\n1 too big\n" },
		{ "/none*", "", "" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct out skips = { "", 0, 0 }, reasons = { "", 0, 0 };

		assert_int_equal(onlist_store_skipped(f->s, cases[i].glob,
						      skip_row, &skips),
				 ONLIST_OK);
		assert_string_equal(skips.text, cases[i].skips);
		assert_int_equal(onlist_store_skipped_by_reason(f->s,
				 cases[i].glob, reason_row, &reasons),
				 ONLIST_OK);
		assert_string_equal(reasons.text, cases[i].reasons);
	}
}

static void test_skipped_commits(void **state)
{
	struct fixture *f = *state;
	struct out o = { "", 0, 0 };

	assert_int_equal(onlist_store_skipped_commits(f->s, skipped_commit_row,
						      &o), ONLIST_OK);
	assert_string_equal(o.text, "abcdef - fatal: bad\nobject (second)\n");
}

static void test_sources(void **state)
{
	struct fixture *f = *state;
	struct out o = { "", 0, 0 }, p = { "", 0, 0 };

	assert_int_equal(onlist_store_sources(f->s, source_row, &o), ONLIST_OK);
	assert_int_equal(o.n, 1);
	assert_true(!strncmp(o.text, "/m/a.mbox [lkml] ", 17));
	assert_non_null(strstr(o.text, " partial=0 answers=0\n"));
	assert_int_equal(onlist_store_partial_sources(f->s, source_row, &p),
			 ONLIST_OK);
	assert_string_equal(p.text, "https://x/y/ [xlist] 1700000000 "
			    "partial=1 answers=1\n");
}

static void test_totals(void **state)
{
	struct fixture *f = *state;
	struct onlist_totals t;

	assert_int_equal(onlist_store_count_totals(f->s, &t), ONLIST_OK);
	assert_int_equal(t.messages, 3);
	assert_int_equal(t.patches, 2);
	assert_int_equal(t.skipped, 3);
	assert_int_equal(t.commits, 2);
	assert_int_equal(t.matches, 0);
	assert_int_equal(t.commits_matched, 0);
	/* what match prints: the commits, no message counted */
	memset(&t, 0xff, sizeof(t));
	assert_int_equal(onlist_store_count_matched(f->s, &t), ONLIST_OK);
	assert_int_equal(t.commits, 2);
	assert_int_equal(t.commits_matched, 0);
	assert_int_equal(t.messages, 0);
	assert_int_equal(t.patches, 0);
	assert_int_equal(t.skipped, 0);
}

/* A reading handle after onlist_store_begin_read() answers from one
 * state of the database: a commit written meanwhile (by another handle)
 * is not seen until it is opened again.  (Last: it adds a commit.) */
static void test_read_snapshot(void **state)
{
	struct fixture *f = *state;
	struct onlist_store *r = NULL;
	struct onlist_totals t;
	char *err = NULL;

	assert_int_equal(onlist_store_open_read(&r, f->path, &err), ONLIST_OK);
	assert_int_equal(onlist_store_begin_read(r), ONLIST_OK);
	assert_int_equal(onlist_store_count_totals(r, &t), ONLIST_OK);
	assert_int_equal(t.commits, 2);
	put_commit(f->s, "cccccccccccccccccccccccccccccccccccccccc", "third",
		   1600000200, NULL);
	assert_int_equal(onlist_store_count_totals(r, &t), ONLIST_OK);
	assert_int_equal(t.commits, 2);
	onlist_store_close(r);
	assert_int_equal(onlist_store_open_read(&r, f->path, &err), ONLIST_OK);
	assert_int_equal(onlist_store_begin_read(r), ONLIST_OK);
	assert_int_equal(onlist_store_count_totals(r, &t), ONLIST_OK);
	assert_int_equal(t.commits, 3);
	onlist_store_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_commits_by_prefix),
		cmocka_unit_test(test_unposted),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_skipped),
		cmocka_unit_test(test_skipped_commits),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_totals),
		cmocka_unit_test(test_read_snapshot),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
