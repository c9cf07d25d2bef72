/* report.h - what `onlist report`, `stats` and `export` read from the
 * database, and where commits landed.
 *
 * The SQL is in src/store_report.c (its `landing` table is part of the
 * schema in store.c); the renderers are in the cmd_*.c files.
 */
#ifndef ONLIST_REPORT_H
#define ONLIST_REPORT_H

#include <stdint.h>
#include "onlist/status.h"
#include "onlist/repo.h"
#include "onlist/store.h"

/* Record where a commit landed (`onlist scan` does, for its range).  A
 * later scan replaces an earlier answer: the last range scanned is taken
 * to be the mainline.  Call inside onlist_store_begin/commit. */
onlist_status onlist_store_put_landing(struct onlist_store *s,
				       const struct onlist_landing *l);

/* One commit as the reports see it.  Every pointer is valid during the
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

/* Per week of landing, starting at `since` (weeks of 7 days): counts[i]
 * and unposted[i] for week i < nweeks, zeroed first. */
onlist_status onlist_store_report_weeks(struct onlist_store *s, int64_t since,
					int nweeks, long *counts,
					long *unposted);

/* The latest landing date recorded, or -1 when there is none (or on a
 * database error). */
int64_t onlist_store_latest_landing(struct onlist_store *s);

/* How many matches of method 'fuzzy' exist at all (0: the fuzzy tier has
 * not run, and the report says so). */
long onlist_store_count_method(struct onlist_store *s, const char *method);

/* ---- export ------------------------------------------------------------ */

enum onlist_export {
	ONLIST_EXPORT_COMMITS,
	ONLIST_EXPORT_POSTINGS,
	ONLIST_EXPORT_MATCHES,
	ONLIST_EXPORT_REVIEWS,
	ONLIST_EXPORT_TRAILERS,
};
/* Called once with the column names (vals NULL), then once per row; a
 * value is NULL for SQL NULL.  Non-zero stops. */
typedef int (*onlist_export_cb)(int ncol, const char *const *names,
				const char *const *vals, void *data);
/* Column types for the JSON writer: 'i' integer, 'n' number, 't' text. */
const char *onlist_export_types(enum onlist_export what);
onlist_status onlist_store_export(struct onlist_store *s,
				  enum onlist_export what,
				  onlist_export_cb cb, void *data);

/* ---- subsystems (src/subsys.c) ---------------------------------------- */

struct onlist_maintainers;

/* Parse a kernel-style MAINTAINERS file: sections named by a line of their
 * own, with F: (file pattern), X: (excluded pattern) and N: (regex on the
 * path) entries.  The text is copied.  ONLIST_ENOMEM only. */
onlist_status onlist_maintainers_parse(struct onlist_maintainers **out,
				       const char *text, size_t len);
void onlist_maintainers_free(struct onlist_maintainers *m);
/* How many sections have at least one pattern. */
size_t onlist_maintainers_count(const struct onlist_maintainers *m);

/* The section `path` belongs to: of the sections with an F: or N: entry
 * matching it and no X: entry excluding it, the most specific (deepest
 * pattern, as get_maintainer.pl ranks them; on a tie the first in the
 * file).  NULL when none matches.  The name is owned by m. */
const char *onlist_maintainers_section(const struct onlist_maintainers *m,
				       const char *path);

/* The subsystem of a commit touching `files` (one path per line): the
 * section most of its files belong to (with m), else the top two
 * components of the most common directory ("fs/ext4", "Makefile").  The
 * result is written into buf (always terminated). */
void onlist_subsystem(const struct onlist_maintainers *m, const char *files,
		      char *buf, size_t n);

/* ---- people and tallies (src/people.c) -------------------------------- */

/* Identities as recorded, mapped through the repository's .mailmap so that
 * one developer with several addresses counts once. */
struct onlist_people;
onlist_status onlist_people_new(struct onlist_people **out);
void onlist_people_free(struct onlist_people *p);	/* NULL is fine */
/* Remember an identity (duplicates are fine); then resolve once. */
onlist_status onlist_people_add(struct onlist_people *p, const char *name,
				const char *email);
/* Map every identity with `git check-mailmap` in repo (NULL: no mapping,
 * names stay as recorded) and alias_file (an extra mailmap, may be NULL).
 * ONLIST_EGIT with git's message in *errmsg (caller frees). */
onlist_status onlist_people_resolve(struct onlist_people *p, const char *repo,
				    const char *alias_file, char **errmsg);
/* The name to count this identity under: the mailmapped name, else the
 * recorded one, else the address.  Owned by p (or the arguments). */
const char *onlist_people_name(const struct onlist_people *p,
			       const char *name, const char *email);

/* Counts per name, sorted by count (descending) then name. */
struct onlist_tally_row {
	char *name;
	long count;
	long extra;		/* a second count the caller keeps per name */
};
struct onlist_tally {
	struct onlist_tally_row *v;
	size_t n, alloc;
};
#define ONLIST_TALLY_INIT { NULL, 0, 0 }
onlist_status onlist_tally_add(struct onlist_tally *t, const char *name);
/* Count one more `extra` for a name already added; ONLIST_ENOTFOUND else. */
onlist_status onlist_tally_extra(struct onlist_tally *t, const char *name);
void onlist_tally_sort(struct onlist_tally *t);
void onlist_tally_release(struct onlist_tally *t);

#endif
