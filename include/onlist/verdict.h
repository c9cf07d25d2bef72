/* verdict.h - what to say of a commit no posting matched.
 *
 * Either `unknown`: it landed after the archive's last message (plus a
 * day) or before its first, so the lists were never looked at for it, or
 * never posted, with a reason (reason.h): embargoed (a rules line),
 * release, revert (of a commit that was posted), translation, near_miss
 * (a mail with its subject but no patch is named), then the path it took
 * (paths.h): pulled (a pull request posted to a list), forge_review,
 * pulled_unannounced; else no_trace.  Beside the reason, the path and
 * whether the commit matters for security (security_relevant).  The
 * archive's span is that of every stored message, whichever list it came
 * from.
 */
#ifndef ONLIST_VERDICT_H
#define ONLIST_VERDICT_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include "onlist/paths.h"
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
	char *note;		/* embargoed: the rule's text */
	char *security;		/* the mark that makes the commit matter
				 * (paths.h onlist_security_mark), or NULL */
	struct onlist_path path;	/* how it reached the mainline; kind
					 * UNKNOWN when unknown or not asked */
};

/* The verdict on one unposted commit.  `release` is the project's
 * onlist.releasePattern (REG_EXTENDED | REG_NOSUB) or NULL; `files` the
 * commit's paths one per line.  *out is cleared first; release it with
 * onlist_verdict_release().  ONLIST_EDB or ONLIST_ENOMEM on failure. */
onlist_status onlist_verdict_unposted(struct onlist_store *s,
				      const struct onlist_span *sp,
				      const regex_t *release,
				      const char *sha, const char *subject,
				      const char *body, const char *files,
				      int64_t landed, struct onlist_verdict *out);
void onlist_verdict_release(struct onlist_verdict *v);

/* security_relevant for a commit that was posted: its mark (as above) when
 * no review was given on the list (`reviewed` 0: the review states
 * no_reply and discussed), else NULL.  0, or -1 when out of memory. */
int onlist_verdict_security_posted(const char *body, int reviewed,
				   char **out);

/* Non-zero when an `embargo` rule (store_paths.h onlist_store_paths_embargo_rules
 * text: "commit SHA TEXT", the sha abbreviated to 7 digits or more, or
 * "subject GLOB TEXT", GLOB one word where only * and ? are special, case
 * ignored) names the commit; *text then points into rules at the rule's
 * text, *len its length. */
int onlist_verdict_embargo(const char *rules, const char *sha,
			   const char *subject, const char **text,
			   size_t *len);

#endif
