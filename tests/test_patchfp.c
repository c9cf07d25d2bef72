/* test_patchfp.c - the sorted hash arrays of a patch's fingerprint and of
 * a text's words.
 *
 * Both arrays are compared as multisets (fingerprint) and sets (words),
 * so they must come out sorted, with repeats kept in the first and
 * dropped in the second, whatever order the lines or words came in.  The
 * cases are large enough (hundreds of entries) to take the radix sort
 * and small enough to take the insertion sort.  No expected hash is
 * written here: a patch and the same patch with its files in the other
 * order must give equal arrays, and each array must be ordered.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/patchfp.h"

/* A git diff of one file: `lines` removed and `lines` added lines, with
 * every `repeat`-th line the same text (repeats in the fingerprint). */
static void add_file(char **buf, size_t *len, size_t *cap, const char *name,
		     unsigned lines, unsigned repeat)
{
	char line[256];
	unsigned i;
	int n;

#define PUT(...) do {							\
	n = snprintf(line, sizeof(line), __VA_ARGS__);			\
	assert_true(n > 0 && (size_t)n < sizeof(line));			\
	if (*len + (size_t)n + 1 > *cap) {				\
		*cap = (*cap + (size_t)n + 1) * 2;			\
		*buf = realloc(*buf, *cap);				\
		assert_non_null(*buf);					\
	}								\
	memcpy(*buf + *len, line, (size_t)n + 1);			\
	*len += (size_t)n;						\
} while (0)
	PUT("diff --git a/%s b/%s\n", name, name);
	PUT("index 1111111..2222222 100644\n");
	PUT("--- a/%s\n+++ b/%s\n", name, name);
	PUT("@@ -1,%u +1,%u @@\n", lines, lines);
	for (i = 0; i < lines; i++)
		PUT("-old %s line %u\n", name, repeat && i % repeat == 0 ? 0 : i);
	for (i = 0; i < lines; i++)
		PUT("+new %s line %u\n", name, repeat && i % repeat == 0 ? 0 : i);
#undef PUT
}

static void fp_of_two(const char *first, const char *second, unsigned lines,
		      struct onlist_patchfp *fp)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	add_file(&buf, &len, &cap, first, lines, 2);
	add_file(&buf, &len, &cap, second, lines, 2);
	assert_int_equal(onlist_patchfp_compute(buf, len, fp), 0);
	free(buf);
}

static void check_sorted(const uint32_t *h, size_t n, int strictly)
{
	for (size_t i = 1; i < n; i++)
		if (strictly)
			assert_true(h[i - 1] < h[i]);
		else
			assert_true(h[i - 1] <= h[i]);
}

static void fingerprint_case(unsigned lines)
{
	struct onlist_patchfp a, b;

	fp_of_two("one.c", "two.c", lines, &a);
	fp_of_two("two.c", "one.c", lines, &b);
	/* every changed line is one hash, repeats kept */
	assert_int_equal(a.added, 2 * lines);
	assert_int_equal(a.removed, 2 * lines);
	assert_int_equal(a.n, 4 * lines);
	check_sorted(a.h, a.n, 0);
	assert_int_equal(b.n, a.n);
	assert_memory_equal(a.h, b.h, a.n * sizeof(*a.h));
	/* repeats are kept: some neighbours are equal */
	{
		size_t eq = 0;

		for (size_t i = 1; i < a.n; i++)
			eq += a.h[i - 1] == a.h[i];
		assert_true(eq > 0);
	}
	onlist_patchfp_release(&a);
	onlist_patchfp_release(&b);
}

static void test_fingerprint_large(void **state)
{
	(void)state;
	fingerprint_case(700);		/* 2,800 hashes: radix sort */
}

static void test_fingerprint_small(void **state)
{
	(void)state;
	fingerprint_case(5);		/* 20 hashes: insertion sort */
}

static void words_case(unsigned words)
{
	char *fwd, *rev, *p;
	uint32_t *a, *b;
	size_t na, nb, cap = (size_t)words * 16 + 1;
	unsigned i;

	fwd = malloc(cap);
	rev = malloc(cap);
	assert_non_null(fwd);
	assert_non_null(rev);
	/* every word three times, some of them in other case */
	for (p = fwd, i = 0; i < words; i++)
		p += sprintf(p, "%s%u ", i % 2 ? "Word" : "word", i % (words / 3 + 1));
	for (p = rev, i = words; i-- > 0;)
		p += sprintf(p, "%s%u ", i % 2 ? "Word" : "word", i % (words / 3 + 1));
	assert_int_equal(onlist_words_fp(fwd, &a, &na), 0);
	assert_int_equal(onlist_words_fp(rev, &b, &nb), 0);
	/* a set: each word once, in order */
	assert_true(na > 0 && na <= words / 3 + 1);
	check_sorted(a, na, 1);
	assert_int_equal(nb, na);
	assert_memory_equal(a, b, na * sizeof(*a));
	free(a);
	free(b);
	free(fwd);
	free(rev);
}

static void test_words_large(void **state)
{
	(void)state;
	words_case(3000);
}

static void test_words_small(void **state)
{
	(void)state;
	words_case(12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fingerprint_large),
		cmocka_unit_test(test_fingerprint_small),
		cmocka_unit_test(test_words_large),
		cmocka_unit_test(test_words_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
