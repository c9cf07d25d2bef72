/* ignored_save.c - the saved judgement of the ignored series, written by
 * onlist match (onlist_ignored_update(), ignored.h): each topic's
 * messages and the reply that decided its answer, so that `onlist
 * ignored` reads them instead of walking every thread and reply again.
 * ignored.c judges and walks; ignored_int.h is private to the two.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/ignored.h"
#include "onlist/match.h"
#include "onlist/store.h"
#include "onlist/store_ignored.h"
#include "ignored_int.h"

/* The topics read for saving and not saved yet: their messages, then
 * the replies of those no commit has.  Members come grouped by topic;
 * once BATCH messages are held, their replies are read in one statement
 * and every topic held is judged, saved and forgotten: a million
 * messages are never held at once (all held, 1,000,000 tiny messages
 * with no commit took 245 MB more).  Each batch's statement walks the
 * thread table's index of the messages answered, in their order: fewer
 * and larger batches read its pages fewer times (on that archive the
 * pass took 22 s CPU with 8,192 messages a batch, one topic a statement
 * more than 20 s, 65,536 15 s and 9 MB, 262,144 16 s and 130 MB). */
#define BATCH 65536

struct held {
	const char *topic;
	guint msg, nmsg;		/* its messages in msgs */
	int applied;			/* a commit has one of them */
};

struct held_reply {
	guint topic;			/* index in topics */
	struct onlist_ignored_reply r;
};

/* A whole save: a topic no commit has, its messages written (by the
 * store, whole_save()), its row waiting for the replies, which are read
 * once for all of them in the end (one pass over the thread table in its
 * own order: on 1,000,000 x 100,000 LKML shape the batches' look-ups
 * took 13.8 s of the phase's 17.6 s CPU).  Held meanwhile: what
 * by_author() reads of its messages, and the first answer and notice
 * seen so far. */
struct waiting {
	const char *topic;
	guint msg, nmsg;		/* its messages in authors */
	struct onlist_ignored_reply first[2];	/* an answer, a notice;
						 * msgid NULL: none yet */
};

struct saver {
	struct onlist_store *s;
	GPtrArray *notice;		/* the rules file's patterns */
	GArray *topics;			/* struct held; the last one read last */
	GArray *msgs;			/* struct onlist_ignored_msg */
	GArray *replies;		/* struct held_reply */
	GPtrArray *ids;			/* the msgids whose replies decide */
	GHashTable *mine;		/* those -> index in topics + 1 */
	GStringChunk *keep;		/* the strings of all these */
	int fresh;			/* the saved tables were cleared */
	int whole;			/* every topic saved: struct waiting */
	GArray *waiting;		/* struct waiting */
	GArray *authors;		/* struct onlist_ignored_msg, their
					 * messages: msgid, from, from_name,
					 * author, codev */
	GStringChunk *held;		/* the strings of these */
	GHashTable *places;		/* their msgids -> index in waiting + 1 */
	int targets;			/* the replies' temporary table made */
	long saved;			/* topics saved */
	onlist_status st;
};

static int saver_reply(const struct onlist_store_ignored_reply *r, void *data)
{
	struct saver *v = data;
	gpointer t = g_hash_table_lookup(v->mine, r->r.target);
	struct held_reply d;

	if (!t)
		return 0;
	d.topic = GPOINTER_TO_UINT(t) - 1;
	d.r = onlist__ignored_keep_reply(v->keep, r, v->notice);
	g_array_append_val(v->replies, d);
	return 0;
}

static gint by_topic(gconstpointer a, gconstpointer b)
{
	guint x = ((const struct held_reply *)a)->topic;
	guint y = ((const struct held_reply *)b)->topic;

	return (x > y) - (x < y);
}

/* Judge and save each topic held (none saved when all its messages
 * were skipped), then forget them. */
static onlist_status saver_flush(struct saver *v)
{
	GArray *rs = g_array_new(FALSE, FALSE, sizeof(struct onlist_ignored_reply));
	onlist_status st = ONLIST_OK;
	guint k = 0;

	if (v->ids->len)
		st = onlist_store_ignored_replies_to(v->s,
				(const char *const *)v->ids->pdata, v->ids->len,
				saver_reply, v);
	/* each topic's replies one after the other (the verdict does not
	 * depend on their order) */
	g_array_sort(v->replies, by_topic);
	for (guint i = 0; i < v->topics->len && st == ONLIST_OK; i++) {
		const struct held *h = &g_array_index(v->topics, struct held, i);
		const struct onlist_ignored_msg *m =
			&g_array_index(v->msgs, struct onlist_ignored_msg, h->msg);
		enum onlist_ignored_state a = ONLIST_IGN_IGNORED;
		long r = -1;

		g_array_set_size(rs, 0);
		for (; k < v->replies->len &&
		       g_array_index(v->replies, struct held_reply, k).topic == i; k++)
			g_array_append_val(rs, g_array_index(v->replies,
						struct held_reply, k).r);
		if (!h->nmsg)
			continue;
		/* replies decide nothing where a commit has the topic */
		if (!h->applied)
			a = onlist__ignored_reply_verdict(m, h->nmsg,
					(const struct onlist_ignored_reply *)rs->data,
					rs->len, &r);
		st = onlist_store_ignored_put(v->s, h->topic, m, h->nmsg,
					      a == ONLIST_IGN_ANSWERED ? 1 :
					      a == ONLIST_IGN_NOTICE ? 2 : 0,
					      r >= 0 ? &g_array_index(rs,
						struct onlist_ignored_reply, r) : NULL,
					      v->fresh);
		if (st == ONLIST_OK)
			v->saved++;
	}
	g_array_free(rs, TRUE);
	g_array_set_size(v->topics, 0);
	g_array_set_size(v->msgs, 0);
	g_array_set_size(v->replies, 0);
	g_ptr_array_set_size(v->ids, 0);
	g_hash_table_remove_all(v->mine);
	g_string_chunk_clear(v->keep);
	return st;
}

/* A reply in a whole save: kept when it comes before the first of its
 * kind its topic has. */
static int whole_reply(const struct onlist_store_ignored_reply *r, void *data)
{
	struct saver *v = data;
	struct onlist_ignored_reply d = r->r, *first;
	struct waiting *w;

	if (r->n < 0 || (gulong)r->n >= v->waiting->len)
		return 0;
	w = &g_array_index(v->waiting, struct waiting, (guint)r->n);
	d.notice = onlist__ignored_reply_notice(r, v->notice);
	/* the cheap tests first: a notice once an answer is known, or a
	 * reply after the first of its kind, decides nothing */
	first = &w->first[d.notice ? 1 : 0];
	if ((d.notice && w->first[0].msgid) ||
	    (first->msgid && !onlist__ignored_reply_before(&d, first)))
		return 0;
	if (!onlist__ignored_reply_decides(&g_array_index(v->authors,
				struct onlist_ignored_msg, w->msg), w->nmsg, &d))
		return 0;
	g_free((char *)first->msgid);
	g_free((char *)first->from);
	g_free((char *)first->from_name);
	*first = d;
	first->msgid = g_strdup(d.msgid);
	first->target = "";
	first->from = g_strdup(d.from);
	first->from_name = g_strdup(d.from_name);
	return 0;
}

/* The place of a waiting topic's message: its index in waiting, or -1
 * for a message of none. */
static long waiting_place(const char *msgid, void *data)
{
	struct saver *v = data;

	return (long)GPOINTER_TO_UINT(g_hash_table_lookup(v->places, msgid)) - 1;
}

/* A whole save's end: the replies of the waiting topics read, their rows
 * written. */
static onlist_status whole_flush(struct saver *v)
{
	onlist_status st = ONLIST_OK;

	if (v->waiting->len)
		st = onlist_store_ignored_replies_waiting(v->s, waiting_place,
							  whole_reply, v);
	for (guint i = 0; i < v->waiting->len && st == ONLIST_OK; i++) {
		const struct waiting *w = &g_array_index(v->waiting,
							 struct waiting, i);
		const struct onlist_ignored_reply *r =
			w->first[0].msgid ? &w->first[0] :
			w->first[1].msgid ? &w->first[1] : NULL;

		st = onlist_store_ignored_put_topic(v->s, w->topic,
						    !r ? 0 : r == w->first ? 1 : 2,
						    r);
		if (st == ONLIST_OK)
			v->saved++;
	}
	return st;
}

/* A member of a topic whose replies decide it, read back in a whole
 * save (topic by topic, each one's members together): what by_author()
 * reads of it held, and the topic's struct waiting begun with its
 * first. */
static int waiting_member(const struct onlist_store_ignored_msg *r,
			  void *data)
{
	struct saver *v = data;
	struct waiting *w = v->waiting->len ?
		&g_array_index(v->waiting, struct waiting, v->waiting->len - 1) :
		NULL;
	struct onlist_ignored_msg a = { 0 };

	if (!w || strcmp(w->topic, r->topic)) {
		struct waiting n = { 0 };

		n.topic = g_string_chunk_insert(v->held, r->topic);
		n.msg = v->authors->len;
		g_array_append_val(v->waiting, n);
		w = &g_array_index(v->waiting, struct waiting, v->waiting->len - 1);
	}
	a.msgid = g_string_chunk_insert(v->held, r->m.msgid);
	a.from = g_string_chunk_insert_const(v->held, r->m.from);
	a.from_name = g_string_chunk_insert_const(v->held, r->m.from_name);
	a.author = g_string_chunk_insert_const(v->held, r->m.author);
	a.codev = g_string_chunk_insert_const(v->held, r->m.codev);
	g_array_append_val(v->authors, a);
	g_hash_table_insert(v->places, (gpointer)a.msgid,
			    GUINT_TO_POINTER(v->waiting->len));
	w->nmsg++;
	return 0;
}

/* A whole save: the members none skips and the rows of the topics a
 * commit has written by the store in two statements (not each member
 * read into C and bound back: store_ignored.c), then the other topics'
 * members read back from the saved table and their replies read.  The
 * rows are those a save topic by topic writes: a topic is applied when a
 * saved member has a commit, and only a topic with a member saved has a
 * row. */
static onlist_status whole_save(struct saver *v)
{
	long applied;
	onlist_status st;

	if ((st = onlist_store_ignored_save_all(v->s, &applied)) != ONLIST_OK)
		return st;
	v->saved += applied;
	if ((st = onlist_store_ignored_members(v->s, 2, NULL, waiting_member, v))
	    != ONLIST_OK)
		return st;
	return whole_flush(v);
}

/* The topics held, and what a whole save holds, let go of. */
static void whole_free(struct saver *v)
{
	for (guint i = 0; i < v->waiting->len; i++) {
		struct waiting *w = &g_array_index(v->waiting, struct waiting, i);

		for (int k = 0; k < 2; k++) {
			g_free((char *)w->first[k].msgid);
			g_free((char *)w->first[k].from);
			g_free((char *)w->first[k].from_name);
		}
	}
	g_array_free(v->waiting, TRUE);
	g_array_free(v->authors, TRUE);
	g_string_chunk_free(v->held);
	g_hash_table_destroy(v->places);
}

/* The last topic held is complete: its replies are wanted when no
 * commit has it; the topics held are saved when they are enough. */
static onlist_status saver_end_topic(struct saver *v)
{
	struct held *h;

	if (!v->topics->len)
		return ONLIST_OK;
	h = &g_array_index(v->topics, struct held, v->topics->len - 1);
	for (guint i = 0; i < h->nmsg && !h->applied; i++)
		h->applied = *g_array_index(v->msgs, struct onlist_ignored_msg,
					    h->msg + i).commit != 0;
	for (guint i = 0; i < h->nmsg && !h->applied; i++) {
		const char *id = g_array_index(v->msgs, struct onlist_ignored_msg,
					       h->msg + i).msgid;

		g_ptr_array_add(v->ids, (gpointer)id);
		g_hash_table_insert(v->mine, (gpointer)id,
				    GUINT_TO_POINTER(v->topics->len));
	}
	return v->msgs->len >= BATCH ? saver_flush(v) : ONLIST_OK;
}

static int saver_member(const struct onlist_store_ignored_msg *r, void *data)
{
	struct saver *v = data;
	struct held *h = v->topics->len ? &g_array_index(v->topics, struct held,
						v->topics->len - 1) : NULL;
	struct onlist_ignored_msg d;

	if (!h || strcmp(h->topic, r->topic)) {
		struct held n = { 0 };

		if ((v->st = saver_end_topic(v)) != ONLIST_OK)
			return 1;
		n.topic = g_string_chunk_insert(v->keep, r->topic);
		n.msg = v->msgs->len;
		g_array_append_val(v->topics, n);
		h = &g_array_index(v->topics, struct held, v->topics->len - 1);
	}
	if (r->skip)
		return 0;
	onlist__ignored_copy_msg(v->keep, &d, &r->m);
	g_array_append_val(v->msgs, d);
	h->nmsg++;
	return 0;
}

/* Read the members of one topic or all (topic NULL), judge and save
 * them. */
static onlist_status saver_read(struct saver *v, const char *topic)
{
	onlist_status st;

	v->st = ONLIST_OK;
	/* the replies' table made before the read (store_ignored.h) */
	if (!v->targets) {
		v->targets = 1;
		if ((st = onlist_store_ignored_replies_to(v->s, NULL, 0, saver_reply,
							  v)) != ONLIST_OK)
			return st;
	}
	if ((st = onlist_store_ignored_members(v->s, 0, topic, saver_member, v))
	    != ONLIST_OK)
		return st;
	if (v->st != ONLIST_OK || (v->st = saver_end_topic(v)) != ONLIST_OK)
		return v->st;
	return saver_flush(v);
}

/* The stamp of what the saved rows were made from: the rules of this
 * file (the "i1:"), the largest message id, the counts of the rows
 * import writes beside a message that an old message may gain (mail
 * imported again), and the notice patterns. */
#define SAVED_RULES "i1"

static char *make_stamp(const int64_t c[7], GPtrArray *notice)
{
	GString *g = g_string_new(NULL);

	g_string_printf(g, SAVED_RULES ":%lld:%lld:%lld:%lld", (long long)c[0],
			(long long)c[1], (long long)c[2], (long long)c[3]);
	for (guint i = 0; i < notice->len; i++)
		g_string_append_printf(g, "\x1fnotice %s",
				       (const char *)g_ptr_array_index(notice, i));
	return g_string_free(g, FALSE);
}

onlist_status onlist_ignored_update(struct onlist_store *s,
				    const struct onlist_match_opts *o,
				    long *recomputed)
{
	struct saver v = { .s = s };
	char *old = onlist_store_get_meta(s, "ignored_stamp");
	char *dirty = onlist_store_get_meta(s, "review_dirty");
	char *threads = onlist_store_get_meta(s, "threads_stamp");
	char *now = NULL, *rest, *idx = NULL;
	GHashTable *some = NULL;
	long long c0[4] = { 0 };
	int64_t c[7];
	int all = 1;
	long dummy;
	onlist_status st;

	if (!recomputed)
		recomputed = &dummy;
	*recomputed = 0;
	v.notice = g_ptr_array_new();
	for (size_t i = 0; i < o->nrules; i++)
		if (!strcmp(o->rules[i].kind, "notice"))
			g_ptr_array_add(v.notice, (gpointer)o->rules[i].pattern);
	if (old && sscanf(old, SAVED_RULES ":%lld:%lld:%lld:%lld", &c0[0],
			  &c0[1], &c0[2], &c0[3]) != 4)
		c0[0] = 0;
	/* the counts of the rows beside new mail (c[4..6]) decide only
	 * between all and some: not counted (three joins over the whole
	 * archive) where all is decided already */
	if ((st = onlist_store_ignored_counts(s, old && c0[0] && dirty &&
					      strcmp(dirty, "*") ? c0[0] :
					      INT64_MAX, c)) != ONLIST_OK)
		goto out;
	now = make_stamp(c, v.notice);
	/* Only the topics the thread build changed (review_dirty, which the
	 * review empties after this) and those whose matches changed are
	 * judged again, when the rest is as it was: the same rules and
	 * patterns, and no row beside an old message added since (mail
	 * imported again): those rows are read only for the topics judged. */
	rest = old ? strchr(old, '\x1f') : NULL;
	if (old && c0[0] && dirty && strcmp(dirty, "*") &&
	    !strcmp(rest ? rest : "", strchr(now, '\x1f') ? strchr(now, '\x1f') : "") &&
	    c[1] - c0[1] == c[4] && c[2] - c0[2] == c[5] && c[3] - c0[3] == c[6])
		all = 0;
	v.fresh = all;
	v.topics = g_array_new(FALSE, FALSE, sizeof(struct held));
	v.msgs = g_array_new(FALSE, FALSE, sizeof(struct onlist_ignored_msg));
	v.replies = g_array_new(FALSE, FALSE, sizeof(struct held_reply));
	v.ids = g_ptr_array_new();
	v.mine = g_hash_table_new(g_str_hash, g_str_equal);
	v.keep = g_string_chunk_new(1 << 16);
	if (all) {
		v.whole = 1;
		v.waiting = g_array_new(FALSE, FALSE, sizeof(struct waiting));
		v.authors = g_array_new(FALSE, FALSE,
					sizeof(struct onlist_ignored_msg));
		v.held = g_string_chunk_new(1 << 16);
		v.places = g_hash_table_new(g_str_hash, g_str_equal);
		/* the indexes dropped first: the rows deleted without them */
		if ((st = onlist_store_ignored_index_drop(s, &idx)) != ONLIST_OK ||
		    (st = onlist_store_ignored_clear(s, NULL)) != ONLIST_OK ||
		    (st = whole_save(&v)) != ONLIST_OK)
			goto out;
		if ((st = onlist_store_ignored_index_make(s, idx)) != ONLIST_OK)
			goto out;
	} else {
		GHashTableIter it;
		gpointer k;

		some = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
		for (char *p = dirty; *p; ) {
			char *e = strchr(p, '\n');

			if (e)
				*e = 0;
			if (*p)
				onlist__ignored_add_topic(p, some);
			if (!e)
				break;
			p = e + 1;
		}
		if ((st = onlist_store_ignored_commit_changed(s,
					onlist__ignored_add_topic, some)) != ONLIST_OK)
			goto out;
		g_hash_table_iter_init(&it, some);
		while (g_hash_table_iter_next(&it, &k, NULL))
			if ((st = onlist_store_ignored_clear(s, k)) != ONLIST_OK ||
			    (st = saver_read(&v, k)) != ONLIST_OK)
				goto out;
	}
	*recomputed = v.saved;
	if ((st = onlist_store_set_meta(s, "ignored_stamp", now)) == ONLIST_OK)
		st = onlist_store_set_meta(s, "ignored_threads",
					   threads ? threads : "");
out:
	if (v.targets)
		onlist_store_ignored_targets_drop(s);
	if (v.msgs) {
		g_array_free(v.topics, TRUE);
		g_array_free(v.msgs, TRUE);
		g_array_free(v.replies, TRUE);
		g_ptr_array_free(v.ids, TRUE);
		g_hash_table_destroy(v.mine);
		g_string_chunk_free(v.keep);
	}
	if (v.whole)
		whole_free(&v);
	if (some)
		g_hash_table_destroy(some);
	g_ptr_array_free(v.notice, TRUE);
	g_free(now);
	free(idx);
	free(old);
	free(dirty);
	free(threads);
	return st;
}
