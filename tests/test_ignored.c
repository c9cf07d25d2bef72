/* test_ignored.c - the verdict on one topic (ignored.h), a table of
 * topics and replies with each expected state written by hand.  The
 * scope: commits from day 10 to day 100, mail up to day 120, four
 * weeks' age: the line is day 72. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/ignored.h"

#define DAY 86400

static int known_path(const char *path, void *data)
{
	(void)data;
	return !strncmp(path, "src/", 4);
}

static const struct onlist_ignored_scope scope = {
	10 * DAY, 100 * DAY, 120 * DAY, 28 * DAY, known_path, NULL
};

/* One patch from Ann (ann@x, "Ann Author"), to src/a.c, on `day`. */
#define PATCH(day, files, commit) \
	{ "p1", "p1", (day) * DAY, "l", "ann@x", "Ann Author", "[PATCH] a", \
	  "", "", 1, 0, files, commit }
#define REPLY(from, name, bot, notice) \
	{ "r1", "p1", 31 * DAY, from, name, bot, notice }

static const struct {
	const char *what;
	struct onlist_ignored_msg m;
	int nr;
	struct onlist_ignored_reply r;
	enum onlist_ignored_state want;
} cases[] = {
	{ "no reply, no commit", PATCH(30, "src/a.c", ""), 0, REPLY("", "", 0, 0),
	  ONLIST_IGN_IGNORED },
	{ "applied", PATCH(30, "src/a.c", "abc"), 0, REPLY("", "", 0, 0),
	  ONLIST_IGN_APPLIED },
	{ "applied, another project's files", PATCH(30, "kernel/x.c", "abc"), 0,
	  REPLY("", "", 0, 0), ONLIST_IGN_APPLIED },
	{ "another project's files", PATCH(30, "kernel/x.c", ""), 0,
	  REPLY("", "", 0, 0), ONLIST_IGN_OTHER },
	{ "answered", PATCH(30, "src/a.c", ""), 1, REPLY("bob@x", "Bob", 0, 0),
	  ONLIST_IGN_ANSWERED },
	{ "only the author", PATCH(30, "src/a.c", ""), 1,
	  REPLY("ann@x", "Ann Author", 0, 0), ONLIST_IGN_IGNORED },
	{ "the author from another address", PATCH(30, "src/a.c", ""), 1,
	  REPLY("ann@home", "ann  author", 0, 0), ONLIST_IGN_IGNORED },
	{ "one-word name is no one's", PATCH(30, "src/a.c", ""), 1,
	  REPLY("kim@y", "Ann", 0, 0), ONLIST_IGN_ANSWERED },
	{ "only a bot", PATCH(30, "src/a.c", ""), 1,
	  REPLY("lkp@intel.com", "kernel test robot", 1, 0), ONLIST_IGN_IGNORED },
	{ "only an applied notice", PATCH(30, "src/a.c", ""), 1,
	  REPLY("maint@x", "Maint", 0, 1), ONLIST_IGN_NOTICE },
	{ "a robot's applied notice", PATCH(30, "src/a.c", ""), 1,
	  REPLY("patchwork-bot@x", "patchwork-bot", 1, 1), ONLIST_IGN_NOTICE },
	{ "the author's own notice", PATCH(30, "src/a.c", ""), 1,
	  REPLY("ann@x", "Ann Author", 0, 1), ONLIST_IGN_NOTICE },
	{ "before the history", PATCH(5, "src/a.c", ""), 0, REPLY("", "", 0, 0),
	  ONLIST_IGN_BEFORE },
	{ "after the history", PATCH(101, "src/a.c", ""), 0, REPLY("", "", 0, 0),
	  ONLIST_IGN_AFTER },
	{ "too recent", PATCH(73, "src/a.c", ""), 0, REPLY("", "", 0, 0),
	  ONLIST_IGN_RECENT },
	{ "on the line", PATCH(72, "src/a.c", ""), 0, REPLY("", "", 0, 0),
	  ONLIST_IGN_IGNORED },
	{ "a new file in a known folder", PATCH(30, "kernel/x.c\nsrc/new.c", ""), 0,
	  REPLY("", "", 0, 0), ONLIST_IGN_IGNORED },
};

static void test_judge(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct onlist_ignored_out out;

		assert_int_equal(onlist_ignored_judge(&scope, &cases[i].m, 1,
						      &cases[i].r,
						      (size_t)cases[i].nr, &out),
				 ONLIST_OK);
		if (out.state != cases[i].want)
			fail_msg("%s: %s, expected %s", cases[i].what,
				 onlist_ignored_state_name(out.state),
				 onlist_ignored_state_name(cases[i].want));
	}
}

/* Two versions: the latest names the row; an answer to v1 answers all. */
static void test_versions(void **state)
{
	struct onlist_ignored_msg m[3] = {
		PATCH(30, "src/a.c", ""), PATCH(40, "", ""), PATCH(40, "src/a.c", ""),
	};
	struct onlist_ignored_reply r = REPLY("bob@x", "Bob", 0, 0);
	struct onlist_ignored_out out;

	(void)state;
	m[1].msgid = m[1].series = "c2";	/* v2's cover letter */
	m[1].cover = 1;
	m[1].version = 2;
	m[2].msgid = "p2";
	m[2].series = "c2";
	m[2].version = 2;
	assert_int_equal(onlist_ignored_judge(&scope, m, 3, NULL, 0, &out),
			 ONLIST_OK);
	assert_int_equal(out.state, ONLIST_IGN_IGNORED);
	assert_string_equal(m[out.head].msgid, "c2");
	assert_int_equal(out.series, 2);
	assert_int_equal(out.patches, 1);
	assert_int_equal(out.nversions, 2);
	assert_int_equal(out.versions[0], 1);
	assert_int_equal(out.versions[1], 2);
	assert_int_equal(onlist_ignored_judge(&scope, m, 3, &r, 1, &out),
			 ONLIST_OK);
	assert_int_equal(out.state, ONLIST_IGN_ANSWERED);
	assert_int_equal(onlist_ignored_judge(&scope, m, 0, NULL, 0, &out),
			 ONLIST_EUSAGE);
	assert_int_equal(onlist_ignored_line(&scope), 72 * DAY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_versions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
