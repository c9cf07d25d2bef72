/* store_review.h - the review given on the list (tables review_tags and
 * commit_review), as review.h decides it from the thread tables, the
 * trailers of mails and commits, and the matches.
 *
 * Derived data: `onlist match` rebuilds both tables after the matches,
 * inside its transaction (onlist_review_update(), review.h).  Readers:
 * lookup, report, export, stats.
 */
#ifndef ONLIST_STORE_REVIEW_H
#define ONLIST_STORE_REVIEW_H

#include <stdint.h>
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

/* ---- the rebuild --------------------------------------------------------- */

/* review_tags, commit_review, commit_notice, posting_replies,
 * series_replies and review_links, read and written for
 * onlist_review_update() (review.h), which decides which commits are
 * computed again and asks review.c to judge them.  Call inside a
 * transaction (match's).  Each returns ONLIST_OK, or ONLIST_EDB with the
 * handle's message set; strings handed to a callback are SQLite's, valid
 * during the call; a callback's status other than ONLIST_OK stops the
 * walk and is returned.  some: 0 every posted commit, 1 only those
 * chosen (onlist_store_review_some_commits(), _some_topics()). */

/* n[0]: the mails whose reply kind is known; n[1]: of them, those stored
 * after message id upto (0 when upto < 0); n[2]: the highest message id. */
onlist_status onlist_store_review_reply_counts(struct onlist_store *s,
					       int64_t upto, int64_t n[3]);
/* 1 when the match tiers logged what they changed (temp.match_log, an
 * incremental match run in this handle), else 0. */
int onlist_store_review_has_log(struct onlist_store *s);
/* 1 when commit_review has a row, 0 when it has none, -1 when it cannot
 * be read. */
int onlist_store_review_any(struct onlist_store *s);

/* Choosing some commits: _some_begin() empties the set, _some_topic()
 * adds a topic the thread build changed, _some_commits() adds the
 * commits whose postings changed (and their topics) and keeps the tags
 * as they are; after the tags are written again, _some_topics() adds the
 * topics whose tags changed, the commits posted or linked in any chosen
 * topic and those whose review was unknown, and deletes their rows. */
onlist_status onlist_store_review_some_begin(struct onlist_store *s);
onlist_status onlist_store_review_some_topic(struct onlist_store *s,
					     const char *topic);
onlist_status onlist_store_review_some_commits(struct onlist_store *s);
onlist_status onlist_store_review_some_topics(struct onlist_store *s);

/* review_tags emptied, and (all) every commit's rows too. */
onlist_status onlist_store_review_clear(struct onlist_store *s, int all);
/* review_links written again: of every posted commit, or (some) of the
 * chosen commits and those their topics can change, which are chosen
 * too. */
onlist_status onlist_store_review_links(struct onlist_store *s, int some);

/* A review trailer in a reply (or one it quotes from a mail the archive
 * lost), with what it answers.  Addresses lower case, "" when none. */
struct onlist_store_review_tag_row {
	const char *msgid;		/* the reply */
	int seq;			/* message_trailers.seq; 1000 up: quoted */
	const char *key, *name, *addr, *value;
	const char *sender;		/* the reply's From */
	int64_t date;			/* the reply's */
	int echo;			/* the reply is in echoes (echo/bot rules) */
	const char *target;		/* the patch or cover letter answered */
	const char *target_class;	/* its class; "cover" for a mail
					 * without a patch */
	const char *target_from;	/* its sender */
	const char *target_codev;	/* its Co-developed-by, one a line */
	const char *series, *topic;	/* the target's; NULL: none */
	/* the target's, as stored; has_*: not SQL NULL */
	int version, part, total;
	int has_version, has_part, has_total;
	const char *target_author;	/* its in-body From */
	int series_scope;		/* the reply says it is for the series */
};
typedef onlist_status (*onlist_store_review_tag_cb)(
	const struct onlist_store_review_tag_row *r, void *data);
/* Every review trailer in a reply, oldest reply first. */
onlist_status onlist_store_review_tags(struct onlist_store *s,
				       onlist_store_review_tag_cb cb,
				       void *data);
/* r (as the walk handed it) written to review_tags, judged why_not
 * (review.h; NULL: review by someone else). */
onlist_status onlist_store_review_put_tag(struct onlist_store *s,
				const struct onlist_store_review_tag_row *r,
				const char *why_not);

/* A patch or cover letter of a topic a commit was posted in (or linked
 * to); addresses and stripped lower case, "" when none. */
struct onlist_store_review_member {
	const char *msgid, *series, *topic;
	const char *cls;		/* ONLIST_CLASS_*; "patch" when unknown */
	const char *from, *stripped, *author;
	const char *codev;		/* Co-developed-by addresses, one a line */
	int reply, part, total;		/* part, total -1: none */
};
typedef onlist_status (*onlist_store_review_member_cb)(
	const struct onlist_store_review_member *r, void *data);
onlist_status onlist_store_review_members(struct onlist_store *s, int some,
					  onlist_store_review_member_cb cb,
					  void *data);

/* A reply in those topics (one that answers: thread.h), in date order.
 * Of all commits (some 0), the topics' patches and cover letters
 * _members(some 0), called just before, gathered in a temporary table
 * are read again, and dropped (without that call: ONLIST_EDB, no such
 * table). */
struct onlist_store_review_reply_row {
	const char *target;		/* the patch or cover letter answered */
	const char *sender;		/* lower case, "" */
	int echo;			/* in echoes (echo/bot rules) */
	const char *topic, *msgid;
	const char *kind, *text;	/* message_reply's; NULL: none */
};
typedef onlist_status (*onlist_store_review_reply_cb)(
	const struct onlist_store_review_reply_row *r, void *data);
onlist_status onlist_store_review_replies(struct onlist_store *s, int some,
					  onlist_store_review_reply_cb cb,
					  void *data);

/* A trailer in git of a posted commit, in order; value NULL: none. */
struct onlist_store_review_trailer_row {
	const char *sha, *key, *value;
};
typedef onlist_status (*onlist_store_review_trailer_cb)(
	const struct onlist_store_review_trailer_row *r, void *data);
onlist_status onlist_store_review_trailers(struct onlist_store *s, int some,
					   onlist_store_review_trailer_cb cb,
					   void *data);

/* A posted commit's posting (posted 1) or linked earlier version
 * (posted 0), ordered by commit: each commit's rows come together. */
struct onlist_store_review_posted {
	const char *sha, *msgid;
	const char *author;		/* lower case, "" */
	const char *topic;		/* NULL: the mail is in no series */
	const char *subject;		/* the commit's, lower case, "" */
	int posted;
};
typedef onlist_status (*onlist_store_review_posted_cb)(
	const struct onlist_store_review_posted *r, void *data);
onlist_status onlist_store_review_commits(struct onlist_store *s, int some,
					  onlist_store_review_posted_cb cb,
					  void *data);

/* Where each list's archive ends (review.h's `unknown`): a pass over
 * every message, made (again) before _coverage() is asked. */
onlist_status onlist_store_review_list_end(struct onlist_store *s);
/* sha's commit date and the end of the archive of the lists its postings
 * were on, else of the whole database; 0 when not known. */
onlist_status onlist_store_review_coverage(struct onlist_store *s,
					   const char *sha, int64_t *landed,
					   int64_t *end);

/* One commit's rows: its first applied notice (commit_notice), the
 * replies to a series of its topic (series_replies), to one of its
 * postings (posting_replies), and its review (commit_review). */
onlist_status onlist_store_review_put_notice(struct onlist_store *s,
					     const char *sha,
					     const char *msgid);
onlist_status onlist_store_review_put_series_replies(struct onlist_store *s,
						     const char *sha,
						     const char *series,
						     int replies);
onlist_status onlist_store_review_put_posting(struct onlist_store *s,
					      const char *sha,
					      const char *msgid, int replies,
					      int repliers);
struct onlist_store_review_row {
	const char *sha, *state;	/* onlist_review_state_name() */
	const char *evidence_msgid;	/* NULL: none (nor evidence_seq) */
	int evidence_seq;
	int naks;
	const char *off_list_tags, *why;	/* NULL: none */
};
onlist_status onlist_store_review_put(struct onlist_store *s,
				      const struct onlist_store_review_row *r);

/* Each state in commit_review and its number of commits: which 0 of all
 * of them, 1 of the commits chosen (onlist_store_review_some_topics()),
 * 2 of those as they were before it deleted their rows. */
onlist_status onlist_store_review_states(struct onlist_store *s, int which,
					 onlist_status (*cb)(const char *state,
							     int64_t n,
							     void *data),
					 void *data);

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
