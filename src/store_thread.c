/* store_thread.c - message classes, trailers in mails, and the tables of
 * threads, replies and series: read for thread.c, which computes them,
 * and written back as thread_update.c decides.  Speaks SQL, like every
 * src/store*.c file. */
#include <stdarg.h>
#include <stddef.h>
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

onlist_status onlist_store_thread_put_message_info(struct onlist_store *s,
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

/* thread_update.c decides what is built again and which rows are written;
 * the functions below read and write what it asks for (store_thread.h). */

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
/* All the messages: each table read through in its own order, not a
 * look-up in message_info and message_author for each message; the
 * caller joins them by id (1,000,000 messages, that join included:
 * 2.3 s CPU -> 2.0 s). */
static const char sql_load_messages[] =
	"SELECT msgid, coalesce(in_reply_to, ''), coalesce(refs, ''),"
	" coalesce(lower(from_addr), ''), date, has_patch,"
	" coalesce(from_name, '') FROM messages ORDER BY rowid";
static const char sql_load_info[] =
	"SELECT msgid, class, coalesce(version, 1),"
	" CASE WHEN reply THEN -1 ELSE coalesce(part, -1) END,"
	" CASE WHEN reply THEN -1 ELSE coalesce(total, -1) END,"
	" coalesce(stripped, ''), coalesce(change_id, ''), coalesce(reply, 0),"
	" coalesce(prefix, ''), coalesce(upstream, 0) FROM message_info"
	" ORDER BY msgid";
static const char sql_load_authors[] =
	"SELECT msgid, coalesce(lower(addr), ''), coalesce(name, '')"
	" FROM message_author ORDER BY msgid";
/* the same, of the messages find_part() found (temp.aff), in the same
 * order: the build sees them as it would among all the others.  CROSS
 * JOIN: else SQLite walks all the messages in rowid order to spare the
 * sort of a few thousand (4.5 s at 5,000,000 messages) */
static const char sql_load_part[] =
	LOAD_COLS " FROM temp.aff a CROSS JOIN messages m ON m.msgid = a.msgid"
	" LEFT JOIN message_info i ON i.msgid = m.msgid"
	" LEFT JOIN message_author au ON au.msgid = m.msgid ORDER BY m.rowid";

#define R(type, field) { type, offsetof(struct onlist_store_thread_row, field) }
static const struct onlist__column load_cols[] = {
	R('t', msgid), R('t', in_reply_to), R('t', refs), R('t', from),
	R('I', date), R('t', cls), R('i', has_patch), R('i', version),
	R('i', part), R('i', total), R('t', stripped), R('t', change_id),
	R('i', reply), R('t', from_name), R('t', author), R('t', author_name),
	R('t', prefix), R('i', upstream), { 0, 0 }
};
static const struct onlist__column message_cols[] = {
	R('t', msgid), R('t', in_reply_to), R('t', refs), R('t', from),
	R('I', date), R('i', has_patch), R('t', from_name), { 0, 0 }
};
static const struct onlist__column info_cols[] = {
	R('t', msgid), R('t', cls), R('i', version), R('i', part),
	R('i', total), R('t', stripped), R('t', change_id), R('i', reply),
	R('t', prefix), R('i', upstream), { 0, 0 }
};
static const struct onlist__column author_cols[] = {
	R('t', msgid), R('t', author), R('t', author_name), { 0, 0 }
};
#undef R

/* The rows of one statement, of one kind (a _MESSAGE row with the
 * values a LEFT JOIN gives a message without class or author). */
static onlist_status load_rows(struct onlist_store *s, const char *sql,
			       enum onlist_store_thread_row_kind kind,
			       const struct onlist__column *cols,
			       onlist_store_thread_row_cb cb, void *data)
{
	sqlite3_stmt *st;
	int rc;

	if (!(st = prepare(s, sql)))
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_thread_row r = {
			.kind = kind, .in_reply_to = "", .refs = "", .from = "",
			.stripped = "", .change_id = "", .from_name = "",
			.author = "", .author_name = "", .prefix = "",
			.version = 1, .part = -1, .total = -1,
		};

		onlist__store_columns(st, &r, cols);
		r.msgid_len = (size_t)sqlite3_column_bytes(st, 0);
		if (kind != ONLIST_THREAD_ROW_INFO &&
		    kind != ONLIST_THREAD_ROW_AUTHOR) {
			r.in_reply_to_len = (size_t)sqlite3_column_bytes(st, 1);
			r.refs_len = (size_t)sqlite3_column_bytes(st, 2);
		}
		cb(&r, data);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "load messages");
}

onlist_status onlist_store_thread_load(struct onlist_store *s, int part,
				       onlist_store_thread_row_cb cb,
				       void *data)
{
	onlist_status ret;

	if (part)
		ret = load_rows(s, sql_load_part, ONLIST_THREAD_ROW_ALL,
				load_cols, cb, data);
	else if ((ret = load_rows(s, sql_load_messages,
				  ONLIST_THREAD_ROW_MESSAGE, message_cols, cb,
				  data)) == ONLIST_OK &&
		 (ret = load_rows(s, sql_load_info, ONLIST_THREAD_ROW_INFO,
				  info_cols, cb, data)) == ONLIST_OK)
		ret = load_rows(s, sql_load_authors, ONLIST_THREAD_ROW_AUTHOR,
				author_cols, cb, data);
	/* The pages just read are not read again: the cache (16 MB) is
	 * given back while the caller builds on what it loaded. */
	sqlite3_db_release_memory(s->db);
	return ret;
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

/* A whole build writes its rows BATCH at a time, one statement each:
 * the cost of a statement's run (reset, bindings cleared, the program
 * started) once for 32 rows, not for each of 2,000,000 (1,000,000
 * messages: 2.75 s CPU -> 1.5 s); what does not fill a batch goes a row
 * at a time. */
#define BATCH 32
#define ROWS2(r) r "," r
#define ROWS32(r) ROWS2(ROWS2(ROWS2(ROWS2(ROWS2(r)))))
static const char sql_put_thread_many[] =
	"INSERT INTO thread(msgid, parent, root, depth, answers) VALUES"
	ROWS32("(?,?,?,?,?)");
static const char sql_put_series_many[] =
	"INSERT INTO series(msgid, series, topic) VALUES" ROWS32("(?,?,?)");
static const char sql_put_reply_many[] =
	"INSERT OR IGNORE INTO replies(patch, reply, by_author) VALUES"
	ROWS32("(?,?,?)");

/* Rows waiting for their statement: cols[] says each column's type
 * ('t' text, NULL for none; 'i' int), val[] the rows' values. */
struct batch {
	const char *one, *many, *what, *cols;
	int ncols, n;
	long changes;		/* rows written */
	struct {
		const char *t;
		int i;
	} val[BATCH * 5];
};
#define BATCH_INIT(one, many, what, cols) \
	{ one, many, what, cols, (int)sizeof(cols) - 1, 0, 0, { { NULL, 0 } } }

static onlist_status batch_flush(struct onlist_store *s, struct batch *b)
{
	int per = b->n == BATCH ? BATCH : 1;

	for (int r = 0; r < b->n; r += per) {
		sqlite3_stmt *st = prepare(s, per == BATCH ? b->many : b->one);

		if (!st)
			return fail(s, "prepare");
		for (int k = 0; k < per * b->ncols; k++) {
			int col = k % b->ncols;

			if (b->cols[col] == 'i')
				sqlite3_bind_int(st, k + 1, b->val[r * b->ncols + k].i);
			else
				onlist__bind_text(st, k + 1, b->val[r * b->ncols + k].t);
		}
		if (sqlite3_step(st) != SQLITE_DONE)
			return fail(s, b->what);
		b->changes += sqlite3_changes(s->db);
	}
	b->n = 0;
	return ONLIST_OK;
}

/* Add a row: its values in the order of b->cols, text as const char *,
 * ints as int; written when the batch is full. */
static onlist_status batch_add(struct onlist_store *s, struct batch *b, ...)
{
	va_list ap;
	int base = b->n * b->ncols;

	va_start(ap, b);
	for (int k = 0; k < b->ncols; k++) {
		if (b->cols[k] == 'i')
			b->val[base + k].i = va_arg(ap, int);
		else
			b->val[base + k].t = va_arg(ap, const char *);
	}
	va_end(ap);
	return ++b->n == BATCH ? batch_flush(s, b) : ONLIST_OK;
}

/* thread_pending (store_schema.c): all of it after a whole build, the
 * rows of the messages built again after a partial one */
static const char sql_clear_pending[] = "DELETE FROM thread_pending";
static const char sql_clear_pending_part[] =
	"DELETE FROM thread_pending WHERE msgid IN (SELECT msgid FROM temp.aff)";
static const char sql_put_pending[] =
	"INSERT OR IGNORE INTO thread_pending(ref, msgid) VALUES(?1,?2)";

onlist_status onlist_store_thread_pending(struct onlist_store *s,
					  const struct onlist_thread_msg *v,
					  const struct onlist_threads *t,
					  int part)
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

/* The replies by patch, then reply (both by Message-ID): the order of
 * the table's primary key.  data is the rank of each message in the
 * order of the ids (distinct: messages.msgid is unique): two integers
 * compared, not two ids far apart in memory (688,000 replies: 0.6 s
 * CPU -> 0.1 s). */
static gint by_reply_key(gconstpointer a, gconstpointer b, gpointer data)
{
	const int *rank = data;
	const struct onlist_thread_reply *x = a, *y = b;
	int p = rank[x->patch], q = rank[y->patch];

	if (p == q) {
		p = rank[x->reply];
		q = rank[y->reply];
	}
	return (p > q) - (p < q);
}

static const char sql_set_thread[] =
	"INSERT OR REPLACE INTO thread(msgid, parent, root, depth, answers)"
	" VALUES(?1,?2,?3,?4,?5)";
static const char sql_set_series[] =
	"INSERT OR REPLACE INTO series(msgid, series, topic) VALUES(?1,?2,?3)";
static const char sql_del_series[] = "DELETE FROM series WHERE msgid = ?1";
static const char sql_del_thread[] = "DELETE FROM thread WHERE msgid = ?1";
static const char sql_set_reply[] =
	"INSERT OR REPLACE INTO replies(patch, reply, by_author)"
	" VALUES(?1,?2,?3)";
static const char sql_del_reply[] =
	"DELETE FROM replies WHERE patch = ?1 AND reply = ?2";
static const char sql_all_thread[] =
	"SELECT msgid, parent, root, depth, answers FROM thread ORDER BY msgid";
static const char sql_all_series[] =
	"SELECT msgid, series, topic FROM series ORDER BY msgid";
static const char sql_all_replies[] =
	"SELECT patch, reply, by_author FROM replies ORDER BY patch, reply";

/* A whole build over tables that hold rows already (`match` after the
 * stamps went, or a table of other rules): the stored rows are read in
 * the order of their keys beside the result in the same order, and only
 * those that differ are written.  A build that changes few rows then
 * costs a read of the tables, not their clearing, every row written
 * again and five indexes sorted again (1,000,000 messages, none
 * changed: the build 12.6 s CPU -> 5.4 s).  Past max changes the tables
 * are written whole after all. */
struct changes {
	GArray *thread, *series;	/* v's messages whose row is written */
	GArray *replies;		/* t->replies written */
	GPtrArray *gone;		/* thread, series ids; reply pairs */
	size_t nthread_gone, nseries_gone, n, max;
};

static int note(struct changes *ch, GArray *a, int i)
{
	g_array_append_val(a, i);
	return ++ch->n <= ch->max;
}

static int note_gone(struct changes *ch, const char *id, size_t *count)
{
	g_ptr_array_add(ch->gone, g_strdup(id));
	(*count)++;
	return ++ch->n <= ch->max;
}

static const char *col(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* Column i holds plain text: no NULL, no blob or number, no NUL byte
 * (which strcmp() would not see).  A key that is not is no row the build
 * writes: the tables are written whole (changed_rows(), _replies()). */
static int clean_text(sqlite3_stmt *st, int i)
{
	const char *t;

	if (sqlite3_column_type(st, i) != SQLITE_TEXT ||
	    !(t = col(st, i)))
		return 0;
	return (size_t)sqlite3_column_bytes(st, i) == strlen(t);
}

/* Column i is what the build writes, now (NULL for NULL): of the same
 * type too, so that a number, a blob or a text with a NUL byte stored by
 * hand is written again, as a build into empty tables would. */
static int same(sqlite3_stmt *st, int i, const char *now)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return !now;
	return now && clean_text(st, i) && !strcmp(col(st, i), now);
}

static int same_int(sqlite3_stmt *st, int i, int now)
{
	return sqlite3_column_type(st, i) == SQLITE_INTEGER &&
	       sqlite3_column_int64(st, i) == now;
}

/* What a read of the stored rows that stopped at rc returns: ok, or 0
 * with *ret set when SQLite failed. */
static int read_end(struct onlist_store *s, sqlite3_stmt *st, int rc, int ok,
		    const char *what, onlist_status *ret)
{
	sqlite3_reset(st);
	if (ok && rc != SQLITE_DONE) {
		*ret = fail(s, what);
		return 0;
	}
	return ok;
}

/* The thread rows (all), then the series rows (series) that differ
 * from v's in the order of order[]; 0 past ch->max changes. */
static int changed_rows(struct onlist_store *s, const struct onlist_thread_msg *v,
			size_t n, const int *order, int series,
			struct changes *ch, onlist_status *ret)
{
	sqlite3_stmt *st = prepare(s, series ? sql_all_series : sql_all_thread);
	GArray *a = series ? ch->series : ch->thread;
	size_t *gone = series ? &ch->nseries_gone : &ch->nthread_gone;
	size_t oi = 0;
	int rc, ok = 1;

	if (!st) {
		*ret = fail(s, "prepare");
		return 0;
	}
	while (ok && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *id;
		const struct onlist_thread_msg *x = NULL;
		int cmp = -1;

		/* the type first: reading it as text would convert it */
		if (!clean_text(st, 0)) {
			ok = 0;		/* written whole */
			break;
		}
		id = col(st, 0);

		/* the result's rows before this one are not stored */
		for (; oi < n; oi++) {
			x = &v[order[oi]];
			if (series && x->series < 0)
				continue;
			if ((cmp = strcmp(x->msgid, id)) >= 0)
				break;
			if (!(ok = note(ch, a, order[oi])))
				break;
		}
		if (!ok)
			break;
		if (oi == n || cmp > 0) {	/* not in the result */
			ok = note_gone(ch, id, gone);
			continue;
		}
		if (series ? !same(st, 1, v[x->series].msgid) ||
			     !same(st, 2, x->topic) :
			     !same(st, 1, x->parent >= 0 ?
				   v[x->parent].msgid : NULL) ||
			     !same(st, 2, v[x->root].msgid) ||
			     !same_int(st, 3, x->depth) ||
			     !same(st, 4, x->answers >= 0 ?
				   v[x->answers].msgid : NULL))
			ok = note(ch, a, order[oi]);
		oi++;
	}
	for (; ok && oi < n; oi++)
		if (!series || v[order[oi]].series >= 0)
			ok = note(ch, a, order[oi]);
	return read_end(s, st, rc, ok, "read threads", ret);
}

/* The same of the replies, t's in the table's order; *distinct the
 * pairs of the result. */
static int changed_replies(struct onlist_store *s,
			   const struct onlist_thread_msg *v,
			   const struct onlist_threads *t, struct changes *ch,
			   long *distinct, onlist_status *ret)
{
	sqlite3_stmt *st = prepare(s, sql_all_replies);
	const struct onlist_thread_reply *r = t->replies, *prev = NULL;
	size_t i = 0, end = t->nreplies;
	int rc, ok = 1;

	if (!st) {
		*ret = fail(s, "prepare");
		return 0;
	}
	*distinct = 0;
	while (ok && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *patch, *reply;
		int cmp = -1;

		if (!clean_text(st, 0) || !clean_text(st, 1)) {
			ok = 0;		/* written whole */
			break;
		}
		patch = col(st, 0);
		reply = col(st, 1);

		for (; i < end; i++) {
			/* each pair once, the first of equal ones (as INSERT
			 * OR IGNORE keeps it) */
			if (prev && prev->patch == r[i].patch &&
			    prev->reply == r[i].reply)
				continue;
			if (!(cmp = strcmp(v[r[i].patch].msgid, patch)))
				cmp = strcmp(v[r[i].reply].msgid, reply);
			if (cmp >= 0)
				break;
			prev = &r[i];
			++*distinct;
			if (!(ok = note(ch, ch->replies, (int)i)))
				break;
		}
		if (!ok)
			break;
		if (i == end || cmp > 0) {
			g_ptr_array_add(ch->gone, g_strdup(patch));
			g_ptr_array_add(ch->gone, g_strdup(reply));
			ok = ++ch->n <= ch->max;
			continue;
		}
		if (!same_int(st, 2, r[i].by_author))
			ok = note(ch, ch->replies, (int)i);
		prev = &r[i++];
		++*distinct;
	}
	for (; ok && i < end; i++) {
		if (prev && prev->patch == r[i].patch && prev->reply == r[i].reply)
			continue;
		prev = &r[i];
		++*distinct;
		ok = note(ch, ch->replies, (int)i);
	}
	return read_end(s, st, rc, ok, "read replies", ret);
}

static onlist_status write_changes(struct onlist_store *s,
				   const struct onlist_thread_msg *v,
				   const struct onlist_threads *t,
				   const struct changes *ch)
{
	onlist_status ret = ONLIST_OK;
	size_t g = 0;

	for (size_t k = 0; k < ch->nthread_gone && ret == ONLIST_OK; k++)
		ret = step(s, prepare(s, sql_del_thread), "update thread", "t",
			   g_ptr_array_index(ch->gone, g++));
	for (size_t k = 0; k < ch->nseries_gone && ret == ONLIST_OK; k++)
		ret = step(s, prepare(s, sql_del_series), "update series", "t",
			   g_ptr_array_index(ch->gone, g++));
	for (; g + 1 < ch->gone->len && ret == ONLIST_OK; g += 2)
		ret = step(s, prepare(s, sql_del_reply), "update replies", "tt",
			   g_ptr_array_index(ch->gone, g),
			   g_ptr_array_index(ch->gone, g + 1));
	for (guint k = 0; k < ch->thread->len && ret == ONLIST_OK; k++) {
		const struct onlist_thread_msg *x =
			&v[g_array_index(ch->thread, int, k)];

		ret = step(s, prepare(s, sql_set_thread), "update thread",
			   "tttit", x->msgid,
			   x->parent >= 0 ? v[x->parent].msgid : NULL,
			   v[x->root].msgid, x->depth,
			   x->answers >= 0 ? v[x->answers].msgid : NULL);
	}
	for (guint k = 0; k < ch->series->len && ret == ONLIST_OK; k++) {
		const struct onlist_thread_msg *x =
			&v[g_array_index(ch->series, int, k)];

		ret = step(s, prepare(s, sql_set_series), "update series",
			   "ttt", x->msgid, v[x->series].msgid, x->topic);
	}
	for (guint k = 0; k < ch->replies->len && ret == ONLIST_OK; k++) {
		const struct onlist_thread_reply *r =
			&t->replies[g_array_index(ch->replies, int, k)];

		ret = step(s, prepare(s, sql_set_reply), "update replies",
			   "tti", v[r->patch].msgid, v[r->reply].msgid,
			   r->by_author);
	}
	return ret;
}

/* Write what differs when it is at most an eighth of the rows (*done
 * 1); else nothing (*done 0). */
static onlist_status write_changed(struct onlist_store *s,
				   const struct onlist_thread_msg *v, size_t n,
				   const struct onlist_threads *t,
				   const int *order,
				   struct onlist_thread_counts *c, int *done)
{
	struct changes ch = { 0 };
	onlist_status ret = ONLIST_OK;
	long distinct = 0;

	*done = 0;
	ch.thread = g_array_new(FALSE, FALSE, sizeof(int));
	ch.series = g_array_new(FALSE, FALSE, sizeof(int));
	ch.replies = g_array_new(FALSE, FALSE, sizeof(int));
	ch.gone = g_ptr_array_new_with_free_func(g_free);
	ch.max = n / 8;
	if (changed_rows(s, v, n, order, 0, &ch, &ret) &&
	    changed_rows(s, v, n, order, 1, &ch, &ret) &&
	    changed_replies(s, v, t, &ch, &distinct, &ret) &&
	    (ret = write_changes(s, v, t, &ch)) == ONLIST_OK) {
		*done = 1;
		c->messages += (long)n;
		c->replies += distinct;
		c->written = (long)ch.thread->len;
	}
	g_array_free(ch.thread, TRUE);
	g_array_free(ch.series, TRUE);
	g_array_free(ch.replies, TRUE);
	g_ptr_array_free(ch.gone, TRUE);
	return ret;
}

onlist_status onlist_store_thread_write_all(struct onlist_store *s,
					    const struct onlist_thread_msg *v,
					    size_t n, const int *order,
					    const struct onlist_threads *t,
					    struct onlist_thread_counts *c)
{
	onlist_status ret = ONLIST_OK;
	int *rank;
	struct batch *th = g_new(struct batch, 3), *se = th + 1, *re = th + 2;

	*th = (struct batch)BATCH_INIT(sql_put_thread, sql_put_thread_many,
				       "insert thread", "tttit");
	*se = (struct batch)BATCH_INIT(sql_put_series, sql_put_series_many,
				       "insert series", "ttt");
	*re = (struct batch)BATCH_INIT(sql_put_reply, sql_put_reply_many,
				       "insert reply", "tti");

	/* the replies in the order of the table's key, as the rows of the
	 * other two go in order's (appends, not page splits all over):
	 * they come by reply, each patch's all over the table (688,000 of
	 * them took 1.6 s CPU where in order 0.3 s, and the table outgrows
	 * the cache) */
	rank = g_new(int, n ? n : 1);
	for (size_t oi = 0; oi < n; oi++)
		rank[order[oi]] = (int)oi;
	g_qsort_with_data(t->replies, (gint)t->nreplies, sizeof(*t->replies),
			  by_reply_key, rank);
	if (onlist_store_thread_has(s)) {
		int done;

		if ((ret = write_changed(s, v, n, t, order, c, &done))
		    != ONLIST_OK || done)
			goto counts;
	}
	if (sqlite3_exec(s->db, onlist__thread_index_drop, NULL, NULL, NULL)
	    != SQLITE_OK ||
	    sqlite3_exec(s->db, sql_clear, NULL, NULL, NULL) != SQLITE_OK) {
		ret = fail(s, "clear threads");
		goto out;
	}
	for (size_t oi = 0; oi < n; oi++) {
		const struct onlist_thread_msg *x = &v[order[oi]];

		if ((ret = batch_add(s, th, x->msgid,
				     x->parent >= 0 ? v[x->parent].msgid : NULL,
				     v[x->root].msgid, x->depth,
				     x->answers >= 0 ? v[x->answers].msgid : NULL))
		    != ONLIST_OK)
			goto out;
		c->messages++;
		if (x->series >= 0 &&
		    (ret = batch_add(s, se, x->msgid, v[x->series].msgid,
				     x->topic)) != ONLIST_OK)
			goto out;
	}
	if ((ret = batch_flush(s, th)) != ONLIST_OK ||
	    (ret = batch_flush(s, se)) != ONLIST_OK)
		goto out;
	for (size_t i = 0; i < t->nreplies; i++) {
		const struct onlist_thread_reply *r = &t->replies[i];

		if ((ret = batch_add(s, re, v[r->patch].msgid, v[r->reply].msgid,
				     r->by_author)) != ONLIST_OK)
			goto out;
	}
	if ((ret = batch_flush(s, re)) != ONLIST_OK)
		goto out;
	c->replies += re->changes;
	c->written = (long)n;
counts:
	if (ret != ONLIST_OK)
		goto out;
	c->threads = t->threads;
	c->series = t->series;
	c->topics = t->topics;
	ret = onlist_store_set_meta(s, "review_dirty", "*");
out:
	g_free(rank);
	g_free(th);
	return ret;
}

onlist_status onlist_store_thread_index(struct onlist_store *s)
{
	if (sqlite3_exec(s->db, onlist__thread_index_create, NULL, NULL, NULL)
	    != SQLITE_OK)
		return fail(s, "index threads");
	return ONLIST_OK;
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
static const char sql_del_replies[] = "DELETE FROM replies WHERE reply = ?1";
static const char sql_del_patch[] = "DELETE FROM replies WHERE patch = ?1";
static const char sql_count_replies[] = "SELECT count(*) FROM replies";
static const char sql_has_threads[] = "SELECT 1 FROM thread LIMIT 1";

int onlist_store_thread_has(struct onlist_store *s)
{
	sqlite3_stmt *st = prepare(s, sql_has_threads);
	int yes = st && sqlite3_step(st) == SQLITE_ROW;

	if (st)
		sqlite3_reset(st);
	return yes;
}

onlist_status onlist_store_thread_old(struct onlist_store *s, int part,
				      onlist_store_thread_old_cb cb, void *data)
{
	sqlite3_stmt *st = prepare(s, part ? sql_old_thread_part : sql_old_thread);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_thread_old r;

		r.msgid = (const char *)sqlite3_column_text(st, 0);
		r.parent = (const char *)sqlite3_column_text(st, 1);
		r.root = (const char *)sqlite3_column_text(st, 2);
		r.depth = sqlite3_column_int(st, 3);
		r.answers = (const char *)sqlite3_column_text(st, 4);
		cb(&r, data);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "read threads");
}

onlist_status onlist_store_thread_series_old(struct onlist_store *s, int part,
				      onlist_store_series_old_cb cb, void *data)
{
	sqlite3_stmt *st = prepare(s, part ? sql_old_series_part : sql_old_series);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_store_thread_series_old r;

		r.msgid = (const char *)sqlite3_column_text(st, 0);
		r.series = (const char *)sqlite3_column_text(st, 1);
		r.topic = (const char *)sqlite3_column_text(st, 2);
		cb(&r, data);
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "read series");
}

onlist_status onlist_store_thread_set(struct onlist_store *s,
				      const char *msgid, const char *parent,
				      const char *root, int depth,
				      const char *answers)
{
	return step(s, prepare(s, sql_set_thread), "update thread", "tttit",
		    msgid, parent, root, depth, answers);
}

onlist_status onlist_store_thread_series_set(struct onlist_store *s,
				      const char *msgid, const char *series,
				      const char *topic)
{
	if (series)
		return step(s, prepare(s, sql_set_series), "update series",
			    "ttt", msgid, series, topic);
	return step(s, prepare(s, sql_del_series), "update series", "t", msgid);
}

onlist_status onlist_store_thread_replies_unset(struct onlist_store *s,
					 const char *reply)
{
	return step(s, prepare(s, sql_del_replies), "update replies", "t",
		    reply);
}

onlist_status onlist_store_thread_forget(struct onlist_store *s,
					 const char *msgid)
{
	onlist_status ret;

	if ((ret = step(s, prepare(s, sql_del_thread), "update thread",
			"t", msgid)) == ONLIST_OK &&
	    (ret = step(s, prepare(s, sql_del_series), "update series",
			"t", msgid)) == ONLIST_OK &&
	    (ret = step(s, prepare(s, sql_del_patch), "update replies",
			"t", msgid)) == ONLIST_OK)
		ret = step(s, prepare(s, sql_del_replies),
			   "update replies", "t", msgid);
	return ret;
}

onlist_status onlist_store_thread_reply_put(struct onlist_store *s,
				     const char *patch, const char *reply,
				     int by_author)
{
	return step(s, prepare(s, sql_put_reply), "insert reply", "tti", patch,
		    reply, by_author);
}

onlist_status onlist_store_thread_replies_count(struct onlist_store *s, long *n)
{
	sqlite3_stmt *st = prepare(s, sql_count_replies);

	if (!st)
		return fail(s, "prepare");
	if (sqlite3_step(st) == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return ONLIST_OK;
}

/* What the derived tables were built from: the messages, their classes
 * and in-body authors only ever grow (thread_update.c makes the stamp). */
static const char sql_stamp[] =
	"SELECT" ONLIST__ROWS("messages") ", (SELECT coalesce(max(id), 0)"
	" FROM messages)," ONLIST__ROWS("message_info") ","
	ONLIST__ROWS("message_author");
static const char sql_counts[] =
	"SELECT (SELECT count(*) FROM thread),"
	" (SELECT count(*) FROM thread WHERE parent IS NULL),"
	" (SELECT count(*) FROM replies),"
	" (SELECT count(*) FROM series WHERE series = msgid),"
	" (SELECT count(DISTINCT topic) FROM series)";

onlist_status onlist_store_thread_stamp(struct onlist_store *s,
				       struct onlist_thread_stamp *out)
{
	int64_t v[4];

	if (!onlist__store_int64s(s, sql_stamp, -1, v, 4))
		return fail(s, "read the thread stamp");
	out->count = v[0];
	out->maxid = v[1];
	out->info = v[2];
	out->authors = v[3];
	return ONLIST_OK;
}

/* The same after a stamp was, when every message had its class then: a
 * new message takes an id past the highest, and a class is written only
 * with its message, so the classes since are those of the ids past
 * was->maxid, unless messages went (removed by hand: their count, a
 * small index, says so, and the caller counts all).  message_info is the
 * table whose count costs (2.5 s at 5,000,000); in-body authors, which
 * may arrive for old messages (imported again), are counted whole (a
 * small table). */
static const char sql_stamp_since[] =
	"SELECT" ONLIST__ROWS("messages") ", (SELECT coalesce(max(id), 0)"
	" FROM messages),"
	" (SELECT count(*) FROM messages WHERE id > ?1),"
	" (SELECT count(*) FROM messages m JOIN message_info i"
	"  ON i.msgid = m.msgid WHERE m.id > ?1),"
	ONLIST__ROWS("message_author");

onlist_status onlist_store_thread_stamp_since(struct onlist_store *s,
					const struct onlist_thread_stamp *was,
					struct onlist_thread_stamp *out)
{
	int64_t v[5];

	if (!onlist__store_int64s(s, sql_stamp_since, was->maxid, v, 5))
		return fail(s, "read the thread stamp");
	if (v[0] != was->count + v[2])
		return onlist_store_thread_stamp(s, out);
	out->count = v[0];
	out->maxid = v[1];
	out->info = was->info + v[3];
	out->authors = v[4];
	return ONLIST_OK;
}

/* c's five counts, from the five columns of sql (bound to arg) */
static onlist_status counts_of(struct onlist_store *s, const char *sql,
			       int64_t arg, struct onlist_thread_counts *c)
{
	int64_t v[5];

	if (!onlist__store_int64s(s, sql, arg, v, 5))
		return fail(s, "count threads");
	c->messages = (long)v[0];
	c->threads = (long)v[1];
	c->replies = (long)v[2];
	c->series = (long)v[3];
	c->topics = (long)v[4];
	return ONLIST_OK;
}

onlist_status onlist_store_thread_counts(struct onlist_store *s,
					 struct onlist_thread_counts *c)
{
	return counts_of(s, sql_counts, -1, c);
}

/* The same counts of the rows of the part (temp.aff) alone, before its
 * rows are written (after 0) and after (1), for thread_update.c to add
 * the difference to the last build's counts: every row a part's build
 * writes or deletes is of a message of the part (thread, series), or
 * names one (replies).  A topic counts once however many rows name it:
 * before, the part's topics are kept (temp.part_topics); after, those
 * with no row left are gone, and a topic only the part names now is new.
 * The part's thread rows and roots come from one walk: two walks read
 * each row twice, the second after the 16 MB cache had let most go (5M x
 * 1M, 4,090 messages: 4,000 page reads of the 18,600 the two counts
 * made). */
static const char sql_part_counts[] =
	"SELECT t.n, t.roots,"
	" (SELECT count(*) FROM (SELECT r.patch, r.reply FROM temp.aff a"
	"  CROSS JOIN replies r ON r.reply = a.msgid UNION SELECT r.patch,"
	"  r.reply FROM temp.aff a CROSS JOIN replies r ON r.patch = a.msgid)),"
	" (SELECT count(*) FROM temp.aff a CROSS JOIN series s"
	"  ON s.msgid = a.msgid WHERE s.series = s.msgid),"
	" CASE WHEN ?1 THEN"
	"  (SELECT count(DISTINCT s.topic) FROM temp.aff a CROSS JOIN series s"
	"   ON s.msgid = a.msgid WHERE s.topic NOT IN temp.part_topics"
	"   AND NOT EXISTS (SELECT 1 FROM series o WHERE o.topic = s.topic"
	"    AND o.msgid NOT IN (SELECT msgid FROM temp.aff)))"
	"  - (SELECT count(*) FROM temp.part_topics p WHERE NOT EXISTS"
	"   (SELECT 1 FROM series s WHERE s.topic = p.topic))"
	" ELSE 0 END"
	" FROM (SELECT count(*) AS n, coalesce(sum(t.parent IS NULL), 0) AS roots"
	" FROM temp.aff a CROSS JOIN thread t ON t.msgid = a.msgid) t";
static const char sql_part_topics[] =
	"CREATE TEMP TABLE IF NOT EXISTS part_topics(topic TEXT PRIMARY KEY)"
	" WITHOUT ROWID; DELETE FROM temp.part_topics;"
	"INSERT OR IGNORE INTO temp.part_topics SELECT s.topic FROM temp.aff a"
	" CROSS JOIN series s ON s.msgid = a.msgid;";

onlist_status onlist_store_thread_part_counts(struct onlist_store *s,
					      int after,
					      struct onlist_thread_counts *c)
{
	if (!after &&
	    sqlite3_exec(s->db, sql_part_topics, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "keep the part's topics");
	return counts_of(s, sql_part_counts, after, c);
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

onlist_status onlist_store_thread_new(struct onlist_store *s, int64_t maxid,
				     long long *msgs, long long *info,
				     long long *authors)
{
	onlist_status ret;

	if ((ret = count_of(s, "SELECT count(*) FROM messages WHERE id > ?1",
			    maxid, msgs)) == ONLIST_OK &&
	    (ret = count_of(s, sql_new_info, maxid, info)) == ONLIST_OK)
		ret = count_of(s, sql_new_authors, maxid, authors);
	return ret;
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

onlist_status onlist_store_thread_aff_start(struct onlist_store *s,
					    int64_t maxid)
{
	sqlite3_stmt *st;
	onlist_status ret;
	int rc;

	if (sqlite3_exec(s->db, sql_aff_create, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "create a temporary table");
	if ((ret = step(s, prepare(s, sql_aff_new), "find new mail", "I",
			maxid)) != ONLIST_OK)
		return ret;
	if (!(st = prepare(s, sql_new_refs)))
		return fail(s, "prepare");
	sqlite3_bind_int64(st, 1, maxid);
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
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "read new mail");
}

onlist_status onlist_store_thread_aff_round(struct onlist_store *s,
					    int round, long *added,
					    long long *n)
{
	onlist_status ret;

	*added = 0;
	for (size_t k = 0; k < G_N_ELEMENTS(sql_aff_links); k++) {
		if ((ret = step(s, prepare(s, sql_aff_links[k]),
				"find linked mail", "i", round)) != ONLIST_OK)
			return ret;
		*added += sqlite3_changes(s->db);
	}
	return count_of(s, "SELECT count(*) FROM temp.aff WHERE ?1", 1, n);
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

/* The columns of sql_thread, named once. */
struct thread_rows {
	onlist_thread_row_cb cb;
	void *data;
};

static int thread_row(int ncol, const char *const *c, void *data)
{
	const struct thread_rows *t = data;
	struct onlist_thread_row r = {
		.msgid = c[0], .parent = c[1],
		.depth = c[2] ? atoi(c[2]) : 0,
		.date = c[3] ? atoll(c[3]) : 0,
		.from_name = c[4], .from_addr = c[5], .subject = c[6],
		.cls = c[7],
	};

	(void)ncol;
	return t->cb(&r, t->data);
}

onlist_status onlist_store_thread(struct onlist_store *s, const char *msgid,
				  onlist_thread_row_cb cb, void *data)
{
	struct thread_rows t = { cb, data };
	long n;
	onlist_status st = rows(s, sql_thread, &msgid, 1, thread_row, &t, &n);

	return st == ONLIST_OK && !n ? ONLIST_ENOTFOUND : st;
}

static const char sql_msg_trailers[] =
	"SELECT key, name, addr, value FROM message_trailers WHERE msgid = ?1"
	" ORDER BY seq";

struct trailer_rows {
	onlist_msg_trailer_cb cb;
	void *data;
};

static int trailer_row(int ncol, const char *const *c, void *data)
{
	const struct trailer_rows *t = data;
	struct onlist_msg_trailer r = {
		.key = c[0], .name = c[1], .addr = c[2], .value = c[3],
	};

	(void)ncol;
	return t->cb(&r, t->data);
}

onlist_status onlist_store_thread_message_trailers(struct onlist_store *s,
					    const char *msgid,
					    onlist_msg_trailer_cb cb,
					    void *data)
{
	struct trailer_rows t = { cb, data };

	return rows(s, sql_msg_trailers, &msgid, 1, trailer_row, &t, NULL);
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

onlist_status onlist_store_thread_posting_detail(struct onlist_store *s,
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

struct review_rows {
	onlist_review_given_cb cb;
	void *data;
};

static int review_row(int ncol, const char *const *c, void *data)
{
	const struct review_rows *t = data;
	struct onlist_review_given r = {
		.key = c[0], .name = c[1], .addr = c[2], .reply = c[3],
		.replier_name = c[4], .replier_addr = c[5], .date = c[6],
	};

	(void)ncol;
	return t->cb(&r, t->data);
}

onlist_status onlist_store_thread_reviews(struct onlist_store *s, const char *msgid,
				   onlist_review_given_cb cb, void *data)
{
	struct review_rows t = { cb, data };

	return rows(s, sql_reviews, &msgid, 1, review_row, &t, NULL);
}
