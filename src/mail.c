/* mail.c - mail sources (mbox, mbox.gz, maildir) and message parsing.
 *
 * The only file that speaks GMime.  mbox files are split here rather than
 * by GMime's mbox mode: GMime takes any line starting "From " as a
 * separator, and `git format-patch` does not escape such lines in bodies.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>
#include <gmime/gmime.h>
#include <openssl/evp.h>

#include "onlist/mail.h"

/* ---- sources ---------------------------------------------------------- */

#define CHUNK (256 * 1024)
/* A line longer than this is handed on in pieces: only its first piece
 * can be a From_ line or mboxrd-escaped, and a piece this long is neither. */
#define LINE_PIECE (1024 * 1024)

struct buf {
	char *data;
	size_t len, cap;
};

static int buf_add(struct buf *b, const char *p, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		char *d;
		while (cap < b->len + n + 1)
			cap *= 2;
		d = realloc(b->data, cap);
		if (!d)
			return -1;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

struct onlist_source {
	char *path;
	/* mbox */
	gzFile gz;
	char *in;		/* read buffer */
	size_t in_start, in_end;
	int eof;
	uint64_t pos;		/* uncompressed offset of in[in_start] */
	char *prefix;		/* bytes the caller read before handing us fd */
	size_t prefix_len;
	struct buf line;	/* a line that straddles two reads */
	int mid_line;		/* the last piece read did not end a line */
	int too_big;		/* the message being read is over the cap */
	char skip_why[128];
	struct buf msg;		/* the message being collected */
	uint64_t msg_offset;
	char *from_line, *next_from_line;
	uint64_t next_offset;
	int have_next;		/* a From_ line was read: next message begun */
	/* maildir */
	char **files;
	size_t nfiles, next_file;
	char *where;
};

static onlist_status set_err(char **errmsg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static onlist_status set_err(char **errmsg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (errmsg && vasprintf(errmsg, fmt, ap) < 0)
		*errmsg = NULL;
	va_end(ap);
	return ONLIST_EPARSE;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static onlist_status open_maildir(struct onlist_source *src, char **errmsg)
{
	static const char *const subs[] = { "cur", "new" };
	int found = 0;
	size_t cap = 0;

	for (size_t i = 0; i < 2; i++) {
		char *dir;
		DIR *d;
		struct dirent *e;

		if (asprintf(&dir, "%s/%s", src->path, subs[i]) < 0)
			return ONLIST_ENOMEM;
		d = opendir(dir);
		if (!d) {
			free(dir);
			continue;
		}
		found = 1;
		while ((e = readdir(d))) {
			char *f;
			if (e->d_name[0] == '.')
				continue;
			if (src->nfiles == cap) {
				char **n;
				cap = cap ? cap * 2 : 256;
				n = realloc(src->files, cap * sizeof(*n));
				if (!n) {
					closedir(d);
					free(dir);
					return ONLIST_ENOMEM;
				}
				src->files = n;
			}
			if (asprintf(&f, "%s/%s", dir, e->d_name) < 0) {
				closedir(d);
				free(dir);
				return ONLIST_ENOMEM;
			}
			src->files[src->nfiles++] = f;
		}
		closedir(d);
		free(dir);
	}
	if (!found) {
		set_err(errmsg, "%s: a directory, but not a maildir (no cur/ or new/)",
			src->path);
		return ONLIST_EPARSE;
	}
	/* Name order: maildir names start with the delivery time. */
	qsort(src->files, src->nfiles, sizeof(*src->files), cmp_str);
	return ONLIST_OK;
}

/* Refill the read buffer; returns bytes available, 0 at end, -1 on error. */
static long fill(struct onlist_source *src, char **errmsg)
{
	int n;

	if (src->in_start < src->in_end)
		return (long)(src->in_end - src->in_start);
	if (src->eof)
		return 0;
	src->in_start = src->in_end = 0;
	if (src->prefix) {
		memcpy(src->in, src->prefix, src->prefix_len);
		src->in_end = src->prefix_len;
		free(src->prefix);
		src->prefix = NULL;
		return (long)src->in_end;
	}
	n = gzread(src->gz, src->in, CHUNK);
	if (n < 0) {
		int zerr;
		const char *m = gzerror(src->gz, &zerr);
		if (zerr == Z_ERRNO)
			m = strerror(errno);
		set_err(errmsg, "%s: read error after %llu bytes: %s", src->path,
			(unsigned long long)src->pos, m);
		return -1;
	}
	if (n == 0) {
		int zerr;
		const char *m = gzerror(src->gz, &zerr);
		src->eof = 1;
		/* zlib reports a gzip stream cut short only here. */
		if (zerr != Z_OK && zerr != Z_STREAM_END) {
			set_err(errmsg, "%s: truncated or corrupt gzip data "
				"after %llu bytes: %s", src->path,
				(unsigned long long)src->pos, m);
			return -1;
		}
		return 0;
	}
	src->in_end = (size_t)n;
	return n;
}

/* Read one line (with its '\n' unless at end of input), or the next
 * LINE_PIECE bytes of a longer one: *cont says the piece does not start a
 * line. */
static int read_line(struct onlist_source *src, const char **line, size_t *len,
		     int *cont, char **errmsg)
{
	*cont = src->mid_line;
	src->line.len = 0;
	for (;;) {
		long avail = fill(src, errmsg);
		char *p, *nl;
		size_t n;

		if (avail < 0)
			return -1;
		if (avail == 0) {
			if (!src->line.len)
				return 0;
			*line = src->line.data;
			*len = src->line.len;
			src->mid_line = 0;
			return 1;
		}
		p = src->in + src->in_start;
		nl = memchr(p, '\n', (size_t)avail);
		n = nl ? (size_t)(nl - p) + 1 : (size_t)avail;
		src->in_start += n;
		src->pos += n;
		if (nl && !src->line.len) {
			*line = p;	/* common case: no copy */
			*len = n;
			src->mid_line = 0;
			return 1;
		}
		if (buf_add(&src->line, p, n) < 0) {
			set_err(errmsg, "%s: out of memory", src->path);
			return -1;
		}
		if (nl || src->line.len >= LINE_PIECE) {
			*line = src->line.data;
			*len = src->line.len;
			src->mid_line = !nl;
			return 1;
		}
	}
}

static int is_day_or_month(const char *p)
{
	return isupper((unsigned char)p[0]) && islower((unsigned char)p[1]) &&
	       islower((unsigned char)p[2]);
}

/* The asctime date of a From_ line at p: "Www Mmm [ d]d hh:mm". */
static int is_asctime(const char *p, const char *end)
{
	if (end - p < 16 || !is_day_or_month(p) || p[3] != ' ' ||
	    !is_day_or_month(p + 4) || p[7] != ' ')
		return 0;
	p += 8;
	while (p < end && *p == ' ')
		p++;
	if (p >= end || !isdigit((unsigned char)*p))
		return 0;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	if (p >= end || *p++ != ' ' || p >= end || !isdigit((unsigned char)*p))
		return 0;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	return p + 1 < end && *p == ':' && isdigit((unsigned char)p[1]);
}

/* A strict mbox From_ line: "From SENDER DAY MON DD HH:MM..." (asctime),
 * so that a body line "From here on..." does not split a message.  The
 * sender may itself hold spaces (Mailman writes "From alice at
 * example.com  Mon Jun  3 ..."), so look for the date after it. */
static int is_from_line(const char *l, size_t len)
{
	const char *p = l + 5, *end = l + len;

	if (len < 5 + 1 + 24 || memcmp(l, "From ", 5) != 0)
		return 0;
	if (*p == ' ' || *p == '\n')
		return 0;
	for (; p < end && *p != '\n'; p++)
		if (*p == ' ' && p + 1 < end && p[1] != ' ' &&
		    is_asctime(p + 1, end))
			return 1;
	return 0;
}

/* Does this look like the start of an RFC 822 header block? */
static int looks_like_header(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && p[i] > ' ' && p[i] < 127 && p[i] != ':')
		i++;
	return i > 0 && i < len && p[i] == ':';
}

onlist_status onlist_source_open(struct onlist_source **out, const char *path,
				 char **errmsg)
{
	struct onlist_source *src;
	struct stat st;
	onlist_status ret;
	long avail;

	*out = NULL;
	*errmsg = NULL;
	src = calloc(1, sizeof(*src));
	if (!src || !(src->path = strdup(path))) {
		free(src);
		return ONLIST_ENOMEM;
	}
	if (strcmp(path, "-") != 0 && stat(path, &st) < 0) {
		if (asprintf(errmsg, "%s: %s", path, strerror(errno)) < 0)
			*errmsg = NULL;
		onlist_source_free(src);
		return ONLIST_EIO;
	}
	if (strcmp(path, "-") != 0 && S_ISDIR(st.st_mode)) {
		if ((ret = open_maildir(src, errmsg)) != ONLIST_OK) {
			onlist_source_free(src);
			return ret;
		}
		*out = src;
		return ONLIST_OK;
	}
	/* gzread reads plain files unchanged, so one path serves both. */
	src->gz = strcmp(path, "-") == 0 ? gzdopen(0, "rb") : gzopen(path, "rb");
	src->in = malloc(CHUNK);
	if (!src->gz || !src->in) {
		if (asprintf(errmsg, "%s: %s", path, strerror(errno)) < 0)
			*errmsg = NULL;
		onlist_source_free(src);
		return ONLIST_EIO;
	}
	gzbuffer(src->gz, CHUNK);
	avail = fill(src, errmsg);
	if (avail < 0) {
		onlist_source_free(src);
		return ONLIST_EPARSE;
	}
	if (avail == 0) {
		set_err(errmsg, "%s: empty file, no messages", path);
		onlist_source_free(src);
		return ONLIST_EPARSE;
	}
	if (!(avail >= 5 && memcmp(src->in, "From ", 5) == 0) &&
	    !looks_like_header(src->in, (size_t)avail)) {
		set_err(errmsg, "%s: not an mbox, maildir or mail message "
			"(it starts neither with \"From \" nor a header)", path);
		onlist_source_free(src);
		return ONLIST_EPARSE;
	}
	*out = src;
	return ONLIST_OK;
}

onlist_status onlist_source_open_fd(struct onlist_source **out, int fd,
				    const char *prefix, size_t prefixlen,
				    char **errmsg)
{
	struct onlist_source *src;

	*out = NULL;
	*errmsg = NULL;
	if (prefixlen > CHUNK)
		return ONLIST_EUSAGE;
	src = calloc(1, sizeof(*src));
	if (!src)
		return ONLIST_ENOMEM;
	src->path = strdup("-");
	src->gz = gzdopen(fd, "rb");
	src->in = malloc(CHUNK);
	src->prefix = prefixlen ? malloc(prefixlen) : NULL;
	if (!src->path || !src->gz || !src->in || (prefixlen && !src->prefix)) {
		onlist_source_free(src);
		return ONLIST_ENOMEM;
	}
	if (prefixlen)
		memcpy(src->prefix, prefix, prefixlen);
	src->prefix_len = prefixlen;
	*out = src;
	return ONLIST_OK;
}

void onlist_source_free(struct onlist_source *src)
{
	if (!src)
		return;
	if (src->gz)
		gzclose(src->gz);
	for (size_t i = 0; i < src->nfiles; i++)
		free(src->files[i]);
	free(src->files);
	free(src->in);
	free(src->prefix);
	free(src->line.data);
	free(src->msg.data);
	free(src->from_line);
	free(src->next_from_line);
	free(src->where);
	free(src->path);
	free(src);
}

static onlist_status next_maildir(struct onlist_source *src,
				  struct onlist_raw *raw, char **errmsg)
{
	FILE *f;
	char chunk[65536];
	size_t n;
	const char *name;

	if (src->next_file >= src->nfiles)
		return ONLIST_ENOTFOUND;
	name = src->files[src->next_file];
	src->msg.len = 0;
	raw->data = NULL;
	raw->len = 0;
	raw->offset = 0;
	raw->from_line = "";
	raw->where = name;
	raw->file = name;	/* also on failure: the caller records it */
	raw->skip = NULL;
	f = fopen(name, "rb");
	if (!f) {
		if (asprintf(errmsg, "%s: %s", name, strerror(errno)) < 0)
			*errmsg = NULL;
		src->next_file++;
		return ONLIST_EIO;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (src->msg.len + n > ONLIST_MESSAGE_MAX) {
			snprintf(src->skip_why, sizeof(src->skip_why),
				 "message larger than %u bytes, not read",
				 ONLIST_MESSAGE_MAX);
			fclose(f);
			src->msg.len = 0;
			if (buf_add(&src->msg, "", 0) < 0)
				return ONLIST_ENOMEM;
			raw->data = src->msg.data;
			raw->skip = src->skip_why;
			src->next_file++;
			return ONLIST_OK;
		}
		if (buf_add(&src->msg, chunk, n) < 0) {
			fclose(f);
			return ONLIST_ENOMEM;
		}
	}
	if (ferror(f)) {
		if (asprintf(errmsg, "%s: read error", name) < 0)
			*errmsg = NULL;
		fclose(f);
		src->next_file++;
		return ONLIST_EIO;
	}
	fclose(f);
	if (buf_add(&src->msg, "", 0) < 0)
		return ONLIST_ENOMEM;
	raw->data = src->msg.data;
	raw->len = src->msg.len;
	raw->offset = 0;
	raw->from_line = "";
	raw->where = name;
	raw->file = name;
	src->next_file++;
	return ONLIST_OK;
}

onlist_status onlist_source_next(struct onlist_source *src,
				 struct onlist_raw *raw, char **errmsg)
{
	const char *line;
	size_t len;
	uint64_t total = 0;
	int r, cont;

	*errmsg = NULL;
	if (src->files || !src->gz)
		return next_maildir(src, raw, errmsg);

	src->msg.len = 0;
	src->too_big = 0;
	free(src->from_line);
	src->from_line = NULL;
	if (src->have_next) {
		src->from_line = src->next_from_line;
		src->next_from_line = NULL;
		src->msg_offset = src->next_offset;
		src->have_next = 0;
	} else {
		src->msg_offset = src->pos;
	}
	for (;;) {
		uint64_t at = src->pos;

		r = read_line(src, &line, &len, &cont, errmsg);
		if (r < 0)
			return ONLIST_EPARSE;
		if (r == 0)
			break;
		if (!cont && is_from_line(line, len)) {
			char *fl = strndup(line + 5, len - 5);
			if (!fl)
				return ONLIST_ENOMEM;
			fl[strcspn(fl, "\r\n")] = '\0';
			if (src->msg.len == 0 && !src->from_line) {
				src->from_line = fl;	/* first message */
				src->msg_offset = at;
				continue;
			}
			src->next_from_line = fl;
			src->next_offset = at;
			src->have_next = 1;
			break;
		}
		/* mboxrd: ">From " and ">>From " lose one '>'. */
		if (!cont && len > 5 && line[0] == '>') {
			size_t q = 0;
			while (q < len && line[q] == '>')
				q++;
			if (len - q >= 5 && memcmp(line + q, "From ", 5) == 0) {
				line++;
				len--;
			}
		}
		total += len;
		if (total > ONLIST_MESSAGE_MAX) {
			/* Read on to the next From_ line, keep nothing. */
			src->too_big = 1;
			src->msg.len = 0;
			continue;
		}
		if (buf_add(&src->msg, line, len) < 0)
			return ONLIST_ENOMEM;
	}
	if (src->msg.len == 0 && !src->from_line && !src->too_big)
		return ONLIST_ENOTFOUND;
	if (buf_add(&src->msg, "", 0) < 0)
		return ONLIST_ENOMEM;
	free(src->where);
	if (asprintf(&src->where, "%s:%llu", src->path,
		     (unsigned long long)src->msg_offset) < 0)
		src->where = NULL;
	raw->data = src->msg.data;
	raw->len = src->msg.len;
	raw->offset = src->msg_offset;
	raw->from_line = src->from_line ? src->from_line : "";
	raw->where = src->where ? src->where : src->path;
	raw->file = NULL;
	raw->skip = NULL;
	if (src->too_big) {
		snprintf(src->skip_why, sizeof(src->skip_why),
			 "message larger than %u bytes (%llu), not read",
			 ONLIST_MESSAGE_MAX, (unsigned long long)total);
		raw->skip = src->skip_why;
		raw->len = 0;
	}
	return ONLIST_OK;
}

/* ---- one message -------------------------------------------------------- */

struct onlist_mail {
	char *msgid;
	int synthetic;
	int64_t date;
	char *from_name, *from_addr, *subject, *in_reply_to, *refs;
	char *body;
	char *patch;		/* NULL: no patch */
	size_t patch_len;
	const char *patch_source;
	int has_patchid;
	char patchid[ONLIST_PATCHID_HEXSZ + 1];
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

/* The bytes of a leaf part with its transfer encoding undone and its
 * charset left alone, NUL-terminated; caller g_free()s. `git am` converts
 * the commit message to UTF-8 but applies the patch as it was sent, so the
 * patch-id must see the original bytes. */
static char *part_bytes(GMimePart *part, size_t *len)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	GMimeStream *mem;
	GByteArray *arr;
	char *bytes;

	if (!content)
		return NULL;
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(content, mem);
	arr = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	bytes = g_malloc(arr->len + 1);
	if (arr->len)	/* an empty part has no data pointer at all */
		memcpy(bytes, arr->data, arr->len);
	bytes[arr->len] = '\0';
	*len = arr->len;
	g_object_unref(mem);
	return bytes;
}

/* text (in `charset`) as UTF-8; never NULL unless out of memory. */
static char *to_utf8(const char *text, size_t len, const char *charset)
{
	char *conv = NULL, *r;

	if (charset && g_ascii_strcasecmp(charset, "utf-8") &&
	    g_ascii_strcasecmp(charset, "us-ascii")) {
		const char *iconv_name = g_mime_charset_iconv_name(charset);
		conv = g_convert(text, (gssize)len, "UTF-8", iconv_name, NULL,
				 NULL, NULL);
	}
	if (conv) {
		r = strdup(conv);
		g_free(conv);
		return r;
	}
	conv = g_utf8_make_valid(text, (gssize)len);
	r = strdup(conv);
	g_free(conv);
	return r;
}

static int is_patch_type(GMimeContentType *ct)
{
	return g_mime_content_type_is_type(ct, "text", "x-patch") ||
	       g_mime_content_type_is_type(ct, "text", "x-diff") ||
	       g_mime_content_type_is_type(ct, "text", "x-diff-patch") ||
	       g_mime_content_type_is_type(ct, "application", "x-patch") ||
	       g_mime_content_type_is_type(ct, "application", "x-diff");
}

struct walk {
	struct buf text;	/* the body text parts, decoded, concatenated */
	size_t first_len;	/* length of the first part's text */
	int nparts;
	char *charset;		/* the first part's charset, g_strdup'd */
};

static void collect_part(GMimeObject *parent, GMimeObject *obj, void *data)
{
	struct walk *w = data;
	GMimeContentType *ct;
	char *text;
	size_t len = 0;

	(void)parent;
	if (!GMIME_IS_PART(obj))
		return;
	ct = g_mime_object_get_content_type(obj);
	/* `git am` reads text parts; an HTML alternative would only repeat
	 * (badly) the plain one. */
	if (g_mime_content_type_is_type(ct, "text", "html"))
		return;
	if (!g_mime_content_type_is_type(ct, "text", "*") && !is_patch_type(ct))
		return;
	text = part_bytes(GMIME_PART(obj), &len);
	if (!text)
		return;
	if (w->text.len && w->text.data[w->text.len - 1] != '\n')
		buf_add(&w->text, "\n", 1);
	buf_add(&w->text, text, len);
	if (w->nparts++ == 0) {
		w->first_len = w->text.len;
		w->charset = g_strdup(g_mime_content_type_get_parameter(ct,
								       "charset"));
	}
	g_free(text);
}

/* Where `git mailinfo` would cut the patch from the message: a "---" line
 * (alone or before a file name), a "diff -" line or an "Index: " line.
 * Works on lengths: a NUL in a mail body must not hide the patch after it. */
static const char *find_patch_start(const char *text, size_t tlen)
{
	const char *p = text, *end = text + tlen;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if ((len >= 6 && memcmp(p, "diff -", 6) == 0) ||
		    (len >= 7 && memcmp(p, "Index: ", 7) == 0))
			return p;
		if (len >= 3 && memcmp(p, "---", 3) == 0) {
			size_t i = 3;
			if (len > 4 && p[3] == ' ' && !isspace((unsigned char)p[4]))
				return p;
			while (i < len && isspace((unsigned char)p[i]))
				i++;
			if (i == len)
				return p;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}

/* Does the text after the cut hold a diff at all (not just a "---")?
 * Returns the first "diff -" line, or the cut itself for other diffs, or
 * NULL. */
static const char *find_diff(const char *p, size_t len)
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

static char *synthetic_id(const char *data, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	char hex[2 * EVP_MAX_MD_SIZE + 1], *id;

	EVP_Digest(data, len, md, &mdlen, EVP_sha1(), NULL);
	for (unsigned i = 0; i < mdlen; i++)
		sprintf(hex + 2 * i, "%02x", md[i]);
	if (asprintf(&id, "%s@onlist.synthetic", hex) < 0)
		return NULL;
	return id;
}

static char *refs_join(const char *header)
{
	GMimeReferences *refs;
	struct buf b = { 0 };

	if (!header)
		return strdup("");
	refs = g_mime_references_parse(NULL, header);
	if (!refs)
		return strdup("");
	for (int i = 0; i < g_mime_references_length(refs); i++) {
		const char *id = g_mime_references_get_message_id(refs, i);
		if (b.len)
			buf_add(&b, " ", 1);
		buf_add(&b, id, strlen(id));
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

onlist_status onlist_mail_parse(struct onlist_mail **out, const char *data,
				size_t len, char **errmsg)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeMessage *msg;
	InternetAddressList *from;
	GDateTime *date;
	struct onlist_mail *m;
	struct walk w = { { 0 }, 0, 0, NULL };
	const char *id, *cut, *diff;
	char *first;

	*out = NULL;
	*errmsg = NULL;
	gmime_setup();
	if (!looks_like_header(data, len))
		return set_err(errmsg, "no mail header at the start");
	stream = g_mime_stream_mem_new_with_buffer(data, len);
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!msg)
		return set_err(errmsg, "GMime could not parse the message");

	m = calloc(1, sizeof(*m));
	if (!m) {
		g_object_unref(msg);
		return ONLIST_ENOMEM;
	}
	id = g_mime_message_get_message_id(msg);
	if (id && *id) {
		m->msgid = utf8_dup(id);
	} else {
		m->msgid = synthetic_id(data, len);
		m->synthetic = 1;
	}
	date = g_mime_message_get_date(msg);
	if (date)
		m->date = g_date_time_to_unix(date);
	from = g_mime_message_get_from(msg);
	if (from && internet_address_list_length(from) > 0) {
		InternetAddress *a = internet_address_list_get_address(from, 0);
		m->from_name = utf8_dup(internet_address_get_name(a));
		if (INTERNET_ADDRESS_IS_MAILBOX(a))
			m->from_addr = utf8_dup(internet_address_mailbox_get_addr(
				INTERNET_ADDRESS_MAILBOX(a)));
	}
	if (!m->from_name)
		m->from_name = strdup("");
	if (!m->from_addr)
		m->from_addr = strdup("");
	m->subject = utf8_dup(g_mime_message_get_subject(msg));
	{
		char *irt = refs_join(g_mime_object_get_header(GMIME_OBJECT(msg),
							       "In-Reply-To"));
		/* The first id is the parent; the rest is noise some MUAs add. */
		if (irt)
			irt[strcspn(irt, " ")] = '\0';
		m->in_reply_to = irt;
	}
	m->refs = refs_join(g_mime_object_get_header(GMIME_OBJECT(msg),
						     "References"));

	g_mime_message_foreach(msg, collect_part, &w);
	g_object_unref(msg);
	first = w.text.data ? w.text.data : "";
	cut = find_patch_start(first, w.text.len);
	if (cut && (diff = find_diff(cut, w.text.len - (size_t)(cut - first)))) {
		size_t off = (size_t)(cut - first);
		unsigned char raw[ONLIST_PATCHID_RAWSZ];

		m->patch_len = w.text.len - off;
		m->patch = malloc(m->patch_len + 1);
		if (m->patch) {
			memcpy(m->patch, cut, m->patch_len);
			m->patch[m->patch_len] = '\0';
		}
		m->body = to_utf8(first, off, w.charset);
		/* Where did the diff itself come from? */
		m->patch_source = (size_t)(diff - first) < w.first_len ?
				  "inline" : "attachment";
		if (onlist_patchid_buf(m->patch, m->patch_len, raw)) {
			onlist_patchid_hex(raw, m->patchid);
			m->has_patchid = 1;
		}
	} else {
		m->body = to_utf8(first, w.text.len, w.charset);
	}
	free(w.text.data);
	g_free(w.charset);
	if (!m->msgid || !m->subject || !m->in_reply_to || !m->refs ||
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
	free(m->patch);
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
