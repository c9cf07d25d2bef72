/* http.c - downloads over HTTP(S) with libcurl: to DEST.part, resumed,
 * retried with backoff, checked (length, gzip to its end), then renamed. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <zlib.h>

#include "onlist/http.h"
#include "onlist/gzipcheck.h"

#define USER_AGENT	"onlist/0.1 (mailing-list archive reader)"
#define DEFAULT_CAP	(UINT64_C(4) << 30)
#define RETRY_AFTER_MAX	60.0
/* Restarts from zero caused by a stale DEST.part (range ignored or out of
 * place, resumed result invalid) that do not use up a retry. */
#define FREE_RESTARTS	3
#define PACE_HOSTS	16

static double now_mono(void);

double onlist_http_now(void)
{
	return now_mono();
}

/* ---- per-host pace ------------------------------------------------- */

static pthread_mutex_t pace_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pace_slot {
	char host[256];
	double next;		/* monotonic time the host may be asked again */
} pace_tab[PACE_HOSTS];

/* Header values kept to be sent back (ETag, Last-Modified): short and
 * printable, or not at all. */
#define VALIDATOR_MAX 1024
static int sane_validator(const char *v, size_t n)
{
	if (n == 0 || n > VALIDATOR_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f)
			return 0;
	return 1;
}

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_for(double secs)
{
	struct timespec ts;

	if (secs <= 0)
		return;
	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Waits until `host` was last asked at least `pace` seconds ago.  The slot
 * is reserved before sleeping, so two threads cannot both go at once. */
static void pace_wait(const char *host, double pace)
{
	struct pace_slot *slot = NULL, *oldest = &pace_tab[0];
	double now, wait = 0;
	int i;

	pthread_mutex_lock(&pace_lock);
	now = now_mono();
	for (i = 0; i < PACE_HOSTS; i++) {
		if (!strcmp(pace_tab[i].host, host)) {
			slot = &pace_tab[i];
			break;
		}
		if (pace_tab[i].next < oldest->next)
			oldest = &pace_tab[i];
	}
	if (!slot) {
		slot = oldest;
		snprintf(slot->host, sizeof(slot->host), "%s", host);
		slot->next = 0;
	}
	if (slot->next > now)
		wait = slot->next - now;
	slot->next = now + wait + (pace > 0 ? pace : 0);
	pthread_mutex_unlock(&pace_lock);
	sleep_for(wait);
}

/* ---- one transfer --------------------------------------------------- */

struct xfer {
	CURL *curl;
	const char *part;
	const char *label;	/* for the progress line */
	int fd;			/* .part, opened at the first body byte */
	uint64_t offset;	/* bytes of .part kept from before */
	uint64_t written;	/* bytes written by this transfer */
	uint64_t cap;
	int started;		/* the write callback has decided */
	int skip;		/* not a body we keep: transfer aborted */
	int restart;		/* .part does not fit the response */
	int too_big;
	int disk_errno;
	/* from the last response's headers */
	long status;
	char reason[64];
	char *etag, *last_modified;
	int64_t content_length;	/* -1: none */
	int has_range;
	uint64_t range_start;
	int64_t range_total;	/* -1: unknown ('*') */
	double retry_after;	/* seconds; -1: none */
	int gzip_type;		/* Content-Type says gzip */
	/* progress */
	void (*progress)(const char *label, double have, double total,
			 double rate, void *data);
	void *progress_data;
	int shown;
	double t0, last_shown;
};

static void xfer_headers_reset(struct xfer *x)
{
	x->status = 0;
	x->reason[0] = '\0';
	free(x->etag);
	free(x->last_modified);
	x->etag = x->last_modified = NULL;
	x->content_length = -1;
	x->has_range = 0;
	x->range_start = 0;
	x->range_total = -1;
	x->retry_after = -1;
	x->gzip_type = 0;
}

static char *trim(char *s, size_t *len)
{
	while (*len && (s[*len - 1] == '\r' || s[*len - 1] == '\n' ||
			s[*len - 1] == ' ' || s[*len - 1] == '\t'))
		--*len;
	while (*len && (*s == ' ' || *s == '\t')) {
		s++;
		--*len;
	}
	return s;
}

static char *strndup_or_null(const char *s, size_t n)
{
	return n ? strndup(s, n) : NULL;
}

/* Every header line of every response (redirects included) comes here; a
 * status line starts a new response, so what is kept is the final one's. */
static size_t on_header(char *buf, size_t size, size_t n, void *data)
{
	struct xfer *x = data;
	size_t len = size * n, vlen;
	char line[1024], *colon, *v;

	if (len >= 5 && !memcmp(buf, "HTTP/", 5) && len >= sizeof(line))
		len = sizeof(line) - 1;	/* a long reason phrase: cut it */
	else if (len >= sizeof(line))
		return len;	/* no header we read is that long */
	memcpy(line, buf, len);
	line[len] = '\0';
	len = size * n;
	if (!strncmp(line, "HTTP/", 5)) {
		char *sp = strchr(line, ' ');

		xfer_headers_reset(x);
		if (sp) {
			x->status = strtol(sp + 1, &v, 10);
			vlen = strlen(v);
			v = trim(v, &vlen);
			snprintf(x->reason, sizeof(x->reason), "%.*s",
				 (int)vlen, v);
		}
		return len;
	}
	colon = strchr(line, ':');
	if (!colon)
		return len;
	*colon = '\0';
	v = colon + 1;
	vlen = strlen(v);
	v = trim(v, &vlen);
	v[vlen] = '\0';
	if (!strcasecmp(line, "ETag")) {
		free(x->etag);
		x->etag = sane_validator(v, vlen) ? strndup_or_null(v, vlen) : NULL;
	} else if (!strcasecmp(line, "Last-Modified")) {
		free(x->last_modified);
		x->last_modified = sane_validator(v, vlen) ?
				   strndup_or_null(v, vlen) : NULL;
	} else if (!strcasecmp(line, "Content-Length")) {
		char *end;
		long long cl = strtoll(v, &end, 10);

		if (end != v && !*end && cl >= 0)
			x->content_length = cl;
	} else if (!strcasecmp(line, "Content-Range")) {
		unsigned long long a, b;
		char total[32];

		if (sscanf(v, "bytes %llu-%llu/%31s", &a, &b, total) == 3) {
			x->has_range = 1;
			x->range_start = a;
			x->range_total = strcmp(total, "*") ?
				strtoll(total, NULL, 10) : -1;
		}
	} else if (!strcasecmp(line, "Content-Type")) {
		x->gzip_type = !strncasecmp(v, "application/gzip", 16) ||
			       !strncasecmp(v, "application/x-gzip", 18);
	} else if (!strcasecmp(line, "Retry-After")) {
		char *end;
		long secs = strtol(v, &end, 10);

		if (end != v && !*end && secs >= 0) {
			x->retry_after = secs;
		} else {
			time_t when = curl_getdate(v, NULL);

			if (when != (time_t)-1)
				x->retry_after = when > time(NULL) ?
					(double)(when - time(NULL)) : 0;
		}
	}
	return len;
}

/* .part, opened to write: never through a link, and never a file of
 * someone else's (in a downloads folder another user can write to, .part
 * may be a link to, or a hard link of, a file of the victim's).  With
 * offset 0 a new file (O_EXCL, whatever was there removed first); else
 * the file we left, to append to: a regular file of ours, one link,
 * `offset` bytes long.  The descriptor; -1 with *err set when it cannot
 * be made; -2 when what is there is not ours to resume. */
static int open_part(const char *part, uint64_t offset, int *err)
{
	struct stat st;
	int fd;

	if (!offset) {
		if (unlink(part) < 0 && errno != ENOENT) {
			*err = errno;
			return -1;
		}
		fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0666);
		if (fd < 0)
			*err = errno;
		return fd;
	}
	fd = open(part, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ELOOP ? -2 : (*err = errno, -1);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_nlink != 1 ||
	    (uint64_t)st.st_size != offset) {
		close(fd);
		return -2;
	}
	return fd;
}

/* Decides, at the first body byte, what the body is for. */
static int body_start(struct xfer *x)
{
	long code = 0;

	x->started = 1;
	curl_easy_getinfo(x->curl, CURLINFO_RESPONSE_CODE, &code);
	if (code < 200 || code > 299) {
		x->skip = 1;	/* an error page: not worth reading */
		return -1;
	}
	if (code == 206) {
		if (!x->has_range || x->range_start != x->offset) {
			x->restart = 1;
			return -1;
		}
	} else {
		x->offset = 0;	/* the whole body: start .part over */
	}
	x->fd = open_part(x->part, x->offset, &x->disk_errno);
	if (x->fd == -2) {
		x->fd = -1;
		x->restart = 1;	/* not what we left there: start over */
	}
	return x->fd < 0 ? -1 : 0;
}

static size_t on_body(char *buf, size_t size, size_t n, void *data)
{
	struct xfer *x = data;
	size_t len = size * n, done = 0;

	if (!x->started && body_start(x) < 0)
		return 0;
	if (x->fd < 0)
		return 0;
	if (x->offset + x->written + len > x->cap) {
		x->too_big = 1;
		return 0;
	}
	while (done < len) {
		ssize_t w = write(x->fd, buf + done, len - done);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			x->disk_errno = errno;
			return 0;
		}
		done += (size_t)w;
	}
	x->written += len;
	return len;
}

static int on_progress(void *data, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct xfer *x = data;
	double now = now_mono(), rate, have, total;

	(void)ultotal;
	(void)ulnow;
	if (dlnow <= 0 || now - x->last_shown < 0.25)
		return 0;
	x->last_shown = now;
	have = (double)(x->offset + (uint64_t)dlnow);
	total = dltotal > 0 ? (double)(x->offset + (uint64_t)dltotal) : 0;
	rate = now > x->t0 ? dlnow / (now - x->t0) : 0;
	x->progress(x->label, have, total, rate, x->progress_data);
	x->shown = 1;
	return 0;
}

/* ---- checking the result ------------------------------------------- */

/* ---- the retry loop -------------------------------------------------- */

enum outcome {
	DONE,		/* result decided, return ONLIST_OK */
	RETRY,		/* transient: wait and try again */
	RESTART,	/* drop .part and try again from zero at once */
	FAIL,		/* permanent: return `st` with the message */
};

struct run {
	const char *url, *dest, *part, *host;
	const struct onlist_http_opts *opts;
	uint64_t cap;
	enum onlist_http_result result;
	onlist_status st;
	char *msg;		/* cause of the last failure, without the URL */
	double wait_hint;	/* Retry-After */
	int drop_part;		/* remove .part when giving up */
	int no_resume;		/* the server ignores Range */
	int gz_name;		/* the URL's path ends in .gz */
	int if_range;		/* this attempt sent If-Range */
	char *strong_etag;	/* from an earlier 2xx of this call */
};

static void set_msg(struct run *r, const char *fmt, ...)
{
	va_list ap;
	char *m;

	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	free(r->msg);
	r->msg = m;
}

static const char *reason_phrase(long code, const char *given)
{
	if (given && *given)
		return given;
	switch (code) {
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 408: return "Request Timeout";
	case 410: return "Gone";
	case 416: return "Range Not Satisfiable";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 501: return "Not Implemented";
	case 502: return "Bad Gateway";
	case 503: return "Service Unavailable";
	case 504: return "Gateway Timeout";
	}
	return "";
}

static int is_tls_verify_error(CURLcode rc)
{
	switch (rc) {
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
	case CURLE_SSL_CRL_BADFILE:
		return 1;
	default:
		return 0;
	}
}

static int is_transient(CURLcode rc)
{
	switch (rc) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_HTTP3:
	case CURLE_QUIC_CONNECT_ERROR:
		return 1;
	default:
		return 0;
	}
}

static uint64_t file_size(const char *path)
{
	struct stat sb;

	/* lstat: a link is no body of ours (0: it is removed, not followed) */
	return lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
		sb.st_uid == geteuid() && sb.st_nlink == 1 ?
		(uint64_t)sb.st_size : 0;
}

/* A complete 2xx transfer: is .part the whole body? */
static enum outcome finish_body(struct run *r, struct xfer *x, int resumed)
{
	uint64_t have = file_size(r->part);
	int64_t want = -1;
	int err = 0;

	if (x->status == 206) {
		if (x->range_total >= 0)
			want = x->range_total;
		else if (x->content_length >= 0)
			want = (int64_t)(x->offset + x->content_length);
	} else {
		want = x->content_length;
	}
	if (!x->started && x->fd < 0 && have == 0) {
		/* An empty body never reaches the write callback. */
		int e = 0, fd = open_part(r->part, 0, &e);

		if (fd < 0 || close(fd) < 0) {
			set_msg(r, "cannot write %s: %s", r->part,
				strerror(e ? e : errno));
			r->st = ONLIST_EIO;
			r->drop_part = 1;
			return FAIL;
		}
	}
	if (want >= 0 && (uint64_t)want != have) {
		set_msg(r, "got %llu bytes, expected %lld",
			(unsigned long long)have, (long long)want);
		if (have < (uint64_t)want && !resumed)
			return RETRY;	/* resume what we have */
		return RESTART;
	}
	/* A resumed body's first bytes are not the server's: judge by what
	 * the server says it is. */
	switch (onlist_gzip_check(r->part, resumed && (x->gzip_type || r->gz_name),
			   &err)) {
	case ONLIST_GZIP_OK:
		break;
	case ONLIST_GZIP_BOMB:
		set_msg(r, "refused: the gzip body inflates more than %d:1 "
			"(a gzip bomb?)", ONLIST_GZIP_BOMB_RATIO);
		r->st = ONLIST_EHTTP;
		r->drop_part = 1;
		return FAIL;
	case ONLIST_GZIP_IO:
		set_msg(r, "cannot read %s: %s", r->part, strerror(err));
		r->st = ONLIST_EIO;
		r->drop_part = 1;
		return FAIL;
	case ONLIST_GZIP_BAD:
		set_msg(r, "the gzip body is truncated or corrupt");
		if (resumed)
			return RESTART;
		unlink(r->part);
		r->drop_part = 1;
		return RETRY;
	}
	if (rename(r->part, r->dest) < 0) {
		set_msg(r, "cannot rename %s to %s: %s", r->part, r->dest,
			strerror(errno));
		r->st = ONLIST_EIO;
		r->drop_part = 1;
		return FAIL;
	}
	r->result = ONLIST_HTTP_NEW;
	return DONE;
}

static enum outcome by_status(struct run *r, struct xfer *x, int resumed)
{
	long code = x->status;
	const char *phrase = reason_phrase(code, x->reason);

	if (code >= 200 && code <= 299)
		return finish_body(r, x, resumed);
	if (code == 304) {
		/* What the caller has is current: a .part is stale. */
		unlink(r->part);
		r->result = ONLIST_HTTP_NOT_MODIFIED;
		return DONE;
	}
	if (code == 404) {
		unlink(r->part);
		r->result = ONLIST_HTTP_NOT_FOUND;
		return DONE;
	}
	set_msg(r, "HTTP %ld%s%s", code, *phrase ? " " : "", phrase);
	r->st = ONLIST_EHTTP;
	if (code == 416 && x->offset > 0)
		return RESTART;	/* .part is as long as the file, or longer */
	/* 501: the server lacks the feature (public-inbox search at index
	 * level basic); asking again will not grow it */
	if (code == 408 || code == 429 ||
	    (code >= 500 && code <= 599 && code != 501)) {
		if (x->retry_after >= 0)
			r->wait_hint = x->retry_after < RETRY_AFTER_MAX ?
				x->retry_after : RETRY_AFTER_MAX;
		return RETRY;
	}
	r->drop_part = 1;
	return FAIL;
}

static enum outcome by_curl(struct run *r, struct xfer *x, CURLcode rc,
			    const char *errbuf)
{
	const char *detail = *errbuf ? errbuf : curl_easy_strerror(rc);
	long oserr = 0;

	r->st = ONLIST_EHTTP;
	if (rc == CURLE_RANGE_ERROR && x->status == 200) {
		/* The server ignores Range (unless If-Range said "changed"). */
		if (!r->if_range)
			r->no_resume = 1;
		set_msg(r, "the server does not resume downloads");
		return RESTART;
	}
	if (rc == CURLE_RANGE_ERROR && x->status)
		return by_status(r, x, 1);
	if (rc == CURLE_OUT_OF_MEMORY && !x->started) {
		/* What curl says of a header line past its 100 KB limit
		 * (CURL_MAX_HTTP_HEADER), before any body byte: the server's
		 * doing, and asking again gets the same. */
		set_msg(r, "refused: a response header line is longer than "
			"curl accepts (100 KB)");
		return FAIL;
	}
	if (rc == CURLE_COULDNT_RESOLVE_HOST) {
		set_msg(r, "could not resolve host %s", r->host);
		return FAIL;
	}
	if (rc == CURLE_COULDNT_RESOLVE_PROXY) {
		set_msg(r, "could not resolve proxy (%s)", detail);
		return FAIL;
	}
	if (is_tls_verify_error(rc)) {
		set_msg(r, "TLS certificate verification failed (%s); use "
			"--insecure only if you trust the server", detail);
		return FAIL;
	}
	if (rc == CURLE_TOO_MANY_REDIRECTS) {
		set_msg(r, "more than %d redirects", r->opts->max_redirects);
		return FAIL;
	}
	if (rc == CURLE_UNSUPPORTED_PROTOCOL) {
		if (!strncasecmp(r->url, "https:", 6))
			set_msg(r, "refused a redirect to a URL that is not "
				"https (from https, plain http is refused too: "
				"%s)", detail);
		else
			set_msg(r, "redirected to a URL that is not http or "
				"https (%s)", detail);
		return FAIL;
	}
	if (rc == CURLE_COULDNT_CONNECT) {
		curl_easy_getinfo(x->curl, CURLINFO_OS_ERRNO, &oserr);
		if (oserr == ECONNREFUSED)
			set_msg(r, "connection refused");
		else
			set_msg(r, "could not connect (%s)", detail);
		return RETRY;
	}
	if (rc == CURLE_OPERATION_TIMEDOUT) {
		set_msg(r, "timed out (%s)", detail);
		return RETRY;
	}
	if (rc == CURLE_PARTIAL_FILE) {
		set_msg(r, "connection closed before the end of the body (%s)",
			detail);
		return RETRY;
	}
	if (is_transient(rc)) {
		set_msg(r, "%s", detail);
		return RETRY;
	}
	set_msg(r, "%s", detail);
	return FAIL;
}

static int add_header(struct curl_slist **list, const char *name,
		      const char *value)
{
	struct curl_slist *l;
	char *line;

	if (asprintf(&line, "%s: %s", name, value) < 0)
		return -1;
	l = curl_slist_append(*list, line);
	free(line);
	if (!l)
		return -1;
	*list = l;
	return 0;
}

static enum outcome attempt(struct run *r, CURL *curl, struct xfer *x,
			    struct onlist_http_cache *cache)
{
	struct curl_slist *hdrs = NULL;
	char errbuf[CURL_ERROR_SIZE] = "";
	enum outcome out;
	CURLcode rc;
	int resumed, ok = 0;

	x->curl = curl;
	x->part = r->part;
	x->fd = -1;
	x->cap = r->cap;
	x->offset = r->no_resume ? 0 : file_size(r->part);
	if (x->offset >= r->cap)
		x->offset = 0;	/* cannot be the start of a valid body */
	if (!x->offset)
		unlink(r->part);	/* an empty body must not find old bytes */
	resumed = x->offset > 0;
	r->if_range = 0;
	r->wait_hint = -1;

	/* Sent whether DEST exists or not: a caller may keep only the
	 * validators of what it already imported. */
	if (cache && cache->etag &&
	    sane_validator(cache->etag, strlen(cache->etag)))
		ok = add_header(&hdrs, "If-None-Match", cache->etag);
	if (cache && cache->last_modified && ok == 0 &&
	    sane_validator(cache->last_modified, strlen(cache->last_modified)))
		ok = add_header(&hdrs, "If-Modified-Since",
				cache->last_modified);
	if (x->offset && r->strong_etag && ok == 0) {
		/* Resuming what an earlier attempt of this call began: a
		 * changed file must come whole, not spliced. */
		ok = add_header(&hdrs, "If-Range", r->strong_etag);
		r->if_range = 1;
	}
	if (ok < 0) {
		curl_slist_free_all(hdrs);
		set_msg(r, "out of memory");
		r->st = ONLIST_ENOMEM;
		return FAIL;
	}

	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(curl, CURLOPT_RESUME_FROM_LARGE,
			 (curl_off_t)x->offset);
	curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE,
			 (curl_off_t)(r->cap - x->offset));
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, x);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, x);
	curl_easy_setopt(curl, CURLOPT_XFERINFODATA, x);
	curl_easy_setopt(curl, CURLOPT_NOPROGRESS, x->progress ? 0L : 1L);
	x->t0 = x->last_shown = now_mono();

	rc = curl_easy_perform(curl);

	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, NULL);
	if (x->status) {	/* curl's word on the final status */
		long code = 0;

		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
		if (code)
			x->status = code;
	}
	curl_slist_free_all(hdrs);
	if (x->shown) {
		x->progress(x->label, -1, 0, 0, x->progress_data);
		x->shown = 0;
	}
	if (x->fd >= 0) {
		if (!x->disk_errno && (fdatasync(x->fd) < 0 && errno != EINVAL))
			x->disk_errno = errno;
		if (close(x->fd) < 0 && !x->disk_errno)
			x->disk_errno = errno;
		x->fd = -1;
	}
	if (x->status >= 200 && x->status <= 299 && x->etag &&
	    strncmp(x->etag, "W/", 2)) {
		free(r->strong_etag);
		r->strong_etag = strdup(x->etag);
	}

	if (x->disk_errno) {
		set_msg(r, "cannot write %s: %s", r->part,
			strerror(x->disk_errno));
		r->st = ONLIST_EIO;
		r->drop_part = 1;
		out = FAIL;
	} else if (x->too_big || rc == CURLE_FILESIZE_EXCEEDED) {
		set_msg(r, "larger than the %llu-byte cap",
			(unsigned long long)r->cap);
		r->st = ONLIST_EHTTP;
		r->drop_part = 1;
		out = FAIL;
	} else if (x->restart) {
		set_msg(r, "the server resumed at the wrong place");
		out = RESTART;
	} else if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && x->skip)) {
		out = by_status(r, x, resumed);
	} else {
		out = by_curl(r, x, rc, errbuf);
	}
	if (out == DONE && cache && x->status != 404) {
		/* A 304 may leave out what did not change. */
		if (x->status != 304 || x->etag) {
			free(cache->etag);
			cache->etag = x->etag;
			x->etag = NULL;
		}
		if (x->status != 304 || x->last_modified) {
			free(cache->last_modified);
			cache->last_modified = x->last_modified;
			x->last_modified = NULL;
		}
	}
	return out;
}

static void set_common_opts(CURL *curl, const struct onlist_http_opts *o,
			    const char *url, int post)
{
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_USERAGENT, USER_AGENT);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(curl, CURLOPT_MAXREDIRS, (long)o->max_redirects);
	/* what was asked for over https never comes over plain http: a
	 * redirect may not downgrade it */
	int tls = !strncasecmp(url, "https:", 6);
#if LIBCURL_VERSION_NUM >= 0x075500	/* 7.85.0 */
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR,
			 tls ? "https" : "http,https");
#else
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS,
			 (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
	curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS, tls ?
			 (long)CURLPROTO_HTTPS :
			 (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, o->insecure ? 0L : 1L);
	curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, o->insecure ? 0L : 2L);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, o->connect_timeout);
	/* curl's stall check: under min_rate bytes/s for stall_timeout s */
	curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT,
			 o->min_rate > 0 ? o->min_rate : 1L);
	curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, o->stall_timeout);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
	if (post) {
		curl_easy_setopt(curl, CURLOPT_POST, 1L);
		curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
		curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, 0L);
	}
}

/* RFC 6761 6.4: resolver APIs should fail names under .invalid at once;
 * glibc asks the DNS server anyway. */
static int is_invalid_tld(const char *host)
{
	size_t n = strlen(host);

	if (n && host[n - 1] == '.')
		n--;
	return (n == 7 && !strncasecmp(host, "invalid", 7)) ||
	       (n > 8 && !strncasecmp(host + n - 8, ".invalid", 8));
}

/* The host part of an http(s) URL (caller frees), or NULL with a reason;
 * *gz: whether its path ends in .gz. */
static char *url_host(const char *url, int *gz, const char **why)
{
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *path = NULL, *ret = NULL;
	size_t n;

	*why = "out of memory";
	if (!u)
		return NULL;
	*why = "not a valid URL";
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK)
		goto out;
	n = strlen(path);
	*gz = n > 3 && !strcasecmp(path + n - 3, ".gz");
	*why = "only http and https URLs are supported";
	if (strcasecmp(scheme, "http") && strcasecmp(scheme, "https"))
		goto out;
	ret = strdup(host);
	*why = "out of memory";
out:
	curl_free(scheme);
	curl_free(host);
	curl_free(path);
	curl_url_cleanup(u);
	return ret;
}

onlist_status onlist_http_get(const char *url, const char *dest, int post,
			      const struct onlist_http_opts *opts,
			      struct onlist_http_cache *cache,
			      enum onlist_http_result *result, char **errmsg)
{
	static const struct onlist_http_opts defaults = ONLIST_HTTP_OPTS_INIT;
	struct onlist_http_opts o = opts ? *opts : defaults;
	struct run r;
	struct xfer x;
	const char *why, *slash;
	char *host = NULL, *part = NULL;
	CURL *curl = NULL;
	int attempts = 0, free_restarts = FREE_RESTARTS;
	double delay;
	enum outcome out = FAIL;

	*errmsg = NULL;
	memset(&r, 0, sizeof(r));
	memset(&x, 0, sizeof(x));
	x.fd = -1;
	xfer_headers_reset(&x);
	if (o.retries < 0)
		o.retries = 0;
	if (o.max_redirects < 0)
		o.max_redirects = 0;
	r.url = url;
	r.dest = dest;
	r.opts = &o;
	r.cap = o.max_bytes ? o.max_bytes : DEFAULT_CAP;
	r.st = ONLIST_EHTTP;

	host = url_host(url, &r.gz_name, &why);
	if (!host) {
		r.st = strcmp(why, "out of memory") ? ONLIST_EHTTP :
			ONLIST_ENOMEM;
		set_msg(&r, "%s", why);
		goto out;
	}
	if (asprintf(&part, "%s.part", dest) < 0 || !(curl = curl_easy_init())) {
		part = NULL;
		r.st = ONLIST_ENOMEM;
		set_msg(&r, "out of memory");
		goto out;
	}
	r.part = part;
	r.host = host;
	if (is_invalid_tld(host)) {
		set_msg(&r, "could not resolve host %s", host);
		goto out;
	}
	/* POST answers are generated on the fly: nothing to resume. */
	r.no_resume = post;
	slash = strrchr(dest, '/');
	x.label = slash ? slash + 1 : dest;
	x.progress = o.progress;
	x.progress_data = o.progress_data;
	set_common_opts(curl, &o, url, post);

	delay = o.backoff > 0 ? o.backoff : 0;
	for (;;) {
		if (o.deadline > 0) {
			double left = o.deadline - now_mono();

			if (left <= 0) {
				/* keep what went wrong last, if anything */
				set_msg(&r, "gave up: the time allowed (--timeout) "
					"ran out%s%s", r.msg ? " after: " : "",
					r.msg ? r.msg : "");
				out = FAIL;
				break;
			}
			/* curl's own limit for the whole transfer */
			curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
					 (long)(left * 1000) + 1);
		}
		pace_wait(host, o.pace);
		x.started = x.skip = x.restart = x.too_big = x.disk_errno = 0;
		x.written = 0;
		free(r.msg);
		r.msg = NULL;
		r.st = ONLIST_EHTTP;
		r.drop_part = 0;
		out = attempt(&r, curl, &x, cache);
		if (out == DONE || out == FAIL)
			break;
		if (out == RESTART) {
			unlink(part);
			if (free_restarts-- > 0)
				continue;
		}
		if (++attempts > o.retries)
			break;
		if (out == RETRY) {
			double wait = r.wait_hint > delay ? r.wait_hint : delay;

			if (o.deadline > 0 && now_mono() + wait > o.deadline)
				wait = o.deadline - now_mono();
			if (wait > 0)
				sleep_for(wait);
		}
		delay *= 2;
	}
	if (out == DONE) {
		*result = r.result;
		r.st = ONLIST_OK;
		goto out;
	}
	if (r.drop_part)
		unlink(part);
	if (attempts > 1 && out != FAIL)
		set_msg(&r, "%s (gave up after %d attempts)",
			r.msg ? r.msg : "failed", attempts);
out:
	if (r.st != ONLIST_OK)
		onlist_fail(errmsg, r.st, "%s: %s", url, r.msg ? r.msg : "failed");
	free(r.msg);
	free(r.strong_etag);
	free(x.etag);
	free(x.last_modified);
	free(part);
	free(host);
	if (curl)
		curl_easy_cleanup(curl);
	return r.st;
}

void onlist_http_cache_release(struct onlist_http_cache *cache)
{
	if (!cache)
		return;
	free(cache->etag);
	free(cache->last_modified);
	cache->etag = cache->last_modified = NULL;
}

void onlist_http_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

void onlist_http_cleanup(void)
{
	curl_global_cleanup();
}
