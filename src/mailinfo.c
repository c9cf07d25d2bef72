/* mailinfo.c - the body of one mail split the way `git mailinfo -u`
 * splits it: the commit message, the in-body From/Subject/Date, and the
 * patch.  mail.c reads the header fields (GMime) and calls
 * onlist__split_mail(); this file only borrows GMime's charset names.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmime/gmime.h>

#include "onlist/buf.h"
#include "mailinfo.h"

const char *const onlist__inbody_name[IB_N] = { "From", "Subject", "Date" };


/* GMime holds a header value as a C string: a NUL in it ended the value
 * there ("From: N\0ul <a@b>" was the address "N", the rest lost).  A
 * space instead, not U+FFFD: the header stays as long and as 7-bit as it
 * was, so GMime's guess at the charset of raw 8-bit header text (UTF-8,
 * else Latin-1) is not swayed by three bytes onlist put there, and it is
 * what clean_text() makes of every other control character in a header. */
void onlist__nul_to_space(char *p, size_t len)
{
	char *end = p + len;

	while ((p = memchr(p, '\0', (size_t)(end - p))))
		*p++ = ' ';
}

/* Does the text after the cut hold a diff at all (not just a "---")?
 * Returns the first "diff -" line, or the cut itself for other diffs, or
 * NULL. */
const char *onlist__find_diff(const char *p, size_t len)
{
	const char *d;

	if ((len >= 6 && !memcmp(p, "diff -", 6)) ||
	    (len >= 7 && !memcmp(p, "Index: ", 7)))
		return p;
	if ((d = memmem(p, len, "\ndiff -", 7)))
		return d + 1;
	if (memmem(p, len, "\nIndex: ", 8) ||
	    (memmem(p, len, "\n+++ ", 5) && memmem(p, len, "\n@@ -", 5)))
		return p;
	return NULL;
}

/* ---- the body, split the way `git mailinfo -u` splits it ---------------
 *
 * GMime reads the headers; the body is walked line by line with git's own
 * rules (mailinfo.c in git 2.39), because matching git means matching its
 * heuristics too: every MIME part goes through one filter, a part's
 * transfer encoding is undone line by line, format=flowed is undone, the
 * first "---"/"diff -"/"Index: " line ends the message, and everything from
 * there on, whatever part it sits in, is the patch.
 *
 * Departures from git, all before the patch starts (from there on the
 * patch is git's byte for byte):
 * - text/html parts, non-text parts that hold no diff, and the lines
 *   between a nested multipart's headers and its first boundary are left
 *   out of the message (git copies them in);
 * - a charset iconv does not know, one that does not read ASCII as ASCII
 *   (EBCDIC, UTF-16), or bytes invalid in the declared one, fall back to
 *   UTF-8 if valid, else Windows-1252 / Latin-1 (git stops with "cannot
 *   convert", garbles the patch into the message, or keeps invalid UTF-8
 *   as it is); NUL becomes U+FFFD.  The line that starts the patch then
 *   goes into it unconverted.
 */


static int starts(const char *s, size_t len, const char *pfx)
{
	size_t n = strlen(pfx);

	return len >= n && memcmp(s, pfx, n) == 0;
}

static void sbuf_set(struct split *s, struct onlist_buf *b, const char *p,
		     size_t n)
{
	b->len = 0;
	if (onlist_buf_add(b, p, n) < 0)
		s->nomem = 1;
}

static void sbuf_add(struct split *s, struct onlist_buf *b, const char *p,
		     size_t n)
{
	if (onlist_buf_add(b, p, n) < 0)
		s->nomem = 1;
}

/* The next line into s->line, with its newline when keep_nl; 0 at the end. */
static int get_line(struct split *s, int keep_nl)
{
	const char *nl;
	size_t n;

	if (s->p >= s->end) {
		sbuf_set(s, &s->line, "", 0);
		return 0;
	}
	nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
	n = nl ? (size_t)(nl - s->p) + 1 : (size_t)(s->end - s->p);
	sbuf_set(s, &s->line, s->p, nl && !keep_nl ? n - 1 : n);
	s->p += n;
	return 1;
}

static void rtrim(struct onlist_buf *b)
{
	while (b->len && gspace((unsigned char)b->data[b->len - 1]))
		b->len--;
	if (b->data)
		b->data[b->len] = '\0';
}

/* RFC 2822 field name then ':'; mbox "From " lines count too. */
static int is_header_line(const char *p)
{
	if (!strncmp(p, "From ", 5) || !strncmp(p, ">From ", 6))
		return 1;
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == ':')
			return 1;
		if (c < 33 || c > 126)
			return 0;
	}
	return 0;
}

/* One header field, unfolded and right-trimmed, into s->line: 1.  At the
 * blank line (or a line that is no header, or the end) 0, and s->line
 * holds that line with a newline: git takes it as the first body line. */
static int header_line(struct split *s)
{
	if (s->p >= s->end) {
		/* git's quirk, kept: when the mail ends in its headers, the
		 * last header line is read again as the first body line */
		if (!s->after_header)
			sbuf_set(s, &s->line, "", 0);
		s->after_header = 0;
		return 0;
	}
	s->after_header = 0;
	get_line(s, 0);
	rtrim(&s->line);
	if (!s->line.len || !is_header_line(s->line.data)) {
		sbuf_add(s, &s->line, "\n", 1);
		return 0;
	}
	s->after_header = 1;
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t')) {
		const char *nl = memchr(s->p, '\n', (size_t)(s->end - s->p));
		size_t n = nl ? (size_t)(nl - s->p) : (size_t)(s->end - s->p);

		sbuf_set(s, &s->tmp, s->p, n);
		s->p += nl ? n + 1 : n;
		s->tmp.data[0] = ' ';
		rtrim(&s->tmp);
		sbuf_add(s, &s->line, s->tmp.data, s->tmp.len);
	}
	return 1;
}

/* The value of header `name` in line (name, ':', blanks skipped), or NULL. */
static const char *header_value(const char *line, const char *name)
{
	size_t n = strlen(name);

	if (g_ascii_strncasecmp(line, name, n) || line[n] != ':')
		return NULL;
	line += n + 1;
	while (gspace((unsigned char)*line))
		line++;
	return line;
}

/* git's parameter lookup: the first "name" anywhere, quoted or up to
 * ';', blank or tab.  A g_malloc'd value or NULL. */
static char *param(const char *v, const char *name)
{
	const char *p = strcasestr(v, name);

	if (!p)
		return NULL;
	p += strlen(name);
	if (*p == '"')
		return g_strndup(p + 1, strcspn(p + 1, "\""));
	return g_strndup(p, strcspn(p, "; \t"));
}

static int param_is(const char *v, const char *name, const char *want)
{
	char *got = param(v, name);
	int r = got && !g_ascii_strcasecmp(got, want);

	g_free(got);
	return r;
}

static void set_charset(struct split *s, char *cs)
{
	g_free(s->charset);
	s->charset = cs ? cs : g_strdup("");
	s->utf8 = !s->charset || !*s->charset || onlist__is_utf8_name(s->charset);
}

static void content_type(struct split *s, const char *v)
{
	char *b;
	size_t n = strcspn(v, "; \t");

	s->flowed = param_is(v, "format=", "flowed");
	s->delsp = param_is(v, "delsp=", "yes");
	if ((b = param(v, "boundary="))) {
		/* git gives up beyond a few levels; ignore the extra ones */
		if (s->nbound < MAX_BOUNDARIES)
			s->bound[s->nbound++] = g_strconcat("--", b, NULL);
		g_free(b);
	}
	set_charset(s, param(v, "charset="));
	if (n >= sizeof(s->ctype))
		n = sizeof(s->ctype) - 1;
	for (size_t i = 0; i < n; i++)
		s->ctype[i] = g_ascii_tolower(v[i]);
	s->ctype[n] = '\0';
}

static void handle_header(struct split *s, const char *line)
{
	const char *v;

	if ((line[0] | 0x20) != 'c')	/* not a Content- field */
		return;
	if ((v = header_value(line, "Content-Type")))
		content_type(s, v);
	else if ((v = header_value(line, "Content-Transfer-Encoding")))
		s->te = strcasestr(v, "base64") ? TE_BASE64 :
			strcasestr(v, "quoted-printable") ? TE_QP : TE_NONE;
}

int onlist__hexdig(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* 1 + the value of each base64 digit; 0 for every other byte. */
static const unsigned char b64_digit[256] = {
	['A'] = 1, ['B'] = 2, ['C'] = 3, ['D'] = 4, ['E'] = 5, ['F'] = 6,
	['G'] = 7, ['H'] = 8, ['I'] = 9, ['J'] = 10, ['K'] = 11, ['L'] = 12,
	['M'] = 13, ['N'] = 14, ['O'] = 15, ['P'] = 16, ['Q'] = 17,
	['R'] = 18, ['S'] = 19, ['T'] = 20, ['U'] = 21, ['V'] = 22,
	['W'] = 23, ['X'] = 24, ['Y'] = 25, ['Z'] = 26, ['a'] = 27,
	['b'] = 28, ['c'] = 29, ['d'] = 30, ['e'] = 31, ['f'] = 32,
	['g'] = 33, ['h'] = 34, ['i'] = 35, ['j'] = 36, ['k'] = 37,
	['l'] = 38, ['m'] = 39, ['n'] = 40, ['o'] = 41, ['p'] = 42,
	['q'] = 43, ['r'] = 44, ['s'] = 45, ['t'] = 46, ['u'] = 47,
	['v'] = 48, ['w'] = 49, ['x'] = 50, ['y'] = 51, ['z'] = 52,
	['0'] = 53, ['1'] = 54, ['2'] = 55, ['3'] = 56, ['4'] = 57,
	['5'] = 58, ['6'] = 59, ['7'] = 60, ['8'] = 61, ['9'] = 62,
	['+'] = 63, ['/'] = 64,
};

/* The value of base64 digit c, -1 when c is none (padding, blanks). */
int onlist__b64val(unsigned char c)
{
	return b64_digit[c] - 1;
}

/* One line's transfer encoding undone into out.  Like git, a line is
 * decoded on its own and a NUL ends it.  Decoding never makes a line
 * longer: the bytes are written straight into out's room. */
static void decode_line(struct split *s, enum te te, const char *in,
			size_t len, struct onlist_buf *out)
{
	char *o;

	out->len = 0;
	if (onlist_buf_reserve(out, len) < 0) {
		s->nomem = 1;
		if (out->data)
			out->data[0] = '\0';
		return;
	}
	o = out->data;
	if (te == TE_NONE) {
		memcpy(o, in, len);
		o += len;
	} else if (te == TE_QP) {
		const char *nul = memchr(in, '\0', len);
		size_t end = nul ? (size_t)(nul - in) : len, i = 0;

		while (i < end) {
			/* the text up to the next '=' as it is */
			const char *eq = memchr(in + i, '=', end - i);
			size_t run = eq ? (size_t)(eq - in) - i : end - i;
			int hi, lo;

			memcpy(o, in + i, run);
			o += run;
			if (!eq)
				break;
			i += run;
			if (i + 1 >= len || in[i + 1] == '\n')
				break;		/* soft line break */
			hi = onlist__hexdig((unsigned char)in[i + 1]);
			lo = i + 2 < len ? onlist__hexdig((unsigned char)in[i + 2]) : -1;
			if (hi >= 0 && lo >= 0) {
				*o++ = (char)(hi << 4 | lo);
				i += 3;
			} else {
				*o++ = '=';
				i++;
			}
		}
	} else {
		int pos = 0, acc = 0;
		for (size_t i = 0; i < len && in[i]; i++) {
			int c = onlist__b64val((unsigned char)in[i]);
			if (c < 0)
				continue;	/* padding, blanks, garbage */
			switch (pos++) {
			case 0:
				acc = c << 2;
				break;
			case 1:
				*o++ = (char)(acc | c >> 4);
				acc = (c & 15) << 4;
				break;
			case 2:
				*o++ = (char)(acc | c >> 2);
				acc = (c & 3) << 6;
				break;
			default:
				*o++ = (char)(acc | c);
				acc = pos = 0;
			}
		}
	}
	out->len = (size_t)(o - out->data);
	*o = '\0';
}

/* Where `git mailinfo` would cut the patch from the message: a "---" line
 * (alone or before a file name), a "diff -" line or an "Index: " line. */
static int patchbreak(const char *p, size_t len)
{
	if (starts(p, len, "diff -") || starts(p, len, "Index: "))
		return 1;
	if (len < 4 || !starts(p, len, "---"))
		return 0;
	if (p[3] == ' ' && !gspace((unsigned char)p[4]))
		return 1;
	for (size_t i = 3; i < len; i++) {
		if (p[i] == '\n')
			return 1;
		if (!gspace((unsigned char)p[i]))
			break;
	}
	return 0;
}

static const char *find_patch_start(const char *text, size_t tlen)
{
	const char *p = text, *end = text + tlen;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (patchbreak(p, len))
			return p;
		p += len;
	}
	return NULL;
}

int onlist__is_utf8_name(const char *cs)
{
	return !g_ascii_strcasecmp(cs, "utf-8") || !g_ascii_strcasecmp(cs, "utf8");
}

/* Does cd read the lines git cuts a mail at ("---", "diff -", "Index: ")
 * as the ASCII they are?  A part's lines end at ASCII line feeds and the
 * patch in it is ASCII whatever the label says, so a charset that does
 * not (EBCDIC such as IBM037, UTF-16, UTF-32) cannot be what the part is
 * in: git converts through it anyway, and the patch vanishes into the
 * commit message as garbage.  onlist takes such a label as unknown. */
static int reads_ascii(GIConv cd)
{
	static const char probe[] = "---\ndiff -Index: \n";
	gsize n = 0;
	gchar *out = g_convert_with_iconv(probe, sizeof(probe) - 1, cd, NULL,
					  &n, NULL);
	int r = out && n == sizeof(probe) - 1 && !memcmp(out, probe, n);

	g_free(out);
	return r;
}

/* Converters to UTF-8, opened once per charset for the life of the
 * process: opening one (glibc loads and looks up its gconv module) cost
 * more than converting a mail's lines.  Mail is parsed on one thread. */
struct conv {
	char *charset;		/* as a part declared it */
	GIConv cd;		/* (GIConv)-1: none usable */
	int ascii;		/* ASCII text comes out as it went in */
};
#define MAX_CONVS 16
static struct conv convs[MAX_CONVS];
static size_t nconvs;

/* Single-byte charsets that extend ASCII: a line of ASCII converts to
 * itself, and need not go through iconv.  (Not every charset that
 * reads_ascii() does: UTF-7 and ISO-2022 give '+' and ESC a meaning, and
 * Shift_JIS maps '\\' to the yen sign.) */
static int ascii_superset(const char *cs)
{
	static const char *const pfx[] = {
		"us-ascii", "ascii", "iso-8859-", "iso8859-", "windows-125",
		"cp125",
	};

	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (!g_ascii_strncasecmp(cs, pfx[i], strlen(pfx[i])))
			return 1;
	return 0;
}

/* Does cd pass every ASCII byte (but NUL) through as it is? */
static int passes_ascii(GIConv cd)
{
	char probe[127];
	gsize n = 0;
	gchar *out;
	int r;

	for (int i = 0; i < 127; i++)
		probe[i] = (char)(i + 1);
	g_iconv(cd, NULL, NULL, NULL, NULL);
	out = g_convert_with_iconv(probe, sizeof(probe), cd, NULL, &n, NULL);
	r = out && n == sizeof(probe) && !memcmp(out, probe, n);
	g_free(out);
	return r;
}

/* The converter for charset (not "", not UTF-8); NULL when out of
 * memory.  When the table is full the last one makes room. */
static const struct conv *converter(const char *charset)
{
	struct conv *c;

	for (size_t i = 0; i < nconvs; i++)
		if (!strcmp(convs[i].charset, charset))
			return &convs[i];
	if (nconvs == MAX_CONVS) {
		c = &convs[--nconvs];
		if (c->cd != (GIConv)-1)
			g_iconv_close(c->cd);
		g_free(c->charset);
	}
	c = &convs[nconvs];
	if (!(c->charset = g_strdup(charset)))
		return NULL;
	nconvs++;
	c->cd = g_iconv_open("UTF-8", g_mime_charset_iconv_name(charset));
	if (c->cd != (GIConv)-1 && !reads_ascii(c->cd)) {
		g_iconv_close(c->cd);
		c->cd = (GIConv)-1;
	}
	c->ascii = c->cd != (GIConv)-1 && ascii_superset(charset) &&
		   passes_ascii(c->cd);
	return c;
}

/* Every byte ASCII, none NUL; eight at a time. */
static int plain_ascii(const char *p, size_t len)
{
	const uint64_t lo = 0x0101010101010101u, hi = 0x8080808080808080u;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, 8);
		/* a byte >= 0x80, or one that is 0 */
		if ((w | ((w - lo) & ~w)) & hi)
			return 0;
	}
	for (; i < len; i++)
		if (!p[i] || (unsigned char)p[i] >= 0x80)
			return 0;
	return 1;
}

/* l converted from the part's charset to UTF-8, in place.  Returns 1 when
 * that took one of onlist's fallbacks, where git would have failed or
 * kept the bytes.  When l is changed, s->orig holds it as it was and
 * s->orig_kept is set. */
static int line_to_utf8(struct split *s, struct onlist_buf *l)
{
	int fallback = 0, utf8 = s->utf8;
	const struct conv *c = NULL;
	gchar *out = NULL;
	gsize outlen = 0;

	s->orig_kept = 0;
	if (!utf8 && !(c = converter(s->charset))) {
		s->nomem = 1;
		return 0;
	}
	/* the common line: nothing to convert, nothing to check */
	if (plain_ascii(l->data, l->len)) {
		if (utf8 || c->ascii)
			return 0;
		if (c->cd == (GIConv)-1)
			return 1;	/* git: "cannot convert" */
	}
	if (memchr(l->data, '\0', l->len)) {
		fallback = 1;
		sbuf_set(s, &s->orig, l->data, l->len);
		s->orig_kept = 1;
		s->tmp.len = 0;
		for (size_t i = 0; i < l->len; i++)
			sbuf_add(s, &s->tmp, l->data[i] ? l->data + i :
				 "\xef\xbf\xbd", l->data[i] ? 1 : 3);
		sbuf_set(s, l, s->tmp.data, s->tmp.len);
	}
	if (c && c->cd != (GIConv)-1) {
		g_iconv(c->cd, NULL, NULL, NULL, NULL);
		out = g_convert_with_iconv(l->data, (gssize)l->len, c->cd,
					   NULL, &outlen, NULL);
		/* glibc takes a name like "utf\xff-8" for UTF-8 (it
		 * drops what is not a letter or digit) and then
		 * passes invalid bytes through as they are */
		if (out && !g_utf8_validate(out, (gssize)outlen, NULL)) {
			g_free(out);
			out = NULL;
		}
	}
	if (!out && !utf8)
		fallback = 1;	/* git: "cannot convert" */
	if (!out && !g_utf8_validate(l->data, (gssize)l->len, NULL)) {
		fallback = 1;
		out = g_convert(l->data, (gssize)l->len, "UTF-8",
				"WINDOWS-1252", NULL, &outlen, NULL);
		if (!out)
			out = g_convert(l->data, (gssize)l->len, "UTF-8",
					"ISO-8859-1", NULL, &outlen, NULL);
	}
	if (out) {
		if (!s->orig_kept) {
			sbuf_set(s, &s->orig, l->data, l->len);
			s->orig_kept = 1;
		}
		sbuf_set(s, l, out, outlen);
		g_free(out);
	}
	return fallback;
}

/* "From <40 hex> Mon Sep 17 00:00:00 2001\n", format-patch's separator. */
static int is_fp_separator(const char *p, size_t len)
{
	static const char tail[] = " Mon Sep 17 00:00:00 2001\n";

	if (len != 5 + 40 + sizeof(tail) - 1 || strncmp(p, "From ", 5))
		return 0;
	for (int i = 5; i < 45; i++)
		if (!isdigit((unsigned char)p[i]) && !(p[i] >= 'a' && p[i] <= 'f'))
			return 0;
	return !memcmp(p + 45, tail, sizeof(tail) - 1);
}

static void flush_inbody(struct split *s)
{
	const char *v;

	if (!s->accum.len)
		return;
	onlist__nul_to_space(s->accum.data, s->accum.len);
	for (int i = 0; i < IB_N; i++)
		if (!s->seen[i] && (v = header_value(s->accum.data, onlist__inbody_name[i]))) {
			s->inbody[i] = g_strndup(v, strcspn(v, "\n"));
			s->seen[i] = 1;
			break;
		}
	s->accum.len = 0;
}

/* In-body headers at the top of the message: 1 while the line is one. */
static int inbody_header(struct split *s, const struct onlist_buf *l)
{
	const char *d = l->data;

	if (s->accum.len && (d[0] == ' ' || d[0] == '\t')) {
		if (s->accum.data[s->accum.len - 1] == '\n')
			s->accum.len--;
		sbuf_add(s, &s->accum, d, l->len);
		return 1;
	}
	flush_inbody(s);
	if (!strncmp(d, ">From", 5) && gspace((unsigned char)d[5]))
		return is_fp_separator(d + 1, l->len - 1);
	if (!strncmp(d, "[PATCH]", 7) && gspace((unsigned char)d[7])) {
		if (!s->seen[IB_SUBJECT]) {
			s->inbody[IB_SUBJECT] = g_strndup(d, strcspn(d, "\n"));
			s->seen[IB_SUBJECT] = 1;
		}
		return 1;
	}
	for (int i = 0; i < IB_N; i++)
		if (!s->seen[i] && header_value(d, onlist__inbody_name[i])) {
			sbuf_add(s, &s->accum, d, l->len);
			return 1;
		}
	return 0;
}

/* A message line: 1 when it starts the patch. */
static int message_line(struct split *s, struct onlist_buf *l)
{
	int fallback;

	if (s->header_stage) {
		if (!l->len || (l->len == 1 && l->data[0] == '\n')) {
			if (s->accum.len) {
				flush_inbody(s);
				s->header_stage = 0;
			}
			return 0;
		}
		s->header_stage = inbody_header(s, l);
		if (s->header_stage)
			return 0;
	}
	fallback = line_to_utf8(s, l);
	/* git cuts at scissors ("-- >8 --") only with --scissors or
	 * mailinfo.scissors; `git mailinfo -u` and `git am` do not. */
	if (patchbreak(l->data, l->len)) {
		/* git puts this line into the patch as it converted it; where
		 * git would not have converted it, neither does onlist */
		if (fallback && s->orig_kept)
			sbuf_set(s, l, s->orig.data, s->orig.len);
		return 1;
	}
	sbuf_add(s, &s->msg, l->data, l->len);
	return 0;
}

static void filter(struct split *s, struct onlist_buf *l)
{
	const char *d = l->data;

	if (!s->in_patch) {
		if (!message_line(s, l))
			return;
		s->in_patch = 1;
		d = l->data;
	}
	if (s->diff_part < 0 && (starts(d, l->len, "diff -") ||
				 starts(d, l->len, "Index: ") ||
				 starts(d, l->len, "+++ ")))
		s->diff_part = s->part;
	sbuf_add(s, &s->patch, d, l->len);
}

/* format=flowed undone (RFC 3676), as git does it. */
static void flowed(struct split *s, struct onlist_buf *l)
{
	size_t len = l->len;

	if (!s->flowed) {
		filter(s, l);
		return;
	}
	if (len && l->data[len - 1] == '\n') {
		len--;
		if (len && l->data[len - 1] == '\r')
			len--;
	}
	if (len == 3 && !memcmp(l->data, "-- ", 3)) {	/* signature mark */
		if (s->prev.len) {
			filter(s, &s->prev);
			s->prev.len = 0;
		}
		filter(s, l);
		return;
	}
	if (len && l->data[0] == ' ') {			/* space-stuffed */
		memmove(l->data, l->data + 1, l->len);
		l->len--;
		len--;
	}
	if (len && l->data[len - 1] == ' ') {		/* soft break */
		sbuf_add(s, &s->prev, l->data, len - (s->delsp ? 1 : 0));
		return;
	}
	if (s->prev.len) {
		sbuf_add(s, &s->prev, l->data, l->len);
		sbuf_set(s, l, s->prev.data, s->prev.len);
		s->prev.len = 0;
	}
	filter(s, l);
}

static void body_line(struct split *s)
{
	const char *p, *end;

	if (s->te == TE_NONE) {
		flowed(s, &s->line);
		return;
	}
	decode_line(s, s->te, s->line.data, s->line.len, &s->tmp);
	/* No line end decoded: the partial line just grows.  Without this
	 * the partial line was copied into work for every encoded line, and
	 * one decoded line of a few MB took a quadratic minute.  The result
	 * is the one the general path below gives (work = prev + tmp, no
	 * complete line, all of it back into prev). */
	if (!memchr(s->tmp.data, '\n', s->tmp.len)) {
		sbuf_add(s, &s->prev, s->tmp.data, s->tmp.len);
		return;
	}
	/* the partial line left from before goes first */
	sbuf_set(s, &s->work, s->prev.data ? s->prev.data : "", s->prev.len);
	sbuf_add(s, &s->work, s->tmp.data, s->tmp.len);
	s->prev.len = 0;
	p = s->work.data;
	end = p + s->work.len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			sbuf_add(s, &s->prev, p, (size_t)(end - p));
			break;
		}
		sbuf_set(s, &s->piece, p, (size_t)(nl - p) + 1);
		flowed(s, &s->piece);
		p = nl + 1;
	}
}

static int is_boundary(struct split *s)
{
	const char *b = s->bound[s->nbound - 1];

	return s->line.len >= strlen(b) && !memcmp(s->line.data, b, strlen(b));
}

static int find_boundary(struct split *s)
{
	while (get_line(s, 0))
		if (s->nbound && is_boundary(s))
			return 1;
	return 0;
}

/* Does the part starting at s->line (up to the next boundary) hold a diff
 * once decoded? */
static int part_holds_diff(struct split *s)
{
	const char *b = s->bound[s->nbound - 1], *p = s->p;
	size_t blen = strlen(b);
	struct onlist_buf text = ONLIST_BUF_INIT, dec = ONLIST_BUF_INIT;
	const char *cut;
	int r;

	decode_line(s, s->te, s->line.data, s->line.len, &dec);
	sbuf_add(s, &text, dec.data, dec.len);
	while (p < s->end) {
		const char *nl = memchr(p, '\n', (size_t)(s->end - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(s->end - p);
		if (n >= blen && !memcmp(p, b, blen))
			break;
		if (s->te == TE_NONE) {
			sbuf_add(s, &text, p, n);
		} else {
			decode_line(s, s->te, p, n, &dec);
			sbuf_add(s, &text, dec.data, dec.len);
		}
		p += n;
	}
	cut = text.data ? find_patch_start(text.data, text.len) : NULL;
	r = cut && onlist__find_diff(cut, text.len - (size_t)(cut - text.data));
	free(text.data);
	free(dec.data);
	return r;
}

/* At a boundary line: an end boundary closes its multipart and moves on
 * to the next boundary; else the headers of the next part are read and
 * s->line is its first line.  0 at the end of the mail. */
static int at_boundary(struct split *s)
{
	size_t depth;

	for (;;) {
		size_t blen = strlen(s->bound[s->nbound - 1]);

		if (!(s->line.len >= blen + 2 &&
		      !memcmp(s->line.data + blen, "--", 2)))
			break;
		g_free(s->bound[--s->nbound]);
		s->bound[s->nbound] = NULL;
		sbuf_set(s, &s->tmp, "\n", 1);
		filter(s, &s->tmp);
		if (!find_boundary(s))
			return 0;
	}
	s->te = TE_NONE;
	set_charset(s, NULL);
	s->ctype[0] = '\0';
	s->part++;
	depth = s->nbound;
	while (header_line(s))
		handle_header(s, s->line.data);
	if (!get_line(s, 0))
		return 0;
	sbuf_add(s, &s->line, "\n", 1);
	s->skip = SKIP_NONE;
	if (!s->in_patch) {
		int text = !s->ctype[0] || !strncmp(s->ctype, "text/", 5);
		if (s->nbound > depth)
			s->skip = SKIP_TO_BOUNDARY;
		else if (!strcmp(s->ctype, "text/html") ||
			 (!text && !part_holds_diff(s)))
			s->skip = SKIP_PART;
	}
	return 1;
}

static void split_body(struct split *s)
{
	if (s->nbound && !find_boundary(s))
		return;
	for (;;) {
		if (s->nbound && is_boundary(s)) {
			if (s->prev.len) {
				filter(s, &s->prev);
				s->prev.len = 0;
			}
			if (!at_boundary(s))
				return;
			if (s->skip == SKIP_TO_BOUNDARY)
				continue;	/* look at this line again */
		}
		if (s->skip == SKIP_NONE)
			body_line(s);
		/* In a mail of one part, neither encoded nor flowed, once the
		 * diff has begun every line goes into the patch as it is:
		 * the rest in one copy, not line by line. */
		if (s->in_patch && s->diff_part >= 0 && !s->nbound &&
		    s->te == TE_NONE && !s->flowed && s->skip == SKIP_NONE) {
			sbuf_add(s, &s->patch, s->p, (size_t)(s->end - s->p));
			s->p = s->end;
			break;
		}
		if (!get_line(s, 1))
			break;
	}
	if (s->prev.len)
		filter(s, &s->prev);
	flush_inbody(s);
}

/* Split a mail (CR LF already made LF) into s->msg and s->patch.  Returns
 * where the header block ends. */
size_t onlist__split_mail(struct split *s, const char *data, size_t len)
{
	size_t hdr_end;

	s->p = data;
	s->end = data + len;
	s->diff_part = -1;
	s->header_stage = 1;
	set_charset(s, NULL);
	while (s->p < s->end && gspace((unsigned char)*s->p))
		s->p++;
	for (;;) {
		hdr_end = (size_t)(s->p - data);
		if (!header_line(s))
			break;
		handle_header(s, s->line.data);
		s->headers++;
	}
	split_body(s);
	return hdr_end;
}

void onlist__split_release(struct split *s)
{
	free(s->line.data);
	free(s->tmp.data);
	free(s->work.data);
	free(s->piece.data);
	free(s->orig.data);
	free(s->prev.data);
	free(s->accum.data);
	free(s->msg.data);
	free(s->patch.data);
	for (size_t i = 0; i < s->nbound; i++)
		g_free(s->bound[i]);
	g_free(s->charset);
	for (int i = 0; i < IB_N; i++)
		g_free(s->inbody[i]);
}

/* "\r\n" -> "\n" everywhere, as `git mailsplit` (and so `git am`) does
 * before mailinfo sees a mail; NULL when there is none (use the input). */
char *onlist__crlf_to_lf(const char *data, size_t len, size_t *outlen)
{
	const char *p = data, *end = data + len;
	char *out, *o;

	/* memchr for the rare '\r' is a vector scan; memmem of a 2-byte
	 * needle went byte by byte and was 9% of a real import */
	while ((p = memchr(p, '\r', (size_t)(end - p))) &&
	       !(p + 1 < end && p[1] == '\n'))
		p++;
	if (!p)
		return NULL;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	o = out;
	for (size_t i = 0; i < len; i++)
		if (!(data[i] == '\r' && i + 1 < len && data[i + 1] == '\n'))
			*o++ = data[i];
	*o = '\0';
	*outlen = (size_t)(o - out);
	return out;
}
