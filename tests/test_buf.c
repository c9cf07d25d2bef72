/* test_buf.c - the growable byte buffer and array growth of buf.h: what
 * an append leaves behind, reuse after emptying, and the sizes that must
 * be refused rather than wrapped around. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/buf.h"

static void test_add(void **state)
{
	struct onlist_buf b = ONLIST_BUF_INIT;

	(void)state;
	assert_int_equal(onlist_buf_add(&b, "ab", 2), 0);
	assert_int_equal(onlist_buf_add(&b, "c\0d", 3), 0);
	assert_int_equal(b.len, 5);
	assert_memory_equal(b.data, "abc\0d", 6);	/* and the NUL */
	assert_true(b.cap > b.len);
	onlist_buf_release(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	onlist_buf_release(&b);		/* twice is harmless */
}

static void test_empty_add_makes_a_string(void **state)
{
	struct onlist_buf b = ONLIST_BUF_INIT;

	(void)state;
	assert_int_equal(onlist_buf_add(&b, NULL, 0), 0);
	assert_non_null(b.data);
	assert_string_equal(b.data, "");
	onlist_buf_release(&b);
}

static void test_reuse_keeps_memory(void **state)
{
	struct onlist_buf b = ONLIST_BUF_INIT;
	char big[1000];
	size_t cap;

	(void)state;
	memset(big, 'x', sizeof big);
	assert_int_equal(onlist_buf_add(&b, big, sizeof big), 0);
	cap = b.cap;
	assert_true(cap > sizeof big);
	b.len = 0;
	assert_int_equal(onlist_buf_add(&b, "y", 1), 0);
	assert_string_equal(b.data, "y");
	assert_int_equal(b.cap, cap);
	onlist_buf_release(&b);
}

static void test_add_refuses_overflow(void **state)
{
	struct onlist_buf b = ONLIST_BUF_INIT;

	(void)state;
	assert_int_equal(onlist_buf_add(&b, "abc", 3), 0);
	assert_int_equal(onlist_buf_add(&b, "x", SIZE_MAX - 3), -1);
	assert_int_equal(onlist_buf_add(&b, "x", SIZE_MAX), -1);
	assert_int_equal(b.len, 3);
	assert_string_equal(b.data, "abc");
	onlist_buf_release(&b);
}

static void test_grow(void **state)
{
	int *v = NULL, *nv;
	size_t alloc = 0, n;

	(void)state;
	for (n = 0; n < 100; n++) {
		if (n == alloc) {
			size_t was = alloc;

			nv = onlist_grow(v, &alloc, sizeof *nv, 4);
			assert_non_null(nv);
			assert_int_equal(alloc, was ? 2 * was : 4);
			v = nv;
		}
		v[n] = (int)n;
	}
	for (n = 0; n < 100; n++)
		assert_int_equal(v[n], (int)n);
	free(v);
}

static void test_grow_refuses_overflow(void **state)
{
	char *v = malloc(1);
	size_t alloc;

	(void)state;
	assert_non_null(v);
	alloc = SIZE_MAX / 2 + 1;	/* doubling would wrap */
	assert_null(onlist_grow(v, &alloc, 1, 16));
	assert_int_equal(alloc, SIZE_MAX / 2 + 1);
	alloc = SIZE_MAX / 16;		/* fits doubled, not times 8 */
	assert_null(onlist_grow(v, &alloc, 8, 16));
	assert_int_equal(alloc, SIZE_MAX / 16);
	alloc = 0;
	assert_null(onlist_grow(v, &alloc, 2, SIZE_MAX));
	assert_int_equal(alloc, 0);
	free(v);			/* still the caller's */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_empty_add_makes_a_string),
		cmocka_unit_test(test_reuse_keeps_memory),
		cmocka_unit_test(test_add_refuses_overflow),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_grow_refuses_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
