/* test_msgmeta.c - what a reply says: its own text (quotes, attribution,
 * signature dropped) and whether it is an applied notice.  The phrasings
 * are maintainers' own, as seen on real lists; the expected answers are
 * written by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/msgmeta.h"

static const struct {
	const char *body;
	int notice;		/* 1: an applied notice */
	int bot;
} cases[] = {
	/* notices, as maintainers write them */
	{ "Thanks, applied.\n", 1, 0 },
	{ "Now queued up, thanks.\n", 1, 0 },
	{ "Applied to for-next, thanks!\n", 1, 0 },
	{ "Merged. Thanks!\n", 1, 0 },
	{ "Committed... (tag: libfoo-1-2-3)\n", 1, 0 },
	{ "Pushed to master, thanks.\n", 1, 0 },
	{ "Picked up, thanks.\n", 1, 0 },
	{ "Taken, thanks!\n", 1, 0 },
	{ "I took it into my tree.\n", 1, 0 },
	{ "Applied.\n", 1, 0 },
	{ "applied to bluetooth-next\n", 1, 0 },
	{ "Both applied, thanks.\n", 1, 0 },
	{ "Patch applied, thanks\n\nJens\n", 1, 0 },
	{ "Hi Ann,\n\nThanks, applied to the misc branch.\n\nRegards,\nMo\n", 1, 0 },
	{ "On Mon, 1 Mar 2021 at 10:00, Ann Author <ann@example.org> wrote:\n"
	  "> +int x(void);\n> +\n\nQueued for 6.3.\n\n-- \nMo Maintainer\n", 1, 0 },
	/* the attribution wraps onto a second line */
	{ "On Mon, 1 Mar 2021 10:00:00 +0000, Ann Author\n<ann@example.org> wrote:\n"
	  "> foo\n\nApplied, thanks.\n", 1, 0 },
	/* b4 ty: the summary lines are no words of the writer */
	{ "On Mon, 01 Mar 2021 10:00:00 +0000, Ann Author wrote:\n> ty: add it\n\n"
	  "Applied, thanks!\n\n[1/1] ty: add the helper\n"
	  "      commit: 0123456789abcdef0123456789abcdef01234567\n\n"
	  "Best regards,\n-- \nMo Maintainer <mo@example.org>\n", 1, 0 },
	/* patchwork-bot's, a robot's: a notice line is enough */
	{ "Hello:\n\nThis series was applied to netdev/net-next.git (main)\n"
	  "by Jakub Kicinski <kuba@kernel.org>:\n\nOn Mon, 1 Mar 2021 you wrote:\n"
	  "> foo\n\nHere is the summary with links:\n  - [net-next,1/2] foo: bar\n"
	  "    https://git.kernel.org/netdev/net-next/c/0123456789ab\n\n"
	  "You are awesome, thank you!\n-- \nDeet-doot-dot, I am a bot.\n", 1, 1 },
	/* a notice by sentence, not by a word cap: the verb early in a
	 * long sentence, a sentence wrapped over two lines (ltp) */
	{ "Hi Ma,\n\nI merged this  patch, as well as all the others related to tests\n"
	  "description in RST format.\n\nKind regards,\nAndrea Cervesato\n", 1, 0 },
	{ "Hi Ma,\n\nI merged this patch, as well as all the others related to tests "
	  "description in RST format.\n\nKind regards,\nAndrea Cervesato\n", 1, 0 },
	{ "This and previous patch as obvious fixes merged. Thanks!\n", 1, 0 },
	{ "Patchset merged with minor adjustments(code format), thanks!\n", 1, 0 },
	/* discussion */
	{ "Merged. The loop in the second hunk leaks the buffer on the error path\n"
	  "and the test misses the case of an empty file.\n", 0, 0 },
	{ "The documentation that describes how the test is run on older kernels got "
	  "merged last week.\n", 0, 0 },
	{ "Applied, but please fix the indentation next time:\nthe second hunk uses\n"
	  "spaces where the file has tabs, and checkpatch says so.\n", 0, 0 },
	{ "Thanks, applied.\n\nOne thing for the future: this subsystem wants the\n"
	  "driver name first in the subject line, and a Fixes: tag for fixes\n"
	  "that go to stable.\n", 0, 0 },
	{ "This does not apply on top of net-next any more; applied v1 instead?\n", 0, 0 },
	{ "I haven't applied this yet.\n", 0, 0 },
	{ "Should this be merged through the drm tree?\n", 0, 0 },
	{ "I've taken a look and the locking seems fine.\n", 0, 0 },
	{ "Why not inline it?\n", 0, 0 },
	{ "> Applied, thanks.\n\nThe second one breaks the build for me.\n", 0, 0 },
	{ "Applied.\nNot 2/2.\n", 0, 0 },
	{ "", 0, 0 },
	{ "Thanks!\n", 0, 0 },
	{ "Looks good to me.\n", 0, 0 },
	{ "This patch was not applied: it conflicts with the rework in\n"
	  "for-next.\n", 0, 1 },
};

static void test_notices(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *own = onlist_reply_own_text(cases[i].body, NULL);
		int got;

		assert_non_null(own);
		got = onlist_reply_is_notice(own, NULL, 0, cases[i].bot);
		if (got != cases[i].notice)
			fail_msg("case %zu (own text \"%s\"): notice %d, expected %d",
				 i, own, got, cases[i].notice);
		free(own);
	}
}

static void test_own_text(void **state)
{
	char *own;

	(void)state;
	own = onlist_reply_own_text("On Mon, Ann wrote:\n> quoted\n|  also\n\n"
				    "Hi   Ann,\n\tApplied   THANKS\n"
				    "Acked-by: Bob <bob@example.org>\n"
				    "https://example.org/x\n-- \nsig\n", NULL);
	assert_string_equal(own, "hi ann,\napplied thanks");
	free(own);
	own = onlist_reply_own_text("ok\n-----Original Message-----\nFrom: x\n", NULL);
	assert_string_equal(own, "ok");
	free(own);
}

/* the rules file adds patterns: "notice text *landed*" */
static void test_extra_patterns(void **state)
{
	const char *extra[] = { "*landed*" };
	char *own = onlist_reply_own_text("Landed in main, thanks.\n", NULL);

	(void)state;
	assert_int_equal(onlist_reply_is_notice(own, NULL, 0, 0), 0);
	assert_int_equal(onlist_reply_is_notice(own, extra, 1, 0), 1);
	free(own);
}

/* the diff a reply quotes, one level of "> " off; none when it quotes
 * only prose, or quotes a quote of a diff (two levels) */
static void test_quoted_diff(void **state)
{
	char *d;

	(void)state;
	d = onlist_quoted_diff("On Mon, Ann wrote:\n> Fix it.\n>\n> diff --git a/x b/x\n"
			       "> --- a/x\n> +++ b/x\n> @@ -1 +1 @@\n> -a\n> +b\n>  c\n"
			       "\nCommitted.\n", NULL);
	assert_non_null(d);
	assert_string_equal(d, "Fix it.\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n"
			    "@@ -1 +1 @@\n-a\n+b\n c\n");
	free(d);
	assert_null(onlist_quoted_diff("> Why?\n\nBecause.\n", NULL));
	assert_null(onlist_quoted_diff("> > diff --git a/x b/x\n> > --- a/x\n", NULL));
	assert_null(onlist_quoted_diff("diff --git a/x b/x\n", NULL));
}

/* the review tags of a text, "key=value;" each */
static int collect(const char *key, size_t keylen, const char *value,
		   size_t valuelen, void *data)
{
	char *o = data;

	snprintf(o + strlen(o), 512 - strlen(o), "%.*s=%.*s;", (int)keylen, key,
		 (int)valuelen, value);
	return 0;
}

static void test_midline_tags(void **state)
{
	static const struct {
		const char *body, *tags;
	} c[] = {
		/* ltp: Cyril's "Otherwise: Reviewed-by:" under his comments */
		{ "> -\tfoo();\n\nThis should be bar().\n\n"
		  "Otherwise: Reviewed-by: Cyril Hrubis <chrubis@suse.cz>\n",
		  "Reviewed-by=Cyril Hrubis <chrubis@suse.cz>;" },
		{ "Feel free to add my RBT: Reviewed-by: Li Wang <liwang@redhat.com>\n",
		  "Reviewed-by=Li Wang <liwang@redhat.com>;" },
		{ "With that fixed, feel free to add Acked-by: Ann <ann@example.org>\n",
		  "Acked-by=Ann <ann@example.org>;" },
		{ "Reviewed-by: Ann <ann@example.org>\n", "Reviewed-by=Ann <ann@example.org>;" },
		/* prose that names a tag is none */
		{ "I dropped the Reviewed-by: Ann <ann@example.org> line.\n", "" },
		{ "Otherwise: Reviewed-by: me\n", "" },
		{ "> Otherwise: Reviewed-by: Ann <ann@example.org>\n", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
		char got[512] = "";

		onlist_find_trailers(c[i].body, collect, got);
		if (strcmp(got, c[i].tags))
			fail_msg("case %zu: \"%s\", expected \"%s\"", i, got, c[i].tags);
	}
}

/* a tag given to the whole series by what its reply says */
static void test_series_scope(void **state)
{
	static const struct {
		const char *body;
		int series;
	} c[] = {
		{ "For the series:\nReviewed-by: Li Wang <liwang@redhat.com>\n", 1 },
		{ "The rest whole patch set looks good:\n\n"
		  "Reviewed-by: Li Wang <liwang@redhat.com>\n", 1 },
		{ "Reviewed-by: Avinesh Kumar <akumar@suse.de>\n"
		  "(for all patches in the series)\n", 1 },
		{ "Reviewed-by: Avinesh Kumar <akumar@suse.de> (for all patches in the series)\n", 1 },
		{ "For the rest also from me: Reviewed-by: Cyril Hrubis <chrubis@suse.cz>\n", 1 },
		{ "For these three patches:\n\nTested-by: Dave <dave@example.org>\n", 1 },
		/* selinux: James Carter's phrasings */
		{ "For these six patches:\nAcked-by: James Carter <jwcart2@gmail.com>\n", 1 },
		{ "For these 11 patches:\nAcked-by: James Carter <jwcart2@gmail.com>\n", 1 },
		{ "For every patch except for patch 4.\n"
		  "Acked-by: James Carter <jwcart2@gmail.com>\n", 1 },
		{ "For patches 1-9, 11-20, 22-34, 36-39, 45, and 47\n"
		  "Acked-by: James Carter <jwcart2@gmail.com>\n", 1 },
		{ "For all 12:\nAcked-by: Petr Lautrbach <lautrbach@redhat.com>\n", 1 },
		/* a tag for this patch only */
		{ "Looks good.\n\nReviewed-by: Ann <ann@example.org>\n", 0 },
		{ "> [PATCH 0/3] a series\nReviewed-by: Ann <ann@example.org>\n", 0 },
		{ "This series is fine, this patch is not.\n\nLooks good now.\n"
		  "Well done.\nAcked-by: Ann <ann@example.org>\n", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++)
		if (onlist_reply_series_scope(c[i].body) != c[i].series)
			fail_msg("case %zu: expected %d", i, c[i].series);
}

/* Review tags quoted one level deep, with the attribution's address:
 * "key|value|attrib" lines, in order */
static int take_quoted(const char *key, size_t keylen, const char *value,
		       size_t valuelen, const char *attrib, void *data)
{
	char *o = data;
	size_t n = strlen(o);

	snprintf(o + n, 512 - n, "%.*s|%.*s|%s\n", (int)keylen, key,
		 (int)valuelen, value, attrib);
	return 0;
}

static void test_quoted_trailers(void **state)
{
	static const struct {
		const char *body, *want;
	} c[] = {
		/* a lost ack, quoted by the maintainer's "Merged." */
		{ "On Mon, 1 Mar 2021, Carol Acker <carol@example.org> wrote:\n"
		  "> On Mon, Ann wrote:\n>> +int x(void)\n>\n"
		  "> Acked-by: Carol Acker <carol@example.org>\n\nMerged. Thanks!\n",
		  "Acked-by|Carol Acker <carol@example.org>|carol@example.org\n" },
		/* the attribution wraps; the address is on its second line */
		{ "On Mon, 1 Mar 2021 10:00, Dave Tester\n<Dave@Example.org> wrote:\n"
		  "> Tested-by: Dave Tester <dave@example.org>\n\nApplied.\n",
		  "Tested-by|Dave Tester <dave@example.org>|dave@example.org\n" },
		/* no attribution line; no address in it */
		{ "> Reviewed-by: Bob <bob@example.org>\n\nThanks.\n",
		  "Reviewed-by|Bob <bob@example.org>|\n" },
		{ "Bob wrote:\n> Reviewed-by: Bob <bob@example.org>\n",
		  "Reviewed-by|Bob <bob@example.org>|\n" },
		/* two quoted mails, each with its own attribution */
		{ "Ann <ann@x.org> writes:\n> Acked-by: Ann <ann@x.org>\n\n"
		  "On Tue, Bob <bob@y.org> wrote:\n> Tested-by: Bob <bob@y.org>\n",
		  "Acked-by|Ann <ann@x.org>|ann@x.org\nTested-by|Bob <bob@y.org>|bob@y.org\n" },
		/* deeper quotes are older mail; not a review key; the writer's
		 * own tag is not quoted */
		{ ">> Acked-by: Old <old@example.org>\n> Signed-off-by: A <a@b.c>\n"
		  "Reviewed-by: Me <me@example.org>\n", "" },
		/* a quoted patch: its tags are its history */
		{ "On Mon, Ann <ann@example.org> wrote:\n> lost: add it\n>\n"
		  "> Acked-by: Quinn <quinn@example.org>\n> ---\n"
		  "> diff --git a/x.c b/x.c\n> --- a/x.c\n> +++ b/x.c\n\nCommitted.\n", "" },
		/* below the writer's signature: not read */
		{ "Thanks.\n-- \nMo\n> Acked-by: Sig <sig@example.org>\n", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(*c); i++) {
		char got[512] = "";

		onlist_find_quoted_trailers(c[i].body, take_quoted, got);
		if (strcmp(got, c[i].want))
			fail_msg("case %zu: got '%s', expected '%s'", i, got, c[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_notices),
		cmocka_unit_test(test_own_text),
		cmocka_unit_test(test_extra_patterns),
		cmocka_unit_test(test_quoted_diff),
		cmocka_unit_test(test_midline_tags),
		cmocka_unit_test(test_series_scope),
		cmocka_unit_test(test_quoted_trailers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
