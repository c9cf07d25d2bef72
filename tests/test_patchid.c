/* test_patchid.c - onlist's patch-id against `git patch-id` (the oracle).
 *
 * Each case is an input; the test writes it to a file, asks the installed
 * git for `git patch-id --stable` and `--unstable`, and requires
 * onlist_patchid_stream() to print exactly the same, for every way of
 * splitting the input into an already-read prefix and the rest, and
 * onlist_patchid_buf() to give git's first id.  Nothing here is pasted
 * from git's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "onlist/patchid.h"

#define H1 "e83c5163316f89bfbde7d9ab23ca2e25604af290"
#define H2 "8bc9a0c769ac1df7820f2dbf8f7b7d64835e3c68"
#define H3 "0d88a2dbf2d7b1f6c29c3c1a4c4e7d0f51a28f0e"
#define H1_UPPER "E83C5163316F89BFBDE7D9AB23CA2E25604AF290"

/* A log entry of `git log -p`. */
#define LOG(hex) "commit " hex "\nAuthor: A U Thor <a@example.org>\n" \
	"Date:   Thu Apr 7 15:13:13 2005 -0700\n\n    Subject line\n\n"
/* The head of a `git format-patch` mail. */
#define MAIL(hex) "From " hex " Mon Sep 17 00:00:00 2001\n" \
	"From: A U Thor <a@example.org>\nSubject: [PATCH] x\n\nBody.\n---\n" \
	" x.c | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n"
#define SIG "-- \n2.39.5\n\n"

#define DIFF_X "diff --git a/x.c b/x.c\nindex 83db48f..bf269f4 100644\n" \
	"--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,3 @@\n int a;\n-int b;\n+int c;\n int d;\n"
#define DIFF_Y "diff --git a/y.c b/y.c\nindex 1111111..2222222 100644\n" \
	"--- a/y.c\n+++ b/y.c\n@@ -10,2 +10,3 @@ f()\n y1\n+y2\n y3\n"
/* DIFF_X with only whitespace changed. */
#define DIFF_X_WS "diff --git a/x.c  b/x.c\nindex 83db48f..bf269f4 100644\n" \
	"--- a/x.c\n+++ b/x.c\n@@ -1,3 +1,3 @@\n int  a;\n-int\tb;\n+ int c ;\r\n int d;   \n"
#define BINARY_SHORT "diff --git a/img.png b/img.png\nindex 3e3f0b6..c2b4b53 100644\n" \
	"Binary files a/img.png and b/img.png differ\n"
#define BINARY_FULL "diff --git a/img.png b/img.png\n" \
	"index 3e3f0b6c6a1f2bd5e24d33f3b3f3a3c1d0e0f0a1..c2b4b53a1c0d0e0f0a1b2c3d4e5f60718293a4b5 100644\n" \
	"GIT binary patch\nliteral 12\nTcmZ?wbhEHbWMp7q;9vj%0RR91\n\n" \
	"literal 8\nPcmZ?wbhEHbWMlvU0RR91\n\n"

struct pcase {
	const char *name;
	const char *in;
	size_t len;
};

#define CASE(name, text) { name, text, sizeof(text) - 1 }

static const struct pcase cases[] = {
	CASE("plain modification", LOG(H1) DIFF_X),
	CASE("whitespace-only difference", LOG(H1) DIFF_X_WS),
	CASE("rename with edit", LOG(H1)
	     "diff --git a/old.c b/new.c\nsimilarity index 80%\n"
	     "rename from old.c\nrename to new.c\nindex 83db48f..bf269f4 100644\n"
	     "--- a/old.c\n+++ b/new.c\n@@ -1,3 +1,3 @@\n int a;\n-int b;\n+int c;\n int d;\n"),
	CASE("pure rename", LOG(H1) "diff --git a/a b/b\nsimilarity index 100%\n"
	     "rename from a\nrename to b\n" LOG(H2) DIFF_X),
	CASE("copy", LOG(H1) "diff --git a/x.c b/z.c\nsimilarity index 90%\n"
	     "copy from x.c\ncopy to z.c\nindex 83db48f..bf269f4 100644\n"
	     "--- a/x.c\n+++ b/z.c\n@@ -2 +2 @@\n-int b;\n+int c;\n"),
	CASE("mode change alone, then a file", LOG(H1)
	     "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n" DIFF_X),
	CASE("a file, then mode change alone", LOG(H1) DIFF_X
	     "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"),
	CASE("mode change with edit", LOG(H1)
	     "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
	     "index 83db48f..bf269f4\n--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-a\n+b\n"),
	CASE("new file", LOG(H1) "diff --git a/n.c b/n.c\nnew file mode 100644\n"
	     "index 0000000..bf269f4\n--- /dev/null\n+++ b/n.c\n@@ -0,0 +1,2 @@\n+one\n+two\n"),
	CASE("deleted file", LOG(H1) "diff --git a/n.c b/n.c\ndeleted file mode 100644\n"
	     "index bf269f4..0000000\n--- a/n.c\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-one\n-two\n"),
	CASE("new empty file", LOG(H1) "diff --git a/e b/e\nnew file mode 100644\n"
	     "index 0000000..e69de29\n" LOG(H2) DIFF_X),
	CASE("binary, short form", LOG(H1) BINARY_SHORT),
	CASE("binary, short form, then text", LOG(H1) BINARY_SHORT DIFF_X),
	CASE("binary, GIT binary patch, then text", MAIL(H1) BINARY_FULL DIFF_Y SIG),
	CASE("text, then GIT binary patch", MAIL(H1) DIFF_Y BINARY_FULL SIG),
	CASE("new binary file", LOG(H1) "diff --git a/b.bin b/b.bin\nnew file mode 100644\n"
	     "index 0000000..c2b4b53\nBinary files /dev/null and b/b.bin differ\n"),
	CASE("binary without index line keeps the last one", LOG(H1) BINARY_SHORT
	     LOG(H2) "diff --git a/q b/q\nBinary files a/q and b/q differ\n"),
	CASE("diff line ending a binary is not hashed", LOG(H1) BINARY_SHORT
	     "diff --git a/OTHER b/OTHER\n--- a/y.c\n+++ b/y.c\n@@ -1 +1 @@\n-a\n+b\n"),
	CASE("no newline at end of file", LOG(H1) "diff --git a/t b/t\nindex 1..2 100644\n"
	     "--- a/t\n+++ b/t\n@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n"
	     "\\ No newline at end of file\n" LOG(H2) DIFF_X),
	CASE("short backslash line is hashed", LOG(H1) "diff --git a/t b/t\n"
	     "--- a/t\n+++ b/t\n@@ -1,2 +1,2 @@\n-old\n\\ short\n+new\n x\n"),
	CASE("files in one order", LOG(H1) DIFF_X DIFF_Y),
	CASE("files in the other order", LOG(H1) DIFF_Y DIFF_X),
	CASE("@@ inside content", LOG(H1) "diff --git a/t b/t\n--- a/t\n+++ b/t\n"
	     "@@ -1,3 +1,3 @@\n @@ -1 +1 @@\n-@@ -5,6 +7,8 @@\n+@@ -\n diff --git a/t b/t\n"),
	CASE("CRLF line ends", LOG(H1) "diff --git a/w b/w\r\nindex 1..2 100644\r\n"
	     "--- a/w\r\n+++ b/w\r\n@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n"),
	CASE("CRLF content", LOG(H1) "diff --git a/w b/w\nindex 1..2 100644\n"
	     "--- a/w\n+++ b/w\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n"),
	CASE("vertical tab and form feed are hashed", LOG(H1) "diff --git a/w b/w\n"
	     "--- a/w\n+++ b/w\n@@ -1 +1 @@\n-a\v\n+a\f\n"),
	CASE("empty commit, then a commit", LOG(H1) LOG(H2) DIFF_X),
	CASE("empty commits only", LOG(H1) LOG(H2)),
	CASE("log text only", "just some words\nand more\n"),
	CASE("empty input", ""),
	CASE("one-line hunks without counts", LOG(H1) "diff --git a/o b/o\n--- a/o\n+++ b/o\n"
	     "@@ -1 +1 @@\n-a\n+b\n@@ -5,0 +6 @@\n+c\n@@ -9 +9,0 @@\n-d\n" DIFF_Y),
	CASE("hunk header with bad counts", LOG(H1) "diff --git a/o b/o\n--- a/o\n+++ b/o\n"
	     "@@ -1,x +1 @@\n-a\n+b\n" DIFF_Y),
	/* git assigns the old count before it sees that the header is bad */
	CASE("bad hunk header still sets the old count", LOG(H1) "diff --git a/o b/o\n"
	     "--- a/o\n+++ b/o\n@@ -1,2 x\n-a\n-b\n" DIFF_Y),
	CASE("bad hunk header still sets both counts", LOG(H1) "diff --git a/o b/o\n"
	     "--- a/o\n+++ b/o\n@@ -3 +1,z @@\n-a\n" DIFF_Y),
	CASE("hunk header with negative count", LOG(H1) "diff --git a/o b/o\n--- a/o\n"
	     "+++ b/o\n@@ -1,-2 +1 @@\n-a\n+b\n" DIFF_Y),
	CASE("hunk header with huge counts", LOG(H1) "diff --git a/o b/o\n--- a/o\n"
	     "+++ b/o\n@@ -1,99999999999999999999 +1,4294967297 @@\n-a\n+b\n" DIFF_Y),
	CASE("hunk count too long: next file hashed as content", LOG(H1)
	     "diff --git a/o b/o\n--- a/o\n+++ b/o\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n\n" DIFF_Y),
	CASE("log line starting with diff", MAIL(H1) "diff --git is how it starts\n"
	     "and a second line\n" DIFF_X SIG),
	CASE("commit <hex> upstream. in a body", MAIL(H1)
	     "commit " H2 " upstream.\n\n" DIFF_X SIG),
	CASE("bare hex lines (diff-tree --stdin)", H1 "\n" DIFF_X H2 "\n" DIFF_Y),
	CASE("diff-tree prefix names nothing", "diff-tree " H1 "\n" DIFF_X),
	CASE("upper-case hex name", LOG(H1_UPPER) DIFF_X),
	CASE("hex name followed by text", H1 "extra text\n" DIFF_X),
	CASE("39 hex digits name nothing", "commit e83c5163316f89bfbde7d9ab23ca2e25604af29\n" DIFF_X),
	CASE("NUL byte inside a line", LOG(H1) "diff --git a/z b/z\n--- a/z\n+++ b/z\n"
	     "@@ -1,2 +1,2 @@\n-a\0hidden\n+b\n \0\n"),
	CASE("NUL byte in a header line", LOG(H1) "diff --git a/z b/z\0ignored\n"
	     "--- a/z\n+++ b/z\n@@ -1 +1 @@\n-a\n+b\n"),
	CASE("trailing garbage, then a second diff", MAIL(H1) DIFF_X SIG
	     "garbage after the signature\n" DIFF_Y),
	CASE("header line that is not a letter ends the patch", LOG(H1)
	     "diff --git a/x b/x\n1 not a header\n" DIFF_Y),
	CASE("header line starting with [ ends the patch", LOG(H1)
	     "diff --git a/x b/x\n[x] not a header\n" DIFF_Y),
	CASE("header line starting with a non-ASCII letter ends the patch", LOG(H1)
	     "diff --git a/x b/x\n\303\251t\303\251\n" DIFF_Y),
	CASE("index line cut by a NUL right after ..", LOG(H1) "diff --git a/b b/b\n"
	     "index 3e3f0b6..\0c2b4b53 100644\nBinary files a/b and b/b differ\n"),
	CASE("index line cut by a NUL inside the post-image", LOG(H1) "diff --git a/b b/b\n"
	     "index 3e3f0b6..c2b\0" "4b53 100644\nBinary files a/b and b/b differ\n"),
	CASE("format-patch series", MAIL(H1) DIFF_X SIG MAIL(H2) DIFF_Y SIG MAIL(H3) SIG),
	CASE("git log -p, several commits", LOG(H1) DIFF_X LOG(H2) DIFF_Y DIFF_X LOG(H3) DIFF_Y),
	CASE("no final newline", LOG(H1) "diff --git a/x b/x\n--- a/x\n+++ b/x\n"
	     "@@ -1 +1 @@\n-a\n+b"),
	CASE("index line without mode, binary", LOG(H1) "diff --git a/b b/b\n"
	     "index 3e3f0b6..c2b4b53\nBinary files a/b and b/b differ\n"),
	CASE("index line with three dots", LOG(H1) "diff --git a/b b/b\n"
	     "index 3e3f0b6...c2b4b53 100644\nBinary files a/b and b/b differ\n"),
	CASE("index line, binary, no final newline", LOG(H1) "diff --git a/b b/b\n"
	     "index 3e3f0b6..c2b4b53\nBinary files a/b and b/b differ"),
	CASE("index oid longer than 64", LOG(H1) "diff --git a/b b/b\nindex "
	     "0123456789012345678901234567890123456789012345678901234567890123456789.."
	     "abcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcd 100644\n"
	     "Binary files a/b and b/b differ\n"),
	CASE("combined diff ends the patch", LOG(H1) DIFF_X "diff --cc m\n"
	     "index 1,2..3\n--- a/m\n+++ b/m\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n +b\n"),
};

/* Run git on the input file; the output is malloc'd, *n its length. */
static char *run_git(const char *args, const char *path, size_t *n)
{
	char cmd[512], *out = NULL;
	size_t cap = 0;
	FILE *f = NULL, *mem = open_memstream(&out, &cap);
	char buf[4096];
	size_t got;

	assert_non_null(mem);
	snprintf(cmd, sizeof(cmd), "git patch-id %s <'%s'", args, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, got, mem);
	assert_int_equal(pclose(f), 0);
	fclose(mem);
	*n = cap;
	return out;
}

/* onlist_patchid_stream() over in[0..len), the first `split` bytes given
 * as the prefix; the output is malloc'd. */
static char *run_stream(const char *in, size_t len, size_t split, int stable,
			size_t *n)
{
	char *out = NULL;
	size_t cap = 0;
	FILE *mem = open_memstream(&out, &cap);
	/* fmemopen() cannot open 0 bytes; use an empty file instead. */
	FILE *rest = len > split ? fmemopen((void *)(in + split), len - split, "r")
				 : fopen("/dev/null", "r");

	assert_non_null(mem);
	assert_non_null(rest);
	assert_int_equal(onlist_patchid_stream(rest, in, split, mem, stable), ONLIST_OK);
	fclose(rest);
	fclose(mem);
	*n = cap;
	return out;
}

static char *write_temp(const char *in, size_t len)
{
	char *path = strdup("/tmp/test_patchid.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, in, len), (ssize_t)len);
	close(fd);
	return path;
}

static void check_case(const struct pcase *c)
{
	char *path = write_temp(c->in, c->len), *wants[2];
	size_t wlens[2];
	int stable;

	/* Ask git first and remove the file, so a failure leaves nothing. */
	wants[1] = run_git("--stable", path, &wlens[1]);
	wants[0] = run_git("--unstable", path, &wlens[0]);
	unlink(path);
	free(path);

	for (stable = 1; stable >= 0; stable--) {
		size_t wlen = wlens[stable], glen, split;
		char *want = wants[stable];

		for (split = 0; split <= c->len; split++) {
			char *got = run_stream(c->in, c->len, split, stable, &glen);

			if (glen != wlen || memcmp(got, want, wlen) != 0)
				fail_msg("%s (%s, prefix %zu bytes):\ngit:\n%.*sonlist:\n%.*s",
					 c->name, stable ? "stable" : "unstable", split,
					 (int)wlen, want, (int)glen, got);
			free(got);
		}
		if (stable) {
			unsigned char raw[ONLIST_PATCHID_RAWSZ];
			char hex[ONLIST_PATCHID_HEXSZ + 1];
			int found = onlist_patchid_buf(c->in, c->len, raw);

			assert_int_equal(found, wlen > 0);
			if (found) {
				onlist_patchid_hex(raw, hex);
				assert_memory_equal(hex, want, ONLIST_PATCHID_HEXSZ);
			}
		}
	}
	free(wants[0]);
	free(wants[1]);
}

static void test_case(void **state)
{
	check_case(*state);
}

/* The oracle must agree with what the cases are meant to show. */
static char *git_ids(const char *name, const char *args)
{
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(cases[i].name, name) == 0) {
			char *path = write_temp(cases[i].in, cases[i].len);
			char *out = run_git(args, path, &n);

			unlink(path);
			free(path);
			return out;
		}
	}
	fail_msg("no case %s", name);
	return NULL;
}

static void relation(const char *a, const char *b, const char *args, int equal)
{
	char *x = git_ids(a, args), *y = git_ids(b, args);

	if ((strcmp(x, y) == 0) != equal)
		fail_msg("git %s: '%s' and '%s' should be %s", args, a, b,
			 equal ? "equal" : "different");
	free(x);
	free(y);
}

static void test_relations(void **state)
{
	(void)state;
	relation("plain modification", "whitespace-only difference", "--stable", 1);
	relation("files in one order", "files in the other order", "--stable", 1);
	relation("files in one order", "files in the other order", "--unstable", 0);
	relation("mode change alone, then a file", "a file, then mode change alone",
		 "--stable", 0);
}

static void test_long_lines(void **state)
{
	/* Lines far beyond the stream's read buffer. */
	size_t big = 3u << 20, len, i, n1, n2;
	char *in = malloc(2 * big + 256), *p = in, *path, *want, *got;

	(void)state;
	p += sprintf(p, "%s", LOG(H1) "diff --git a/l b/l\n--- a/l\n+++ b/l\n@@ -1 +1 @@\n-");
	for (i = 0; i < big; i++)
		*p++ = "ab c\t"[i % 5];
	*p++ = '\n';
	*p++ = '+';
	for (i = 0; i < big; i++)
		*p++ = "xyz "[i % 4];
	*p++ = '\n';
	len = p - in;
	path = write_temp(in, len);
	want = run_git("--stable", path, &n1);
	unlink(path);
	free(path);
	got = run_stream(in, len, 100, 1, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(want, got, n1);
	free(got);
	got = run_stream(in, len, len - 10, 1, &n2);
	assert_memory_equal(want, got, n1);
	free(want);
	free(got);
	free(in);
}

static void test_line_events(void **state)
{
	struct onlist_patchid p;
	char name[ONLIST_PATCHID_HEXSZ + 1];
	unsigned char raw[ONLIST_PATCHID_RAWSZ];

	(void)state;
	onlist_patchid_init(&p, 1);
	assert_int_equal(onlist_patchid_line(&p, "Subject: x\n", 11, name), ONLIST_PATCHID_MORE);
	assert_int_equal(onlist_patchid_line(&p, "From " H1_UPPER " Mon\n", 50, name),
			 ONLIST_PATCHID_NEXT);
	assert_string_equal(name, H1);	/* printed as git prints it */
	assert_int_equal(onlist_patchid_finish(&p, raw), 0);

	onlist_patchid_init(&p, 1);
	assert_int_equal(onlist_patchid_line(&p, "diff --git a/x b/x\n", 19, NULL), ONLIST_PATCHID_MORE);
	assert_int_equal(onlist_patchid_line(&p, "--- a/x\n", 8, NULL), ONLIST_PATCHID_MORE);
	assert_int_equal(onlist_patchid_line(&p, "+++ b/x\n", 8, NULL), ONLIST_PATCHID_MORE);
	assert_int_equal(onlist_patchid_line(&p, "@@ -1 +1 @@\n", 12, NULL), ONLIST_PATCHID_MORE);
	assert_int_equal(onlist_patchid_line(&p, "-a\n", 3, NULL), ONLIST_PATCHID_MORE);
	assert_int_equal(onlist_patchid_line(&p, "+b\n", 3, NULL), ONLIST_PATCHID_MORE);
	/* a line not bounded by a NUL: only len bytes are read */
	assert_int_equal(onlist_patchid_line(&p, "-- \nXXXX", 4, NULL), ONLIST_PATCHID_END);
	assert_int_equal(onlist_patchid_finish(&p, raw), 1);
}

static void test_io_errors(void **state)
{
	static const char in[] = LOG(H1) DIFF_X;
	FILE *ro = fopen("/dev/null", "r"), *wo = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(ro);
	assert_non_null(wo);
	/* reading a write-only stream fails */
	assert_int_equal(onlist_patchid_stream(wo, NULL, 0, wo, 1), ONLIST_EIO);
	/* writing an id to a read-only stream fails */
	assert_int_equal(onlist_patchid_stream(ro, in, sizeof(in) - 1, ro, 1), ONLIST_EIO);
	fclose(ro);
	fclose(wo);
}

static void test_hex(void **state)
{
	unsigned char raw[ONLIST_PATCHID_RAWSZ];
	char hex[ONLIST_PATCHID_HEXSZ + 1];
	int i;

	(void)state;
	for (i = 0; i < ONLIST_PATCHID_RAWSZ; i++)
		raw[i] = (unsigned char)(i * 13 + 0xa0);
	onlist_patchid_hex(raw, hex);
	assert_string_equal(hex, "a0adbac7d4e1eefb0815222f3c495663707d8a97");
}

int main(void)
{
	size_t n = sizeof(cases) / sizeof(cases[0]), i;
	struct CMUnitTest *tests = calloc(n + 5, sizeof(*tests));
	int rc;

	if (system("git --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "git not installed: the oracle is missing\n");
		return 77;
	}
	for (i = 0; i < n; i++) {
		tests[i].name = cases[i].name;
		tests[i].test_func = test_case;
		tests[i].initial_state = (void *)&cases[i];
	}
	tests[n].name = "relations the cases show";
	tests[n].test_func = test_relations;
	tests[n + 1].name = "lines longer than the read buffer";
	tests[n + 1].test_func = test_long_lines;
	tests[n + 2].name = "line events and names";
	tests[n + 2].test_func = test_line_events;
	tests[n + 3].name = "hex";
	tests[n + 3].test_func = test_hex;
	tests[n + 4].name = "read and write errors";
	tests[n + 4].test_func = test_io_errors;
	rc = _cmocka_run_group_tests("patchid", tests, n + 5, NULL, NULL);
	free(tests);
	return rc;
}
