/* report_int.h - what the files of `onlist report` share: the report
 * being printed (struct report: the model of report.h, the format, the
 * links) and the layout each format fills in.  Private to
 * src/cmd/report*.c:
 *   report.c         options, dates, the links; builds the model
 *   report_render.c  the walk every format but JSON shares: the sections
 *                    in their order, each commit's entry (struct layout)
 *   report_md.c      Markdown      report_text.c  plain text (a mail body)
 *   report_html.c    one HTML page report_chart.c the chart of weeks
 *   report_json.c    JSON, through the emitter
 *   report_site.c    --site: a page a week and an index
 *   report_mail.c    --format mail: the text as one message
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
#include "report_mail.h"
#include "onlist/buf.h"
#include "onlist/git.h"
#include "onlist/report.h"
#include "onlist/store.h"

#define REPORT_SCHEMA "onlist-report/2"
#define WEEK 604800
#define CHART_WEEKS 26
#define TEXT_COLS 72		/* plain text: a mail body's width */

/* The categories' short names (report.h). */
#define C_NEVER ONLIST_REPORT_NEVER
#define C_NOREPLY ONLIST_REPORT_NOREPLY
#define C_DISCUSSED ONLIST_REPORT_DISCUSSED
#define C_SERIES ONLIST_REPORT_SERIES
#define C_REVIEWED ONLIST_REPORT_REVIEWED
#define C_UNKNOWN ONLIST_REPORT_UNKNOWN
#define NCAT ONLIST_REPORT_NCAT

/* One report as it is printed. */
struct report {
	FILE *f;
	const struct onlist_report *m;	/* the model */
	enum onlist_fmt fmt;
	const char *commit_url, *posting_url;	/* templates, or NULL */
	const struct layout *layout;	/* set by rp_render() */
	int site;			/* a page of --site: link the index */
	int week_links;			/* chart bars link to the week's page */
	struct onlist_cli_unanswered *ua;	/* still unanswered (ignored.c) */
	char **refs;			/* link targets of the text and the
					 * Markdown, numbered at the end */
	size_t nrefs, refs_base;
};

/* What a format is made of; one walker, rp_render() with put_commit(),
 * writes Markdown, text and HTML from it, so that they say the same
 * things. */
struct layout {
	enum onlist_fmt fmt;
	void (*put)(FILE *f, const char *s);		/* the escaper of an entry */
	void (*put_str)(FILE *f, const char *s);	/* ... of a line of prose */
	void (*sha)(struct report *r, const char *sha);	/* linked if known */
	void (*posting)(struct report *r, const char *msgid);
	void (*link)(struct report *r, char *u, const char *label);
	const char *item;	/* before the sha */
	const char *head[5];	/* before the subject, author, committer,
				 * subsystem and tags */
	const char *empty;	/* an empty changelog */
	const char *line;	/* before the landing and the posting */
	const char *merge;	/* between the merge's sha and subject */
	const char *list;	/* before the posting's list */
	const char *end;
	/* the page around the entries */
	int (*top)(struct report *r);		/* title to the chart */
	void (*section)(struct report *r, const char *title, long n);
	const char *note;	/* a section's note (printf, %s) */
	const char *sub;	/* a reason's heading (printf, %s %ld) */
	const char *sub_end;	/* after a reason's entries */
	const char *rel_open, *rel_close;	/* around the release bumps */
	const char *ul_open, *ul_close;		/* around entries */
	const char *none;	/* a section without entries */
	int (*bottom)(struct report *r);	/* the tables to the end */
	/* the totals per committer or per subsystem (rp_put_table); text
	 * pads its columns by display width and leaves these NULL */
	const char *table_head;	/* printf, %s: "Committer" or "Subsystem" */
	const char *row_open;	/* before a group's name (put escapes it) */
	const char *row;	/* after it: printf, %ld commits, %ld never
				 * posted, %.0f share, %s modified, %ld no
				 * reply, %ld discussed, %ld series only */
	const char *table_end;
	const char *empty_end;	/* the end of a period without commits */
};

extern const struct layout rp_md_layout, rp_text_layout, rp_html_layout;

/* report.c: helpers */
extern const char *const rp_cat_note[];
extern const char *const rp_cat_title[];
char *rp_evidence(const struct onlist_commit_review *rv);
void rp_fmt_day(int64_t t, char *buf, size_t n);
double rp_pct(long k, long n);
void rp_tag_summary(const char *trailers, char *buf, size_t n);
char *rp_url(const char *tmpl, const char *value);
void rp_week_name(int64_t t, char *buf, size_t n);
int64_t rp_week_start(int64_t t);

/* report_render.c: one report in md, text or html (r->fmt), or json */
int rp_render(struct report *r);
int rp_stale(const struct onlist_report *m);
char *rp_stale_text(const struct onlist_report *m);
char *rp_unknown_text(const struct onlist_report *m, long n);
int rp_ref(struct report *r, char *u);
void rp_put_counts(FILE *f, const struct onlist_report *m);
int rp_put_summary(struct report *r, void (*put)(FILE *, const char *),
		   const char *bold);
void rp_put_table(struct report *r, int by);
void rp_put_window(FILE *f, const struct onlist_report *m, const char *fmt);
void rp_default_links(struct report *r, const char *repo);
int rp_link_ok(const char *opt, const char *tmpl);

/* report_json.c */
int rp_render_json(struct report *r);

/* report_text.c */
void rp_wrap_text(FILE *out, const char *buf, size_t len);

/* report_html.c, report_chart.c */
extern const char rp_css[];
void rp_chart(FILE *f, const struct onlist_report_week *w, int n,
	      int week_links);
extern const enum onlist_report_cat rp_stack[NCAT];	/* bottom up */

/* report_site.c: --site, a page a week and an index */
int rp_write_site(const struct onlist_report_ctx *cx, struct report *base,
		  const char *dir, int nweeks, int64_t latest);

#endif
