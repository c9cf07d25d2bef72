/* print.c - the escapers and the output file of print.h.
 *
 * One UTF-8 walker (next_cp) feeds every format, so they agree on what an
 * invalid byte and a control are; each format only decides how to spell a
 * code point.  One file rather than one per format: each format is a dozen
 * lines, and keeping them side by side is what keeps them in agreement. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>

#include "onlist/print.h"

static const char *const fmt_names[] = {
	[ONLIST_FMT_TEXT] = "text", [ONLIST_FMT_JSON] = "json",
	[ONLIST_FMT_JSONL] = "jsonl", [ONLIST_FMT_MD] = "md",
	[ONLIST_FMT_HTML] = "html", [ONLIST_FMT_CSV] = "csv",
	[ONLIST_FMT_MAIL] = "mail",
};

const char *onlist_fmt_name(enum onlist_fmt f)
{
	if ((unsigned)f < sizeof(fmt_names) / sizeof(fmt_names[0]))
		return fmt_names[f];
	return "?";
}

onlist_status onlist_fmt_parse(const char *name, enum onlist_fmt *out)
{
	for (size_t i = 0; name && i < sizeof(fmt_names) / sizeof(fmt_names[0]); i++)
		if (!strcmp(name, fmt_names[i])) {
			*out = (enum onlist_fmt)i;
			return ONLIST_OK;
		}
	return ONLIST_ENOTFOUND;
}

#define REPLACEMENT 0xfffd

/* Decode the code point at *pp and advance past it.  An invalid, overlong
 * or truncated sequence, a surrogate or a value past U+10FFFF gives
 * U+FFFD and advances by one byte (the next byte may start a good one). */
static unsigned next_cp(const unsigned char **pp)
{
	const unsigned char *p = *pp;
	unsigned cp, min;
	int n;

	if (p[0] < 0x80) {
		*pp = p + 1;
		return p[0];
	}
	if ((p[0] & 0xe0) == 0xc0)
		n = 1, cp = p[0] & 0x1f, min = 0x80;
	else if ((p[0] & 0xf0) == 0xe0)
		n = 2, cp = p[0] & 0x0f, min = 0x800;
	else if ((p[0] & 0xf8) == 0xf0)
		n = 3, cp = p[0] & 0x07, min = 0x10000;
	else
		goto bad;
	for (int i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			goto bad;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		goto bad;
	*pp = p + n + 1;
	return cp;
bad:
	*pp = p + 1;
	return REPLACEMENT;
}

static int is_bidi(unsigned cp)
{
	return cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Line and paragraph separators (a line break to JavaScript and some
 * readers), the zero-width space, the word joiner and the BOM (invisible
 * everywhere): a subject could hide a word or forge a line with them.
 * The zero-width joiners stay: scripts and emoji need them. */
static int is_invisible(unsigned cp)
{
	return cp == 0x200b || cp == 0x2028 || cp == 0x2029 || cp == 0x2060 ||
	       cp == 0xfeff;
}

static int is_control(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || is_bidi(cp) ||
	       is_invisible(cp);
}

static void put_cp(FILE *f, unsigned cp)
{
	char b[4];
	int n;

	if (cp < 0x80) {
		putc((int)cp, f);
		return;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		n = 4;
	}
	for (int i = n - 1; i > 0; i--, cp >>= 6)
		b[i] = (char)(0x80 | (cp & 0x3f));
	fwrite(b, 1, (size_t)n, f);
}

/* Walk s, calling put(f, cp) for each code point. */
#define WALK(f, s, put) do {						\
	const unsigned char *p_ = (const unsigned char *)(s);		\
	while (*p_)							\
		put((f), next_cp(&p_));					\
} while (0)

static void text_cp(FILE *f, unsigned cp)
{
	if (is_control(cp))
		fprintf(f, "U+%04X", cp);
	else
		put_cp(f, cp);
}

void onlist_put_text(FILE *f, const char *s)
{
	if (s)
		WALK(f, s, text_cp);
}

static void lines_cp(FILE *f, unsigned cp)
{
	if (cp == '\n' || cp == '\t')
		putc((int)cp, f);
	else
		text_cp(f, cp);
}

void onlist_put_text_lines(FILE *f, const char *s)
{
	if (s)
		WALK(f, s, lines_cp);
}

char *onlist_text_dup(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	onlist_put_text(f, s);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void json_cp(FILE *f, unsigned cp)
{
	switch (cp) {
	case '"': fputs("\\\"", f); return;
	case '\\': fputs("\\\\", f); return;
	case '\n': fputs("\\n", f); return;
	case '\r': fputs("\\r", f); return;
	case '\t': fputs("\\t", f); return;
	}
	if (is_control(cp) || cp == 0x2028 || cp == 0x2029)
		fprintf(f, "\\u%04x", cp);
	else
		put_cp(f, cp);
}

void onlist_put_json(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	putc('"', f);
	WALK(f, s, json_cp);
	putc('"', f);
}

void onlist_put_json_field(FILE *f, int first, const char *key,
			   const char *value)
{
	fputs(first ? "{" : ", ", f);
	onlist_put_json(f, key);
	fputs(": ", f);
	onlist_put_json(f, value);
}

void onlist_put_json_object(FILE *f, const char *key, ...)
{
	va_list ap;
	int first = 1;

	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *), first = 0)
		onlist_put_json_field(f, first, key, va_arg(ap, const char *));
	va_end(ap);
	fputs("}", f);
}

static void md_cp(FILE *f, unsigned cp)
{
	if (cp == '\n' || cp == '\r')
		putc(' ', f);
	else if (is_control(cp))
		fprintf(f, "U+%04X", cp);
	else {
		if (cp < 0x80 && strchr("\\`*_[]<>|#", (int)cp))
			putc('\\', f);
		put_cp(f, cp);
	}
}

void onlist_put_md(FILE *f, const char *s)
{
	if (s)
		WALK(f, s, md_cp);
}

/* The five characters HTML gives meaning to; 1 when cp was one of them. */
static int html_entity(FILE *f, unsigned cp)
{
	switch (cp) {
	case '&': fputs("&amp;", f); return 1;
	case '<': fputs("&lt;", f); return 1;
	case '>': fputs("&gt;", f); return 1;
	case '"': fputs("&quot;", f); return 1;
	case '\'': fputs("&#39;", f); return 1;
	}
	return 0;
}

static void html_cp(FILE *f, unsigned cp)
{
	if (html_entity(f, cp))
		return;
	if (is_control(cp))
		fprintf(f, "<span class=\"ctl\">U+%04X</span>", cp);
	else
		put_cp(f, cp);
}

static void html_attr_cp(FILE *f, unsigned cp)
{
	if (html_entity(f, cp))
		return;
	if (is_control(cp))
		fprintf(f, "U+%04X", cp);
	else
		put_cp(f, cp);
}

void onlist_put_html(FILE *f, const char *s)
{
	if (s)
		WALK(f, s, html_cp);
}

void onlist_put_html_attr(FILE *f, const char *s)
{
	if (s)
		WALK(f, s, html_attr_cp);
}

static void csv_cp(FILE *f, unsigned cp)
{
	if (cp == '"')
		fputs("\"\"", f);
	else if (is_control(cp) && cp != '\t' && cp != '\r' && cp != '\n')
		fprintf(f, "U+%04X", cp);
	else
		put_cp(f, cp);
}

void onlist_put_csv(FILE *f, const char *s)
{
	putc('"', f);
	/* A cell starting with one of these is a formula to Excel, LibreOffice
	 * and Google Sheets (OWASP's "CSV injection"). */
	if (s && *s && strchr("=+-@\t\r", *s))
		putc('\'', f);
	if (s)
		WALK(f, s, csv_cp);
	putc('"', f);
}

/* ---- output files ------------------------------------------------------- */

static onlist_status fail(struct onlist_out *o, char **err, const char *what,
			  int e)
{
	return onlist_fail(err, ONLIST_EIO, "%s %s: %s", what,
			   o->path ? o->path : "standard output", strerror(e));
}

onlist_status onlist_out_open(struct onlist_out *o, const char *path,
			      char **err)
{
	const char *slash;
	int fd;

	*o = (struct onlist_out)ONLIST_OUT_INIT;
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return ONLIST_OK;
	}
	o->path = strdup(path);
	/* the temporary file sits beside the final one, so that rename()
	 * stays within one file system and is atomic */
	slash = strrchr(path, '/');
	if (!o->path ||
	    asprintf(&o->tmp, "%.*s.onlist-XXXXXX", slash ? (int)(slash - path + 1) : 0,
		     path) < 0) {
		o->tmp = NULL;
		free(o->path);
		o->path = NULL;
		return onlist_fail(err, ONLIST_ENOMEM, "out of memory");
	}
	if ((fd = mkstemp(o->tmp)) < 0 || !(o->f = fdopen(fd, "w"))) {
		onlist_status st = fail(o, err, "cannot write", errno);

		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->tmp);
		free(o->path);
		*o = (struct onlist_out)ONLIST_OUT_INIT;
		return st;
	}
	return ONLIST_OK;
}

onlist_status onlist_out_close(struct onlist_out *o, int keep, char **err)
{
	onlist_status st = ONLIST_OK;

	if (!o->f)
		return ONLIST_OK;
	if (!o->tmp) {
		/* stdout: stays open for whatever the caller prints last */
		if ((fflush(o->f) || ferror(o->f)) && keep)
			st = fail(o, err, "cannot write to", errno ? errno : EIO);
		*o = (struct onlist_out)ONLIST_OUT_INIT;
		return st;
	}
	errno = 0;
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f))) {
		if (keep)
			st = fail(o, err, "cannot write", errno ? errno : EIO);
		keep = 0;
	}
	if (fclose(o->f) && keep) {
		st = fail(o, err, "cannot write", errno ? errno : EIO);
		keep = 0;
	}
	if (keep) {
		/* mkstemp made it 0600; a report is for others to read */
		mode_t um = umask(0);

		umask(um);
		chmod(o->tmp, 0666 & ~um);
		if (rename(o->tmp, o->path)) {
			st = fail(o, err, "cannot rename onto", errno);
			keep = 0;
		}
	}
	if (!keep)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	*o = (struct onlist_out)ONLIST_OUT_INIT;
	return st;
}

size_t onlist_text_width(const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	size_t w = 0;

	while (p < end && *p) {
		gunichar c = g_utf8_get_char_validated(p, end - p);

		if (c == (gunichar)-1 || c == (gunichar)-2) {
			w++;		/* not UTF-8: a byte, one column */
			p++;
			continue;
		}
		if (!g_unichar_iszerowidth(c))
			w += g_unichar_iswide(c) ? 2 : 1;
		p = g_utf8_next_char(p);
	}
	return w;
}

char *onlist_url_escape(const char *s, const char *keep)
{
	gchar *g = g_uri_escape_string(s ? s : "", keep, FALSE);
	char *r = g ? strdup(g) : NULL;

	g_free(g);
	return r;
}
