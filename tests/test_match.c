/* test_match.c - the match tiers' decisions, as tables of cases.
 *
 * The link tier takes a mail a commit's Link: names unless it is another
 * project's patch (no file in common, another subject); the author-date
 * tier takes a mail with the commit's author and date only when it also
 * shows a file or the subject of the commit.  Each row says, by hand,
 * what the tier must decide and why.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "../src/match_int.h"

struct fit_case {
	const char *why;
	int cover;
	const char *commit_subject, *commit_files;
	const char *mail_stripped, *mail_files;
	int link;		/* what the link tier decides */
	int author_date;	/* what the author-date tier decides */
};

static const struct fit_case cases[] = {
	{ "the posting: same file, same subject", 0,
	  "io_uring: fix a leak", "io_uring/rw.c\n",
	  "io_uring: fix a leak", "io_uring/rw.c\n", 1, 1 },
	{ "reworded on the way in, same file", 0,
	  "io_uring: fix a leak", "io_uring/rw.c\n",
	  "io_uring/rw: plug the leak", "io_uring/rw.c\n", 1, 1 },
	{ "one of several files in common", 0,
	  "test: add a case", "test/a.c\ntest/Makefile\n",
	  "test: add a case for b", "test/b.c\ntest/Makefile\n", 1, 1 },
	{ "another project's patch on a shared list", 0,
	  "liburing: add io_uring_prep_waitid", "src/include/liburing.h\n",
	  "io_uring: add waitid support", "io_uring/waitid.c\n", 0, 0 },
	{ "other files, but the subject is the commit's", 0,
	  "man: document the flag", "man/io_uring_setup.2\n",
	  "man: document the flag", "man/io_uring_enter.2\n", 1, 1 },
	{ "the subject differs only in case and spacing", 0,
	  "Fix  the Build", "a.c\n",
	  "fix the build", "b.c\n", 1, 1 },
	{ "a cover letter names the series: the link takes it", 1,
	  "io_uring: fix a leak", "io_uring/rw.c\n",
	  "io_uring fixes for 6.8", "", 1, 0 },
	{ "the mail's files are unknown: the link takes it", 0,
	  "io_uring: fix a leak", "io_uring/rw.c\n",
	  "something else", NULL, 1, 0 },
	{ "the commit's files are unknown: the link takes it", 0,
	  "io_uring: fix a leak", "",
	  "something else", "io_uring/rw.c\n", 1, 0 },
	{ "an empty line is no file in common", 0,
	  "a: one", "\n\na.c\n",
	  "b: two", "\n\nb.c\n", 0, 0 },
	{ "an empty subject matches no empty subject", 0,
	  "", "a.c\n",
	  "", "b.c\n", 0, 0 },
};

static void test_fits(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fit_case *c = &cases[i];
		struct onlist_link_row r = {
			"0123456789012345678901234567890123456789", "m@x",
			c->cover, c->commit_subject, c->commit_files,
			c->mail_stripped, c->mail_files,
		};
		int oom = 0, link, ad;

		link = onlist__match_link_fits(&r, &oom);
		ad = onlist__match_author_date_fits(&r, &oom);
		if (link != c->link || ad != c->author_date || oom)
			fail_msg("%s: link %d (want %d), author-date %d (want %d)%s",
				 c->why, link, c->link, ad, c->author_date,
				 oom ? ", out of memory" : "");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
