/* match.h - joining commits to the mails that posted them, in tiers.
 *
 *   link          a Link:/Message-Id: trailer names a stored message
 *   patch-id      exact `git patch-id --stable`
 *   patch-id-alg  the commit's patch-id under histogram, patience or
 *                 minimal diff equals the mail's
 *   repaired      the mail's diff, repaired the way mailers damage it (or a
 *                 quilt / diff -u patch put in git form), has the commit's
 *                 patch-id
 *   quoted        a reply to a mail the archive lost quotes a diff with
 *                 the commit's patch-id (or repaired id): that mail was
 *                 the posting; the match names the reply
 *   fuzzy         same author or same subject, posted before the commit
 *                 landed (plus a day), and close enough in changed lines
 *                 and commit message: "posted, modified before merge"
 *   late          nothing above, but the patch was posted more than a day
 *                 after the commit landed: a backport or resend; unposted
 *   echo          nothing above, but an echo or bot mail carries the same
 *                 patch: the commit is still unposted, and this says what
 *                 echoed it
 *
 * Mails classified echo or bot (rules: onlist_match_default_rules, plus
 * the user's) never count as postings.
 */
#ifndef ONLIST_MATCH_H
#define ONLIST_MATCH_H

#include <stdint.h>
#include <stdio.h>
#include "onlist/status.h"
#include "onlist/store_match.h"

struct onlist_store;

#define ONLIST_FUZZY_THRESHOLD 0.5

struct onlist_match_opts {
	const char *repo;	/* for the other diff algorithms; NULL: skip */
	const struct onlist_echo_rule *rules;	/* added to the defaults */
	size_t nrules;
	double threshold;	/* fuzzy acceptance; 0: the default */
	int no_fuzzy;
	const char *aliases;	/* a mailmap of the user's, or NULL */
	void (*progress)(const char *what, long done, long total, void *data);
	/* when a phase ends: "threads", "classes and commit diffs", "exact
	 * tiers", "fuzzy tier", "reviews" */
	void (*phase)(const char *name, void *data);
	/* a problem that does not stop the match, on one line ("no tag
	 * dates: ..."): the result is still right, only less bounded */
	void (*warn)(const char *msg, void *data);
	void *progress_data;	/* for all three */
};

struct onlist_match_counts {
	long classified;	/* echo and bot mails */
	long link, patchid, alt, repaired, author_date, subject, fuzzy;
	long late, echo;	/* match rows */
	long quoted;		/* match rows of the quoted tier */
	long review_tags;	/* review tags on the list by someone else */
	long review_state[5];	/* posted commits per onlist_review_state */
	/* the fuzzy tier kept the last run's matches of the commits no mail
	 * after this message id reaches; -1: it scored every commit */
	long long fuzzy_since;
	long long exact_since;	/* the same for the patch-id tier */
	/* posted commits with a review, and how many of them this run
	 * computed (the others were kept: no new mail or match reaches) */
	long reviews, reviews_computed;
};

onlist_status onlist_match_run(struct onlist_store *s,
			       const struct onlist_match_opts *o,
			       struct onlist_match_counts *c, char **errmsg);

/* Whether the link tier takes msgid, which a Link: or Message-Id:
 * trailer of the stored commit sha names, as the commit's posting:
 * *taken 1, or 0 for another project's patch on a shared list (it
 * touches none of the commit's files and has another subject); -1 when
 * msgid is no stored patch or cover letter (or an echo), sent more than
 * a day after the commit landed, or sha no stored commit.  ONLIST_EDB or
 * ONLIST_ENOMEM with *errmsg (caller frees). */
onlist_status onlist_match_link_taken(struct onlist_store *s, const char *sha,
				      const char *msgid, int *taken,
				      char **errmsg);

/* What `match --explain` shows for one commit: the library finds it, the
 * command prints it.  Strings are mail and git text as stored (not yet
 * made safe for a terminal). */
struct onlist_explain_link {	/* a linked patch the link tier refused */
	char *msgid;
	char *subject;		/* the mail's, [PATCH ...] taken off */
	char **files;		/* the files it touches; NULL-terminated */
};

struct onlist_explain_subject {	/* what the subject tier saw */
	char **msgids;		/* the author's mails with the subject */
	size_t nmsgids;
	size_t npatches;	/* distinct patch-ids among them */
};

enum onlist_fuzzy_why {
	ONLIST_FUZZY_TAKEN,
	ONLIST_FUZZY_ECHO,	/* an echo or bot mail */
	ONLIST_FUZZY_LATE,	/* sent more than a day after the landing */
	ONLIST_FUZZY_FEW_LINES,	/* too few changed lines in common */
	ONLIST_FUZZY_BELOW,	/* below the threshold */
};

struct onlist_explain_cand {	/* one fuzzy candidate and its scores */
	char *msgid, *from, *subject;
	int version;
	double diff, msg, score;	/* changed lines, message, total */
	int same_subject, same_author;
	enum onlist_fuzzy_why why;
};

struct onlist_explain {
	struct onlist_explain_link *links;
	size_t nlinks;
	struct onlist_explain_subject *subjects;
	size_t nsubjects;
	/* the fuzzy tier; fuzzy 0: not computed for this commit (its exact
	 * patch-id matched a posting, or no repository was given to diff
	 * it), and the fields below are empty */
	int fuzzy;
	char *author;		/* lower-case address */
	char *stripped;		/* lower-case subject */
	int64_t bound;		/* landing, 0: unknown (no time bound) */
	int empty_diff;		/* the commit's diff is empty */
	struct onlist_explain_cand *cands;	/* best score first */
	size_t ncands;
};

/* Find, for one commit, the linked patches the link tier refuses and
 * why, what the subject tier saw, every fuzzy candidate and its scores,
 * and why it was or was not taken (after onlist_match_run).  *x is
 * filled (onlist_explain_release() frees it, also after an error). */
onlist_status onlist_match_explain(struct onlist_store *s,
				   const struct onlist_match_opts *o,
				   const char *sha, struct onlist_explain *x,
				   char **errmsg);
void onlist_explain_release(struct onlist_explain *x);

/* The built-in echo and bot rules. */
extern const struct onlist_echo_rule onlist_match_default_rules[];
extern const size_t onlist_match_ndefault_rules;

/* Read rules from a file: "KIND FIELD PATTERN" per line, '#' comments.
 * *rules is malloc'd (strings inside it too; free with
 * onlist_match_free_rules).  ONLIST_EPARSE with *errmsg on a bad line. */
onlist_status onlist_match_read_rules(const char *path,
				      struct onlist_echo_rule **rules,
				      size_t *n, char **errmsg);
void onlist_match_free_rules(struct onlist_echo_rule *rules, size_t n);

#endif
