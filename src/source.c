/* source.c - mail sources: an mbox (plain or gzip, through zlib), a
 * maildir, or one message file, read as a stream of raw messages.
 *
 * mbox files are split here rather than by GMime's mbox mode: GMime takes
 * any line starting "From " as a separator, and `git format-patch` does
 * not escape such lines in bodies.  Nothing here parses a message; that
 * is mail.c's (GMime) and mailinfo's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "onlist/buf.h"
#include "onlist/source.h"

/* git's isspace(): no \v or \f. */
static int gspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

#define CHUNK (256 * 1024)
/* A line longer than this is handed on in pieces: only its first piece
 * can be a From_ line or mboxrd-escaped, and a piece this long is neither. */
#define LINE_PIECE (1024 * 1024)

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
	struct onlist_buf line; /* a line that straddles two reads */
	int mid_line;		/* the last piece read did not end a line */
	int too_big;		/* the message being read is over the cap */
	char skip_why[128];
	struct onlist_buf msg;	/* the message being collected */
	const char *run;	/* its lines read but not yet copied into */
	size_t run_len;		/* msg: run_len bytes at run, in `in` */
	uint64_t msg_offset;
	char *from_line, *next_from_line;
	uint64_t next_offset;
	int have_next;		/* a From_ line was read: next message begun */
	/* maildir */
	char **files;
	size_t nfiles, next_file;
	char *where;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Is `dir` a public-inbox inbox (DIR/git/0.git: v2) or one of its epochs
 * (a bare git repository: HEAD, objects/, refs/)?  What to call it, or
 * NULL.  Import reads mail files; fetch reads these. */
static const char *public_inbox_kind(const char *dir)
{
	static const char *const probes[][3] = {
		{ "git/0.git/objects", "git/0.git/HEAD", "a public-inbox inbox" },
		{ "objects", "HEAD", "a git repository (a public-inbox archive?)" },
	};
	struct stat sb;

	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		char *a = NULL, *b = NULL;
		int yes;

		if (asprintf(&a, "%s/%s", dir, probes[i][0]) < 0 ||
		    asprintf(&b, "%s/%s", dir, probes[i][1]) < 0) {
			free(a);
			return NULL;
		}
		yes = !stat(a, &sb) && S_ISDIR(sb.st_mode) &&
		      !stat(b, &sb) && S_ISREG(sb.st_mode);
		free(a);
		free(b);
		if (yes)
			return probes[i][2];
	}
	return NULL;
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
				char **n = onlist_grow(src->files, &cap,
						       sizeof *n, 256);
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
		const char *what = public_inbox_kind(src->path);

		if (what)
			onlist_set_err(errmsg, "%s: %s, not a maildir: read it "
				       "with `onlist fetch %s`", src->path,
				       what, src->path);
		else
			onlist_set_err(errmsg, "%s: a directory, but not a "
				       "maildir (no cur/ or new/)", src->path);
		return ONLIST_EPARSE;
	}
	/* Name order: maildir names start with the delivery time. */
	qsort(src->files, src->nfiles, sizeof(*src->files), cmp_str);
	return ONLIST_OK;
}

/* Refill the read buffer; returns bytes available, 0 at end, -1 on error. */
/* Append the pending run of lines to the message: 0, -1 when out of
 * memory. */
static int flush_run(struct onlist_source *src)
{
	if (src->run_len && onlist_buf_add(&src->msg, src->run,
					   src->run_len) < 0)
		return -1;
	src->run = NULL;
	src->run_len = 0;
	return 0;
}

static long fill(struct onlist_source *src, char **errmsg)
{
	int n;

	if (src->in_start < src->in_end)
		return (long)(src->in_end - src->in_start);
	if (src->eof)
		return 0;
	/* in is about to be read into again */
	if (flush_run(src) < 0) {
		onlist_set_err(errmsg, "%s: out of memory", src->path);
		return -1;
	}
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
		onlist_set_err(errmsg, "%s: read error after %llu bytes: %s",
			       src->path, (unsigned long long)src->pos, m);
		return -1;
	}
	if (n == 0) {
		int zerr;
		const char *m = gzerror(src->gz, &zerr);
		src->eof = 1;
		/* zlib reports a gzip stream cut short only here. */
		if (zerr != Z_OK && zerr != Z_STREAM_END) {
			onlist_set_err(errmsg, "%s: truncated or corrupt gzip "
				       "data after %llu bytes: %s", src->path,
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
		if (onlist_buf_add(&src->line, p, n) < 0) {
			onlist_set_err(errmsg, "%s: out of memory", src->path);
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
		onlist_set_err(errmsg, "%s: %s", path, strerror(errno));
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
		onlist_set_err(errmsg, "%s: %s", path, strerror(errno));
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
		onlist_set_err(errmsg, "%s: empty file, no messages", path);
		onlist_source_free(src);
		return ONLIST_EPARSE;
	}
	/* Blank lines before the first message are no message; `git
	 * mailsplit` skips every blank (spaces and tabs too), and git's own
	 * t5100/sample.mbox begins with such lines. */
	while ((avail = fill(src, errmsg)) > 0 &&
	       gspace((unsigned char)src->in[src->in_start])) {
		src->in_start++;
		src->pos++;
	}
	if (avail < 0) {
		onlist_source_free(src);
		return ONLIST_EPARSE;
	}
	if (avail == 0) {
		onlist_set_err(errmsg, "%s: only blank lines, no messages", path);
		onlist_source_free(src);
		return ONLIST_EPARSE;
	}
	if (!(avail >= 5 && memcmp(src->in + src->in_start, "From ", 5) == 0) &&
	    !looks_like_header(src->in + src->in_start, (size_t)avail)) {
		onlist_set_err(errmsg, "%s: not an mbox, maildir or mail "
			       "message (it starts neither with \"From \" nor a "
			       "header)", path);
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

/* The current maildir file is recorded as skipped for `why` (a constant
 * string or src->skip_why) and passed over. */
static onlist_status skip_maildir(struct onlist_source *src,
				  struct onlist_raw *raw, const char *why)
{
	src->msg.len = 0;
	if (onlist_buf_add(&src->msg, "", 0) < 0)
		return ONLIST_ENOMEM;
	raw->data = src->msg.data;
	raw->len = 0;
	raw->skip = why;
	src->next_file++;
	return ONLIST_OK;
}

static onlist_status next_maildir(struct onlist_source *src,
				  struct onlist_raw *raw, char **errmsg)
{
	struct stat st;
	int fd;
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
	/* Not followed: a link in cur/ could name /etc/shadow (and onlist
	 * often runs as root from cron).  Non-blocking, so a FIFO does not
	 * hang the import before fstat() tells what it is. */
	fd = open(name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ELOOP)
		return skip_maildir(src, raw, "a symbolic link, not followed");
	if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		return skip_maildir(src, raw, S_ISFIFO(st.st_mode) ?
				    "a FIFO, not a regular file" :
				    S_ISDIR(st.st_mode) ?
				    "a directory, not a regular file" :
				    "a device or socket, not a regular file");
	}
	f = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		onlist_set_err(errmsg, "%s: %s", name, strerror(errno));
		src->next_file++;
		return ONLIST_EIO;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		if (src->msg.len + n > ONLIST_MESSAGE_MAX) {
			snprintf(src->skip_why, sizeof(src->skip_why),
				 "message larger than %u bytes, not read",
				 ONLIST_MESSAGE_MAX);
			fclose(f);
			return skip_maildir(src, raw, src->skip_why);
		}
		if (onlist_buf_add(&src->msg, chunk, n) < 0) {
			fclose(f);
			return ONLIST_ENOMEM;
		}
	}
	if (ferror(f)) {
		onlist_set_err(errmsg, "%s: read error", name);
		fclose(f);
		src->next_file++;
		return ONLIST_EIO;
	}
	fclose(f);
	if (onlist_buf_add(&src->msg, "", 0) < 0)
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
	src->run_len = 0;
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
			if (src->msg.len == 0 && !src->run_len &&
			    !src->from_line) {
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
			src->run_len = 0;
			continue;
		}
		/* Lines that follow each other in `in` are copied as one run
		 * (fill() copies it before `in` is read into again): a few
		 * copies a message instead of one a line. */
		if (src->run_len && line == src->run + src->run_len) {
			src->run_len += len;
			continue;
		}
		if (flush_run(src) < 0)
			return ONLIST_ENOMEM;
		if (line >= src->in && line < src->in + src->in_end) {
			src->run = line;
			src->run_len = len;
		} else if (onlist_buf_add(&src->msg, line, len) < 0) {
			return ONLIST_ENOMEM;
		}
	}
	if (flush_run(src) < 0)
		return ONLIST_ENOMEM;
	if (src->msg.len == 0 && !src->from_line && !src->too_big)
		return ONLIST_ENOTFOUND;
	if (onlist_buf_add(&src->msg, "", 0) < 0)
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
