/* test_emit.c - the structured-output emitter (emit.h).  Each case is a
 * little program of emitter calls and the text it must write, written by
 * hand from the layout rules in emit.h (the commands' outputs that go
 * through it are parsed back by Python's json module in the t*.sh
 * tests). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/emit.h"

/* A case's calls, as a string of one-letter ops: { } [ ] open a map or
 * list inline, M L open with ONLIST_EMIT_LINES, ) closes, k takes the
 * next key, s/i/b/n write the next string, number, true, null; = keeps
 * the next member on the line, r writes the next string raw. */
struct emit_case {
	const char *name;
	enum onlist_fmt fmt;
	const char *ops;
	const char *keys[8];
	const char *strs[8];
	int64_t ints[4];
	const char *want;
	onlist_status want_st;
};

static const struct emit_case cases[] = {
	{ "empty inline list", ONLIST_FMT_JSON, "[)", {0}, {0}, {0}, "[]\n", ONLIST_OK },
	{ "empty lines list stays on its line", ONLIST_FMT_JSON, "L)", {0}, {0}, {0},
	  "[]\n", ONLIST_OK },
	{ "inline map", ONLIST_FMT_JSON, "{kskski)", { "a", "b", "c" }, { "x", NULL }, { 7 },
	  "{\"a\": \"x\", \"b\": null, \"c\": 7}\n", ONLIST_OK },
	{ "list of maps, one a line", ONLIST_FMT_JSON, "L{ksks){ksks))",
	  { "patch_id", "name", "patch_id", "name" }, { "1", "2", "3", "4" }, {0},
	  "[\n  {\"patch_id\": \"1\", \"name\": \"2\"},\n  {\"patch_id\": \"3\", \"name\": \"4\"}\n]\n",
	  ONLIST_OK },
	{ "map of lines with an inline list", ONLIST_FMT_JSON, "Mki k[ibn))",
	  { "n", "v" }, {0}, { -3, 5 },
	  "{\n  \"n\": -3,\n  \"v\": [5, true, null]\n}\n", ONLIST_OK },
	{ "nested lines indent two a level", ONLIST_FMT_JSON, "MkLs))",
	  { "x" }, { "y" }, {0}, "{\n  \"x\": [\n    \"y\"\n  ]\n}\n", ONLIST_OK },
	{ "a one-line map adds no indent to the lines list in it", ONLIST_FMT_JSON,
	  "{kL{ks){ks))ki)", { "files", "p", "p", "n" }, { "a", "b" }, { 2 },
	  "{\"files\": [\n  {\"p\": \"a\"},\n  {\"p\": \"b\"}\n], \"n\": 2}\n",
	  ONLIST_OK },
	{ "keys and strings escaped", ONLIST_FMT_JSON, "{ks)",
	  { "a\"b" }, { "line\nbreak\x1b[31m\xe2\x80\xae" }, {0},
	  "{\"a\\\"b\": \"line\\nbreak\\u001b[31m\\u202e\"}\n", ONLIST_OK },
	{ "jsonl ignores lines", ONLIST_FMT_JSONL, "Mki)Mki)", { "a", "a" }, {0}, { 1, 2 },
	  "{\"a\": 1}\n{\"a\": 2}\n", ONLIST_OK },
	{ "a value without a key is refused", ONLIST_FMT_JSON, "{s)", {0}, { "x" }, {0},
	  "{}\n", ONLIST_EPARSE },
	{ "two keys in a row are refused", ONLIST_FMT_JSON, "{kk)", { "a", "b" }, {0}, {0},
	  "{\"a\": }\n", ONLIST_EPARSE },
	{ "a container left open is reported", ONLIST_FMT_JSON, "[i", {0}, {0}, { 1 },
	  "[1", ONLIST_EPARSE },
	{ "a pair kept on one line of a lines map", ONLIST_FMT_JSON, "Mks ki=ki ki)",
	  { "t", "since", "until", "n" }, { "w" }, { 1, 2, 3 },
	  "{\n  \"t\": \"w\",\n  \"since\": 1, \"until\": 2,\n  \"n\": 3\n}\n",
	  ONLIST_OK },
	{ "same line changes nothing inline", ONLIST_FMT_JSON, "{ki=ki)", { "a", "b" }, {0},
	  { 1, 2 }, "{\"a\": 1, \"b\": 2}\n", ONLIST_OK },
	{ "a one-line map in a lines map stays on its key's line", ONLIST_FMT_JSON,
	  "Mk{kik[)) ki)", { "u", "count", "series", "n" }, {0}, { 0, 4 },
	  "{\n  \"u\": {\"count\": 0, \"series\": []},\n  \"n\": 4\n}\n", ONLIST_OK },
	{ "end with nothing open is refused", ONLIST_FMT_JSON, "i)", {0}, {0}, { 1 },
	  "1\n", ONLIST_EPARSE },
};

static void run_case(const struct emit_case *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct onlist_emit *e;
	int nk = 0, ns = 0, ni = 0;

	assert_non_null(f);
	assert_non_null(e = onlist_emit_new(f, c->fmt));
	for (const char *op = c->ops; *op; op++) {
		switch (*op) {
		case '{': onlist_emit_begin_map(e, 0); break;
		case 'M': onlist_emit_begin_map(e, ONLIST_EMIT_LINES); break;
		case '[': onlist_emit_begin_list(e, 0); break;
		case 'L': onlist_emit_begin_list(e, ONLIST_EMIT_LINES); break;
		case ')': onlist_emit_end(e); break;
		case 'k': onlist_emit_key(e, c->keys[nk++]); break;
		case 's': onlist_emit_str(e, c->strs[ns++]); break;
		case 'i': onlist_emit_int(e, c->ints[ni++]); break;
		case 'b': onlist_emit_bool(e, 1); break;
		case 'n': onlist_emit_null(e); break;
		case '=': onlist_emit_same_line(e); break;
		case ' ': break;
		default: fail_msg("bad op %c in %s", *op, c->name);
		}
	}
	onlist_status st = onlist_emit_free(e);
	fclose(f);
	if (strcmp(buf, c->want) || st != c->want_st)
		fail_msg("%s:\n got  [%s] (status %d)\n want [%s] (status %d)",
			 c->name, buf, st, c->want, c->want_st);
	free(buf);
}

static void test_cases(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

static void test_other_formats_refused(void **state)
{
	(void)state;
	assert_null(onlist_emit_new(stdout, ONLIST_FMT_TEXT));
	assert_null(onlist_emit_new(stdout, ONLIST_FMT_CSV));
	assert_int_equal(onlist_emit_free(NULL), ONLIST_OK);
}

/* A JSON emitter writing into memory: mem_open(), the calls, then
 * mem_text() for what was written (the caller frees it). */
struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static struct onlist_emit *mem_open(struct mem *m)
{
	struct onlist_emit *e;

	m->buf = NULL;
	m->len = 0;
	assert_non_null(m->f = open_memstream(&m->buf, &m->len));
	assert_non_null(e = onlist_emit_new(m->f, ONLIST_FMT_JSON));
	return e;
}

static char *mem_text(struct mem *m, struct onlist_emit *e)
{
	assert_int_equal(onlist_emit_free(e), ONLIST_OK);
	fclose(m->f);
	return m->buf;
}

/* Fixed-point numbers: rounded to the digits asked, and null for what
 * JSON cannot hold. */
static void test_fixed(void **state)
{
	struct mem m;
	struct onlist_emit *e = mem_open(&m);
	char *buf;

	(void)state;
	onlist_emit_begin_list(e, 0);
	onlist_emit_fixed(e, 0.875, 2);
	onlist_emit_fixed(e, 1.0, 2);
	onlist_emit_fixed(e, -2.5, 0);
	onlist_emit_fixed(e, 0.0 / 0.0, 2);
	onlist_emit_fixed(e, 1.0 / 0.0, 2);
	onlist_emit_end(e);
	buf = mem_text(&m, e);
	assert_string_equal(buf, "[0.88, 1.00, -2, null, null]\n");
	free(buf);
}

/* Several string members in one call: the same text as one kstr a
 * member, a NULL value written as null. */
static void test_kstrs(void **state)
{
	struct mem m;
	struct onlist_emit *e = mem_open(&m);
	char *buf;

	(void)state;
	onlist_emit_begin_map(e, 0);
	onlist_emit_kstrs(e, "key", "Acked-by", "name", NULL, "in", "a\"b", NULL);
	onlist_emit_kint(e, "n", 2);
	onlist_emit_end(e);
	buf = mem_text(&m, e);
	assert_string_equal(buf, "{\"key\": \"Acked-by\", \"name\": null, "
			    "\"in\": \"a\\\"b\", \"n\": 2}\n");
	free(buf);
}

/* Numbers from text: JSON's grammar decides, anything else is a string. */
static void test_number(void **state)
{
	static const char *const in[] = {
		"0", "-12", "3.25", "1e5", "-0.5E-3", "nan", "inf", "0x1f",
		" 12", "012", "1.", ".5", "-", "1e", "+1", "", NULL,
	};
	struct mem m;
	struct onlist_emit *e = mem_open(&m);
	char *buf;

	(void)state;
	onlist_emit_begin_list(e, 0);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		onlist_emit_number(e, in[i]);
	onlist_emit_end(e);
	buf = mem_text(&m, e);
	assert_string_equal(buf, "[0, -12, 3.25, 1e5, -0.5E-3, \"nan\", \"inf\", "
			    "\"0x1f\", \" 12\", \"012\", \"1.\", \".5\", \"-\", "
			    "\"1e\", \"+1\", \"\", null]\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_other_formats_refused),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_kstrs),
		cmocka_unit_test(test_number),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
