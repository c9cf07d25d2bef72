/* test_mail.c - mbox splitting and message parsing. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <zlib.h>
#include <cmocka.h>

#include "onlist/mail.h"

static char tmpdir[] = "/tmp/onlist-test-mail-XXXXXX";

static char *write_file(const char *name, const char *data, size_t len)
{
	char *path;
	FILE *f;

	assert_true(asprintf(&path, "%s/%s", tmpdir, name) > 0);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

/* All messages of a source, as (from_line, data) pairs joined by "|". */
static char *split_all(const char *path, int *count, onlist_status *end)
{
	struct onlist_source *src;
	struct onlist_raw raw;
	char *err = NULL, *acc = strdup("");
	onlist_status st;

	*count = 0;
	st = onlist_source_open(&src, path, &err);
	assert_int_equal(st, ONLIST_OK);
	while ((st = onlist_source_next(src, &raw, &err)) == ONLIST_OK) {
		char *n;
		assert_true(asprintf(&n, "%s[%s]%.*s|", acc, raw.from_line,
				     (int)raw.len, raw.data) > 0);
		free(acc);
		acc = n;
		++*count;
	}
	*end = st;
	free(err);
	onlist_source_free(src);
	return acc;
}

static const char two[] =
	"From a@b Mon Jun  3 10:00:00 2013\n"
	"Subject: one\n\nbody one\n"
	"From here on a body line that is not a separator\n"
	">From escaped\n"
	">>From twice escaped\n"
	"\n"
	"From c@d Tue Jun  4 11:00:00 2013\n"
	"Subject: two\n\nno final newline";

static void test_mbox_split(void **state)
{
	char *path = write_file("two.mbox", two, strlen(two)), *all;
	onlist_status end;
	int n;

	(void)state;
	all = split_all(path, &n, &end);
	assert_int_equal(end, ONLIST_ENOTFOUND);
	assert_int_equal(n, 2);
	assert_string_equal(all,
		"[a@b Mon Jun  3 10:00:00 2013]Subject: one\n\nbody one\n"
		"From here on a body line that is not a separator\n"
		"From escaped\n"
		">From twice escaped\n"
		"\n|"
		"[c@d Tue Jun  4 11:00:00 2013]Subject: two\n\nno final newline|");
	free(all);
	free(path);
}

/* Mailman (pipermail) archives write the sender with " at ". */
static const char pipermail[] =
	"From alice at example.com  Mon Jun  3 10:00:00 2013\n"
	"From: alice at example.com (Alice)\nSubject: one\n\nbody\n"
	"From there on, nothing splits\n"
	"\n"
	"From bob at example.org  Tue Jun  4 11:00:00 2013\n"
	"From: bob at example.org (Bob)\nSubject: two\n\nbody two\n";

static void test_pipermail_split(void **state)
{
	char *path = write_file("2013-June.txt", pipermail, strlen(pipermail));
	onlist_status end;
	int n;
	char *all = split_all(path, &n, &end);

	(void)state;
	assert_int_equal(n, 2);
	assert_non_null(strstr(all, "[bob at example.org  Tue Jun  4 11:00:00 2013]"));
	assert_non_null(strstr(all, "From there on, nothing splits"));
	free(all);
	free(path);
}

static void test_mbox_gzip_same_as_plain(void **state)
{
	char *plain = write_file("p.mbox", two, strlen(two)), *gzpath, *a, *b;
	gzFile gz;
	onlist_status end;
	int n1, n2;

	(void)state;
	assert_true(asprintf(&gzpath, "%s/p.mbox.gz", tmpdir) > 0);
	gz = gzopen(gzpath, "wb");
	gzwrite(gz, two, (unsigned)strlen(two));
	gzclose(gz);
	a = split_all(plain, &n1, &end);
	b = split_all(gzpath, &n2, &end);
	assert_int_equal(n1, n2);
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(plain);
	free(gzpath);
}

static void test_truncated_gzip_is_an_error(void **state)
{
	char *gzpath, *cut, *all, buf[65536];
	FILE *f;
	size_t len;
	gzFile gz;
	onlist_status end;
	int n;
	/* Enough incompressible-ish text that the cut lands mid-stream. */
	char *big = malloc(400000);

	(void)state;
	for (size_t i = 0; i < 400000; i++)
		big[i] = (char)('a' + (i * 7919 % 26));
	memcpy(big, two, strlen(two));
	assert_true(asprintf(&gzpath, "%s/t.mbox.gz", tmpdir) > 0);
	gz = gzopen(gzpath, "wb");
	gzwrite(gz, big, 400000);
	gzclose(gz);
	f = fopen(gzpath, "rb");
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	cut = write_file("cut.mbox.gz", buf, len / 2);
	all = split_all(cut, &n, &end);
	assert_int_equal(end, ONLIST_EPARSE);
	free(all);
	free(cut);
	free(gzpath);
	free(big);
}

static void test_open_errors(void **state)
{
	struct onlist_source *src;
	char *err = NULL, *empty, *junk, *dir;

	(void)state;
	empty = write_file("empty", "", 0);
	assert_int_equal(onlist_source_open(&src, empty, &err), ONLIST_EPARSE);
	assert_non_null(strstr(err, "empty"));
	free(err);
	junk = write_file("junk", "\x7f" "ELF binary\n", 12);
	assert_int_equal(onlist_source_open(&src, junk, &err), ONLIST_EPARSE);
	assert_non_null(strstr(err, "not an mbox"));
	free(err);
	assert_true(asprintf(&dir, "%s/notmaildir", tmpdir) > 0);
	mkdir(dir, 0700);
	assert_int_equal(onlist_source_open(&src, dir, &err), ONLIST_EPARSE);
	assert_non_null(strstr(err, "not a maildir"));
	free(err);
	assert_int_equal(onlist_source_open(&src, "/nonexistent/x", &err),
			 ONLIST_EIO);
	free(err);
	free(empty);
	free(junk);
	free(dir);
}

static void test_maildir(void **state)
{
	char *d, *p;
	int n;
	onlist_status end;
	char *all;

	(void)state;
	assert_true(asprintf(&d, "%s/md", tmpdir) > 0);
	mkdir(d, 0700);
	assert_true(asprintf(&p, "%s/cur", d) > 0);
	mkdir(p, 0700);
	free(p);
	assert_true(asprintf(&p, "%s/new", d) > 0);
	mkdir(p, 0700);
	free(p);
	free(write_file("md/cur/2.x", "Subject: b\n\nb\n", 14));
	free(write_file("md/cur/1.x", "Subject: a\n\na\n", 14));
	free(write_file("md/new/3.x", "Subject: c\n\nc\n", 14));
	all = split_all(d, &n, &end);
	assert_int_equal(n, 3);
	assert_string_equal(all, "[]Subject: a\n\na\n|[]Subject: b\n\nb\n|"
			    "[]Subject: c\n\nc\n|");
	free(all);
	free(d);
}

/* The first message of a file may come without a From_ line (a single
 * saved mail, or an mbox whose first line was cut off); blank lines before
 * it are no message. */
static void test_first_message_without_from_line(void **state)
{
	static const char t[] =
		"\n\nSubject: one\n\nbody one\n"
		"From b@c Tue Jun  4 11:00:00 2013\n"
		"Subject: two\n\nbody two\n";
	char *path = write_file("nofrom.mbox", t, strlen(t)), *all;
	onlist_status end;
	int n;

	(void)state;
	all = split_all(path, &n, &end);
	assert_int_equal(end, ONLIST_ENOTFOUND);
	assert_int_equal(n, 2);
	assert_string_equal(all, "[]Subject: one\n\nbody one\n|"
			    "[b@c Tue Jun  4 11:00:00 2013]Subject: two\n\nbody two\n|");
	free(all);
	free(path);
}

/* Blank lines before the first From_ line, spaces and tabs on them too,
 * are skipped as `git mailsplit` skips them (git's own t5100/sample.mbox
 * begins so); they used to make the file "not an mbox". */
static void test_blank_lines_before_first_from(void **state)
{
	static const char t[] =
		"\t\n   \n\r\n\n"
		"From a@b Mon Jun  3 10:00:00 2013\n"
		"Subject: one\n\nbody one\n";
	char *path = write_file("blank.mbox", t, strlen(t)), *all;
	onlist_status end;
	int n;

	(void)state;
	all = split_all(path, &n, &end);
	assert_int_equal(end, ONLIST_ENOTFOUND);
	assert_int_equal(n, 1);
	assert_string_equal(all, "[a@b Mon Jun  3 10:00:00 2013]"
			    "Subject: one\n\nbody one\n|");
	free(all);
	free(path);
}

/* mboxo: body lines that start "From " but are no From_ line (no sender
 * and asctime date after it) stay in the body. */
static void test_mboxo_from_lines_in_body(void **state)
{
	static const char t[] =
		"From a@b Mon Jun  3 10:00:00 2013\n"
		"Subject: one\n\n"
		"From me to you on Monday 3 June\n"
		"From: not a header here\n"
		"From  a@b Mon Jun  3 10:00:00 2013\n"
		"From a@b yesterday at 10:00\n";
	char *path = write_file("mboxo.mbox", t, strlen(t)), *all;
	onlist_status end;
	int n;

	(void)state;
	all = split_all(path, &n, &end);
	assert_int_equal(n, 1);
	assert_non_null(strstr(all, "From a@b yesterday at 10:00\n|"));
	free(all);
	free(path);
}

/* NUL bytes split and parse like any other byte: the message keeps its
 * length, the patch after the NUL is still found. */
static void test_nul_bytes(void **state)
{
	static const char t[] =
		"From a@b Mon Jun  3 10:00:00 2013\n"
		"Subject: [PATCH] x\x00y\n\n"
		"Message with a \x00 inside.\n---\n"
		"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\x00\n+b\n"
		"From c@d Tue Jun  4 11:00:00 2013\n"
		"Subject: two\n\ntwo\n";
	char *path = write_file("nul.mbox", t, sizeof(t) - 1), *err = NULL;
	struct onlist_source *src;
	struct onlist_raw raw;
	struct onlist_mail *m;
	char hex[41];
	size_t first = strlen("From a@b Mon Jun  3 10:00:00 2013\n");
	size_t second = (size_t)((const char *)memmem(t, sizeof(t) - 1,
						      "From c@d", 8) - t);

	(void)state;
	assert_int_equal(onlist_source_open(&src, path, &err), ONLIST_OK);
	assert_int_equal(onlist_source_next(src, &raw, &err), ONLIST_OK);
	assert_int_equal(raw.len, second - first);
	assert_memory_equal(raw.data, t + first, raw.len);
	assert_int_equal(onlist_mail_parse(&m, raw.data, raw.len, &err),
			 ONLIST_OK);
	assert_string_equal(onlist_mail_body(m),
			    "Message with a \xef\xbf\xbd inside.\n");
	assert_true(onlist_mail_patchid(m, hex));
	onlist_mail_free(m);
	assert_int_equal(onlist_source_next(src, &raw, &err), ONLIST_OK);
	assert_int_equal(onlist_source_next(src, &raw, &err), ONLIST_ENOTFOUND);
	onlist_source_free(src);
	free(path);
}

/* The last message ends without a newline, in the middle of its patch. */
static void test_last_message_without_newline(void **state)
{
	static const char t[] =
		"From a@b Mon Jun  3 10:00:00 2013\n"
		"Subject: [PATCH] x\n\nWhy.\n---\n"
		"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b";
	char *path = write_file("nonl.mbox", t, strlen(t)), *err = NULL;
	struct onlist_source *src;
	struct onlist_raw raw;
	struct onlist_mail *m;
	const char *patch;
	size_t len;
	char hex[41];

	(void)state;
	assert_int_equal(onlist_source_open(&src, path, &err), ONLIST_OK);
	assert_int_equal(onlist_source_next(src, &raw, &err), ONLIST_OK);
	assert_int_equal(raw.data[raw.len - 1], 'b');
	assert_int_equal(onlist_mail_parse(&m, raw.data, raw.len, &err),
			 ONLIST_OK);
	patch = onlist_mail_patch(m, &len);
	assert_non_null(patch);
	assert_int_equal(patch[len - 1], 'b');
	assert_true(onlist_mail_patchid(m, hex));
	onlist_mail_free(m);
	assert_int_equal(onlist_source_next(src, &raw, &err), ONLIST_ENOTFOUND);
	onlist_source_free(src);
	free(path);
}

/* A 50 MB message (one patch adding 50 MB of lines) between two small
 * ones: read whole, parsed, and the message after it is still there. */
static void test_50mb_message(void **state)
{
	const size_t big = 50u << 20;
	static const char head[] =
		"From a@b Mon Jun  3 10:00:00 2013\n"
		"Subject: [PATCH] huge\n\nBig.\n---\n"
		"diff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ b/f\n";
	static const char tail[] =
		"From c@d Tue Jun  4 11:00:00 2013\nSubject: after\n\nsmall\n";
	size_t nlines = big / 64, total;
	char *t, *p, *path, *err = NULL, hunk[64], hex[41];
	struct onlist_source *src;
	struct onlist_raw raw;
	struct onlist_mail *m;
	FILE *f;

	(void)state;
	t = malloc(sizeof(head) + 64 + nlines * 64 + sizeof(tail));
	assert_non_null(t);
	p = t + sprintf(t, "%s@@ -0,0 +1,%zu @@\n", head, nlines);
	for (size_t i = 0; i < nlines; i++) {
		memset(p, 'x', 63);
		p[0] = '+';
		p[63] = '\n';
		p += 64;
	}
	memcpy(p, tail, sizeof(tail) - 1);
	total = (size_t)(p - t) + sizeof(tail) - 1;
	assert_true(asprintf(&path, "%s/big.mbox", tmpdir) > 0);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(t, 1, total, f), total);
	fclose(f);

	assert_int_equal(onlist_source_open(&src, path, &err), ONLIST_OK);
	assert_int_equal(onlist_source_next(src, &raw, &err), ONLIST_OK);
	assert_true(raw.len > big);
	assert_int_equal(onlist_mail_parse(&m, raw.data, raw.len, &err),
			 ONLIST_OK);
	assert_string_equal(onlist_mail_body(m), "Big.\n");
	assert_true(onlist_mail_patchid(m, hex));
	onlist_mail_free(m);
	assert_int_equal(onlist_source_next(src, &raw, &err), ONLIST_OK);
	snprintf(hunk, sizeof(hunk), "%.*s", (int)raw.len, raw.data);
	assert_string_equal(hunk, "Subject: after\n\nsmall\n");
	assert_int_equal(onlist_source_next(src, &raw, &err), ONLIST_ENOTFOUND);
	onlist_source_free(src);
	free(path);
	free(t);
}

/* Files that are no mail at all: a clear error naming the file. */
static void test_not_an_mbox(void **state)
{
#define FILE_CASE(name, data) { name, data, sizeof(data) - 1 }
	static const struct { const char *name, *data; size_t len; } cases[] = {
		FILE_CASE("text.txt", "hello world\nthis is no mail\n"),
		FILE_CASE("zip.zip", "PK\x03\x04\x14\x00\x00\x00"),
		FILE_CASE("pdf.pdf", "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"),
		FILE_CASE("nul.bin", "\0\0\0\0From a@b\n"),
	};
#undef FILE_CASE

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct onlist_source *src;
		char *err = NULL;
		char *path = write_file(cases[i].name, cases[i].data, cases[i].len);

		assert_int_equal(onlist_source_open(&src, path, &err),
				 ONLIST_EPARSE);
		assert_non_null(err);
		assert_non_null(strstr(err, path));
		assert_non_null(strstr(err, "not an mbox"));
		free(err);
		free(path);
	}
}

static struct onlist_mail *parse(const char *text)
{
	struct onlist_mail *m = NULL;
	char *err = NULL;

	assert_int_equal(onlist_mail_parse(&m, text, strlen(text), &err),
			 ONLIST_OK);
	return m;
}

static void test_headers(void **state)
{
	struct onlist_mail *m = parse(
		"From: =?UTF-8?Q?J=C3=B6rg?= Schmidt <joerg@example.org>\n"
		"Subject: [PATCH v2 1/3] fix =?ISO-8859-1?Q?caf=E9?=\n"
		"Date: Mon, 3 Jun 2013 12:00:00 +0200\n"
		"Message-ID: <abc@example.org>\n"
		"In-Reply-To: <parent@example.org> (some comment)\n"
		"References: <root@example.org>\n <parent@example.org>\n"
		"\nhello\n");

	(void)state;
	assert_string_equal(onlist_mail_message_id(m), "abc@example.org");
	assert_false(onlist_mail_id_is_synthetic(m));
	assert_string_equal(onlist_mail_from_name(m), "J\xc3\xb6rg Schmidt");
	assert_string_equal(onlist_mail_from_addr(m), "joerg@example.org");
	assert_string_equal(onlist_mail_subject(m),
			    "[PATCH v2 1/3] fix caf\xc3\xa9");
	assert_int_equal(onlist_mail_date(m), 1370253600);	/* 10:00 UTC */
	assert_string_equal(onlist_mail_in_reply_to(m), "parent@example.org");
	assert_string_equal(onlist_mail_references(m),
			    "root@example.org parent@example.org");
	assert_null(onlist_mail_patch(m, NULL));
	assert_null(onlist_mail_patch_source(m));
	onlist_mail_free(m);
}

static void test_raw_latin1_subject_becomes_utf8(void **state)
{
	struct onlist_mail *m = parse("Subject: caf\xe9\n\nbody\n");

	(void)state;
	assert_string_equal(onlist_mail_subject(m), "caf\xc3\xa9");
	onlist_mail_free(m);
}

/* Header text reaches terminals and reports: no control characters, also
 * not when smuggled in through RFC 2047. */
static void test_control_characters_removed(void **state)
{
	struct onlist_mail *m = parse(
		"Subject: =?utf-8?q?legit=0A____posted_to_fake=1B[31mRED?=\n"
		"From: =?utf-8?q?Evil=07=C2=9B?= <e@x>\n"
		"Message-ID: <evil\x1b]0;pwn\x07@x>\n\nbody\n");
	const char *fields[3];

	(void)state;
	fields[0] = onlist_mail_subject(m);
	fields[1] = onlist_mail_from_name(m);
	fields[2] = onlist_mail_message_id(m);
	for (int i = 0; i < 3; i++)
		for (const unsigned char *p = (const unsigned char *)fields[i]; *p; p++) {
			assert_true(*p >= 0x20 && *p != 0x7f);
			assert_false(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
		}
	assert_non_null(strstr(onlist_mail_subject(m), "legit"));
	onlist_mail_free(m);
}

/* A NUL inside a header, or an in-body header, is a space: the rest of
 * the value is kept (GMime holds values as C strings and used to stop at
 * the NUL, "N\0ul <a@b>" became the address "N"). */
static void test_nul_in_header(void **state)
{
	static const char t[] =
		"From: N\0ul <a@b>\n"
		"Subject: [PATCH] x\0y z\n"
		"Message-ID: <nul@x>\n\n"
		"From: In B\0ody <i@b>\n\nbody\n";
	struct onlist_mail *m = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(onlist_mail_parse(&m, t, sizeof(t) - 1, &err),
			 ONLIST_OK);
	assert_string_equal(onlist_mail_from_name(m), "N ul");
	assert_string_equal(onlist_mail_from_addr(m), "a@b");
	assert_string_equal(onlist_mail_subject(m), "[PATCH] x y z");
	assert_string_equal(onlist_mail_message_id(m), "nul@x");
	assert_string_equal(onlist_mail_inbody(m, "From"), "In B ody <i@b>");
	onlist_mail_free(m);
}

static void test_synthetic_id_is_stable(void **state)
{
	const char *t = "Subject: no id\n\nbody\n";
	struct onlist_mail *a = parse(t), *b = parse(t),
			   *c = parse("Subject: no id\n\nother\n");

	(void)state;
	assert_true(onlist_mail_id_is_synthetic(a));
	assert_string_equal(onlist_mail_message_id(a), onlist_mail_message_id(b));
	assert_string_not_equal(onlist_mail_message_id(a),
				onlist_mail_message_id(c));
	onlist_mail_free(a);
	onlist_mail_free(b);
	onlist_mail_free(c);
}

static const char patch_mail[] =
	"Subject: [PATCH] x\nMessage-ID: <p@x>\n\n"
	"Explain.\n\nSigned-off-by: A <a@b>\n---\n f | 1 +\n\n"
	"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1,2 @@\n a\n+b\n-- \n2.39\n";

static void test_inline_patch(void **state)
{
	struct onlist_mail *m = parse(patch_mail);
	char hex[41];
	size_t len;

	(void)state;
	assert_string_equal(onlist_mail_body(m),
			    "Explain.\n\nSigned-off-by: A <a@b>\n");
	assert_non_null(onlist_mail_patch(m, &len));
	assert_true(len > 0);
	assert_string_equal(onlist_mail_patch_source(m), "inline");
	assert_true(onlist_mail_patchid(m, hex));
	assert_int_equal(strlen(hex), 40);
	onlist_mail_free(m);
}

static void test_quoted_patch_is_not_a_patch(void **state)
{
	struct onlist_mail *m = parse(
		"Subject: Re: [PATCH] x\nMessage-ID: <r@x>\n\n"
		"> diff --git a/f b/f\n> --- a/f\n> +++ b/f\n> @@ -1 +1,2 @@\n"
		">  a\n> +b\n\nLooks good.\n");
	char hex[41];

	(void)state;
	assert_null(onlist_mail_patch(m, NULL));
	assert_false(onlist_mail_patchid(m, hex));
	onlist_mail_free(m);
}

#define DIFF "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
#define QUILT "Index: f\n====\n--- f.orig\n+++ f\n@@ -1 +1 @@\n-a\n+b\n"
#define MIXED(b) "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=" b "\n\n"

/* How one mail comes apart: the commit message git am would make, whether
 * there is a patch, whether it has a git patch-id, and where the diff was.
 * Each row was checked against `git mailinfo -u` unless it says
 * "onlist:" (where git stops with an error or copies junk in). */
static const struct {
	const char *name, *mail, *body;
	int patch, id;
	const char *source;
} extract[] = {
	{ "qp soft breaks and =3D", "Subject: x\n"
	  "Content-Transfer-Encoding: quoted-printable\n\n"
	  "a =3D b, a long=\n line\n---\n" DIFF,
	  "a = b, a long line\n", 1, 1, "inline" },
	{ "base64 with CR LF inside keeps the CRs (git: quoted CRLF)", "Subject: x\n"
	  "Content-Transfer-Encoding: base64\n\n"
	  "bXNnDQotLS0NCmRpZmYgLS1naXQgYS9mIGIvZg0KLS0tIGEvZg0KKysrIGIvZg0KQEAg\n"
	  "LTEgKzEgQEANCi1hDQorYg0K\n",
	  "msg\r\n", 1, 1, "inline" },
	{ "CR LF mail: CRs go, like git mailsplit", "Subject: x\r\n\r\n"
	  "msg\r\n---\r\n" DIFF, "msg\n", 1, 1, "inline" },
	{ "format=flowed, delsp=yes", "Subject: x\n"
	  "Content-Type: text/plain; format=flowed; delsp=yes\n\n"
	  "one two \nthree\n>quoted\n From stuffed\n-- \nsig\n",
	  "one twothree\n>quoted\nFrom stuffed\n-- \nsig\n", 0, 0, NULL },
	{ "in-body From/Subject/Date go, blank after them too", "Subject: x\n\n"
	  "From: Other <o@x>\nSubject: real\n  subject\nDate: today\n\nmsg\n---\n" DIFF,
	  "msg\n", 1, 1, "inline" },
	{ "scissors are not cut (git mailinfo's default)", "Subject: x\n\n"
	  "note\n-- >8 --\nSubject: y\n\nmsg\n---\n" DIFF,
	  "note\n-- >8 --\nSubject: y\n\nmsg\n", 1, 1, "inline" },
	{ "a --- line in the message ends it", "Subject: x\n\n"
	  "v2:\n---\n- fixed\n---\n" DIFF, "v2:\n", 1, 1, "inline" },
	{ "windows-1252", "Subject: x\n"
	  "Content-Type: text/plain; charset=windows-1252\n\n\x93q\x94\n",
	  "\xe2\x80\x9cq\xe2\x80\x9d\n", 0, 0, NULL },
	{ "ISO-2022-JP", "Subject: x\n"
	  "Content-Type: text/plain; charset=ISO-2022-JP\n\n"
	  "\x1b$BF|K\\\x1b(B\n", "\xe6\x97\xa5\xe6\x9c\xac\n", 0, 0, NULL },
	{ "onlist: unknown charset falls back", "Subject: x\n"
	  "Content-Type: text/plain; charset=x-klingon\n\ncaf\xe9 ok\n---\n" DIFF,
	  "caf\xc3\xa9 ok\n", 1, 1, "inline" },
	{ "onlist: EBCDIC does not read the ASCII --- and diff (git: no patch)",
	  "Subject: x\nContent-Type: text/plain; charset=IBM037\n\n"
	  "caf\xc3\xa9 ok\n---\n" DIFF, "caf\xc3\xa9 ok\n", 1, 1, "inline" },
	{ "onlist: nor does UTF-16", "Subject: x\n"
	  "Content-Type: text/plain; charset=utf-16\n\nmsg\n---\n" DIFF,
	  "msg\n", 1, 1, "inline" },
	{ "UTF-7 reads them, as git does", "Subject: x\n"
	  "Content-Type: text/plain; charset=utf-7\n\n+ZeVnLA-\n---\n" DIFF,
	  "\xe6\x97\xa5\xe6\x9c\xac\n", 1, 1, "inline" },
	{ "onlist: a name glibc reads as UTF-8 passes no invalid bytes",
	  "Subject: x\nContent-Type: text/plain; charset=\"utf\xff\xff-8\"\n\n"
	  "r\xf6\x9b\x96\x94h\n",
	  "r\xc3\xb6\xe2\x80\xba\xe2\x80\x93\xe2\x80\x9dh\n", 0, 0, NULL },
	{ "onlist: invalid UTF-8 falls back to Latin-1", "Subject: x\n"
	  "Content-Type: text/plain; charset=utf-8\n\ncaf\xe9\n",
	  "caf\xc3\xa9\n", 0, 0, NULL },
	{ "patch as a text/x-diff attachment", "Subject: x\n" MIXED("B")
	  "--B\nContent-Type: text/plain\n\nmsg\n"
	  "--B\nContent-Type: text/x-diff\nContent-Transfer-Encoding: base64\n\n"
	  "ZGlmZiAtLWdpdCBhL2YgYi9mCi0tLSBhL2YKKysrIGIvZgpAQCAtMSArMSBAQAotYQorYgo=\n"
	  "--B--\n", "msg\n", 1, 1, "attachment" },
	{ "an octet-stream attachment that holds a diff", "Subject: x\n" MIXED("B")
	  "--B\nContent-Type: text/plain\n\nmsg\n"
	  "--B\nContent-Type: application/octet-stream\n\n" DIFF "--B--\n",
	  "msg\n", 1, 1, "attachment" },
	{ "onlist: a binary attachment stays out of the message", "Subject: x\n"
	  MIXED("B") "--B\nContent-Type: text/plain\n\nlog attached\n"
	  "--B\nContent-Type: application/gzip\n\n\x1f\x8b\x08junk\n--B--\n",
	  "log attached\n\n", 0, 0, NULL },
	{ "onlist: HTML and a nested multipart's preamble stay out", "Subject: x\n"
	  MIXED("A") "--A\nContent-Type: multipart/alternative; boundary=B\n\n"
	  "--B\nContent-Type: text/plain\n\nhello\n"
	  "--B\nContent-Type: text/html\n\n<p>hello</p>\n--B--\n"
	  "--A\nContent-Type: text/x-patch\n\n" DIFF "--A--\n",
	  "hello\n\n", 1, 1, "attachment" },
	{ "multipart/signed", "Subject: x\nContent-Type: multipart/signed; "
	  "boundary=S\n\n--S\nContent-Type: text/plain\n\nmsg\n---\n" DIFF
	  "--S\nContent-Type: application/pgp-signature\n\nsig\n--S--\n",
	  "msg\n", 1, 1, "inline" },
	{ "quilt: a patch, but no git patch-id", "Subject: x\n\nmsg\n---\n" QUILT,
	  "msg\n", 1, 0, "inline" },
	{ "plain diff -u: a patch, but no git patch-id", "Subject: x\n\n"
	  "msg\n--- f.orig\n+++ f\n@@ -1 +1 @@\n-a\n+b\n", "msg\n", 1, 0, "inline" },
	{ "a reply quoting a patch", "Subject: Re: x\n\n"
	  "> msg\n> ---\n> diff --git a/f b/f\n> +b\n\nok\n",
	  "> msg\n> ---\n> diff --git a/f b/f\n> +b\n\nok\n", 0, 0, NULL },
	{ "a cover letter", "Subject: [PATCH 0/2] series\n\n*** BLURB ***\n\n"
	  "Ann (2):\n  one\n  two\n\n f | 2 +-\n 1 file changed\n\n-- \n2.39.5\n",
	  "*** BLURB ***\n\nAnn (2):\n  one\n  two\n\n f | 2 +-\n 1 file changed\n\n"
	  "-- \n2.39.5\n", 0, 0, NULL },
	{ "cut off in its headers: git reads the last one again as the body",
	  "Subject: x\nMessage-Id: <a@b>", "Message-Id: <a@b>", 0, 0, NULL },
	{ "blank lines before the headers", "\n\nSubject: x\n\nmsg\n",
	  "msg\n", 0, 0, NULL },
	{ "--- alone, no diff: not a patch", "Subject: x\n\nq\n---\nnot a patch\n",
	  "q\n", 0, 0, NULL },
};

/* What git am makes of mail (len bytes): `git mailsplit -b` then `git
 * mailinfo -u`; the message into *msg (caller frees, NULs kept: *msglen
 * says how long when not NULL), and 1 with id filled if git patch-id finds
 * an id in the patch.  -1 when git cannot be run or refuses the mail. */
static int git_mailinfo_n(const char *mail, size_t len, char **msg,
			  size_t *msglen, char id[41])
{
	char *path = write_file("x.eml", mail, len), *cmd, *idfile;
	FILE *f;
	char buf[128];
	size_t n;
	int got;

	assert_true(asprintf(&cmd, "cd '%s' && rm -rf split && mkdir split && "
		"export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null && "
		"git mailsplit -b -osplit x.eml >/dev/null && "
		"git mailinfo -u msg patch <split/0001 >/dev/null 2>&1 && "
		"git patch-id --stable <patch >id", tmpdir) > 0);
	if (system(cmd) != 0) {
		free(cmd);
		free(path);
		return -1;
	}
	free(cmd);
	free(path);
	assert_true(asprintf(&path, "%s/msg", tmpdir) > 0);
	f = fopen(path, "rb");
	assert_non_null(f);
	*msg = calloc(1, 65536);
	n = fread(*msg, 1, 65535, f);
	(*msg)[n] = '\0';
	if (msglen)
		*msglen = n;
	fclose(f);
	free(path);
	assert_true(asprintf(&idfile, "%s/id", tmpdir) > 0);
	f = fopen(idfile, "rb");
	assert_non_null(f);
	got = fread(buf, 1, sizeof(buf), f) >= 40;
	if (got && id) {
		memcpy(id, buf, 40);
		id[40] = '\0';
	}
	fclose(f);
	free(idfile);
	return got;
}

static int git_mailinfo(const char *mail, char **msg)
{
	return git_mailinfo_n(mail, strlen(mail), msg, NULL, NULL);
}

static void test_extract(void **state)
{
	int have_git = system("git --version >/dev/null 2>&1") == 0;

	(void)state;
	for (size_t i = 0; i < sizeof(extract) / sizeof(extract[0]); i++) {
		struct onlist_mail *m = NULL;
		char *err = NULL, hex[41], *gmsg = NULL;
		const char *src;
		int gid;

		print_message("%s\n", extract[i].name);
		/* the expectations are git's, except where onlist falls back */
		if (have_git && strncmp(extract[i].name, "onlist:", 7)) {
			gid = git_mailinfo(extract[i].mail, &gmsg);
			assert_int_not_equal(gid, -1);
			assert_string_equal(gmsg, extract[i].body);
			assert_int_equal(gid, extract[i].id);
			free(gmsg);
		}
		assert_int_equal(onlist_mail_parse(&m, extract[i].mail,
						   strlen(extract[i].mail), &err),
				 ONLIST_OK);
		assert_string_equal(onlist_mail_body(m), extract[i].body);
		assert_int_equal(onlist_mail_patch(m, NULL) != NULL,
				 extract[i].patch);
		assert_int_equal(onlist_mail_patchid(m, hex), extract[i].id);
		src = onlist_mail_patch_source(m);
		if (extract[i].source)
			assert_string_equal(src, extract[i].source);
		else
			assert_null(src);
		onlist_mail_free(m);
	}
}

/* Mail that git mailinfo reads and onlist used to refuse or misread:
 * the message and the patch-id must be git's.  Shapes from git's
 * t/t5100 (nul-plain, nul-b64.in) and patchwork's tests/data/fuzz. */
#define NULDIFF "diff --git a/f b/f\nindex 1111111..2222222 100644\n--- a/f\n" \
	"+++ b/f\n@@ -1 +1 @@\n-a\n+\0\bb\n"
#define CASE(name, mail, patch) { name, mail, sizeof(mail) - 1, patch }
static const struct {
	const char *name, *mail;
	size_t len;
	int patch;
} git_reads[] = {
	CASE("the first line is a body line", "Here is the fix.\n---\n" DIFF, 1),
	CASE("a body line, then what look like headers",
	     "this line is no header\nFrom: A <a@b>\nSubject: x\n\nWhy.\n---\n"
	     DIFF, 1),
	CASE("no header at all, NULs in the patch (t5100/nul-plain)",
	     "\n---\ndiff --git a/foo b/foo\n\0\bSome strange test\0\b\0\b\n\0\n", 1),
	CASE("NUL bytes in a plain patch", "Subject: x\n\nWhy.\n---\n" NULDIFF, 1),
	CASE("NUL bytes in a base64 patch (t5100/nul-b64.in)", "Subject: x\n"
	     "Content-Transfer-Encoding: base64\n\n"
	     "V2h5LgotLS0KZGlmZiAtLWdpdCBhL2YgYi9mCmluZGV4IDExMTExMTEuLjIyMjIyMjIg\n"
	     "MTAwNjQ0Ci0tLSBhL2YKKysrIGIvZgpAQCAtMSArMSBAQAotYQorAAhiCg==\n", 1),
	CASE("a first line \"From pat016\" (patchwork fuzz)",
	     "From pat016\nSubject: x\n\nWhy.\n---\n" DIFF, 1),
	CASE("no header and no patch: skipped, where git reads a body",
	     "just some text\n", 0),
};
#undef CASE

static void test_reads_what_git_reads(void **state)
{
	int have_git = system("git --version >/dev/null 2>&1") == 0;

	(void)state;
	for (size_t i = 0; i < sizeof(git_reads) / sizeof(git_reads[0]); i++) {
		struct onlist_mail *m = NULL;
		char *err = NULL, *gmsg = NULL, hex[41], gid[41];
		size_t glen = 0;
		int got;

		print_message("%s\n", git_reads[i].name);
		got = have_git ? git_mailinfo_n(git_reads[i].mail, git_reads[i].len,
					        &gmsg, &glen, gid) : -2;
		assert_int_not_equal(got, -1);
		if (!git_reads[i].patch) {
			assert_int_equal(onlist_mail_parse(&m, git_reads[i].mail,
							   git_reads[i].len, &err),
					 ONLIST_EPARSE);
			assert_non_null(strstr(err, "no mail header"));
			free(err);
			free(gmsg);
			continue;
		}
		assert_int_equal(onlist_mail_parse(&m, git_reads[i].mail,
						   git_reads[i].len, &err),
				 ONLIST_OK);
		assert_non_null(onlist_mail_patch(m, NULL));
		if (got >= 0) {
			assert_int_equal(strlen(onlist_mail_body(m)), glen);
			assert_memory_equal(onlist_mail_body(m), gmsg, glen);
			assert_int_equal(onlist_mail_patchid(m, hex), got);
			if (got)
				assert_string_equal(hex, gid);
		}
		free(gmsg);
		onlist_mail_free(m);
	}
}

/* In-body headers: what git am takes as author, subject and date. */
static void test_inbody_headers(void **state)
{
	struct onlist_mail *m = parse(
		"From: Mara Maintainer <mara@x>\nSubject: [PATCH] sent by Mara\n\n"
		"From: =?UTF-8?Q?Jos=C3=A9?= <jose@x>\nDate: Mon, 3 Jun 2013 10:00:00 +0000\n"
		"\nWhy.\n---\n" DIFF);
	struct onlist_mail *p = parse("Subject: x\n\n[PATCH] old style\nWhy.\n");

	(void)state;
	assert_string_equal(onlist_mail_inbody(m, "From"), "Jos\xc3\xa9 <jose@x>");
	assert_string_equal(onlist_mail_inbody(m, "Date"),
			    "Mon, 3 Jun 2013 10:00:00 +0000");
	assert_null(onlist_mail_inbody(m, "Subject"));
	assert_string_equal(onlist_mail_from_name(m), "Mara Maintainer");
	assert_string_equal(onlist_mail_body(m), "Why.\n");
	assert_string_equal(onlist_mail_inbody(p, "subject"), "[PATCH] old style");
	assert_string_equal(onlist_mail_body(p), "Why.\n");
	onlist_mail_free(m);
	onlist_mail_free(p);
}

/* Where onlist falls back and git would not convert, the line that starts
 * the patch goes into it as sent: the patch stays git's. */
static void test_fallback_keeps_patch_bytes(void **state)
{
	struct onlist_mail *m = parse("Subject: x\n"
		"Content-Type: text/plain; charset=utf-8\n\ncaf\xe9\n"
		"--- a/f\xe9\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n");
	const char *patch;

	(void)state;
	assert_string_equal(onlist_mail_body(m), "caf\xc3\xa9\n");
	patch = onlist_mail_patch(m, NULL);
	assert_non_null(patch);
	assert_memory_equal(patch, "--- a/f\xe9\n", 9);
	onlist_mail_free(m);
}

static void test_encoded_words(void **state)
{
	struct onlist_mail *m = parse(
		"From: =?ISO-2022-JP?B?GyRCRnxLXBsoQg==?= <jp@x>\n"
		"Subject: =?x-unknown?Q?caf=E9?= and =?utf-8?B?w7w=?=\n\nb\n");

	(void)state;
	assert_string_equal(onlist_mail_from_name(m), "\xe6\x97\xa5\xe6\x9c\xac");
	/* an unknown charset must not lose the subject */
	assert_non_null(strstr(onlist_mail_subject(m), "caf"));
	assert_non_null(strstr(onlist_mail_subject(m), "\xc3\xbc"));
	onlist_mail_free(m);
}

/* An RFC 2047 word that does not convert in its charset (a byte invalid
 * in it, a character cut at the end, a charset iconv does not know) is
 * taken as UTF-8 when it is valid UTF-8, else kept as written; a NUL it
 * decodes to is a space.  Its neighbours are decoded either way.  GMime
 * alone turned such bytes into '?', dropped a cut character, and a NUL
 * ended the whole header. */
static const struct {
	const char *header, *want;
} words[] = {
	{ "=?iso-8859-1?Q?a=00b?= rest", "a b rest" },
	{ "=?utf-16be?B?AGEAAABi?= rest", "a b rest" },
	{ "=?utf-8?B?YQBi?= rest", "a b rest" },
	{ "start =?gb2312?B?sA==?= tail", "start =?gb2312?B?sA==?= tail" },
	{ "=?utf-8?Q?caf=E9?= and more", "=?utf-8?Q?caf=E9?= and more" },
	{ "=?x-klingon?Q?caf=C3=A9?= ok", "caf\xc3\xa9 ok" },
	{ "=?x-klingon?Q?caf=E9?= ok", "=?x-klingon?Q?caf=E9?= ok" },
	{ "=?x-unknown?Q?caf=E9?= ok", "=?x-unknown?Q?caf=E9?= ok" },
	{ "=?utf-8?Q?ok?= =?gb2312?B?sA==?= =?utf-8?Q?fine?= end",
	  "ok =?gb2312?B?sA==?= fine end" },
	{ "=?gb2312?B?sKE=?= =?gb2312?B?sA==?= =?gb2312?B?sKE=?=",
	  "\xe5\x95\x8a =?gb2312?B?sA==?= \xe5\x95\x8a" },
	{ "=?iso-8859-1?Q?caf=E9?= =?iso-8859-1?Q?_cr=E8me?=",
	  "caf\xc3\xa9 cr\xc3\xa8me" },
};

static void test_words_that_do_not_convert(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char *t, *b;
		struct onlist_mail *m;

		print_message("%s\n", words[i].header);
		assert_true(asprintf(&t, "From: X %s <a@b>\n"
				     "Subject: %s\n\nSubject: %s\n\nbody\n",
				     words[i].header, words[i].header,
				     words[i].header) > 0);
		m = parse(t);
		assert_string_equal(onlist_mail_subject(m), words[i].want);
		assert_string_equal(onlist_mail_inbody(m, "Subject"),
				    words[i].want);
		assert_true(asprintf(&b, "X %s", words[i].want) > 0);
		assert_string_equal(onlist_mail_from_name(m), b);
		assert_string_equal(onlist_mail_from_addr(m), "a@b");
		free(b);
		free(t);
		onlist_mail_free(m);
	}
}

/* Mailman's DMARC rewrite: "Name via List <list@host>", the writer in
 * X-Original-From: or Reply-To:.  The writer is the sender; a name that
 * merely contains "via", a Reply-To: naming several people or the list
 * itself, leave From: as it is.  Each mail once with clean ASCII headers
 * and once with a raw 8-bit byte in a header (GMime's own parser). */
static void test_list_rewritten_from(void **state)
{
	static const struct {
		const char *head, *name, *addr;
	} cases[] = {
		{ "From: Wei Gao via ltp <ltp@lists.linux.it>\n"
		  "Reply-To: Wei Gao <wegao@suse.com>\n",
		  "Wei Gao", "wegao@suse.com" },
		{ "From: Petr Vorel via ltp <ltp@lists.linux.it>\n"
		  "X-Original-From: Petr Vorel <pvorel@suse.cz>\n"
		  "Reply-To: Petr Vorel <pvorel@suse.cz>, ltp@lists.linux.it\n",
		  "Petr Vorel", "pvorel@suse.cz" },
		{ "From: \"Jane Doe via Dev\" <dev@lists.example.org>\n"
		  "Reply-To: jane@example.com\n",
		  "Jane Doe", "jane@example.com" },
		/* not a rewrite: no " via WORD" at the end */
		{ "From: Ann Via <ann@example.org>\n"
		  "Reply-To: Bob <bob@example.org>\n",
		  "Ann Via", "ann@example.org" },
		{ "From: Delivered via post office <po@example.org>\n"
		  "Reply-To: Bob <bob@example.org>\n",
		  "Delivered via post office", "po@example.org" },
		/* a rewrite with nothing to undo it by, or only the list */
		{ "From: Wei Gao via ltp <ltp@lists.linux.it>\n",
		  "Wei Gao via ltp", "ltp@lists.linux.it" },
		{ "From: Wei Gao via ltp <ltp@lists.linux.it>\n"
		  "Reply-To: LTP <ltp@lists.linux.it>\n",
		  "Wei Gao via ltp", "ltp@lists.linux.it" },
		{ "From: Wei Gao via ltp <ltp@lists.linux.it>\n"
		  "Reply-To: a@example.org, b@example.org\n",
		  "Wei Gao via ltp", "ltp@lists.linux.it" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int raw8 = 0; raw8 < 2; raw8++) {
			char *t;
			struct onlist_mail *m;

			assert_true(asprintf(&t, "%sSubject: [PATCH] caf%s\n"
					     "Message-ID: <via%zu@x>\n\nbody\n",
					     cases[i].head, raw8 ? "\xe9" : "e",
					     i) > 0);
			print_message("case %zu%s\n", i, raw8 ? " (8-bit)" : "");
			m = parse(t);
			assert_string_equal(onlist_mail_from_name(m), cases[i].name);
			assert_string_equal(onlist_mail_from_addr(m), cases[i].addr);
			onlist_mail_free(m);
			free(t);
		}
	}
}

static void test_not_a_mail(void **state)
{
	struct onlist_mail *m = NULL;
	char *err = NULL;

	(void)state;
	assert_int_equal(onlist_mail_parse(&m, "\x01\x02 garbage", 10, &err),
			 ONLIST_EPARSE);
	assert_null(m);
	assert_non_null(err);
	free(err);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd;

	(void)state;
	if (asprintf(&cmd, "rm -rf '%s'", tmpdir) > 0) {
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
		free(cmd);
	}
	return 0;
}

/* When the last server had the mail: the newest date of its Received:
 * fields, from the header block only. */
static void test_received(void **state)
{
	static const struct {
		const char *mail;
		int64_t want;
	} cases[] = {
		{ "From: a@x\nSubject: s\n\nbody\n", 0 },
		/* two hops: the newest wins, whatever their order */
		{ "Received: from a by b; Tue, 20 Feb 2024 10:00:00 +0000\n"
		  "Received: from c by d; Sat, 15 Jun 2024 10:00:00 +0000\n"
		  "Subject: s\n\nbody\n", 1718445600 },
		/* folded, CRLF, another zone */
		{ "Subject: s\r\nreceived: from a\r\n\tby b;\r\n"
		  " Sat, 15 Jun 2024 12:00:00 +0200\r\n\r\nbody\r\n", 1718445600 },
		/* no date after a ';', or none at all */
		{ "Received: from a by b\nSubject: s\n\nbody\n", 0 },
		/* in the body it is no header */
		{ "Subject: s\n\nReceived: x; Sat, 15 Jun 2024 10:00:00 +0000\n", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		assert_int_equal(onlist_mail_received(cases[i].mail,
						      strlen(cases[i].mail)),
				 cases[i].want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mbox_split),
		cmocka_unit_test(test_pipermail_split),
		cmocka_unit_test(test_mbox_gzip_same_as_plain),
		cmocka_unit_test(test_truncated_gzip_is_an_error),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_maildir),
		cmocka_unit_test(test_first_message_without_from_line),
		cmocka_unit_test(test_blank_lines_before_first_from),
		cmocka_unit_test(test_mboxo_from_lines_in_body),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_last_message_without_newline),
		cmocka_unit_test(test_50mb_message),
		cmocka_unit_test(test_not_an_mbox),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_raw_latin1_subject_becomes_utf8),
		cmocka_unit_test(test_control_characters_removed),
		cmocka_unit_test(test_nul_in_header),
		cmocka_unit_test(test_synthetic_id_is_stable),
		cmocka_unit_test(test_inline_patch),
		cmocka_unit_test(test_quoted_patch_is_not_a_patch),
		cmocka_unit_test(test_list_rewritten_from),
		cmocka_unit_test(test_not_a_mail),
		cmocka_unit_test(test_extract),
		cmocka_unit_test(test_reads_what_git_reads),
		cmocka_unit_test(test_encoded_words),
		cmocka_unit_test(test_words_that_do_not_convert),
		cmocka_unit_test(test_inbody_headers),
		cmocka_unit_test(test_fallback_keeps_patch_bytes),
		cmocka_unit_test(test_received),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
