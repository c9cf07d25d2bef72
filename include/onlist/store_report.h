/* store_report.h - what `onlist report`, `stats` and `export` read from
 * the database, and where commits landed: the SQL is in src/store_report.c
 * (its `landing` table is part of the schema in store.c).  The report
 * itself (the model the renderers print) is report.h.
 */
#ifndef ONLIST_STORE_REPORT_H
#define ONLIST_STORE_REPORT_H

#include <stdint.h>
#include "onlist/status.h"
#include "onlist/repo.h"
#include "onlist/store.h"

/* Record where a commit landed (`onlist scan` does, for its range).  A
 * later scan replaces an earlier answer: the last range scanned is taken
 * to be the mainline.  Call inside onlist_store_begin/commit. */
onlist_status onlist_store_report_put_landing(struct onlist_store *s,
				       const struct onlist_landing *l);

/* One commit as the reports see it (the row report.c builds its model
 * from; stats and range read it too).  Every pointer is valid during the
 * callback only. */
struct onlist_report_commit {
	const char *sha, *subject;
	const char *author_name, *author_email;
	const char *committer_name, *committer_email;
	int64_t author_date, commit_date;
	int body_empty;			/* no explanation beyond the trailers */
	const char *files;		/* touched paths, one per line */
	const char *trailers;		/* "Key: value" lines, in order, or "" */
	int landed;			/* landing known (else the next 3 unset) */
	int64_t landed_date;
	const char *merge_sha, *merge_subject;
	int postings;			/* postings: matches by any method but
					 * 'echo' and 'late' */
	int exact;			/* ... of them by a method other than
					 * 'fuzzy' (patch-id, link, ...) */
	int fuzzy;			/* matches of method 'fuzzy' */
	const char *msgid, *list;	/* the earliest posting, or NULL */
	int replies;			/* replies to a posting from anyone
					 * but the author */
	int review_tags;		/* Reviewed/Acked/Tested-by lines in
					 * those replies (-1, "unknown", was
					 * for databases without the thread
					 * tables; every schema has them now) */
	const char *body;		/* the commit message after its subject */
};
typedef int (*onlist_report_cb)(const struct onlist_report_commit *c,
				void *data);

/* Call cb for the commit `sha`; ONLIST_ENOTFOUND when it is not stored. */
onlist_status onlist_store_report_commit(struct onlist_store *s,
					 const char *sha, onlist_report_cb cb,
					 void *data);
/* Every stored commit that landed in [since, until), by landing date then
 * commit date.  `cb` returning non-zero stops (still ONLIST_OK). */
onlist_status onlist_store_report_window(struct onlist_store *s,
					 int64_t since, int64_t until,
					 onlist_report_cb cb, void *data);
/* Every stored commit, by commit date. */
onlist_status onlist_store_report_all(struct onlist_store *s,
				      onlist_report_cb cb, void *data);

/* What the chart needs of each commit landed in [since, until): its
 * category, not its row.  Pointers valid during the callback only; `cb`
 * returning non-zero stops (still ONLIST_OK). */
struct onlist_report_state {
	const char *sha;
	int64_t landed_date;
	int posted;			/* a posting (onlist_report_commit's
					 * postings > 0) */
	const char *state;		/* the stored review state, or NULL */
	int replies, review_tags;	/* as onlist_report_commit's, only
					 * when state is NULL (else 0) */
};
typedef int (*onlist_report_state_cb)(const struct onlist_report_state *c,
				      void *data);
onlist_status onlist_store_report_window_states(struct onlist_store *s,
						int64_t since, int64_t until,
						onlist_report_state_cb cb,
						void *data);

/* Every posting of commit `sha` (its matches but 'echo' and 'late'), the
 * oldest first.  The strings are valid during the callback only; `cb`
 * returning non-zero stops (still ONLIST_OK).  ONLIST_EDB on a database
 * error. */
struct onlist_store_posting {
	const char *msgid;
	const char *list;	/* or NULL */
	int version;		/* the subject's (1 when none; "[PATCH v3
				 * 1/4]" is 3) */
};
typedef int (*onlist_posting_cb)(const struct onlist_store_posting *p,
				 void *data);
onlist_status onlist_store_report_postings(struct onlist_store *s,
					   const char *sha,
					   onlist_posting_cb cb, void *data);

/* The latest landing date recorded, or -1 when there is none (or on a
 * database error). */
int64_t onlist_store_report_latest_landing(struct onlist_store *s);

/* What a never-posted verdict needs (verdict.h).  The dates of the first
 * and last message (0 when there are none; a Date: of 0 or more than a
 * day ahead of now is not counted). */
onlist_status onlist_store_report_span(struct onlist_store *s, int64_t *first,
				int64_t *last);
/* The stored commit an abbreviated sha names and its first posting
 * (both malloc'd; *sha NULL when none or several commits have the
 * prefix, *msgid NULL when it was not posted). */
onlist_status onlist_store_report_posting_of_prefix(struct onlist_store *s,
					     const char *prefix, char **sha,
					     char **msgid);
/* The first mail without a patch whose stripped subject is `subject`
 * (any case); *msgid malloc'd, or NULL. */
onlist_status onlist_store_report_near_miss(struct onlist_store *s,
				     const char *subject, char **msgid);
/* The head of a series that the commit's siblings (landed by the same
 * merge, same author) were posted in and that misses a part; *msgid
 * malloc'd, or NULL. */
onlist_status onlist_store_report_series_gap(struct onlist_store *s, const char *sha,
				      char **msgid);

/* Whether a match by a tier that finds edited postings (fuzzy, ...)
 * exists at all: 1, 0 (those tiers have not run, and the report says
 * so), -1 on a database error. */
int onlist_store_report_has_edited(struct onlist_store *s);

/* ---- export ------------------------------------------------------------ */

enum onlist_export {
	ONLIST_EXPORT_COMMITS,
	ONLIST_EXPORT_POSTINGS,
	ONLIST_EXPORT_MATCHES,
	ONLIST_EXPORT_REVIEWS,		/* review tags given on the list */
	ONLIST_EXPORT_TRAILERS,
	ONLIST_EXPORT_REPLIES,		/* replies to postings */
};
/* Called once with the column names (vals NULL), then once per row; a
 * value is NULL for SQL NULL.  Non-zero stops. */
typedef int (*onlist_export_cb)(int ncol, const char *const *names,
				const char *const *vals, void *data);
/* Column types for the JSON writer: 'i' integer, 'n' number, 't' text. */
const char *onlist_export_types(enum onlist_export what);
onlist_status onlist_store_report_export(struct onlist_store *s,
				  enum onlist_export what,
				  onlist_export_cb cb, void *data);

#endif
