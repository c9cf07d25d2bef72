/* remote.c - a commit looked up on a public-inbox server (remote.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <glib.h>

#include "onlist/fetch.h"
#include "onlist/import.h"
#include "onlist/landing.h"
#include "onlist/mail.h"
#include "onlist/match.h"
#include "onlist/msgid.h"
#include "onlist/patchid.h"
#include "onlist/remote.h"
#include "onlist/report.h"
#include "onlist/repo_diff.h"
#include "onlist/repo_scan.h"
#include "onlist/store.h"
#include "onlist/subject.h"

struct onlist_remote {
	struct onlist_store *s;
	char *url;		/* ends with '/' */
	char *list;
	char *repo;
	char *tmpdir;
	struct onlist_remote_opts o;
	long requests;
	long started;		/* time(NULL) at open: answers cached since
				 * are this run's, even with refresh */
	int no_search;		/* the server answered 501 to a search */
	int no_phrase;		/* ... or refused a phrase */
	int marked;		/* the partial source is recorded */
};

/* What the queries need of one commit. */
struct want {
	char sha[41];
	char *addr, *subject;
	int64_t author_date, commit_date, landed;
	GPtrArray *msgids;	/* named by its trailers */
	GPtrArray *pids;	/* distinct patch-ids, myers first */
	int stored;
};

const char *onlist_remote_tier_name(enum onlist_remote_tier t)
{
	switch (t) {
	case ONLIST_REMOTE_LINK: return "link";
	case ONLIST_REMOTE_PATCHID: return "patch-id";
	case ONLIST_REMOTE_AUTHOR_DATE: return "author-date";
	case ONLIST_REMOTE_SUBJECT: return "subject";
	default: return "none";
	}
}

static onlist_status fail(char **errmsg, onlist_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static onlist_status fail(char **errmsg, onlist_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(errmsg, fmt, ap) < 0)
		*errmsg = NULL;
	va_end(ap);
	return st;
}

onlist_status onlist_remote_open(struct onlist_remote **out,
				 struct onlist_store *s,
				 const struct onlist_remote_opts *o,
				 char **errmsg)
{
	struct onlist_remote *r;
	const char *u = o->url, *end, *start;
	char tmpl[] = "onlist-remote.XXXXXX";
	GError *gerr = NULL;

	*out = NULL;
	*errmsg = NULL;
	if (strncmp(u, "http://", 7) && strncmp(u, "https://", 8))
		return fail(errmsg, ONLIST_EPARSE, "--remote wants an http:// "
			    "or https:// inbox URL (https://lore.kernel.org/all/), "
			    "not '%s'", u);
	r = g_new0(struct onlist_remote, 1);
	r->s = s;
	r->o = *o;
	r->url = g_str_has_suffix(u, "/") ? g_strdup(u) : g_strconcat(u, "/", NULL);
	/* the inbox's name: the last path component */
	end = r->url + strlen(r->url) - 1;
	start = end;
	while (start > r->url && start[-1] != '/')
		start--;
	r->list = end > start && start > strstr(r->url, "//") + 2 ?
		g_strndup(start, (size_t)(end - start)) : g_strdup("remote");
	r->repo = g_strdup(o->repo ? o->repo : ".");
	r->o.url = r->url;
	r->o.repo = r->repo;
	r->started = (long)time(NULL);
	if (!(r->tmpdir = g_dir_make_tmp(tmpl, &gerr))) {
		onlist_status st = fail(errmsg, ONLIST_EIO, "temporary directory: %s",
					gerr->message);

		g_error_free(gerr);
		onlist_remote_free(r);
		return st;
	}
	*out = r;
	return ONLIST_OK;
}

void onlist_remote_free(struct onlist_remote *r)
{
	if (!r)
		return;
	if (r->tmpdir) {
		GDir *d = g_dir_open(r->tmpdir, 0, NULL);
		const char *n;

		while (d && (n = g_dir_read_name(d))) {
			char *p = g_build_filename(r->tmpdir, n, NULL);

			unlink(p);
			g_free(p);
		}
		if (d)
			g_dir_close(d);
		rmdir(r->tmpdir);
	}
	g_free(r->tmpdir);
	g_free(r->url);
	g_free(r->list);
	g_free(r->repo);
	g_free(r);
}

long onlist_remote_requests(const struct onlist_remote *r)
{
	return r->requests;
}

const char *onlist_remote_list(const struct onlist_remote *r)
{
	return r->list;
}

/* ---- the commit ---------------------------------------------------------- */

static void want_release(struct want *w)
{
	g_free(w->addr);
	g_free(w->subject);
	if (w->msgids)
		g_ptr_array_free(w->msgids, TRUE);
	if (w->pids)
		g_ptr_array_free(w->pids, TRUE);
	memset(w, 0, sizeof(*w));
}

static int has_str(GPtrArray *a, const char *s)
{
	for (guint i = 0; i < a->len; i++)
		if (!strcmp(g_ptr_array_index(a, i), s))
			return 1;
	return 0;
}

struct scan_one {
	struct onlist_remote *r;
	struct want *w;
	int put;		/* store it */
	onlist_status st;
};

static int take_commit(const struct onlist_commit *c, void *data)
{
	struct scan_one *x = data;
	struct want *w = x->w;

	snprintf(w->sha, sizeof(w->sha), "%s", c->sha);
	w->addr = g_ascii_strdown(c->author_email ? c->author_email : "", -1);
	w->subject = g_strdup(c->subject ? c->subject : "");
	w->author_date = c->author_date;
	w->commit_date = c->commit_date;
	w->msgids = g_ptr_array_new_with_free_func(free);
	w->pids = g_ptr_array_new_with_free_func(g_free);
	for (size_t i = 0; i < c->ntrailers; i++) {
		const char *k = c->trailers[i].key;
		char *id = NULL;

		if (g_ascii_strcasecmp(k, "Link") && g_ascii_strcasecmp(k, "Message-Id"))
			continue;
		if (onlist_msgid_parse(c->trailers[i].value, &id) == ONLIST_OK &&
		    !has_str(w->msgids, id))
			g_ptr_array_add(w->msgids, id);
		else
			free(id);
	}
	if (c->has_patchid)
		g_ptr_array_add(w->pids, g_strdup(c->patchid));
	if (x->put && onlist_store_put_commit(x->r->s, c) != ONLIST_OK)
		x->st = ONLIST_EDB;
	return 0;
}

static int take_landing(const struct onlist_landing *l, void *data)
{
	struct scan_one *x = data;

	if (strcmp(l->sha, x->w->sha))
		return 0;
	x->w->landed = l->landed_date;
	if (x->put && onlist_store_put_landing(x->r->s, l) != ONLIST_OK)
		x->st = ONLIST_EDB;
	return 1;
}

static int take_diff(const char *sha, const char *diff, size_t len, void *data)
{
	struct want *w = data;
	unsigned char raw[ONLIST_PATCHID_RAWSZ];
	char hex[ONLIST_PATCHID_HEXSZ + 1];

	(void)sha;
	if (onlist_patchid_buf(diff, len, raw)) {
		onlist_patchid_hex(raw, hex);
		if (!has_str(w->pids, hex))
			g_ptr_array_add(w->pids, g_strdup(hex));
	}
	return 0;
}

/* Read sha (stored or not) into w; store it when put. */
static onlist_status read_commit(struct onlist_remote *r, const char *sha,
				 int put, struct want *w, char **errmsg)
{
	static const char *const algs[] = { "histogram", "patience", "minimal" };
	struct onlist_scan_opts so = ONLIST_SCAN_OPTS_INIT;
	struct scan_one x = { r, w, put, ONLIST_OK };
	char *range = g_strdup_printf("%s^!", sha), *err = NULL;
	char one[1][41];
	onlist_status st;

	so.jobs = 1;
	so.each = take_commit;
	so.each_data = &x;
	if (put && onlist_store_begin(r->s) != ONLIST_OK) {
		g_free(range);
		return fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(r->s));
	}
	st = onlist_repo_scan(r->repo, range, &so, errmsg);
	g_free(range);
	if (st == ONLIST_OK && !w->msgids)
		st = fail(errmsg, ONLIST_ENOTFOUND, "%s: not a commit git can "
			  "scan", sha);
	if (st == ONLIST_OK && put) {
		/* where it landed: the first-parent line of HEAD; a commit
		 * HEAD does not hold (or a root) keeps its commit date */
		range = g_strdup_printf("%s^..HEAD", w->sha);
		if (onlist_repo_landings(r->repo, range, take_landing, &x,
					 &err) != ONLIST_OK)
			w->landed = 0;
		free(err);
		g_free(range);
	}
	if (st == ONLIST_OK && x.st != ONLIST_OK)
		st = fail(errmsg, x.st, "%s", onlist_store_errmsg(r->s));
	if (put) {
		if (st == ONLIST_OK && onlist_store_commit(r->s) != ONLIST_OK)
			st = fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(r->s));
		else if (st != ONLIST_OK)
			onlist_store_rollback(r->s);
	}
	if (st != ONLIST_OK)
		return st;
	/* the patch-id a mail made with another diff algorithm has */
	memcpy(one[0], w->sha, 41);
	for (size_t i = 0; i < sizeof(algs) / sizeof(*algs); i++) {
		err = NULL;
		if (onlist_repo_diffs(r->repo, algs[i], (const char (*)[41])one, 1,
				      take_diff, w, &err) != ONLIST_OK) {
			free(err);	/* one algorithm fewer: not fatal */
		}
	}
	return ONLIST_OK;
}

onlist_status onlist_remote_add_commit(struct onlist_remote *r,
				       const char *name, char sha[41],
				       char **errmsg)
{
	char (*shas)[41] = NULL, *spec;
	size_t n = 0;
	onlist_status st;
	struct want w = { 0 };
	int have;

	*errmsg = NULL;
	if (name[0] == '-')
		return fail(errmsg, ONLIST_ENOTFOUND, "%s: not a commit", name);
	spec = g_strdup_printf("%s^!", name);
	st = onlist_repo_rev_list(r->repo, spec, &shas, &n, errmsg);
	g_free(spec);
	if (st != ONLIST_OK || n != 1) {
		free(shas);
		if (st == ONLIST_OK || st == ONLIST_EGIT) {
			free(*errmsg);
			*errmsg = NULL;
			return fail(errmsg, ONLIST_ENOTFOUND, "%s: no such commit "
				    "in %s (merges are not looked up)", name,
				    r->repo);
		}
		return st;
	}
	memcpy(sha, shas[0], 41);
	free(shas);
	if ((have = onlist_store_has_commit(r->s, sha)) < 0)
		return fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(r->s));
	if (have)
		return ONLIST_OK;
	st = read_commit(r, sha, 1, &w, errmsg);
	want_release(&w);
	return st;
}

/* ---- requests and their cache ---------------------------------------------- */

static void mark_partial(struct onlist_remote *r)
{
	char now[24];

	if (r->marked)
		return;
	r->marked = 1;
	snprintf(now, sizeof(now), "%ld", (long)time(NULL));
	onlist_store_set_state(r->s, r->url, "partial", r->list);
	{
		char *had = onlist_store_get_state(r->s, r->url, "partial_added");

		if (!had)
			onlist_store_set_state(r->s, r->url, "partial_added", now);
		free(had);
	}
}

/* The cached answer to key: 1 and *val (the lines after the time; caller
 * frees) when usable, else 0. */
static int cached(struct onlist_remote *r, const char *key, char **val)
{
	char *v = onlist_store_get_state(r->s, r->url, key), *nl;
	long when;

	*val = NULL;
	if (!v)
		return 0;
	when = strtol(v, &nl, 10);
	if (r->o.refresh && when < r->started) {
		free(v);
		return 0;
	}
	*val = g_strdup(*nl == '\n' ? nl + 1 : "");
	free(v);
	return 1;
}

static void remember(struct onlist_remote *r, const char *key, const char *lines)
{
	char *v = g_strdup_printf("%ld\n%s", (long)time(NULL), lines ? lines : "");

	onlist_store_set_state(r->s, r->url, key, v);
	g_free(v);
}

/* One request into dest; *found 0 on 404.  A 501 is ONLIST_ENOTFOUND. */
static onlist_status request(struct onlist_remote *r, const char *url,
			     const char *dest, int post, int *found,
			     char **errmsg)
{
	enum onlist_http_result res;
	onlist_status st;

	r->requests++;
	st = onlist_http_get(url, dest, post, &r->o.http, NULL, &res, errmsg);
	if (st != ONLIST_OK) {
		if (*errmsg && strstr(*errmsg, ": HTTP 501"))
			return ONLIST_ENOTFOUND;
		return st;
	}
	*found = res != ONLIST_HTTP_NOT_FOUND;
	return ONLIST_OK;
}

/* public-inbox's escaping of a Message-ID in a URL path */
static char *mid_path(const char *mid)
{
	return g_uri_escape_string(mid, "!$&'()*+,;=:@", FALSE);
}

/* One message of a downloaded mbox: its id, and whether it has a patch */
struct hit {
	char *msgid;
	int patch;
};

/* The messages of file (an mbox, gzip or not): ids into hits (NULL: not
 * wanted), then all of them imported under the inbox's list. */
static onlist_status import_file(struct onlist_remote *r, const char *file,
				 const char *place, GArray *hits,
				 GString *ids, char **errmsg)
{
	struct onlist_source *src = NULL;
	struct onlist_import_counts c = { 0 };
	struct onlist_raw raw;
	onlist_status st;
	char *err = NULL;

	if ((st = onlist_source_open(&src, file, errmsg)) != ONLIST_OK)
		return st;
	while ((st = onlist_source_next(src, &raw, &err)) == ONLIST_OK) {
		struct onlist_mail *m = NULL;
		struct hit h;

		if (raw.skip || onlist_mail_parse(&m, raw.data, raw.len, &err) !=
		    ONLIST_OK) {
			free(err);
			err = NULL;
			continue;
		}
		h.msgid = g_strdup(onlist_mail_message_id(m));
		h.patch = onlist_mail_patch(m, NULL) != NULL;
		if (!h.patch) {
			/* a cover letter names a series as well */
			struct onlist_subject sj;

			if (!onlist_subject_parse(&sj, onlist_mail_subject(m))) {
				h.patch = sj.patch && !sj.reply && sj.part == 0;
				onlist_subject_clear(&sj);
			}
		}
		if (ids)
			g_string_append_printf(ids, "%s%s\n", h.patch ? "+" : "-",
					       h.msgid);
		if (hits)
			g_array_append_val(hits, h);
		else
			g_free(h.msgid);
		onlist_mail_free(m);
	}
	onlist_source_free(src);
	free(err);
	err = NULL;
	if (st != ONLIST_ENOTFOUND) {
		/* a broken download: what was read is imported below, the
		 * answer is not cached */
	}
	if ((st = onlist_source_open(&src, file, errmsg)) != ONLIST_OK)
		return st;
	mark_partial(r);
	st = onlist_import_source(r->s, src, place, r->list, &c, NULL, NULL,
				  errmsg);
	onlist_source_free(src);
	return st;
}

/* Answers kept as lines "+MSGID" (carries a patch) or "-MSGID". */
static void hits_from_lines(GArray *hits, const char *lines)
{
	gchar **l = g_strsplit(lines, "\n", -1);

	for (gchar **p = l; *p; p++) {
		struct hit h;

		if (!**p)
			continue;
		h.patch = **p == '+';
		h.msgid = g_strdup(*p + 1);
		g_array_append_val(hits, h);
	}
	g_strfreev(l);
}

static void hits_clear(GArray *hits)
{
	for (guint i = 0; i < hits->len; i++)
		g_free(g_array_index(hits, struct hit, i).msgid);
	g_array_set_size(hits, 0);
}

/* GET or POST url, import what it answers and remember it under key.
 * *hits gets the messages.  ONLIST_ENOTFOUND when the server cannot
 * search (501). */
static onlist_status ask(struct onlist_remote *r, const char *key,
			 const char *url, int post, GArray *hits, char **errmsg)
{
	char *lines, *dest;
	int found = 0;
	onlist_status st;
	GString *ids;

	if (cached(r, key, &lines)) {
		hits_from_lines(hits, lines);
		g_free(lines);
		return ONLIST_OK;
	}
	dest = g_build_filename(r->tmpdir, post ? "q.mbox.gz" : "m.mbox", NULL);
	st = request(r, url, dest, post, &found, errmsg);
	if (st != ONLIST_OK) {
		g_free(dest);
		return st;
	}
	ids = g_string_new("");
	if (found) {
		st = import_file(r, dest, url, hits, ids, errmsg);
		unlink(dest);
	}
	if (st == ONLIST_OK)
		remember(r, key, ids->str);
	g_string_free(ids, TRUE);
	g_free(dest);
	return st;
}

/* The thread of msgid, unless a thread fetched before held it. */
static onlist_status fetch_thread(struct onlist_remote *r, const char *msgid,
				  char **errmsg)
{
	char *key = g_strconcat("t:", msgid, NULL), *lines, *p, *url;
	GArray *hits;
	onlist_status st;

	if (cached(r, key, &lines)) {
		g_free(lines);
		g_free(key);
		return ONLIST_OK;
	}
	p = mid_path(msgid);
	url = g_strconcat(r->url, p, "/t.mbox.gz", NULL);
	hits = g_array_new(FALSE, FALSE, sizeof(struct hit));
	st = ask(r, key, url, 0, hits, errmsg);
	/* every message of the thread has its thread now */
	for (guint i = 0; st == ONLIST_OK && i < hits->len; i++) {
		char *k = g_strconcat("t:", g_array_index(hits, struct hit, i).msgid,
				      NULL);

		remember(r, k, "");
		g_free(k);
	}
	hits_clear(hits);
	g_array_free(hits, TRUE);
	g_free(url);
	g_free(p);
	g_free(key);
	return st;
}

static void note(struct onlist_remote *r, const char *line)
{
	if (r->o.note)
		r->o.note(line, r->o.data);
}

/* One search; the threads of the mails with a patch it found.  *any: one
 * such mail. */
static onlist_status search(struct onlist_remote *r, const char *query,
			    int *any, char **errmsg)
{
	char *q = g_uri_escape_string(query, NULL, FALSE);
	char *url = g_strconcat(r->url, "?q=", q, "&x=m", NULL);
	char *key = g_strconcat("q:", query, NULL);
	GArray *hits = g_array_new(FALSE, FALSE, sizeof(struct hit));
	onlist_status st;

	*any = 0;
	st = ask(r, key, url, 1, hits, errmsg);
	if (st == ONLIST_ENOTFOUND) {
		free(*errmsg);
		*errmsg = NULL;
		if (!r->no_search) {
			char *line = g_strdup_printf("%s cannot search (HTTP 501: "
						     "public-inbox index level basic): "
						     "only the Message-IDs commits name "
						     "are looked up", r->url);

			note(r, line);
			g_free(line);
		}
		r->no_search = 1;
		st = ONLIST_OK;
	}
	for (guint i = 0; st == ONLIST_OK && i < hits->len; i++) {
		struct hit *h = &g_array_index(hits, struct hit, i);

		if (!h->patch)
			continue;
		*any = 1;
		st = fetch_thread(r, h->msgid, errmsg);
	}
	hits_clear(hits);
	g_array_free(hits, TRUE);
	g_free(key);
	g_free(url);
	g_free(q);
	return st;
}

static void fmt_time(char *buf, size_t n, int64_t t, const char *fmt)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, n, fmt, &tm);
}

/* A subject as a phrase: the words only (a quote or a query operator in it
 * would end the phrase or change the query). */
static char *phrase(const char *subject)
{
	struct onlist_subject sj;
	GString *g = g_string_new("");
	const char *s;

	if (onlist_subject_parse(&sj, subject))
		return g_string_free(g, TRUE), NULL;
	s = sj.stripped ? sj.stripped : subject;
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch >= 0x80 || g_ascii_isalnum(ch))
			g_string_append_c(g, (char)ch);
		else if (g->len && g->str[g->len - 1] != ' ')
			g_string_append_c(g, ' ');
	}
	while (g->len && g->str[g->len - 1] == ' ')
		g_string_truncate(g, g->len - 1);
	onlist_subject_clear(&sj);
	return g_string_free(g, FALSE);
}

/* An address that is safe in a query: no spaces, quotes or brackets. */
static int plain_addr(const char *a)
{
	return *a && strchr(a, '@') && !strpbrk(a, " \t\"()<>");
}

onlist_status onlist_remote_search(struct onlist_remote *r, const char *sha,
				   enum onlist_remote_tier *tier,
				   char **errmsg)
{
	struct want w = { 0 };
	onlist_status st;
	char a[24], b[24], *q;
	int any = 0, subject_done = 0;

	*errmsg = NULL;
	*tier = ONLIST_REMOTE_NONE;
	if ((st = read_commit(r, sha, 0, &w, errmsg)) != ONLIST_OK)
		return st;
	/* 1: the Message-IDs the commit names */
	for (guint i = 0; i < w.msgids->len && !*tier; i++) {
		const char *mid = g_ptr_array_index(w.msgids, i);
		char *p = mid_path(mid), *url = g_strconcat(r->url, p, "/raw", NULL);
		char *key = g_strconcat("raw:", mid, NULL);
		GArray *hits = g_array_new(FALSE, FALSE, sizeof(struct hit));

		st = ask(r, key, url, 0, hits, errmsg);
		if (st == ONLIST_ENOTFOUND) {
			free(*errmsg);
			*errmsg = NULL;
			st = ONLIST_OK;
		}
		for (guint j = 0; st == ONLIST_OK && j < hits->len; j++) {
			int taken;

			if (!g_array_index(hits, struct hit, j).patch)
				continue;
			/* another project's patch on a shared list is not
			 * this commit's posting: the rule of the link tier
			 * (match.c) says, and the next tiers are asked */
			st = onlist_match_link_taken(r->s, w.sha, mid, &taken,
						     errmsg);
			if (st == ONLIST_OK && taken) {
				*tier = ONLIST_REMOTE_LINK;
				st = fetch_thread(r, mid, errmsg);
			}
			break;
		}
		hits_clear(hits);
		g_array_free(hits, TRUE);
		g_free(key);
		g_free(url);
		g_free(p);
		if (st != ONLIST_OK)
			goto out;
	}
	/* 2: the patch-id under each diff algorithm */
	for (guint i = 0; i < w.pids->len && !*tier && !r->no_search; i++) {
		q = g_strconcat("patchid:", (char *)g_ptr_array_index(w.pids, i), NULL);
		st = search(r, q, &any, errmsg);
		g_free(q);
		if (st != ONLIST_OK)
			goto out;
		if (any)
			*tier = ONLIST_REMOTE_PATCHID;
	}
	/* 3: a mail from the author dated the author date, as git am
	 * would have made the commit of it */
	if (!*tier && !r->no_search && plain_addr(w.addr) && w.author_date > 0) {
		fmt_time(a, sizeof(a), w.author_date, "%Y%m%d%H%M%S");
		q = g_strdup_printf("f:%s AND dt:%s..%s", w.addr, a, a);
		st = search(r, q, &any, errmsg);
		g_free(q);
		if (st != ONLIST_OK)
			goto out;
		if (any)
			*tier = ONLIST_REMOTE_AUTHOR_DATE;
	}
	/* 4: the subject from the author, sent before it landed; asked
	 * also when found, for the other versions of the topic */
	if (!r->no_search && !r->no_phrase && plain_addr(w.addr)) {
		char *ph = phrase(w.subject);
		int64_t bound = (w.landed ? w.landed : w.commit_date) + 86400;

		if (ph && *ph) {
			fmt_time(b, sizeof(b), bound, "%Y%m%d");
			q = g_strdup_printf("s:\"%s\" AND f:%s AND d:..%s", ph,
					    w.addr, b);
			st = search(r, q, &any, errmsg);
			g_free(q);
			if (st == ONLIST_EHTTP && *errmsg &&
			    strstr(*errmsg, ": HTTP 4")) {
				/* a server that refuses the phrase: say so once */
				char *line = g_strdup_printf("%s cannot search by "
							     "phrase (public-inbox "
							     "index level medium?): "
							     "the subject tier is "
							     "skipped", r->url);

				note(r, line);
				g_free(line);
				free(*errmsg);
				*errmsg = NULL;
				r->no_phrase = 1;
				st = ONLIST_OK;
				any = 0;
			}
			subject_done = 1;
			if (st == ONLIST_OK && any && !*tier)
				*tier = ONLIST_REMOTE_SUBJECT;
		}
		g_free(ph);
		if (st != ONLIST_OK)
			goto out;
	}
	(void)subject_done;
	if (!r->no_search)
		onlist_store_set_state(r->s, ONLIST_REMOTE_ASKED, w.sha, r->url);
out:
	want_release(&w);
	return st;
}
