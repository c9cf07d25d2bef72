/* store_thread.h - what each message is (patch, reply, cover letter, pull
 * request), the trailers given in it, and the threads and series the
 * messages form.
 *
 * Per-message facts are written at import (onlist_store_thread_put_message_info,
 * keyed by Message-ID like the message itself).  Threads, the replies to
 * each patch and the series/version grouping depend on messages that may
 * arrive in any order, so they are derived data: onlist_thread_update()
 * (thread.h) recomputes them in one transaction (`onlist match` runs it)
 * through the functions below.
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
onlist_status onlist_store_thread_put_message_info(struct onlist_store *s,
					    const struct onlist_message_info *i);

struct onlist_thread_counts {
	long messages, threads, replies, series, topics;
	long written;		/* thread rows written by this build: all of
				 * them the first time, then those that
				 * changed (0 when nothing came in) */
	long built;		/* messages whose rows were computed: all of
				 * them, only those new mail can change, or 0 */
};

/* The thread, replies and series tables, read and written for
 * onlist_thread_update() (thread.h), which decides what is computed again
 * and which rows are written.  Each returns ONLIST_OK, or ONLIST_EDB with
 * the handle's message set; strings handed to a callback are SQLite's,
 * valid during the call. */

/* What the tables are built from: the messages, their classes and
 * in-body authors only ever grow. */
struct onlist_thread_stamp {
	int64_t count, maxid, info, authors;
};
onlist_status onlist_store_thread_stamp(struct onlist_store *s,
					struct onlist_thread_stamp *out);
/* The same, from an earlier stamp whose every message had its class
 * (was->info == was->count): reads the messages since, and counts them
 * all (a small index), counting everything when some went. */
onlist_status onlist_store_thread_stamp_since(struct onlist_store *s,
					const struct onlist_thread_stamp *was,
					struct onlist_thread_stamp *out);
/* The same of the rows of the messages in temp.aff (the part of
 * onlist_store_thread_aff_start()): after 0, before its rows are written
 * (topics 0); after 1, once they are, with topics the number of topics
 * added less those gone since. */
onlist_status onlist_store_thread_part_counts(struct onlist_store *s,
					      int after,
					      struct onlist_thread_counts *c);
/* c's messages, threads, replies, series and topics, from the tables. */
onlist_status onlist_store_thread_counts(struct onlist_store *s,
					 struct onlist_thread_counts *c);
/* 1 when the thread table has a row. */
int onlist_store_thread_has(struct onlist_store *s);

/* What onlist_thread_build() needs of a message: NULL columns as
 * thread.h says "none" is, except cls (NULL: not known); _len: the bytes
 * of the three ids.  A row gives all of it (ONLIST_THREAD_ROW_ALL), or,
 * read a table at a time, the message's own columns with the others as
 * for a message without class or author (_MESSAGE), then for a message
 * already given its class (_INFO: msgid and cls to upstream) or its
 * in-body author (_AUTHOR: msgid, author and author_name). */
enum onlist_store_thread_row_kind {
	ONLIST_THREAD_ROW_ALL, ONLIST_THREAD_ROW_MESSAGE,
	ONLIST_THREAD_ROW_INFO, ONLIST_THREAD_ROW_AUTHOR,
};
struct onlist_store_thread_row {
	enum onlist_store_thread_row_kind kind;
	const char *msgid, *in_reply_to, *refs;
	size_t msgid_len, in_reply_to_len, refs_len;
	const char *from, *cls, *stripped, *change_id;
	const char *from_name, *author, *author_name;
	const char *prefix;		/* "RFC PATCH net-next" */
	int64_t date;
	int has_patch, version, part, total, reply;
	int upstream;			/* "commit <sha> upstream." */
};
typedef void (*onlist_store_thread_row_cb)(
	const struct onlist_store_thread_row *r, void *data);
/* Every message in import order, each as a _MESSAGE row, then the
 * classes and the in-body authors as _INFO and _AUTHOR rows, each kind in
 * the order of their ids (BINARY, the tables' key; each message at most
 * once of each, possibly of no message given: the caller skips those);
 * or (part) those onlist_store_thread_aff_start() and _round() found, in
 * the same order, as _ALL rows. */
onlist_status onlist_store_thread_load(struct onlist_store *s, int part,
				       onlist_store_thread_row_cb cb,
				       void *data);

/* Empty the tables (their indexes dropped) and write every row of the
 * result; or, when they hold rows already and at most an eighth of them
 * differ, write only those (the indexes kept).  c gets messages,
 * replies, threads, series, topics and written.  order: the indexes of
 * v's n messages in the order of their ids (strcmp), the tables' order.
 * Reads only the msgid of v's strings, and t's topics; puts t's replies
 * in the table's order (patch, then reply).  The caller writes
 * the pending references (onlist_store_thread_pending(), part 0) in the
 * same transaction.  Sets meta review_dirty to "*".
 * The indexes are made again by onlist_store_thread_index(), in the
 * same transaction, once the caller has let go of v and t. */
onlist_status onlist_store_thread_write_all(struct onlist_store *s,
					    const struct onlist_thread_msg *v,
					    size_t n, const int *order,
					    const struct onlist_threads *t,
					    struct onlist_thread_counts *c);
/* Make the thread tables' indexes again after
 * onlist_store_thread_write_all().  Sorting a million rows' keys takes
 * tens of MB (SQLite sorts in memory, as temporary tables are kept
 * there): called after the messages are freed, it does not add to their
 * memory. */
onlist_status onlist_store_thread_index(struct onlist_store *s);
/* The pending references of the result, replacing all of them, or
 * (part) those of the messages built again. */
onlist_status onlist_store_thread_pending(struct onlist_store *s,
					  const struct onlist_thread_msg *v,
					  const struct onlist_threads *t,
					  int part);

/* The stored thread and series rows, of every message or (part) of the
 * messages built again. */
struct onlist_store_thread_old {
	const char *msgid, *parent, *root, *answers;
	int depth;
};
typedef void (*onlist_store_thread_old_cb)(
	const struct onlist_store_thread_old *r, void *data);
onlist_status onlist_store_thread_old(struct onlist_store *s, int part,
				      onlist_store_thread_old_cb cb, void *data);
struct onlist_store_thread_series_old {
	const char *msgid, *series, *topic;
};
typedef void (*onlist_store_series_old_cb)(
	const struct onlist_store_thread_series_old *r, void *data);
onlist_status onlist_store_thread_series_old(struct onlist_store *s, int part,
				      onlist_store_series_old_cb cb, void *data);

/* One row written or replaced; series NULL deletes the series row. */
onlist_status onlist_store_thread_set(struct onlist_store *s,
				      const char *msgid, const char *parent,
				      const char *root, int depth,
				      const char *answers);
onlist_status onlist_store_thread_series_set(struct onlist_store *s,
				      const char *msgid, const char *series,
				      const char *topic);
/* The replies rows whose reply is msgid, deleted. */
onlist_status onlist_store_thread_replies_unset(struct onlist_store *s,
					 const char *reply);
/* Every row of a message no longer there: thread, series, replies. */
onlist_status onlist_store_thread_forget(struct onlist_store *s,
					 const char *msgid);
onlist_status onlist_store_thread_reply_put(struct onlist_store *s,
				     const char *patch, const char *reply,
				     int by_author);
/* *n: the replies rows (unchanged when the count cannot be read). */
onlist_status onlist_store_thread_replies_count(struct onlist_store *s, long *n);

/* Around new mail (the messages after id maxid): how many there are,
 * with message_info and message_author rows. */
onlist_status onlist_store_thread_new(struct onlist_store *s, int64_t maxid,
				      long long *msgs, long long *info,
				      long long *authors);
/* The set of stored messages new mail can change (store_thread.c says
 * by which links): started with the new mail and what it references,
 * then grown a round at a time; *added: the links found in that round,
 * *n: the set's size after it. */
onlist_status onlist_store_thread_aff_start(struct onlist_store *s,
					    int64_t maxid);
onlist_status onlist_store_thread_aff_round(struct onlist_store *s,
					    int round, long *added,
					    long long *n);

/* ---- reading ------------------------------------------------------------ */

/* One message of a thread (onlist_store_thread).  The strings are the
 * store's, valid only during the callback; any but msgid may be NULL. */
struct onlist_thread_row {
	const char *msgid;
	const char *parent;		/* NULL: the thread's root */
	int depth;			/* 0 at the root */
	int64_t date;			/* epoch seconds, 0 when unknown */
	const char *from_name, *from_addr, *subject;
	const char *cls;		/* ONLIST_CLASS_* */
};
typedef int (*onlist_thread_row_cb)(const struct onlist_thread_row *r,
				    void *data);

/* The whole thread that msgid belongs to, one row per message, in no
 * particular order; cb returns non-zero to stop.  ONLIST_ENOTFOUND when
 * msgid is not stored (or `match` has not run since it was imported). */
onlist_status onlist_store_thread(struct onlist_store *s, const char *msgid,
				  onlist_thread_row_cb cb, void *data);

/* The trailers given in one message, in their order (struct
 * onlist_msg_trailer above; strings valid during the callback, any may
 * be NULL). */
typedef int (*onlist_msg_trailer_cb)(const struct onlist_msg_trailer *t,
				     void *data);
onlist_status onlist_store_thread_message_trailers(struct onlist_store *s,
					    const char *msgid,
					    onlist_msg_trailer_cb cb,
					    void *data);

struct onlist_posting_detail {
	char cls[8];
	int version, part, total;
	char prefix[128];
	int replies;		/* replies by people other than the author */
	int repliers;		/* distinct such people */
};
/* What is known about a posting; ONLIST_ENOTFOUND when nothing. */
onlist_status onlist_store_thread_posting_detail(struct onlist_store *s,
					  const char *msgid,
					  struct onlist_posting_detail *d);

/* A review trailer given in a reply (onlist_store_thread_reviews):
 * "key: name <addr>" as written, and the reply that carries it.  Strings
 * valid during the callback only; any may be NULL. */
struct onlist_review_given {
	const char *key, *name, *addr;
	const char *reply;		/* the reply's Message-ID */
	const char *replier_name, *replier_addr;
	const char *date;		/* the reply's, epoch seconds as text */
};
typedef int (*onlist_review_given_cb)(const struct onlist_review_given *r,
				      void *data);

/* Review given on the list for a patch: the Reviewed-by, Acked-by,
 * Tested-by and Nacked-by lines in replies to it or to its cover letter,
 * written by others than the patch's author, oldest reply first. */
onlist_status onlist_store_thread_reviews(struct onlist_store *s, const char *msgid,
				   onlist_review_given_cb cb, void *data);
#endif
