/* test_thread.c - threads, series, topics and replies computed on plain
 * structs (thread.h), no database: each case a few messages and what
 * thread.h's rules say of them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/thread.h"

#define MSG(ID, IRT, REFS, FROM, DATE, CLS, PART, TOTAL, SUBJ, CID) \
	{ .msgid = ID, .in_reply_to = IRT, .refs = REFS, .from = FROM, \
	  .date = DATE, .cls = onlist_class_code(CLS), .has_patch = 0, \
	  .version = 1, \
	  .part = PART, .total = TOTAL, .stripped = SUBJ, .change_id = CID }

static int index_of(const struct onlist_thread_msg *v, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].msgid, id))
			return (int)i;
	return -1;
}

static int has_reply(const struct onlist_threads *t, int patch, int reply,
		     int by_author)
{
	for (size_t i = 0; i < t->nreplies; i++)
		if (t->replies[i].patch == patch && t->replies[i].reply == reply)
			return t->replies[i].by_author == by_author;
	return 0;
}

/* A cover letter, two patches below it, a review of the cover and the
 * author's answer to patch 1. */
static void test_series_and_replies(void **state)
{
	struct onlist_thread_msg v[] = {
		MSG("c", "", "", "a@x", 100, ONLIST_CLASS_COVER, 0, 2, "Series", ""),
		MSG("p1", "c", "c", "a@x", 101, ONLIST_CLASS_PATCH, 1, 2, "one", ""),
		MSG("p2", "c", "c", "a@x", 102, ONLIST_CLASS_PATCH, 2, 2, "two", ""),
		MSG("r", "c", "c", "b@y", 200, ONLIST_CLASS_REPLY, -1, -1, "Series", ""),
		MSG("ra", "p1", "c p1", "a@x", 300, ONLIST_CLASS_REPLY, -1, -1, "one", ""),
	};
	struct onlist_threads t = ONLIST_THREADS_INIT;
	size_t n = sizeof(v) / sizeof(*v);

	(void)state;
	assert_int_equal(onlist_thread_build(v, n, &t), ONLIST_OK);
	assert_int_equal(t.threads, 1);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i].root, 0);
	assert_int_equal(v[4].parent, 1);
	assert_int_equal(v[4].depth, 2);
	assert_int_equal(v[3].answers, 0);
	assert_int_equal(v[4].answers, 1);
	/* the patches belong to the cover's series; replies to none */
	assert_int_equal(v[1].series, 0);
	assert_int_equal(v[2].series, 0);
	assert_int_equal(v[3].series, -1);
	assert_null(v[3].topic);
	assert_int_equal(t.series, 1);
	assert_int_equal(t.topics, 1);
	assert_string_equal(v[1].topic, "a@x\x1fseries");
	/* a review of the cover is a reply to each patch */
	assert_int_equal(t.nreplies, 3);
	assert_true(has_reply(&t, 1, 3, 0));
	assert_true(has_reply(&t, 2, 3, 0));
	assert_true(has_reply(&t, 1, 4, 1));
	onlist_threads_release(&t);
	assert_null(t.replies);
}

/* References that form a loop: cut where found, one root. A missing
 * parent is skipped over to the last stored reference. */
static void test_loops_and_gaps(void **state)
{
	struct onlist_thread_msg v[] = {
		MSG("a", "b", "b", "x@x", 1, ONLIST_CLASS_REPLY, -1, -1, "s", ""),
		MSG("b", "a", "a", "x@x", 2, ONLIST_CLASS_REPLY, -1, -1, "s", ""),
		MSG("c", "gone", "b gone", "x@x", 3, NULL, -1, -1, "s", ""),
	};
	struct onlist_threads t = ONLIST_THREADS_INIT;

	(void)state;
	assert_int_equal(onlist_thread_build(v, 3, &t), ONLIST_OK);
	assert_int_equal(t.threads, 1);
	assert_int_equal(v[0].root, v[1].root);
	assert_int_equal(v[2].parent, 1);
	assert_int_equal(v[2].root, v[1].root);
	assert_int_equal(t.nreplies, 0);
	onlist_threads_release(&t);
}

/* Broken threading: patches sent within the hour of their cover, same
 * sender and length, join it; versions share the topic of a change-id
 * given in any mail of the series. */
static void test_by_date_and_change_id(void **state)
{
	struct onlist_thread_msg v[] = {
		MSG("v1c", "", "", "a@x", 1000, ONLIST_CLASS_COVER, 0, 2, "Work", ""),
		MSG("v1p1", "", "", "a@x", 1010, ONLIST_CLASS_PATCH, 1, 2, "one", "abc"),
		MSG("v1p2", "", "", "a@x", 1020, ONLIST_CLASS_PATCH, 2, 2, "two", ""),
		MSG("far", "", "", "a@x", 9000, ONLIST_CLASS_PATCH, 2, 2, "two", ""),
		MSG("v2c", "", "", "a@x", 20000, ONLIST_CLASS_COVER, 0, 2, "Work", "abc"),
	};
	struct onlist_threads t = ONLIST_THREADS_INIT;
	int c1 = index_of(v, 5, "v1c");

	(void)state;
	assert_int_equal(onlist_thread_build(v, 5, &t), ONLIST_OK);
	assert_int_equal(v[1].series, c1);
	assert_int_equal(v[2].series, c1);
	assert_int_equal(v[3].series, 3);	/* over an hour away: alone */
	assert_string_equal(v[0].topic, "change-id:abc");
	assert_string_equal(v[4].topic, "change-id:abc");
	/* but the same patch from the same sender: a version of it */
	assert_string_equal(v[3].topic, "change-id:abc");
	assert_int_equal(t.threads, 5);
	assert_int_equal(t.series, 3);
	assert_int_equal(t.topics, 1);
	onlist_threads_release(&t);
}

/* Versions whose cover letters differ: linked by a patch of the same
 * sender and subject, or by v2's cover letter answering v1; not by
 * another sender's patch of the same subject.  The topic is the least
 * key, whatever the order of the messages. */
static void test_renamed_versions(void **state)
{
	struct onlist_thread_msg v[] = {
		MSG("v2c", "", "", "a@x", 5000, ONLIST_CLASS_COVER, 0, 1, "New name", ""),
		MSG("v2p", "v2c", "v2c", "a@x", 5001, ONLIST_CLASS_PATCH, 1, 1, "fix it", ""),
		MSG("v1c", "", "", "a@x", 1000, ONLIST_CLASS_COVER, 0, 1, "Old name", ""),
		MSG("v1p", "v1c", "v1c", "a@x", 1001, ONLIST_CLASS_PATCH, 1, 1, "fix it", ""),
		MSG("w1c", "", "", "a@x", 1000, ONLIST_CLASS_COVER, 0, 1, "Other", ""),
		MSG("w1p", "w1c", "w1c", "a@x", 1001, ONLIST_CLASS_PATCH, 1, 1, "one", ""),
		MSG("w2c", "w1c", "w1c", "b@y", 9000, ONLIST_CLASS_COVER, 0, 1, "Taken", ""),
		MSG("w2p", "w2c", "w1c w2c", "b@y", 9001, ONLIST_CLASS_PATCH, 1, 1, "uno", ""),
		MSG("z", "", "", "c@z", 9000, ONLIST_CLASS_PATCH, -1, -1, "fix it", ""),
	};
	struct onlist_threads t = ONLIST_THREADS_INIT;

	(void)state;
	v[0].version = v[1].version = v[6].version = v[7].version = 2;
	assert_int_equal(onlist_thread_build(v, 9, &t), ONLIST_OK);
	assert_string_equal(v[0].topic, "a@x\x1fnew name");
	assert_string_equal(v[2].topic, "a@x\x1fnew name");
	assert_string_equal(v[3].topic, "a@x\x1fnew name");
	assert_string_equal(v[6].topic, "a@x\x1fother");
	assert_string_equal(v[7].topic, "a@x\x1fother");
	assert_string_equal(v[8].topic, "c@z\x1f" "fix it");
	assert_int_equal(t.series, 5);
	assert_int_equal(t.topics, 3);
	onlist_threads_release(&t);
}

/* A "Re:" that carries a diff is a patch of its own (its own series and
 * topic) and a reply to what it answers: to the patch, or below a cover
 * letter to each patch of the series.  The author's own counts as hers. */
static void test_reply_with_diff(void **state)
{
	struct onlist_thread_msg v[] = {
		MSG("c", "", "", "a@x", 100, ONLIST_CLASS_COVER, 0, 2, "Series", ""),
		MSG("p1", "c", "c", "a@x", 101, ONLIST_CLASS_PATCH, 1, 2, "one", ""),
		MSG("p2", "c", "c", "a@x", 102, ONLIST_CLASS_PATCH, 2, 2, "two", ""),
		MSG("d", "p1", "c p1", "b@y", 200, ONLIST_CLASS_PATCH, -1, -1, "one", ""),
		MSG("dc", "c", "c", "b@y", 201, ONLIST_CLASS_PATCH, -1, -1, "Series", ""),
		MSG("da", "p2", "c p2", "a@x", 202, ONLIST_CLASS_PATCH, -1, -1, "two", ""),
		MSG("n", "p2", "c p2", "b@y", 203, ONLIST_CLASS_PATCH, -1, -1, "three", ""),
	};
	struct onlist_threads t = ONLIST_THREADS_INIT;

	(void)state;
	v[3].reply = v[4].reply = v[5].reply = 1;	/* "n" is no Re: */
	assert_int_equal(onlist_thread_build(v, 7, &t), ONLIST_OK);
	assert_int_equal(v[3].series, 3);
	assert_string_equal(v[3].topic, "b@y\x1fone");
	assert_int_equal(v[3].answers, 1);
	assert_true(has_reply(&t, 1, 3, 0));
	assert_true(has_reply(&t, 1, 4, 0));
	assert_true(has_reply(&t, 2, 4, 0));
	assert_true(has_reply(&t, 2, 5, 1));
	assert_int_equal(t.nreplies, 4);
	onlist_threads_release(&t);
}

/* Versions linked by who wrote them when the sender's address differs:
 * the in-body author of a patch someone else posted (not of a stable
 * backport), and a display name of two words or more.  A topic keeps the
 * name of its least sender key. */
static void test_other_identities(void **state)
{
	struct onlist_thread_msg v[] = {
		/* 0, 1: Ann's v1; the maintainer posts v2 with her From: */
		MSG("a1", "", "", "ann@x", 1000, ONLIST_CLASS_PATCH, -1, -1, "Add it", ""),
		MSG("a2", "", "", "mo@x", 2000, ONLIST_CLASS_PATCH, -1, -1, "add it", ""),
		/* 2, 3: the same, but a backport by a stable maintainer */
		MSG("b1", "", "", "ann@x", 1000, ONLIST_CLASS_PATCH, -1, -1, "Back", ""),
		MSG("b2", "", "", "greg@x", 2000, ONLIST_CLASS_PATCH, -1, -1, "back", ""),
		/* 4, 5: Luiz from two addresses; a cover letter and a patch */
		MSG("l1", "", "", "luiz@work", 1000, ONLIST_CLASS_COVER, 0, 2, "Two", ""),
		MSG("l2", "", "", "luiz@home", 2000, ONLIST_CLASS_PATCH, -1, -1, "two", ""),
		/* 6, 7: Kim from two addresses: one word says too little */
		MSG("k1", "", "", "kim@a", 1000, ONLIST_CLASS_PATCH, -1, -1, "Kim's", ""),
		MSG("k2", "", "", "kim@b", 2000, ONLIST_CLASS_PATCH, -1, -1, "kim's", ""),
		/* 8: the same two-word name, another subject: alone */
		MSG("l3", "", "", "luiz@home", 3000, ONLIST_CLASS_PATCH, -1, -1, "Three", ""),
	};
	struct onlist_threads t = ONLIST_THREADS_INIT;

	(void)state;
	v[1].author = v[3].author = "ann@x";
	v[1].author_name = v[3].author_name = "Ann Author";
	v[3].backport = 1;
	v[4].from_name = "Luiz Augusto von Dentz";
	v[5].from_name = v[8].from_name = "luiz  augusto VON dentz";
	v[6].from_name = v[7].from_name = "Kim";
	v[1].version = v[3].version = v[5].version = v[7].version = 2;
	assert_int_equal(onlist_thread_build(v, 9, &t), ONLIST_OK);
	assert_string_equal(v[0].topic, "ann@x\x1f" "add it");
	assert_string_equal(v[1].topic, "ann@x\x1f" "add it");
	assert_string_equal(v[2].topic, "ann@x\x1f" "back");
	assert_string_equal(v[3].topic, "greg@x\x1f" "back");
	assert_string_equal(v[4].topic, "luiz@home\x1f" "two");
	assert_string_equal(v[5].topic, "luiz@home\x1f" "two");
	assert_string_equal(v[6].topic, "kim@a\x1f" "kim's");
	assert_string_equal(v[7].topic, "kim@b\x1f" "kim's");
	assert_string_equal(v[8].topic, "luiz@home\x1f" "three");
	assert_int_equal(t.topics, 7);
	onlist_threads_release(&t);

	/* the in-body author's name counts as a display name too */
	v[1].from_name = "Ann Author";
	v[1].author = "";
	v[0].from_name = "Ann  Author";
	assert_int_equal(onlist_thread_build(v, 9, &t), ONLIST_OK);
	assert_string_equal(v[1].topic, "ann@x\x1f" "add it");
	onlist_threads_release(&t);
	v[1].from_name = "Mo Maintainer";
	v[1].author = "other@x";
	assert_int_equal(onlist_thread_build(v, 9, &t), ONLIST_OK);
	assert_string_equal(v[1].topic, "ann@x\x1f" "add it");
	onlist_threads_release(&t);
	v[1].author_name = "";
	assert_int_equal(onlist_thread_build(v, 9, &t), ONLIST_OK);
	assert_string_equal(v[1].topic, "mo@x\x1f" "add it");
	onlist_threads_release(&t);
}

static void test_empty(void **state)
{
	struct onlist_threads t = ONLIST_THREADS_INIT;

	(void)state;
	assert_int_equal(onlist_thread_build(NULL, 0, &t), ONLIST_OK);
	assert_int_equal(t.threads, 0);
	assert_int_equal(t.nreplies, 0);
	onlist_threads_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series_and_replies),
		cmocka_unit_test(test_loops_and_gaps),
		cmocka_unit_test(test_by_date_and_change_id),
		cmocka_unit_test(test_renamed_versions),
		cmocka_unit_test(test_reply_with_diff),
		cmocka_unit_test(test_other_identities),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
