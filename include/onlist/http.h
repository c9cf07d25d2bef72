/* http.h - downloads over HTTP(S).  The only header that knows libcurl
 * exists (and only src/http.c includes curl).
 *
 * A download goes to a file, never to memory: DEST.part while it runs
 * (resumed with a Range request when a previous run left one), renamed to
 * DEST only when whole and, for gzip content, only when the gzip stream
 * checks out to its end.
 */
#ifndef ONLIST_HTTP_H
#define ONLIST_HTTP_H

#include <stdint.h>
#include "onlist/status.h"

struct onlist_http_opts {
	int insecure;		/* skip TLS verification (--insecure) */
	int retries;		/* attempts after the first; default 5 */
	double backoff;		/* first retry delay in seconds, doubled each
				 * time; default 1.0 */
	double pace;		/* minimum seconds between two requests to the
				 * same host; default 1.0 */
	long connect_timeout;	/* seconds; default 30 */
	long stall_timeout;	/* abort (and retry) when under min_rate for
				 * this long; default 60 */
	uint64_t max_bytes;	/* refuse a body larger than this; default
				 * 4 GiB; 0 = default */
	int max_redirects;	/* default 5; http and https only */
	void (*progress)(const char *label, double have, double total,
			 double rate, void *data);
				/* while a body downloads, at most 4 times a
				 * second: bytes so far, the whole size (0:
				 * unknown) and bytes/s; once more with have
				 * < 0 when that transfer ends.  label is
				 * DEST's base name.  NULL: none */
	void *progress_data;
	long min_rate;		/* bytes/s; slower for stall_timeout is a
				 * stall (a server that trickles 3 bytes a
				 * second is one); default 1024 */
	double deadline;	/* onlist_http_now() past which the call gives
				 * up, whatever it is doing; 0: none */
};
#define ONLIST_HTTP_OPTS_INIT {						\
	.retries = 5, .backoff = 1.0, .pace = 1.0, .connect_timeout = 30,	\
	.stall_timeout = 60, .max_redirects = 5, .min_rate = 1024 }

/* The monotonic clock the deadline is read against, in seconds. */
double onlist_http_now(void);

/* What a conditional GET knew and learnt.  A validator from a response
 * that holds a control character or is longer than 1024 bytes is not
 * kept, and one handed in with a CR or LF is not sent: stored validators
 * go back into request headers, where a line break would split them. */
struct onlist_http_cache {
	char *etag;		/* malloc'd or NULL */
	char *last_modified;	/* malloc'd or NULL */
};

enum onlist_http_result {
	ONLIST_HTTP_NEW,		/* DEST holds a new body */
	ONLIST_HTTP_NOT_MODIFIED,	/* 304: DEST untouched */
	ONLIST_HTTP_NOT_FOUND,		/* 404 (public-inbox: no match) */
};

/* GET url (POST with an empty body when post is non-zero: public-inbox's
 * search export `?q=...&x=m` wants POST) into dest.  `cache` may be NULL;
 * when given, its values are sent as If-None-Match / If-Modified-Since
 * and replaced by the response's.  Retries with backoff on connection
 * errors, timeouts, 5xx, 429, short bodies and gzip bodies that do not
 * decompress to their end.  On failure *errmsg (caller frees) is one line
 * naming the URL and the cause: ONLIST_EHTTP (HTTP status, DNS, TLS,
 * connection), ONLIST_EIO (disk).  A 404 is not an error here: the
 * result is ONLIST_HTTP_NOT_FOUND and the call returns ONLIST_OK.  The
 * validators in `cache` are sent even when dest does not exist (callers
 * delete a body once imported).  After a transient failure (drop, timeout,
 * 5xx) DEST.part is kept for the next run to resume; after a permanent one
 * it is removed.  Host names under .invalid are refused without a DNS
 * query. */
onlist_status onlist_http_get(const char *url, const char *dest, int post,
			      const struct onlist_http_opts *opts,
			      struct onlist_http_cache *cache,
			      enum onlist_http_result *result, char **errmsg);

void onlist_http_cache_release(struct onlist_http_cache *cache);

/* Process-wide set-up and tear-down (curl_global_*). */
void onlist_http_init(void);
void onlist_http_cleanup(void);

#endif
