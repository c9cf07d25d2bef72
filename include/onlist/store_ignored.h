/* store_ignored.h - the rows onlist_ignored_run() (ignored.h) judges:
 * the commits' dates and paths, every patch and cover letter of each
 * topic, and the replies below them.  SQL only; read-only.
 */
#ifndef ONLIST_STORE_IGNORED_H
#define ONLIST_STORE_IGNORED_H

#include <stdint.h>
#include "onlist/ignored.h"
#include "onlist/status.h"

struct onlist_store;

/* Each scanned commit's commit date and the paths it changes (one a
 * line; "" when none): cb(date, files, data), non-zero stops.
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_commits(struct onlist_store *s,
					   int (*cb)(int64_t date,
						     const char *files,
						     void *data),
					   void *data);

/* A patch or cover letter of a topic, as read.  skip: a message that
 * heads no topic of its own (a pull request, an echo or bot mail, a
 * stable backport, a "Re:" carrying a reviewer's diff). */
struct onlist_store_ignored_msg {
	const char *topic;
	struct onlist_ignored_msg m;
	int skip;
};
/* Every patch and cover letter, grouped by topic (all rows of a topic
 * one after the other, topics in no promised order); only those of the
 * topic `topic` when not NULL.  Strings valid during the call.  cb
 * non-zero stops.  ONLIST_EDB. */
onlist_status onlist_store_ignored_members(struct onlist_store *s,
					   const char *topic,
					   int (*cb)(const struct onlist_store_ignored_msg *m,
						     void *data),
					   void *data);

/* A reply below a patch or cover letter: message_reply's kind ("tag",
 * "nak", "notice", "discussion"; "" when not known) and short text
 * ("" when none kept) beside what ignored.h reads; r.notice is 0 (the
 * caller decides it). */
struct onlist_store_ignored_reply {
	const char *topic;
	struct onlist_ignored_reply r;
	const char *kind, *text;
};
/* Every reply to a patch or cover letter of a topic (thread.h's
 * `answers`), in no promised order; only topic `topic` when not NULL.
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_replies(struct onlist_store *s,
					   const char *topic,
					   int (*cb)(const struct onlist_store_ignored_reply *r,
						     void *data),
					   void *data);

/* The same for the replies to msgids[0..n) only (patches and cover
 * letters), in no order; r.topic is "" (the caller knows it by
 * r.target).  Uses, and drops, the temporary table ignored_targets.
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_replies_to(struct onlist_store *s,
					      const char *const *msgids, size_t n,
					      int (*cb)(const struct onlist_store_ignored_reply *r,
							void *data),
					      void *data);

/* The topic of a patch or cover letter, or of the one a reply answers:
 * *topic malloc'd (NULL when msgid is in none).  ONLIST_EDB,
 * ONLIST_ENOMEM. */
onlist_status onlist_store_ignored_topic(struct onlist_store *s,
					 const char *msgid, char **topic);

#endif
