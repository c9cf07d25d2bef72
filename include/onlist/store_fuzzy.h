/* store_fuzzy.h - the patch fingerprint rows and what the fuzzy tier of
 * `onlist match` reads of them (store_fuzzy.c).
 *
 * At import each patch mail leaves its repaired patch-id, diff
 * fingerprint and commit-message words (message_patch); at match each
 * commit that exact patch-id leaves unmatched gets its patch-ids under
 * the other diff algorithms and its fingerprint (commit_patch, kept:
 * commits do not change).  Strings and blobs handed to a callback are
 * SQLite's, valid during the call only.
 */
#ifndef ONLIST_STORE_FUZZY_H
#define ONLIST_STORE_FUZZY_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"
#include "onlist/store.h"

struct onlist_store;

struct onlist_patch_row {
	const char *key;		/* msgid or commit sha */
	const char *repaired_id;	/* messages: NULL when none */
	const char *alt[3];		/* commits: the patch-ids under the
					 * histogram, patience and minimal
					 * algorithms; NULL for none */
	const uint32_t *fp;
	size_t nfp;
	const uint32_t *words;
	size_t nwords;
	const char *files;
	long added, removed;
};

onlist_status onlist_store_fuzzy_put_message_patch(struct onlist_store *s,
					     const struct onlist_patch_row *r);
onlist_status onlist_store_fuzzy_put_commit_patch(struct onlist_store *s,
					    const struct onlist_patch_row *r);

/* A commit still unmatched, for fuzzy matching or --explain. */
struct onlist_fuzzy_commit {
	const char *sha, *author_email, *author_name, *subject, *body;
	int64_t author_date, commit_date;
	int64_t bound;		/* latest posting date that counts; 0: none */
	const uint32_t *fp, *words;
	size_t nfp, nwords;
};
typedef int (*onlist_fuzzy_commit_cb)(const struct onlist_fuzzy_commit *c,
				      void *data);
/* Asked first, with part of a commit's row: its id, author address and
 * subject (either of the two may be NULL), dates and bound; the rest is
 * NULL or 0.  Non-zero when its full row is not wanted. */
typedef int (*onlist_fuzzy_skip_cb)(const struct onlist_fuzzy_commit *c,
				    void *data);
/* sha NULL: every unmatched commit, grouped by author (lower-case
 * address), oldest first within, but those skip (may be NULL) refuses;
 * else that one commit, matched or not. */
onlist_status onlist_store_fuzzy_commits(struct onlist_store *s,
					 const char *sha,
					 onlist_fuzzy_skip_cb skip,
					 onlist_fuzzy_commit_cb cb, void *data);

/* After new mail, once onlist_store_fuzzy_old() was read: the commits to
 * score again whole, in temp.fuzzy_todo (a superset: skip() decides):
 * the ones an earlier tier matched last run and none has now, and those
 * of DMARC-rewritten authors; their rows, and those of the commits an
 * earlier tier matches now, deleted (the other commits' stay).  The commits a new mail may be a
 * candidate of, to score against the new mails only, in temp.fuzzy_pairs:
 * those whose author address (lower case) is one of addrs and whose
 * window can hold a date of spans[i] (the first and last of the new
 * mails of that person), and those whose stripped subject (lower case,
 * the stored keys of onlist_store_match_keys_update()) is one of
 * subjects.  Before the rows go, cb->fuzzy is given the last run's
 * fuzzy matches of the commits to score again.  ONLIST_EDB. */
struct onlist_fuzzy_old_cbs;
onlist_status onlist_store_fuzzy_todo(struct onlist_store *s,
				      const char *const *addrs,
				      const int64_t (*spans)[2], size_t naddrs,
				      const char *const *subjects,
				      size_t nsubjects,
				      const struct onlist_fuzzy_old_cbs *cb,
				      void *data);
/* onlist_store_fuzzy_commits(), of the unmatched ones of temp.fuzzy_todo
 * only. */
onlist_status onlist_store_fuzzy_commits_todo(struct onlist_store *s,
					      onlist_fuzzy_skip_cb skip,
					      onlist_fuzzy_commit_cb cb,
					      void *data);
/* The same, of temp.fuzzy_pairs but temp.fuzzy_todo: those no earlier
 * tier matched (their kept fuzzy matches may be there).  skip() is given
 * a bound of 0 for a commit committed at or after `recent` (a non-zero
 * integer date): its window ends a year after that or later, so the
 * caller passes the latest new mail's date less a year, and the bound
 * cannot change what skip() decides.  cb() gets every commit whole. */
onlist_status onlist_store_fuzzy_commits_pairs(struct onlist_store *s,
					       int64_t recent,
					       onlist_fuzzy_skip_cb skip,
					       onlist_fuzzy_commit_cb cb,
					       void *data);

struct onlist_fuzzy_candidate {
	const char *msgid, *from_addr, *subject, *stripped;
	int64_t date;
	int version;
	int echo;		/* classified echo or bot */
	const uint32_t *fp, *words;
	size_t nfp, nwords;
	int dated;		/* it has a Date: raw_date, the Date (the
				 * subject candidates' window; date is when
				 * it counts as sent) */
	int64_t raw_date;
};
typedef int (*onlist_fuzzy_cand_cb)(const struct onlist_fuzzy_candidate *m,
				    void *data);
/* Patch mails by author address or with the same stripped subject (lower
 * case, as SQLite's lower() makes it), sent between lo and hi (epoch
 * seconds); echoes included (flagged).  by_author 0 leaves out the
 * author's own mails (the caller has them already). */
onlist_status onlist_store_fuzzy_candidates(struct onlist_store *s,
					    const char *addr,
					    const char *stripped_lower,
					    int64_t lo, int64_t hi, int by_author,
					    onlist_fuzzy_cand_cb cb, void *data);

/* The patch mails after message id since (the new mails of an
 * incremental run), as onlist_store_fuzzy_candidates() gives them. */
onlist_status onlist_store_fuzzy_new_mails(struct onlist_store *s,
					   int64_t since,
					   onlist_fuzzy_cand_cb cb, void *data);

/* The last run's tiers, saved by onlist_store_match_begin(), and the
 * patch mails after id since: each to its callback (strings valid during
 * the call only; non-zero stops). */
struct onlist_fuzzy_old_cbs {
	/* a commit an earlier tier than fuzzy matched last run and none
	 * has now (temp.fuzzy_tiered, which onlist_store_fuzzy_todo() reads) */
	int (*tiered)(const char *sha, void *data);
	/* a fuzzy match of a commit to score again (given by
	 * onlist_store_fuzzy_todo(), not here); sha and msgid never NULL */
	int (*fuzzy)(const char *sha, const char *msgid, double score,
		     void *data);
	/* a new patch mail: its sender and stripped subject, lower-cased,
	 * either NULL when unknown; its Date and when it counts as sent
	 * (the candidates' date, SENT), 0 when unknown */
	int (*mail)(const char *from, const char *stripped, int64_t date,
		    int64_t sent, void *data);
};
onlist_status onlist_store_fuzzy_old(struct onlist_store *s, int64_t since,
				     const struct onlist_fuzzy_old_cbs *cb,
				     void *data);
/* After new mail (matches changed in place, onlist_store_match_reset()),
 * when the tier runs whole or not at all: the last run's fuzzy rows go.
 * ONLIST_EDB. */
onlist_status onlist_store_fuzzy_clear(struct onlist_store *s);

#endif
