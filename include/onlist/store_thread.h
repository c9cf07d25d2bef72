/* store_thread.h - what each message is (patch, reply, cover letter, pull
 * request), the trailers given in it, and the threads and series the
 * messages form.
 *
 * Per-message facts are written at import (onlist_store_put_message_info,
 * keyed by Message-ID like the message itself).  Threads, the replies to
 * each patch and the series/version grouping depend on messages that may
 * arrive in any order, so they are derived data: onlist_store_build_threads()
 * recomputes them from scratch in one transaction (`onlist match` runs it).
 */
#ifndef ONLIST_STORE_THREAD_H
#define ONLIST_STORE_THREAD_H

#include <stdint.h>
#include "onlist/status.h"
#include "onlist/store.h"
#include "onlist/thread.h"	/* ONLIST_CLASS_* */

struct onlist_store;

struct onlist_msg_trailer {
	const char *key, *name, *addr, *value;
};

struct onlist_message_info {
	const char *msgid;
	const char *cls;		/* ONLIST_CLASS_* */
	int reply, version, part, total;	/* part/total -1: none */
	const char *prefix;		/* "RFC PATCH net-next" */
	const char *stripped;		/* subject without prefixes */
	const char *change_id;		/* NULL: none */
	const char *mailer;		/* X-Mailer / User-Agent */
	int patchwork;			/* X-Patchwork-* headers */
	int upstream;			/* "commit <sha> upstream." (stable) */
	/* the in-body "From:" (git am's author when someone else posts
	 * the patch): name and lower-cased address; NULL when none */
	const char *author_name, *author_addr;
	const char *pull_url, *pull_ref, *pull_tip; /* NULL: not a pull */
	/* a reply: what it says ("tag", "nak", "notice", "discussion") and
	 * its own text when short (NULL: none kept); reply_kind NULL: no
	 * reply */
	const char *reply_kind, *reply_text;
	/* the patch-id and repaired id of the diff a reply quotes; NULL */
	const char *quoted_id, *quoted_repaired;
	const struct onlist_msg_trailer *trailers;
	int ntrailers;
};

/* Insert unless known (the first message with a Message-ID wins, as in
 * onlist_store_put_message).  The in-body author is inserted even when
 * the rest is known, and so is the reply's kind: a message stored
 * before message_author or message_reply existed gets them when imported
 * again. */
onlist_status onlist_store_put_message_info(struct onlist_store *s,
					    const struct onlist_message_info *i);

struct onlist_thread_counts {
	long messages, threads, replies, series, topics;
	long written;		/* thread rows written by this build: all of
				 * them the first time, then those that
				 * changed (0 when nothing came in) */
	long built;		/* messages whose rows were computed: all of
				 * them, only those new mail can change, or 0 */
};

/* Rebuild the thread, replies and series tables, as thread.h computes
 * them from every message, in one transaction; *c (may be NULL) gets the
 * counts.  When no message came in since the last build the tables stand
 * and *c is read from them; when the last build kept its pending
 * references only the messages the new ones can change are computed
 * again, else all of them; either way only the rows that differ from what
 * is stored are written (the same rows as a rebuild from empty tables).  ONLIST_EDB, ONLIST_ENOMEM (message set). */
onlist_status onlist_store_build_threads(struct onlist_store *s,
					 struct onlist_thread_counts *c);



/* ---- reading ------------------------------------------------------------ */

/* The whole thread that msgid belongs to, one row per message, in no
 * particular order:
 *   msgid, parent, depth, date, from_name, from_addr, subject, class
 * ONLIST_ENOTFOUND when msgid is not stored (or `match` has not run since
 * it was imported). */
onlist_status onlist_store_thread(struct onlist_store *s, const char *msgid,
				  onlist_row_cb cb, void *data);

/* The trailers given in one message: key, name, addr, value. */
onlist_status onlist_store_message_trailers(struct onlist_store *s,
					    const char *msgid,
					    onlist_row_cb cb, void *data);

struct onlist_posting_detail {
	char cls[8];
	int version, part, total;
	char prefix[128];
	int replies;		/* replies by people other than the author */
	int repliers;		/* distinct such people */
};
/* What is known about a posting; ONLIST_ENOTFOUND when nothing. */
onlist_status onlist_store_posting_detail(struct onlist_store *s,
					  const char *msgid,
					  struct onlist_posting_detail *d);

/* Review given on the list for a patch: the Reviewed-by, Acked-by,
 * Tested-by and Nacked-by lines in replies to it or to its cover letter,
 * written by others than the patch's author.  Rows:
 *   key, name, addr, reply msgid, replier name, replier addr, date */
onlist_status onlist_store_reviews(struct onlist_store *s, const char *msgid,
				   onlist_row_cb cb, void *data);
#endif
