/* test_subject.c - subject prefixes, trailers in mail text, pull requests,
 * change-ids.  The expected values are read off the subjects by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/subject.h"
#include "onlist/msgmeta.h"

static const struct {
	const char *subject;
	int reply, version, part, total, resend, rfc, patch, pull;
	const char *prefix, *stripped;
} cases[] = {
	{ "[PATCH] fs: add O_TMPFILE", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "fs: add O_TMPFILE" },
	{ "[PATCH v3 2/7] mm: fix it", 0, 3, 2, 7, 0, 0, 1, 0, "PATCH", "mm: fix it" },
	{ "[RFC PATCH net-next v2 03/12] tcp: foo", 0, 2, 3, 12, 0, 1, 1, 0,
	  "RFC PATCH net-next", "tcp: foo" },
	{ "[PATCH RESEND] x86: bar", 0, 1, -1, -1, 1, 0, 1, 0, "PATCH RESEND", "x86: bar" },
	{ "Re: [PATCH 0/3] series", 1, 1, 0, 3, 0, 0, 1, 0, "PATCH", "series" },
	{ "RE: Re: AW: [PATCH v2] a", 1, 2, -1, -1, 0, 0, 1, 0, "PATCH", "a" },
	{ "Sv: [PATCHv4 1/2] b", 1, 4, 1, 2, 0, 0, 1, 0, "PATCH", "b" },
	{ "Fwd: [PATCH-v5 10/10] c", 1, 5, 10, 10, 0, 0, 1, 0, "PATCH", "c" },
	{ "[net-next] [PATCH V6 1/4]  spaced   out ", 0, 6, 1, 4, 0, 0, 1, 0,
	  "net-next PATCH", "spaced out" },
	{ "[PATCH [net] v2,1/3] nested", 0, 2, 1, 3, 0, 0, 1, 0, "PATCH net", "nested" },
	{ "[GIT PULL] fixes for 3.11", 0, 1, -1, -1, 0, 0, 0, 1, "GIT PULL", "fixes for 3.11" },
	{ "Re[2]: [PATCH] d", 1, 1, -1, -1, 0, 0, 1, 0, "PATCH", "d" },
	{ "[unclosed bracket", 0, 1, -1, -1, 0, 0, 0, 0, "", "[unclosed bracket" },
	{ "Regression in foo", 0, 1, -1, -1, 0, 0, 0, 0, "", "Regression in foo" },
	{ "", 0, 1, -1, -1, 0, 0, 0, 0, "", "" },
	{ "[PATCH 2/7 v3] order", 0, 3, 2, 7, 0, 0, 1, 0, "PATCH", "order" },
	/* a version written after the tags, "vN:" and a space */
	{ "[PATCH BlueZ] V3: foo bar", 0, 3, -1, -1, 0, 0, 1, 0, "PATCH BlueZ", "foo bar" },
	{ "[PATCH] v2: foo", 0, 2, -1, -1, 0, 0, 1, 0, "PATCH", "foo" },
	{ "Re: [PATCH BlueZ] v12:  foo", 1, 12, -1, -1, 0, 0, 1, 0, "PATCH BlueZ", "foo" },
	{ "[PATCH 1/2] V2: a part", 0, 2, 1, 2, 0, 0, 1, 0, "PATCH", "a part" },
	{ "[PATCH v4] v3: the tags win", 0, 4, -1, -1, 0, 0, 1, 0, "PATCH", "the tags win" },
	/* ... and what only looks like one */
	{ "[PATCH] V4L2: fix", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "V4L2: fix" },
	{ "v2 of something", 0, 1, -1, -1, 0, 0, 0, 0, "", "v2 of something" },
	{ "v2: no tags before it", 0, 1, -1, -1, 0, 0, 0, 0, "", "v2: no tags before it" },
	{ "[PATCH] v2 without a colon", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "v2 without a colon" },
	{ "[PATCH] v2:no space", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "v2:no space" },
	{ "[PATCH] v2:", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "v2:" },
	{ "[PATCH] v2.1: dotted", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "v2.1: dotted" },
	{ "[PATCH] v0: zero", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "v0: zero" },
	{ "[PATCH] vhost: fix", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "vhost: fix" },
	{ "[PATCH] fix: v2: later", 0, 1, -1, -1, 0, 0, 1, 0, "PATCH", "fix: v2: later" },
};

static void test_subjects(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct onlist_subject s;

		assert_int_equal(onlist_subject_parse(&s, cases[i].subject), 0);
		assert_int_equal(s.reply, cases[i].reply);
		assert_int_equal(s.version, cases[i].version);
		assert_int_equal(s.part, cases[i].part);
		assert_int_equal(s.total, cases[i].total);
		assert_int_equal(s.resend, cases[i].resend);
		assert_int_equal(s.rfc, cases[i].rfc);
		assert_int_equal(s.patch, cases[i].patch);
		assert_int_equal(s.pull, cases[i].pull);
		assert_string_equal(s.prefix, cases[i].prefix);
		assert_string_equal(s.stripped, cases[i].stripped);
		onlist_subject_release(&s);
	}
	struct onlist_subject s;
	assert_int_equal(onlist_subject_parse(&s, NULL), 0);
	assert_string_equal(s.stripped, "");
	onlist_subject_release(&s);
}

static void test_stable(void **state)
{
	static const char *const yes[] = {
		"PATCH 5.15", "PATCH AUTOSEL 6.1", "PATCH stable", "PATCH 6.1.y",
		"PATCH 4.19.123", "PATCH 5.10-stable", "net 5.4",
	};
	static const char *const no[] = {
		"PATCH", "PATCH BlueZ", "PATCH net-next", "PATCH 5", "PATCH 5.",
		"PATCH .5", "PATCH 1.2.3.4", "PATCH 5.y", "PATCH v5.15x",
		"PATCH y.5", "", NULL,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++)
		assert_true(onlist_subject_stable(yes[i]));
	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		assert_false(onlist_subject_stable(no[i]));
	/* what the parser leaves of a stable subject's tags */
	struct onlist_subject s;
	assert_int_equal(onlist_subject_parse(&s, "[PATCH 5.15 012/123] Bluetooth: fix"), 0);
	assert_true(onlist_subject_stable(s.prefix));
	onlist_subject_release(&s);
}

struct got {
	char buf[2048];
	int n;
};

static int collect(const char *key, size_t kl, const char *value, size_t vl,
		   void *data)
{
	struct got *g = data;
	size_t o = strlen(g->buf);

	snprintf(g->buf + o, sizeof(g->buf) - o, "%.*s=%.*s|", (int)kl, key,
		 (int)vl, value);
	g->n++;
	return 0;
}

static void test_trailers(void **state)
{
	struct got g = { "", 0 };
	const char *text =
		"Thanks!\n"
		"> Reviewed-by: Quoted <q@example.org>\n"
		"| Acked-by: Also Quoted <aq@example.org>\n"
		"Reviewed-by: Bob <bob@example.org>\r\n"
		"  Tested-by:   Dave <dave@example.org>  \n"
		"NACKed-by: Nay <nay@example.org>\n"
		"Signed-off-by:\n"			/* no value */
		"by: too short\n"
		"Cc: not a -by key <cc@example.org>\n"
		"Some text Reviewed-by: inline <no@example.org>\n"
		"NAK\n"				/* a bare NAK */
		"> NAK\n"				/* quoted */
		"NAK to this one\n"			/* prose */
		"-- \n"
		"Acked-by: In Signature <sig@example.org>\n";

	(void)state;
	onlist_find_trailers(text, collect, &g);
	assert_string_equal(g.buf,
			    "Reviewed-by=Bob <bob@example.org>|"
			    "Tested-by=Dave <dave@example.org>|"
			    "NACKed-by=Nay <nay@example.org>|"
			    "NAK=|");
	assert_true(onlist_trailer_is_review("NACKed-by", 9));
	assert_true(onlist_trailer_is_review("reviewed-BY", 11));
	assert_false(onlist_trailer_is_review("Signed-off-by", 13));
	assert_false(onlist_trailer_is_review("Reported-by", 11));

	memset(&g, 0, sizeof(g));
	onlist_find_trailers("Acked-by: A <a@x>\n-----Original Message-----\n"
			     "Reviewed-by: Pasted <p@x>\n", collect, &g);
	assert_string_equal(g.buf, "Acked-by=A <a@x>|");
	memset(&g, 0, sizeof(g));
	onlist_find_trailers(NULL, collect, &g);
	onlist_find_trailers("Acked-by: no newline <x@y>", collect, &g);
	assert_string_equal(g.buf, "Acked-by=no newline <x@y>|");

	char *name, *addr;
	assert_int_equal(onlist_split_ident("\"Bob B.\" <Bob@Example.ORG>", 26,
					    &name, &addr), 0);
	assert_string_equal(name, "Bob B.");
	assert_string_equal(addr, "bob@example.org");
	free(name);
	free(addr);
	assert_int_equal(onlist_split_ident("bare@example.org", 16, &name, &addr), 0);
	assert_string_equal(name, "");
	assert_string_equal(addr, "bare@example.org");
	free(name);
	free(addr);
	assert_int_equal(onlist_split_ident("Just A Name", 11, &name, &addr), 0);
	assert_string_equal(name, "Just A Name");
	assert_string_equal(addr, "");
	free(name);
	free(addr);
}

static void test_pull(void **state)
{
	char *url, *ref, *tip;
	const char *pr =
		"Hi Linus,\n\nThe following changes since commit "
		"0123456789abcdef0123456789abcdef01234567:\n\n  foo (2013-06-01)\n\n"
		"are available in the Git repository at:\n\n"
		"  git://git.kernel.org/pub/scm/linux/kernel/git/viro/vfs.git for-linus\n\n"
		"for you to fetch changes up to "
		"48BDE8D2C0B1E0B1F2C3D4E5F60718293A4B5C6D:\n\n  bar\n";

	(void)state;
	assert_int_equal(onlist_find_pull(pr, &url, &ref, &tip), 1);
	assert_string_equal(url, "git://git.kernel.org/pub/scm/linux/kernel/git/viro/vfs.git");
	assert_string_equal(ref, "for-linus");
	assert_string_equal(tip, "48bde8d2c0b1e0b1f2c3d4e5f60718293a4b5c6d");
	free(url);
	free(ref);
	free(tip);
	/* old request-pull: no tip line */
	assert_int_equal(onlist_find_pull("are available in the git repository at:\n"
					  "  https://example.org/r.git\n", &url, &ref, &tip), 1);
	assert_string_equal(url, "https://example.org/r.git");
	assert_string_equal(ref, "");
	assert_string_equal(tip, "");
	free(url);
	free(ref);
	free(tip);
	/* quoted in a reply: not a pull request */
	assert_int_equal(onlist_find_pull("> are available in the Git repository at:\n"
					  ">   git://x/y.git master\n", &url, &ref, &tip), 0);
	assert_null(url);
	assert_int_equal(onlist_find_pull("are available in the Git repository at:\n\n",
					  &url, &ref, &tip), 0);
	assert_int_equal(onlist_find_pull(NULL, &url, &ref, &tip), 0);
}

static void test_change_id(void **state)
{
	char *c;

	(void)state;
	c = onlist_find_change_id("Blurb.\n---\nbase-commit: abc\n"
				  "change-id: 20230101-foo-bar-0123abcd\n\nBest regards,\n");
	assert_non_null(c);
	assert_string_equal(c, "20230101-foo-bar-0123abcd");
	free(c);
	c = onlist_find_change_id("Change-Id: I0123456789abcdef\r\n");
	assert_string_equal(c, "I0123456789abcdef");
	free(c);
	assert_null(onlist_find_change_id("no change-id: here in a sentence\n"));
	assert_null(onlist_find_change_id(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_stable),
		cmocka_unit_test(test_trailers),
		cmocka_unit_test(test_pull),
		cmocka_unit_test(test_change_id),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
