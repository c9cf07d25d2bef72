/* store_review.h - the review given on the list (tables review_tags and
 * commit_review), as review.h decides it from the thread tables, the
 * trailers of mails and commits, and the matches.
 *
 * Derived data: `onlist match` rebuilds both tables after the matches,
 * inside its transaction.  Readers: lookup, report, export, stats.
 */
#ifndef ONLIST_STORE_REVIEW_H
#define ONLIST_STORE_REVIEW_H

#include "onlist/status.h"
#include "onlist/store.h"

struct onlist_store;

/* Every person a review rebuild compares: (name, lower-case address) of
 * review and Co-developed-by trailers in mails and commits, of the
 * senders of replies that carry such trailers and of postings, and of
 * the authors of posted commits; some more than once.  For .mailmap.
 * cb returning non-zero stops. */
onlist_status onlist_store_review_people(struct onlist_store *s,
					 int (*cb)(const char *name,
						   const char *addr, void *data),
					 void *data);

/* The canonical form of a lower-case address (after .mailmap), or addr
 * itself; the result must live until onlist_store_review_build returns. */
typedef const char *(*onlist_canon_fn)(const char *addr, void *data);

/* Non-zero when a lower-case address is a bot's (the echo/bot "from"
 * rules): a review trailer naming it is no review, whoever sent it. */
typedef int (*onlist_bot_addr_fn)(const char *addr, void *data);

struct onlist_review_counts {
	long tags;		/* review trailers given in replies */
	long reviews;		/* of them, review by someone else */
	long commits;		/* posted commits given a state */
	long computed;		/* of them, computed by this run */
	long state[5];		/* per enum onlist_review_state */
};

/* Rebuild review_tags and commit_review.  Call inside a transaction
 * (match's, begun by onlist_store_match_begin), after the thread tables,
 * the echo/bot classes and the matches are built.  canon may be NULL
 * (addresses as they are); canon_key names what it does (any text that
 * changes when it does).  The commit_review rows computed again are only
 * those of commits whose postings changed or that were posted in a topic
 * the thread build changed (meta review_dirty), unless the classes or
 * canon_key changed since: then all.  is_bot may be NULL (no address
 * is a bot's).  notice[0..nnotice): the rules file's notice patterns
 * (lower-case globs, msgmeta.h), added to the built-in ones; a change
 * of them, or of the number of replies whose kind is known, computes
 * all again too.  Also rebuilt: commit_notice and posting_replies.
 * ONLIST_EDB, ONLIST_ENOMEM. */
onlist_status onlist_store_review_build(struct onlist_store *s,
					 onlist_canon_fn canon, void *data,
					 const char *canon_key,
					 onlist_bot_addr_fn is_bot,
					 void *bot_data,
					 const char *const *notice,
					 size_t nnotice,
					 struct onlist_review_counts *c);

/* A review tag a reply quotes (msgmeta.h's onlist_find_quoted_trailers):
 * strings borrowed, addr lower-case ("" none), attrib the address of the
 * quote's attribution line or "". */
struct onlist_quoted_tag {
	const char *key, *name, *addr, *value, *attrib;
};

/* Store the tags reply msgid quotes (table quoted_tags), at import; a
 * reply's rows are written once (the first import wins).  ONLIST_EDB. */
onlist_status onlist_store_review_put_quoted_tags(struct onlist_store *s,
					   const char *msgid,
					   const struct onlist_quoted_tag *t,
					   size_t n);

/* ---- reading ------------------------------------------------------------ */

/* The review of one commit.  Strings are malloc'd (NULL when absent);
 * release with onlist_commit_review_release(). */
struct onlist_commit_review {
	char *state;		/* no_reply, discussed, reviewed_series,
				 * reviewed, unknown (review.h); NULL: no
				 * row (never posted, or match has not run
				 * since the upgrade) */
	int naks;
	char *off_list_tags;	/* "Key: value" lines in git not given on
				 * the list, or NULL */
	/* the tag that decided reviewed / reviewed_series */
	char *ev_key, *ev_value, *ev_msgid, *ev_from;
	char *ev_target, *ev_target_subject, *ev_target_class;
	int ev_version, ev_part, ev_total;	/* of the target; part -1: none */
	/* the first applied notice (review.h), or NULL: the mail, its
	 * sender's name (the address when it has none), its date (seconds,
	 * as text) */
	char *notice_msgid, *notice_name, *notice_date;
	/* unknown: why, in a line ("the archive ends 2026-01-19, before the
	 * commit landed 2026-01-28; git carries Acked-by: ..."); else NULL */
	char *why;
};
#define ONLIST_COMMIT_REVIEW_INIT { NULL, 0, NULL, NULL, NULL, NULL, NULL, \
				    NULL, NULL, NULL, 0, -1, -1, NULL, NULL, \
				    NULL, NULL }
/* ONLIST_OK (state NULL when the commit has none), ONLIST_EDB,
 * ONLIST_ENOMEM. */
onlist_status onlist_store_review_commit(struct onlist_store *s,
					 const char *sha,
					 struct onlist_commit_review *out);
void onlist_commit_review_release(struct onlist_commit_review *r);

/* The replies to one posting of sha (to it, and to the cover letter of
 * its series) and their distinct senders, by the rule of the review
 * state (review.h): notices, bots and the commit's own people left out.
 * ONLIST_ENOTFOUND when the review has no row for it (match has not run
 * since), ONLIST_EDB. */
onlist_status onlist_store_review_posting_replies(struct onlist_store *s,
					   const char *sha, const char *msgid,
					   int *replies, int *repliers);

/* One version (series) of a topic (onlist_store_review_topic_versions).
 * Strings valid during the callback only; any may be NULL. */
struct onlist_version_row {
	const char *series;		/* the series head's Message-ID */
	int version;			/* 1 when the subject gives none */
	const char *date;		/* epoch seconds, as text */
	const char *lists;		/* one per line */
	const char *subject;
	int replies;	/* from others than the series' sender */
	/* review tags given in the series ("Key: value" lines, NAKs
	 * included; only those that are review by someone else) */
	const char *tags;
	int posted;			/* a posting of the commit is in it */
};
typedef int (*onlist_version_row_cb)(const struct onlist_version_row *r,
				     void *data);

/* Every version (series) of the topics a commit was posted in, oldest
 * version first; cb returns non-zero to stop. */
onlist_status onlist_store_review_topic_versions(struct onlist_store *s,
					  const char *sha,
					  onlist_version_row_cb cb,
					  void *data);

#endif
