/* report.h - `onlist report` as a model (src/report.c): the commits that
 * landed in a window (or the commits of a range), each classified by the
 * review it got on the list, the sections they fall in, the totals, the
 * tables per committer and per subsystem, and the chart's weeks.
 *
 * The model holds no FILE and no prose: the renderers in src/cmd/
 * (report_text.c, report_md.c, report_html.c, report_json.c, and the
 * mail and the site built on them) print it.
 *
 *   struct onlist_report_ctx cx = { .db = db, .repo = repo, .depth = 1 };
 *   struct onlist_report *r = NULL;
 *   char *err = NULL;
 *
 *   if (onlist_report_ctx_load(&cx, &err) ||
 *       onlist_report_new(&r, "2013-W27") ||
 *       onlist_report_load_window(r, &cx, since, since + 7 * 86400, &err) ||
 *       onlist_report_finish(r, &cx, &err))
 *           ... say err ...
 *   for (size_t i = 0; i < r->cat[ONLIST_REPORT_NOREPLY].n; i++)
 *           puts(r->rows[r->cat[ONLIST_REPORT_NOREPLY].v[i]].subject);
 *   onlist_report_free(r);
 *   onlist_report_ctx_release(&cx);
 *
 * The SQL it reads through is store_report.h.
 */
#ifndef ONLIST_REPORT_H
#define ONLIST_REPORT_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"
#include "onlist/store_report.h"
#include "onlist/store_review.h"
#include "onlist/verdict.h"
/* for the commands that used to find these here */
#include "onlist/subsys.h"
#include "onlist/people.h"

/* What every report of one run shares. */
struct onlist_report_ctx {
	/* given */
	struct onlist_store *db;
	const char *repo;		/* for .mailmap and MAINTAINERS; NULL:
					 * names stay as recorded, subsystems
					 * from paths */
	const char *mailmap;		/* an extra .mailmap file, or NULL */
	const regex_t *release;		/* the project's release subjects
					 * (onlist.releasePattern), or NULL */
	int depth;			/* without MAINTAINERS: subsystems are
					 * the top `depth` directories (>= 1) */
	/* read by onlist_report_ctx_load() */
	struct onlist_span span;	/* the archive's messages */
	int64_t latest_landing;		/* -1: none recorded */
	long edited_matches;		/* a match by the tiers that find
					 * an edited posting: 1; 0: they did
					 * not run, and "modified before
					 * merge" is not known */
	struct onlist_maintainers *maint;	/* MAINTAINERS at HEAD of repo
						 * (with sections), or NULL */
};

/* Read the archive's span, the latest landing, the edited-form match
 * count and MAINTAINERS into cx.  ONLIST_EDB (the store's message in
 * *errmsg) or ONLIST_ENOMEM. */
onlist_status onlist_report_ctx_load(struct onlist_report_ctx *cx,
				      char **errmsg);
/* Frees what onlist_report_ctx_load() read; the given fields stay. */
void onlist_report_ctx_release(struct onlist_report_ctx *cx);

/* The sections, by the review on the list over every version of a
 * commit's topic (review.h): never posted; posted with no reply from
 * anyone but the authors; discussed without a review tag; reviewed only on
 * the series; reviewed; and unknown: not looked for (no posting, but it
 * landed outside the archive), or posted and its review unknown (review.h:
 * the archive ends before a review tag git carries could be seen). */
enum onlist_report_cat {
	ONLIST_REPORT_NEVER,
	ONLIST_REPORT_NOREPLY,
	ONLIST_REPORT_DISCUSSED,
	ONLIST_REPORT_SERIES,
	ONLIST_REPORT_REVIEWED,
	ONLIST_REPORT_UNKNOWN,
};
#define ONLIST_REPORT_NCAT 6
/* "never_posted", "no_reply", "discussed", "reviewed_series", "reviewed",
 * "unknown" (the JSON's words); never NULL. */
const char *onlist_report_cat_name(enum onlist_report_cat c);

/* One posting of a commit: its Message-ID and the version its subject
 * gives (1 when none). */
struct onlist_report_posting {
	char *msgid;
	int version;
};

/* One commit of the report.  Every string is owned by the report; the
 * ones from git or mail are as recorded (escape them to print). */
struct onlist_report_row {
	char sha[41];
	char *subject, *author_name, *author_email, *committer_name,
	     *committer_email;
	char *trailers;			/* "Key: value" lines, or "" */
	char *files;			/* touched paths, one per line */
	char *body;			/* the message after its subject, or NULL */
	int64_t commit_date;
	int body_empty;			/* no explanation beyond the trailers */
	int landed;			/* landing known: */
	int64_t landed_date;
	char *merge_sha, *merge_subject;	/* NULL when not known */
	int postings, exact, fuzzy;	/* matches (store_report.h) */
	char *msgid, *list;		/* the earliest posting, or NULL */
	int replies, review_tags;	/* review_tags -1: not known */
	int modified;			/* posted only in an edited form */
	struct onlist_report_posting *post;	/* every posting, oldest first */
	int npost;
	/* set by onlist_report_finish() */
	const char *author, *committer;	/* names through .mailmap */
	char subsys[160];		/* MAINTAINERS section, or directory */
	enum onlist_report_cat cat;
	struct onlist_verdict v;	/* never posted: why (reason, msgid,
					 * reverted, note); posted: the path it
					 * took; both: the security mark */
	struct onlist_commit_review rv;	/* posted: its review on the list */
	int security;			/* a fix (v.security) that bypassed
					 * review: never posted, or posted and
					 * not reviewed */
};

/* Row numbers (indices into rows), in the rows' order. */
struct onlist_report_list {
	size_t *v;
	size_t n;
};

/* One line of the tables per committer and per subsystem. */
struct onlist_report_group {
	char *name;
	long commits, never, modified, no_reply, discussed, series;
};
enum { ONLIST_REPORT_BY_COMMITTER, ONLIST_REPORT_BY_SUBSYSTEM };

/* One week of the chart: its commits by category. */
struct onlist_report_week {
	int64_t start;
	long n[ONLIST_REPORT_NCAT], total;
};

struct onlist_report {
	char *title;			/* "2013-W27", "v3.10..v3.11" */
	int windowed;			/* [since, until) by landing date; else
					 * the commits of a range */
	int64_t since, until;
	struct onlist_span span;	/* copied from the context */
	int64_t latest_landing;
	int modified_known;		/* the edited-form tiers ran */
	int maintainers;		/* subsystems from MAINTAINERS */

	struct onlist_report_row *rows;
	size_t nrows, alloc;
	int failed;			/* a row could not be kept (memory) */

	/* set by onlist_report_finish() */
	long count[ONLIST_REPORT_NCAT];	/* commits per category */
	long modified;			/* posted only modified before merge */
	int reviews_known;		/* review tags in replies are recorded */
	long with_review_tags;		/* commits with some */
	struct onlist_report_list cat[ONLIST_REPORT_NCAT];
	struct onlist_report_list review_unknown;	/* of cat[UNKNOWN]: the
							 * posted ones */
	struct onlist_report_list never[ONLIST_NREASONS];	/* by reason */
	struct onlist_report_list security;	/* fixes that bypassed review */
	/* [ONLIST_REPORT_BY_COMMITTER] and [..._BY_SUBSYSTEM]: the largest
	 * never-posted share first, then the most never posted, the most
	 * commits, the name */
	struct onlist_report_group *groups[2];
	size_t ngroups[2];

	/* the chart: nweeks weeks, the report's last */
	struct onlist_report_week *weeks;
	int nweeks;

	struct onlist_people *people;	/* owns author and committer */
};

/* An empty report called `title` (copied).  ONLIST_ENOMEM. */
onlist_status onlist_report_new(struct onlist_report **out, const char *title);
void onlist_report_free(struct onlist_report *r);	/* NULL is fine */

/* Copies of a commit's subject, author and committer ("" for NULL) into
 * the five pointers, the table every per-commit view keeps (the report's
 * rows, stats' rows).  0, or -1 when memory ran out: the pointers then
 * hold what was copied (NULL for the rest), for the caller to free. */
int onlist_report_dup_names(const struct onlist_report_commit *c,
			    char **subject, char **author_name,
			    char **author_email, char **committer_name,
			    char **committer_email);

/* A store_report.h callback that adds row c to the report `data`; 1
 * (stop) and r->failed set when out of memory.  For the commits of a
 * range (the command walks it) or any other selection. */
int onlist_report_keep(const struct onlist_report_commit *c, void *data);

/* The commits that landed in [since, until), by landing date: r becomes
 * windowed.  ONLIST_EDB (the store's message) or ONLIST_ENOMEM. */
onlist_status onlist_report_load_window(struct onlist_report *r,
					const struct onlist_report_ctx *cx,
					int64_t since, int64_t until,
					char **errmsg);

/* Once the rows are in: names through .mailmap, subsystems, each commit's
 * category and verdict, its postings, the totals, the sections and the
 * tables.  ONLIST_EGIT (".mailmap: git's message"), ONLIST_EDB or
 * ONLIST_ENOMEM (also when a row could not be kept). */
onlist_status onlist_report_finish(struct onlist_report *r,
				   const struct onlist_report_ctx *cx,
				   char **errmsg);

/* The chart's numbers: the commits that landed in each of nweeks weeks
 * from `since` (w[0..nweeks-1], zeroed first), by the same categories as
 * the sections (a commit outside the archive's span is "not looked for"
 * here too).  ONLIST_EDB or ONLIST_ENOMEM. */
onlist_status onlist_report_week_counts(const struct onlist_report_ctx *cx,
					int64_t since, int nweeks,
					struct onlist_report_week *w,
					char **errmsg);
/* Give r the chart: a copy of w[0..n-1].  ONLIST_ENOMEM. */
onlist_status onlist_report_set_weeks(struct onlist_report *r,
				      const struct onlist_report_week *w,
				      int n);

#endif
