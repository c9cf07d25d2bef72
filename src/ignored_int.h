/* ignored_int.h - what the files of the ignored series share; private to
 * src/ignored*.c.  ignored.c: the judgement, the scope and the walk that
 * `onlist ignored` runs; ignored_save.c: the saved judgement `onlist
 * match` writes (onlist_ignored_update()).
 */
#ifndef ONLIST_IGNORED_INT_H
#define ONLIST_IGNORED_INT_H

#include <glib.h>
#include "onlist/ignored.h"
#include "onlist/store_ignored.h"

/* A topic whose answer the replies decide: its messages, then replies
 * (struct onlist_ignored_msg, struct onlist_ignored_reply), their strings
 * in a GStringChunk the holder keeps. */
struct cand {
	GArray *msgs, *replies;
	struct onlist_ignored_out out;
};

/* A struct cand and its arrays, as a GDestroyNotify. */
void onlist__ignored_cand_free(gpointer p);

/* What the replies decide, whatever else holds: ONLIST_IGN_ANSWERED by
 * the first answer, else ONLIST_IGN_NOTICE by the first notice (*reply
 * its index), else ONLIST_IGN_IGNORED (*reply -1). */
enum onlist_ignored_state
onlist__ignored_reply_verdict(const struct onlist_ignored_msg *msgs, size_t n,
			      const struct onlist_ignored_reply *replies,
			      size_t nr, long *reply);

/* The verdict's two steps, for a caller that sees a topic's replies one
 * at a time: whether reply r may decide the topic of msgs[0..n) (a
 * notice, or an answer from neither a robot nor one of its authors), and
 * whether it comes before `first` (the earlier date, then the lesser
 * Message-ID).  The first of those that may decide, notices and answers
 * apart, are what onlist__ignored_reply_verdict() picks. */
int onlist__ignored_reply_decides(const struct onlist_ignored_msg *msgs,
				  size_t n, const struct onlist_ignored_reply *r);
int onlist__ignored_reply_before(const struct onlist_ignored_reply *r,
				 const struct onlist_ignored_reply *first);

/* *m into *d, its strings copied into c. */
void onlist__ignored_copy_msg(GStringChunk *c, struct onlist_ignored_msg *d,
			      const struct onlist_ignored_msg *m);

/* A reply, its strings kept in keep; notice decided.  notice: the rules
 * file's patterns. */
struct onlist_ignored_reply
onlist__ignored_keep_reply(GStringChunk *keep,
			   const struct onlist_store_ignored_reply *r,
			   GPtrArray *notice);

/* Whether reply r is a notice, as onlist__ignored_keep_reply() decides
 * it. */
int onlist__ignored_reply_notice(const struct onlist_store_ignored_reply *r,
				 GPtrArray *notice);

/* A store callback: topic added to the GHashTable of strings data (a
 * copy, freed by the table), once.  Returns 0. */
int onlist__ignored_add_topic(const char *topic, void *data);

#endif
