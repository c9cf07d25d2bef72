/* test_print.c - the escapers of print.h, and -o's write-then-rename.
 * Expected strings are written by hand from the rules in print.h; every
 * output is also checked to be valid UTF-8 by GLib's validator, which
 * shares no code with print.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>

#include "onlist/print.h"

typedef void (*put_fn)(FILE *, const char *);

static char *render(put_fn put, const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	put(f, in);
	fclose(f);
	assert_true(g_utf8_validate(buf, (gssize)len, NULL));
	return buf;
}

static const struct {
	const char *name;
	put_fn put;
	const char *in, *want;
} cases[] = {
	/* terminal text */
	{ "text plain", onlist_put_text, "Jane Doe", "Jane Doe" },
	{ "text ESC", onlist_put_text, "a\033[2Jb", "aU+001B[2Jb" },
	{ "text newline", onlist_put_text, "a\nb\tc", "aU+000AbU+0009c" },
	{ "text C1 as UTF-8", onlist_put_text, "a\xc2\x9b" "31mb", "aU+009B31mb" },
	{ "text RLO", onlist_put_text, "x\xe2\x80\xaey", "xU+202Ey" },
	{ "text LRI", onlist_put_text, "\xe2\x81\xa6z", "U+2066z" },
	{ "text ALM", onlist_put_text, "\xd8\x9c", "U+061C" },
	{ "text latin-1", onlist_put_text, "\xa7 1", "\xef\xbf\xbd 1" },
	{ "text umlaut kept", onlist_put_text, "J\xc3\xbcrgen", "J\xc3\xbcrgen" },
	{ "text emoji kept", onlist_put_text, "\xf0\x9f\x90\xa7", "\xf0\x9f\x90\xa7" },
	{ "text overlong", onlist_put_text, "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },
	{ "text surrogate", onlist_put_text, "\xed\xa0\x80",
	  "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
	{ "text truncated", onlist_put_text, "a\xe2\x80", "a\xef\xbf\xbd\xef\xbf\xbd" },
	{ "text NULL", onlist_put_text, NULL, "" },
	/* line and paragraph separators, zero-width space, BOM: a line break
	 * to some readers, invisible to all */
	{ "text U+2028 U+2029", onlist_put_text, "a\xe2\x80\xa8" "b\xe2\x80\xa9" "c",
	  "aU+2028bU+2029c" },
	{ "text ZWSP BOM", onlist_put_text, "\xe2\x80\x8b" "x\xef\xbb\xbf",
	  "U+200BxU+FEFF" },
	{ "md U+2028 ZWSP BOM", onlist_put_md,
	  "a\xe2\x80\xa8" "b\xe2\x80\xa9\xe2\x80\x8b\xef\xbb\xbf",
	  "aU+2028bU+2029U+200BU+FEFF" },
	{ "html U+2028", onlist_put_html, "\xe2\x80\xa8",
	  "<span class=\"ctl\">U+2028</span>" },
	{ "html ZWSP BOM U+2029", onlist_put_html, "\xe2\x80\x8b\xef\xbb\xbf\xe2\x80\xa9",
	  "<span class=\"ctl\">U+200B</span><span class=\"ctl\">U+FEFF</span>"
	  "<span class=\"ctl\">U+2029</span>" },
	{ "html attr ZWSP", onlist_put_html_attr, "\xe2\x80\x8b", "U+200B" },
	{ "json ZWSP BOM", onlist_put_json, "\xe2\x80\x8b\xef\xbb\xbf",
	  "\"\\u200b\\ufeff\"" },
	{ "text ZWJ kept", onlist_put_text, "\xe2\x80\x8d", "\xe2\x80\x8d" },
	/* JSON */
	{ "json plain", onlist_put_json, "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "json controls", onlist_put_json, "\n\t\x01", "\"\\n\\t\\u0001\"" },
	{ "json C1 bidi", onlist_put_json, "\xc2\x85\xe2\x80\xae", "\"\\u0085\\u202e\"" },
	{ "json U+2028", onlist_put_json, "\xe2\x80\xa8", "\"\\u2028\"" },
	{ "json latin-1", onlist_put_json, "Ren\xe9", "\"Ren\xef\xbf\xbd\"" },
	{ "json NULL", onlist_put_json, NULL, "null" },
	/* Markdown */
	{ "md specials", onlist_put_md, "foo_bar *x* [l](u) a|b #1 <t> `c`",
	  "foo\\_bar \\*x\\* \\[l\\](u) a\\|b \\#1 \\<t\\> \\`c\\`" },
	{ "md newline", onlist_put_md, "a\r\nb", "a  b" },
	{ "md ESC", onlist_put_md, "\033", "U+001B" },
	/* HTML */
	{ "html text", onlist_put_html, "<script>&'\"",
	  "&lt;script&gt;&amp;&#39;&quot;" },
	{ "html ctl", onlist_put_html, "a\033b", "a<span class=\"ctl\">U+001B</span>b" },
	{ "html bidi", onlist_put_html, "\xe2\x80\xae", "<span class=\"ctl\">U+202E</span>" },
	{ "html attr", onlist_put_html_attr, "\" onclick='x'\x01",
	  "&quot; onclick=&#39;x&#39;U+0001" },
	/* CSV */
	{ "csv plain", onlist_put_csv, "a,b", "\"a,b\"" },
	{ "csv quote", onlist_put_csv, "say \"hi\"", "\"say \"\"hi\"\"\"" },
	{ "csv newline kept", onlist_put_csv, "a\nb", "\"a\nb\"" },
	{ "csv formula =", onlist_put_csv, "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"" },
	{ "csv formula +", onlist_put_csv, "+1", "\"'+1\"" },
	{ "csv formula -", onlist_put_csv, "-2+3", "\"'-2+3\"" },
	{ "csv formula @", onlist_put_csv, "@SUM(A1)", "\"'@SUM(A1)\"" },
	{ "csv formula tab", onlist_put_csv, "\t=1", "\"'\t=1\"" },
	{ "csv formula cr", onlist_put_csv, "\r=1", "\"'\r=1\"" },
	{ "csv inner = kept", onlist_put_csv, "a=b", "\"a=b\"" },
	{ "csv ESC", onlist_put_csv, "\033x", "\"U+001Bx\"" },
	{ "csv NULL", onlist_put_csv, NULL, "\"\"" },
};

static void test_escapers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = render(cases[i].put, cases[i].in);

		if (strcmp(got, cases[i].want))
			fail_msg("%s: got '%s', want '%s'", cases[i].name, got,
				 cases[i].want);
		free(got);
	}
}

/* Every byte string of length 1..3 over bytes that matter to UTF-8 comes
 * out as valid UTF-8 from every escaper. */
static void test_always_utf8(void **state)
{
	static const unsigned char bytes[] = {
		0x00, 0x01, 0x1b, 0x22, 0x41, 0x7f, 0x80, 0x9b, 0xbf, 0xc0, 0xc2,
		0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff,
	};
	static const put_fn puts_[] = {
		onlist_put_text, onlist_put_json, onlist_put_md, onlist_put_html,
		onlist_put_html_attr, onlist_put_csv,
	};
	size_t nb = sizeof(bytes);
	char in[4];

	(void)state;
	for (size_t a = 1; a < nb; a++)
		for (size_t b = 0; b < nb; b++)
			for (size_t c = 0; c < nb; c++) {
				in[0] = (char)bytes[a];
				in[1] = (char)bytes[b];
				in[2] = b ? (char)bytes[c] : 0;
				in[3] = 0;
				for (size_t k = 0; k < sizeof(puts_) / sizeof(puts_[0]); k++)
					free(render(puts_[k], in));
			}
}

static void test_text_dup(void **state)
{
	char *s = onlist_text_dup("a\033b\xe2\x80\xae\xff");

	(void)state;
	assert_string_equal(s, "aU+001BbU+202E\xef\xbf\xbd");
	free(s);
	s = onlist_text_dup(NULL);
	assert_string_equal(s, "");
	free(s);
}

static void test_formats(void **state)
{
	enum onlist_fmt f;

	(void)state;
	assert_int_equal(onlist_fmt_parse("json", &f), ONLIST_OK);
	assert_int_equal(f, ONLIST_FMT_JSON);
	assert_int_equal(onlist_fmt_parse("csv", &f), ONLIST_OK);
	assert_string_equal(onlist_fmt_name(f), "csv");
	assert_int_equal(onlist_fmt_parse("JSON", &f), ONLIST_ENOTFOUND);
	assert_int_equal(onlist_fmt_parse("", &f), ONLIST_ENOTFOUND);
}

static void test_json_object(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	onlist_put_json_object(f, "key", "Acked-by", "na\"me", NULL,
			       "addr", "a\n@b", (char *)NULL);
	fclose(f);
	assert_string_equal(buf, "{\"key\": \"Acked-by\", \"na\\\"me\": null, "
			    "\"addr\": \"a\\n@b\"}");
	free(buf);
}

static char *slurp(const char *path)
{
	gchar *s = NULL;

	if (!g_file_get_contents(path, &s, NULL, NULL))
		return NULL;
	return s;
}

/* -o: the old file stays until a complete new one replaces it, and a
 * failed write leaves it untouched and no temporary file behind. */
static void test_out_file(void **state)
{
	char dir[] = "/tmp/onlist-print-XXXXXX", path[64], *err = NULL, *s;
	struct onlist_out o = ONLIST_OUT_INIT;
	GDir *d;
	int n = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/report.html", dir);
	assert_true(g_file_set_contents(path, "old", -1, NULL));

	assert_int_equal(onlist_out_open(&o, path, &err), ONLIST_OK);
	fputs("new", o.f);
	s = slurp(path);
	assert_string_equal(s, "old");	/* not yet */
	g_free(s);
	assert_int_equal(onlist_out_close(&o, 1, &err), ONLIST_OK);
	s = slurp(path);
	assert_string_equal(s, "new");
	g_free(s);

	/* a run that fails half-way: the caller closes without keeping */
	assert_int_equal(onlist_out_open(&o, path, &err), ONLIST_OK);
	fputs("half", o.f);
	assert_int_equal(onlist_out_close(&o, 0, &err), ONLIST_OK);
	s = slurp(path);
	assert_string_equal(s, "new");
	g_free(s);

	/* a folder that does not exist */
	snprintf(path, sizeof(path), "%s/no/such", dir);
	assert_int_equal(onlist_out_open(&o, path, &err), ONLIST_EIO);
	assert_non_null(err);
	assert_non_null(strstr(err, "no/such"));
	free(err);
	err = NULL;

	d = g_dir_open(dir, 0, NULL);
	while (g_dir_read_name(d))
		n++;
	g_dir_close(d);
	assert_int_equal(n, 1);		/* report.html, no leftovers */
	snprintf(path, sizeof(path), "%s/report.html", dir);
	unlink(path);
	rmdir(dir);
}

/* A full disk: /dev/full fails every write; close must say so. */
static void test_out_full(void **state)
{
	struct onlist_out o = ONLIST_OUT_INIT;
	char *err = NULL;
	FILE *f;

	(void)state;
	if (!(f = fopen("/dev/full", "w")))
		fail_msg("no /dev/full");
	o.f = f;	/* as if stdout were /dev/full */
	fputs("x", o.f);
	assert_int_equal(onlist_out_close(&o, 1, &err), ONLIST_EIO);
	assert_non_null(err);
	assert_non_null(strstr(err, "standard output"));
	free(err);
	fclose(f);
}

/* The one display width: what the stats table pads by and the report
 * wraps at.  Each expectation is the columns a terminal gives it. */
static void test_text_width(void **state)
{
	static const struct {
		const char *s;
		size_t w;
	} cases[] = {
		{ "", 0 },
		{ "abc", 3 },
		{ "Zo\xc3\xab", 3 },			/* precomposed e-diaeresis */
		{ "Zoe\xcc\x88", 3 },		/* e + combining diaeresis */
		{ "\xe9\x99\x88\xe4\xbc\x9f", 4 },	/* two CJK ideographs */
		{ "\xea\xb0\x80" "a", 3 },		/* a Hangul syllable, a */
		{ "a\xe2\x80\x8b" "b", 2 },		/* zero-width space */
		{ "\xff\xfe", 2 },			/* not UTF-8: a column a byte */
		{ "\xf0\x9f\x98\x80", 2 },		/* an emoji (wide) */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		assert_int_equal(onlist_text_width(cases[i].s,
						   strlen(cases[i].s)),
				 cases[i].w);
	/* n bounds it: a cut inside a character: its bytes, a column each */
	assert_int_equal(onlist_text_width("abcdef", 2), 2);
	assert_int_equal(onlist_text_width("\xe9\x99\x88x", 2), 2);
	assert_int_equal(onlist_text_width("ab\0cd", 5), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapers),
		cmocka_unit_test(test_always_utf8),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_json_object),
		cmocka_unit_test(test_text_dup),
		cmocka_unit_test(test_out_file),
		cmocka_unit_test(test_out_full),
		cmocka_unit_test(test_text_width),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
