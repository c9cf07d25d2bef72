/* store_thread.c - message classes, trailers in mails, threads, replies,
 * series and versions.  Speaks SQL, like every src/store*.c file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <glib.h>

#include "onlist/store_thread.h"
#include "store_int.h"

#define fail onlist__store_fail
#define bind_text onlist__bind_text

static const char sql_put_info[] =
	"INSERT OR IGNORE INTO message_info(msgid, class, reply, version, part,"
	" total, prefix, stripped, change_id, mailer, patchwork, upstream)"
	" VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)";
static const char sql_put_trailer[] =
	"INSERT OR IGNORE INTO message_trailers(msgid, seq, key, name, addr,"
	" value) VALUES(?1,?2,?3,?4,?5,?6)";
static const char sql_put_pull[] =
	"INSERT OR IGNORE INTO pulls(msgid, url, ref, tip) VALUES(?1,?2,?3,?4)";

onlist_status onlist_store_put_message_info(struct onlist_store *s,
					    const struct onlist_message_info *i)
{
	sqlite3_stmt *st;

	if (!(st = onlist__store_prepare(s, sql_put_info)))
		return fail(s, "prepare");
	bind_text(st, 1, i->msgid);
	bind_text(st, 2, i->cls);
	sqlite3_bind_int(st, 3, i->reply);
	sqlite3_bind_int(st, 4, i->version);
	sqlite3_bind_int(st, 5, i->part);
	sqlite3_bind_int(st, 6, i->total);
	bind_text(st, 7, i->prefix);
	bind_text(st, 8, i->stripped);
	bind_text(st, 9, i->change_id);
	bind_text(st, 10, i->mailer);
	sqlite3_bind_int(st, 11, i->patchwork);
	sqlite3_bind_int(st, 12, i->upstream);
	if (sqlite3_step(st) != SQLITE_DONE)
		return fail(s, "insert message info");
	if (!sqlite3_changes(s->db))
		return ONLIST_OK;	/* known: the first one wins */
	for (int k = 0; k < i->ntrailers; k++) {
		const struct onlist_msg_trailer *t = &i->trailers[k];

		if (!(st = onlist__store_prepare(s, sql_put_trailer)))
			return fail(s, "prepare");
		bind_text(st, 1, i->msgid);
		sqlite3_bind_int(st, 2, k);
		bind_text(st, 3, t->key);
		bind_text(st, 4, t->name);
		bind_text(st, 5, t->addr);
		bind_text(st, 6, t->value);
		if (sqlite3_step(st) != SQLITE_DONE)
			return fail(s, "insert message trailer");
	}
	if (i->pull_url) {
		if (!(st = onlist__store_prepare(s, sql_put_pull)))
			return fail(s, "prepare");
		bind_text(st, 1, i->msgid);
		bind_text(st, 2, i->pull_url);
		bind_text(st, 3, i->pull_ref);
		bind_text(st, 4, i->pull_tip);
		if (sqlite3_step(st) != SQLITE_DONE)
			return fail(s, "insert pull");
	}
	return ONLIST_OK;
}

/* ---- threads and series ------------------------------------------------ */

enum { C_PATCH, C_COVER, C_PULL, C_REPLY, C_OTHER };

struct node {
	const char *msgid, *irt, *refs, *from, *stripped, *change_id;
	int64_t date;
	int cls, version, part, total;
	int parent, root, depth, answers, series;
	unsigned char state;	/* 0 open, 1 on the current path, 2 done */
};

struct graph {
	struct node *n;
	size_t len, cap;
	GHashTable *ids;	/* msgid -> index + 1 */
	GStringChunk *strings;
};

static int class_of(const char *c, int has_patch)
{
	if (!c)		/* imported before classes were kept */
		return has_patch ? C_PATCH : C_OTHER;
	if (!strcmp(c, ONLIST_CLASS_PATCH))
		return C_PATCH;
	if (!strcmp(c, ONLIST_CLASS_COVER))
		return C_COVER;
	if (!strcmp(c, ONLIST_CLASS_PULL))
		return C_PULL;
	if (!strcmp(c, ONLIST_CLASS_REPLY))
		return C_REPLY;
	return C_OTHER;
}

static const char *str(struct graph *g, sqlite3_stmt *st, int col)
{
	const char *v = (const char *)sqlite3_column_text(st, col);

	return g_string_chunk_insert_const(g->strings, v ? v : "");
}

static int lookup(struct graph *g, const char *id, size_t len)
{
	char buf[1024];
	gpointer v;

	if (!len || len >= sizeof(buf))
		return -1;
	memcpy(buf, id, len);
	buf[len] = '\0';
	v = g_hash_table_lookup(g->ids, buf);
	return v ? GPOINTER_TO_INT(v) - 1 : -1;
}

/* The nearest stored parent: In-Reply-To, else the last stored entry of
 * References (a missing parent is skipped over, not fatal). */
static int find_parent(struct graph *g, int self)
{
	struct node *x = &g->n[self];
	const char *r, *end;
	int p;

	if ((p = lookup(g, x->irt, strlen(x->irt))) >= 0 && p != self)
		return p;
	end = x->refs + strlen(x->refs);
	while (end > x->refs) {
		while (end > x->refs && end[-1] == ' ')
			end--;
		r = end;
		while (r > x->refs && r[-1] != ' ')
			r--;
		if (r < end && (p = lookup(g, r, (size_t)(end - r))) >= 0 &&
		    p != self)
			return p;
		end = r;
	}
	return -1;
}

/* Root, depth and the patch or cover letter each message answers, top
 * down along each path; a loop in the references is cut where found. */
static int resolve(struct graph *g)
{
	GArray *path = g_array_new(FALSE, FALSE, sizeof(int));

	for (size_t i = 0; i < g->len; i++) {
		int j = (int)i;

		if (g->n[i].state == 2)
			continue;
		g_array_set_size(path, 0);
		while (j >= 0 && g->n[j].state == 0) {
			g->n[j].state = 1;
			g_array_append_val(path, j);
			j = g->n[j].parent;
		}
		if (j >= 0 && g->n[j].state == 1) {
			/* A loop: j becomes a root; walk again. */
			g->n[j].parent = -1;
			for (guint k = 0; k < path->len; k++)
				g->n[g_array_index(path, int, k)].state = 0;
			i--;
			continue;
		}
		for (guint k = path->len; k-- > 0;) {
			struct node *x = &g->n[g_array_index(path, int, k)];
			int p = x->parent;

			if (p < 0) {
				x->root = g_array_index(path, int, k);
				x->depth = 0;
				x->answers = -1;
			} else {
				x->root = g->n[p].root;
				x->depth = g->n[p].depth + 1;
				x->answers = g->n[p].cls == C_PATCH ||
					     g->n[p].cls == C_COVER ?
					     p : g->n[p].answers;
			}
			x->state = 2;
		}
	}
	g_array_free(path, TRUE);
	return 0;
}

/* Key of the series a numbered patch without a threaded head may belong
 * to: same sender, version and length. */
static char *fallback_key(const struct node *x)
{
	return g_strdup_printf("%s\x1f%d\x1f%d", x->from, x->version, x->total);
}

#define FALLBACK_WINDOW 3600	/* seconds between a head and its patches */

static int nearest_head(struct graph *g, GHashTable *heads, const struct node *x,
			int covers_only)
{
	char *key = fallback_key(x);
	GArray *a = g_hash_table_lookup(heads, key);
	int best = -1;
	int64_t bestd = FALLBACK_WINDOW + 1;

	g_free(key);
	for (guint k = 0; a && k < a->len; k++) {
		int h = g_array_index(a, int, k);
		int64_t d = g->n[h].date - x->date;

		if (d < 0)
			d = -d;
		if (covers_only && g->n[h].cls != C_COVER)
			continue;
		if (d < bestd || (d == bestd && g->n[h].cls == C_COVER)) {
			best = h;
			bestd = d;
		}
	}
	return best;
}

static void group_series(struct graph *g)
{
	GHashTable *heads = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						  (GDestroyNotify)g_array_unref);

	/* Possible heads of a series: cover letters and first patches. */
	for (size_t i = 0; i < g->len; i++) {
		struct node *x = &g->n[i];
		int v = (int)i;
		char *key;
		GArray *a;

		x->series = -1;
		if (x->total <= 0 || !((x->cls == C_COVER && x->part == 0) ||
				       (x->cls == C_PATCH && x->part == 1)))
			continue;
		key = fallback_key(x);
		if (!(a = g_hash_table_lookup(heads, key))) {
			a = g_array_new(FALSE, FALSE, sizeof(int));
			g_hash_table_insert(heads, key, a);
		} else {
			g_free(key);
		}
		g_array_append_val(a, v);
	}
	for (size_t i = 0; i < g->len; i++) {
		struct node *x = &g->n[i];
		int y, cover = -1, first = -1, steps = 0;

		if (x->cls != C_PATCH && x->cls != C_COVER)
			continue;
		if (x->total <= 0 || x->cls == C_COVER) {
			x->series = (int)i;
			continue;
		}
		for (y = x->parent; y >= 0 && steps < 10000;
		     y = g->n[y].parent, steps++) {
			struct node *a = &g->n[y];

			if (a->total != x->total)
				continue;
			if (a->cls == C_COVER && a->part == 0) {
				cover = y;
				break;
			}
			if (a->cls == C_PATCH && a->part == 1 &&
			    !strcmp(a->from, x->from))
				first = y;
		}
		if (cover >= 0)
			x->series = cover;
		else if (first >= 0)
			x->series = first;
		else if ((y = nearest_head(g, heads, x, x->part == 1)) >= 0)
			x->series = y;
		else
			x->series = (int)i;
	}
	/* A first patch whose series head is another first patch follows
	 * that one's head (threaded under a cover found by date). */
	for (size_t i = 0; i < g->len; i++) {
		struct node *x = &g->n[i];

		if (x->series >= 0 && g->n[x->series].series >= 0 &&
		    g->n[x->series].series != x->series)
			x->series = g->n[x->series].series;
	}
	g_hash_table_destroy(heads);
}

/* The topic of a series: its change-id, else sender and subject of the
 * head.  Versions of one piece of work share it. */
static char *topic_of(struct graph *g, int head, GHashTable *change_ids)
{
	const struct node *h = &g->n[head];
	const char *cid = h->change_id[0] ? h->change_id :
			  g_hash_table_lookup(change_ids, GINT_TO_POINTER(head + 1));
	char *t, *low;

	if (cid && *cid)
		return g_strdup_printf("change-id:%s", cid);
	low = g_utf8_strdown(h->stripped, -1);
	t = g_strdup_printf("%s\x1f%s", h->from, low);
	g_free(low);
	return t;
}

static const char sql_load[] =
	"SELECT m.msgid, m.in_reply_to, m.refs, lower(m.from_addr), m.date,"
	" i.class, m.has_patch, i.version, i.part, i.total, i.stripped,"
	" i.change_id FROM messages m LEFT JOIN message_info i"
	" ON i.msgid = m.msgid ORDER BY m.rowid";

static onlist_status load(struct onlist_store *s, struct graph *g)
{
	sqlite3_stmt *st;
	int rc;

	if (!(st = onlist__store_prepare(s, sql_load)))
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct node *x;

		if (g->len == g->cap) {
			g->cap = g->cap ? 2 * g->cap : 4096;
			g->n = g_renew(struct node, g->n, g->cap);
		}
		x = &g->n[g->len];
		memset(x, 0, sizeof(*x));
		x->msgid = str(g, st, 0);
		x->irt = str(g, st, 1);
		x->refs = str(g, st, 2);
		x->from = str(g, st, 3);
		x->date = sqlite3_column_int64(st, 4);
		x->cls = class_of((const char *)sqlite3_column_text(st, 5),
				  sqlite3_column_int(st, 6));
		x->version = sqlite3_column_type(st, 7) == SQLITE_NULL ? 1 :
			     sqlite3_column_int(st, 7);
		x->part = sqlite3_column_type(st, 8) == SQLITE_NULL ? -1 :
			  sqlite3_column_int(st, 8);
		x->total = sqlite3_column_type(st, 9) == SQLITE_NULL ? -1 :
			   sqlite3_column_int(st, 9);
		x->stripped = str(g, st, 10);
		x->change_id = str(g, st, 11);
		g_hash_table_insert(g->ids, (gpointer)x->msgid,
				    GINT_TO_POINTER((int)g->len + 1));
		g->len++;
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "load messages");
}

/* Rebuilt whole, the secondary indexes dropped and made again
 * (store_schema.c says why). */
static const char sql_clear[] =
	"DELETE FROM thread; DELETE FROM series; DELETE FROM replies;";
static const char sql_put_thread[] =
	"INSERT INTO thread(msgid, parent, root, depth, answers)"
	" VALUES(?1,?2,?3,?4,?5)";
static const char sql_put_series[] =
	"INSERT INTO series(msgid, series, topic) VALUES(?1,?2,?3)";
static const char sql_put_reply[] =
	"INSERT OR IGNORE INTO replies(patch, reply, by_author)"
	" VALUES(?1,?2,?3)";

static onlist_status put_reply(struct onlist_store *s, struct graph *g,
			       int patch, int reply, long *count)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_put_reply);

	if (!st)
		return fail(s, "prepare");
	bind_text(st, 1, g->n[patch].msgid);
	bind_text(st, 2, g->n[reply].msgid);
	sqlite3_bind_int(st, 3, !strcmp(g->n[patch].from, g->n[reply].from));
	if (sqlite3_step(st) != SQLITE_DONE)
		return fail(s, "insert reply");
	*count += sqlite3_changes(s->db);
	return ONLIST_OK;
}

static gint by_msgid(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct graph *g = data;

	return strcmp(g->n[*(const int *)a].msgid, g->n[*(const int *)b].msgid);
}

static onlist_status write_graph(struct onlist_store *s, struct graph *g,
				 struct onlist_thread_counts *c)
{
	GHashTable *change_ids = g_hash_table_new(g_direct_hash, g_direct_equal);
	GHashTable *members = g_hash_table_new_full(g_direct_hash, g_direct_equal,
						    NULL, (GDestroyNotify)g_array_unref);
	GHashTable *topics = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, NULL);
	onlist_status ret = ONLIST_OK;
	sqlite3_stmt *st;

	if (sqlite3_exec(s->db, onlist__thread_index_drop, NULL, NULL, NULL)
	    != SQLITE_OK ||
	    sqlite3_exec(s->db, sql_clear, NULL, NULL, NULL) != SQLITE_OK) {
		ret = fail(s, "clear threads");
		goto out;
	}
	for (size_t i = 0; i < g->len; i++) {
		struct node *x = &g->n[i];
		int v = (int)i;
		GArray *a;

		if (x->series < 0)
			continue;
		if (x->change_id[0] &&
		    !g_hash_table_contains(change_ids, GINT_TO_POINTER(x->series + 1)))
			g_hash_table_insert(change_ids,
					    GINT_TO_POINTER(x->series + 1),
					    (gpointer)x->change_id);
		if (x->cls != C_PATCH)
			continue;
		if (!(a = g_hash_table_lookup(members, GINT_TO_POINTER(x->series + 1)))) {
			a = g_array_new(FALSE, FALSE, sizeof(int));
			g_hash_table_insert(members, GINT_TO_POINTER(x->series + 1), a);
		}
		g_array_append_val(a, v);
	}
	/* primary keys in order: appends, not page splits all over */
	int *order = g_new(int, g->len ? g->len : 1);
	for (size_t i = 0; i < g->len; i++)
		order[i] = (int)i;
	g_qsort_with_data(order, (gint)g->len, sizeof(int), by_msgid, g);
	for (size_t oi = 0; oi < g->len && ret == ONLIST_OK; oi++) {
		size_t i = (size_t)order[oi];
		struct node *x = &g->n[i];

		if (!(st = onlist__store_prepare(s, sql_put_thread))) {
			ret = fail(s, "prepare");
			break;
		}
		bind_text(st, 1, x->msgid);
		bind_text(st, 2, x->parent >= 0 ? g->n[x->parent].msgid : NULL);
		bind_text(st, 3, g->n[x->root].msgid);
		sqlite3_bind_int(st, 4, x->depth);
		bind_text(st, 5, x->answers >= 0 ? g->n[x->answers].msgid : NULL);
		if (sqlite3_step(st) != SQLITE_DONE) {
			ret = fail(s, "insert thread");
			break;
		}
		c->messages++;
		c->threads += x->parent < 0;
		if (x->series >= 0) {
			char *topic = topic_of(g, x->series, change_ids);

			if (!(st = onlist__store_prepare(s, sql_put_series))) {
				g_free(topic);
				ret = fail(s, "prepare");
				break;
			}
			bind_text(st, 1, x->msgid);
			bind_text(st, 2, g->n[x->series].msgid);
			bind_text(st, 3, topic);
			if (sqlite3_step(st) != SQLITE_DONE) {
				g_free(topic);
				ret = fail(s, "insert series");
				break;
			}
			c->series += x->series == (int)i;
			if (!g_hash_table_contains(topics, topic))
				g_hash_table_add(topics, topic);
			else
				g_free(topic);
		}
		/* Review: a reply (not a new patch, cover or pull request)
		 * below a patch, or below the cover letter of its series. */
		if ((x->cls == C_REPLY || x->cls == C_OTHER) && x->answers >= 0) {
			int a = x->answers;

			if (g->n[a].cls == C_PATCH) {
				ret = put_reply(s, g, a, (int)i, &c->replies);
			} else {
				GArray *m = g_hash_table_lookup(members,
						GINT_TO_POINTER(a + 1));
				for (guint k = 0; m && k < m->len &&
				     ret == ONLIST_OK; k++)
					ret = put_reply(s, g, g_array_index(m, int, k),
							(int)i, &c->replies);
			}
		}
	}
	g_free(order);
	c->topics = g_hash_table_size(topics);
	if (ret == ONLIST_OK &&
	    sqlite3_exec(s->db, onlist__thread_index_create, NULL, NULL, NULL)
	    != SQLITE_OK)
		ret = fail(s, "index threads");
out:
	g_hash_table_destroy(change_ids);
	g_hash_table_destroy(members);
	g_hash_table_destroy(topics);
	return ret;
}

/* What the derived tables were built from: the messages and their
 * classes only ever grow, so a count and the largest id say whether
 * anything came in since. */
static const char sql_stamp[] =
	"SELECT count(*) || ':' || coalesce(max(id), 0) || ':' ||"
	" (SELECT count(*) FROM message_info) FROM messages";
static const char sql_counts[] =
	"SELECT (SELECT count(*) FROM thread),"
	" (SELECT count(*) FROM thread WHERE parent IS NULL),"
	" (SELECT count(*) FROM replies),"
	" (SELECT count(*) FROM series WHERE series = msgid),"
	" (SELECT count(DISTINCT topic) FROM series)";

static onlist_status rows(struct onlist_store *s, const char *sql,
			  const char *const *params, int nparams,
			  onlist_row_cb cb, void *data, long *n);

static int take_stamp(int ncol, const char *const *c, void *data)
{
	char *out = data;

	(void)ncol;
	snprintf(out, 64, "%s", c[0] ? c[0] : "");
	return 1;
}

static onlist_status stamp(struct onlist_store *s, char *out, size_t size)
{
	(void)size;
	out[0] = '\0';
	return rows(s, sql_stamp, NULL, 0, take_stamp, out, NULL);
}

static int take_counts(int ncol, const char *const *c, void *data)
{
	struct onlist_thread_counts *t = data;

	(void)ncol;
	t->messages = c[0] ? atol(c[0]) : 0;
	t->threads = c[1] ? atol(c[1]) : 0;
	t->replies = c[2] ? atol(c[2]) : 0;
	t->series = c[3] ? atol(c[3]) : 0;
	t->topics = c[4] ? atol(c[4]) : 0;
	return 1;
}

onlist_status onlist_store_build_threads(struct onlist_store *s,
					 struct onlist_thread_counts *out)
{
	struct onlist_thread_counts c = { 0 };
	struct graph g = { 0 };
	onlist_status ret;
	char stamp_now[64] = "", *old = NULL;

	g.ids = g_hash_table_new(g_str_hash, g_str_equal);
	g.strings = g_string_chunk_new(1 << 20);
	if ((ret = onlist_store_begin(s)) != ONLIST_OK)
		goto out;
	/* Nothing imported since the last build: the tables stand (a
	 * rebuild of a million messages costs tens of seconds). */
	if (stamp(s, stamp_now, sizeof(stamp_now)) == ONLIST_OK &&
	    (old = onlist_store_get_meta(s, "threads_stamp")) &&
	    !strcmp(old, stamp_now) &&
	    rows(s, sql_counts, NULL, 0, take_counts, &c, NULL) == ONLIST_OK) {
		free(old);
		ret = onlist_store_commit(s);
		goto out;
	}
	free(old);
	if ((ret = load(s, &g)) != ONLIST_OK)
		goto rollback;
	for (size_t i = 0; i < g.len; i++)
		g.n[i].parent = find_parent(&g, (int)i);
	resolve(&g);
	group_series(&g);
	if ((ret = write_graph(s, &g, &c)) != ONLIST_OK)
		goto rollback;
	if (stamp_now[0] &&
	    (ret = onlist_store_set_meta(s, "threads_stamp", stamp_now)) != ONLIST_OK)
		goto rollback;
	ret = onlist_store_commit(s);
	goto out;
rollback:
	onlist_store_rollback(s);
out:
	g_hash_table_destroy(g.ids);
	g_string_chunk_free(g.strings);
	g_free(g.n);
	if (out)
		*out = c;
	return ret;
}

/* ---- reading ------------------------------------------------------------ */

static onlist_status rows(struct onlist_store *s, const char *sql,
			  const char *const *params, int nparams,
			  onlist_row_cb cb, void *data, long *n)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql);

	if (!st)
		return fail(s, "prepare");
	return onlist__store_rows(s, st, params, nparams, cb, data, n);
}

static const char sql_thread[] =
	"SELECT t.msgid, t.parent, t.depth, m.date, m.from_name, m.from_addr,"
	" m.subject, coalesce(i.class, CASE WHEN m.has_patch THEN 'patch'"
	" ELSE 'other' END)"
	" FROM thread t JOIN messages m ON m.msgid = t.msgid"
	" LEFT JOIN message_info i ON i.msgid = t.msgid"
	" WHERE t.root = (SELECT root FROM thread WHERE msgid = ?1)";

onlist_status onlist_store_thread(struct onlist_store *s, const char *msgid,
				  onlist_row_cb cb, void *data)
{
	long n;
	onlist_status st = rows(s, sql_thread, &msgid, 1, cb, data, &n);

	return st == ONLIST_OK && !n ? ONLIST_ENOTFOUND : st;
}

static const char sql_msg_trailers[] =
	"SELECT key, name, addr, value FROM message_trailers WHERE msgid = ?1"
	" ORDER BY seq";

onlist_status onlist_store_message_trailers(struct onlist_store *s,
					    const char *msgid,
					    onlist_row_cb cb, void *data)
{
	return rows(s, sql_msg_trailers, &msgid, 1, cb, data, NULL);
}

static const char sql_detail[] =
	"SELECT i.class, i.version, i.part, i.total, i.prefix,"
	" (SELECT count(*) FROM replies r WHERE r.patch = i.msgid"
	"   AND NOT r.by_author),"
	" (SELECT count(DISTINCT lower(m.from_addr)) FROM replies r"
	"   JOIN messages m ON m.msgid = r.reply"
	"   WHERE r.patch = i.msgid AND NOT r.by_author)"
	" FROM message_info i WHERE i.msgid = ?1";

static int fill_detail(int ncol, const char *const *c, void *data)
{
	struct onlist_posting_detail *d = data;

	(void)ncol;
	snprintf(d->cls, sizeof(d->cls), "%s", c[0] ? c[0] : "");
	d->version = c[1] ? atoi(c[1]) : 1;
	d->part = c[2] ? atoi(c[2]) : -1;
	d->total = c[3] ? atoi(c[3]) : -1;
	snprintf(d->prefix, sizeof(d->prefix), "%s", c[4] ? c[4] : "");
	d->replies = c[5] ? atoi(c[5]) : 0;
	d->repliers = c[6] ? atoi(c[6]) : 0;
	return 1;
}

onlist_status onlist_store_posting_detail(struct onlist_store *s,
					  const char *msgid,
					  struct onlist_posting_detail *d)
{
	long n;
	onlist_status st;

	memset(d, 0, sizeof(*d));
	st = rows(s, sql_detail, &msgid, 1, fill_detail, d, &n);
	return st == ONLIST_OK && !n ? ONLIST_ENOTFOUND : st;
}

static const char sql_reviews[] =
	"SELECT t.key, t.name, t.addr, r.reply, m.from_name, m.from_addr, m.date"
	" FROM replies r JOIN message_trailers t ON t.msgid = r.reply"
	" JOIN messages m ON m.msgid = r.reply"
	" WHERE r.patch = ?1 AND NOT r.by_author"
	" AND lower(t.key) IN ('reviewed-by', 'acked-by', 'tested-by',"
	"  'nacked-by')"
	" ORDER BY m.date, r.reply, t.seq";

onlist_status onlist_store_reviews(struct onlist_store *s, const char *msgid,
				   onlist_row_cb cb, void *data)
{
	return rows(s, sql_reviews, &msgid, 1, cb, data, NULL);
}
