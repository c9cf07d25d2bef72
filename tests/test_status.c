/* test_status.c - the error convention of status.h: the first message
 * wins, and onlist_fail() returns the status it was given. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/status.h"

static onlist_status inner(char **errmsg)
{
	return onlist_fail(errmsg, ONLIST_EIO, "reading %s: %s", "x.mbox",
			   "disk on fire");
}

static onlist_status outer(char **errmsg)
{
	onlist_status st = inner(errmsg);

	/* what a caller adds on the way out must not hide the cause */
	return onlist_fail(errmsg, st, "import failed");
}

static void test_first_message_wins(void **state)
{
	char *err = NULL;

	(void)state;
	assert_int_equal(outer(&err), ONLIST_EIO);
	assert_string_equal(err, "reading x.mbox: disk on fire");
	free(err);
}

static void test_no_errmsg(void **state)
{
	(void)state;
	assert_int_equal(onlist_fail(NULL, ONLIST_EDB, "%s", "ignored"), ONLIST_EDB);
}

static void test_set_err_keeps_first(void **state)
{
	char *err = NULL;

	(void)state;
	onlist_set_err(&err, "one %d", 1);
	onlist_set_err(&err, "two %d", 2);
	assert_string_equal(err, "one 1");
	free(err);
}

static void test_status_str(void **state)
{
	(void)state;
	assert_non_null(onlist_status_str(ONLIST_EDB));
	assert_non_null(onlist_status_str((onlist_status)999));
	assert_string_not_equal(onlist_status_str(ONLIST_EDB),
				onlist_status_str(ONLIST_EIO));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_message_wins),
		cmocka_unit_test(test_no_errmsg),
		cmocka_unit_test(test_set_err_keeps_first),
		cmocka_unit_test(test_status_str),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
