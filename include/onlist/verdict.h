/* verdict.h - what to say of a commit no posting matched.
 *
 * Either `unknown`: it landed after the archive's last message (plus a
 * day) or before its first, so the lists were never looked at for it, or
 * never posted, with a reason (reason.h): release, revert (of a commit
 * that was posted), translation, near_miss (a mail with its subject but
 * no patch is named), no_trace.  The archive's span is that of every
 * stored message, whichever list it came from.
 */
#ifndef ONLIST_VERDICT_H
#define ONLIST_VERDICT_H

#include <regex.h>
#include <stdint.h>
#include "onlist/reason.h"
#include "onlist/status.h"

struct onlist_store;

struct onlist_span {
	int64_t first, last;	/* message dates; 0, 0: no messages */
};

/* The archive's span, read once per command (a scan of the messages). */
onlist_status onlist_span_get(struct onlist_store *s, struct onlist_span *sp);

/* Non-zero when a commit landing at `landed` (its merge's date, or its
 * commit date when the landing is not known) lies outside the span: after
 * its end plus one day, or more than ONLIST_SPAN_BEFORE before its start
 * (a maintainer commits in his tree and posts from it days or weeks later,
 * and without merges the commit date is all that is known of the
 * landing).  An empty archive covers nothing. */
#define ONLIST_SPAN_BEFORE (30 * 86400)
int onlist_span_misses(const struct onlist_span *sp, int64_t landed);

struct onlist_verdict {
	int unknown;		/* outside the span: not looked for */
	char *why;		/* unknown after lookup --remote: which tiers
				 * the server could not be asked (remote.h
				 * ONLIST_REMOTE_UNASKED); NULL: outside the
				 * span */
	enum onlist_reason reason;	/* when not unknown */
	char *msgid;		/* near_miss: the mail; revert: the posting
				 * of the reverted commit; else NULL */
	char *reverted;		/* revert: the reverted commit's sha */
};

/* The verdict on one unposted commit.  `release` is the project's
 * onlist.releasePattern (REG_EXTENDED | REG_NOSUB) or NULL; `files` the
 * commit's paths one per line.  *out is cleared first; release it with
 * onlist_verdict_clear().  ONLIST_EDB or ONLIST_ENOMEM on failure. */
onlist_status onlist_verdict_unposted(struct onlist_store *s,
				      const struct onlist_span *sp,
				      const regex_t *release,
				      const char *sha, const char *subject,
				      const char *body, const char *files,
				      int64_t landed, struct onlist_verdict *out);
void onlist_verdict_clear(struct onlist_verdict *v);

#endif
