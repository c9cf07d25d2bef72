/* test_regex.c - which release patterns from outside are compiled: those
 * regcomp() builds in bounded memory, including the shapes projects use,
 * and none of the ones whose copies multiply (the first took 23.8 GB). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "onlist/regex.h"

static const struct { const char *re; int ok; const char *subject; } cases[] = {
	/* refused: counts multiplied through groups, stacked, or too long */
	{ "((((a{1,100}){1,100}){1,100}){1,100})", 0, NULL },	/* 23.8 GB */
	{ "((a{255}){255}){255}", 0, NULL },
	{ "((a{100}){100}){100}", 0, NULL },
	{ "a{101}", 0, NULL },
	{ "a{1,1000}", 0, NULL },
	{ "((((((((((((((((((((a+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+", 0, NULL },
	{ "[^a-z]++++++++++++++++++++++++++++++++++++++++++++++++", 0, NULL },
	{ "(((((((((((((((((((((((((((((((((x)))))))))))))))))))))))))))))))))", 0, NULL },
	/* kept: what projects write, and counts that stay small */
	{ "^Linux [0-9]+\\.[0-9]+(\\.[0-9]+)?(-rc[0-9]+)?$", 1, "Linux 6.1-rc3" },
	{ "^(btrfs-progs: )?[Rr]elease|^Btrfs progs v", 1, "Btrfs progs v6.1" },
	{ "^v[0-9]+(\\.[0-9]+)*$", 1, "v1.2.3" },
	{ "^(Release|Bump) (version )?[0-9]+(\\.[0-9]+){1,3}", 1, "Bump version 1.2.3.4" },
	{ "(a{100}){100}", 1, NULL },
	{ "[[:digit:]]{1,3}[]x]", 1, "12]" },
	{ "x\\{1", 1, "x{1" },
};

static void test_release_patterns(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		regex_t re;
		onlist_status st = onlist_regex_compile(&re, cases[i].re,
							REG_EXTENDED | REG_NOSUB);

		if ((st == ONLIST_OK) != cases[i].ok)
			fail_msg("%s: %s, expected %s", cases[i].re,
				 onlist_status_str(st),
				 cases[i].ok ? "compiled" : "refused");
		if (st != ONLIST_OK)
			continue;
		if (cases[i].subject &&
		    regexec(&re, cases[i].subject, 0, NULL, 0) != 0)
			fail_msg("%s does not match %s", cases[i].re,
				 cases[i].subject);
		regfree(&re);
	}
}

/* What is allowed compiles in little memory: the largest shapes under the
 * bound, each within 256 MB of address space. */
static void test_allowed_is_cheap(void **state)
{
	static const char *const worst[] = {
		"((a{100}){100}b{100}){2}",
		"(((a{10}){10}){10}){20}",
		"((((((((((a+)+)+)+)+)+)+)+)+)+)+",
	};
	struct rlimit old, lim;

	(void)state;
	getrlimit(RLIMIT_AS, &old);
	lim = old;
	lim.rlim_cur = (rlim_t)1 << 30;	/* the test binary itself, and 256 MB */
	if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur)
		lim.rlim_cur = old.rlim_cur;
	/* an ASan build reserves terabytes of shadow memory: no cap there
	 * (make check runs this capped) */
#ifndef __SANITIZE_ADDRESS__
	setrlimit(RLIMIT_AS, &lim);
#endif
	for (size_t i = 0; i < sizeof worst / sizeof *worst; i++) {
		regex_t re;

		if (!onlist_regex_bounded(worst[i]))
			fail_msg("%s: refused (a test of what is allowed)", worst[i]);
		if (onlist_regex_compile(&re, worst[i], REG_EXTENDED | REG_NOSUB)
		    != ONLIST_OK)
			fail_msg("%s: allowed, but regcomp() failed (out of memory?)",
				 worst[i]);
		regfree(&re);
	}
	setrlimit(RLIMIT_AS, &old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release_patterns),
		cmocka_unit_test(test_allowed_is_cheap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
