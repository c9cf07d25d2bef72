/* fuzz_http.c - the fetcher's response path: onlist_http_get() against a
 * server on 127.0.0.1 that answers every connection with the fuzz input,
 * sent raw (status line, headers, body as the input has them).  What runs
 * is what a hostile server reaches: curl's parsing, our header callback
 * (ETag, Content-Length, Content-Range, Retry-After...), the body writer
 * and its size cap, the length and gzip checks, restarts on bad resumes.
 *
 * The first input byte picks the request: bit 0 a POST, bit 1 a URL ending
 * in .gz (gzip required), bit 2 a cache with validators.  Redirects are
 * off (max_redirects 0) so that no input sends curl elsewhere; retries are
 * off and the pace is 0 so that one input is one or a few connections. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "onlist/http.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *answer;
static size_t answer_len;
static int port;
static char dir[] = "/tmp/onlist-fuzz-http.XXXXXX";

/* Read the request head (or give up after a second) so that closing the
 * socket does not reset it before curl read the answer. */
static void drain_request(int c)
{
	char buf[4096];
	size_t have = 0;
	struct pollfd p = { c, POLLIN, 0 };

	while (have < sizeof(buf) - 1 && poll(&p, 1, 1000) > 0) {
		ssize_t n = recv(c, buf + have, sizeof(buf) - 1 - have, 0);

		if (n <= 0)
			return;
		have += (size_t)n;
		buf[have] = '\0';
		if (strstr(buf, "\r\n\r\n"))
			return;
	}
}

static void *serve(void *arg)
{
	int s = *(int *)arg;

	for (;;) {
		int c = accept(s, NULL, NULL);
		unsigned char *copy;
		size_t len, off = 0;

		if (c < 0)
			continue;
		pthread_mutex_lock(&lock);
		len = answer_len;
		copy = malloc(len ? len : 1);
		if (copy && len)
			memcpy(copy, answer, len);
		pthread_mutex_unlock(&lock);
		drain_request(c);
		while (copy && off < len) {
			ssize_t n = send(c, copy + off, len - off, MSG_NOSIGNAL);

			if (n <= 0)
				break;
			off += (size_t)n;
		}
		shutdown(c, SHUT_WR);
		drain_request(c);	/* until curl closes */
		close(c);
		free(copy);
	}
	return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static int s;
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	pthread_t t;

	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	if (!mkdtemp(dir))
		abort();
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(s, 16) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &alen) < 0)
		abort();
	port = ntohs(a.sin_port);
	if (pthread_create(&t, NULL, serve, &s) != 0)
		abort();
	pthread_detach(t);
	onlist_http_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct onlist_http_opts o = ONLIST_HTTP_OPTS_INIT;
	struct onlist_http_cache cache = { NULL, NULL };
	enum onlist_http_result res;
	char url[128], dest[sizeof(dir) + 16], part[sizeof(dest) + 8];
	char *err = NULL;
	unsigned flags;
	onlist_status st;

	if (size < 1)
		return 0;
	flags = data[0];
	pthread_mutex_lock(&lock);
	free(answer);
	answer = malloc(size);
	if (!answer)
		abort();
	memcpy(answer, data + 1, size - 1);
	answer_len = size - 1;
	pthread_mutex_unlock(&lock);

	o.retries = 0;
	o.backoff = 0;
	o.pace = 0;
	o.connect_timeout = 5;
	o.stall_timeout = 5;
	o.max_bytes = 1 << 20;
	o.max_redirects = 0;
	if (flags & 4) {
		cache.etag = strdup("\"abc\"");
		cache.last_modified = strdup("Mon, 03 Jun 2013 10:00:00 GMT");
	}
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/list/%s", port,
		 flags & 2 ? "all.mbox.gz" : "raw");
	snprintf(dest, sizeof(dest), "%s/body", dir);
	snprintf(part, sizeof(part), "%s.part", dest);
	st = onlist_http_get(url, dest, flags & 1, &o, &cache, &res, &err);
	if (st == ONLIST_OK && res == ONLIST_HTTP_NEW && access(dest, F_OK))
		abort();	/* "new body" but no file */
	if (st != ONLIST_OK && !err)
		abort();	/* every failure says why */
	free(err);
	onlist_http_cache_release(&cache);
	unlink(dest);
	unlink(part);
	return 0;
}
