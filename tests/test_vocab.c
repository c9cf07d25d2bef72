/* The method table of vocab.h: the C helpers and the SQL conditions made
 * from it must agree with each other and with what the verdicts expect. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>
#include "onlist/vocab.h"

static const char *const words[] = {
	"link", "patch-id", "patch-id-alg", "repaired", "quoted",
	"author-date", "subject", "fuzzy", "echo", "late",
	"some-newer-tier", "",
};

/* What the verdicts were written against, said by hand. */
static void test_table(void **state)
{
	(void)state;
	assert_int_equal(onlist_method_parse("link"), ONLIST_METHOD_LINK);
	assert_int_equal(onlist_method_parse("fuzzy"), ONLIST_METHOD_FUZZY);
	assert_int_equal(onlist_method_parse("Fuzzy"), ONLIST_METHOD_UNKNOWN);
	assert_int_equal(onlist_method_parse(NULL), ONLIST_METHOD_UNKNOWN);
	assert_string_equal(onlist_method_name(ONLIST_METHOD_AUTHOR_DATE),
			    "author-date");
	assert_string_equal(onlist_method_name(ONLIST_METHOD_UNKNOWN), "?");
	/* the surest first: a Link: beats its patch-id, fuzzy is last of
	 * the postings, a word of no row after all */
	assert_true(onlist_method_rank("link") < onlist_method_rank("patch-id"));
	assert_true(onlist_method_rank("patch-id") <
		    onlist_method_rank("repaired"));
	assert_true(onlist_method_rank("subject") < onlist_method_rank("fuzzy"));
	assert_true(onlist_method_rank("fuzzy") <
		    onlist_method_rank("some-newer-tier"));
	assert_true(onlist_method_is_posting("quoted"));
	assert_false(onlist_method_is_posting("echo"));
	assert_false(onlist_method_is_posting("late"));
	assert_false(onlist_method_is_posting(NULL));
	assert_true(onlist_method_is_edited("author-date"));
	assert_true(onlist_method_is_edited("subject"));
	assert_true(onlist_method_is_edited("fuzzy"));
	assert_false(onlist_method_is_edited("patch-id"));
	assert_false(onlist_method_is_edited("repaired"));
	assert_true(onlist_is_review_key("Reviewed-by"));
	assert_true(onlist_is_review_key("tested-by"));
	assert_false(onlist_is_review_key("Signed-off-by"));
	assert_false(onlist_is_review_key(NULL));
	assert_true(onlist_is_nak_key("NAK"));
	assert_true(onlist_is_nak_key("Nacked-by"));
	assert_false(onlist_is_nak_key("acked-by"));
}

/* sqlite evaluates `cond` for method = w: 1 or 0 */
static int sql_says(sqlite3 *db, const char *cond, const char *w)
{
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT %s FROM (SELECT ?1 AS method)", cond);
	int v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, w, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_free(sql);
	return v;
}

/* Every SQL query counts postings and edited forms as the C code does. */
static void test_sql_agrees(void **state)
{
	sqlite3 *db;

	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		const char *w = words[i];

		if (!*w)
			continue;	/* no method is the empty word */
		assert_int_equal(sql_says(db, ONLIST_SQL_POSTED("method"), w),
				 onlist_method_is_posting(w));
		assert_int_equal(sql_says(db, ONLIST_SQL_EDITED("method"), w),
				 onlist_method_is_edited(w));
	}
	assert_int_equal(sql_says(db, "'acked-by' IN " ONLIST_SQL_REVIEW_KEYS,
				  "x"), 1);
	assert_int_equal(sql_says(db, "'nacked-by' IN " ONLIST_SQL_REVIEW_KEYS,
				  "x"), 0);
	assert_int_equal(sql_says(db, "'nak' IN " ONLIST_SQL_TAG_KEYS, "x"), 1);
	assert_int_equal(sql_says(db, "'tested-by' IN " ONLIST_SQL_TAG_KEYS,
				  "x"), 1);
	assert_int_equal(sql_says(db, "'signed-off-by' IN " ONLIST_SQL_TAG_KEYS,
				  "x"), 0);
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_sql_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
