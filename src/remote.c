/* remote.c - a commit looked up on a public-inbox server (remote.h): the
 * handle, requests and their cached answers, what the server can do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <glib.h>

#include "onlist/http.h"
#include "onlist/import.h"
#include "onlist/mail.h"
#include "onlist/patchid.h"
#include "onlist/pi_epoch.h"
#include "onlist/store.h"
#include "onlist/subject.h"
#include "remote_int.h"

const char *onlist_remote_tier_name(enum onlist_remote_tier t)
{
	switch (t) {
	case ONLIST_REMOTE_LINK: return "link";
	case ONLIST_REMOTE_PATCHID: return "patch-id";
	case ONLIST_REMOTE_AUTHOR_DATE: return "author-date";
	case ONLIST_REMOTE_SUBJECT: return "subject";
	case ONLIST_REMOTE_FUZZY: return "fuzzy";
	default: return "none";
	}
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
		return onlist_fail(errmsg, ONLIST_EPARSE, "--remote wants an http:// "
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
	r->search = r->phrase = r->words = r->patchid = -1;
	if (!(r->tmpdir = g_dir_make_tmp(tmpl, &gerr))) {
		onlist_status st = onlist_fail(errmsg, ONLIST_EIO, "temporary directory: %s",
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
int onlist__remote_cached(struct onlist_remote *r, const char *key, char **val)
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
char *onlist__remote_mid_path(const char *mid)
{
	return g_uri_escape_string(mid, "!$&'()*+,;=:@", FALSE);
}

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
				onlist_subject_release(&sj);
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

void onlist__remote_hits_clear(GArray *hits)
{
	for (guint i = 0; i < hits->len; i++)
		g_free(g_array_index(hits, struct hit, i).msgid);
	g_array_set_size(hits, 0);
}

/* GET or POST url, import what it answers and remember it under key.
 * *hits gets the messages.  ONLIST_ENOTFOUND when the server cannot
 * search (501). */
onlist_status onlist__remote_ask(struct onlist_remote *r, const char *key,
			 const char *url, int post, GArray *hits, char **errmsg)
{
	char *lines, *dest;
	int found = 0;
	onlist_status st;
	GString *ids;

	if (onlist__remote_cached(r, key, &lines)) {
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
onlist_status onlist__remote_thread(struct onlist_remote *r, const char *msgid,
				  char **errmsg)
{
	char *key = g_strconcat("t:", msgid, NULL), *lines, *p, *url;
	GArray *hits;
	onlist_status st;

	if (onlist__remote_cached(r, key, &lines)) {
		g_free(lines);
		g_free(key);
		return ONLIST_OK;
	}
	p = onlist__remote_mid_path(msgid);
	url = g_strconcat(r->url, p, "/t.mbox.gz", NULL);
	hits = g_array_new(FALSE, FALSE, sizeof(struct hit));
	st = onlist__remote_ask(r, key, url, 0, hits, errmsg);
	/* every message of the thread has its thread now */
	for (guint i = 0; st == ONLIST_OK && i < hits->len; i++) {
		char *k = g_strconcat("t:", g_array_index(hits, struct hit, i).msgid,
				      NULL);

		remember(r, k, "");
		g_free(k);
	}
	onlist__remote_hits_clear(hits);
	g_array_free(hits, TRUE);
	g_free(url);
	g_free(p);
	g_free(key);
	return st;
}

/* One line for the user, "URL what": each kind once per run. */
void onlist__remote_note(struct onlist_remote *r, const char *line)
{
	char *l;

	if (!r->o.note)
		return;
	l = g_strdup_printf("%s %s", r->url, line);
	r->o.note(l, r->o.data);
	g_free(l);
}

/* One search; the threads of the mails with a patch it found, unless
 * nothreads (tier 5: the fuzzy tier's pick is fetched after).  *any: one
 * such mail.  *refused: the server answered 4xx other than 404 (a query
 * it cannot parse): not answered, not an error.  A 501 (no search at
 * all) is said once and sets r->search to 0. */
onlist_status onlist__remote_query(struct onlist_remote *r, const char *query,
			    int nothreads, int *any, int *refused,
			    char **errmsg)
{
	char *q = g_uri_escape_string(query, NULL, FALSE);
	char *url = g_strconcat(r->url, "?q=", q, "&x=m", NULL);
	char *key = g_strconcat("q:", query, NULL);
	GArray *hits = g_array_new(FALSE, FALSE, sizeof(struct hit));
	onlist_status st;

	*any = 0;
	*refused = 0;
	st = onlist__remote_ask(r, key, url, 1, hits, errmsg);
	if (st == ONLIST_ENOTFOUND) {
		free(*errmsg);
		*errmsg = NULL;
		if (r->search != 0) {
			onlist__remote_note(r, "cannot search (HTTP 501: public-inbox index "
			     "level basic): only the Message-IDs commits name "
			     "are looked up; the rest is unknown");
			/* it could once, the probe said: not any more */
			r->search = r->phrase = r->words = r->patchid = 0;
			onlist__remote_caps_keep(r);
		}
		st = ONLIST_OK;
	} else if (st == ONLIST_EHTTP && *errmsg && strstr(*errmsg, ": HTTP 4")) {
		free(*errmsg);
		*errmsg = NULL;
		*refused = 1;
		st = ONLIST_OK;
	}
	for (guint i = 0; st == ONLIST_OK && i < hits->len; i++) {
		struct hit *h = &g_array_index(hits, struct hit, i);

		if (!h->patch)
			continue;
		*any = 1;
		if (!nothreads)
			st = onlist__remote_thread(r, h->msgid, errmsg);
	}
	onlist__remote_hits_clear(hits);
	g_array_free(hits, TRUE);
	g_free(key);
	g_free(url);
	g_free(q);
	return st;
}

void onlist__remote_fmt_time(char *buf, size_t n, int64_t t, const char *fmt)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, n, fmt, &tm);
}

/* The subject without its [PATCH ...] tags and Re:, as written. */
static char *stripped(const char *subject)
{
	struct onlist_subject sj;
	char *out;

	if (onlist_subject_parse(&sj, subject))
		return NULL;
	out = g_strdup(sj.stripped ? sj.stripped : subject);
	onlist_subject_release(&sj);
	return out;
}

/* A subject as a phrase for s:"...": its text as written.  public-inbox's
 * query parser splits a phrase into terms the way its indexer split the
 * subject ("don't" one term, "autoconf:" the term autoconf, brackets,
 * "OR", "f:x" and non-ASCII words plain words; tests/t035-remote-probe.sh
 * asks a real server), so taking out punctuation loses the mail ("don t"
 * is two terms no subject has).  Only a '"' would end the phrase: it
 * becomes a space, as it is no part of a term.  NULL when nothing is
 * left. */
char *onlist__remote_phrase(const char *subject)
{
	char *s = stripped(subject), *p;
	GString *g = g_string_new("");

	for (p = s; p && *p; p++) {
		char ch = *p == '"' || g_ascii_isspace(*p) ? ' ' : *p;

		if (ch == ' ' && (!g->len || g->str[g->len - 1] == ' '))
			continue;
		if ((unsigned char)ch < 0x20 || ch == 0x7f)
			continue;
		g_string_append_c(g, ch);
	}
	while (g->len && g->str[g->len - 1] == ' ')
		g_string_truncate(g, g->len - 1);
	g_free(s);
	if (!g->len)
		return g_string_free(g, TRUE), NULL;
	return g_string_free(g, FALSE);
}

/* The subject for a server without phrase search: "s:W1 AND s:W2 ...",
 * each word a run of letters, digits, non-ASCII bytes and '_', with an
 * apostrophe between letters kept (the terms the indexer made).  NULL
 * when it has no word. */
char *onlist__remote_words(const char *subject)
{
	char *s = stripped(subject);
	GString *g = g_string_new("");
	const char *p = s;

	while (p && *p) {
		const char *b = p;

		while (*p && ((unsigned char)*p >= 0x80 || g_ascii_isalnum(*p) ||
			      *p == '_' || (*p == '\'' && p > b && p[1] &&
					    (g_ascii_isalnum(p[1]) ||
					     (unsigned char)p[1] >= 0x80))))
			p++;
		if (p > b)
			g_string_append_printf(g, "%ss:%.*s", g->len ? " AND " : "",
					       (int)(p - b), b);
		else
			p++;
	}
	g_free(s);
	if (!g->len)
		return g_string_free(g, TRUE), NULL;
	return g_string_free(g, FALSE);
}

/* An address that is safe in a query: no spaces, quotes or brackets. */
int onlist__remote_plain_addr(const char *a)
{
	return *a && strchr(a, '@') && !strpbrk(a, " \t\"()<>");
}

/* ---- what the server can do ------------------------------------------------ */

/* new.atom's entries: title and the Message-ID its link names */
struct atom {
	int in_entry, in_title;
	GString *title;
	char *msgid;
	GPtrArray *titles, *msgids;
};

static void atom_start(GMarkupParseContext *ctx, const char *el,
		       const char **names, const char **values, void *data,
		       GError **err)
{
	struct atom *a = data;

	(void)ctx;
	(void)err;
	if (!strcmp(el, "entry")) {
		a->in_entry = 1;
		g_string_truncate(a->title, 0);
		g_free(a->msgid);
		a->msgid = NULL;
	} else if (a->in_entry && !strcmp(el, "title")) {
		a->in_title = 1;
	} else if (a->in_entry && !strcmp(el, "link")) {
		for (int i = 0; names[i]; i++) {
			const char *h = values[i], *e;

			if (strcmp(names[i], "href"))
				continue;
			/* .../INBOX/MSGID/: the last component, unescaped;
			 * the host of the link is not used */
			e = h + strlen(h);
			if (e > h && e[-1] == '/')
				e--;
			for (const char *b = e; b > h; b--)
				if (b[-1] == '/') {
					char *esc = g_strndup(b, (size_t)(e - b));

					g_free(a->msgid);
					a->msgid = g_uri_unescape_string(esc, NULL);
					g_free(esc);
					break;
				}
		}
	}
}

static void atom_end(GMarkupParseContext *ctx, const char *el, void *data,
		     GError **err)
{
	struct atom *a = data;

	(void)ctx;
	(void)err;
	if (!strcmp(el, "title"))
		a->in_title = 0;
	else if (!strcmp(el, "entry") && a->in_entry) {
		a->in_entry = 0;
		if (a->title->len && a->msgid && *a->msgid) {
			g_ptr_array_add(a->titles, g_strdup(a->title->str));
			g_ptr_array_add(a->msgids, a->msgid);
			a->msgid = NULL;
		}
	}
}

static void atom_text(GMarkupParseContext *ctx, const char *text, gsize len,
		      void *data, GError **err)
{
	struct atom *a = data;

	(void)ctx;
	(void)err;
	if (a->in_title && a->title->len < 4096)
		g_string_append_len(a->title, text, (gssize)len);
}

/* The entries of the feed in file (any that parse before an error). */
static void atom_read(const char *file, struct atom *a)
{
	static const GMarkupParser p = { atom_start, atom_end, atom_text,
					 NULL, NULL };
	GMarkupParseContext *ctx;
	char *text = NULL;
	gsize len = 0;

	a->title = g_string_new("");
	a->titles = g_ptr_array_new_with_free_func(g_free);
	a->msgids = g_ptr_array_new_with_free_func(g_free);
	if (!g_file_get_contents(file, &text, &len, NULL))
		return;
	ctx = g_markup_parse_context_new(&p, 0, a, NULL);
	if (g_markup_parse_context_parse(ctx, text, (gssize)len, NULL))
		g_markup_parse_context_end_parse(ctx, NULL);
	g_markup_parse_context_free(ctx);
	g_free(text);
}

static void atom_release(struct atom *a)
{
	g_string_free(a->title, TRUE);
	g_free(a->msgid);
	g_ptr_array_free(a->titles, TRUE);
	g_ptr_array_free(a->msgids, TRUE);
}

/* One probe query: 1 found, 0 not (404), -1 refused (4xx), -2 no search
 * (501).  Not imported, not cached: caps are. */
static onlist_status probe_query(struct onlist_remote *r, const char *query,
				 int *res, char **errmsg)
{
	char *q = g_uri_escape_string(query, NULL, FALSE);
	char *url = g_strconcat(r->url, "?q=", q, "&x=m", NULL);
	char *dest = g_build_filename(r->tmpdir, "probe.mbox.gz", NULL);
	int found = 0;
	onlist_status st = request(r, url, dest, 1, &found, errmsg);

	*res = found;
	if (st == ONLIST_ENOTFOUND) {
		*res = -2;
		st = ONLIST_OK;
	} else if (st == ONLIST_EHTTP && *errmsg && strstr(*errmsg, ": HTTP 4")) {
		*res = -1;
		st = ONLIST_OK;
	}
	if (st == ONLIST_OK) {
		free(*errmsg);
		*errmsg = NULL;
	}
	unlink(dest);
	g_free(dest);
	g_free(url);
	g_free(q);
	return st;
}

/* The server's inboxes, for the error that says the URL names none. */
static char *inboxes(struct onlist_remote *r)
{
	/* the inbox's parent: the server's root, or the prefix it is
	 * served under */
	const char *end = r->url + strlen(r->url) - 1;	/* the last '/' */
	const char *host = strstr(r->url, "//") + 2, *slash = end;
	char *base, *url, *dest, *err = NULL, *names = NULL;
	int found = 0;

	while (slash > host && slash[-1] != '/')
		slash--;
	if (slash <= host)
		slash = end + 1;
	base = g_strndup(r->url, (size_t)(slash - r->url));
	url = g_strconcat(base, g_str_has_suffix(base, "/") ? "" : "/",
			  "manifest.js.gz", NULL);
	dest = g_build_filename(r->tmpdir, "manifest.js.gz", NULL);
	if (request(r, url, dest, 0, &found, &err) == ONLIST_OK && found)
		names = onlist_pi_manifest_inboxes(dest);
	free(err);
	unlink(dest);
	g_free(dest);
	g_free(url);
	g_free(base);
	return names;
}

static void caps_note(struct onlist_remote *r)
{
	if (r->search == 0)
		onlist__remote_note(r, "cannot search (HTTP 501: public-inbox index level "
		     "basic): only the Message-IDs commits name are looked "
		     "up; the rest is unknown");
	else if (r->search < 0)
		onlist__remote_note(r, "its search could not be tested (new.atom lists no "
		     "message): a commit it does not find is unknown");
	if (r->search > 0 && r->phrase == 0)
		onlist__remote_note(r, r->words > 0 ?
		     "cannot search by phrase (public-inbox index level "
		     "medium?): subjects are searched word by word" :
		     "cannot search by phrase nor by subject words: the "
		     "subject tier is not asked");
	if (r->search > 0 && r->patchid == 0)
		onlist__remote_note(r, "has no patchid: search: the patch-id tier is not asked");
}

void onlist__remote_caps_keep(struct onlist_remote *r)
{
	char *v = g_strdup_printf("search=%d phrase=%d words=%d patchid=%d",
				  r->search, r->phrase, r->words, r->patchid);

	remember(r, "caps", v);
	g_free(v);
}

onlist_status onlist_remote_probe(struct onlist_remote *r, char **errmsg)
{
	struct atom a = { 0 };
	char *v = NULL, *url, *dest, *q, *ph;
	int found = 0, res;
	onlist_status st;

	*errmsg = NULL;
	if (onlist__remote_cached(r, "caps", &v) &&
	    sscanf(v, "search=%d phrase=%d words=%d patchid=%d", &r->search,
		   &r->phrase, &r->words, &r->patchid) == 4) {
		g_free(v);
		r->probed = 1;
		caps_note(r);
		return ONLIST_OK;
	}
	g_free(v);
	r->search = r->phrase = r->words = r->patchid = -1;
	url = g_strconcat(r->url, "new.atom", NULL);
	dest = g_build_filename(r->tmpdir, "new.atom", NULL);
	st = request(r, url, dest, 0, &found, errmsg);
	g_free(url);
	if (st == ONLIST_ENOTFOUND)	/* a 501 on the feed */
		found = 0, st = ONLIST_OK, free(*errmsg), *errmsg = NULL;
	if (st != ONLIST_OK)
		goto out;
	if (!found) {
		char *names = inboxes(r);

		st = onlist_fail(errmsg, ONLIST_ENOTFOUND, "no inbox at %s (its new.atom "
			  "is a 404): %s%s", r->url,
			  names && *names ? "the server lists " :
			  "the server lists no inboxes (manifest.js.gz)",
			  names && *names ? names : "");
		g_free(names);
		goto out;
	}
	atom_read(dest, &a);
	/* search: the newest subject, by phrase, else word by word */
	for (guint i = 0; i < a.titles->len && r->search < 0; i++) {
		if (!(ph = onlist__remote_phrase(g_ptr_array_index(a.titles, i))))
			continue;
		q = g_strdup_printf("s:\"%s\"", ph);
		g_free(ph);
		st = probe_query(r, q, &res, errmsg);
		g_free(q);
		if (st != ONLIST_OK)
			goto out;
		if (res == -2) {
			r->search = r->phrase = r->words = r->patchid = 0;
			break;
		}
		if (res == 1) {
			r->search = r->phrase = r->words = 1;
			break;
		}
		r->phrase = 0;
		if (!(q = onlist__remote_words(g_ptr_array_index(a.titles, i))))
			continue;
		st = probe_query(r, q, &res, errmsg);
		g_free(q);
		if (st != ONLIST_OK)
			goto out;
		r->search = res == -2 ? 0 : 1;
		r->words = res == 1;
		if (res != 1) {
			/* it finds no subject it lists: no subject tier */
			r->phrase = 0;
		}
		break;
	}
	/* patchid: the newest patch the feed lists */
	for (guint i = 0; i < a.titles->len && r->search > 0; i++) {
		struct onlist_subject sj;
		struct onlist_mail *m = NULL;
		const char *mid = g_ptr_array_index(a.msgids, i);
		char hex[ONLIST_PATCHID_HEXSZ + 1], *p, *raw = NULL, *err = NULL;
		gsize len = 0;
		int patch;

		if (onlist_subject_parse(&sj, g_ptr_array_index(a.titles, i)))
			continue;
		patch = sj.patch && !sj.reply && sj.part != 0;
		onlist_subject_release(&sj);
		if (!patch)
			continue;
		p = onlist__remote_mid_path(mid);
		url = g_strconcat(r->url, p, "/raw", NULL);
		g_free(p);
		unlink(dest);
		st = request(r, url, dest, 0, &found, errmsg);
		g_free(url);
		if (st == ONLIST_ENOTFOUND)
			st = ONLIST_OK, free(*errmsg), *errmsg = NULL, found = 0;
		if (st != ONLIST_OK)
			goto out;
		if (!found || !g_file_get_contents(dest, &raw, &len, NULL))
			continue;
		if (onlist_mail_parse(&m, raw, len, &err) != ONLIST_OK ||
		    !onlist_mail_patchid(m, hex)) {
			free(err);
			onlist_mail_free(m);
			g_free(raw);
			continue;
		}
		onlist_mail_free(m);
		g_free(raw);
		q = g_strconcat("patchid:", hex, NULL);
		st = probe_query(r, q, &res, errmsg);
		g_free(q);
		if (st != ONLIST_OK)
			goto out;
		r->patchid = res == 1;
		break;
	}
	if (r->search == 0)
		r->phrase = r->words = r->patchid = 0;
	r->probed = 1;
	onlist__remote_caps_keep(r);
	caps_note(r);
out:
	if (a.title)
		atom_release(&a);
	unlink(dest);
	g_free(dest);
	return st;
}
