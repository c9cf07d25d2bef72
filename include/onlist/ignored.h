/* ignored.h - the patch series posted to the lists that nobody answered
 * and nobody applied (onlist ignored, the report's "still unanswered",
 * lookup's answer for a posting).
 *
 * The unit is a topic (thread.h: the versions of one piece of work); it
 * is shown as its latest series.  The rules, in the order they decide:
 *
 * - applied: a commit matches some message of some version (any tier,
 *   links included, a late match too: the patch is in the history);
 * - other: no patch of any version touches a file of the scanned
 *   repository (a path some scanned commit changed, or a new file in a
 *   folder one did; top-level files only by name), or none under
 *   --paths: a patch for another project on a shared list;
 * - answered: someone replied to some version (to a patch or a cover
 *   letter, at any depth of its thread) who is none of the topic's
 *   authors (the senders of its patches and cover letters, their in-body
 *   From: and Co-developed-by people, and a sender whose display name of
 *   two words or more is one of theirs), nor a bot (the echo/bot rules
 *   of the last match), and whose reply is not an applied notice;
 * - notice: an applied notice ("Thanks, applied.", msgmeta.h) answered
 *   it and no commit has it: applied in a branch onlist did not scan, or
 *   changed past what the tiers find.  Someone looked at it: NOT ignored;
 * - unknown_before / unknown_after: its latest version was posted before
 *   the oldest scanned commit (it may have landed before the scan) or
 *   after the newest (a newer patch cannot be judged yet);
 * - recent: posted less than `age` before the line, the earlier of the
 *   newest scanned commit and the newest mail;
 * - superseded: it would be ignored, but a later topic of the same
 *   sender (or in-body author), posted within a year after it, was
 *   applied, answered or noticed, and a patch of each changes a file
 *   the other does, either one that three topics at most change in the
 *   whole archive (a test of its own), or with subjects of mostly the
 *   same words (half of their words of three letters or more, at
 *   least): a new version that thread.h did not link, its subject
 *   reworded ("requests" -> "reqs", "test CQE skipping" -> "add tests
 *   for IOSQE_CQE_SKIP_SUCCESS");
 * - ignored: all the rest.
 *
 * Versions thread.h links are one topic: every version is looked at for
 * an answer and a commit, so a topic with an answered or applied
 * version is never listed.
 *
 * No database here: store_ignored.h reads the rows; onlist_ignored_run()
 * joins them.
 */
#ifndef ONLIST_IGNORED_H
#define ONLIST_IGNORED_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

enum onlist_ignored_state {
	ONLIST_IGN_IGNORED,
	ONLIST_IGN_APPLIED,
	ONLIST_IGN_OTHER,
	ONLIST_IGN_ANSWERED,
	ONLIST_IGN_NOTICE,
	ONLIST_IGN_BEFORE,
	ONLIST_IGN_AFTER,
	ONLIST_IGN_RECENT,
	ONLIST_IGN_SUPERSEDED,
	ONLIST_IGN_NSTATES
};
/* "ignored", "applied", "other_project", "answered", "notice_only",
 * "unknown_before", "unknown_after", "too_recent", "superseded". */
const char *onlist_ignored_state_name(enum onlist_ignored_state s);

/* A patch or cover letter of a topic.  Strings are borrowed, never NULL
 * ("" when absent). */
struct onlist_ignored_msg {
	const char *msgid, *series;	/* series: its head's msgid */
	int64_t date;
	const char *list;		/* the first list it was seen on */
	const char *from;		/* lower-case address */
	const char *from_name;
	const char *subject;
	const char *author;		/* in-body From:, lower case */
	const char *codev;		/* Co-developed-by addresses, lower
					 * case, one per line */
	int version;
	int cover;			/* a cover letter: no files */
	const char *files;		/* the paths its patch changes, one
					 * per line */
	const char *commit;		/* a commit that matches it, or "" */
};

/* A reply below a patch or cover letter of the topic. */
struct onlist_ignored_reply {
	const char *msgid;
	const char *target;		/* the patch or cover letter it answers */
	int64_t date;
	const char *from;		/* lower-case address */
	const char *from_name;
	int bot;			/* an echo or bot mail */
	int notice;			/* an applied notice */
};

/* What the judgement is made against. */
struct onlist_ignored_scope {
	int64_t first_commit, last_commit;	/* commit dates; 0: no commit */
	int64_t last_mail;		/* 0: no mail */
	int64_t age;			/* seconds; the default is 4 weeks */
	/* non-zero when a path is the scanned repository's (and under
	 * --paths) */
	int (*known_path)(const char *path, void *data);
	void *path_data;
};
#define ONLIST_IGNORED_AGE (28 * 86400)

/* The line: the newest date a topic's latest version may have to be
 * judged (the earlier of the newest commit and the newest mail, less
 * age); 0 when nothing can be judged (no commit or no mail). */
int64_t onlist_ignored_line(const struct onlist_ignored_scope *sc);

struct onlist_ignored_out {
	enum onlist_ignored_state state;
	size_t head;			/* index in msgs of the latest
					 * series' head (cover letter, or
					 * first patch) */
	int64_t date;			/* the latest version's date */
	long patches;			/* patches in the latest series */
	long series;			/* series (versions) in the topic */
	int versions[16];		/* their distinct version numbers,
					 * lowest first; at most 16 kept */
	int nversions;
	/* applied: the message and its commit; answered, notice: the
	 * reply that decided it; else -1 */
	long msg, reply;
};

/* Judge one topic: msgs[0..n) its patches and cover letters (n > 0),
 * replies[0..nr) the replies below them.  Never "superseded": that
 * needs the other topics (onlist_ignored_run()).  ONLIST_OK, or
 * ONLIST_EUSAGE when n is 0. */
onlist_status onlist_ignored_judge(const struct onlist_ignored_scope *sc,
				   const struct onlist_ignored_msg *msgs,
				   size_t n,
				   const struct onlist_ignored_reply *replies,
				   size_t nr, struct onlist_ignored_out *out);

/* ---- over the database -------------------------------------------------- */

struct onlist_store;

/* Where the judgement stands: the scope's dates, the repository last
 * scanned (malloc'd, NULL when none), how many commits and distinct
 * paths, and --paths given. */
struct onlist_ignored_ctx {
	struct onlist_ignored_scope scope;
	char *repo;
	long commits, paths;
	int64_t first_mail;
	/* set by the caller after init, 0: open: onlist_ignored_run()
	 * calls back only for topics whose latest message is dated in
	 * [since, until), and reads replies only for those; of the others
	 * it reads those that may supersede one (all of them when the
	 * judgement saved by the last match is not current, or since is
	 * 0): an applied topic outside the period still supersedes one in
	 * it, an answered one does not */
	int64_t since, until;
	/* private */
	void *priv;
};

/* Read the scope from s: commit dates and paths, the mail's span, the
 * notice patterns the last match used.  paths[0..npaths): prefixes a
 * series must touch (--paths; a trailing '/' optional), or none.
 * age: seconds (< 0: the default).  Release with
 * onlist_ignored_ctx_release() whatever the return.  ONLIST_EDB,
 * ONLIST_ENOMEM. */
onlist_status onlist_ignored_ctx_init(struct onlist_ignored_ctx *ctx,
				      struct onlist_store *s,
				      const char *const *paths, size_t npaths,
				      int64_t age);
void onlist_ignored_ctx_release(struct onlist_ignored_ctx *ctx);

/* Called for each topic judged: its messages and replies (valid during
 * the call only) and the verdict.  Non-zero stops the walk. */
typedef int (*onlist_ignored_cb)(const struct onlist_ignored_msg *msgs,
				 size_t n,
				 const struct onlist_ignored_reply *replies,
				 size_t nr,
				 const struct onlist_ignored_out *out,
				 void *data);

/* Judge every topic of the database (msgid NULL), or the one topic of
 * the patch, cover letter or reply `msgid` (then ONLIST_ENOTFOUND when
 * it belongs to none: not a posting; the later topics that may supersede
 * it are read all the same).  Pull requests, echo and bot mails,
 * stable backports and reviewers' diffs ("Re:" with a patch) head no
 * topic of their own.  ONLIST_EDB, ONLIST_ENOMEM (the store's message
 * set for EDB). */
onlist_status onlist_ignored_run(struct onlist_ignored_ctx *ctx,
				 struct onlist_store *s, const char *msgid,
				 onlist_ignored_cb cb, void *data);

/* ---- the saved judgement ------------------------------------------------ */

struct onlist_match_opts;

/* Called by onlist_match_run() once the matches are made, inside its
 * transaction, before the review (which empties meta review_dirty):
 * save what ignored judges of each topic that does not depend on the
 * scanned repository's paths and dates nor on other topics (its patches
 * and cover letters with their commits, and what its replies decided) in
 * the tables ignored_msgs and ignored_topics.  Only the topics the
 * thread build changed (review_dirty) and those whose matches changed
 * are judged again, unless the rules, the notice patterns of o or rows
 * beside old messages changed (then all).  onlist_ignored_run() reads
 * the tables while the threads are the ones this match built (meta
 * ignored_threads), else judges from the threads as before.
 * *recomputed (when not NULL): the topics written.  ONLIST_EDB. */
onlist_status onlist_ignored_update(struct onlist_store *s,
				    const struct onlist_match_opts *o,
				    long *recomputed);

#endif
