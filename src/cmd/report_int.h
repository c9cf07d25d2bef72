/* report_int.h - what the files of `onlist report` share: the report
 * being built (struct report, its rows and categories) and the functions
 * one file of the command calls in another.  Private to src/cmd/report*.c:
 *   report.c         options, dates, loading and classifying the commits
 *   report_render.c  one report as Markdown, text, HTML or JSON
 *   report_chart.c   the per-committer/per-subsystem tables, the chart
 *   report_site.c    --site: a page a week and an index
 */
#ifndef ONLIST_REPORT_INT_H
#define ONLIST_REPORT_INT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>

#include "cli.h"
#include "onlist/vocab.h"
#include "report_mail.h"
#include "onlist/buf.h"
#include "onlist/git.h"
#include "onlist/report.h"
#include "onlist/store.h"
#include "onlist/store_review.h"
#include "onlist/verdict.h"

#define REPORT_SCHEMA "onlist-report/2"
#define WEEK 604800
#define CHART_WEEKS 26
#define TEXT_COLS 72		/* plain text: a mail body's width */

enum cat { C_NEVER, C_NOREPLY, C_DISCUSSED, C_SERIES, C_REVIEWED, C_UNKNOWN,
	   NCAT };

struct rrow {
	char sha[41];
	char *subject, *an, *ae, *cn, *ce, *trailers, *files, *merge_sha,
	     *merge_subject, *msgid, *list, *body;
	int64_t landed_date, commit_date;
	int landed, empty, postings, exact, fuzzy, replies, review_tags;
	int modified;			/* posted only in an edited form (author-date,
					 * subject or fuzzy matches) */
	struct onlist_commit_review rv;	/* review on the list */
	struct posting { char *msgid; int version; } *post;	/* every one */
	int npost;
	struct onlist_verdict v;	/* never posted: why; or unknown */
	/* filled after the walk */
	const char *author, *committer;
	char subsys[160];
	enum cat cat;
};

struct rows {
	struct rrow *v;
	size_t n, alloc;
	int failed;
};

/* One week of the chart: its commits by category. */
struct wk {
	long n[NCAT], total;
};

/* ---- the report --------------------------------------------------------- */

struct report {
	FILE *f;
	struct onlist_span span;	/* the archive's messages */
	int64_t latest_landing;		/* -1: none recorded */
	enum onlist_fmt fmt;
	const char *commit_url, *posting_url;
	const char *title;		/* "2013-W27", "v3.10..v3.11" */
	int windowed;
	int64_t since, until;
	struct rows rows;
	long fuzzy_total;		/* edited-form matches in the whole database */
	const struct wk *wk;		/* the chart: nwk weeks from wk_since */
	int nwk;
	int64_t wk_since;
	int site;			/* a page of --site: link the index */
	int week_links;			/* chart bars link to the week's page */
	struct onlist_people *people;	/* the names of rows */
	int maintainers;		/* subsystems from MAINTAINERS */
	int reviews_known;		/* review tags in replies are recorded */
	struct onlist_cli_unanswered *ua;	/* still unanswered (ignored.c) */
	long with_review_tags;		/* commits with some */
	char **refs;			/* Markdown link targets of a section */
	size_t nrefs, refs_base;
};

/* What every window of one run shares. */
struct ctx {
	struct onlist_store *db;
	const char *repo, *alias;
	struct onlist_maintainers *maint;	/* NULL: no MAINTAINERS at HEAD */
	const regex_t *rel;			/* release bumps, or NULL */
	struct onlist_span span;
	int depth;				/* --subsystem-depth */
};

/* report.c: helpers, dates, the categories, loading and classifying */
extern const char *const rp_cat_key[];
extern const char *const rp_cat_note[];
extern const char *const rp_cat_title[];
long rp_count_cat(const struct report *r, enum cat c);
long rp_count_modified(const struct report *r);
char *rp_evidence(const struct onlist_commit_review *rv);
void rp_fmt_day(int64_t t, char *buf, size_t n);
int rp_keep(const struct onlist_report_commit *c, void *data);
double rp_pct(long k, long n);
int rp_prepare(const struct ctx *cx, struct report *r);
void rp_report_release(struct report *r);
void rp_tag_summary(const char *trailers, char *buf, size_t n);
char *rp_url(const char *tmpl, const char *value);
int rp_week_counts(const struct ctx *cx, int64_t since, int nweeks,
		   struct wk *w);
void rp_week_name(int64_t t, char *buf, size_t n);
int64_t rp_week_start(int64_t t);

/* report_render.c: one report in md, text, html or json */
extern const char rp_css[];
void rp_default_links(struct report *r, const char *repo);
int rp_link_ok(const char *opt, const char *tmpl);
int rp_render(struct report *r);
void rp_wrap_text(FILE *out, const char *buf, size_t len);

/* report_chart.c: the totals per committer and subsystem, the chart */
void rp_chart(struct report *r);
int rp_group_table(struct report *r, int by_subsys);
extern const enum cat rp_stack[NCAT];	/* every category, bottom up */

/* report_site.c: --site, a page a week and an index */
int rp_write_site(const struct ctx *cx, struct report *base, const char *dir,
		  int nweeks, int64_t latest);

#endif
