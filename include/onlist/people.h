/* people.h - identities through .mailmap, and tallies per name
 * (src/people.c). */
#ifndef ONLIST_PEOPLE_H
#define ONLIST_PEOPLE_H

#include <stddef.h>
#include "onlist/status.h"

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
