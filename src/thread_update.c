/* thread_update.c - the thread, replies and series tables brought up to
 * date (onlist_thread_update(), thread.h): whether anything is computed
 * again, whether the whole set of messages or only what new mail can
 * change, which stored rows differ from the result, and which topics the
 * review must look at again.  thread.c computes; store_thread.c reads and
 * writes what this file asks for. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/store.h"
#include "onlist/store_thread.h"
#include "onlist/subject.h"
#include "onlist/thread.h"

/* The rules of thread.h the tables were built by, as the prefix of their
 * stamp (meta threads_stamp): a table built by other rules (t2: before a
 * "Re:" with a diff counted as a reply, and before in-body authors and
 * display names linked versions; t3: with only one of the two; t4: before
 * cover letters were found by structure) is written again whole, since
 * only a whole write puts in the rows the new rules add where nothing
 * else changed. */
#define THREAD_RULES "t5:"

/* A share of the messages past which a whole build is as cheap */
#define PART_MAX_SHARE 4

static void stamp_text(const struct onlist_thread_stamp *t, char *out,
		       size_t size)
{
	snprintf(out, size, THREAD_RULES "%lld:%lld:%lld:%lld",
		 (long long)t->count, (long long)t->maxid, (long long)t->info,
		 (long long)t->authors);
}

static int parse_stamp(const char *st, long long *count, long long *maxid,
		       long long *info, long long *authors)
{
	return st && sscanf(st, THREAD_RULES "%lld:%lld:%lld:%lld", count, maxid,
			    info, authors) == 4;
}

/* The counts of the tables as a build left them (meta threads_counts,
 * after the stamp they were made at): a later build adds what its part
 * changed rather than counting a few million rows again, and a run with
 * nothing new reads them back. */
static int kept_counts(struct onlist_store *s, const char *stamp,
		       struct onlist_thread_counts *c)
{
	char *v = onlist_store_get_meta(s, "threads_counts");
	size_t n = strlen(stamp);
	int ok = v && !strncmp(v, stamp, n) && v[n] == ' ' &&
		 sscanf(v + n + 1, "%ld:%ld:%ld:%ld:%ld", &c->messages,
			&c->threads, &c->replies, &c->series, &c->topics) == 5;

	free(v);
	return ok;
}

static onlist_status keep_counts(struct onlist_store *s, const char *stamp,
				 const struct onlist_thread_counts *c)
{
	char v[160];

	snprintf(v, sizeof(v), "%s %ld:%ld:%ld:%ld:%ld", stamp, c->messages,
		 c->threads, c->replies, c->series, c->topics);
	return onlist_store_set_meta(s, "threads_counts", v);
}

/* The stamp of the messages now, from the one the tables were built at
 * (old): counting a few million rows again is seconds, and when every
 * message had its class then, the messages since are enough
 * (onlist_store_thread_stamp_since()).  Built from no message, all of
 * them are new: the classes are counted whole, a count of the table
 * rather than a look-up for each message (1,000,000: 0.5 s CPU ->
 * 0.1 s). */
static onlist_status read_stamp(struct onlist_store *s, const char *old,
				struct onlist_thread_stamp *now)
{
	long long c, m, i, a;
	struct onlist_thread_stamp was;

	if (!parse_stamp(old, &c, &m, &i, &a) || i != c || m < 0 || !c)
		return onlist_store_thread_stamp(s, now);
	was.count = c;
	was.maxid = m;
	was.info = i;
	was.authors = a;
	return onlist_store_thread_stamp_since(s, &was, now);
}

/* Whether only what new mail can change is built again (the store's
 * temp set, *found its size) or the whole (*found -1): the stored rows
 * were not made by a build that kept its pending references, message
 * facts arrived for old messages, or the set is large. */
static onlist_status find_part(struct onlist_store *s, const char *base,
			       const char *now, long long *found)
{
	long long c0, m0, i0, a0, c1, m1, i1, a1, n, info, authors;
	onlist_status ret;

	*found = -1;
	if (!parse_stamp(base, &c0, &m0, &i0, &a0) ||
	    !parse_stamp(now, &c1, &m1, &i1, &a1) ||
	    c1 < c0 || m1 < m0 || i1 < i0 || a1 < a0)
		return ONLIST_OK;
	if ((ret = onlist_store_thread_new(s, m0, &n, &info, &authors))
	    != ONLIST_OK)
		return ret;
	/* an in-body author found for an old message (imported again) may
	 * link it anywhere its subject goes: build whole */
	if (n != c1 - c0 || info != i1 - i0 || authors != a1 - a0)
		return ONLIST_OK;
	if ((ret = onlist_store_thread_aff_start(s, m0)) != ONLIST_OK)
		return ret;
	for (int round = 0;; round++) {
		long added;

		if ((ret = onlist_store_thread_aff_round(s, round, &added, &n))
		    != ONLIST_OK)
			return ret;
		if (n > c1 / PART_MAX_SHARE + 1000)
			return ONLIST_OK;	/* as well build whole */
		if (!added)
			break;
	}
	*found = n;
	return ONLIST_OK;
}

struct loaded {
	struct onlist_thread_msg *v;
	size_t len, cap;
	GStringChunk *ids;	/* what v's msgid point to */
	GStringChunk *strings;	/* and the others: freed before a whole
				 * build's rows are written, which need the
				 * ids alone */
	/* the strings that repeat, each once, while loading (a table as
	 * large as a GStringChunk's own, which it would keep to the end) */
	GHashTable *seen;
	/* the index + 1 of v's message of each id, 0 for an empty slot
	 * (open addressing over twice as many slots as messages), made
	 * when the classes and authors come, which name their message by
	 * id: 8 MB for a million messages, freed with the load */
	unsigned *slots;
	size_t mask;
	/* A whole build's: the indexes of v in the order of the ids, made
	 * at the first class or author (the order the tables are written
	 * in, onlist_store_thread_write_all()), and where in it the next
	 * class and author are looked for: they come in the order of their
	 * ids too, so a cursor that only moves on finds each message,
	 * without the hash table above (unless an id holds a NUL byte,
	 * which strcmp() does not order as SQLite does: nul_ids). */
	int sorted;
	int *order;
	size_t nsorted;		/* the messages order holds */
	size_t info_at, author_at;
	int nul_ids;
};

/* Strings that repeat (senders, classes, subjects) are stored once; ids
 * and References, nearly all distinct, are not looked up first: a
 * million hashes of long strings are a good part of the load. */
static const char *str(struct loaded *l, const char *v)
{
	const char *k;

	if (!v)
		return NULL;
	if (!*v)
		return "";
	if (!(k = g_hash_table_lookup(l->seen, v))) {
		k = g_string_chunk_insert(l->strings, v);
		g_hash_table_add(l->seen, (gpointer)k);
	}
	return k;
}

static const char *str_once(GStringChunk *c, const char *v, size_t len)
{
	if (!v)
		return NULL;
	return *v ? g_string_chunk_insert_len(c, v, (gssize)len) : "";
}

static size_t id_hash(const char *id, size_t len)
{
	uint32_t h = 5381;

	for (size_t i = 0; i < len; i++)
		h = h * 33 + (unsigned char)id[i];
	return h;
}

/* The message of id[0..len) in l->v, NULL for none; the table is made at
 * the first call. */
static struct onlist_thread_msg *loaded_msg(struct loaded *l, const char *id,
					    size_t len)
{
	size_t j;

	if (!l->slots) {
		for (l->mask = 15; l->mask < 2 * l->len; l->mask = 2 * l->mask + 1)
			;
		l->slots = g_new0(unsigned, l->mask + 1);
		for (size_t i = 0; i < l->len; i++) {
			const char *m = l->v[i].msgid;

			for (j = id_hash(m, strlen(m)) & l->mask; l->slots[j];
			     j = (j + 1) & l->mask)
				;
			l->slots[j] = (unsigned)i + 1;
		}
	}
	for (j = id_hash(id, len) & l->mask; l->slots[j]; j = (j + 1) & l->mask) {
		struct onlist_thread_msg *x = &l->v[l->slots[j] - 1];

		if (!strncmp(x->msgid, id, len) && !x->msgid[len])
			return x;
	}
	return NULL;
}

static gint by_msgid(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct onlist_thread_msg *v = data;

	return strcmp(v[*(const int *)a].msgid, v[*(const int *)b].msgid);
}

static void sort_ids(struct loaded *l)
{
	l->nsorted = l->len;
	l->order = g_new(int, l->len ? l->len : 1);
	for (size_t i = 0; i < l->len; i++)
		l->order[i] = (int)i;
	g_qsort_with_data(l->order, (gint)l->len, sizeof(int), by_msgid, l->v);
}

/* The message of a class or author row (*at: its kind's cursor in
 * l->order), NULL for none. */
static struct onlist_thread_msg *row_msg(struct loaded *l,
					 const struct onlist_store_thread_row *r,
					 size_t *at)
{
	if (!l->sorted || l->nul_ids || memchr(r->msgid, 0, r->msgid_len))
		return loaded_msg(l, r->msgid, r->msgid_len);
	if (!l->order)
		sort_ids(l);
	while (*at < l->len) {
		struct onlist_thread_msg *x = &l->v[l->order[*at]];
		int cmp = strcmp(x->msgid, r->msgid);

		if (cmp > 0)
			return NULL;
		++*at;
		if (!cmp)
			return x;
	}
	return NULL;
}

/* The columns of message_info (thread.h's defaults in a row without) */
static void load_info(struct loaded *l, struct onlist_thread_msg *x,
		      const struct onlist_store_thread_row *r)
{
	x->cls = onlist_class_code(r->cls);
	x->version = r->version;
	x->part = r->part;
	x->total = r->total;
	x->stripped = str(l, r->stripped);
	x->change_id = str(l, r->change_id);
	x->reply = r->reply != 0;
	/* stable maintainers post everyone's patches: a backport's in-body
	 * author does not make it a version of hers */
	x->backport = r->upstream || onlist_subject_stable(r->prefix);
}

static void load_row(const struct onlist_store_thread_row *r, void *data)
{
	struct loaded *l = data;
	struct onlist_thread_msg *x;

	if (r->kind == ONLIST_THREAD_ROW_INFO ||
	    r->kind == ONLIST_THREAD_ROW_AUTHOR) {
		if (!r->msgid || !(x = row_msg(l, r,
				r->kind == ONLIST_THREAD_ROW_INFO ? &l->info_at :
				&l->author_at)))
			return;		/* of no message */
		if (r->kind == ONLIST_THREAD_ROW_INFO) {
			load_info(l, x, r);
		} else {
			x->author = str(l, r->author);
			x->author_name = str(l, r->author_name);
		}
		return;
	}
	if (l->len == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4096;
		l->v = g_renew(struct onlist_thread_msg, l->v, l->cap);
	}
	x = &l->v[l->len++];
	memset(x, 0, sizeof(*x));
	x->msgid = str_once(l->ids, r->msgid, r->msgid_len);
	if (r->msgid && memchr(r->msgid, 0, r->msgid_len))
		l->nul_ids = 1;
	x->in_reply_to = str_once(l->strings, r->in_reply_to, r->in_reply_to_len);
	/* a reply to a thread's first mail names it in both */
	if (r->refs && r->in_reply_to && r->refs_len == r->in_reply_to_len &&
	    !memcmp(r->refs, r->in_reply_to, r->refs_len))
		x->refs = x->in_reply_to;
	else
		x->refs = str_once(l->strings, r->refs, r->refs_len);
	x->from = str(l, r->from);
	x->date = r->date;
	x->has_patch = r->has_patch != 0;
	x->from_name = str(l, r->from_name);
	x->author = str(l, r->author);
	x->author_name = str(l, r->author_name);
	load_info(l, x, r);
}

/* ---- writing only what changed ------------------------------------------ */

/* After new mail, the tables are not cleared: every message is computed
 * again in memory (cheap next to writing a million rows and their
 * indexes), the stored rows are read and compared, and only the rows that
 * differ are written.  The result is the rows a whole rebuild writes. */

enum { D_THREAD = 1, D_SERIES = 2, D_REPLIES = 4, D_SEEN = 8, D_SSEEN = 16 };

static int differs(const char *stored, const char *now)
{
	if (!stored || !now)
		return !stored != !now;
	return strcmp(stored, now) != 0;
}

static const char *id_of(const struct onlist_thread_msg *v, int i)
{
	return i >= 0 ? v[i].msgid : NULL;
}

/* The topics whose members, replies or tags a build changed, for the
 * review (review.c), which recomputes only the commits posted in them:
 * meta review_dirty, one topic a line, added to what an earlier build
 * left there until the review is computed; "*" for all of them. */
#define DIRTY_MAX 100000	/* more topics than that: all of them */

static void dirty_add(GHashTable *dirty, GStringChunk *c, const char *topic)
{
	if (topic && !g_hash_table_contains(dirty, topic))
		g_hash_table_add(dirty, g_string_chunk_insert_const(c, topic));
}

static onlist_status save_dirty(struct onlist_store *s, GHashTable *dirty)
{
	char *was = onlist_store_get_meta(s, "review_dirty");
	GString *o = g_string_new(was ? was : "");
	GHashTableIter it;
	gpointer k;
	onlist_status st;

	free(was);
	g_hash_table_iter_init(&it, dirty);
	while (strcmp(o->str, "*") && g_hash_table_iter_next(&it, &k, NULL)) {
		if (strchr(k, '\n') || o->len > DIRTY_MAX * 64) {
			g_string_assign(o, "*");
			break;
		}
		g_string_append_printf(o, "%s%s", o->len ? "\n" : "",
				       (const char *)k);
	}
	st = onlist_store_set_meta(s, "review_dirty", o->str);
	g_string_free(o, TRUE);
	return st;
}

/* The comparison of the stored rows with the result. */
struct compare {
	const struct onlist_thread_msg *v;
	GHashTable *idx;	/* msgid -> index + 1 */
	/* heads of series whose patches changed: their replies follow */
	GHashTable *heads;
	GStringChunk *old_heads;
	GPtrArray *gone;	/* ids of rows whose message is not there */
	/* topics whose review may differ */
	GHashTable *dirty;
	unsigned char *d;	/* D_* of each message */
};

static void old_thread(const struct onlist_store_thread_old *r, void *data)
{
	struct compare *m = data;
	const struct onlist_thread_msg *v = m->v, *x;
	gpointer p = r->msgid ? g_hash_table_lookup(m->idx, r->msgid) : NULL;
	size_t i;

	if (!p) {	/* no such message (none is ever removed) */
		if (r->msgid)
			g_ptr_array_add(m->gone, g_strdup(r->msgid));
		return;
	}
	i = GPOINTER_TO_SIZE(p) - 1;
	x = &v[i];
	m->d[i] |= D_SEEN;
	if (differs(r->parent, id_of(v, x->parent)) ||
	    differs(r->root, v[x->root].msgid) || r->depth != x->depth)
		m->d[i] |= D_THREAD;
	if (differs(r->answers, id_of(v, x->answers))) {
		gpointer q = r->answers ? g_hash_table_lookup(m->idx, r->answers) :
					  NULL;

		m->d[i] |= D_THREAD | D_REPLIES;
		/* the topic it answered before (as it is now: if that one
		 * moved, its series row says where from) */
		if (q)
			dirty_add(m->dirty, m->old_heads,
				  v[GPOINTER_TO_SIZE(q) - 1].topic);
	}
}

static void old_series(const struct onlist_store_thread_series_old *r, void *data)
{
	struct compare *m = data;
	const struct onlist_thread_msg *v = m->v, *x;
	gpointer p = r->msgid ? g_hash_table_lookup(m->idx, r->msgid) : NULL;
	size_t i;

	if (!p) {
		if (r->msgid)
			g_ptr_array_add(m->gone, g_strdup(r->msgid));
		dirty_add(m->dirty, m->old_heads, r->topic);
		return;
	}
	i = GPOINTER_TO_SIZE(p) - 1;
	x = &v[i];
	m->d[i] |= D_SSEEN;
	if (differs(r->series, id_of(v, x->series))) {
		m->d[i] |= D_SERIES;
		if (r->series)
			g_hash_table_add(m->heads, g_string_chunk_insert_const(
				m->old_heads, r->series));
		dirty_add(m->dirty, m->old_heads, r->topic);
	} else if (differs(r->topic, x->topic)) {
		m->d[i] |= D_SERIES;
		dirty_add(m->dirty, m->old_heads, r->topic);
	}
}

static onlist_status update_threads(struct onlist_store *s,
				    const struct onlist_thread_msg *v, size_t n,
				    const struct onlist_threads *t,
				    struct onlist_thread_counts *c, int part)
{
	struct compare m = { .v = v };
	unsigned char *d;
	onlist_status ret;
	long changed = 0;

	m.idx = g_hash_table_new(g_str_hash, g_str_equal);
	m.heads = g_hash_table_new(g_str_hash, g_str_equal);
	m.old_heads = g_string_chunk_new(4096);
	m.gone = g_ptr_array_new_with_free_func(g_free);
	m.dirty = g_hash_table_new(g_str_hash, g_str_equal);
	m.d = d = g_malloc0(n ? n : 1);
	for (size_t i = 0; i < n; i++)
		if (!g_hash_table_contains(m.idx, v[i].msgid))
			g_hash_table_insert(m.idx, (gpointer)v[i].msgid,
					    GSIZE_TO_POINTER(i + 1));
	if ((ret = onlist_store_thread_old(s, part, old_thread, &m)) != ONLIST_OK ||
	    (ret = onlist_store_thread_series_old(s, part, old_series, &m)) != ONLIST_OK)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct onlist_thread_msg *x = &v[i];

		if (!(d[i] & D_SEEN))
			d[i] |= D_THREAD | D_REPLIES;
		if (x->series >= 0 && !(d[i] & D_SSEEN))
			d[i] |= D_SERIES;
		if ((d[i] & D_SERIES) && x->series >= 0)
			g_hash_table_add(m.heads, (gpointer)v[x->series].msgid);
	}
	/* a reply to a cover letter is a reply to each patch of its series */
	for (size_t i = 0; i < n; i++)
		if (v[i].answers >= 0 &&
		    g_hash_table_contains(m.heads, v[v[i].answers].msgid))
			d[i] |= D_REPLIES;
	for (size_t i = 0; i < n && ret == ONLIST_OK; i++) {
		const struct onlist_thread_msg *x = &v[i];

		c->messages++;
		if (d[i] & D_SERIES)
			dirty_add(m.dirty, m.old_heads, x->topic);
		if ((d[i] & D_REPLIES) && x->answers >= 0)
			dirty_add(m.dirty, m.old_heads, v[x->answers].topic);
		if (d[i] & D_THREAD) {
			changed++;
			ret = onlist_store_thread_set(s, x->msgid,
						      id_of(v, x->parent),
						      v[x->root].msgid, x->depth,
						      id_of(v, x->answers));
		}
		if (ret == ONLIST_OK && (d[i] & D_SERIES))
			ret = onlist_store_thread_series_set(s, x->msgid,
						      id_of(v, x->series),
						      x->topic);
		if (ret == ONLIST_OK && (d[i] & D_REPLIES) && (d[i] & D_SEEN))
			ret = onlist_store_thread_replies_unset(s, x->msgid);
	}
	/* rows of messages that are not there: a rebuild has none */
	for (guint k = 0; k < m.gone->len && ret == ONLIST_OK; k++)
		ret = onlist_store_thread_forget(s, g_ptr_array_index(m.gone, k));
	for (size_t i = 0; i < t->nreplies && ret == ONLIST_OK; i++) {
		const struct onlist_thread_reply *r = &t->replies[i];

		if (d[r->reply] & D_REPLIES)
			ret = onlist_store_thread_reply_put(s, v[r->patch].msgid,
						     v[r->reply].msgid,
						     r->by_author);
	}
	/* a part's counts are the caller's to make */
	if (ret != ONLIST_OK || (!part &&
	    (ret = onlist_store_thread_replies_count(s, &c->replies)) != ONLIST_OK))
		goto out;
	c->threads = t->threads;
	c->series = t->series;
	c->topics = t->topics;
	c->written = changed;
	if ((ret = onlist_store_thread_pending(s, v, t, part)) == ONLIST_OK)
		ret = save_dirty(s, m.dirty);
out:
	g_hash_table_destroy(m.idx);
	g_hash_table_destroy(m.heads);
	g_string_chunk_free(m.old_heads);
	g_ptr_array_free(m.gone, TRUE);
	g_hash_table_destroy(m.dirty);
	g_free(d);
	return ret;
}

onlist_status onlist_thread_update(struct onlist_store *s,
				   struct onlist_thread_counts *out,
				   char **errmsg)
{
	struct onlist_thread_counts c = { 0 }, kept = { 0 }, before = { 0 };
	struct onlist_threads t = ONLIST_THREADS_INIT;
	struct onlist_thread_stamp now;
	struct loaded l = { 0 };
	onlist_status ret;
	char stamp_now[64] = "", *old = NULL, *base = NULL;
	long long part = -1;
	int whole, have_kept = 0, ranked = 0;

	l.ids = g_string_chunk_new(1 << 20);
	l.strings = g_string_chunk_new(1 << 20);
	l.seen = g_hash_table_new(g_str_hash, g_str_equal);
	if ((ret = onlist_store_begin(s)) != ONLIST_OK)
		goto fail;
	old = onlist_store_get_meta(s, "threads_stamp");
	if (read_stamp(s, old, &now) == ONLIST_OK)
		stamp_text(&now, stamp_now, sizeof(stamp_now));
	else {		/* not known: written again whole */
		free(old);
		old = NULL;
	}
	/* Nothing imported since the last build: the tables stand (a
	 * rebuild of a million messages costs tens of seconds). */
	if (stamp_now[0] && old && !strcmp(old, stamp_now) &&
	    (kept_counts(s, stamp_now, &c) ||
	     onlist_store_thread_counts(s, &c) == ONLIST_OK)) {
		free(old);
		if ((ret = onlist_store_commit(s)) != ONLIST_OK)
			goto fail;
		goto out;
	}
	/* tables of other rules, or of no known ones: written again whole */
	whole = !onlist_store_thread_has(s) || !old ||
		strncmp(old, THREAD_RULES, strlen(THREAD_RULES));
	have_kept = !whole && kept_counts(s, old, &kept);
	free(old);
	/* New mail on top of a build that kept thread_pending: only what it
	 * can change is built again. */
	if (!whole && (base = onlist_store_get_meta(s, "threads_base")) &&
	    (ret = find_part(s, base, stamp_now, &part)) != ONLIST_OK)
		goto rollback;
	l.sorted = whole;
	ret = onlist_store_thread_load(s, part >= 0, load_row, &l);
	g_hash_table_destroy(l.seen);
	l.seen = NULL;
	g_free(l.slots);
	l.slots = NULL;
	/* not held through the build, whose peak is the run's (1,000,000
	 * messages without commits: 4 MB of 250): each message keeps its
	 * place in it (rank), and the order is made again from those to
	 * write, not sorted again (5,000,000 ids: seconds) */
	if (l.order && l.nsorted == l.len) {
		for (size_t k = 0; k < l.len; k++)
			l.v[l.order[k]].rank = (int)k;
		ranked = 1;
	}
	g_free(l.order);
	l.order = NULL;
	if (ret != ONLIST_OK)
		goto rollback;
	/* the array doubled as it grew: up to twice what it holds */
	if (l.len < l.cap) {
		l.v = g_renew(struct onlist_thread_msg, l.v, l.len ? l.len : 1);
		l.cap = l.len;
	}
	if ((ret = onlist_thread_build(l.v, l.len, &t)) != ONLIST_OK) {
		onlist_store_rollback(s);
		onlist_fail(errmsg, ret, "%s", onlist_status_str(ret));
		goto out;
	}
	/* the first build writes everything; later ones what changed */
	if (whole) {
		/* the pending references first: then the strings but the
		 * ids are let go (their pointers in l.v are not read again),
		 * before the rows fill SQLite's cache */
		if ((ret = onlist_store_thread_pending(s, l.v, &t, 0)) != ONLIST_OK)
			goto rollback;
		g_string_chunk_free(l.strings);
		l.strings = NULL;
		/* the order the tables are written in */
		if (ranked) {
			l.order = g_new(int, l.len ? l.len : 1);
			for (size_t i = 0; i < l.len; i++)
				l.order[l.v[i].rank] = (int)i;
		} else {
			sort_ids(&l);
		}
		ret = onlist_store_thread_write_all(s, l.v, l.len, l.order, &t,
						    &c);
	} else if (part >= 0 && have_kept &&
		   (ret = onlist_store_thread_part_counts(s, 0, &before))
		   != ONLIST_OK) {
		goto rollback;
	} else
		ret = update_threads(s, l.v, l.len, &t, &c, part >= 0);
	if (ret != ONLIST_OK)
		goto rollback;
	c.built = (long)l.len;
	/* the indexes' sort beside the messages was the peak of a whole
	 * build (1,000,000 tiny messages: 354 MB): they go first */
	onlist_threads_release(&t);
	if (l.strings)
		g_string_chunk_free(l.strings);
	l.strings = NULL;
	g_string_chunk_free(l.ids);
	l.ids = NULL;
	g_free(l.v);
	l.v = NULL;
	g_free(l.order);
	l.order = NULL;
	if (whole && (ret = onlist_store_thread_index(s)) != ONLIST_OK)
		goto rollback;
	/* a part knows its own counts, not the whole's */
	if (part >= 0 && have_kept) {
		struct onlist_thread_counts after;

		if ((ret = onlist_store_thread_part_counts(s, 1, &after))
		    != ONLIST_OK)
			goto rollback;
		c.messages = kept.messages + after.messages - before.messages;
		c.threads = kept.threads + after.threads - before.threads;
		c.replies = kept.replies + after.replies - before.replies;
		c.series = kept.series + after.series - before.series;
		c.topics = kept.topics + after.topics;
	} else if (part >= 0) {
		long written = c.written;

		if ((ret = onlist_store_thread_counts(s, &c)) != ONLIST_OK)
			goto rollback;
		c.written = written;
	}
	if (stamp_now[0] &&
	    ((ret = onlist_store_set_meta(s, "threads_stamp", stamp_now)) != ONLIST_OK ||
	     (ret = onlist_store_set_meta(s, "threads_base", stamp_now)) != ONLIST_OK ||
	     (ret = keep_counts(s, stamp_now, &c)) != ONLIST_OK))
		goto rollback;
	if ((ret = onlist_store_commit(s)) != ONLIST_OK)
		goto fail;
	goto out;
rollback:
	onlist_store_rollback(s);
fail:
	onlist_store_fail(s, errmsg);
out:
	free(base);
	onlist_threads_release(&t);
	if (l.strings)
		g_string_chunk_free(l.strings);
	if (l.ids)
		g_string_chunk_free(l.ids);
	if (l.seen)
		g_hash_table_destroy(l.seen);
	g_free(l.slots);
	g_free(l.order);
	g_free(l.v);
	if (out)
		*out = c;
	return ret;
}
