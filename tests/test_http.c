/* test_http.c - downloads against tests/faultserver.py on 127.0.0.1.
 *
 * Every case that injects a fault asks the server afterwards (GET /_stats)
 * whether the retry, the Range request or the restart really happened.
 * Each case uses its own URL (a ?t=NAME query) because the server keeps
 * "first time" state per URL.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zlib.h>
#include <cmocka.h>

#include "onlist/http.h"

static char tmpdir[] = "/tmp/onlist-test-http-XXXXXX";
static char *www;		/* what the server serves */
static char *big_txt, *big_gz;	/* fixtures, paths in www */
static size_t big_len;
static pid_t server_pid = -1;
static int port;

/* ---- helpers ------------------------------------------------------- */

static char *path_in(const char *dir, const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	return p;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *da = read_file(a, &la), *db = read_file(b, &lb);
	int same = da && db && la == lb && !memcmp(da, db, la);

	free(da);
	free(db);
	return same;
}

static void gzip_file(const char *from, const char *to, const char *mode)
{
	size_t len;
	char *data = read_file(from, &len);
	gzFile g = gzopen(to, mode);

	assert_non_null(data);
	assert_non_null(g);
	assert_int_equal(gzwrite(g, data, (unsigned)len), (int)len);
	assert_int_equal(gzclose(g), Z_OK);
	free(data);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define assert_contains(s, sub) do { \
	const char *s_ = (s), *sub_ = (sub); \
	if (!s_ || !strstr(s_, sub_)) { \
		print_error("\"%s\" does not contain \"%s\"\n", \
			    s_ ? s_ : "(null)", sub_); \
		fail(); \
	} \
} while (0)

/* Starts faultserver.py; returns its port. */
static int start_server(pid_t *pid, const char *tls_cert, const char *tls_key)
{
	char script[4096], line[64];
	const char *slash = strrchr(__FILE__, '/');
	int fds[2];
	FILE *f;

	snprintf(script, sizeof(script), "%.*sfaultserver.py",
		 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__);
	if (pipe(fds) < 0)
		return -1;
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (tls_cert)
			execlp("python3", "python3", script, "0", www,
			       "--timeout", "120", "--tls", tls_cert, tls_key,
			       (char *)NULL);
		else
			execlp("python3", "python3", script, "0", www,
			       "--timeout", "120", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	return atoi(line);
}

static void stop_server(pid_t pid)
{
	if (pid > 0) {
		kill(pid, SIGTERM);
		waitpid(pid, NULL, 0);
	}
}

/* The server's statistics for one URL (path and query), as JSON. */
static char *stats(const char *key)
{
	struct sockaddr_in sa;
	char req[1024], *buf, *body;
	size_t len = 0, cap = 65536;
	const char *k;
	char *q = req;
	ssize_t n;
	int fd;

	q += sprintf(q, "GET /_stats?key=");
	for (k = key; *k; k++)	/* the key is itself a path and query */
		q += isalnum((unsigned char)*k) || strchr("/._-", *k) ?
			sprintf(q, "%c", *k) :
			sprintf(q, "%%%02X", (unsigned char)*k);
	sprintf(q, " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	buf = malloc(cap);
	assert_non_null(buf);
	while ((n = read(fd, buf + len, cap - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	body = strstr(buf, "\r\n\r\n");
	assert_non_null(body);
	body = strdup(body + 4);
	free(buf);
	return body;
}

/* One number from stats(): "count", "ranges", "posts", "conditional". */
static long stat_of(const char *key, const char *field)
{
	char *js = stats(key), pat[64], *at;
	long v;

	snprintf(pat, sizeof(pat), "\"%s\": ", field);
	at = strstr(js, pat);
	assert_non_null(at);
	v = strtol(at + strlen(pat), NULL, 10);
	free(js);
	return v;
}

/* Upper time bounds are for a normal build; `make valgrind` sets
 * ONLIST_TEST_TIME_SCALE because a TLS handshake there takes seconds. */
static double slow(double secs)
{
	const char *v = getenv("ONLIST_TEST_TIME_SCALE");
	double k = v ? atof(v) : 1;

	return secs * (k > 1 ? k : 1);
}

static struct onlist_http_opts quick_opts(void)
{
	struct onlist_http_opts o = ONLIST_HTTP_OPTS_INIT;

	o.pace = 0;
	o.backoff = 0.01;
	o.retries = 3;
	o.connect_timeout = 5;
	o.stall_timeout = 1;
	return o;
}

struct got {
	onlist_status st;
	enum onlist_http_result result;
	char *err;
	char *dest, *part;
	double secs;
};

static void got_release(struct got *g)
{
	free(g->err);
	free(g->dest);
	free(g->part);
}

/* Downloads http://127.0.0.1:PORT/KEY to a fresh destination (or the one
 * given), with opts (NULL: quick_opts()). */
static struct got fetch_to(const char *key, const char *dest,
			   const struct onlist_http_opts *opts,
			   struct onlist_http_cache *cache, int post)
{
	static int n;
	struct onlist_http_opts o = opts ? *opts : quick_opts();
	struct got g;
	char *url;
	double t0;

	memset(&g, 0, sizeof(g));
	g.result = (enum onlist_http_result)-1;
	if (dest)
		g.dest = strdup(dest);
	else
		assert_true(asprintf(&g.dest, "%s/out%d", tmpdir, ++n) > 0);
	assert_true(asprintf(&g.part, "%s.part", g.dest) > 0);
	if (strstr(key, "://"))
		url = strdup(key);
	else
		assert_true(asprintf(&url, "http://127.0.0.1:%d%s", port,
				     key) > 0);
	t0 = now();
	g.st = onlist_http_get(url, g.dest, post, &o, cache, &g.result,
			       &g.err);
	g.secs = now() - t0;
	free(url);
	if (g.st == ONLIST_OK)
		assert_null(g.err);
	else
		assert_non_null(g.err);
	return g;
}

static struct got fetch(const char *key)
{
	return fetch_to(key, NULL, NULL, NULL, 0);
}

/* Succeeded with a new DEST equal to `want` and no .part left. */
static void assert_new(struct got *g, const char *want)
{
	if (g->st != ONLIST_OK)
		print_error("%s\n", g->err);
	assert_int_equal(g->st, ONLIST_OK);
	assert_int_equal(g->result, ONLIST_HTTP_NEW);
	assert_true(same_file(g->dest, want));
	assert_false(exists(g->part));
}

/* Failed with `st`, a message containing `sub`, and left no file. */
static void assert_failed(struct got *g, onlist_status st, const char *sub)
{
	assert_int_equal(g->st, st);
	assert_contains(g->err, sub);
	assert_false(exists(g->dest));
	assert_false(exists(g->part));
}

/* A .part as an interrupted run would leave it. */
static void write_part(const struct got *g, const char *data, size_t len)
{
	write_file(g->part, data, len);
}

static struct got prepared(const char *dest_name)
{
	struct got g;

	memset(&g, 0, sizeof(g));
	g.dest = path_in(tmpdir, dest_name);
	assert_true(asprintf(&g.part, "%s.part", g.dest) > 0);
	return g;
}

/* ---- cases: success, with and without faults ------------------------ */

static void test_plain_get(void **state)
{
	struct got g = fetch("/big.txt?t=plain");

	(void)state;
	assert_new(&g, big_txt);
	assert_int_equal(stat_of("/big.txt?t=plain", "count"), 1);
	got_release(&g);
}

static void test_empty_body(void **state)
{
	struct got g = fetch("/empty.txt");
	size_t len = 99;
	char *d;

	(void)state;
	assert_int_equal(g.st, ONLIST_OK);
	d = read_file(g.dest, &len);
	assert_non_null(d);
	assert_int_equal(len, 0);
	free(d);
	got_release(&g);
}

static void test_post(void **state)
{
	struct got g = fetch_to("/big.txt?t=post", NULL, NULL, NULL, 1);

	(void)state;
	assert_new(&g, big_txt);
	assert_int_equal(stat_of("/big.txt?t=post", "posts"), 1);
	got_release(&g);
}

static void test_redirects_followed(void **state)
{
	struct got g = fetch("/redirect/3/big.txt");

	(void)state;
	assert_new(&g, big_txt);
	assert_int_equal(stat_of("/redirect/0/big.txt", "count"), 1);
	got_release(&g);
}

static void test_multi_member_gzip(void **state)
{
	char *multi = path_in(www, "multi.gz");
	struct got g = fetch("/multi.gz");

	(void)state;
	assert_new(&g, multi);
	free(multi);
	got_release(&g);
}

/* Each fault: the server misbehaves once, the download still ends
 * byte-identical, and the server saw the second request. */
static const struct fault_case {
	const char *key;
	long requests, ranges;
	int gz;
} fault_cases[] = {
	{ "/drop/big.txt",	  2, 1, 0 },	/* half a body: resumed */
	{ "/reset/big.txt",	  2, 0, 0 },	/* TCP reset, no answer */
	{ "/fail-once/big.txt",	  2, 0, 0 },	/* 500 */
	{ "/flaky/3/big.txt",	  4, 0, 0 },	/* 500 three times */
	{ "/stall/big.txt",	  2, 0, 0 },	/* silence: stall timeout */
	{ "/truncgz/big.txt.gz",  2, 0, 1 },	/* gzip cut, length agrees */
	{ "/drop/big.txt.gz",	  2, 1, 1 },
	{ "/trickle/big.txt",	  1, 0, 0 },	/* slow is not a fault */
};

static void test_faults_recovered(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(fault_cases) / sizeof(*fault_cases); i++) {
		const struct fault_case *c = &fault_cases[i];
		struct got g = fetch(c->key);

		print_message("  %s: %.2fs\n", c->key, g.secs);
		assert_new(&g, c->gz ? big_gz : big_txt);
		assert_int_equal(stat_of(c->key, "count"), c->requests);
		assert_int_equal(stat_of(c->key, "ranges"), c->ranges);
		got_release(&g);
	}
}

/* A server that sends 3 bytes a second is alive but will never finish:
 * under min_rate (1 KiB/s) for stall_timeout (1 s here) is a stall, each
 * attempt is cut and retried, and the call fails saying so. */
static void test_drip_is_a_stall(void **state)
{
	struct got g = fetch("/drip/big.txt");

	(void)state;
	print_message("  /drip/big.txt: %.2fs: %s\n", g.secs, g.err);
	assert_int_equal(g.st, ONLIST_EHTTP);
	assert_non_null(strstr(g.err, "timed out"));
	assert_int_equal(stat_of("/drip/big.txt", "count"), 4);	/* 1 + 3 retries */
	assert_true(g.secs < slow(30));
	got_release(&g);
}

/* --timeout: whatever the transfer is doing, the call ends at the
 * deadline.  min_rate 1 lets the drip pass the stall check, as before. */
static void test_deadline(void **state)
{
	struct onlist_http_opts o = quick_opts();
	struct got g;

	(void)state;
	o.min_rate = 1;
	o.stall_timeout = 60;
	o.deadline = onlist_http_now() + 2;
	g = fetch_to("/drip/big.txt?t=deadline", NULL, &o, NULL, 0);
	print_message("  deadline: %.2fs: %s\n", g.secs, g.err);
	assert_int_equal(g.st, ONLIST_EHTTP);
	assert_non_null(strstr(g.err, "--timeout"));
	assert_true(g.secs >= 1.5 && g.secs < slow(10));
	got_release(&g);
}

/* Validators go back into request headers: one with a control character
 * or of absurd length is not kept from a response, and one handed in with
 * a line break is not sent. */
static void test_validators_sane(void **state)
{
	struct onlist_http_cache cache = { NULL, NULL };
	struct got g;

	(void)state;
	g = fetch_to("/bigetag/big.txt", NULL, NULL, &cache, 0);
	assert_new(&g, big_txt);	/* the body is fine; the ETag is not */
	assert_null(cache.etag);
	got_release(&g);
	onlist_http_cache_release(&cache);

	/* past curl's 100 KB header limit: refused, and said so (it was
	 * "Out of memory") */
	g = fetch_to("/hugeetag/big.txt", NULL, NULL, &cache, 0);
	assert_int_equal(g.st, ONLIST_EHTTP);
	assert_non_null(strstr(g.err, "header"));
	assert_null(strstr(g.err, "memory"));
	assert_int_equal(stat_of("/hugeetag/big.txt", "count"), 1);	/* not retried */
	got_release(&g);
	onlist_http_cache_release(&cache);

	g = fetch_to("/ctletag/big.txt", NULL, NULL, &cache, 0);
	assert_new(&g, big_txt);
	assert_null(cache.etag);
	got_release(&g);
	onlist_http_cache_release(&cache);

	/* as if an older onlist had stored a hostile one */
	cache.etag = strdup("\"x\"\r\nX-Injected: 1");
	cache.last_modified = strdup("Thu, 01 Jan 1970\r\nX-Injected: 2");
	g = fetch_to("/etag/big.txt?t=inject", NULL, NULL, &cache, 0);
	assert_new(&g, big_txt);
	assert_int_equal(stat_of("/etag/big.txt?t=inject", "conditional"), 0);
	got_release(&g);
	onlist_http_cache_release(&cache);
}

static void test_429_honours_retry_after(void **state)
{
	struct got g = fetch("/429/big.txt");

	(void)state;
	assert_new(&g, big_txt);
	assert_int_equal(stat_of("/429/big.txt", "count"), 2);
	assert_true(g.secs >= 0.9);	/* Retry-After: 1, backoff 0.01 */
	got_release(&g);
}

/* ---- cases: resuming a .part from an earlier run ------------------- */

static void test_resume_part(void **state)
{
	struct got g = prepared("resume"), r;
	char *js;

	(void)state;
	{
		size_t len;
		char *data = read_file(big_txt, &len);

		write_part(&g, data, len / 2);
		free(data);
	}
	r = fetch_to("/big.txt?t=resume", g.dest, NULL, NULL, 0);
	assert_new(&r, big_txt);
	js = stats("/big.txt?t=resume");
	assert_contains(js, "\"count\": 1");
	{
		char want[64];

		snprintf(want, sizeof(want), "bytes=%zu-", big_len / 2);
		assert_contains(js, want);
	}
	free(js);
	got_release(&r);
	got_release(&g);
}

/* Out of retries on a dropped connection: .part stays for the next run. */
static void test_drop_keeps_part_for_later(void **state)
{
	struct onlist_http_opts o = quick_opts();
	struct got g, r;

	(void)state;
	o.retries = 0;
	g = fetch_to("/drop/big.txt?t=keep", NULL, &o, NULL, 0);
	assert_int_equal(g.st, ONLIST_EHTTP);
	assert_contains(g.err, "connection closed before the end");
	assert_false(exists(g.dest));
	assert_true(exists(g.part));
	r = fetch_to("/drop/big.txt?t=keep", g.dest, &o, NULL, 0);
	assert_new(&r, big_txt);
	assert_int_equal(stat_of("/drop/big.txt?t=keep", "count"), 2);
	assert_int_equal(stat_of("/drop/big.txt?t=keep", "ranges"), 1);
	got_release(&r);
	got_release(&g);
}

static void test_norange_restarts(void **state)
{
	struct got g = prepared("norange"), r;

	(void)state;
	write_part(&g, "line 0 of something else entirely\n", 35);
	r = fetch_to("/norange/big.txt", g.dest, NULL, NULL, 0);
	assert_new(&r, big_txt);
	/* The Range request got a 200; the second asked from zero. */
	assert_int_equal(stat_of("/norange/big.txt", "count"), 2);
	assert_int_equal(stat_of("/norange/big.txt", "ranges"), 1);
	got_release(&r);
	got_release(&g);
}

static void test_resumed_bad_gzip_restarts(void **state)
{
	struct got g = prepared("badresume.gz"), r;
	char junk[4000];

	(void)state;
	memset(junk, 'x', sizeof(junk));
	junk[0] = 0x1f;
	junk[1] = (char)0x8b;
	write_part(&g, junk, sizeof(junk));
	r = fetch_to("/big.txt.gz?t=badresume", g.dest, NULL, NULL, 0);
	assert_new(&r, big_gz);
	assert_int_equal(stat_of("/big.txt.gz?t=badresume", "count"), 2);
	assert_int_equal(stat_of("/big.txt.gz?t=badresume", "ranges"), 1);
	got_release(&r);
	got_release(&g);
}

static void test_part_longer_than_file(void **state)
{
	struct got g = prepared("toolong"), r;
	char *pad = calloc(1, big_len + 10);

	(void)state;
	write_part(&g, pad, big_len + 10);	/* the server answers 416 */
	free(pad);
	r = fetch_to("/big.txt?t=416", g.dest, NULL, NULL, 0);
	assert_new(&r, big_txt);
	assert_int_equal(stat_of("/big.txt?t=416", "count"), 2);
	got_release(&r);
	got_release(&g);
}

/* ---- cases: conditional requests ----------------------------------- */

static void test_not_modified(void **state)
{
	struct onlist_http_cache cache = { NULL, NULL };
	struct got g, r;
	size_t len;
	char *d;

	(void)state;
	g = fetch_to("/etag/big.txt", NULL, NULL, &cache, 0);
	assert_new(&g, big_txt);
	assert_non_null(cache.etag);
	assert_non_null(cache.last_modified);
	assert_int_equal(stat_of("/etag/big.txt", "conditional"), 0);

	write_file(g.dest, "mine", 4);
	r = fetch_to("/etag/big.txt", g.dest, NULL, &cache, 0);
	assert_int_equal(r.st, ONLIST_OK);
	assert_int_equal(r.result, ONLIST_HTTP_NOT_MODIFIED);
	d = read_file(g.dest, &len);
	assert_string_equal(d, "mine");
	free(d);
	assert_false(exists(g.part));
	assert_int_equal(stat_of("/etag/big.txt", "conditional"), 1);
	got_release(&r);

	/* Last-Modified alone is enough. */
	free(cache.etag);
	cache.etag = NULL;
	r = fetch_to("/etag/big.txt", g.dest, NULL, &cache, 0);
	assert_int_equal(r.result, ONLIST_HTTP_NOT_MODIFIED);
	assert_int_equal(stat_of("/etag/big.txt", "conditional"), 2);
	got_release(&r);

	/* The caller may keep the validators without the file (onlist
	 * fetch imports and deletes it); a stale .part goes. */
	unlink(g.dest);
	write_part(&g, "stale", 5);
	r = fetch_to("/etag/big.txt", g.dest, NULL, &cache, 0);
	assert_int_equal(r.result, ONLIST_HTTP_NOT_MODIFIED);
	assert_false(exists(g.dest));
	assert_false(exists(g.part));
	assert_non_null(cache.last_modified);
	got_release(&r);

	/* A changed file: new body, new validators. */
	onlist_http_cache_release(&cache);
	cache.last_modified = strdup("Thu, 01 Jan 1970 00:00:00 GMT");
	cache.etag = strdup("\"old\"");
	r = fetch_to("/etag/big.txt", g.dest, NULL, &cache, 0);
	assert_new(&r, big_txt);
	assert_int_equal(stat_of("/etag/big.txt", "conditional"), 4);
	assert_non_null(cache.etag);
	assert_string_not_equal(cache.etag, "\"old\"");
	assert_string_not_equal(cache.last_modified,
				"Thu, 01 Jan 1970 00:00:00 GMT");
	got_release(&r);

	onlist_http_cache_release(&cache);
	assert_null(cache.etag);
	onlist_http_cache_release(NULL);
	got_release(&g);
}

/* ---- cases: failures ----------------------------------------------- */

static void test_404_is_not_an_error(void **state)
{
	struct got g = fetch("/status/404"), m = fetch("/no-such-file");

	(void)state;
	assert_int_equal(g.st, ONLIST_OK);
	assert_int_equal(g.result, ONLIST_HTTP_NOT_FOUND);
	assert_false(exists(g.dest));
	assert_false(exists(g.part));
	assert_int_equal(m.result, ONLIST_HTTP_NOT_FOUND);
	assert_int_equal(stat_of("/status/404", "count"), 1);
	got_release(&g);
	got_release(&m);
}

static void test_500_forever(void **state)
{
	struct got g = fetch("/status/500");

	(void)state;
	assert_failed(&g, ONLIST_EHTTP, "HTTP 500 Internal Server Error");
	assert_contains(g.err, "/status/500: ");
	assert_contains(g.err, "4 attempts");
	assert_int_equal(stat_of("/status/500", "count"), 4);
	got_release(&g);
}

static void test_too_few_retries(void **state)
{
	struct onlist_http_opts o = quick_opts();
	struct got g;

	(void)state;
	o.retries = 2;
	g = fetch_to("/flaky/3/big.txt?t=few", NULL, &o, NULL, 0);
	assert_failed(&g, ONLIST_EHTTP, "HTTP 500");
	assert_int_equal(stat_of("/flaky/3/big.txt?t=few", "count"), 3);
	got_release(&g);
}

static void test_4xx_not_retried(void **state)
{
	struct got g = fetch("/status/403");

	(void)state;
	assert_failed(&g, ONLIST_EHTTP, "HTTP 403 Forbidden");
	assert_int_equal(stat_of("/status/403", "count"), 1);
	got_release(&g);
}

static void test_bad_gzip_forever(void **state)
{
	struct got g = fetch("/bad.gz");

	(void)state;
	assert_failed(&g, ONLIST_EHTTP, "gzip");
	assert_int_equal(stat_of("/bad.gz", "count"), 4);
	got_release(&g);
}

static void test_redirect_loop(void **state)
{
	struct got g = fetch("/redirect-loop");

	(void)state;
	assert_failed(&g, ONLIST_EHTTP, "more than 5 redirects");
	assert_int_equal(stat_of("/redirect-loop", "count"), 6);
	got_release(&g);
}

static void test_redirect_to_ftp_refused(void **state)
{
	struct got g = fetch("/redirect-ftp");

	(void)state;
	assert_failed(&g, ONLIST_EHTTP, "not http or https");
	assert_int_equal(stat_of("/redirect-ftp", "count"), 1);
	got_release(&g);
}

static void test_only_http_urls(void **state)
{
	struct got g = fetch("ftp://127.0.0.1/big.txt");

	(void)state;
	assert_failed(&g, ONLIST_EHTTP, "only http and https");
	got_release(&g);
}

static void test_size_cap(void **state)
{
	static const char *keys[] = {
		"/big/big.txt",		/* declares 16 GiB: refused at once */
		"/nolength/big.txt",	/* no length: stopped at the cap */
		"/big.txt?t=cap",	/* declares 1 MB */
	};
	struct onlist_http_opts o = quick_opts();
	size_t i;

	(void)state;
	o.max_bytes = 100000;
	for (i = 0; i < 3; i++) {
		struct got g = fetch_to(keys[i], NULL, &o, NULL, 0);

		assert_failed(&g, ONLIST_EHTTP,
			      "larger than the 100000-byte cap");
		assert_int_equal(stat_of(keys[i], "count"), 1);
		got_release(&g);
	}
}

static void test_gzip_bomb(void **state)
{
	/* This checks the refusal, not stall handling: under a loaded
	 * machine (tests run in parallel) a one-second stall limit could
	 * fire and retry, and the request count below would be 2. */
	struct onlist_http_opts o = quick_opts();
	struct got g;

	(void)state;
	o.stall_timeout = 30;
	g = fetch_to("/bomb", NULL, &o, NULL, 0);
	print_message("  bomb: %.2fs\n", g.secs);
	assert_failed(&g, ONLIST_EHTTP, "gzip bomb");
	assert_int_equal(stat_of("/bomb", "count"), 1);
	got_release(&g);
}

static void test_connection_refused(void **state)
{
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	char url[64];
	struct got g;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)state;
	/* A port that was free a moment ago and has nobody listening. */
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &salen), 0);
	close(fd);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/x",
		 ntohs(sa.sin_port));
	g = fetch(url);
	assert_failed(&g, ONLIST_EHTTP, "connection refused");
	assert_contains(g.err, "4 attempts");
	assert_true(g.secs < slow(2));
	got_release(&g);
}

static void test_unresolvable_host(void **state)
{
	struct got g = fetch("http://nonexistent.invalid/x");

	(void)state;
	assert_failed(&g, ONLIST_EHTTP,
		      "could not resolve host nonexistent.invalid");
	assert_true(g.secs < slow(0.5));	/* not retried */
	got_release(&g);
}

static void test_disk_error(void **state)
{
	struct rlimit old, small;
	void (*was)(int);
	struct got g;

	(void)state;
	/* RLIMIT_FSIZE makes write() fail with EFBIG, as ENOSPC would. */
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small = old;
	small.rlim_cur = 65536;
	was = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	g = fetch("/big.txt?t=disk");
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, was);
	assert_failed(&g, ONLIST_EIO, "cannot write");
	assert_contains(g.err, ".part: File too large");
	assert_int_equal(stat_of("/big.txt?t=disk", "count"), 1);
	got_release(&g);
}

static void test_pace(void **state)
{
	struct onlist_http_opts o = quick_opts();
	struct got a, b;

	(void)state;
	o.pace = 0.3;
	a = fetch_to("/empty.txt?t=pace1", NULL, &o, NULL, 0);
	b = fetch_to("/empty.txt?t=pace2", NULL, &o, NULL, 0);
	assert_int_equal(a.st, ONLIST_OK);
	assert_int_equal(b.st, ONLIST_OK);
	assert_true(b.secs >= 0.25);
	got_release(&a);
	got_release(&b);
}

static void test_tls_verification(void **state)
{
	char *cert = path_in(tmpdir, "cert.pem"), *key = path_in(tmpdir,
								 "key.pem");
	char *cmd, url[64];
	struct onlist_http_opts o = quick_opts();
	struct got g;
	pid_t pid = -1;
	int tls_port;

	(void)state;
	assert_true(asprintf(&cmd, "openssl req -x509 -newkey rsa:2048 "
			     "-nodes -days 2 -subj /CN=127.0.0.1 -keyout %s "
			     "-out %s >/dev/null 2>&1", key, cert) > 0);
	if (system(cmd) != 0) {
		free(cmd);
		free(cert);
		free(key);
		skip();
	}
	free(cmd);
	tls_port = start_server(&pid, cert, key);
	assert_true(tls_port > 0);
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/big.txt", tls_port);

	g = fetch(url);
	assert_failed(&g, ONLIST_EHTTP, "TLS certificate verification failed");
	assert_contains(g.err, "--insecure only if you trust the server");
	assert_true(g.secs < slow(2));	/* not retried */
	got_release(&g);

	o.insecure = 1;
	g = fetch_to(url, NULL, &o, NULL, 0);
	assert_new(&g, big_txt);
	got_release(&g);

	/* an https URL redirected to plain http: refused, not followed */
	snprintf(url, sizeof(url), "https://127.0.0.1:%d/redirect-http/%d/"
		 "big.txt", tls_port, port);
	g = fetch_to(url, NULL, &o, NULL, 0);
	assert_failed(&g, ONLIST_EHTTP, "not https");
	got_release(&g);

	stop_server(pid);
	free(cert);
	free(key);
}

/* ---- fixtures and server ------------------------------------------- */

static int setup(void **state)
{
	char *empty, *multi, *bad, *data, *p;
	size_t len;
	unsigned x = 12345;
	int i;

	(void)state;
	/* curl honours these; the test server is reached directly. */
	unsetenv("http_proxy");
	unsetenv("https_proxy");
	unsetenv("HTTPS_PROXY");
	unsetenv("all_proxy");
	unsetenv("ALL_PROXY");
	if (!mkdtemp(tmpdir))
		return -1;
	www = path_in(tmpdir, "www");
	if (mkdir(www, 0777) < 0)
		return -1;

	/* ~1 MB of text lines, different enough to compress like mail. */
	data = malloc(1100000);
	p = data;
	for (i = 0; p - data < 1000000; i++) {
		x = x * 1103515245 + 12345;
		p += sprintf(p, "%06d From: someone%u@example.org "
			     "Subject: [PATCH %u/%u] fix %08x\n", i,
			     x % 97, x % 13, 13 + x % 7, x);
	}
	big_len = (size_t)(p - data);
	big_txt = path_in(www, "big.txt");
	write_file(big_txt, data, big_len);
	free(data);

	big_gz = path_in(www, "big.txt.gz");
	gzip_file(big_txt, big_gz, "wb9");

	empty = path_in(www, "empty.txt");
	write_file(empty, "", 0);

	/* Two gzip members, one after the other. */
	multi = path_in(www, "multi.gz");
	gzip_file(big_txt, multi, "wb1");
	gzip_file(big_txt, multi, "ab9");

	/* A gzip stream missing its last 100 bytes. */
	bad = path_in(www, "bad.gz");
	data = read_file(big_gz, &len);
	write_file(bad, data, len - 100);
	free(data);

	free(empty);
	free(multi);
	free(bad);

	onlist_http_init();
	port = start_server(&server_pid, NULL, NULL);
	return port > 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd;

	(void)state;
	stop_server(server_pid);
	onlist_http_cleanup();
	if (asprintf(&cmd, "rm -rf '%s'", tmpdir) > 0) {
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
		free(cmd);
	}
	free(www);
	free(big_txt);
	free(big_gz);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_get),
		cmocka_unit_test(test_empty_body),
		cmocka_unit_test(test_post),
		cmocka_unit_test(test_redirects_followed),
		cmocka_unit_test(test_multi_member_gzip),
		cmocka_unit_test(test_faults_recovered),
		cmocka_unit_test(test_429_honours_retry_after),
		cmocka_unit_test(test_drip_is_a_stall),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_validators_sane),
		cmocka_unit_test(test_resume_part),
		cmocka_unit_test(test_drop_keeps_part_for_later),
		cmocka_unit_test(test_norange_restarts),
		cmocka_unit_test(test_resumed_bad_gzip_restarts),
		cmocka_unit_test(test_part_longer_than_file),
		cmocka_unit_test(test_not_modified),
		cmocka_unit_test(test_404_is_not_an_error),
		cmocka_unit_test(test_500_forever),
		cmocka_unit_test(test_too_few_retries),
		cmocka_unit_test(test_4xx_not_retried),
		cmocka_unit_test(test_bad_gzip_forever),
		cmocka_unit_test(test_redirect_loop),
		cmocka_unit_test(test_redirect_to_ftp_refused),
		cmocka_unit_test(test_only_http_urls),
		cmocka_unit_test(test_size_cap),
		cmocka_unit_test(test_gzip_bomb),
		cmocka_unit_test(test_connection_refused),
		cmocka_unit_test(test_unresolvable_host),
		cmocka_unit_test(test_disk_error),
		cmocka_unit_test(test_pace),
		cmocka_unit_test(test_tls_verification),
	};

	if (system("python3 -c '' >/dev/null 2>&1") != 0) {
		fprintf(stderr, "python3 is needed to run the test server\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
