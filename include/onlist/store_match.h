/* store_match.h - the tables and queries behind `onlist match`'s tiers.
 *
 * At import each patch mail leaves its repaired patch-id, diff
 * fingerprint and commit-message words (message_patch); at match each
 * commit that exact patch-id leaves unmatched gets its patch-ids under
 * the other diff algorithms and its fingerprint (commit_patch, kept:
 * commits do not change): store_fuzzy.h.  The matches and echoes tables
 * are rebuilt by every `onlist match`, inside one transaction.
 */
#ifndef ONLIST_STORE_MATCH_H
#define ONLIST_STORE_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"
#include "onlist/patchid.h"
#include "onlist/store.h"
#include "onlist/store_fuzzy.h"	/* the fingerprint rows, the fuzzy tier */

struct onlist_store;

/* An echo or bot rule: messages whose `field` (list, from, subject,
 * mailer, patchwork, upstream) matches `pattern` (a lower-case glob with
 * * and ?; "1" for the flags) are of class `kind` ("echo" or "bot"). */
struct onlist_echo_rule {
	const char *kind, *field, *pattern;
};

/* What the rules see of one message; strings lower-case, NULL when
 * absent; lists newline-separated. */
struct onlist_classify_row {
	const char *msgid, *from, *subject, *mailer, *lists;
	int patchwork, upstream;
};
/* Return 1 and set *kind and *rule (static or long-lived strings) when the
 * message is an echo or a bot mail. */
typedef int (*onlist_classify_cb)(const struct onlist_classify_row *r,
				  const char **kind, const char **rule,
				  void *data);
/* The echoes table after one pass over the messages, inside the caller's
 * transaction; *count gets all the echo and bot mails.  rules_key names
 * the rules (any text that changes when they do): with the rules of the
 * last run, only the messages imported since are passed to cb, unless an
 * older message gained a list or its info since; else the table is
 * emptied and every message is.  ONLIST_EDB. */
onlist_status onlist_store_match_classify(struct onlist_store *s,
				    const char *rules_key,
				    onlist_classify_cb cb, void *data,
				    long *count);

/* (Re)compute temp.bound: the latest date a posting of each commit may
 * have, from its landing.  match_begin does it; --explain needs it too. */
onlist_status onlist_store_match_compute_bounds(struct onlist_store *s);
/* Empty the echoes table (inside the caller's transaction). */
onlist_status onlist_store_match_clear_echoes(struct onlist_store *s);
/* Start a match run: one transaction; the last run's log of changed
 * matches is dropped (the review asks the new one, temp.match_log, which
 * postings changed, and runs whole when a run made none). */
onlist_status onlist_store_match_begin(struct onlist_store *s);
/* Once the tier stamp is known: since -1 empties matches (every tier
 * runs whole; the last run's are kept in temp.old_matches); since >= 0
 * (after new mail) the tiers change them in place, each the rows of the
 * commits it computes again, and every row written or deleted is logged
 * (temp.match_log: commit_sha, message_id, method, op 1 or -1) until
 * onlist_store_match_log_end().  ONLIST_EDB. */
onlist_status onlist_store_match_reset(struct onlist_store *s, int64_t since);
onlist_status onlist_store_match_log_end(struct onlist_store *s);
/* An SQL condition, true when the row of matches keyed as the row r
 * (its alias: r.commit_sha, r.message_id, r.method) was there when the
 * log began: there now, less what the log wrote and deleted since (a
 * key's ops alternate).  After onlist_store_match_reset(), since >= 0. */
#define ONLIST_SQL_MATCH_WAS(r) \
	" (EXISTS (SELECT 1 FROM matches w WHERE w.commit_sha = " r ".commit_sha" \
	" AND w.message_id = " r ".message_id AND w.method = " r ".method)" \
	" - (SELECT coalesce(sum(w.op), 0) FROM temp.match_log w" \
	" WHERE w.message_id = " r ".message_id AND w.commit_sha = " r ".commit_sha" \
	" AND w.method = " r ".method)) = 1"
/* How many rows of method matches holds (in_place: changed in place,
 * the last run's count plus the log's; else counted); -1 on error. */
long onlist_store_match_count(struct onlist_store *s, const char *method,
			      int in_place);
/* What the link tier sees of a commit and of the stored patch or cover
 * letter (not an echo) that one of its Link: or Message-Id: trailers
 * names.  Strings are valid during the call only; files are one path a
 * line as the commit's diff and the mail's patch name them (the new
 * side), NULL when not known (a mail imported before they were kept, a
 * commit scan could not diff). */
struct onlist_link_row {
	const char *sha, *msgid;
	int cover;			/* 1: a cover letter, 0: a patch */
	const char *commit_subject;	/* the commit's, as in git */
	const char *commit_files;
	const char *mail_stripped;	/* the mail's, [PATCH ...] taken off */
	const char *mail_files;
};
/* Return 1 when the mail is a posting of the commit. */
typedef int (*onlist_link_cb)(const struct onlist_link_row *r, void *data);
/* The link tier: every mail a commit's trailers name that is a stored
 * patch or cover letter and that fits() takes (NULL: all of them) is a
 * `link` match.  *added counts new rows. */
onlist_status onlist_store_match_links(struct onlist_store *s,
				       onlist_link_cb fits, void *data,
				       long *added);
/* The one mail msgid that a trailer of the stored commit sha names, when
 * it is a stored patch or cover letter (not an echo): *taken is what
 * fits() (NULL: take all) answers, 1 or 0; -1 when there is no such
 * mail, or no such commit.  Nothing is stored.  ONLIST_EDB. */
onlist_status onlist_store_match_link_mail(struct onlist_store *s, const char *sha,
				     const char *msgid, onlist_link_cb fits,
				     void *data, int *taken);
/* Every such mail the trailers of the commit sha name, to each() (its
 * answer is not used); nothing is stored.  ONLIST_EDB, ONLIST_ENOMEM. */
onlist_status onlist_store_match_links_of(struct onlist_store *s, const char *sha,
				    onlist_link_cb each, void *data);
/* The tiers that are one statement each; *added counts new rows.
 * since: -1, or keep the last run's patch-id matches and look only at the
 * messages after id since (onlist_store_match_tier_stamp()) */
onlist_status onlist_store_match_exact(struct onlist_store *s, int64_t since,
				       long *added);
/* After onlist_store_match_begin(), before the tiers below: what new
 * mail (the messages after id since; none when since is -1) can change,
 * for the tiers to keep the last run's rows of the other commits (since
 * >= 0).  ONLIST_EDB. */
onlist_status onlist_store_match_since(struct onlist_store *s, int64_t since);
/* The tiers below take the same since: -1 runs them for every unmatched
 * commit; otherwise a commit new mail cannot change keeps its rows of
 * the last run (store_match.c says which can change). */
enum onlist_sql_tier {
	ONLIST_TIER_ALT,	/* patch-id by the other diff algorithms */
	ONLIST_TIER_REPAIRED,	/* the patch-id of a repaired mail */
	/* quoted: an unmatched commit whose patch-id (or repaired id) is
	 * that of the diff quoted by a reply whose In-Reply-To names a mail
	 * the database does not have (the archive lost the posting); the
	 * match (method `quoted`) names the reply */
	ONLIST_TIER_QUOTED,
	ONLIST_TIER_LATE,	/* posted only a day after it landed */
	ONLIST_TIER_ECHO,	/* only an echo list's copy */
};
/* One of the tiers that are a single statement: *added counts the new
 * rows.  ONLIST_EDB. */
onlist_status onlist_store_match_tier(struct onlist_store *s,
				      enum onlist_sql_tier t, int64_t since,
				      long *added);
/* author-date: a patch mail from the commit's author dated its author
 * date to the second (what git am makes), that fits() takes (NULL: all;
 * the row as the link tier's, cover 0).  *added counts new rows. */
onlist_status onlist_store_match_author_date(struct onlist_store *s,
					     int64_t since,
					     onlist_link_cb fits, void *data,
					     long *added);
/* The subject tier's two sides.  Strings are the store's, valid during
 * the callback only; any may be NULL; cb returns non-zero to stop. */
struct onlist_subject_commit_row {	/* an unmatched commit */
	const char *sha, *subject;
	const char *author;		/* the address, lower-cased */
	int64_t author_date;
	int64_t bound;			/* when it landed (bound), 0: unknown */
	/* to be computed again after new mail: in temp.dirty, or of a
	 * DMARC-rewritten author ("X via list") */
	int dirty;
};
struct onlist_subject_mail_row {	/* a patch mail no commit has */
	const char *msgid;
	const char *stripped;		/* subject without its prefixes */
	const char *from;		/* the sender, lower-cased */
	int64_t date;			/* when it was sent, 0: unknown */
	const char *diff;		/* its patch-id, or the msgid without one */
};
typedef int (*onlist_subject_commit_cb)(const struct onlist_subject_commit_row *r,
					void *data);
typedef int (*onlist_subject_mail_cb)(const struct onlist_subject_mail_row *r,
				      void *data);
/* Unmatched commits (only `sha` when not NULL), and patch mails no
 * commit has that are not echoes (only those from addr, lower case, when
 * not NULL). */
onlist_status onlist_store_match_subject_commits(struct onlist_store *s,
					   const char *sha,
					   onlist_subject_commit_cb cb,
					   void *data);
/* After new mail (after onlist_store_match_subject_changed()): the
 * unmatched commits the subject tier may answer differently for, as
 * onlist_store_match_subject_commits() gives them: those to compute again
 * (temp.dirty), those of DMARC-rewritten authors, and those whose author
 * address is one of the n addrs (lower case), or with keys, those of
 * author addrs[i] and subject key keys[i] (the stored keys).
 * ONLIST_EDB. */
onlist_status onlist_store_match_subject_commits_of(struct onlist_store *s,
						   const char *const *addrs,
						   const char *const *keys,
						   size_t n,
						   onlist_subject_commit_cb cb,
						   void *data);
onlist_status onlist_store_match_subject_mails(struct onlist_store *s,
					 const char *addr,
					 onlist_subject_mail_cb cb, void *data);
/* After new mail: the patch mails no earlier tier took of one sender and
 * subject key (the stored keys, onlist_store_match_keys_update()). */
onlist_status onlist_store_match_subject_mails_key(struct onlist_store *s,
						  const char *addr,
						  const char *key,
						  onlist_subject_mail_cb cb,
						  void *data);
/* The stored subject keys (commit_subject, mail_subject), made whole
 * (*whole, or none kept yet: *whole is set) or for the commits and
 * messages added since the last call: each commit's id, subject (may be
 * NULL) and lower-case author address to cb->commit, each patch mail's
 * Message-ID, stripped subject and lower-case sender to cb->mail, which
 * store what they make of them with the two put functions below, given
 * *whole (non-zero: out of memory).  ONLIST_EDB, ONLIST_ENOMEM. */
struct onlist_subject_key_cbs {
	int (*commit)(const char *sha, const char *subject, const char *author,
		      void *data);
	int (*mail)(const char *msgid, const char *stripped, const char *from,
		    void *data);
};
onlist_status onlist_store_match_keys_update(struct onlist_store *s, int *whole,
					     const struct onlist_subject_key_cbs *cb,
					     void *data);
/* stripped: lower case, as the fuzzy tier compares it; key:
 * onlist_subject_key() of the stripped subject */
onlist_status onlist_store_match_put_commit_key(struct onlist_store *s,
						int whole, const char *sha,
						const char *author,
						const char *stripped,
						const char *key);
onlist_status onlist_store_match_put_mail_key(struct onlist_store *s,
					      int whole, const char *msgid,
					      const char *addr, const char *key);
/* After new mail (since >= 0): temp.dirty made for the subject tier, and
 * each patch mail whose arrival or change of hands (an earlier tier took
 * it, or gave it back) can change the subject tier's answer, to cb (only
 * `from` and `stripped` set).  onlist_store_match_dirty_add() adds a
 * commit to compute again; onlist_store_match_subject_clear() deletes
 * their subject rows (and those of the commits an earlier tier matches
 * now), the others' stay.  ONLIST_EDB. */
onlist_status onlist_store_match_subject_changed(struct onlist_store *s,
					   int64_t since,
					   onlist_subject_mail_cb cb,
					   void *data);
onlist_status onlist_store_match_dirty_add(struct onlist_store *s, const char *sha);
onlist_status onlist_store_match_subject_clear(struct onlist_store *s);
onlist_status onlist_store_match_put(struct onlist_store *s, const char *sha,
				     const char *msgid, const char *method,
				     double score);

/* Unmatched commits without a commit_patch row (malloc'd array), but for
 * those scan could not diff (commit_skipped). */
onlist_status onlist_store_match_commits_needing_patch(struct onlist_store *s,
						 char (**shas)[41], size_t *n);

/* Every (name, lower-case address) that sent a patch mail or authored a
 * commit not matched yet, for the mailmap. */
onlist_status onlist_store_match_identities(struct onlist_store *s,
				      int (*cb)(const char *name,
						const char *addr, void *data),
				      void *data);

/* 1 when no commit landed by a merge, 0 when some did, -1 on error. */
int onlist_store_match_history_linear(struct onlist_store *s);
/* Commits with no bound in temp.bound (malloc'd array). */
onlist_status onlist_store_match_commits_unbounded(struct onlist_store *s,
					     char (**shas)[41], size_t *n);
/* Set a commit's bound in temp.bound. */
onlist_status onlist_store_match_put_bound(struct onlist_store *s, const char *sha,
				     int64_t bound);

/* What onlist_store_match_tier_stamp() counts of the tables, kept by the
 * caller between the tiers of one run (known = 0 before the first): the
 * tiers only write matches, so the counts are the same for each and the
 * whole-table counts are made once. */
struct onlist_match_tier_counts {
	int64_t now[2], fixed[4];
	int known;
};
#define ONLIST_MATCH_TIER_COUNTS_INIT { { 0 }, { 0 }, 0 }

/* What a tier reads, as a stamp to keep in meta name after the tier
 * (g_free it; NULL on a database error): key is the caller's (for fuzzy:
 * threshold, aliases).  *since gets the last message id of the stamp kept
 * from the last run when nothing the tier reads changed since but
 * messages added after it (the same commits, bounds and key, and no row
 * of the messages, their patch, info and echo rows, the commits or their
 * diffs rewritten or deleted: meta edits, schema step 20), else -1.
 * The table counts come from *counts when known, else are made and kept
 * there (counts may be NULL).  After onlist_store_match_begin() and the
 * bounds. */
char *onlist_store_match_tier_stamp(struct onlist_store *s, const char *name,
				    const char *key,
				    struct onlist_match_tier_counts *counts,
				    int64_t *since);
#endif
