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
/* Gets each row; non-zero stops the read. */
typedef int (*onlist_store_ignored_msg_cb)(
	const struct onlist_store_ignored_msg *m, void *data);
/* The patches and cover letters of each topic, all rows of a topic one
 * after the other, of one topic (`topic` not NULL) or all.  saved 0:
 * from the threads (topics in no promised order); saved 1: the messages
 * onlist_store_ignored_put() saved (skip always 0), by topic and
 * Message-ID; saved 2: those of the topics saved with no row in
 * ignored_topics yet (onlist_store_ignored_save_all()), by topic and
 * Message-ID.  Strings valid during the call.  cb non-zero stops.
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_members(struct onlist_store *s, int saved,
					   const char *topic,
					   onlist_store_ignored_msg_cb cb,
					   void *data);

/* A reply below a patch or cover letter: message_reply's kind ("tag",
 * "nak", "notice", "discussion"; "" when not known) and short text
 * ("" when none kept) beside what ignored.h reads; r.notice is 0 (the
 * caller decides it). */
struct onlist_store_ignored_reply {
	struct onlist_ignored_reply r;
	const char *kind, *text;
	long n;		/* replies_waiting: the place its caller gave
			 * the reply's target; else -1 */
};
typedef int (*onlist_store_ignored_reply_cb)(
	const struct onlist_store_ignored_reply *r, void *data);
/* A topic; non-zero stops the read. */
typedef int (*onlist_store_ignored_topic_cb)(const char *topic, void *data);
/* Every reply to a message of msgids[0..n) (patches and cover letters:
 * thread.h's `answers`), in no order (the caller knows each one's topic
 * by r.target).  Uses the temporary table ignored_targets, made by the
 * first call, emptied by each and left for the next: a caller that reads
 * members in batches calls it first with n 0 (a table made while a read
 * of this handle runs aborts that read), then for each batch, and drops
 * the table with onlist_store_ignored_targets_drop() when no read runs.
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_replies_to(struct onlist_store *s,
					      const char *const *msgids, size_t n,
					      onlist_store_ignored_reply_cb cb,
					      void *data);
/* The same rows, in the replies' Message-ID order, from one pass over
 * every reply, for the messages of the topics saved by
 * onlist_store_ignored_save_all() that have no row in ignored_topics yet
 * (those no commit has: most of the patches and cover letters, where the
 * pass is cheaper than a look-up of each): a reply is read when
 * place(its target, data) is not negative, and r->n is that place (the
 * caller's number of the target's topic).  place is called as rows are
 * read, more than once for a target; it may not use the store.
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_replies_waiting(struct onlist_store *s,
						   long (*place)(const char *msgid,
								 void *data),
						   onlist_store_ignored_reply_cb cb,
						   void *data);
void onlist_store_ignored_targets_drop(struct onlist_store *s);

/* The topic of a patch or cover letter, or of the one a reply answers:
 * *topic malloc'd (NULL when msgid is in none).  ONLIST_EDB,
 * ONLIST_ENOMEM. */
onlist_status onlist_store_ignored_topic(struct onlist_store *s,
					 const char *msgid, char **topic);

/* ---- the saved judgement: tables ignored_msgs and ignored_topics ------ */

/* out[0]: the largest message id; out[1..3]: the rows of message_reply,
 * message_trailers and message_patch; out[4..6]: of those, the rows of
 * messages whose id is above `since`.  ONLIST_EDB. */
onlist_status onlist_store_ignored_counts(struct onlist_store *s, int64_t since,
					  int64_t out[7]);
/* Delete the saved rows of one topic, or of all (topic NULL).
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_clear(struct onlist_store *s,
					 const char *topic);
/* Around a save of every topic (after the clear of all): the indexes of
 * the saved messages dropped, their definitions in *saved (free()), and
 * made again from them once every row is in: built once from sorted
 * keys, not row by row.  No read of the handle may run.  ONLIST_EDB,
 * ONLIST_ENOMEM. */
onlist_status onlist_store_ignored_index_drop(struct onlist_store *s,
					      char **saved);
onlist_status onlist_store_ignored_index_make(struct onlist_store *s,
					      const char *saved);
/* Save a topic: its messages m[0..n) (none: nothing saved) and what its
 * replies decided (answer 0, 1 answered or 2 notice; r the reply, or
 * NULL).  fresh: the tables were cleared (no message of it can be saved
 * under another topic).  ONLIST_EDB. */
onlist_status onlist_store_ignored_put(struct onlist_store *s, const char *topic,
				       const struct onlist_ignored_msg *m,
				       size_t n, int answer,
				       const struct onlist_ignored_reply *r,
				       int fresh);
/* A whole save, after onlist_store_ignored_clear(s, NULL): every
 * member onlist_store_ignored_members(s, 0, NULL, ...) reads that is not
 * skipped written as onlist_store_ignored_put_msgs() writes it, and the
 * row of each topic a commit has one of them (answer 0, no reply), as
 * onlist_store_ignored_put_topic() writes it; *applied those topics.
 * The rest are read back with onlist_store_ignored_members(s, 2, ...).
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_save_all(struct onlist_store *s,
					    long *applied);
/* The two halves of onlist_store_ignored_put(): the messages (n may be
 * 0), and the topic's row (written even when it has no message saved). */
onlist_status onlist_store_ignored_put_msgs(struct onlist_store *s,
					    const char *topic,
					    const struct onlist_ignored_msg *m,
					    size_t n, int fresh);
onlist_status onlist_store_ignored_put_topic(struct onlist_store *s,
					     const char *topic, int answer,
					     const struct onlist_ignored_reply *r);
/* Each topic (once) a saved message of which has another commit than
 * the matches give it now.  Only within a match run, after
 * onlist_store_match_reset() (it compares the matches with the last
 * run's, which the saved rows were made from: the log of what changed
 * or the copy of a whole run, store_match.h).
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_commit_changed(struct onlist_store *s,
						  onlist_store_ignored_topic_cb cb,
						  void *data);
/* The saved topics that a reply decided (answer 1 or 2) and that reply
 * (r->notice set for 2; r->target ""), of one topic or all.
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_answers(struct onlist_store *s,
					   const char *topic,
					   int (*cb)(const char *topic, int answer,
						     const struct onlist_ignored_reply *r,
						     void *data),
					   void *data);
/* Each topic (once) with a saved patch (no cover letter) sent or
 * written (in-body From:) by `who`, dated in (after, before).
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_later(struct onlist_store *s, const char *who,
					 int64_t after, int64_t before,
					 onlist_store_ignored_topic_cb cb,
					 void *data);
/* *n: how many topics have a saved patch changing `path`, counted up to
 * limit.  ONLIST_EDB. */
onlist_status onlist_store_ignored_file_topics(struct onlist_store *s,
					       const char *path, long limit,
					       long *n);

/* Each topic (once, in topic order) with a saved message dated in
 * [from, to): the report's period, without reading the others.
 * ONLIST_EDB. */
onlist_status onlist_store_ignored_dated(struct onlist_store *s, int64_t from,
					 int64_t to,
					 onlist_store_ignored_topic_cb cb,
					 void *data);
/* Each saved patch (no cover letter): its topic and the paths it changes
 * (one a line), the rows of a topic one after the other.  Strings valid
 * during the call; cb non-zero stops.  ONLIST_EDB. */
onlist_status onlist_store_ignored_patch_files(struct onlist_store *s,
					       int (*cb)(const char *topic,
							 const char *files,
							 void *data),
					       void *data);

#endif
