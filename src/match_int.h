/* match_int.h - what the files of the match stage share; private to
 * src/match*.c. */
#ifndef ONLIST_MATCH_INT_H
#define ONLIST_MATCH_INT_H

#include "onlist/match.h"
#include <glib.h>
#include "onlist/store_match.h"

/* The link tier's test: 1 when the linked mail is a posting of the
 * commit (a patch or cover that shares a file or the subject, sent before
 * the landing); data is an int set when memory ran short. */
int onlist__match_link_fits(const struct onlist_link_row *r, void *data);
/* The author-date tier's test: the mail has the commit's author and
 * author date, and shows a file both change or the subject. */
int onlist__match_author_date_fits(const struct onlist_link_row *r,
				   void *data);
/* The subject tier: the author's mails with the commit's subject that all
 * carry one patch; *added counts new matches.  since: as the tiers of
 * store_match.h take it (-1: every unmatched commit). */
onlist_status onlist__match_subjects(struct onlist_store *s, int64_t since,
				     long *added);
/* The stored subject keys of the commits and patch mails brought up to
 * date (whole: made again), for the subject and fuzzy tiers after new
 * mail.  ONLIST_EDB, ONLIST_ENOMEM. */
onlist_status onlist__match_subject_keys(struct onlist_store *s, int whole);
/* --explain: the linked patches the link tier refused, and what the
 * subject tier saw, into out. */
onlist_status onlist__explain_links(struct onlist_store *s, const char *sha,
				    struct onlist_explain *out);
onlist_status onlist__explain_subject(struct onlist_store *s, const char *sha,
				      struct onlist_explain *out);

/* A warning that does not stop the match, to the caller's o->warn. */
void onlist__match_warn(const struct onlist_match_opts *o, const char *what,
			const char *why);
/* Group addresses by what the repository's .mailmap (and the user's
 * alias file) makes of them: *canon maps an address to its canonical one,
 * *aliases a canonical one to every address (GPtrArray).  Without a
 * repository, or when git fails, both stay NULL. */
void onlist__match_aliases(struct onlist_store *s,
			   const struct onlist_match_opts *o,
			   GHashTable **canon, GHashTable **aliases);
/* The review phase's canonical addresses (NULL: none); canon_addr() looks
 * one up, canon_key() names the mapping for the tier stamps. */
GHashTable *onlist__match_review_canon(struct onlist_store *s,
				       const struct onlist_match_opts *o);
const char *onlist__match_canon_addr(const char *addr, void *data);
char *onlist__match_canon_key(GHashTable *canon);

#endif
