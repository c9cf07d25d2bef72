/* remote_query.c - the tiers of queries about one commit (remote.h): what
 * git says of the commit, then link, patch-id, author-date, subject and
 * fuzzy queries, stopping at the first that finds its posting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/landing.h"
#include "onlist/match.h"
#include "onlist/msgid.h"
#include "onlist/patchid.h"
#include "onlist/report.h"
#include "onlist/repo_diff.h"
#include "onlist/repo_scan.h"
#include "onlist/store.h"
#include "remote_int.h"

/* What the queries need of one commit. */
struct want {
	char sha[41];
	char *addr, *subject, *files;
	int64_t author_date, commit_date, landed;
	GPtrArray *msgids;	/* named by its trailers */
	GPtrArray *pids;	/* distinct patch-ids, myers first */
	int stored;
};

/* ---- the commit ---------------------------------------------------------- */

static void want_release(struct want *w)
{
	g_free(w->addr);
	g_free(w->subject);
	g_free(w->files);
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
	w->files = g_strdup(c->files ? c->files : "");
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
	if (x->put && onlist_store_report_put_landing(x->r->s, l) != ONLIST_OK)
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
		return onlist_fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(r->s));
	}
	st = onlist_repo_scan(r->repo, range, &so, errmsg);
	g_free(range);
	if (st == ONLIST_OK && !w->msgids)
		st = onlist_fail(errmsg, ONLIST_ENOTFOUND, "%s: not a commit git can "
			  "scan", sha);
	if (st == ONLIST_OK && put) {
		/* where it landed: the first-parent line of HEAD; a commit
		 * HEAD does not hold (or a root) keeps its commit date */
		range = g_strdup_printf("%s^..HEAD", w->sha);
		if (onlist_landing_walk(r->repo, range, take_landing, &x,
					 &err) != ONLIST_OK)
			w->landed = 0;
		free(err);
		g_free(range);
	}
	if (st == ONLIST_OK && x.st != ONLIST_OK)
		st = onlist_fail(errmsg, x.st, "%s", onlist_store_errmsg(r->s));
	if (put) {
		if (st == ONLIST_OK && onlist_store_commit(r->s) != ONLIST_OK)
			st = onlist_fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(r->s));
		else if (st != ONLIST_OK)
			onlist_store_rollback(r->s);
	}
	if (st != ONLIST_OK)
		return st;
	/* the patch-id a mail made with another diff algorithm has */
	memcpy(one[0], w->sha, 41);
	for (size_t i = 0; i < sizeof(algs) / sizeof(*algs); i++) {
		err = NULL;
		if (onlist_repo_diff_each(r->repo, algs[i], (const char (*)[41])one, 1,
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
		return onlist_fail(errmsg, ONLIST_ENOTFOUND, "%s: not a commit", name);
	spec = g_strdup_printf("%s^!", name);
	st = onlist_repo_scan_rev_list(r->repo, spec, &shas, &n, errmsg);
	g_free(spec);
	if (st != ONLIST_OK || n != 1) {
		free(shas);
		if (st == ONLIST_OK || st == ONLIST_EGIT) {
			free(*errmsg);
			*errmsg = NULL;
			return onlist_fail(errmsg, ONLIST_ENOTFOUND, "%s: no such commit "
				    "in %s (merges are not looked up)", name,
				    r->repo);
		}
		return st;
	}
	memcpy(sha, shas[0], 41);
	free(shas);
	if ((have = onlist_store_has_commit(r->s, sha)) < 0)
		return onlist_fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(r->s));
	if (have)
		return ONLIST_OK;
	st = read_commit(r, sha, 1, &w, errmsg);
	want_release(&w);
	return st;
}

/* ---- one commit --------------------------------------------------------------- */

static void why_add(GString *why, const char *line)
{
	if (strstr(why->str, line))
		return;
	g_string_append_printf(why, "%s%s", why->len ? "; " : "", line);
}

onlist_status onlist_remote_search(struct onlist_remote *r, const char *sha,
				   enum onlist_remote_tier *tier,
				   char **errmsg)
{
	struct want w = { 0 };
	onlist_status st;
	char a[24], b[24], *q;
	int any = 0, refused = 0;
	GString *why = g_string_new("");

	*errmsg = NULL;
	*tier = ONLIST_REMOTE_NONE;
	if ((st = read_commit(r, sha, 0, &w, errmsg)) != ONLIST_OK)
		goto out;
	/* 1: the Message-IDs the commit names */
	for (guint i = 0; i < w.msgids->len && !*tier; i++) {
		const char *mid = g_ptr_array_index(w.msgids, i);
		char *p = onlist__remote_mid_path(mid), *url = g_strconcat(r->url, p, "/raw", NULL);
		char *key = g_strconcat("raw:", mid, NULL);
		GArray *hits = g_array_new(FALSE, FALSE, sizeof(struct hit));

		st = onlist__remote_ask(r, key, url, 0, hits, errmsg);
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
				st = onlist__remote_thread(r, mid, errmsg);
			}
			break;
		}
		onlist__remote_hits_clear(hits);
		g_array_free(hits, TRUE);
		g_free(key);
		g_free(url);
		g_free(p);
		if (st != ONLIST_OK)
			goto out;
	}
	/* 2: the patch-id under each diff algorithm */
	if (r->search && !r->patchid && !*tier && w.pids->len)
		why_add(why, "the server has no patchid: search: patch-id tier "
			"not asked");
	for (guint i = 0; i < w.pids->len && !*tier && r->search && r->patchid; i++) {
		q = g_strconcat("patchid:", (char *)g_ptr_array_index(w.pids, i), NULL);
		st = onlist__remote_query(r, q, 0, &any, &refused, errmsg);
		g_free(q);
		if (st != ONLIST_OK)
			goto out;
		if (refused)
			why_add(why, "the server refused a patchid: query: "
				"patch-id tier not answered");
		if (any)
			*tier = ONLIST_REMOTE_PATCHID;
	}
	if (r->search && !onlist__remote_plain_addr(w.addr))
		why_add(why, "the author's address cannot be searched: "
			"author-date, subject and fuzzy tiers not asked");
	/* 3: a mail from the author dated the author date, as git am
	 * would have made the commit of it */
	if (!*tier && r->search && onlist__remote_plain_addr(w.addr) && w.author_date > 0) {
		onlist__remote_fmt_time(a, sizeof(a), w.author_date, "%Y%m%d%H%M%S");
		q = g_strdup_printf("f:%s AND dt:%s..%s", w.addr, a, a);
		st = onlist__remote_query(r, q, 0, &any, &refused, errmsg);
		g_free(q);
		if (st != ONLIST_OK)
			goto out;
		if (refused)
			why_add(why, "the server refused the author-date query: "
				"author-date tier not answered");
		if (any)
			*tier = ONLIST_REMOTE_AUTHOR_DATE;
	}
	/* 4: the subject from the author, sent before it landed; asked
	 * also when found, for the other versions of the topic */
	if (r->search && onlist__remote_plain_addr(w.addr)) {
		int64_t bound = (w.landed ? w.landed : w.commit_date) + 86400;
		char *ph = r->phrase ? onlist__remote_phrase(w.subject) : NULL;
		char *wd = !ph && r->words ? onlist__remote_words(w.subject) : NULL;

		onlist__remote_fmt_time(b, sizeof(b), bound, "%Y%m%d");
		if (ph && *ph)
			q = g_strdup_printf("s:\"%s\" AND f:%s AND d:..%s", ph,
					    w.addr, b);
		else if (wd)
			q = g_strdup_printf("%s AND f:%s AND d:..%s", wd, w.addr, b);
		else
			q = NULL;
		if (!q && !r->phrase && !r->words && !*tier)
			why_add(why, "the server has no phrase search: subject "
				"tier not asked");
		if (q) {
			st = onlist__remote_query(r, q, 0, &any, &refused, errmsg);
			if (st == ONLIST_OK && refused && ph) {
				/* a server that refuses the phrase: by word */
				r->phrase = 0;
				onlist__remote_caps_keep(r);
				onlist__remote_note(r, "cannot search by phrase: subjects are "
				     "searched word by word");
				g_free(q);
				q = NULL;
				if ((wd = onlist__remote_words(w.subject)))
					q = g_strdup_printf("%s AND f:%s AND d:..%s",
							    wd, w.addr, b);
				if (q)
					st = onlist__remote_query(r, q, 0, &any, &refused, errmsg);
			}
			if (st == ONLIST_OK && refused && !*tier)
				why_add(why, "the server refused the subject "
					"query: subject tier not answered");
			if (st == ONLIST_OK && any && !*tier)
				*tier = ONLIST_REMOTE_SUBJECT;
		}
		g_free(q);
		g_free(ph);
		g_free(wd);
		if (st != ONLIST_OK)
			goto out;
	}
	/* 5: the author's patches to the same files in a window around
	 * the author date, for match's fuzzy tier to score */
	if (!*tier && r->search && onlist__remote_plain_addr(w.addr) && w.files && *w.files) {
		gchar **f = g_strsplit(w.files, "\n", -1);
		GString *fq = g_string_new("");
		int n = 0;
		int64_t from = w.author_date && w.author_date < w.commit_date ?
			       w.author_date : w.commit_date;
		int64_t bound = (w.landed ? w.landed : w.commit_date) + 86400;

		for (gchar **p = f; *p && n < 4; p++) {
			if (!**p || strpbrk(*p, "\"\\") || strlen(*p) > 200)
				continue;
			g_string_append_printf(fq, "%sdfn:\"%s\"", n ? " OR " : "", *p);
			n++;
		}
		g_strfreev(f);
		if (n) {
			onlist__remote_fmt_time(a, sizeof(a), from - 180 * 86400LL, "%Y%m%d");
			onlist__remote_fmt_time(b, sizeof(b), bound, "%Y%m%d");
			q = g_strdup_printf("f:%s AND d:%s..%s AND (%s)", w.addr, a,
					    b, fq->str);
			st = onlist__remote_query(r, q, 1, &any, &refused, errmsg);
			g_free(q);
			if (st == ONLIST_OK && refused)
				why_add(why, "the server refused the fuzzy tier's "
					"query: fuzzy tier not answered");
			if (st == ONLIST_OK && any)
				*tier = ONLIST_REMOTE_FUZZY;
		}
		g_string_free(fq, TRUE);
		if (st != ONLIST_OK)
			goto out;
	}
	if (r->search == 0)
		why_add(why, "the server cannot search (index level basic): "
			"patch-id, author-date, subject and fuzzy tiers not asked");
	else if (r->search < 0)
		why_add(why, "the server's search could not be tested (its "
			"new.atom lists no message)");
	/* what the verdict needs (verdict.c): a commit no mail was found
	 * for is never_posted only when every tier was asked and answered */
	if (*tier == ONLIST_REMOTE_FUZZY && why->len == 0) {
		/* candidates only: match's scorer decides; the tiers were
		 * all asked */
	}
	if (why->len && *tier != ONLIST_REMOTE_NONE && *tier != ONLIST_REMOTE_FUZZY)
		g_string_truncate(why, 0);	/* found: nothing unknown */
	onlist_store_set_state(r->s, ONLIST_REMOTE_ASKED, w.sha,
			       why->len ? "" : r->url);
	onlist_store_set_state(r->s, ONLIST_REMOTE_UNASKED, w.sha, why->str);
out:
	g_string_free(why, TRUE);
	want_release(&w);
	return st;
}

struct fuzzy_rows {
	GPtrArray *msgids;
};

static int take_posting(const struct onlist_posting_row *r, void *data)
{
	struct fuzzy_rows *x = data;

	if (r->msgid && r->method && !strcmp(r->method, "fuzzy"))
		g_ptr_array_add(x->msgids, g_strdup(r->msgid));
	return 0;
}

onlist_status onlist_remote_fuzzy_threads(struct onlist_remote *r,
					  const char *sha, int *fetched,
					  char **errmsg)
{
	struct fuzzy_rows x = { g_ptr_array_new_with_free_func(g_free) };
	onlist_status st;

	*errmsg = NULL;
	*fetched = 0;
	if (onlist_store_postings(r->s, sha, NULL, NULL, take_posting, &x)
	    != ONLIST_OK) {
		g_ptr_array_free(x.msgids, TRUE);
		return onlist_fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(r->s));
	}
	st = ONLIST_OK;
	for (guint i = 0; st == ONLIST_OK && i < x.msgids->len; i++) {
		const char *mid = g_ptr_array_index(x.msgids, i);
		char *key = g_strconcat("t:", mid, NULL), *lines = NULL;

		if (onlist__remote_cached(r, key, &lines)) {
			g_free(lines);
		} else {
			st = onlist__remote_thread(r, mid, errmsg);
			(*fetched)++;
		}
		g_free(key);
	}
	g_ptr_array_free(x.msgids, TRUE);
	return st;
}
