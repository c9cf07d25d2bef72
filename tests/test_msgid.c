/* test_msgid.c - every form of Message-ID the parser is given: header
 * values, pasted trailers, lore and patch.msgid.link URLs with what lore
 * appends, escapes; and what names no message. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/msgid.h"

#define ID "20240101120000.1234-1-dev@example.org"

static const struct {
	const char *arg;
	const char *want;	/* NULL: ONLIST_EPARSE */
} cases[] = {
	/* as in a header, or typed */
	{ "<" ID ">", ID },
	{ ID, ID },
	{ "  <" ID ">  ", ID },
	{ "< " ID " >", ID },
	{ "<" ID, ID },
	{ ID ">", ID },
	{ "<no-at-sign>", "no-at-sign" },
	{ "no-at-sign", "no-at-sign" },
	/* whole trailers, pasted; the key in any case */
	{ "Message-Id: <" ID ">", ID },
	{ "Message-ID: <" ID ">", ID },
	{ "message-id:" ID, ID },
	{ "Link: https://lore.kernel.org/r/" ID, ID },
	{ "Link: <" ID "> (v2)", ID },
	/* lore: /r/ or a list name, with or without what lore appends */
	{ "https://lore.kernel.org/r/" ID, ID },
	{ "https://lore.kernel.org/r/" ID "/", ID },
	{ "https://lore.kernel.org/linux-mm/" ID "/", ID },
	{ "https://lore.kernel.org/all/" ID "/T/", ID },
	{ "https://lore.kernel.org/r/" ID "/T/", ID },
	{ "https://lore.kernel.org/r/" ID "/T/#u", ID },
	{ "https://lore.kernel.org/netdev/" ID "/t/", ID },
	{ "https://lore.kernel.org/r/" ID "/raw", ID },
	{ "https://lore.kernel.org/r/" ID "/t.mbox.gz", ID },
	{ "https://lore.kernel.org/r/" ID "/t.atom", ID },
	{ "https://lore.kernel.org/r/" ID "/u/", ID },
	{ "https://lore.kernel.org/r/" ID "/#r", ID },
	{ "https://lore.kernel.org/r/" ID "#r", ID },
	{ "https://lore.kernel.org/r/" ID "/?q=x", ID },
	{ "http://lkml.kernel.org/r/" ID, ID },
	{ "https://lore.kernel.org/r/" ID " # v3", ID },
	/* b4's links */
	{ "https://patch.msgid.link/" ID, ID },
	{ "Link: https://patch.msgid.link/" ID, ID },
	/* escapes: lore writes '/' as %2F; any %XX is undone, in any case */
	{ "https://lore.kernel.org/r/a%2Fb@example.org/", "a/b@example.org" },
	{ "https://lore.kernel.org/r/a%2fb@example.org/T/", "a/b@example.org" },
	{ "https://lore.kernel.org/r/a%40example.org", "a@example.org" },
	{ "https://lore.kernel.org/r/50%25off@example.org", "50%off@example.org" },
	{ "https://lore.kernel.org/r/bad%zzescape@example.org", "bad%zzescape@example.org" },
	/* no message named */
	{ "", NULL },
	{ "   ", NULL },
	{ "<>", NULL },
	{ "Link:", NULL },
	{ "https://lore.kernel.org/", NULL },
	{ "https://lore.kernel.org", NULL },
	{ "https://lore.kernel.org/linux-mm/", NULL },
	{ "https://lore.kernel.org/r/T/", NULL },
	{ "https://bugzilla.kernel.org/show_bug.cgi?id=12345", NULL },
	{ "https://github.com/torvalds/linux/issues/1", NULL },
	{ "https://marc.info/?l=linux-kernel&m=1234@5", NULL },
	{ "https://lore.kernel.org/r/a%00b@example.org", NULL },
	{ "x#://y", NULL },	/* "://" only in the anchor */
};

static void test_forms(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *id = (char *)"unset";
		onlist_status st = onlist_msgid_parse(cases[i].arg, &id);

		if (cases[i].want) {
			if (st != ONLIST_OK || strcmp(id, cases[i].want))
				fail_msg("'%s': got %d '%s', expected '%s'",
					 cases[i].arg, st, st ? "" : id,
					 cases[i].want);
		} else if (st != ONLIST_EPARSE || id) {
			fail_msg("'%s': got %d '%s', expected no id",
				 cases[i].arg, st, id ? id : "(null)");
		}
		free(id);
	}
}

static void test_null(void **state)
{
	char *id = (char *)"unset";

	(void)state;
	assert_int_equal(onlist_msgid_parse(NULL, &id), ONLIST_EPARSE);
	assert_null(id);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
