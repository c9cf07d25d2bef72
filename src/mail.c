/* mail.c - one message parsed: its header fields through GMime (the only
 * file that speaks GMime), RFC 2047 words GMime would garble, and the body
 * split the way `git mailinfo -u` splits it.  The sources that yield raw
 * messages are source.c's.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmime/gmime.h>

#include "onlist/buf.h"
#include "onlist/mail.h"
#include "onlist/sha1.h"
#include "mailinfo.h"

/* ---- one message -------------------------------------------------------- */

struct onlist_mail {
	char *msgid;
	int synthetic;
	int64_t date;
	char *from_name, *from_addr, *subject, *in_reply_to, *refs;
	char *body;
	char *inbody[IB_N];	/* in-body From, Subject, Date, or NULL */
	char *patch;		/* NULL: no patch */
	size_t patch_len;
	const char *patch_source;
	int has_patchid;
	char patchid[ONLIST_PATCHID_HEXSZ + 1];
	char *x_mailer;		/* X-Mailer or User-Agent, "" when none */
	int patchwork;		/* has X-Patchwork-* headers */
};

static void gmime_setup(void)
{
	static const char *fallback[] = { "UTF-8", "iso-8859-1", NULL };
	static int done;

	if (done)
		return;
	g_mime_init();
	/* Mail that declares no charset, or a wrong one, is usually latin-1:
	 * try that before giving up on 8-bit headers. */
	g_mime_parser_options_set_fallback_charsets(
		g_mime_parser_options_get_default(), fallback);
	done = 1;
}

/* Control characters out: header text is printed on terminals and in
 * reports, and a crafted subject must not forge output lines or send
 * escape sequences.  C0, DEL and C1 (U+0080..U+009F) become spaces. */
static char *clean_text(char *s)
{
	unsigned char *p = (unsigned char *)s;

	if (!s)
		return NULL;
	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			*p = ' ';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			p[0] = p[1] = ' ';
	}
	return s;
}

/* A valid UTF-8 copy of s ("" for NULL), without control characters. */
static char *utf8_dup(const char *s)
{
	char *r;

	if (!s)
		return strdup("");
	if (g_utf8_validate(s, -1, NULL)) {
		r = strdup(s);
	} else {
		gchar *v = g_utf8_make_valid(s, -1);
		r = strdup(v);
		g_free(v);
	}
	return clean_text(r);
}

/* ---- RFC 2047 words GMime would garble ---------------------------------
 *
 * GMime decodes an encoded word that does not convert in its charset by
 * turning the bad bytes into '?', drops a character cut short at its end,
 * reads "x-unknown" in the locale's charset, and a NUL that a word decodes
 * to ends the whole header (GMime returns a C string).  onlist finds such
 * words first and puts in their place one UTF-8 word holding what it makes
 * of them; GMime then decodes the header as usual, the From address parser
 * included, and words that convert are left to it untouched.
 */

struct eword {
	const char *start, *end;	/* "=?" to "?=" inclusive */
	const char *cs;			/* charset, cslen bytes, no "*lang" */
	size_t cslen;
	char enc;			/* 'B' or 'Q' */
	const char *text;		/* the payload, tlen bytes */
	size_t tlen;
};

/* The next token of a header value at *pp (blanks skipped), as GMime's
 * loose tokenizer cuts them, so that onlist takes for encoded words what
 * GMime takes for them: 1 with *w filled for an encoded word "=?charset?
 * E?text?=", 0 for other text, -1 at the end. */
static int next_eword(const char **pp, const char *end, struct eword *w)
{
	const char *p = *pp, *word, *q;

	while (p < end && gspace((unsigned char)*p))
		p++;
	if (p >= end)
		return -1;
	word = p;
	if (end - p >= 2 && p[0] == '=' && p[1] == '?') {
		for (q = p + 2; q < end && *q != '?'; q++)
			;
		if (end - q < 3 || !strchr("BbQq", q[1]) || q[2] != '?') {
			p = q;			/* GMime goes on from here */
			goto text;
		}
		w->text = q + 3;
		for (q = w->text; q + 1 < end && !(q[0] == '?' && q[1] == '='); q++)
			;
		if (q + 1 >= end) {		/* no end marker */
			p = word + 2;
			goto text;
		}
		w->tlen = (size_t)(q - w->text);
		w->start = word;
		w->end = *pp = q + 2;
		w->enc = (char)g_ascii_toupper(w->text[-2]);
		w->cs = word + 2;
		w->cslen = (size_t)(w->text - 3 - w->cs);
		for (size_t i = 0; i < w->cslen; i++)
			if (w->cs[i] == '*')
				w->cslen = i;	/* RFC 2231 language */
		return w->cslen > 0;		/* GMime wants a charset */
	}
text:
	while (p < end && !gspace((unsigned char)*p) &&
	       !(end - p >= 2 && p[0] == '=' && p[1] == '?'))
		p++;
	*pp = p;
	return 0;
}

/* The bytes a word stands for, appended to out; -1 out of memory. */
static int eword_bytes(const struct eword *w, struct onlist_buf *out)
{
	const char *p = w->text, *end = w->text + w->tlen;
	int acc = 0, bits = 0;

	for (; p < end; p++) {
		char c = *p;
		int v, lo;

		if (w->enc == 'B') {
			if ((v = onlist__b64val((unsigned char)c)) < 0)
				continue;	/* padding, junk */
			acc = (acc << 6 | v) & 0xffffff;
			if ((bits += 6) < 8)
				continue;
			bits -= 8;
			c = (char)(acc >> bits);
		} else if (c == '_') {
			c = ' ';
		} else if (c == '=' && end - p >= 3 &&
			   (v = onlist__hexdig((unsigned char)p[1])) >= 0 &&
			   (lo = onlist__hexdig((unsigned char)p[2])) >= 0) {
			c = (char)(v << 4 | lo);
			p += 2;
		}
		if (onlist_buf_add(out, &c, 1) < 0)
			return -1;
	}
	return onlist_buf_add(out, "", 0);
}

/* n bytes in charset cs (cslen bytes) as UTF-8 into out, a NUL made a
 * space (*nul then set): 1 when they converted whole in cs, 2 when they
 * did not but are valid UTF-8, 0 when neither, -1 out of memory. */
static int eword_utf8(const char *cs, size_t cslen, const char *b, size_t n,
		      struct onlist_buf *out, int *nul)
{
	char name[64];
	gchar *conv = NULL;
	gsize convlen = 0;
	int r;

	out->len = 0;
	*nul = 0;
	if (cslen < sizeof(name)) {
		memcpy(name, cs, cslen);
		name[cslen] = '\0';
	} else {
		name[0] = '\0';
	}
	/* GMime reads "x-unknown" (and iconv "") in the locale's charset:
	 * what onlist stores must not depend on where it runs */
	if (*name && g_ascii_strcasecmp(name, "x-unknown") &&
	    !onlist__is_utf8_name(name)) {
		GIConv cd = g_iconv_open("UTF-8", g_mime_charset_iconv_name(name));

		if (cd != (GIConv)-1) {
			conv = g_convert_with_iconv(b, (gssize)n, cd, NULL,
						    &convlen, NULL);
			g_iconv_close(cd);
		}
	}
	if (conv) {
		*nul = memchr(conv, '\0', convlen) != NULL;
		onlist__nul_to_space(conv, convlen);
		/* as in line_to_utf8(): "utf\xff-8" passes bad bytes */
		if (!g_utf8_validate(conv, (gssize)convlen, NULL)) {
			g_free(conv);
			conv = NULL;
		}
	}
	if (conv) {
		r = onlist_buf_add(out, conv, convlen) < 0 ? -1 : 1;
		g_free(conv);
		return r;
	}
	if (onlist_buf_add(out, b, n) < 0)
		return -1;
	*nul = memchr(out->data, '\0', out->len) != NULL;
	onlist__nul_to_space(out->data, out->len);
	if (!g_utf8_validate(out->data, (gssize)out->len, NULL))
		return 0;
	return onlist__is_utf8_name(name) ? 1 : 2;
}

/* Q-encoded, every byte but letters and digits, so that the word is one
 * GMime reads as such in a Subject and in a From phrase alike. */
static int add_qword(struct onlist_buf *out, const char *p, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";

	if (onlist_buf_add(out, "=?UTF-8?Q?", 10) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		char e[3] = { '=', hex[c >> 4], hex[c & 15] };

		if (g_ascii_isalnum(c) ? onlist_buf_add(out, p + i, 1) < 0 :
		    onlist_buf_add(out, e, 3) < 0)
			return -1;
	}
	return onlist_buf_add(out, "?=", 2);
}

/* Blanks between two words, unfolded (line ends out); -1 out of memory. */
static int add_blanks(struct onlist_buf *b, const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p != '\n' && *p != '\r' && onlist_buf_add(b, p, 1) < 0)
			return -1;
	return 0;
}

/* A run of encoded words: same charset and encoding, only blanks between
 * them (RFC 2047 drops those blanks; GMime also joins the run's bytes
 * before converting, so a character may straddle two words). */
struct erun {
	size_t first, last;	/* words[first..last] */
	int fix;		/* replaced by onlist's word */
	int raw_first, raw_last;	/* its first/last word kept as written */
	int after_text;		/* text, not an encoded word, before it */
	struct onlist_buf text;	/* what replaces it */
};

/* What a run becomes: run->fix set and run->text filled when GMime would
 * garble it; 0, or -1 out of memory.  A run that converts whole but
 * decodes to a NUL needs only the NUL made a space.  Else each word on
 * its own: converted, else taken as UTF-8, else kept as written (RFC 2047
 * 6.3 (a)), not guessed into Latin-1 nor turned into '?'; the blanks
 * beside a word kept as written stay. */
static int fix_run(const struct eword *w, struct erun *run)
{
	struct onlist_buf bytes = ONLIST_BUF_INIT, one = ONLIST_BUF_INIT;
	int r = -1, ok, nul;

	for (size_t i = run->first; i <= run->last; i++)
		if (eword_bytes(&w[i], &bytes) < 0)
			goto out;
	ok = eword_utf8(w[run->first].cs, w[run->first].cslen, bytes.data,
			bytes.len, &run->text, &nul);
	if (ok < 0)
		goto out;
	if (ok == 1) {
		run->fix = nul;
		r = 0;
		goto out;
	}
	run->fix = 1;
	run->text.len = 0;
	for (size_t i = run->first; i <= run->last; i++) {
		int raw;

		bytes.len = 0;
		if (eword_bytes(&w[i], &bytes) < 0 ||
		    (ok = eword_utf8(w[i].cs, w[i].cslen, bytes.data, bytes.len,
				     &one, &nul)) < 0)
			goto out;
		raw = ok == 0;
		if (i > run->first && (raw || run->raw_last) &&
		    add_blanks(&run->text, w[i - 1].end, w[i].start) < 0)
			goto out;
		if (raw ? onlist_buf_add(&run->text, w[i].start,
					 (size_t)(w[i].end - w[i].start)) < 0 :
		    onlist_buf_add(&run->text, one.data, one.len) < 0)
			goto out;
		if (i == run->first)
			run->raw_first = raw;
		run->raw_last = raw;
	}
	r = 0;
out:
	free(bytes.data);
	free(one.data);
	return r;
}

/* Two encoded words with only blanks between: one run when they share
 * charset and encoding. */
static int same_run(const struct eword *a, const struct eword *b)
{
	return a->enc == b->enc && a->cslen == b->cslen &&
	       !g_ascii_strncasecmp(a->cs, b->cs, a->cslen);
}

/* text (len bytes, a header value) with the encoded words GMime would
 * garble replaced by onlist's: 1 and out filled, 0 when none needs it,
 * -1 out of memory. */
static int fix_words(const char *text, size_t len, struct onlist_buf *out)
{
	const char *p = text, *end = text + len, *pre = NULL, *pre_end = NULL;
	struct eword *w = NULL;
	struct erun *run = NULL;
	size_t nw = 0, wcap = 0, nr = 0, rcap = 0;
	int r = -1, any = 0, prev_text = 1;

	if (!memmem(text, len, "=?", 2))
		return 0;
	for (;;) {
		int t;

		if (nw == wcap) {
			struct eword *n = onlist_grow(w, &wcap, sizeof(*n), 8);
			if (!n)
				goto out;
			w = n;
		}
		if ((t = next_eword(&p, end, &w[nw])) < 0)
			break;
		if (!t) {
			prev_text = 1;
			continue;
		}
		if (nr && !prev_text && same_run(&w[nw - 1], &w[nw])) {
			run[nr - 1].last = nw++;
			continue;
		}
		if (nr == rcap) {
			struct erun *n = onlist_grow(run, &rcap, sizeof(*n), 4);
			if (!n)
				goto out;
			run = n;
		}
		memset(&run[nr], 0, sizeof(run[nr]));
		run[nr].first = run[nr].last = nw++;
		run[nr].after_text = prev_text;
		nr++;
		prev_text = 0;
	}
	for (size_t i = 0; i < nr; i++) {
		if (fix_run(w, &run[i]) < 0)
			goto out;
		any |= run[i].fix;
	}
	if (!any) {
		r = 0;
		goto out;
	}
	/* Blanks between two encoded words are dropped (by GMime too); a
	 * word kept as written keeps its blanks, inside onlist's word. */
	out->len = 0;
	p = text;
	for (size_t i = 0; i < nr; i++) {
		const struct eword *a = &w[run[i].first], *z = &w[run[i].last];
		const char *next = i + 1 < nr ? w[run[i + 1].first].start : end;
		int keep = i + 1 < nr && !run[i + 1].after_text &&
			   (run[i].raw_last || run[i + 1].raw_first);
		struct onlist_buf q = ONLIST_BUF_INIT;
		int e = 0;

		if (onlist_buf_add(out, p, (size_t)(a->start - p)) < 0)
			goto out;
		if (!run[i].fix) {
			e = onlist_buf_add(out, a->start, (size_t)(z->end - a->start));
		} else {
			if (pre)
				e |= add_blanks(&q, pre, pre_end);
			e |= onlist_buf_add(&q, run[i].text.data, run[i].text.len);
			if (keep)
				e |= add_blanks(&q, z->end, next);
			e |= add_qword(out, q.data, q.len);
			free(q.data);
		}
		if (e < 0)
			goto out;
		/* kept blanks go into whichever side onlist writes */
		pre = keep && !run[i].fix ? z->end : NULL;
		pre_end = next;
		p = z->end;
	}
	r = onlist_buf_add(out, p, (size_t)(end - p)) < 0 ? -1 : 1;
out:
	for (size_t i = 0; i < nr; i++)
		free(run[i].text.data);
	free(run);
	free(w);
	return r;
}

/* The header block h (len bytes) with fix_words() done on the Subject and
 * From fields (onlist reads no other decoded text): 1 and out filled, 0
 * when nothing changed, -1 out of memory. */
static int fix_header_words(const char *h, size_t len, struct onlist_buf *out)
{
	const char *p = h, *end = h + len, *copied = h;
	struct onlist_buf v = ONLIST_BUF_INIT;
	int any = 0, r = -1;

	if (!memmem(h, len, "=?", 2))
		return 0;
	out->len = 0;
	while (p < end) {
		const char *f = p, *val = NULL, *nl;
		int fr;

		do {	/* the field: a line and its continuation lines */
			nl = memchr(p, '\n', (size_t)(end - p));
			p = nl ? nl + 1 : end;
		} while (p < end && (*p == ' ' || *p == '\t'));
		if (p - f > 8 && !g_ascii_strncasecmp(f, "Subject:", 8))
			val = f + 8;
		else if (p - f > 5 && !g_ascii_strncasecmp(f, "From:", 5))
			val = f + 5;
		if (!val || !(fr = fix_words(val, (size_t)(p - val), &v)))
			continue;
		if (fr < 0 || onlist_buf_add(out, copied, (size_t)(val - copied)) < 0 ||
		    onlist_buf_add(out, v.data, v.len) < 0)
			goto out;
		copied = p;
		any = 1;
	}
	r = !any ? 0 : onlist_buf_add(out, copied, (size_t)(end - copied)) < 0 ? -1 : 1;
out:
	free(v.data);
	return r;
}

static char *synthetic_id(const char *data, size_t len)
{
	struct onlist_sha1 c;
	unsigned char md[ONLIST_SHA1_RAWSZ];
	char hex[2 * ONLIST_SHA1_RAWSZ + 1], *id;

	onlist_sha1_init(&c);
	onlist_sha1_update(&c, data, len);
	onlist_sha1_final(md, &c);
	for (unsigned i = 0; i < ONLIST_SHA1_RAWSZ; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	if (asprintf(&id, "%s@onlist.synthetic", hex) < 0)
		return NULL;
	return id;
}

static char *refs_join(const char *header)
{
	GMimeReferences *refs;
	struct onlist_buf b = ONLIST_BUF_INIT;

	if (!header)
		return strdup("");
	refs = g_mime_references_parse(NULL, header);
	if (!refs)
		return strdup("");
	for (int i = 0; i < g_mime_references_length(refs); i++) {
		const char *id = g_mime_references_get_message_id(refs, i);
		if (b.len)
			onlist_buf_add(&b, " ", 1);
		onlist_buf_add(&b, id, strlen(id));
	}
	g_mime_references_free(refs);
	if (!b.data)
		return strdup("");
	/* GMime passes 8-bit bytes in ids through as they came: the
	 * getters promise UTF-8, and the ids go to the database as TEXT. */
	{
		char *r = utf8_dup(b.data);

		free(b.data);
		return r;
	}
}

/* The fields read_headers asks GMime about.  GMime parses every address
 * field it is handed (the To and Cc of a kernel mail can name dozens of
 * people) and builds an object for every field; on real lore mail that
 * was half of all import time, spent on fields onlist never reads. */
static int wanted_field(const char *name, size_t n)
{
	static const struct {
		const char *name;
		size_t len;
	} keep[] = {
#define F(s) { s, sizeof(s) - 1 }
		F("Message-ID"), F("Date"), F("From"), F("Subject"),
		F("In-Reply-To"), F("References"), F("X-Mailer"),
		F("User-Agent"), F("Reply-To"), F("X-Original-From"),
#undef F
	};

	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (keep[i].len == n &&
		    !g_ascii_strncasecmp(name, keep[i].name, n))
			return 1;
	return 0;
}

/* Copy the header block in[0..len) to out, leaving out the well-formed
 * fields ("Name:" with a name of letters, digits and '-') that onlist
 * does not read, with their continuation lines.  Anything else -- a line
 * GMime may read as the end of the header, an odd name -- is copied as
 * it is, so GMime sees the fields onlist reads as it saw them in the
 * whole block.  Sets *patchwork when an X-Patchwork-* field is left out.
 * Returns the length copied. */
static size_t filter_headers(char *out, const char *in, size_t len,
			     int *patchwork)
{
	const char *p = in, *end = in + len;
	char *o = out;
	int dropping = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl + 1 : end;

		if (*p == ' ' || *p == '\t') {
			if (dropping)
				goto next;
		} else {
			const char *q = p;

			while (q < eol && (g_ascii_isalnum(*q) || *q == '-'))
				q++;
			if (q > p && q < eol && *q == ':') {
				if ((size_t)(q - p) >= 12 &&
				    !g_ascii_strncasecmp(p, "X-Patchwork-", 12))
					*patchwork = 1;
				dropping = !wanted_field(p, (size_t)(q - p));
				if (dropping)
					goto next;
			} else {
				dropping = 0;
			}
		}
		memcpy(o, p, (size_t)(eol - p));
		o += eol - p;
next:
		p = eol;
	}
	return (size_t)(o - out);
}

/* A field of a clean header block: its name and raw value (what follows
 * the ':' to the end of its last folded line, line feeds included), as
 * GMime's parser splits them. */
struct field {
	const char *name, *value;
	size_t namelen, valuelen;
};

#define MAX_FIELDS 64

/* Split buf (a header block ending in its blank line) into fields when it
 * is clean: every line a "Name:" field with a name of letters, digits and
 * '-', or a folded line (leading space or tab) after one, and at least one
 * field.  For such a block GMime's parser makes the same fields; anything
 * else (a line that is neither, a CR at a line's start, too many fields)
 * returns -1 and goes through GMime.  Returns the number of fields. */
static int split_clean(const char *buf, size_t len, struct field *f)
{
	const char *p = buf, *end = buf + len;
	int n = 0;

	while (p < end && *p != '\n') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;

		if (!nl)
			return -1;
		if (*p == ' ' || *p == '\t') {
			if (!n)
				return -1;
			f[n - 1].valuelen = (size_t)(nl + 1 - f[n - 1].value);
			p = nl + 1;
			continue;
		}
		while (q < nl && (g_ascii_isalnum(*q) || *q == '-'))
			q++;
		if (q == p || q == nl || *q != ':' || n == MAX_FIELDS)
			return -1;
		f[n].name = p;
		f[n].namelen = (size_t)(q - p);
		f[n].value = q + 1;
		f[n].valuelen = (size_t)(nl + 1 - (q + 1));
		n++;
		p = nl + 1;
	}
	return p < end && n ? n : -1;
}

static int field_is(const struct field *f, const char *name)
{
	return strlen(name) == f->namelen &&
	       !g_ascii_strncasecmp(f->name, name, f->namelen);
}

/* The field's value as g_mime_header_get_value() gives it: unfolded, then
 * RFC 2047 decoded with the parser's options.  g_free() it. */
static char *field_value(const struct field *f)
{
	char *raw = g_strndup(f->value, f->valuelen);
	char *unfolded = g_mime_utils_header_unfold(raw);
	const unsigned char *p;
	char *v;

	g_free(raw);
	/* ASCII without an encoded word decodes to itself (checked on the
	 * 1.1 million such values of a lore epoch): most values are, and
	 * decoding was 7% of an import */
	for (p = (const unsigned char *)unfolded; p && *p; p++)
		if (*p >= 0x80 || (p[0] == '=' && p[1] == '?'))
			break;
	if (p && !*p)
		return unfolded;
	v = g_mime_utils_header_decode_text(
		g_mime_parser_options_get_default(), unfolded);
	g_free(unfolded);
	return v;
}

/* The first (lookup) or the last (GMimeMessage keeps the last Subject,
 * Date, Message-Id and From) field called name; NULL when none. */
static const struct field *find_field(const struct field *f, int n,
				      const char *name, int last)
{
	const struct field *r = NULL;

	for (int i = 0; i < n; i++)
		if (field_is(&f[i], name)) {
			r = &f[i];
			if (!last)
				break;
		}
	return r;
}

/* Mailman's DMARC mitigation sends a writer's mail as "Name via List
 * <list@host>" and keeps the writer's own address in X-Original-From: or
 * Reply-To: (FACTS.md).  onlist tells people apart by address (who wrote a
 * patch, who may review it: review.h), so left as it is every writer on
 * such a list is one person, the list, and a maintainer's Reviewed-by on a
 * patch "from" the list reads as the sender's own.  When From: names a
 * sender "... via WORD" and one of those fields holds one other mailbox,
 * that mailbox is the writer; the " via WORD" goes from the name.  `orig`
 * and `reply` are the raw field values (NULL when absent).  0, or
 * ONLIST_ENOMEM. */
static int undo_list_from(struct onlist_mail *m, const char *orig,
			  const char *reply)
{
	const char *fields[2] = { orig, reply }, *via;
	size_t nl = m->from_name ? strlen(m->from_name) : 0;

	if (!nl || !m->from_addr || !*m->from_addr)
		return 0;
	/* " via " and one word at the end of the name */
	for (via = m->from_name + nl; via > m->from_name && via[-1] != ' '; via--)
		;
	if (via - m->from_name < 5 || !*via ||
	    g_ascii_strncasecmp(via - 5, " via ", 5))
		return 0;
	for (int i = 0; i < 2; i++) {
		InternetAddressList *l;
		InternetAddress *a;
		const char *addr;
		char *name_copy, *addr_copy;

		if (!fields[i] || !(l = internet_address_list_parse(
			g_mime_parser_options_get_default(), fields[i])))
			continue;
		if (internet_address_list_length(l) != 1 ||
		    !INTERNET_ADDRESS_IS_MAILBOX(a = internet_address_list_get_address(l, 0)) ||
		    !(addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(a))) ||
		    !strchr(addr, '@') || !g_ascii_strcasecmp(addr, m->from_addr)) {
			g_object_unref(l);
			continue;
		}
		addr_copy = utf8_dup(addr);
		name_copy = strndup(m->from_name, (size_t)(via - 5 - m->from_name));
		g_object_unref(l);
		if (!addr_copy || !name_copy) {
			free(addr_copy);
			free(name_copy);
			return ONLIST_ENOMEM;
		}
		free(m->from_addr);
		free(m->from_name);
		m->from_addr = addr_copy;
		m->from_name = name_copy;
		return 0;
	}
	return 0;
}

/* From: the first address's name and mailbox (none when from is NULL or
 * empty, so that the defaults below apply). */
static void take_from(struct onlist_mail *m, InternetAddressList *from)
{
	InternetAddress *a;

	if (!from || internet_address_list_length(from) <= 0)
		return;
	a = internet_address_list_get_address(from, 0);
	m->from_name = utf8_dup(internet_address_get_name(a));
	if (INTERNET_ADDRESS_IS_MAILBOX(a))
		m->from_addr = utf8_dup(internet_address_mailbox_get_addr(
			INTERNET_ADDRESS_MAILBOX(a)));
}

/* read_headers() for a clean block without building a GMimeMessage: the
 * same GMime functions on the same values, in GMimeMessage's order of
 * precedence (gmime-message.c, process_header: the last Subject, Date,
 * Message-Id and From win; g_mime_object_get_header() finds the first).
 * Building and freeing the message object -- six address lists, a body
 * part, an object per field -- was a third of a real import.  Returns 0
 * when done, -1 when the block is not clean (use GMime), or
 * ONLIST_ENOMEM. */
static int read_clean_headers(struct onlist_mail *m, const char *buf,
			      size_t len)
{
	struct field f[MAX_FIELDS];
	const struct field *h;
	int n = split_clean(buf, len, f);
	char *v;

	if (n < 0)
		return -1;
	if ((h = find_field(f, n, "Message-ID", 1))) {
		char *id;

		v = field_value(h);
		id = v ? g_mime_utils_decode_message_id(v) : NULL;
		g_free(v);
		if (id && *id && !(m->msgid = utf8_dup(id))) {
			g_free(id);
			return ONLIST_ENOMEM;
		}
		g_free(id);
	}
	if ((h = find_field(f, n, "Date", 1)) && (v = field_value(h))) {
		GDateTime *date = g_mime_utils_header_decode_date(v);

		if (date) {
			m->date = g_date_time_to_unix(date);
			g_date_time_unref(date);
		}
		g_free(v);
	}
	if ((h = find_field(f, n, "From", 1))) {
		char *raw = g_strndup(h->value, h->valuelen);
		InternetAddressList *from = internet_address_list_parse(
			g_mime_parser_options_get_default(), raw);

		g_free(raw);
		take_from(m, from);
		if (from)
			g_object_unref(from);
	}
	if (!m->from_name)
		m->from_name = strdup("");
	if (!m->from_addr)
		m->from_addr = strdup("");
	{
		const struct field *o = find_field(f, n, "X-Original-From", 0);
		const struct field *r = find_field(f, n, "Reply-To", 0);
		char *ov = o ? g_strndup(o->value, o->valuelen) : NULL;
		char *rv = r ? g_strndup(r->value, r->valuelen) : NULL;
		int e = m->from_name && m->from_addr ?
			undo_list_from(m, ov, rv) : 0;

		g_free(ov);
		g_free(rv);
		if (e)
			return ONLIST_ENOMEM;
	}
	v = (h = find_field(f, n, "Subject", 1)) ? field_value(h) : NULL;
	m->subject = utf8_dup(v);
	g_free(v);
	v = (h = find_field(f, n, "In-Reply-To", 0)) ? field_value(h) : NULL;
	m->in_reply_to = refs_join(v);
	g_free(v);
	/* The first id is the parent; the rest is noise some MUAs add. */
	if (m->in_reply_to)
		m->in_reply_to[strcspn(m->in_reply_to, " ")] = '\0';
	v = (h = find_field(f, n, "References", 0)) ? field_value(h) : NULL;
	m->refs = refs_join(v);
	g_free(v);
	if (!(h = find_field(f, n, "X-Mailer", 0)))
		h = find_field(f, n, "User-Agent", 0);
	v = h ? field_value(h) : NULL;
	m->x_mailer = utf8_dup(v ? v : "");
	g_free(v);
	for (int i = 0; i < n; i++)
		if (f[i].namelen >= 12 &&
		    !g_ascii_strncasecmp(f[i].name, "X-Patchwork-", 12))
			m->patchwork = 1;
	return 0;
}

/* m's header fields, read by GMime from the header block (the first
 * hdr_end bytes of text); every one set ("" when absent) but msgid, NULL
 * when the mail has none.  ONLIST_EPARSE when GMime cannot read it. */
static onlist_status read_headers(struct onlist_mail *m, const char *text,
				  size_t hdr_end)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	InternetAddressList *from;
	GDateTime *date;
	GMimeHeaderList *hl;
	struct onlist_buf fixed = ONLIST_BUF_INIT;
	const char *id, *xm;
	char *head, *irt;
	size_t hlen;
	int fix;

	/* GMime only reads the header block: the body is done. */
	head = malloc(hdr_end + 2);
	if (!head)
		return ONLIST_ENOMEM;
	hlen = filter_headers(head, text, hdr_end, &m->patchwork);
	memcpy(head + hlen, "\n", 2);
	onlist__nul_to_space(head, hlen);
	fix = fix_header_words(head, hlen + 1, &fixed);
	if (fix < 0) {
		free(head);
		free(fixed.data);
		return ONLIST_ENOMEM;
	}
	switch (read_clean_headers(m, fix ? fixed.data : head,
				   fix ? fixed.len : hlen + 1)) {
	case 0:
		free(head);
		free(fixed.data);
		return ONLIST_OK;
	case ONLIST_ENOMEM:
		free(head);
		free(fixed.data);
		return ONLIST_ENOMEM;
	}
	stream = g_mime_stream_mem_new_with_buffer(fix ? fixed.data : head,
						   fix ? fixed.len : hlen + 1);
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	free(head);
	free(fixed.data);
	if (!msg)
		return ONLIST_EPARSE;

	id = g_mime_message_get_message_id(msg);
	if (id && *id && !(m->msgid = utf8_dup(id))) {
		g_object_unref(msg);
		return ONLIST_ENOMEM;
	}
	date = g_mime_message_get_date(msg);
	if (date)
		m->date = g_date_time_to_unix(date);
	from = g_mime_message_get_from(msg);
	take_from(m, from);
	if (!m->from_name)
		m->from_name = strdup("");
	if (!m->from_addr)
		m->from_addr = strdup("");
	if (m->from_name && m->from_addr &&
	    undo_list_from(m, g_mime_object_get_header(GMIME_OBJECT(msg),
						       "X-Original-From"),
			   g_mime_object_get_header(GMIME_OBJECT(msg), "Reply-To"))) {
		g_object_unref(msg);
		return ONLIST_ENOMEM;
	}
	m->subject = utf8_dup(g_mime_message_get_subject(msg));
	irt = refs_join(g_mime_object_get_header(GMIME_OBJECT(msg), "In-Reply-To"));
	/* The first id is the parent; the rest is noise some MUAs add. */
	if (irt)
		irt[strcspn(irt, " ")] = '\0';
	m->in_reply_to = irt;
	m->refs = refs_join(g_mime_object_get_header(GMIME_OBJECT(msg),
						     "References"));
	/* What sent it: bot and echo rules look at these. */
	hl = g_mime_object_get_header_list(GMIME_OBJECT(msg));
	xm = g_mime_object_get_header(GMIME_OBJECT(msg), "X-Mailer");
	if (!xm)
		xm = g_mime_object_get_header(GMIME_OBJECT(msg), "User-Agent");
	m->x_mailer = utf8_dup(xm ? xm : "");
	for (int i = 0; hl && i < g_mime_header_list_get_count(hl); i++) {
		const char *name = g_mime_header_get_name(
			g_mime_header_list_get_header_at(hl, i));
		if (name && !g_ascii_strncasecmp(name, "X-Patchwork-", 12))
			m->patchwork = 1;
	}
	g_object_unref(msg);
	return ONLIST_OK;
}

onlist_status onlist_mail_parse(struct onlist_mail **out, const char *data,
				size_t len, char **errmsg)
{
	struct onlist_mail *m;
	struct split sp = { 0 };
	struct onlist_buf fixed = ONLIST_BUF_INIT;
	const char *text = data;
	char *lf;
	size_t tlen = len, hdr_end;
	int fix, has_patch, nomem = 0;
	onlist_status st = ONLIST_OK;

	*out = NULL;
	*errmsg = NULL;
	gmime_setup();
	if ((lf = onlist__crlf_to_lf(data, len, &tlen)))
		text = lf;
	else
		tlen = len;
	hdr_end = onlist__split_mail(&sp, text, tlen);
	if (sp.nomem) {
		onlist__split_release(&sp);
		free(lf);
		return ONLIST_ENOMEM;
	}
	has_patch = sp.in_patch && onlist__find_diff(sp.patch.data, sp.patch.len);
	/* A mail whose first line is no header (a damaged archive, a saved
	 * body) is all body to git mailinfo, and a patch in it has git's
	 * patch-id.  Without a patch there is nothing onlist could use. */
	if (!sp.headers && !has_patch) {
		onlist__split_release(&sp);
		free(lf);
		onlist_set_err(errmsg, "no mail header at the start, and no "
			       "patch in it");
		return ONLIST_EPARSE;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		onlist__split_release(&sp);
		free(lf);
		return ONLIST_ENOMEM;
	}
	if (sp.headers)
		st = read_headers(m, text, hdr_end);
	free(lf);
	if (st != ONLIST_OK) {
		if (st == ONLIST_EPARSE)
			onlist_set_err(errmsg, "GMime could not parse the message");
		onlist__split_release(&sp);
		onlist_mail_free(m);
		return st;
	}
	if (!m->msgid) {
		m->msgid = synthetic_id(data, len);
		m->synthetic = 1;
	}
	if (!sp.headers) {
		m->from_name = strdup("");
		m->from_addr = strdup("");
		m->subject = strdup("");
		m->in_reply_to = strdup("");
		m->refs = strdup("");
		m->x_mailer = strdup("");
	}

	m->body = strdup(sp.msg.data ? sp.msg.data : "");
	for (int i = 0; i < IB_N; i++) {
		char *v;
		if (!sp.inbody[i])
			continue;
		fixed.data = NULL;
		fixed.len = fixed.cap = 0;
		fix = fix_words(sp.inbody[i], strlen(sp.inbody[i]), &fixed);
		nomem |= fix < 0;
		v = g_mime_utils_header_decode_text(NULL, fix > 0 ? fixed.data :
						    sp.inbody[i]);
		m->inbody[i] = utf8_dup(v ? v : sp.inbody[i]);
		g_free(v);
		free(fixed.data);
	}
	if (has_patch) {
		unsigned char raw[ONLIST_PATCHID_RAWSZ];

		m->patch = sp.patch.data;
		m->patch_len = sp.patch.len;
		sp.patch.data = NULL;
		/* the mail itself or its first part, or a later one */
		m->patch_source = sp.diff_part <= 1 ? "inline" : "attachment";
		if (onlist_patchid_buf(m->patch, m->patch_len, raw)) {
			onlist_patchid_hex(raw, m->patchid);
			m->has_patchid = 1;
		}
	}
	onlist__split_release(&sp);
	if (nomem || !m->msgid || !m->subject || !m->in_reply_to || !m->refs ||
	    !m->x_mailer ||
	    !m->body || !m->from_name || !m->from_addr) {
		onlist_mail_free(m);
		return ONLIST_ENOMEM;
	}
	*out = m;
	return ONLIST_OK;
}

void onlist_mail_free(struct onlist_mail *m)
{
	if (!m)
		return;
	free(m->msgid);
	free(m->from_name);
	free(m->from_addr);
	free(m->subject);
	free(m->in_reply_to);
	free(m->refs);
	free(m->body);
	for (int i = 0; i < IB_N; i++)
		free(m->inbody[i]);
	free(m->patch);
	free(m->x_mailer);
	free(m);
}

const char *onlist_mail_message_id(const struct onlist_mail *m) { return m->msgid; }
int onlist_mail_id_is_synthetic(const struct onlist_mail *m) { return m->synthetic; }
int64_t onlist_mail_date(const struct onlist_mail *m) { return m->date; }
const char *onlist_mail_from_name(const struct onlist_mail *m) { return m->from_name; }
const char *onlist_mail_from_addr(const struct onlist_mail *m) { return m->from_addr; }
const char *onlist_mail_subject(const struct onlist_mail *m) { return m->subject; }
const char *onlist_mail_in_reply_to(const struct onlist_mail *m) { return m->in_reply_to; }
const char *onlist_mail_references(const struct onlist_mail *m) { return m->refs; }
const char *onlist_mail_body(const struct onlist_mail *m) { return m->body; }

const char *onlist_mail_inbody(const struct onlist_mail *m, const char *name)
{
	for (int i = 0; i < IB_N; i++)
		if (!g_ascii_strcasecmp(name, onlist__inbody_name[i]))
			return m->inbody[i];
	return NULL;
}

const char *onlist_mail_patch(const struct onlist_mail *m, size_t *len)
{
	if (len)
		*len = m->patch_len;
	return m->patch;
}

const char *onlist_mail_patch_source(const struct onlist_mail *m)
{
	return m->patch_source;
}

int onlist_mail_patchid(const struct onlist_mail *m,
			char hex[ONLIST_PATCHID_HEXSZ + 1])
{
	if (!m->has_patchid)
		return 0;
	memcpy(hex, m->patchid, sizeof(m->patchid));
	return 1;
}

const char *onlist_mail_mailer(const struct onlist_mail *m) { return m->x_mailer; }
int onlist_mail_has_patchwork(const struct onlist_mail *m) { return m->patchwork; }

int64_t onlist_mail_received(const char *data, size_t len)
{
	const char *p = data, *end = data + len;
	int64_t newest = 0;

	/* Each Received: field names a hop and ends in "; DATE".  The newest
	 * is the last hop's (the list's or the archive's); a sender may
	 * write more of them, but one dated later only makes its own mail
	 * late. */
	while (p < end && *p != '\n' && !(*p == '\r' && p + 1 < end &&
					   p[1] == '\n')) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *fend;

		eol = eol ? eol + 1 : end;
		fend = eol;
		while (fend < end && (*fend == ' ' || *fend == '\t')) {
			const char *n = memchr(fend, '\n', (size_t)(end - fend));
			fend = n ? n + 1 : end;
		}
		if ((size_t)(fend - p) > 9 &&
		    !g_ascii_strncasecmp(p, "Received:", 9)) {
			char *v = g_strndup(p + 9, (size_t)(fend - p - 9));
			char *semi = strrchr(v, ';');
			GDateTime *d = semi ?
				g_mime_utils_header_decode_date(semi + 1) : NULL;

			if (d) {
				int64_t t = g_date_time_to_unix(d);

				if (t > newest)
					newest = t;
				g_date_time_unref(d);
			}
			g_free(v);
		}
		p = fend;
	}
	return newest;
}
