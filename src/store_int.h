/* store_int.h - what the store_*.c files share behind store.h.
 *
 * Only src/store*.c include this: they are the files that speak SQL.
 * Every table is created in store_schema.c (a new one is a new schema
 * version there); each file keeps its statements in static strings
 * prepared through onlist__store_prepare().
 */
#ifndef ONLIST_STORE_INT_H
#define ONLIST_STORE_INT_H

#include <sqlite3.h>
#include "onlist/vocab.h"
#include "onlist/store.h"

/* The row callback of onlist__store_rows(): ncol columns as text, NULL
 * for SQL NULL, valid during the call; non-zero stops.  Private to the
 * store: each reader names the columns into a struct of its header
 * before a row leaves the store. */
typedef int (*onlist_row_cb)(int ncol, const char *const *cols, void *data);

#define ONLIST__STORE_NSTMT 32	/* store.c's own prepared statements */

struct onlist__cached_stmt {
	const char *sql;	/* a static string: compared by address */
	sqlite3_stmt *st;
	struct onlist__cached_stmt *next;
};

struct onlist_store {
	sqlite3 *db;
	sqlite3_stmt *stmt[ONLIST__STORE_NSTMT];
	struct onlist__cached_stmt *cache;
	char *errmsg;
	char *path;		/* as opened, for messages */
	char *notice;		/* onlist_store_notice(), or NULL */
	int writer;		/* opened for writing: checkpoint at close */
	int in_tx;
	int read_tx;		/* onlist_store_begin_read()'s, ended at close */
	int fuzzy_walk;		/* a whole fuzzy walk is under way: its mails
				 * are in temp.fz_mail (store_fuzzy.c) */
	/* onlist_store_trace() */
	void (*trace)(void *data, double seconds, const char *sql);
	void *trace_data;
	/* store_report.c: the commits of the last merges a series-gap
	 * search read (freed by onlist__store_report_release) */
	struct onlist__gap_cache *gap;
};

/* Set the handle's error message to "what: <sqlite's message>" and return
 * ONLIST_EDB. */
onlist_status onlist__store_fail(struct onlist_store *s, const char *what);
/* Bind v (NULL binds SQL NULL); the string must outlive the step. */
void onlist__bind_text(sqlite3_stmt *st, int i, const char *v);
/* Bind the arguments after `types` to ?1, ?2, ... of st, one a letter:
 *   't'  const char *: text, NULL binds SQL NULL (must outlive the step)
 *   'i'  int
 *   'I'  int64_t
 *   'd'  double (0.0 for SQL NULL)
 *   'D'  int64_t, a date: 0 (unknown) binds SQL NULL
 *   'f'  double
 *   'u'  const uint32_t *, size_t: a blob of that many (0: an empty blob,
 *        not NULL; must outlive the step)
 * The same list for every statement, so that a column's type is said
 * once, in the call, next to its value. */
void onlist__store_bind(sqlite3_stmt *st, const char *types, ...);
/* A statement that returns no rows (INSERT, UPDATE, DELETE): bind as
 * onlist__store_bind(), run it once.  ONLIST_OK; or ONLIST_EDB with the
 * handle's message "what: <sqlite's>" (for a NULL st, one that could not
 * be prepared: "prepare: ..."). */
onlist_status onlist__store_step(struct onlist_store *s, sqlite3_stmt *st,
				 const char *what, const char *types, ...);

/* Where onlist__store_columns() puts a column of a result row: into the
 * field at `offset` of the caller's struct, as `type` says:
 *   't'  const char *: the text, NULL for SQL NULL
 *   'e'  const char *: the same, but "" for SQL NULL
 *   'i'  int
 *   'I'  int64_t
 *   'd'  double (0.0 for SQL NULL)
 * The strings are sqlite's, valid until the next step or reset. */
struct onlist__column {
	char type;
	size_t offset;
};
/* Column i of st's current row into out, as cols[i] says; cols ends with
 * an entry of type 0. */
void onlist__store_columns(sqlite3_stmt *st, void *out,
			   const struct onlist__column *cols);
/* The statement for `sql` (a static string), prepared once per handle and
 * reset with its bindings cleared; NULL on error (message set). */
sqlite3_stmt *onlist__store_prepare(struct onlist_store *s, const char *sql);

/* The integer columns of sql's first row (arg, unless negative, bound to
 * ?1) into out[0..n-1]; a column past the row's last is 0.  1 when there
 * was a row, else 0 (a failed prepare sets the handle's message). */
int onlist__store_int64s(struct onlist_store *s, const char *sql,
			 int64_t arg, int64_t *out, int n);

/* SQL pieces the tiers' files (store_match.c, store_fuzzy.c) share. */
/* A commit's author address for the tiers that key on it: the writer
 * behind a list's DMARC rewrite when known (temp.via_author), lower case. */
#define AUTHOR_EMAIL(c) \
	" coalesce((SELECT v.email FROM temp.via_author v WHERE v.sha = " c ".sha)," \
	" lower(" c ".author_email))"
#define NOT_ECHO(m) " NOT EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = " m ")"
#define UNMATCHED(c) " NOT EXISTS (SELECT 1 FROM matches x WHERE x.commit_sha = " c ")"
/* When a mail was sent, as the tiers take it: a mail in temp.arrived is
 * bounded by when an archive received it, else its Date. */
#define SENT(m) " coalesce((SELECT a.t FROM temp.arrived a WHERE a.msgid = " \
	m ".msgid), " m ".date)"

/* How many rows table t (a literal) has: kept by triggers in row_counts
 * for the tables whose counts the stamps of match take (store_schema.c
 * step 23), counted if its row is missing. */
#define ONLIST__ROWS(t) \
	" coalesce((SELECT n FROM row_counts WHERE name = '" t "')," \
	" (SELECT count(*) FROM " t "))"

/* Which matches are postings of their commit: the one definition is the
 * method table of vocab.h, which onlist_method_is_posting() reads too. */
#define ONLIST__POSTED(col) ONLIST_SQL_POSTED(col)

/* A message that answers (thread.h): a reply, or a "Re:" that carries a
 * diff (a reviewer's "how about this instead"), besides being a patch;
 * not a cover letter found by structure (a reply or other mail that heads
 * a series: thread.h). */
#define ANSWERING(i) " ((" i ".class IN ('reply', 'other') AND NOT EXISTS" \
	" (SELECT 1 FROM series sc WHERE sc.msgid = " i ".msgid)) OR" \
	" (" i ".class = 'patch' AND coalesce(" i ".reply, 0)))"

/* store_schema.c: create the schema of a new database or bring an older
 * one up to date, in one transaction.  ONLIST_EDB with the handle's
 * message set (a database made by a newer onlist is refused). */
onlist_status onlist__store_migrate(struct onlist_store *s);
/* 1: the schema is this onlist's; 0: older, an upgrade is needed; -1:
 * unreadable or newer (the handle's error says which).  Writes nothing. */
int onlist__store_schema_check(struct onlist_store *s);
/* The secondary indexes of thread, series and replies, dropped and made
 * again around a rebuild of those tables (store_schema.c). */
extern const char onlist__thread_index_drop[];
extern const char onlist__thread_index_create[];

/* The text in the first column of sql's first row (param, when not NULL,
 * bound to ?1) into *out: malloc'd, NULL when there is no row or the
 * value is SQL NULL.  ONLIST_EDB (message set, naming `what`),
 * ONLIST_ENOMEM. */
/* Free what store_report.c keeps on the handle (onlist_store_close). */
void onlist__store_report_release(struct onlist_store *s);

onlist_status onlist__store_first_text(struct onlist_store *s, const char *sql,
				       const char *param, const char *what,
				       char **out);

/* Bind params (text) to st, call row for each result row with its columns
 * as text (non-zero stops), count them in *count (may be NULL), reset st.
 * The loop behind the store_*.c readers that pass their rows as text. */
onlist_status onlist__store_rows(struct onlist_store *s, sqlite3_stmt *st,
				 const char *const *params, int nparams,
				 onlist_row_cb row, void *data, long *count);

/* Around a table's rows written anew: its secondary indexes dropped,
 * their CREATE statements (as sqlite_master keeps them) in *sql
 * (free()), and made again from them once the rows are in (an index
 * built once from sorted keys; inserted row by row, keys in no order,
 * its pages outgrow the cache and every insert reads and writes one:
 * 650,000 review links on 5,000,000 messages took 34 s).  Call with no
 * statement running; ONLIST_EDB, ONLIST_ENOMEM. */
onlist_status onlist__store_indexes_drop(struct onlist_store *s,
					 const char *table, char **sql);
onlist_status onlist__store_indexes_make(struct onlist_store *s,
					 const char *sql);

#endif
