/* store_paths.h - what paths.h reads from the database: a commit's
 * landing with its merge's second parent and forge request, the pull
 * requests posted for a tip or a ref, and the embargo rules the last
 * match kept.  SQL in src/store_paths.c.
 */
#ifndef ONLIST_STORE_PATHS_H
#define ONLIST_STORE_PATHS_H

#include <stdint.h>
#include "onlist/status.h"

struct onlist_store;

struct onlist_landing_row {
	int known;			/* a landing is recorded */
	int64_t landed_date;
	char *merge_sha, *merge_subject;
	char *merge_tip;		/* the merge's second parent; NULL when
					 * applied directly, or scanned before
					 * schema 13 */
	char *merge_request;		/* "g/p!N" from a "See merge request"
					 * line of the merge, or NULL */
};
/* The landing of `sha`; out->known 0 when there is none.  Strings are the
 * caller's (onlist_landing_row_release).  ONLIST_EDB, ONLIST_ENOMEM. */
onlist_status onlist_store_paths_landing_of(struct onlist_store *s, const char *sha,
				      struct onlist_landing_row *out);
void onlist_landing_row_release(struct onlist_landing_row *r);

/* A stored pull request: the mail, its first list and date, and what
 * `git request-pull` named.  Valid during the callback only. */
struct onlist_pull_row {
	const char *msgid, *list, *url, *ref, *tip;
	int64_t date;
};
typedef int (*onlist_pull_cb)(const struct onlist_pull_row *p, void *data);

/* The pull requests dated no later than `before` whose tip is `tip` (or
 * an abbreviation of it, 7 hex digits or more), newest first; non-zero
 * from cb stops.  ONLIST_EDB. */
onlist_status onlist_store_paths_pulls_by_tip(struct onlist_store *s,
					const char *tip, int64_t before,
					onlist_pull_cb cb, void *data);
/* The same for the pull requests naming the tag or branch `ref` (given
 * without "refs/", "tags/" or "heads/": those in the mail may carry
 * them). */
onlist_status onlist_store_paths_pulls_by_ref(struct onlist_store *s,
					const char *ref, int64_t before,
					onlist_pull_cb cb, void *data);

/* The embargo rules of the last match (meta `embargo_rules`: "commit SHA
 * TEXT" and "subject GLOB TEXT" lines), malloc'd in *out, NULL when there
 * are none.  ONLIST_EDB when the database could not say. */
onlist_status onlist_store_paths_embargo_rules(struct onlist_store *s, char **out);

/* The message of a stored commit after its subject, malloc'd in *out
 * (NULL when the commit is not stored).  ONLIST_EDB, ONLIST_ENOMEM. */
onlist_status onlist_store_paths_commit_body(struct onlist_store *s, const char *sha,
				       char **out);

#endif
