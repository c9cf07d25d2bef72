/* report.c - the report as a model (report.h): rows from the store,
 * classified, gathered into sections, totals and tables. */
#include <stdlib.h>
#include <string.h>

#include "onlist/buf.h"
#include "onlist/paths.h"
#include "onlist/repo.h"
#include "onlist/report.h"
#include "onlist/vocab.h"

#define WEEK 604800

static const char *const cat_name[ONLIST_REPORT_NCAT] = {
	[ONLIST_REPORT_NEVER] = "never_posted",
	[ONLIST_REPORT_NOREPLY] = "no_reply",
	[ONLIST_REPORT_DISCUSSED] = "discussed",
	[ONLIST_REPORT_SERIES] = "reviewed_series",
	[ONLIST_REPORT_REVIEWED] = "reviewed",
	[ONLIST_REPORT_UNKNOWN] = "unknown",
};

const char *onlist_report_cat_name(enum onlist_report_cat c)
{
	return (unsigned)c < ONLIST_REPORT_NCAT ? cat_name[c] : "unknown";
}

/* ---- the context ------------------------------------------------------- */

static onlist_status store_fail(struct onlist_store *db, onlist_status st,
				char **errmsg)
{
	return onlist_fail(errmsg, st, "%s", onlist_store_errmsg(db));
}

onlist_status onlist_report_ctx_load(struct onlist_report_ctx *cx,
				      char **errmsg)
{
	char *text = NULL;
	size_t len;
	onlist_status st = ONLIST_OK;

	cx->maint = NULL;
	/* the tiers that find edited postings; none at all: they did not run */
	cx->edited_matches = onlist_store_report_has_edited(cx->db);
	if (onlist_span_get(cx->db, &cx->span) != ONLIST_OK)
		return store_fail(cx->db, ONLIST_EDB, errmsg);
	cx->latest_landing = onlist_store_report_latest_landing(cx->db);
	if (cx->repo && onlist_landing_read_blob(cx->repo, "HEAD", "MAINTAINERS",
					      &text, &len, NULL) == ONLIST_OK) {
		if (onlist_maintainers_parse(&cx->maint, text, len) != ONLIST_OK)
			st = onlist_fail(errmsg, ONLIST_ENOMEM, "out of memory");
		else if (!onlist_maintainers_count(cx->maint)) {
			onlist_maintainers_free(cx->maint);
			cx->maint = NULL;
		}
	}
	free(text);
	return st;
}

void onlist_report_ctx_release(struct onlist_report_ctx *cx)
{
	onlist_maintainers_free(cx->maint);
	cx->maint = NULL;
}

/* ---- rows -------------------------------------------------------------- */

onlist_status onlist_report_new(struct onlist_report **out, const char *title)
{
	struct onlist_report *r = calloc(1, sizeof *r);

	*out = NULL;
	if (!r || !(r->title = strdup(title ? title : ""))) {
		free(r);
		return ONLIST_ENOMEM;
	}
	r->latest_landing = -1;
	*out = r;
	return ONLIST_OK;
}

static char *dup0(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void row_release(struct onlist_report_row *x)
{
	free(x->subject); free(x->author_name); free(x->author_email);
	free(x->committer_name); free(x->committer_email); free(x->trailers);
	free(x->files); free(x->merge_sha); free(x->merge_subject);
	free(x->msgid); free(x->list); free(x->body);
	onlist_commit_review_release(&x->rv);
	onlist_verdict_release(&x->v);
	for (int k = 0; k < x->npost; k++)
		free(x->post[k].msgid);
	free(x->post);
}

int onlist_report_dup_names(const struct onlist_report_commit *c,
			    char **subject, char **author_name,
			    char **author_email, char **committer_name,
			    char **committer_email)
{
	*subject = strdup(c->subject ? c->subject : "");
	*author_name = strdup(c->author_name ? c->author_name : "");
	*author_email = strdup(c->author_email ? c->author_email : "");
	*committer_name = strdup(c->committer_name ? c->committer_name : "");
	*committer_email = strdup(c->committer_email ? c->committer_email : "");
	return *subject && *author_name && *author_email && *committer_name &&
	       *committer_email ? 0 : -1;
}

int onlist_report_keep(const struct onlist_report_commit *c, void *data)
{
	struct onlist_report *r = data;
	struct onlist_report_row *x;

	if (r->nrows == r->alloc) {
		struct onlist_report_row *nv = onlist_grow(r->rows, &r->alloc,
							   sizeof *nv, 256);
		if (!nv)
			goto nomem;
		r->rows = nv;
	}
	x = &r->rows[r->nrows++];
	memset(x, 0, sizeof *x);
	memcpy(x->sha, c->sha, 40);
	if (onlist_report_dup_names(c, &x->subject, &x->author_name,
				    &x->author_email, &x->committer_name,
				    &x->committer_email))
		goto nomem;
	x->trailers = strdup(c->trailers);
	x->files = strdup(c->files);
	x->merge_sha = dup0(c->merge_sha);
	x->merge_subject = dup0(c->merge_subject);
	x->msgid = dup0(c->msgid);
	x->list = dup0(c->list);
	x->body = dup0(c->body);
	if (!x->trailers || !x->files)
		goto nomem;
	x->landed = c->landed;
	x->landed_date = c->landed_date;
	x->commit_date = c->commit_date;
	x->body_empty = c->body_empty;
	x->postings = c->postings;
	x->exact = c->exact;
	x->fuzzy = c->fuzzy;
	x->replies = c->replies;
	x->review_tags = c->review_tags;
	return 0;
nomem:
	r->failed = 1;
	return 1;
}

onlist_status onlist_report_load_window(struct onlist_report *r,
					const struct onlist_report_ctx *cx,
					int64_t since, int64_t until,
					char **errmsg)
{
	r->windowed = 1;
	r->since = since;
	r->until = until;
	if (onlist_store_report_window(cx->db, since, until, onlist_report_keep,
				       r) != ONLIST_OK)
		return store_fail(cx->db, ONLIST_EDB, errmsg);
	if (r->failed)
		return onlist_fail(errmsg, ONLIST_ENOMEM, "out of memory");
	return ONLIST_OK;
}

/* ---- classifying ------------------------------------------------------- */

/* Without MAINTAINERS: the top `depth` directories of the folder most of
 * the files are in ("drivers/net" at 2, "drivers" at 1); a file at the
 * top is "(top level)".  One directory by default: two gave a table of
 * twenty small rows on a repository without MAINTAINERS. */
static int dir_name(const char *p, size_t len, char *name, size_t n,
		    void *data)
{
	const char *nl = p + len, *base, *q, *end;
	int depth = *(const int *)data, d = 0;

	for (base = nl; base > p && base[-1] != '/'; base--)
		;
	if (base == p) {
		snprintf(name, n, "(top level)");
		return 1;
	}
	end = base - 1;		/* the last slash */
	for (q = p; q < end; q++)
		if (*q == '/' && ++d == depth) {
			end = q;
			break;
		}
	snprintf(name, n, "%.*s", (int)(end - p), p);
	return 1;
}

/* The category of a posted commit: its stored review state. */
static enum onlist_report_cat posted_cat(const char *state, int review_tags,
					 int replies)
{
	if (!state)	/* match has not run since an upgrade */
		return review_tags > 0 ? ONLIST_REPORT_REVIEWED :
		       replies ? ONLIST_REPORT_DISCUSSED : ONLIST_REPORT_NOREPLY;
	if (!strcmp(state, "reviewed"))
		return ONLIST_REPORT_REVIEWED;
	if (!strcmp(state, "reviewed_series"))
		return ONLIST_REPORT_SERIES;
	if (!strcmp(state, "discussed"))
		return ONLIST_REPORT_DISCUSSED;
	if (!strcmp(state, "unknown"))
		return ONLIST_REPORT_UNKNOWN;	/* review.h: not "no review" */
	return ONLIST_REPORT_NOREPLY;
}

/* The category of one commit: never posted (and why) or not looked for;
 * else its review on the list.  ONLIST_EDB or ONLIST_ENOMEM. */
static onlist_status classify(const struct onlist_report_ctx *cx,
			      struct onlist_report_row *x)
{
	onlist_status st;

	x->modified = x->postings && !x->exact && x->fuzzy;
	if (!x->postings) {
		if ((st = onlist_verdict_unposted(cx->db, &cx->span, cx->release,
						  x->sha, x->subject, x->body,
						  x->files, x->landed ?
						  x->landed_date :
						  x->commit_date, &x->v)) !=
		    ONLIST_OK)
			return st;
		x->cat = x->v.unknown ? ONLIST_REPORT_UNKNOWN : ONLIST_REPORT_NEVER;
		x->security = x->v.security && x->cat == ONLIST_REPORT_NEVER;
		return ONLIST_OK;
	}
	if ((st = onlist_store_review_commit(cx->db, x->sha, &x->rv)) != ONLIST_OK)
		return st;
	x->cat = posted_cat(x->rv.state, x->review_tags, x->replies);
	/* the path it took, and whether it bypassed review (paths.h) */
	if ((st = onlist_path_of(cx->db, x->sha, x->body, &x->v.path)) != ONLIST_OK)
		return st;
	/* no review on the list: no_reply and discussed, not unknown */
	if (onlist_verdict_security_posted(x->body, x->cat != ONLIST_REPORT_NOREPLY &&
					   x->cat != ONLIST_REPORT_DISCUSSED,
					   &x->v.security) < 0)
		return ONLIST_ENOMEM;
	x->security = x->v.security != NULL;
	return ONLIST_OK;
}

/* onlist_store_report_postings() into a row; npost -1 when out of
 * memory. */
static int add_posting(const struct onlist_store_posting *p, void *data)
{
	struct onlist_report_row *x = data;
	struct onlist_report_posting *nv;

	nv = realloc(x->post, (size_t)(x->npost + 1) * sizeof *nv);
	if (nv)
		x->post = nv;
	if (!nv || !(nv[x->npost].msgid = strdup(p->msgid ? p->msgid : ""))) {
		for (int k = 0; k < x->npost; k++)
			free(x->post[k].msgid);
		free(x->post);
		x->post = NULL;
		x->npost = -1;
		return 1;
	}
	nv[x->npost++].version = p->version;
	return 0;
}

static int list_add(struct onlist_report_list *l, size_t i, size_t cap)
{
	if (!l->v && !(l->v = malloc((cap ? cap : 1) * sizeof *l->v)))
		return -1;
	l->v[l->n++] = i;
	return 0;
}

/* The largest never-posted share first (then the most never posted, the
 * most commits, the name): the rows that need a look are on top. */
static int by_share(const void *a, const void *b)
{
	const struct onlist_report_group *x = a, *y = b;
	/* x->never/x->commits vs y->never/y->commits without rounding */
	long long l = (long long)x->never * y->commits,
		  rr = (long long)y->never * x->commits;

	if (l != rr)
		return l > rr ? -1 : 1;
	if (x->never != y->never)
		return x->never > y->never ? -1 : 1;
	if (x->commits != y->commits)
		return x->commits > y->commits ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Totals per committer or per subsystem. */
static onlist_status group(struct onlist_report *r, int by)
{
	struct onlist_report_group *g;
	size_t n = 0;

	if (!(g = calloc(r->nrows ? r->nrows : 1, sizeof *g)))
		return ONLIST_ENOMEM;
	r->groups[by] = g;
	for (size_t i = 0; i < r->nrows; i++) {
		const struct onlist_report_row *x = &r->rows[i];
		const char *k = by == ONLIST_REPORT_BY_SUBSYSTEM ? x->subsys :
				x->committer;
		size_t j;

		/* a week holds a few thousand commits at most */
		for (j = 0; j < n && strcmp(g[j].name, k); j++)
			;
		if (j == n) {
			if (!(g[n].name = strdup(k)))
				return ONLIST_ENOMEM;
			r->ngroups[by] = ++n;
		}
		g[j].commits++;
		g[j].never += x->cat == ONLIST_REPORT_NEVER;
		g[j].no_reply += x->cat == ONLIST_REPORT_NOREPLY;
		g[j].discussed += x->cat == ONLIST_REPORT_DISCUSSED;
		g[j].series += x->cat == ONLIST_REPORT_SERIES;
		g[j].modified += x->modified;
	}
	if (n > 1)
		qsort(g, n, sizeof *g, by_share);
	return ONLIST_OK;
}

onlist_status onlist_report_finish(struct onlist_report *r,
				   const struct onlist_report_ctx *cx,
				   char **errmsg)
{
	char *err = NULL;
	onlist_status st;

	if (r->failed)
		goto nomem;
	r->span = cx->span;
	r->latest_landing = cx->latest_landing;
	r->modified_known = cx->edited_matches != 0;
	r->maintainers = cx->maint != NULL;
	if (onlist_people_new(&r->people) != ONLIST_OK)
		goto nomem;
	for (size_t i = 0; i < r->nrows; i++)
		if (onlist_people_add(r->people, r->rows[i].author_name,
				      r->rows[i].author_email) ||
		    onlist_people_add(r->people, r->rows[i].committer_name,
				      r->rows[i].committer_email))
			goto nomem;
	if ((st = onlist_people_resolve(r->people, cx->repo, cx->mailmap,
					&err)) != ONLIST_OK) {
		st = onlist_fail(errmsg, st, ".mailmap: %s", err ? err : "failed");
		free(err);
		return st;
	}
	for (size_t i = 0; i < r->nrows; i++) {
		struct onlist_report_row *x = &r->rows[i];

		if (x->review_tags >= 0)
			r->reviews_known = 1;
		r->with_review_tags += x->review_tags > 0;
		x->author = onlist_people_name(r->people, x->author_name,
					       x->author_email);
		x->committer = onlist_people_name(r->people, x->committer_name,
						  x->committer_email);
		if (cx->maint)
			onlist_subsystem(cx->maint, x->files, x->subsys,
					 sizeof x->subsys);
		else
			onlist_subsys_vote(x->files, dir_name, (void *)&cx->depth,
					   x->subsys, sizeof x->subsys);
		if ((st = classify(cx, x)) == ONLIST_ENOMEM)
			goto nomem;
		if (st != ONLIST_OK ||
		    (x->postings && onlist_store_report_postings(cx->db, x->sha,
						add_posting, x) != ONLIST_OK))
			return store_fail(cx->db, ONLIST_EDB, errmsg);
		if (x->npost < 0)
			goto nomem;
	}
	for (size_t i = 0; i < r->nrows; i++) {
		const struct onlist_report_row *x = &r->rows[i];

		r->count[x->cat]++;
		r->modified += x->modified;
		if (list_add(&r->cat[x->cat], i, r->nrows) ||
		    (x->cat == ONLIST_REPORT_NEVER &&
		     list_add(&r->never[x->v.reason], i, r->nrows)) ||
		    (x->security && list_add(&r->security, i, r->nrows)) ||
		    (x->cat == ONLIST_REPORT_UNKNOWN && x->postings &&
		     list_add(&r->review_unknown, i, r->nrows)))
			goto nomem;
	}
	if (group(r, ONLIST_REPORT_BY_COMMITTER) ||
	    group(r, ONLIST_REPORT_BY_SUBSYSTEM))
		goto nomem;
	return ONLIST_OK;
nomem:
	return onlist_fail(errmsg, ONLIST_ENOMEM, "out of memory");
}

/* ---- the chart --------------------------------------------------------- */

struct week_walk {
	const struct onlist_report_ctx *cx;
	int64_t since;
	int nweeks;
	struct onlist_report_week *w;
	onlist_status st;
};

/* A never-posted commit outside the archive's span: the verdict decides
 * whether it was looked for (a server may have been asked), so it is
 * classified whole, as the report's rows are. */
static onlist_status unposted_cat(const struct onlist_report_ctx *cx,
				  const char *sha, enum onlist_report_cat *cat)
{
	struct onlist_report *r = NULL;
	onlist_status st;

	if (onlist_report_new(&r, "") != ONLIST_OK)
		return ONLIST_ENOMEM;
	if ((st = onlist_store_report_commit(cx->db, sha, onlist_report_keep,
					     r)) == ONLIST_OK && r->failed)
		st = ONLIST_ENOMEM;
	if (st == ONLIST_OK && r->nrows == 1 &&
	    (st = classify(cx, &r->rows[0])) == ONLIST_OK)
		*cat = r->rows[0].cat;
	onlist_report_free(r);
	return st;
}

/* One commit into its week: the category alone, not the reasons and the
 * path the report's rows get (a never-posted commit inside the span is
 * "never posted", whatever its reason). */
static int week_row(const struct onlist_report_state *c, void *data)
{
	struct week_walk *k = data;
	enum onlist_report_cat cat = ONLIST_REPORT_NEVER;
	int64_t i = (c->landed_date - k->since) / WEEK;

	if (c->posted)
		cat = posted_cat(c->state, c->review_tags, c->replies);
	else if (!onlist_span_misses(&k->cx->span, c->landed_date))
		cat = ONLIST_REPORT_NEVER;
	else if ((k->st = unposted_cat(k->cx, c->sha, &cat)) != ONLIST_OK)
		return 1;
	if (c->landed_date >= k->since && i < k->nweeks) {
		k->w[i].n[cat]++;
		k->w[i].total++;
	}
	return 0;
}

onlist_status onlist_report_week_counts(const struct onlist_report_ctx *cx,
					int64_t since, int nweeks,
					struct onlist_report_week *w,
					char **errmsg)
{
	struct week_walk k = { cx, since, nweeks, w, ONLIST_OK };

	memset(w, 0, (size_t)nweeks * sizeof *w);
	for (int i = 0; i < nweeks; i++)
		w[i].start = since + (int64_t)i * WEEK;
	if (onlist_store_report_window_states(cx->db, since,
					      since + (int64_t)nweeks * WEEK,
					      week_row, &k) != ONLIST_OK ||
	    (k.st != ONLIST_OK && k.st != ONLIST_ENOMEM))
		return store_fail(cx->db, ONLIST_EDB, errmsg);
	if (k.st == ONLIST_ENOMEM)
		return onlist_fail(errmsg, k.st, "out of memory");
	return ONLIST_OK;
}

onlist_status onlist_report_set_weeks(struct onlist_report *r,
				      const struct onlist_report_week *w,
				      int n)
{
	struct onlist_report_week *c = malloc((size_t)(n ? n : 1) * sizeof *c);

	if (!c)
		return ONLIST_ENOMEM;
	memcpy(c, w, (size_t)n * sizeof *c);
	free(r->weeks);
	r->weeks = c;
	r->nweeks = n;
	return ONLIST_OK;
}

void onlist_report_free(struct onlist_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nrows; i++)
		row_release(&r->rows[i]);
	free(r->rows);
	for (int c = 0; c < ONLIST_REPORT_NCAT; c++)
		free(r->cat[c].v);
	for (int k = 0; k < ONLIST_NREASONS; k++)
		free(r->never[k].v);
	free(r->security.v);
	free(r->review_unknown.v);
	for (int b = 0; b < 2; b++) {
		for (size_t i = 0; i < r->ngroups[b]; i++)
			free(r->groups[b][i].name);
		free(r->groups[b]);
	}
	free(r->weeks);
	onlist_people_free(r->people);
	free(r->title);
	free(r);
}
