/* ignored_save.c - the saved judgement of the ignored series, written by
 * onlist match (onlist_ignored_update(), ignored.h): each topic's
 * messages and the reply that decided its answer, so that `onlist
 * ignored` reads them instead of walking every thread and reply again.
 * ignored.c judges and walks; ignored_int.h is private to the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/ignored.h"
#include "onlist/match.h"
#include "onlist/store.h"
#include "onlist/store_ignored.h"
#include "ignored_int.h"

static const char *in(GStringChunk *c, const char *s)
{
	return g_string_chunk_insert(c, s);
}

/* The topics read for saving: their messages, and the replies of those
 * no commit has. */
struct saver {
	struct onlist_store *s;
	GPtrArray *notice;		/* the rules file's patterns */
	GHashTable *topics;		/* topic -> struct cand */
	GHashTable *by_msg;		/* msgid -> struct cand */
	GPtrArray *order;		/* the topics, as read */
	GStringChunk *keep;
	struct cand *cur;
	const char *cur_topic;
};

static struct cand *saver_topic(struct saver *v, const char *topic)
{
	struct cand *c = g_hash_table_lookup(v->topics, topic);

	if (!c) {
		topic = in(v->keep, topic);
		c = g_new0(struct cand, 1);
		c->msgs = g_array_new(FALSE, FALSE,
				      sizeof(struct onlist_ignored_msg));
		c->replies = g_array_new(FALSE, FALSE,
					 sizeof(struct onlist_ignored_reply));
		g_hash_table_insert(v->topics, (gpointer)topic, c);
		g_ptr_array_add(v->order, (gpointer)topic);
	}
	return c;
}

static int saver_member(const struct onlist_store_ignored_msg *r, void *data)
{
	struct saver *v = data;
	struct onlist_ignored_msg d;

	if (!v->cur || strcmp(v->cur_topic, r->topic)) {
		v->cur = saver_topic(v, r->topic);
		v->cur_topic = in(v->keep, r->topic);
	}
	if (r->skip)
		return 0;
	onlist__ignored_copy_msg(v->keep, &d, &r->m);
	g_array_append_val(v->cur->msgs, d);
	g_hash_table_insert(v->by_msg, (gpointer)d.msgid, v->cur);
	return 0;
}

static int saver_reply(const struct onlist_store_ignored_reply *r, void *data)
{
	struct saver *v = data;
	struct cand *c = g_hash_table_lookup(v->by_msg, r->r.target);
	struct onlist_ignored_reply d;

	if (!c)
		return 0;
	d = onlist__ignored_keep_reply(v->keep, r, v->notice);
	g_array_append_val(c->replies, d);
	return 0;
}

static int applied(const struct cand *c)
{
	for (guint i = 0; i < c->msgs->len; i++)
		if (*g_array_index(c->msgs, struct onlist_ignored_msg, i).commit)
			return 1;
	return 0;
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
	char *now = NULL, *rest;
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
	if ((st = onlist_store_ignored_counts(s, c0[0], c)) != ONLIST_OK)
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
	v.topics = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					 onlist__ignored_cand_free);
	v.by_msg = g_hash_table_new(g_str_hash, g_str_equal);
	v.order = g_ptr_array_new();
	v.keep = g_string_chunk_new(1 << 16);
	if (all) {
		GPtrArray *ids = g_ptr_array_new();

		if ((st = onlist_store_ignored_clear(s, NULL)) != ONLIST_OK ||
		    (st = onlist_store_ignored_members(s, NULL, saver_member,
						       &v)) != ONLIST_OK) {
			g_ptr_array_free(ids, TRUE);
			goto out;
		}
		/* replies decide nothing where a commit has the topic */
		for (guint i = 0; i < v.order->len; i++) {
			struct cand *t = g_hash_table_lookup(v.topics,
					g_ptr_array_index(v.order, i));

			if (applied(t))
				continue;
			for (guint k = 0; k < t->msgs->len; k++)
				g_ptr_array_add(ids, (gpointer)g_array_index(t->msgs,
						struct onlist_ignored_msg, k).msgid);
		}
		st = onlist_store_ignored_replies_to(s, (const char *const *)ids->pdata,
						     ids->len, saver_reply, &v);
		g_ptr_array_free(ids, TRUE);
		if (st != ONLIST_OK)
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
		while (g_hash_table_iter_next(&it, &k, NULL)) {
			struct cand *t;

			v.cur = NULL;
			if ((st = onlist_store_ignored_clear(s, k)) != ONLIST_OK ||
			    (st = onlist_store_ignored_members(s, k, saver_member,
							       &v)) != ONLIST_OK)
				goto out;
			t = g_hash_table_lookup(v.topics, k);
			if (t && t->msgs->len && !applied(t) &&
			    (st = onlist_store_ignored_replies(s, k, saver_reply,
							       &v)) != ONLIST_OK)
				goto out;
		}
	}
	for (guint i = 0; i < v.order->len; i++) {
		const char *topic = g_ptr_array_index(v.order, i);
		struct cand *t = g_hash_table_lookup(v.topics, topic);
		const struct onlist_ignored_msg *m =
			(const struct onlist_ignored_msg *)t->msgs->data;
		const struct onlist_ignored_reply *r =
			(const struct onlist_ignored_reply *)t->replies->data;
		long k = -1;
		enum onlist_ignored_state a = ONLIST_IGN_IGNORED;

		if (!t->msgs->len)
			continue;
		if (!applied(t))
			a = onlist__ignored_reply_verdict(m, t->msgs->len, r, t->replies->len, &k);
		if ((st = onlist_store_ignored_put(s, topic, m, t->msgs->len,
						   a == ONLIST_IGN_ANSWERED ? 1 :
						   a == ONLIST_IGN_NOTICE ? 2 : 0,
						   k >= 0 ? &r[k] : NULL, all)) != ONLIST_OK)
			goto out;
		(*recomputed)++;
	}
	if ((st = onlist_store_set_meta(s, "ignored_stamp", now)) == ONLIST_OK)
		st = onlist_store_set_meta(s, "ignored_threads",
					   threads ? threads : "");
out:
	if (v.topics) {
		g_hash_table_destroy(v.by_msg);
		g_hash_table_destroy(v.topics);
		g_ptr_array_free(v.order, TRUE);
		g_string_chunk_free(v.keep);
	}
	if (some)
		g_hash_table_destroy(some);
	g_ptr_array_free(v.notice, TRUE);
	g_free(now);
	free(old);
	free(dirty);
	free(threads);
	return st;
}
