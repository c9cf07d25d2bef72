/* paths.c - the path a commit took to the mainline, and the marks that
 * make an off-list commit matter (paths.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "onlist/paths.h"
#include "onlist/store_paths.h"

/* ---- text ---------------------------------------------------------- */

static char *dupn(const char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static int istarts(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

/* "https://user@Host/a/b.git/" -> "host/a/b"; "git@host:a/b" ->
 * "host/a/b".  n > 0. */
static void norm_url(const char *u, char *buf, size_t n)
{
	const char *p = strstr(u, "://"), *at, *end;
	size_t k = 0, hostlen;
	int scp = 0;

	p = p ? p + 3 : u;
	end = p + strcspn(p, "/");
	if ((at = memchr(p, '@', (size_t)(end - p))))
		p = at + 1;
	/* scp-like "host:path" (no scheme): the colon ends the host */
	if (!strstr(u, "://")) {
		const char *colon = strchr(p, ':');

		if (colon && colon < p + strcspn(p, "/")) {
			end = colon;
			scp = 1;
		}
	}
	if (!strstr(u, "://") && !scp)
		end = p + strcspn(p, "/");
	hostlen = (size_t)(end - p);
	/* a port is part of no repository's name */
	if (!scp) {
		const char *colon = memchr(p, ':', hostlen);

		if (colon)
			hostlen = (size_t)(colon - p);
	}
	for (size_t i = 0; i < hostlen && k + 1 < n; i++)
		buf[k++] = (char)tolower((unsigned char)p[i]);
	p = end + (scp ? 1 : 0);
	if (scp && k + 1 < n)
		buf[k++] = '/';
	for (; *p && !isspace((unsigned char)*p) && k + 1 < n; p++)
		if (!(*p == '/' && k && buf[k - 1] == '/'))
			buf[k++] = *p;
	buf[k] = '\0';
	while (k && buf[k - 1] == '/')
		buf[--k] = '\0';
	if (k > 4 && !strcmp(buf + k - 4, ".git"))
		buf[k - 4] = '\0';
}

int onlist_tree_same(const char *a, const char *b)
{
	char x[512], y[512];

	if (!a || !b)
		return 0;
	norm_url(a, x, sizeof x);
	norm_url(b, y, sizeof y);
	return *x && !strcmp(x, y);
}

static const char *bare_ref(const char *r)
{
	if (starts(r, "refs/"))
		r += 5;
	if (starts(r, "tags/"))
		r += 5;
	else if (starts(r, "heads/"))
		r += 6;
	return r;
}

int onlist_ref_same(const char *a, const char *b)
{
	return a && b && *a && !strcmp(bare_ref(a), bare_ref(b));
}

static int forge_host(const char *url)
{
	static const char *const hosts[] = {
		"github.com", "gitlab.com", "codeberg.org", "bitbucket.org",
		"salsa.debian.org", NULL
	};
	char buf[512];
	size_t hl;

	norm_url(url, buf, sizeof buf);
	hl = strcspn(buf, "/");
	for (const char *const *h = hosts; *h; h++)
		if (strlen(*h) == hl && !strncmp(buf, *h, hl))
			return 1;
	return starts(buf, "gitlab.");
}

void onlist_merge_title_release(struct onlist_merge_title *t)
{
	free(t->url);
	free(t->ref);
	free(t->request);
	memset(t, 0, sizeof(*t));
}

/* The first 'quoted' word at p, malloc'd into *out, and in *rest what
 * follows the last quoted word of a list ("'a', 'b' and 'c' of URL").
 * 1, 0 when p holds no quoted word, -1 when out of memory. */
static int quoted(const char *p, char **out, const char **rest)
{
	const char *q, *e;

	*out = NULL;
	if (*p != '\'' || !(e = strchr(p + 1, '\'')))
		return 0;
	if (!(*out = dupn(p + 1, (size_t)(e - p - 1))))
		return -1;
	/* past the other quoted names */
	for (q = e + 1; (q = strchr(q, '\'')) && strchr(q + 1, '\'');) {
		e = strchr(q + 1, '\'');
		q = e + 1;
	}
	*rest = e + 1;
	return 1;
}

onlist_status onlist_merge_parse(const char *subject, const char *request,
				 struct onlist_merge_title *out)
{
	static const char *const kinds[] = {
		"Merge tag ", "Merge tags ", "Merge branch ", "Merge branches ",
		"Merge commit ", "Merge remote branch ",
		"Merge remote-tracking branch ",
		"Merge remote-tracking branches ", NULL
	};
	const char *p, *rest;
	int q;

	memset(out, 0, sizeof(*out));
	if (request && *request) {
		out->kind = ONLIST_MERGE_FORGE;
		if (asprintf(&out->request, "merge request %s", request) < 0) {
			out->request = NULL;
			return ONLIST_ENOMEM;
		}
		return ONLIST_OK;
	}
	if (!subject)
		return ONLIST_OK;
	if (starts(subject, "Merge pull request #") &&
	    isdigit((unsigned char)subject[20])) {
		size_t n = 20 + strspn(subject + 20, "0123456789");

		if (starts(subject + n, " from ")) {
			const char *from = subject + n + 6;
			size_t fl = strcspn(from, " \t");

			out->kind = ONLIST_MERGE_FORGE;
			if (asprintf(&out->request, "pull request #%.*s from %.*s",
				     (int)(n - 20), subject + 20, (int)fl,
				     from) < 0) {
				out->request = NULL;
				return ONLIST_ENOMEM;
			}
			return ONLIST_OK;
		}
	}
	for (const char *const *k = kinds; *k; k++) {
		if (!starts(subject, *k))
			continue;
		p = subject + strlen(*k);
		if ((q = quoted(p, &out->ref, &rest)) <= 0)
			return q < 0 ? ONLIST_ENOMEM : ONLIST_OK;
		if (starts(rest, " of ") && rest[4] &&
		    !isspace((unsigned char)rest[4])) {
			const char *u = rest + 4;

			if (!(out->url = dupn(u, strcspn(u, " \t"))))
				return ONLIST_ENOMEM;
			out->kind = ONLIST_MERGE_TREE;
			out->forge_host = forge_host(out->url);
		} else if (starts(*k, "Merge remote")) {
			/* another tree, fetched under a remote's name */
			out->kind = ONLIST_MERGE_TREE;
		} else {
			out->kind = ONLIST_MERGE_LOCAL;
		}
		return ONLIST_OK;
	}
	return ONLIST_OK;
}

/* What a line reader returns when it found its line but could not copy
 * it. */
static char nomem_mark[1];

static char *dupn_mark(const char *p, size_t n)
{
	char *s = dupn(p, n);

	return s ? s : nomem_mark;
}

/* each_line's answer as the public functions give it. */
static int answer(char *r, char **out)
{
	*out = r == nomem_mark ? NULL : r;
	return r == nomem_mark ? -1 : 0;
}

/* Calls fn on each line of text (without its line end); stops and returns
 * what fn returned when that is non-NULL. */
static char *each_line(const char *text, char *(*fn)(const char *p, size_t n,
						     void *data), void *data)
{
	const char *p = text;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		char *r;

		while (n && p[n - 1] == '\r')
			n--;
		if ((r = fn(p, n, data)))
			return r;
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	return NULL;
}

static char *request_line(const char *p, size_t n, void *data)
{
	static const char key[] = "See merge request ";
	size_t k = sizeof(key) - 1, e;

	(void)data;
	while (n && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	if (n <= k || strncmp(p, key, k))
		return NULL;
	for (e = k; e < n && !isspace((unsigned char)p[e]); e++)
		;
	return strchr(p + k, '!') && (size_t)(strchr(p + k, '!') - p) < e ?
	       dupn_mark(p + k, e - k) : NULL;
}

int onlist_merge_request_line(const char *body, char **out)
{
	return answer(each_line(body, request_line, NULL), out);
}

/* The length of a "Key:" trailer key at p (letters, digits, '-'), with
 * the colon, or 0. */
static size_t trailer_key(const char *p, size_t n)
{
	size_t k = 0;

	while (k < n && (isalnum((unsigned char)p[k]) || p[k] == '-'))
		k++;
	return k && k < n && p[k] == ':' ? k + 1 : 0;
}

static int request_path(const char *u, size_t n)
{
	static const char *const marks[] = {
		"/pull/", "/pulls/", "/merge_requests/", "/pull-requests/", NULL
	};

	for (const char *const *m = marks; *m; m++) {
		size_t ml = strlen(*m);

		for (size_t i = 0; i + ml < n; i++)
			if (!strncmp(u + i, *m, ml) &&
			    isdigit((unsigned char)u[i + ml]))
				return 1;
	}
	return 0;
}

static char *request_url(const char *p, size_t n, void *data)
{
	size_t k = trailer_key(p, n);

	(void)data;
	if (!k)
		return NULL;
	for (size_t i = k; i + 8 < n; i++) {
		size_t e;

		if (strncmp(p + i, "https://", 8) && strncmp(p + i, "http://", 7))
			continue;
		for (e = i; e < n && !isspace((unsigned char)p[e]) &&
		     p[e] != '>' && p[e] != ')'; e++)
			;
		if (request_path(p + i, e - i))
			return dupn_mark(p + i, e - i);
		i = e;
	}
	return NULL;
}

int onlist_forge_request_url(const char *body, char **out)
{
	return answer(each_line(body, request_url, NULL), out);
}

enum mark { M_CVE, M_BOT, M_FIXES, M_STABLE };

static char *trimmed(const char *p, size_t n)
{
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	return dupn_mark(p, n > 200 ? 200 : n);
}

static int has_word(const char *p, size_t n, const char *w)
{
	size_t wl = strlen(w);

	for (size_t i = 0; i + wl <= n; i++)
		if (!strncasecmp(p + i, w, wl))
			return 1;
	return 0;
}

static char *mark_line(const char *p, size_t n, void *data)
{
	enum mark m = *(enum mark *)data;
	static const char *const bots[] = {
		"syzbot", "syzkaller", "oss-fuzz", "ossfuzz", "clusterfuzz",
		"hulk robot", NULL
	};

	while (n && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	switch (m) {
	case M_CVE:
		for (size_t i = 0; i + 13 <= n; i++) {
			size_t d = 0;

			if (strncasecmp(p + i, "CVE-", 4) ||
			    (i && isalnum((unsigned char)p[i - 1])))
				continue;
			while (i + 4 + d < n && d < 4 &&
			       isdigit((unsigned char)p[i + 4 + d]))
				d++;
			if (d != 4 || p[i + 8] != '-')
				continue;
			d = 0;
			while (i + 9 + d < n && isdigit((unsigned char)p[i + 9 + d]))
				d++;
			if (d >= 4 && d <= 7) {
				char *s = dupn_mark(p + i, 9 + d);

				for (char *c = s; s != nomem_mark && c < s + 3; c++)
					*c = (char)toupper((unsigned char)*c);
				return s;
			}
		}
		return NULL;
	case M_BOT:
		if (!istarts(p, "Reported-by:"))
			return NULL;
		for (const char *const *b = bots; *b; b++)
			if (has_word(p, n, *b))
				return trimmed(p, n);
		return NULL;
	case M_FIXES: {
		/* the kernel's "Fixes: <sha> (\"subject\")": a commit, not
		 * a forge's "Fixes: #12" issue */
		size_t i = 6, h = 0;

		if (n < 6 || !istarts(p, "Fixes:"))
			return NULL;
		while (i < n && p[i] == ' ')
			i++;
		while (i + h < n && isxdigit((unsigned char)p[i + h]))
			h++;
		return h >= 7 ? trimmed(p, n) : NULL;
	}
	case M_STABLE:
		return istarts(p, "Cc:") && has_word(p, n, "stable@") ?
		       trimmed(p, n) : NULL;
	}
	return NULL;
}

int onlist_security_mark(const char *body, char **out)
{
	*out = NULL;
	for (enum mark m = M_CVE; m <= M_STABLE; m++) {
		char *r = each_line(body, mark_line, &m);

		if (r)
			return answer(r, out);
	}
	return 0;
}

/* ---- the database side ------------------------------------------------- */

const char *onlist_path_kind_name(enum onlist_path_kind k)
{
	static const char *const names[] = {
		[ONLIST_PATH_UNKNOWN] = "unknown",
		[ONLIST_PATH_DIRECT] = "direct",
		[ONLIST_PATH_LOCAL] = "local_merge",
		[ONLIST_PATH_PULL] = "pull",
		[ONLIST_PATH_UNANNOUNCED] = "unannounced",
		[ONLIST_PATH_FORGE] = "forge",
	};

	return (unsigned)k < sizeof(names) / sizeof(*names) ? names[k] :
	       names[0];
}

void onlist_path_release(struct onlist_path *p)
{
	free(p->merge_sha);
	free(p->merge_subject);
	free(p->pull_msgid);
	free(p->pull_list);
	free(p->url);
	free(p->request);
	memset(p, 0, sizeof(*p));
}

struct pick {
	const char *url;	/* NULL: take the first (by tip) */
	struct onlist_path *out;
	int found, nomem;
};

static int take_pull(const struct onlist_pull_row *r, void *data)
{
	struct pick *k = data;

	if (k->url && !onlist_tree_same(r->url, k->url))
		return 0;
	k->found = 1;
	if ((r->msgid && !(k->out->pull_msgid = strdup(r->msgid))) ||
	    (r->list && !(k->out->pull_list = strdup(r->list))) ||
	    (r->url && !(k->out->url = strdup(r->url))))
		k->nomem = 1;
	k->out->pull_date = r->date;
	return 1;
}

onlist_status onlist_path_of(struct onlist_store *s, const char *sha,
			     const char *body, struct onlist_path *out)
{
	struct onlist_landing_row l;
	struct onlist_merge_title t = { 0 };
	struct pick k = { NULL, out, 0, 0 };
	onlist_status st;

	memset(out, 0, sizeof(*out));
	if ((st = onlist_store_paths_landing_of(s, sha, &l)) != ONLIST_OK)
		return st;
	if (!l.known)
		goto out;
	out->landed_date = l.landed_date;
	if (!l.merge_sha || !strcmp(l.merge_sha, sha)) {
		/* applied directly: a request URL in its own trailers is
		 * the only trace of a forge */
		if (onlist_forge_request_url(body, &out->url) < 0)
			st = ONLIST_ENOMEM;
		out->kind = out->url ? ONLIST_PATH_FORGE : ONLIST_PATH_DIRECT;
		goto out;
	}
	out->merge_sha = l.merge_sha;
	out->merge_subject = l.merge_subject;
	l.merge_sha = l.merge_subject = NULL;
	if ((st = onlist_merge_parse(out->merge_subject, l.merge_request, &t))
	    != ONLIST_OK)
		goto out;
	/* a pull request first: whatever the title says, one whose tip the
	 * merge took is the one it answers */
	if (l.merge_tip && (st = onlist_store_paths_pulls_by_tip(s, l.merge_tip,
				l.landed_date, take_pull, &k)) != ONLIST_OK)
		goto out;
	if (!k.found && t.kind == ONLIST_MERGE_TREE && t.url && t.ref &&
	    *bare_ref(t.ref)) {
		k.url = t.url;
		if ((st = onlist_store_paths_pulls_by_ref(s, bare_ref(t.ref),
				l.landed_date, take_pull, &k)) != ONLIST_OK)
			goto out;
	}
	if (k.nomem) {
		st = ONLIST_ENOMEM;
		goto out;
	}
	if (k.found) {
		out->kind = ONLIST_PATH_PULL;
	} else if (t.kind == ONLIST_MERGE_FORGE) {
		out->kind = ONLIST_PATH_FORGE;
		out->request = t.request;
		t.request = NULL;
	} else if (t.kind == ONLIST_MERGE_TREE) {
		/* a fork on a forge is a contributor's offer there; any
		 * other tree came without a word on the list */
		out->kind = t.forge_host ? ONLIST_PATH_FORGE :
			    ONLIST_PATH_UNANNOUNCED;
		out->url = t.url ? t.url : t.ref;
		if (t.url)
			t.url = NULL;
		else
			t.ref = NULL;
	} else {
		if (onlist_forge_request_url(body, &out->url) < 0)
			st = ONLIST_ENOMEM;
		out->kind = out->url ? ONLIST_PATH_FORGE : ONLIST_PATH_LOCAL;
	}
out:
	onlist_merge_title_release(&t);
	onlist_landing_row_release(&l);
	if (st != ONLIST_OK)
		onlist_path_release(out);
	return st;
}
