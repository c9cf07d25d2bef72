/* store_thread.c - message classes, trailers in mails, and the tables of
 * threads, replies and series: read for thread.c, which computes them,
 * and written back.  Speaks SQL, like every src/store*.c file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <glib.h>

#include "onlist/store_thread.h"
#include "onlist/subject.h"
#include "onlist/thread.h"
#include "store_int.h"

#define fail onlist__store_fail
#define prepare onlist__store_prepare
#define step onlist__store_step

static const char sql_put_info[] =
	"INSERT OR IGNORE INTO message_info(msgid, class, reply, version, part,"
	" total, prefix, stripped, change_id, mailer, patchwork, upstream)"
	" VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)";
static const char sql_put_trailer[] =
	"INSERT OR IGNORE INTO message_trailers(msgid, seq, key, name, addr,"
	" value) VALUES(?1,?2,?3,?4,?5,?6)";
static const char sql_put_author[] =
	"INSERT OR IGNORE INTO message_author(msgid, name, addr)"
	" VALUES(?1,?2,?3)";
static const char sql_put_reply_kind[] =
	"INSERT OR IGNORE INTO message_reply(msgid, kind, text, quoted_id,"
	" quoted_repaired) VALUES(?1,?2,?3,?4,?5)";
static const char sql_put_pull[] =
	"INSERT OR IGNORE INTO pulls(msgid, url, ref, tip) VALUES(?1,?2,?3,?4)";

onlist_status onlist_store_put_message_info(struct onlist_store *s,
					    const struct onlist_message_info *i)
{
	if (i->author_addr && *i->author_addr &&
	    step(s, prepare(s, sql_put_author), "insert in-body author", "ttt",
		 i->msgid, i->author_name ? i->author_name : "",
		 i->author_addr) != ONLIST_OK)
		return ONLIST_EDB;
	if (i->reply_kind &&
	    step(s, prepare(s, sql_put_reply_kind), "insert reply kind", "ttttt",
		 i->msgid, i->reply_kind, i->reply_text, i->quoted_id,
		 i->quoted_repaired) != ONLIST_OK)
		return ONLIST_EDB;
	if (step(s, prepare(s, sql_put_info), "insert message info",
		 "ttiiiittttii", i->msgid, i->cls, i->reply, i->version, i->part,
		 i->total, i->prefix, i->stripped, i->change_id, i->mailer,
		 i->patchwork, i->upstream) != ONLIST_OK)
		return ONLIST_EDB;
	if (!sqlite3_changes(s->db))
		return ONLIST_OK;	/* known: the first one wins */
	for (int k = 0; k < i->ntrailers; k++) {
		const struct onlist_msg_trailer *t = &i->trailers[k];

		if (step(s, prepare(s, sql_put_trailer), "insert message trailer",
			 "titttt", i->msgid, k, t->key, t->name, t->addr,
			 t->value) != ONLIST_OK)
			return ONLIST_EDB;
	}
	if (i->pull_url)
		return step(s, prepare(s, sql_put_pull), "insert pull", "tttt",
			    i->msgid, i->pull_url, i->pull_ref, i->pull_tip);
	return ONLIST_OK;
}

/* ---- threads and series ------------------------------------------------ */

/* What onlist_thread_build() needs of every message; a NULL column is
 * what thread.h says "none" is. */
#define LOAD_COLS \
	"SELECT m.msgid, coalesce(m.in_reply_to, ''), coalesce(m.refs, '')," \
	" coalesce(lower(m.from_addr), ''), m.date, i.class, m.has_patch," \
	" coalesce(i.version, 1)," \
	/* a reply that carries a patch ("Re: [PATCH 11/11]" with a fix in \
	 * it) is a patch of its own, not part 11 of the series it answers: \
	 * it would take that series' versions and review tags */ \
	" CASE WHEN i.reply THEN -1 ELSE coalesce(i.part, -1) END," \
	" CASE WHEN i.reply THEN -1 ELSE coalesce(i.total, -1) END," \
	" coalesce(i.stripped, ''), coalesce(i.change_id, '')," \
	" coalesce(i.reply, 0), coalesce(m.from_name, ''), coalesce(lower(au.addr), '')," \
	" coalesce(au.name, ''), coalesce(i.prefix, ''), coalesce(i.upstream, 0)"
static const char sql_load[] =
	LOAD_COLS " FROM messages m LEFT JOIN message_info i"
	" ON i.msgid = m.msgid LEFT JOIN message_author au ON au.msgid = m.msgid"
	" ORDER BY m.rowid";
/* the same, of the messages find_part() found (temp.aff), in the same
 * order: the build sees them as it would among all the others */
static const char sql_load_part[] =
	LOAD_COLS " FROM temp.aff a JOIN messages m ON m.msgid = a.msgid"
	" LEFT JOIN message_info i ON i.msgid = m.msgid"
	" LEFT JOIN message_author au ON au.msgid = m.msgid ORDER BY m.rowid";

struct loaded {
	struct onlist_thread_msg *v;
	size_t len, cap;
	GStringChunk *strings;	/* what v's strings point to */
};

/* Strings that repeat (senders, classes, subjects) are stored once; ids
 * and References, nearly all distinct, are not looked up first: a
 * million hashes of long strings are a good part of the load. */
static const char *str(struct loaded *l, sqlite3_stmt *st, int col)
{
	const char *v = (const char *)sqlite3_column_text(st, col);

	return v ? g_string_chunk_insert_const(l->strings, v) : NULL;
}

static const char *str_once(struct loaded *l, sqlite3_stmt *st, int col)
{
	const char *v = (const char *)sqlite3_column_text(st, col);

	if (!v)
		return NULL;
	return *v ? g_string_chunk_insert_len(l->strings, v,
					      sqlite3_column_bytes(st, col)) : "";
}

static onlist_status load(struct onlist_store *s, struct loaded *l, int part)
{
	sqlite3_stmt *st;
	int rc;

	if (!(st = prepare(s, part ? sql_load_part : sql_load)))
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_thread_msg *x;

		if (l->len == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 4096;
			l->v = g_renew(struct onlist_thread_msg, l->v, l->cap);
		}
		x = &l->v[l->len++];
		memset(x, 0, sizeof(*x));
		x->msgid = str_once(l, st, 0);
		x->in_reply_to = str_once(l, st, 1);
		x->refs = str_once(l, st, 2);
		x->from = str(l, st, 3);
		x->date = sqlite3_column_int64(st, 4);
		x->cls = str(l, st, 5);
		x->has_patch = sqlite3_column_int(st, 6);
		x->version = sqlite3_column_int(st, 7);
		x->part = sqlite3_column_int(st, 8);
		x->total = sqlite3_column_int(st, 9);
		x->stripped = str(l, st, 10);
		x->change_id = str(l, st, 11);
		x->reply = sqlite3_column_int(st, 12);
		x->from_name = str(l, st, 13);
		x->author = str(l, st, 14);
		x->author_name = str(l, st, 15);
		/* stable maintainers post everyone's patches: a backport's
		 * in-body author does not make it a version of hers */
		x->backport = sqlite3_column_int(st, 17) ||
			      onlist_subject_stable((const char *)
						    sqlite3_column_text(st, 16));
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

/* thread_pending (store_schema.c): all of it after a whole build, the
 * rows of the messages built again after a partial one */
static const char sql_clear_pending[] = "DELETE FROM thread_pending";
static const char sql_clear_pending_part[] =
	"DELETE FROM thread_pending WHERE msgid IN (SELECT msgid FROM temp.aff)";
static const char sql_put_pending[] =
	"INSERT OR IGNORE INTO thread_pending(ref, msgid) VALUES(?1,?2)";

static onlist_status write_pending(struct onlist_store *s,
				   const struct onlist_thread_msg *v,
				   const struct onlist_threads *t, int part)
{
	onlist_status ret = ONLIST_OK;

	if (sqlite3_exec(s->db, part ? sql_clear_pending_part :
			 sql_clear_pending, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "clear pending references");
	for (size_t i = 0; i < t->npending && ret == ONLIST_OK; i++) {
		const struct onlist_thread_pending *p = &t->pending[i];
		char *ref = g_strndup(p->ref, p->len);

		ret = step(s, prepare(s, sql_put_pending), "insert pending reference",
			   "tt", ref, v[p->msg].msgid);
		g_free(ref);
	}
	return ret;
}

static gint by_msgid(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct onlist_thread_msg *v = data;

	return strcmp(v[*(const int *)a].msgid, v[*(const int *)b].msgid);
}

static onlist_status write_threads(struct onlist_store *s,
				   const struct onlist_thread_msg *v, size_t n,
				   const struct onlist_threads *t,
				   struct onlist_thread_counts *c)
{
	onlist_status ret = ONLIST_OK;
	int *order;

	if (sqlite3_exec(s->db, onlist__thread_index_drop, NULL, NULL, NULL)
	    != SQLITE_OK ||
	    sqlite3_exec(s->db, sql_clear, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "clear threads");
	/* primary keys in order: appends, not page splits all over */
	order = g_new(int, n ? n : 1);
	for (size_t i = 0; i < n; i++)
		order[i] = (int)i;
	g_qsort_with_data(order, (gint)n, sizeof(int), by_msgid, (gpointer)v);
	for (size_t oi = 0; oi < n; oi++) {
		const struct onlist_thread_msg *x = &v[order[oi]];

		if ((ret = step(s, prepare(s, sql_put_thread), "insert thread",
				"tttit", x->msgid,
				x->parent >= 0 ? v[x->parent].msgid : NULL,
				v[x->root].msgid, x->depth,
				x->answers >= 0 ? v[x->answers].msgid : NULL))
		    != ONLIST_OK)
			goto out;
		c->messages++;
		if (x->series >= 0 &&
		    (ret = step(s, prepare(s, sql_put_series), "insert series",
				"ttt", x->msgid, v[x->series].msgid, x->topic))
		    != ONLIST_OK)
			goto out;
	}
	for (size_t i = 0; i < t->nreplies; i++) {
		const struct onlist_thread_reply *r = &t->replies[i];

		if ((ret = step(s, prepare(s, sql_put_reply), "insert reply", "tti",
				v[r->patch].msgid, v[r->reply].msgid,
				r->by_author)) != ONLIST_OK)
			goto out;
		c->replies += sqlite3_changes(s->db);
	}
	c->threads = t->threads;
	c->series = t->series;
	c->topics = t->topics;
	c->written = (long)n;
	if ((ret = write_pending(s, v, t, 0)) != ONLIST_OK ||
	    (ret = onlist_store_set_meta(s, "review_dirty", "*")) != ONLIST_OK)
		goto out;
	if (sqlite3_exec(s->db, onlist__thread_index_create, NULL, NULL, NULL)
	    != SQLITE_OK)
		ret = fail(s, "index threads");
out:
	g_free(order);
	return ret;
}

/* ---- writing only what changed ------------------------------------------ */

/* After new mail, the tables are not cleared: every message is computed
 * again in memory (cheap next to writing a million rows and their
 * indexes), the stored rows are read and compared, and only the rows that
 * differ are written.  The result is the rows a whole rebuild writes. */
static const char sql_old_thread[] =
	"SELECT msgid, parent, root, depth, answers FROM thread";
static const char sql_old_series[] =
	"SELECT msgid, series, topic FROM series";
static const char sql_old_thread_part[] =
	"SELECT t.msgid, t.parent, t.root, t.depth, t.answers"
	" FROM temp.aff a JOIN thread t ON t.msgid = a.msgid";
static const char sql_old_series_part[] =
	"SELECT s.msgid, s.series, s.topic"
	" FROM temp.aff a JOIN series s ON s.msgid = a.msgid";
static const char sql_set_thread[] =
	"INSERT OR REPLACE INTO thread(msgid, parent, root, depth, answers)"
	" VALUES(?1,?2,?3,?4,?5)";
static const char sql_set_series[] =
	"INSERT OR REPLACE INTO series(msgid, series, topic) VALUES(?1,?2,?3)";
static const char sql_del_series[] = "DELETE FROM series WHERE msgid = ?1";
static const char sql_del_thread[] = "DELETE FROM thread WHERE msgid = ?1";
static const char sql_del_replies[] = "DELETE FROM replies WHERE reply = ?1";
static const char sql_del_patch[] = "DELETE FROM replies WHERE patch = ?1";
static const char sql_count_replies[] = "SELECT count(*) FROM replies";
static const char sql_has_threads[] = "SELECT 1 FROM thread LIMIT 1";

static int has_threads(struct onlist_store *s)
{
	sqlite3_stmt *st = prepare(s, sql_has_threads);
	int yes = st && sqlite3_step(st) == SQLITE_ROW;

	if (st)
		sqlite3_reset(st);
	return yes;
}

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
 * review (store_review.c), which recomputes only the commits posted in
 * them: meta review_dirty, one topic a line, added to what an earlier
 * build left there until the review is computed; "*" for all of them. */
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

static onlist_status update_threads(struct onlist_store *s,
				    const struct onlist_thread_msg *v, size_t n,
				    const struct onlist_threads *t,
				    struct onlist_thread_counts *c, int part)
{
	GHashTable *idx = g_hash_table_new(g_str_hash, g_str_equal);
	/* heads of series whose patches changed: their replies follow */
	GHashTable *heads = g_hash_table_new(g_str_hash, g_str_equal);
	GStringChunk *old_heads = g_string_chunk_new(4096);
	GPtrArray *gone = g_ptr_array_new_with_free_func(g_free);
	/* topics whose review may differ: see mark_topics() */
	GHashTable *dirty = g_hash_table_new(g_str_hash, g_str_equal);
	unsigned char *d = g_malloc0(n ? n : 1);
	onlist_status ret = ONLIST_OK;
	sqlite3_stmt *st;
	long changed = 0;
	int rc;

	for (size_t i = 0; i < n; i++)
		if (!g_hash_table_contains(idx, v[i].msgid))
			g_hash_table_insert(idx, (gpointer)v[i].msgid,
					    GSIZE_TO_POINTER(i + 1));
	if (!(st = prepare(s, part ? sql_old_thread_part : sql_old_thread))) {
		ret = fail(s, "prepare");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		gpointer p = id ? g_hash_table_lookup(idx, id) : NULL;
		const struct onlist_thread_msg *x;
		size_t i;

		if (!p) {	/* no such message (none is ever removed) */
			if (id)
				g_ptr_array_add(gone, g_strdup(id));
			continue;
		}
		i = GPOINTER_TO_SIZE(p) - 1;
		x = &v[i];
		d[i] |= D_SEEN;
		if (differs((const char *)sqlite3_column_text(st, 1),
			    id_of(v, x->parent)) ||
		    differs((const char *)sqlite3_column_text(st, 2),
			    v[x->root].msgid) ||
		    sqlite3_column_int(st, 3) != x->depth)
			d[i] |= D_THREAD;
		if (differs((const char *)sqlite3_column_text(st, 4),
			    id_of(v, x->answers))) {
			const char *was = (const char *)sqlite3_column_text(st, 4);
			gpointer q = was ? g_hash_table_lookup(idx, was) : NULL;

			d[i] |= D_THREAD | D_REPLIES;
			/* the topic it answered before (as it is now: if that
			 * one moved, its series row says where from) */
			if (q)
				dirty_add(dirty, old_heads,
					  v[GPOINTER_TO_SIZE(q) - 1].topic);
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		ret = fail(s, "read threads");
		goto out;
	}
	if (!(st = prepare(s, part ? sql_old_series_part : sql_old_series))) {
		ret = fail(s, "prepare");
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(st, 0);
		const char *old = (const char *)sqlite3_column_text(st, 1);
		gpointer p = id ? g_hash_table_lookup(idx, id) : NULL;
		const struct onlist_thread_msg *x;
		size_t i;

		if (!p) {
			if (id)
				g_ptr_array_add(gone, g_strdup(id));
			dirty_add(dirty, old_heads,
				  (const char *)sqlite3_column_text(st, 2));
			continue;
		}
		i = GPOINTER_TO_SIZE(p) - 1;
		x = &v[i];
		d[i] |= D_SSEEN;
		if (differs(old, id_of(v, x->series))) {
			d[i] |= D_SERIES;
			if (old)
				g_hash_table_add(heads, g_string_chunk_insert_const(
					old_heads, old));
			dirty_add(dirty, old_heads,
				  (const char *)sqlite3_column_text(st, 2));
		} else if (differs((const char *)sqlite3_column_text(st, 2),
				   x->topic)) {
			d[i] |= D_SERIES;
			dirty_add(dirty, old_heads,
				  (const char *)sqlite3_column_text(st, 2));
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		ret = fail(s, "read series");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct onlist_thread_msg *x = &v[i];

		if (!(d[i] & D_SEEN))
			d[i] |= D_THREAD | D_REPLIES;
		if (x->series >= 0 && !(d[i] & D_SSEEN))
			d[i] |= D_SERIES;
		if ((d[i] & D_SERIES) && x->series >= 0)
			g_hash_table_add(heads, (gpointer)v[x->series].msgid);
	}
	/* a reply to a cover letter is a reply to each patch of its series */
	for (size_t i = 0; i < n; i++)
		if (v[i].answers >= 0 &&
		    g_hash_table_contains(heads, v[v[i].answers].msgid))
			d[i] |= D_REPLIES;
	for (size_t i = 0; i < n && ret == ONLIST_OK; i++) {
		const struct onlist_thread_msg *x = &v[i];

		c->messages++;
		if (d[i] & D_SERIES)
			dirty_add(dirty, old_heads, x->topic);
		if ((d[i] & D_REPLIES) && x->answers >= 0)
			dirty_add(dirty, old_heads, v[x->answers].topic);
		if (d[i] & D_THREAD) {
			changed++;
			ret = step(s, prepare(s, sql_set_thread), "update thread",
				   "tttit", x->msgid, id_of(v, x->parent),
				   v[x->root].msgid, x->depth, id_of(v, x->answers));
		}
		if (ret == ONLIST_OK && (d[i] & D_SERIES))
			ret = x->series >= 0 ?
			      step(s, prepare(s, sql_set_series), "update series",
				   "ttt", x->msgid, v[x->series].msgid, x->topic) :
			      step(s, prepare(s, sql_del_series), "update series",
				   "t", x->msgid);
		if (ret == ONLIST_OK && (d[i] & D_REPLIES) && (d[i] & D_SEEN))
			ret = step(s, prepare(s, sql_del_replies), "update replies",
				   "t", x->msgid);
	}
	/* rows of messages that are not there: a rebuild has none */
	for (guint k = 0; k < gone->len && ret == ONLIST_OK; k++) {
		const char *id = g_ptr_array_index(gone, k);

		if ((ret = step(s, prepare(s, sql_del_thread), "update thread",
				"t", id)) == ONLIST_OK &&
		    (ret = step(s, prepare(s, sql_del_series), "update series",
				"t", id)) == ONLIST_OK &&
		    (ret = step(s, prepare(s, sql_del_patch), "update replies",
				"t", id)) == ONLIST_OK)
			ret = step(s, prepare(s, sql_del_replies),
				   "update replies", "t", id);
	}
	for (size_t i = 0; i < t->nreplies && ret == ONLIST_OK; i++) {
		const struct onlist_thread_reply *r = &t->replies[i];

		if (d[r->reply] & D_REPLIES)
			ret = step(s, prepare(s, sql_put_reply), "insert reply",
				   "tti", v[r->patch].msgid, v[r->reply].msgid,
				   r->by_author);
	}
	if (ret != ONLIST_OK)
		goto out;
	if (!(st = prepare(s, sql_count_replies))) {
		ret = fail(s, "prepare");
		goto out;
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		c->replies = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	c->threads = t->threads;
	c->series = t->series;
	c->topics = t->topics;
	c->written = changed;
	if ((ret = write_pending(s, v, t, part)) == ONLIST_OK)
		ret = save_dirty(s, dirty);
out:
	g_hash_table_destroy(idx);
	g_hash_table_destroy(heads);
	g_string_chunk_free(old_heads);
	g_ptr_array_free(gone, TRUE);
	g_hash_table_destroy(dirty);
	g_free(d);
	return ret;
}

/* What the derived tables were built from: the messages, their classes
 * and in-body authors only ever grow, so counts and the largest id say
 * whether anything came in since.  The prefix names the rules of
 * thread.h: a table built by other rules (t2: before a "Re:" with a diff
 * counted as a reply, and before in-body authors and display names linked
 * versions; t3: with only one of the two; t4: before cover letters were
 * found by structure) is written again whole, since
 * only a whole write puts in the rows the new rules add where nothing
 * else changed. */
#define THREAD_RULES "t5:"
static const char sql_stamp[] =
	"SELECT '" THREAD_RULES "' || count(*) || ':' || coalesce(max(id), 0)"
	" || ':' || (SELECT count(*) FROM message_info) || ':' ||"
	" (SELECT count(*) FROM message_author) FROM messages";
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

/* ---- building again only around new mail ------------------------------- */

/* Which stored messages new mail can change: those linked to it, and to
 * what is linked to those, by every rule of thread.h, until nothing more
 * is found; they go to temp.aff.  Everything else keeps its rows, since
 * the build of this set on its own gives them the rows a whole build
 * would.  The links, each a statement over the messages found in the
 * last round (?1):
 * - a whole thread (its root), for anything of it;
 * - the messages whose References named an id not stored then
 *   (thread_pending), for the message of that id;
 * - the patches, cover letters and orphan replies with the same subject
 *   (an orphan answers by subject; versions are linked by subject);
 * - the messages of the same sender within an hour of a numbered patch
 *   (a series whose threading broke is grouped by that);
 * - the messages of the same topic, and of the same change-id.
 * Versions linked by the in-body author or the display name (thread.h)
 * need no statement of their own: those links, like every link between
 * series by sender, join patches and heads of the same subject, which
 * the subject statement finds already; and an in-body author that
 * arrives for an old message (imported again) makes the build whole.
 * A subject is compared lower-cased by SQLite (ASCII), thread.c folds all
 * of Unicode: two subjects that differ only in the case of a non-ASCII
 * letter are not found as one; a whole build (`match --rebuild-threads`)
 * joins them. */
static const char sql_aff_create[] =
	"CREATE TEMP TABLE IF NOT EXISTS aff(msgid TEXT PRIMARY KEY,"
	" round INTEGER NOT NULL) WITHOUT ROWID; DELETE FROM temp.aff;";
static const char sql_aff_new[] =
	"INSERT OR IGNORE INTO temp.aff SELECT msgid, 0 FROM messages WHERE id > ?1";
static const char sql_new_refs[] =
	"SELECT coalesce(in_reply_to, ''), coalesce(refs, '') FROM messages"
	" WHERE id > ?1";
static const char sql_aff_ref[] =
	"INSERT OR IGNORE INTO temp.aff SELECT msgid, 0 FROM messages"
	" WHERE msgid = ?1";
#define SUBJECT_LINKED(i) \
	" (" i ".class IN ('patch', 'cover') OR (" i ".class = 'reply' AND" \
	" NOT EXISTS (SELECT 1 FROM thread o WHERE o.msgid = " i ".msgid" \
	" AND o.parent IS NOT NULL)))"
static const char *const sql_aff_links[] = {
	"INSERT OR IGNORE INTO temp.aff SELECT t2.msgid, ?1 + 1"
	" FROM temp.aff a JOIN thread t ON t.msgid = a.msgid"
	" JOIN thread t2 ON t2.root = t.root WHERE a.round = ?1",
	"INSERT OR IGNORE INTO temp.aff SELECT p.msgid, ?1 + 1"
	" FROM temp.aff a JOIN thread_pending p ON p.ref = a.msgid"
	" WHERE a.round = ?1",
	"INSERT OR IGNORE INTO temp.aff SELECT i2.msgid, ?1 + 1"
	" FROM temp.aff a JOIN message_info i ON i.msgid = a.msgid"
	" JOIN message_info i2 ON lower(i2.stripped) = lower(i.stripped)"
	" WHERE a.round = ?1 AND i.stripped <> '' AND" SUBJECT_LINKED("i")
	" AND" SUBJECT_LINKED("i2"),
	/* dated or not, with a sender or without one */
	"INSERT OR IGNORE INTO temp.aff"
	" SELECT m2.msgid, ?1 + 1 FROM temp.aff a"
	" JOIN messages m ON m.msgid = a.msgid"
	" JOIN message_info i ON i.msgid = m.msgid"
	" JOIN messages m2 ON lower(m2.from_addr) = lower(m.from_addr)"
	" AND m2.date BETWEEN coalesce(m.date, 0) - 3600"
	" AND coalesce(m.date, 0) + 3600"
	" WHERE a.round = ?1 AND i.total > 0 AND NOT i.reply"
	" UNION ALL SELECT m2.msgid, ?1 + 1 FROM temp.aff a"
	" JOIN messages m ON m.msgid = a.msgid"
	" JOIN message_info i ON i.msgid = m.msgid"
	" JOIN messages m2 ON lower(m2.from_addr) = lower(m.from_addr)"
	" AND m2.date IS NULL"
	" WHERE a.round = ?1 AND i.total > 0 AND NOT i.reply"
	" AND abs(coalesce(m.date, 0)) <= 3600"
	" UNION ALL SELECT m2.msgid, ?1 + 1 FROM temp.aff a"
	" JOIN messages m ON m.msgid = a.msgid"
	" JOIN message_info i ON i.msgid = m.msgid"
	" JOIN messages m2 ON coalesce(m2.from_addr, '') = ''"
	" AND coalesce(m2.date, 0) BETWEEN coalesce(m.date, 0) - 3600"
	" AND coalesce(m.date, 0) + 3600"
	" WHERE a.round = ?1 AND i.total > 0 AND NOT i.reply"
	" AND coalesce(m.from_addr, '') = ''",
	"INSERT OR IGNORE INTO temp.aff SELECT s2.msgid, ?1 + 1"
	" FROM temp.aff a JOIN series s ON s.msgid = a.msgid"
	" JOIN series s2 ON s2.topic = s.topic WHERE a.round = ?1",
	"INSERT OR IGNORE INTO temp.aff SELECT i2.msgid, ?1 + 1"
	" FROM temp.aff a JOIN message_info i ON i.msgid = a.msgid"
	" JOIN message_info i2 ON i2.change_id = i.change_id"
	" WHERE a.round = ?1 AND i.change_id IS NOT NULL",
};
static const char sql_new_info[] =
	"SELECT count(*) FROM messages m JOIN message_info i"
	" ON i.msgid = m.msgid WHERE m.id > ?1";
static const char sql_new_authors[] =
	"SELECT count(*) FROM messages m JOIN message_author a"
	" ON a.msgid = m.msgid WHERE m.id > ?1";

/* A share of the messages past which a whole build is as cheap */
#define PART_MAX_SHARE 4

static int parse_stamp(const char *st, long long *count, long long *maxid,
		       long long *info, long long *authors)
{
	return st && sscanf(st, THREAD_RULES "%lld:%lld:%lld:%lld", count, maxid,
			    info, authors) == 4;
}

static onlist_status count_of(struct onlist_store *s, const char *sql,
			      long long arg, long long *n)
{
	sqlite3_stmt *st = prepare(s, sql);

	if (!st)
		return fail(s, "prepare");
	sqlite3_bind_int64(st, 1, arg);
	*n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
	sqlite3_reset(st);
	return *n < 0 ? fail(s, "count") : ONLIST_OK;
}

/* Add the stored messages an id in References (a space-separated list)
 * or In-Reply-To names. */
static onlist_status aff_refs(struct onlist_store *s, const char *list)
{
	while (*list) {
		const char *e;
		char *id;
		onlist_status ret;

		while (*list == ' ')
			list++;
		if (!*list)
			break;
		e = strchr(list, ' ');
		if (!e)
			e = list + strlen(list);
		id = g_strndup(list, (gsize)(e - list));
		ret = step(s, prepare(s, sql_aff_ref), "find references", "t", id);
		g_free(id);
		if (ret != ONLIST_OK)
			return ret;
		list = e;
	}
	return ONLIST_OK;
}

/* Fill temp.aff; *found is how many, or -1 when a whole build is due
 * (the stored rows were not made by a build that kept thread_pending,
 * message facts arrived for old messages, or the set is large). */
static onlist_status find_part(struct onlist_store *s, const char *base,
			       const char *now, long long *found)
{
	long long c0, m0, i0, a0, c1, m1, i1, a1, n, info, authors;
	sqlite3_stmt *st;
	onlist_status ret;
	int rc;

	*found = -1;
	if (!parse_stamp(base, &c0, &m0, &i0, &a0) ||
	    !parse_stamp(now, &c1, &m1, &i1, &a1) ||
	    c1 < c0 || m1 < m0 || i1 < i0 || a1 < a0)
		return ONLIST_OK;
	if ((ret = count_of(s, "SELECT count(*) FROM messages WHERE id > ?1",
			    m0, &n)) != ONLIST_OK ||
	    (ret = count_of(s, sql_new_info, m0, &info)) != ONLIST_OK ||
	    (ret = count_of(s, sql_new_authors, m0, &authors)) != ONLIST_OK)
		return ret;
	/* an in-body author found for an old message (imported again) may
	 * link it anywhere its subject goes: build whole */
	if (n != c1 - c0 || info != i1 - i0 || authors != a1 - a0)
		return ONLIST_OK;
	if (sqlite3_exec(s->db, sql_aff_create, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "create a temporary table");
	if ((ret = step(s, prepare(s, sql_aff_new), "find new mail", "I",
			(int64_t)m0)) != ONLIST_OK)
		return ret;
	if (!(st = prepare(s, sql_new_refs)))
		return fail(s, "prepare");
	sqlite3_bind_int64(st, 1, m0);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *irt = g_strdup((const char *)sqlite3_column_text(st, 0));
		char *refs = g_strdup((const char *)sqlite3_column_text(st, 1));

		ret = aff_refs(s, irt);
		if (ret == ONLIST_OK)
			ret = aff_refs(s, refs);
		g_free(irt);
		g_free(refs);
		if (ret != ONLIST_OK) {
			sqlite3_reset(st);
			return ret;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail(s, "read new mail");
	for (int round = 0;; round++) {
		long added = 0;

		for (size_t k = 0; k < G_N_ELEMENTS(sql_aff_links); k++) {
			if ((ret = step(s, prepare(s, sql_aff_links[k]),
					"find linked mail", "i", round)) != ONLIST_OK)
				return ret;
			added += sqlite3_changes(s->db);
		}
		if ((ret = count_of(s, "SELECT count(*) FROM temp.aff WHERE ?1",
				    1, &n)) != ONLIST_OK)
			return ret;
		if (n > c1 / PART_MAX_SHARE + 1000)
			return ONLIST_OK;	/* as well build whole */
		if (!added)
			break;
	}
	*found = n;
	return ONLIST_OK;
}

onlist_status onlist_store_build_threads(struct onlist_store *s,
					 struct onlist_thread_counts *out)
{
	struct onlist_thread_counts c = { 0 };
	struct onlist_threads t = ONLIST_THREADS_INIT;
	struct loaded l = { 0 };
	onlist_status ret;
	char stamp_now[64] = "", *old = NULL, *base = NULL;
	long long part = -1;
	int whole;

	l.strings = g_string_chunk_new(1 << 20);
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
	/* tables of other rules, or of no known ones: written again whole */
	whole = !has_threads(s) || !old ||
		strncmp(old, THREAD_RULES, strlen(THREAD_RULES));
	free(old);
	/* New mail on top of a build that kept thread_pending: only what it
	 * can change is built again. */
	if (!whole && (base = onlist_store_get_meta(s, "threads_base")) &&
	    (ret = find_part(s, base, stamp_now, &part)) != ONLIST_OK)
		goto rollback;
	if ((ret = load(s, &l, part >= 0)) != ONLIST_OK)
		goto rollback;
	if ((ret = onlist_thread_build(l.v, l.len, &t)) != ONLIST_OK) {
		onlist_store_rollback(s);
		free(s->errmsg);
		s->errmsg = strdup(onlist_status_str(ret));
		goto out;
	}
	/* the first build writes everything; later ones what changed */
	if (whole)
		ret = write_threads(s, l.v, l.len, &t, &c);
	else
		ret = update_threads(s, l.v, l.len, &t, &c, part >= 0);
	if (ret != ONLIST_OK)
		goto rollback;
	/* a part knows its own counts, not the whole's */
	if (part >= 0) {
		long written = c.written;

		if ((ret = rows(s, sql_counts, NULL, 0, take_counts, &c, NULL))
		    != ONLIST_OK)
			goto rollback;
		c.written = written;
	}
	c.built = (long)l.len;
	if (stamp_now[0] &&
	    ((ret = onlist_store_set_meta(s, "threads_stamp", stamp_now)) != ONLIST_OK ||
	     (ret = onlist_store_set_meta(s, "threads_base", stamp_now)) != ONLIST_OK))
		goto rollback;
	ret = onlist_store_commit(s);
	goto out;
rollback:
	onlist_store_rollback(s);
out:
	free(base);
	onlist_threads_release(&t);
	g_string_chunk_free(l.strings);
	g_free(l.v);
	if (out)
		*out = c;
	return ret;
}

/* ---- reading ------------------------------------------------------------ */

static onlist_status rows(struct onlist_store *s, const char *sql,
			  const char *const *params, int nparams,
			  onlist_row_cb cb, void *data, long *n)
{
	sqlite3_stmt *st = prepare(s, sql);

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
	/* bots and echoes are no one's reply: the review state skips them
	 * too (a CI bot that answers every patch made every posting look
	 * discussed) */
	" (SELECT count(*) FROM replies r WHERE r.patch = i.msgid"
	"   AND NOT r.by_author"
	"   AND NOT EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = r.reply)),"
	" (SELECT count(DISTINCT lower(m.from_addr)) FROM replies r"
	"   JOIN messages m ON m.msgid = r.reply"
	"   WHERE r.patch = i.msgid AND NOT r.by_author"
	"   AND NOT EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = r.reply))"
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
