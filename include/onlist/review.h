/* review.h - the review a commit got on the list, over every version of
 * its topic: which trailers given in replies are review, and the state of
 * a posted commit.  No database here: onlist_review_update()
 * (review_update.c) has store_review.c load the rows, calls these, and
 * has the review_tags and commit_review tables written.
 *
 * The rules:
 *
 * - a review tag is a Reviewed-by, Acked-by or Tested-by trailer (on a
 *   line of its own, not quoted: msgmeta.h) in a reply below a patch or a
 *   cover letter (thread.h's `answers`); Nacked-by and a bare "NAK" line
 *   are recorded as NAKs, never as review;
 * - not a reviewer nor a discussant, one rule for tags, replies and
 *   lookup's reply counts: the sender of the patch or cover answered and
 *   its Co-developed-by people; the commit's author and Co-developed-by
 *   people (from git); for every version of the patch (its postings
 *   among them) its sender, its credited author (the in-body From:) and
 *   its Co-developed-by people; and bots (a reply that the echo/bot
 *   rules classify).  A tag counts only when neither the person it names
 *   nor the one who sent it is such;
 * - an applied notice ("Thanks, applied.", msgmeta.h), from anyone, is
 *   neither review nor discussion: it is kept as the state's evidence
 *   when nothing else decides it;
 * - the versions of a commit's patch: its postings (matches that count)
 *   and every patch of the same topic with the same stripped subject
 *   (lower case), or with the commit's subject from its author (sender
 *   or in-body From); its series: the series of those.  The topics read
 *   are those of the postings and those where the store found an
 *   earlier version under another subject (store_review.c);
 * - state: `reviewed` when a tag that counts answers a version of the
 *   patch; else `reviewed_series` when one answers the cover letter of
 *   one of its series (in a series without one, the patch the others
 *   answer stands for it), or another patch of one when its reply says it is
 *   for the whole series ("For the series: Reviewed-by: ...", msgmeta.h:
 *   a sibling's own tag reviews the sibling only); such a tag on another
 *   version of the topic whose copy of the patch the archive lacks
 *   counts too, when a part of that version is missing just where the
 *   patch sits (between the parts matched by subject to its neighbours
 *   in its own series: v1 9/12 lost, v2 split it into 9/13 and 10/13,
 *   "For all 12: Acked-by" on v1); else `discussed` when
 *   anyone but the non-reviewers replied with something else than a
 *   notice to a version of the patch (an older RFC version too: it is
 *   the same change) or to the cover letter of one of its series (or the
 *   patch standing for it; not to
 *   a sibling patch only); else `no_reply`;
 * - off the list: a Reviewed/Acked/Tested-by trailer of the commit whose
 *   person (address after .mailmap; the name when the trailer has no
 *   address) gave no review trailer anywhere in the topic;
 * - `unknown`: the state would be no_reply or discussed, git carries an
 *   off-list review trailer of someone who is no non-reviewer (above)
 *   nor a bot, and the archive ends before the commit landed (its
 *   commit date) or less than ONLIST_REVIEW_MARGIN after it: the tag may
 *   have been given on the list after the archive's end, so the archive
 *   cannot say.  When the archive goes on past that, the tag was given
 *   off the list, and that is the finding: the state stays.
 *
 * Addresses are compared as given: the caller lower-cases them and maps
 * them through .mailmap first.
 */
#ifndef ONLIST_REVIEW_H
#define ONLIST_REVIEW_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

enum onlist_review_state {
	ONLIST_REVIEW_NO_REPLY,
	ONLIST_REVIEW_DISCUSSED,
	ONLIST_REVIEW_SERIES,		/* "reviewed_series" */
	ONLIST_REVIEW_REVIEWED,
	ONLIST_REVIEW_UNKNOWN,		/* the archive cannot decide (above) */
};
#define ONLIST_REVIEW_NSTATES 5
/* "no_reply", "discussed", "reviewed_series", "reviewed", "unknown". */
const char *onlist_review_state_name(enum onlist_review_state s);

/* What a trailer key is: */
enum onlist_review_kind {
	ONLIST_TAG_NONE,		/* not review (Signed-off-by, ...) */
	ONLIST_TAG_REVIEW,		/* Reviewed-by, Acked-by, Tested-by */
	ONLIST_TAG_NAK,			/* Nacked-by, NAK */
};
enum onlist_review_kind onlist_review_kind(const char *key);

/* One review trailer in a reply.  Strings are borrowed; "" when absent. */
struct onlist_review_tag {
	/* in */
	const char *msgid;		/* the reply */
	const char *key, *name, *addr;	/* addr canonical, "" when none */
	const char *sender;		/* the reply's From, canonical */
	int bot;			/* the reply is a bot's (echo/bot rules) */
	const char *target;		/* the patch or cover letter answered */
	const char *target_from;	/* its sender, canonical */
	const char *target_author;	/* its in-body From, canonical; "" */
	const char *target_codev;	/* its Co-developed-by addresses,
					 * canonical, one per line */
	int series_scope;		/* the reply says the tag is for the
					 * whole series (msgmeta.h) */
	/* out (onlist_review_judge) */
	const char *why_not;		/* NULL: review by someone else; else
					 * "bot", "sender", "author" (the
					 * target's in-body From:),
					 * "co-developer" */
};
void onlist_review_judge(struct onlist_review_tag *t);

/* A patch or cover letter of the topics a commit was posted in. */
struct onlist_review_msg {
	const char *msgid, *series;
	int cover;			/* a cover letter, not a patch */
	const char *from;		/* canonical */
	const char *stripped;		/* subject without prefixes, lower case */
	int posting;			/* a posting of the commit */
	const char *author;		/* in-body From, canonical; "" none */
	const char *codev;		/* its Co-developed-by addresses,
					 * canonical, one per line; "" none */
	int linked;			/* an earlier version under another
					 * subject, by the commit's author
					 * (store_review.c) */
	int reply;			/* a "Re:" carrying a diff: a
					 * reviewer's sketch, whose sender
					 * is no author of the patch */
	int part, total;		/* "[PATCH part/total]"; a cover
					 * letter's part 0; -1: none */
};

/* A reply in those topics. */
struct onlist_review_reply {
	const char *msgid;		/* the reply */
	const char *target;		/* the patch or cover letter answered */
	const char *sender;		/* canonical */
	int bot;
	int notice;			/* an applied notice (msgmeta.h) */
};

/* A trailer of the commit in git. */
struct onlist_review_trailer {
	const char *key, *name, *addr;	/* addr canonical, "" when none */
	int bot;			/* addr is a bot's (echo/bot rules) */
};

/* How long the archive must go on after a commit landed for a review tag
 * in git, missing from the list, to count as given off the list: a day
 * (a Date: written by a clock hours off, mail still on its way when the
 * archive was copied; verdict.h's span takes a day as well). */
#define ONLIST_REVIEW_MARGIN 86400

struct onlist_review_in {
	const char *author;		/* the commit's author, canonical */
	const char *subject;		/* the commit's subject, lower case;
					 * "" when unknown */
	const struct onlist_review_trailer *trailers;	/* all of them */
	size_t ntrailers;
	const struct onlist_review_msg *msgs;
	size_t nmsgs;
	const struct onlist_review_tag *tags;	/* judged; those whose target
						 * is not in msgs are skipped */
	size_t ntags;
	const struct onlist_review_reply *replies;
	size_t nreplies;
	int64_t landed;			/* the commit's commit date; 0: not
					 * known (never unknown) */
	int64_t archive_end;		/* the last message of the lists its
					 * postings were on; 0: not known */
};

struct onlist_review_out {
	enum onlist_review_state state;
	long evidence;			/* index into tags of the tag that
					 * decided reviewed/reviewed_series
					 * (the first on a posting, else the
					 * first), else -1 */
	int naks;			/* NAKs from others than the authors */
	unsigned char *off_list;	/* caller's array of ntrailers: set
					 * to 1 for each review trailer no
					 * tag on the list matches, else 0 */
	long notice;			/* index into replies of the first
					 * applied notice on a version of the
					 * patch or its cover letter, else on
					 * the topic, else -1 */
	long untold;			/* unknown: index into trailers of the
					 * review trailer the archive may have
					 * ended too early to show, else -1 */
	unsigned char *counted;		/* caller's array of nreplies, or
					 * NULL: 1 for each reply that is
					 * discussion by someone else (what
					 * makes `discussed`), else 0 */
};

/* The state of one posted commit.  ONLIST_ENOMEM. */
onlist_status onlist_review_commit(const struct onlist_review_in *in,
				   struct onlist_review_out *out);

/* The replies lookup counts, by the rule of the state: those
 * onlist_review_commit() marked in counted[0..nreplies). */
struct onlist_review_tally {
	/* caller's arrays of nmsgs: for each posting msgs[i], the replies
	 * that count to it or to the cover letter of its series, and
	 * their distinct senders; 0 for other messages */
	int *replies, *repliers;
	/* caller's array of nmsgs: for the first message of each series
	 * in msgs, the replies that count to any message of that series
	 * (its row in lookup's versions); -1 for the others */
	int *series_replies;
};

/* Fill t.  ONLIST_ENOMEM. */
onlist_status onlist_review_tally(const struct onlist_review_in *in,
				  const unsigned char *counted,
				  struct onlist_review_tally *t);

/* ---- the review phase of `onlist match` (review_update.c) ---- */

/* The canonical form of a lower-case address (after .mailmap), or addr
 * itself; the result must live until onlist_review_update returns. */
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

/* Rebuild review_tags and commit_review (store_review.h).  Call inside a
 * transaction (match's, begun by onlist_store_match_begin), after the
 * thread tables, the echo/bot classes and the matches are built.  canon
 * may be NULL (addresses as they are); canon_key names what it does (any
 * text that changes when it does).  The commit_review rows computed
 * again are only those of commits whose postings changed or that were
 * posted in a topic the thread build changed (meta review_dirty), unless
 * the classes or canon_key changed since: then all.  is_bot may be NULL
 * (no address is a bot's).  notice[0..nnotice): the rules file's notice
 * patterns (lower-case globs, msgmeta.h), added to the built-in ones; a
 * change of them, or of the number of replies whose kind is known,
 * computes all again too.  Also rebuilt: commit_notice and
 * posting_replies.  *c (may be NULL) gets the counts.  ONLIST_EDB (the
 * store's message set), ONLIST_ENOMEM. */
struct onlist_store;
onlist_status onlist_review_update(struct onlist_store *s,
				   onlist_canon_fn canon, void *data,
				   const char *canon_key,
				   onlist_bot_addr_fn is_bot, void *bot_data,
				   const char *const *notice, size_t nnotice,
				   struct onlist_review_counts *c);

#endif
