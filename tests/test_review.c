/* test_review.c - when the review state of a posted commit is `unknown`
 * (review.h): no review on the list, a review trailer in git from someone
 * who is no author, sender or bot, and an archive that ends before the
 * commit landed or less than a day after.  One posting, Ann's, and a
 * reply or none; each expected state is written by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/review.h"

#define DAY 86400
#define LANDED 1615377600	/* 2021-03-10 12:00 UTC */

static const struct {
	const char *name;
	const char *key, *tname, *addr;	/* the commit's one trailer */
	int bot;
	int reply;			/* Ivan asked a question */
	int64_t end;			/* the archive's end; 0: not known */
	int64_t landed;
	const char *state;
} cases[] = {
	/* the archive ends before the landing: the ack may come later */
	{ "ends before", "Acked-by", "Carol", "carol@x", 0, 0,
	  LANDED - 8 * DAY, LANDED, "unknown" },
	{ "ends before, discussed", "Reviewed-by", "Dave", "dave@x", 0, 1,
	  LANDED - 8 * DAY, LANDED, "unknown" },
	{ "Tested-by, no address", "Tested-by", "Dave Tester", "", 0, 0,
	  LANDED - DAY, LANDED, "unknown" },
	/* a day's margin: hours after the landing is not enough */
	{ "ends 6 hours after", "Acked-by", "Carol", "carol@x", 0, 0,
	  LANDED + 6 * 3600, LANDED, "unknown" },
	{ "ends a day after", "Acked-by", "Carol", "carol@x", 0, 0,
	  LANDED + DAY, LANDED, "no_reply" },
	/* the archive goes on: the ack was given off the list */
	{ "ends months after", "Acked-by", "Carol", "carol@x", 0, 0,
	  LANDED + 90 * DAY, LANDED, "no_reply" },
	{ "months after, discussed", "Acked-by", "Carol", "carol@x", 0, 1,
	  LANDED + 90 * DAY, LANDED, "discussed" },
	/* no review trailer, or one that is no review by someone else */
	{ "Signed-off-by only", "Signed-off-by", "Carol", "carol@x", 0, 0,
	  LANDED - 8 * DAY, LANDED, "no_reply" },
	{ "the author's own ack", "Acked-by", "Ann", "ann@x", 0, 0,
	  LANDED - 8 * DAY, LANDED, "no_reply" },
	{ "the sender's ack", "Acked-by", "Sam", "sam@x", 0, 0,
	  LANDED - 8 * DAY, LANDED, "no_reply" },
	{ "a bot's test", "Tested-by", "syzbot", "syzbot+1@x", 1, 0,
	  LANDED - 8 * DAY, LANDED, "no_reply" },
	/* nothing known of the dates: the state as it was */
	{ "no archive end", "Acked-by", "Carol", "carol@x", 0, 0,
	  0, LANDED, "no_reply" },
	{ "no landing", "Acked-by", "Carol", "carol@x", 0, 0,
	  LANDED - 8 * DAY, 0, "no_reply" },
};

static void test_unknown(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		/* Sam sent Ann's patch (her in-body From:) */
		struct onlist_review_msg m = {
			.msgid = "p@x", .series = "p@x", .from = "sam@x",
			.stripped = "add the helper", .posting = 1,
			.author = "ann@x", .codev = "", .part = -1, .total = -1,
		};
		struct onlist_review_reply r = {
			.msgid = "q@x", .target = "p@x", .sender = "ivan@x",
		};
		struct onlist_review_trailer t = {
			cases[i].key, cases[i].tname, cases[i].addr, cases[i].bot,
		};
		struct onlist_review_in in = {
			.author = "ann@x", .subject = "add the helper",
			.trailers = &t, .ntrailers = 1, .msgs = &m, .nmsgs = 1,
			.replies = &r, .nreplies = (size_t)cases[i].reply,
			.landed = cases[i].landed, .archive_end = cases[i].end,
		};
		unsigned char off[1];
		struct onlist_review_out out = { .off_list = off };

		assert_int_equal(onlist_review_commit(&in, &out), ONLIST_OK);
		if (strcmp(onlist_review_state_name(out.state), cases[i].state))
			fail_msg("%s: %s, expected %s", cases[i].name,
				 onlist_review_state_name(out.state),
				 cases[i].state);
		/* the trailer that made it unknown is named */
		assert_int_equal(out.untold,
				 !strcmp(cases[i].state, "unknown") ? 0 : -1);
	}
	assert_string_equal(onlist_review_state_name(ONLIST_REVIEW_UNKNOWN),
			    "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
