/* store.c - the SQLite database.  The only file that speaks SQL. */
#include <stdarg.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <sqlite3.h>

#include "onlist/store.h"
#include "store_int.h"

#define fail onlist__store_fail
#define bind_text onlist__bind_text
#define step onlist__store_step

/* A second writer waits this long for the first, then gives up. */
#define BUSY_TIMEOUT_MS 10000

/* One statement per kind of write, prepared once and reused: a bulk import
 * runs them millions of times. */
enum stmt_id {
	S_PUT_MESSAGE,
	S_PUT_MESSAGE_LIST,
	S_PUT_SKIP,
	S_PUT_COMMIT,
	S_DEL_TRAILERS,
	S_PUT_TRAILER,
	S_PUT_COMMIT_SKIP,
	S_HAS_COMMIT,
	S_SET_META,
	S_GET_META,
	S_ADD_SOURCE,
	S_SET_STATE,
	S_GET_STATE,
	S_COUNT
};

static const char *const stmt_sql[S_COUNT] = {
	[S_PUT_MESSAGE] =
	"INSERT OR IGNORE INTO messages(msgid, synthetic_id, list, date,"
	" from_name, from_addr, subject, in_reply_to, refs, has_patch,"
	" patch_id, patch_source, source, offset, received, received_how,"
	" content_hash)"
	" VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17)",
	[S_PUT_MESSAGE_LIST] =
	"INSERT OR IGNORE INTO message_lists(msgid, list) VALUES(?1, ?2)",
	[S_PUT_SKIP] =
	"INSERT OR IGNORE INTO skipped(source, offset, reason) VALUES(?1,?2,?3)",
	[S_PUT_COMMIT] =
	"INSERT OR IGNORE INTO commits(sha, author_name, author_email,"
	" author_date, committer_name, committer_email, commit_date, subject,"
	" body, body_empty, files, patch_id)"
	" VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)",
	[S_DEL_TRAILERS] = "DELETE FROM trailers WHERE sha = ?1",
	[S_PUT_TRAILER] =
	"INSERT INTO trailers(sha, seq, key, value) VALUES(?1,?2,?3,?4)",
	[S_PUT_COMMIT_SKIP] =
	"INSERT OR REPLACE INTO commit_skipped(sha, reason, object)"
	" VALUES(?1,?2,?3)",
	[S_HAS_COMMIT] = "SELECT 1 FROM commits WHERE sha = ?1",
	[S_SET_META] = "INSERT INTO meta(key, value) VALUES(?1, ?2)"
		       " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
	[S_GET_META] = "SELECT value FROM meta WHERE key = ?1",
	[S_ADD_SOURCE] = "INSERT OR IGNORE INTO sources(url, list, added)"
			 " VALUES(?1, ?2, strftime('%s','now'))",
	[S_SET_STATE] = "INSERT OR REPLACE INTO source_state(url, key, value)"
			" VALUES(?1, ?2, ?3)",
	[S_GET_STATE] = "SELECT value FROM source_state WHERE url = ?1 AND key = ?2",
};


/* How many times SQLite met a damaged file in this process.  SQLite logs
 * every corruption it detects (SQLITE_CONFIG_LOG), also where a caller
 * took the failed step for "no row": the commands check this at the end
 * (onlist_store_damaged()), so that no damaged page reads as an answer. */
static atomic_int damage_seen;

static void sqlite_log(void *data, int code, const char *msg)
{
	(void)data;
	(void)msg;
	if ((code & 0xff) == SQLITE_CORRUPT)
		atomic_fetch_add(&damage_seen, 1);
}

int onlist_store_damaged(void)
{
	return atomic_load(&damage_seen) > 0;
}

char *onlist_store_damage_msg(const char *path)
{
	GString *g = g_string_new("the database is damaged: run `sqlite3 ");
	int plain = *path != '\0' && *path != '-';

	for (const char *p = path; *p && plain; p++)
		plain = g_ascii_isalnum(*p) || strchr("/._-+,=@%", *p);
	if (plain) {
		g_string_append(g, path);
	} else {	/* a shell word, quoted */
		g_string_append_c(g, '\'');
		for (const char *p = path; *p; p++)
			if (*p == '\'')
				g_string_append(g, "'\\''");
			else
				g_string_append_c(g, *p);
		g_string_append_c(g, '\'');
	}
	g_string_append(g, " 'pragma integrity_check'`");
	return g_string_free(g, FALSE);
}

onlist_status onlist__store_fail(struct onlist_store *s, const char *what)
{
	int r;

	free(s->errmsg);
	/* "database disk image is malformed" does not say what to do; and
	 * it is never "no such row" (callers turn no row into answers) */
	if ((sqlite3_errcode(s->db) & 0xff) == SQLITE_CORRUPT) {
		char *m = onlist_store_damage_msg(s->path ? s->path : "DB");

		atomic_fetch_add(&damage_seen, 1);
		r = asprintf(&s->errmsg, "%s: %s", what, m);
		g_free(m);
		if (r < 0)
			s->errmsg = NULL;
		return ONLIST_EDB;
	}
	/* "database is locked" alone does not say that it is another
	 * onlist, nor that waiting longer is pointless. */
	if (sqlite3_errcode(s->db) == SQLITE_BUSY)
		r = asprintf(&s->errmsg, "%s: the database is locked by "
			     "another process writing to it (another onlist "
			     "import, scan, match or fetch?); gave up after "
			     "waiting %d s", what, BUSY_TIMEOUT_MS / 1000);
	else if (sqlite3_errcode(s->db) == SQLITE_IOERR)
		/* "disk I/O error" alone hides "No space left on device",
		 * "File too large", "Read-only file system"; a short
		 * write leaves no errno at all. */
		r = asprintf(&s->errmsg, "%s: %s (%s)", what,
			     sqlite3_errmsg(s->db),
			     sqlite3_system_errno(s->db) ?
			     strerror(sqlite3_system_errno(s->db)) :
			     sqlite3_extended_errcode(s->db) == SQLITE_IOERR_WRITE ?
			     "a write came up short: disk full or file size "
			     "limit?" : "no detail");
	else
		r = asprintf(&s->errmsg, "%s: %s", what, sqlite3_errmsg(s->db));
	if (r < 0)
		s->errmsg = NULL;
	return ONLIST_EDB;
}

const char *onlist_store_errmsg(const struct onlist_store *s)
{
	return s && s->errmsg ? s->errmsg : "no error";
}

onlist_status onlist_store_fail(struct onlist_store *s, char **errmsg)
{
	return onlist_fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(s));
}

_Static_assert(S_COUNT <= ONLIST__STORE_NSTMT, "raise ONLIST__STORE_NSTMT");

/* onlist_store_trace(): each statement that took more than 50 ms goes to
 * the caller's function, which decides where (if anywhere) it is shown. */
static int slow_statement(unsigned what, void *data, void *p, void *x)
{
	struct onlist_store *s = data;
	long long ns = *(long long *)x;
	char *sql;

	if (what != SQLITE_TRACE_PROFILE || ns < 50000000 || !s->trace)
		return 0;
	sql = sqlite3_expanded_sql(p);
	s->trace(s->trace_data, ns / 1e9, sql ? sql : "?");
	sqlite3_free(sql);
	return 0;
}

void onlist_store_trace(struct onlist_store *s,
			void (*fn)(void *data, double seconds, const char *sql),
			void *data)
{
	s->trace = fn;
	s->trace_data = data;
	sqlite3_trace_v2(s->db, fn ? SQLITE_TRACE_PROFILE : 0,
			 fn ? slow_statement : NULL, s);
}

void onlist_store_page_counts(struct onlist_store *s, long long *reads,
			      long long *writes)
{
	int cur, hi;

	*reads = *writes = -1;
	if (sqlite3_db_status(s->db, SQLITE_DBSTATUS_CACHE_MISS, &cur, &hi, 0)
	    == SQLITE_OK)
		*reads = cur;
	if (sqlite3_db_status(s->db, SQLITE_DBSTATUS_CACHE_WRITE, &cur, &hi, 0)
	    == SQLITE_OK)
		*writes = cur;
}

sqlite3_stmt *onlist__store_prepare(struct onlist_store *s, const char *sql)
{
	struct onlist__cached_stmt *c;

	for (c = s->cache; c; c = c->next)
		if (c->sql == sql)
			break;
	if (!c) {
		c = calloc(1, sizeof(*c));
		if (!c)
			return NULL;
		if (sqlite3_prepare_v3(s->db, sql, -1,
				       SQLITE_PREPARE_PERSISTENT, &c->st,
				       NULL) != SQLITE_OK) {
			free(c);
			fail(s, "prepare");
			return NULL;
		}
		c->sql = sql;
		c->next = s->cache;
		s->cache = c;
	}
	sqlite3_reset(c->st);
	sqlite3_clear_bindings(c->st);
	return c->st;
}

int onlist__store_int64s(struct onlist_store *s, const char *sql,
			 int64_t arg, int64_t *out, int n)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql);
	int ok;

	if (!st)
		return 0;
	if (arg >= 0)
		sqlite3_bind_int64(st, 1, arg);
	ok = sqlite3_step(st) == SQLITE_ROW;
	for (int i = 0; ok && i < n; i++)
		out[i] = i < sqlite3_column_count(st) ?
			 sqlite3_column_int64(st, i) : 0;
	sqlite3_reset(st);
	return ok;
}

onlist_status onlist__store_first_text(struct onlist_store *s, const char *sql,
				       const char *param, const char *what,
				       char **out)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql);
	const char *v;
	int rc;

	*out = NULL;
	if (!st)
		return ONLIST_EDB;
	if (param)
		sqlite3_bind_text(st, 1, param, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && (v = (const char *)sqlite3_column_text(st, 0)) &&
	    !(*out = strdup(v)))
		rc = SQLITE_NOMEM;
	sqlite3_reset(st);
	if (rc == SQLITE_NOMEM)
		return ONLIST_ENOMEM;
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       onlist__store_fail(s, what);
}

static sqlite3_stmt *stmt(struct onlist_store *s, enum stmt_id id)
{
	if (!s->stmt[id] &&
	    sqlite3_prepare_v3(s->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
			       &s->stmt[id], NULL) != SQLITE_OK)
		return NULL;
	sqlite3_reset(s->stmt[id]);
	sqlite3_clear_bindings(s->stmt[id]);
	return s->stmt[id];
}

void onlist__bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i);
}

static void bind_va(sqlite3_stmt *st, const char *types, va_list ap)
{
	for (int i = 1; *types; types++, i++) {
		switch (*types) {
		case 't':
			bind_text(st, i, va_arg(ap, const char *));
			break;
		case 'i':
			sqlite3_bind_int(st, i, va_arg(ap, int));
			break;
		case 'I':
			sqlite3_bind_int64(st, i, va_arg(ap, int64_t));
			break;
		case 'D': {
			int64_t t = va_arg(ap, int64_t);

			if (t)
				sqlite3_bind_int64(st, i, t);
			else
				sqlite3_bind_null(st, i);
			break;
		}
		case 'f':
			sqlite3_bind_double(st, i, va_arg(ap, double));
			break;
		case 'u': {
			const uint32_t *v = va_arg(ap, const uint32_t *);
			size_t n = va_arg(ap, size_t);

			if (n)
				sqlite3_bind_blob(st, i, v, (int)(n * sizeof(*v)),
						  SQLITE_STATIC);
			else
				sqlite3_bind_zeroblob(st, i, 0);
			break;
		}
		}
	}
}

void onlist__store_bind(sqlite3_stmt *st, const char *types, ...)
{
	va_list ap;

	va_start(ap, types);
	bind_va(st, types, ap);
	va_end(ap);
}

onlist_status onlist__store_step(struct onlist_store *s, sqlite3_stmt *st,
				 const char *what, const char *types, ...)
{
	va_list ap;

	if (!st)
		return fail(s, "prepare");
	/* a call that does not match its statement would store values in the
	 * wrong columns: a bug, refused as one */
	if ((int)strlen(types) != sqlite3_bind_parameter_count(st)) {
		free(s->errmsg);
		if (asprintf(&s->errmsg, "%s: %zu values for %d parameters (a bug)",
			     what, strlen(types),
			     sqlite3_bind_parameter_count(st)) < 0)
			s->errmsg = NULL;
		return ONLIST_EDB;
	}
	va_start(ap, types);
	bind_va(st, types, ap);
	va_end(ap);
	return sqlite3_step(st) == SQLITE_DONE ? ONLIST_OK : fail(s, what);
}

void onlist__store_columns(sqlite3_stmt *st, void *out,
			   const struct onlist__column *cols)
{
	for (int i = 0; cols[i].type; i++) {
		void *field = (char *)out + cols[i].offset;
		const char *text;

		switch (cols[i].type) {
		case 't':
		case 'e':
			text = (const char *)sqlite3_column_text(st, i);
			*(const char **)field = text || cols[i].type == 't' ?
						text : "";
			break;
		case 'i':
			*(int *)field = sqlite3_column_int(st, i);
			break;
		case 'I':
			*(int64_t *)field = sqlite3_column_int64(st, i);
			break;
		case 'd':
			*(double *)field = sqlite3_column_double(st, i);
			break;
		}
	}
}

/* SQLite's WAL checksum (its fileformat.html, "Checksum Algorithm") over
 * n bytes (a multiple of 8), going on from s[0], s[1]: big-endian words
 * when the file's magic number says so, else little-endian. */
static void wal_checksum(const unsigned char *p, size_t n, int big,
			 uint32_t s[2])
{
	for (size_t i = 0; i + 8 <= n; i += 8) {
		uint32_t x0, x1;

		if (big) {
			x0 = (uint32_t)p[i] << 24 | (uint32_t)p[i + 1] << 16 |
			     (uint32_t)p[i + 2] << 8 | p[i + 3];
			x1 = (uint32_t)p[i + 4] << 24 | (uint32_t)p[i + 5] << 16 |
			     (uint32_t)p[i + 6] << 8 | p[i + 7];
		} else {
			x0 = (uint32_t)p[i + 3] << 24 | (uint32_t)p[i + 2] << 16 |
			     (uint32_t)p[i + 1] << 8 | p[i];
			x1 = (uint32_t)p[i + 7] << 24 | (uint32_t)p[i + 6] << 16 |
			     (uint32_t)p[i + 5] << 8 | p[i + 4];
		}
		s[0] += x0 + s[1];
		s[1] += x1 + s[0];
	}
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Does PATH-wal hold a committed transaction: a commit frame whose salts
 * are the header's, every frame up to it with a good checksum (the frames
 * SQLite itself would read)?  Read only when the file is opened as
 * immutable, which ignores the WAL: those writes may be missing. */
static int wal_has_commit(const char *path)
{
	unsigned char hdr[32], fh[24], *page = NULL;
	uint32_t sum[2] = { 0, 0 }, psize;
	int big, found = 0;
	char *wal;
	FILE *f;

	if (asprintf(&wal, "%s-wal", path) < 0)
		return 0;
	f = fopen(wal, "rb");
	free(wal);
	if (!f)
		return 0;
	if (fread(hdr, 1, 32, f) != 32 || (be32(hdr) & ~1u) != 0x377f0682)
		goto out;
	big = be32(hdr) & 1;
	psize = be32(hdr + 8);
	if (psize < 512 || psize > 65536 || (psize & (psize - 1)))
		goto out;
	wal_checksum(hdr, 24, big, sum);
	if (sum[0] != be32(hdr + 24) || sum[1] != be32(hdr + 28) ||
	    !(page = malloc(psize)))
		goto out;
	while (fread(fh, 1, 24, f) == 24 && fread(page, 1, psize, f) == psize) {
		if (memcmp(fh + 8, hdr + 16, 8))	/* an older WAL's frame */
			break;
		wal_checksum(fh, 8, big, sum);
		wal_checksum(page, psize, big, sum);
		if (sum[0] != be32(fh + 16) || sum[1] != be32(fh + 20))
			break;
		if (be32(fh + 4)) {	/* the database's size: a commit */
			found = 1;
			break;
		}
	}
out:
	free(page);
	fclose(f);
	return found;
}

/* Open `path`; with `readonly`, for reading only (nothing is created,
 * nothing written, no schema upgrade: *stale says one is needed); 2 also
 * reads it as immutable, for a WAL database in a folder we may not write. */
static onlist_status open_db(struct onlist_store **out, const char *path,
			     int readonly, int *stale, char **errmsg)
{
	int immutable = readonly == 2;
	struct onlist_store *s;
	char *file = NULL;
	int rc;

	*out = NULL;
	*errmsg = NULL;
	/* before SQLite starts (the first open starts it); later calls are
	 * refused, harmlessly */
	static int logging;
	if (!logging) {
		logging = 1;
		sqlite3_config(SQLITE_CONFIG_LOG, sqlite_log, NULL);
		/* No bulk allocation of a page cache when it opens.  Each
		 * statement with a temporary b-tree (IN (SELECT ...), ORDER
		 * BY, DISTINCT) opens a cache and closes it at its end; the
		 * bulk of 100 pages, 172 KB, came from the top of the heap,
		 * which glibc gave back at the free and took again at the next
		 * statement: 266,511 page faults for `lookup` of 10,000
		 * commits on 5M x 1M (5,542 without), half its CPU.  The pages
		 * come one at a time instead, as a cache grows. */
		sqlite3_config(SQLITE_CONFIG_PAGECACHE, NULL, 0, 0);
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return ONLIST_ENOMEM;
	if (!(s->path = strdup(path))) {
		free(s);
		return ONLIST_ENOMEM;
	}
	/* path names a file.  Without SQLITE_OPEN_URI SQLite still reads
	 * "file:..." as a URI when it was built with SQLITE_USE_URI (Debian's
	 * is), so `--db 'file:x?mode=memory'` would be a database in memory,
	 * gone at exit; and ":memory:" is one whatever the flags.  As
	 * "./NAME" neither is special. */
	if (!strncmp(path, "file:", 5) || !strcmp(path, ":memory:")) {
		if (asprintf(&file, "./%s", path) < 0) {
			free(s->path);
			free(s);
			return ONLIST_ENOMEM;
		}
	}
	if (immutable) {
		/* the one URI onlist makes: every byte that means something
		 * in a URI is escaped, so the path stays a path */
		GString *u = g_string_new("file:");

		g_string_append_uri_escaped(u, path, "/", FALSE);
		g_string_append(u, "?immutable=1");
		free(file);
		file = g_string_free(u, FALSE);
		rc = sqlite3_open_v2(file, &s->db, SQLITE_OPEN_READONLY |
				     SQLITE_OPEN_URI, NULL);
		g_free(file);
		file = NULL;
	} else
		rc = sqlite3_open_v2(file ? file : path, &s->db,
				     readonly ? SQLITE_OPEN_READONLY :
				     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
				     NULL);
	free(file);
	if (rc != SQLITE_OK)
		goto err;
	/* A second writer waits this long for the first, then gives up with
	 * "database is locked" rather than hanging forever. */
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	/* WAL: readers (lookup, report) keep working while an import runs,
	 * and a killed writer leaves the last committed batch intact.  (A
	 * reader leaves the mode as the writer set it.) */
	s->writer = !readonly;
	/* immutable=1 reads the main file alone: committed writes still in
	 * the WAL (no -shm to read it with, none can be made) are not seen */
	if (immutable && wal_has_commit(path) &&
	    asprintf(&s->notice, "%s-wal holds writes that may not be in %s "
		     "yet, and without %s-shm (which cannot be made in that "
		     "folder) they cannot be read: the newest writes may be "
		     "missing from these answers; a user who may write the "
		     "folder can fold them in with `sqlite3 %s 'pragma "
		     "wal_checkpoint(truncate)'`", path, path, path, path) < 0)
		s->notice = NULL;
	if (!readonly && sqlite3_exec(s->db, "PRAGMA journal_mode=WAL;"
				      "PRAGMA synchronous=NORMAL;", NULL, NULL,
				      NULL) != SQLITE_OK)
		goto err;
	/* Keep 16 MB of pages cached.  The file is not mapped: every mapped
	 * page a run touches counts in its resident memory, so a match that
	 * reads a few tables of a large database held as much memory as the
	 * database (bench/match.sh, 1,000 new messages on 200,000: 213 MB
	 * peak RSS mapped, 92 MB not, the same CPU time); the operating
	 * system's page cache keeps the pages just as well.  For the same
	 * reason the cache is 16 MB, not 64: a match of 1,000,000 messages
	 * fills all of it, and it stays resident beside the thread build's
	 * and the ignored topics' data (1,000,000 tiny messages: peak RSS
	 * 415 MB -> 359 MB; CPU 64-74 s before and after, system time a
	 * few seconds more: more reads from the system's page cache). */
	/* The temporary tables live in memory and go with the connection:
	 * SQLite's secure_delete (Debian builds it on) zeroed each of their
	 * pages as a table was dropped, for nothing (5M x 1M: dropping the
	 * fuzzy walk's patch mails, 858 MB, took 1.25 s, 0.09 s without).
	 * The database's own setting stays as the library has it. */
	if (sqlite3_exec(s->db, readonly ? "PRAGMA cache_size=-16384;" :
			 "PRAGMA cache_size=-16384; PRAGMA temp_store=MEMORY;"
			 " PRAGMA temp.secure_delete=0;", NULL, NULL, NULL)
	    != SQLITE_OK && !readonly)
		goto err;
	if (readonly) {
		int cur;

		/* A WAL database needs its -shm file, which a reader cannot
		 * make in a folder it may not write (SQLite's wal.html, "Read-
		 * Only Databases"); then the file is read as immutable. */
		rc = sqlite3_exec(s->db, "SELECT 1 FROM sqlite_master LIMIT 1",
				  NULL, NULL, NULL);
		if (!immutable && (rc == SQLITE_READONLY || rc == SQLITE_CANTOPEN)) {
			onlist_store_close(s);
			return open_db(out, path, 2, stale, errmsg);
		}
		if ((cur = onlist__store_schema_check(s)) < 0)
			goto fail;
		*stale = !cur;
	} else if (onlist__store_migrate(s) != ONLIST_OK)
		goto fail;
	*out = s;
	return ONLIST_OK;
fail:
	onlist_set_err(errmsg, "%s: %s", path, onlist_store_errmsg(s));
	onlist_store_close(s);
	return ONLIST_EDB;
err:
	onlist_set_err(errmsg, "%s: %s", path,
		       s->db ? sqlite3_errmsg(s->db) : "cannot open");
	onlist_store_close(s);
	return ONLIST_EDB;
}

onlist_status onlist_store_open_schema(struct onlist_store **out,
				       const char *path, char **errmsg)
{
	return open_db(out, path, 0, NULL, errmsg);
}

onlist_status onlist_store_open_readonly(struct onlist_store **out,
					 const char *path, int *stale,
					 char **errmsg)
{
	*stale = 0;
	return open_db(out, path, 1, stale, errmsg);
}

void onlist_store_stream_mode(struct onlist_store *s)
{
	/* 16 MB holds the Message-ID index's hot pages for a lore epoch;
	 * measured on io-uring (33,494 messages): peak RSS 68 MB -> 33 MB,
	 * no slower.  A failure only costs memory: ignored. */
	sqlite3_exec(s->db, "PRAGMA mmap_size=0; PRAGMA cache_size=-16384;",
		     NULL, NULL, NULL);
}

/* Copy what the WAL holds into the database file, so that a plain copy
 * of the file is whole.  The last connection's close does that too, but
 * not while another (a reader) has the file open; then whatever no
 * reader still needs is copied without waiting (PASSIVE), and the WAL
 * emptied when all of it was (TRUNCATE, not waiting either). */
static void checkpoint(struct onlist_store *s)
{
	int log = -1, done = -1;

	if (sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
				      &log, &done) != SQLITE_OK ||
	    log < 0 || done != log)
		return;
	sqlite3_busy_timeout(s->db, 0);
	sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_TRUNCATE,
				  NULL, NULL);
}

const char *onlist_store_notice(const struct onlist_store *s)
{
	return s ? s->notice : NULL;
}

void onlist_store_close(struct onlist_store *s)
{
	if (!s)
		return;
	for (int i = 0; i < S_COUNT; i++)
		sqlite3_finalize(s->stmt[i]);
	while (s->cache) {
		struct onlist__cached_stmt *next = s->cache->next;
		sqlite3_finalize(s->cache->st);
		free(s->cache);
		s->cache = next;
	}
	if (s->in_tx)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	else {
		if (s->read_tx)
			sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
		if (s->writer)
			checkpoint(s);
	}
	sqlite3_close(s->db);
	onlist__store_report_release(s);
	free(s->notice);
	free(s->errmsg);
	free(s->path);
	free(s);
}

onlist_status onlist_store_begin(struct onlist_store *s)
{
	/* IMMEDIATE takes the write lock now, so two writers queue here
	 * instead of failing half-way through a batch. */
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "begin");
	s->in_tx = 1;
	return ONLIST_OK;
}

/* One read transaction until the handle is closed: every answer of a
 * reading command from the same state of the database (a match that
 * commits meanwhile is seen whole or not at all), and the file locked
 * once, not at each statement.  A statement out of a transaction takes
 * and drops SQLite's shared lock and looks for the WAL again (fcntl and
 * stat calls): `lookup` of 10,000 commits made 174,680 fcntl and 87,434
 * stat calls.  A writer's begin in it fails: for reading handles only. */
onlist_status onlist_store_begin_read(struct onlist_store *s)
{
	if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "begin reading");
	s->read_tx = 1;
	return ONLIST_OK;
}

onlist_status onlist_store_commit(struct onlist_store *s)
{
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "commit");
	s->in_tx = 0;
	return ONLIST_OK;
}

onlist_status onlist_store_rollback(struct onlist_store *s)
{
	s->in_tx = 0;
	if (sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "rollback");
	return ONLIST_OK;
}

/* The mails stored under one Message-ID: the key ?1 itself and the keys
 * "?1 dup:HASH" of the others (a range, so that '%' or '_' in an id
 * means nothing). */
#define SAME_ID " (msgid = ?1 OR (msgid >= ?1 || ' dup:' AND" \
	" msgid < ?1 || ' dup;'))"
/* One of them is the same mail when its content hash is; a row stored
 * before content hashes is when what it kept of the headers and the
 * patch is. */
static const char sql_same_mail[] =
	"SELECT msgid FROM messages WHERE" SAME_ID " AND (content_hash = ?2 OR"
	" (content_hash IS NULL AND from_addr IS ?3 AND date IS ?4 AND"
	"  subject IS ?5 AND patch_id IS ?6)) LIMIT 1";
/* A copy: its list is added, and the earliest time any archive says it
 * had it is kept. */
static const char sql_copy[] =
	"UPDATE messages SET content_hash = coalesce(content_hash, ?2),"
	" received_how = CASE WHEN ?3 IS NOT NULL AND (received IS NULL OR"
	"  ?3 < received) THEN ?4 ELSE received_how END,"
	" received = CASE WHEN ?3 IS NOT NULL AND (received IS NULL OR"
	"  ?3 < received) THEN ?3 ELSE received END WHERE msgid = ?1";
/* Which of the mails of one id holds the id itself (the one replies are
 * threaded to): the first an archive received, then the lowest hash, so
 * that the order of import does not matter. */
static const char sql_first_mail[] =
	"SELECT msgid FROM messages WHERE" SAME_ID
	" ORDER BY received IS NULL, received, content_hash IS NULL,"
	" content_hash, msgid LIMIT 1";
/* Where a message's key is written at import, and by match (rebuilt
 * whole once the stamps below are gone). */
static const char *const key_columns[][2] = {
	{ "messages", "msgid" }, { "message_lists", "msgid" },
	{ "message_info", "msgid" }, { "message_trailers", "msgid" },
	{ "message_author", "msgid" }, { "pulls", "msgid" },
	{ "message_patch", "msgid" }, { "message_reply", "msgid" },
	{ "quoted_tags", "msgid" },
	{ "matches", "message_id" }, { "ignored_msgs", "msgid" },
	{ "review_links", "msgid" },
};

static onlist_status rename_key(struct onlist_store *s, const char *from,
				const char *to)
{
	for (size_t i = 0; i < sizeof(key_columns) / sizeof(*key_columns); i++) {
		char *sql;
		sqlite3_stmt *st;
		onlist_status r;

		/* names from the table above */
		if (asprintf(&sql, "UPDATE %s SET %s = ?2 WHERE %s = ?1",
			     key_columns[i][0], key_columns[i][1],
			     key_columns[i][1]) < 0)
			return ONLIST_ENOMEM;
		if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
			free(sql);
			return fail(s, "prepare");
		}
		free(sql);
		r = onlist__store_step(s, st, "rename a message", "tt", from, to);
		sqlite3_finalize(st);
		if (r != ONLIST_OK)
			return r;
	}
	return ONLIST_OK;
}

static const char sql_hash_of[] =
	"SELECT content_hash FROM messages WHERE msgid = ?1";

/* After a mail of id was stored: the first of its mails (sql_first_mail)
 * takes the key id, the one holding it moves to "id dup:ITS_HASH".  What
 * threads and matches were built on the old keys is built again whole. */
static onlist_status settle(struct onlist_store *s, const char *id)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_first_mail);
	char *first = NULL, *moved = NULL, *hash = NULL;
	onlist_status r = ONLIST_OK;
	int rc;

	if (!st)
		return fail(s, "prepare");
	bind_text(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW &&
	    !(first = strdup((const char *)sqlite3_column_text(st, 0))))
		r = ONLIST_ENOMEM;
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(s, "read the mails of one Message-ID");
	if (r != ONLIST_OK || !first || !strcmp(first, id))
		goto out;
	if (!(st = onlist__store_prepare(s, sql_hash_of))) {
		r = fail(s, "prepare");
		goto out;
	}
	bind_text(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_text(st, 0))
		hash = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	if (rc != SQLITE_ROW) {
		r = fail(s, "read the mails of one Message-ID");
		goto out;
	}
	if (asprintf(&moved, "%s dup:%s", id, hash ? hash : "unhashed") < 0) {
		moved = NULL;
		r = ONLIST_ENOMEM;
		goto out;
	}
	if ((r = rename_key(s, id, moved)) != ONLIST_OK ||
	    (r = rename_key(s, first, id)) != ONLIST_OK)
		goto out;
	r = onlist__store_step(s, onlist__store_prepare(s,
		"DELETE FROM meta WHERE key IN ('threads_base', 'exact_stamp',"
		" 'fuzzy_stamp')"), "forget what match built", "");
out:
	free(first);
	free(moved);
	free(hash);
	return r;
}

onlist_status onlist_store_put_message(struct onlist_store *s,
				       const struct onlist_message_row *m,
				       int *added, char **key, int *dup)
{
	sqlite3_stmt *st;
	char *k = NULL;
	int rc;

	*added = *dup = 0;
	*key = NULL;
	if (step(s, stmt(s, S_PUT_MESSAGE), "insert message", "titDtttttitttIDtt",
		 m->msgid, m->synthetic_id, m->list, m->date, m->from_name,
		 m->from_addr, m->subject, m->in_reply_to, m->refs,
		 m->has_patch, m->patch_id, m->patch_source, m->source,
		 (int64_t)m->offset, m->received,
		 m->received ? m->received_how : NULL,
		 m->content_hash) != ONLIST_OK)
		return ONLIST_EDB;
	if (sqlite3_changes(s->db) > 0) {
		*added = 1;
		k = strdup(m->msgid);
		goto list;
	}
	/* The id is taken: by this mail (another copy), or by another. */
	if (!(st = onlist__store_prepare(s, sql_same_mail)))
		return fail(s, "prepare");
	onlist__store_bind(st, "tttDtt", m->msgid, m->content_hash,
			   m->from_addr, m->date, m->subject, m->patch_id);
	/* the date binds as 'D' (0: NULL) as it was stored */
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		k = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(s, "read the mails of one Message-ID");
	if (rc == SQLITE_ROW) {
		if (!k)
			return ONLIST_ENOMEM;
		/* an earlier received time may make an old match late: what
		 * match kept is built again whole */
		if (m->received && step(s, onlist__store_prepare(s,
			"DELETE FROM meta WHERE key IN ('exact_stamp', 'fuzzy_stamp')"
			" AND EXISTS (SELECT 1 FROM messages WHERE msgid = ?1 AND"
			" (received IS NULL OR received > ?2))"),
			"forget what match built", "tI", k, m->received) != ONLIST_OK)
			goto fail;
		if (step(s, onlist__store_prepare(s, sql_copy), "update message",
			 "ttDt", k, m->content_hash, m->received,
			 m->received_how) != ONLIST_OK)
			goto fail;
	} else {
		struct onlist_message_row d = *m;

		/* Another mail: kept apart, never merged into the first. */
		if (asprintf(&k, "%s dup:%s", m->msgid,
			     m->content_hash ? m->content_hash : "") < 0)
			return ONLIST_ENOMEM;
		d.msgid = k;
		if (step(s, stmt(s, S_PUT_MESSAGE), "insert message",
			 "titDtttttitttIDtt", d.msgid, d.synthetic_id, d.list,
			 d.date, d.from_name, d.from_addr, d.subject,
			 d.in_reply_to, d.refs, d.has_patch, d.patch_id,
			 d.patch_source, d.source, (int64_t)d.offset,
			 d.received, d.received ? d.received_how : NULL,
			 d.content_hash) != ONLIST_OK)
			goto fail;
		*added = sqlite3_changes(s->db) > 0;
		*dup = 1;
	}
list:
	if (!k)
		return ONLIST_ENOMEM;
	if (step(s, stmt(s, S_PUT_MESSAGE_LIST), "insert message list", "tt",
		 k, m->list ? m->list : "") != ONLIST_OK)
		goto fail;
	*key = k;
	return ONLIST_OK;
fail:
	free(k);
	return ONLIST_EDB;
}

onlist_status onlist_store_message_received(struct onlist_store *s,
					    const char *msgid, int64_t *date,
					    int64_t *received, char how[8])
{
	sqlite3_stmt *st = onlist__store_prepare(s,
		"SELECT coalesce(date, 0), coalesce(received, 0),"
		" coalesce(received_how, '') FROM messages WHERE msgid = ?1");
	int rc;

	*date = *received = 0;
	how[0] = '\0';
	if (!st)
		return fail(s, "prepare");
	bind_text(st, 1, msgid);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*date = sqlite3_column_int64(st, 0);
		*received = sqlite3_column_int64(st, 1);
		snprintf(how, 8, "%s", (const char *)sqlite3_column_text(st, 2));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(s, "read a message");
	return ONLIST_OK;
}

/* Called by import once a mail's rows are all written under its key. */
onlist_status onlist_store_settle_message(struct onlist_store *s,
					  const char *msgid)
{
	return settle(s, msgid);
}

onlist_status onlist_store_put_skip(struct onlist_store *s, const char *source,
				    uint64_t offset, const char *reason,
				    int *added)
{
	if (step(s, stmt(s, S_PUT_SKIP), "insert skip", "tIt", source,
		 (int64_t)offset, reason) != ONLIST_OK)
		return ONLIST_EDB;
	if (added)
		*added = sqlite3_changes(s->db) > 0;
	return ONLIST_OK;
}

onlist_status onlist_store_put_commit(struct onlist_store *s,
				      const struct onlist_commit *c)
{
	if (step(s, stmt(s, S_PUT_COMMIT), "insert commit", "tttIttIttitt",
		 c->sha, c->author_name, c->author_email, c->author_date,
		 c->committer_name, c->committer_email, c->commit_date,
		 c->subject, c->body, c->body_empty, c->files,
		 c->has_patchid ? c->patchid : NULL) != ONLIST_OK)
		return ONLIST_EDB;
	if (sqlite3_changes(s->db) == 0)
		return ONLIST_OK;	/* known: its trailers are stored too */
	if (c->skip_reason &&
	    step(s, stmt(s, S_PUT_COMMIT_SKIP), "insert skipped commit", "ttt",
		 c->sha, c->skip_reason,
		 c->skip_object[0] ? c->skip_object : NULL) != ONLIST_OK)
		return ONLIST_EDB;
	if (step(s, stmt(s, S_DEL_TRAILERS), "delete trailers", "t", c->sha)
	    != ONLIST_OK)
		return ONLIST_EDB;
	for (size_t i = 0; i < c->ntrailers; i++)
		if (step(s, stmt(s, S_PUT_TRAILER), "insert trailer", "tItt",
			 c->sha, (int64_t)i, c->trailers[i].key,
			 c->trailers[i].value) != ONLIST_OK)
			return ONLIST_EDB;
	return ONLIST_OK;
}

int onlist_store_has_commit(struct onlist_store *s, const char *sha)
{
	sqlite3_stmt *st = stmt(s, S_HAS_COMMIT);
	int rc;

	if (!st) {
		fail(s, "prepare");
		return -1;
	}
	bind_text(st, 1, sha);
	rc = sqlite3_step(st);
	/* Reset now: a statement left on its row keeps a read snapshot open,
	 * and this connection's next BEGIN IMMEDIATE would then fail at once
	 * with "database is locked" after another process committed. */
	sqlite3_reset(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	fail(s, "select commit");
	return -1;
}

/* The first column of the first row of read statement `id` with one or two
 * text parameters, malloc'd, or NULL. */
static char *read_text(struct onlist_store *s, enum stmt_id id, int n,
		       const char *a, const char *b)
{
	sqlite3_stmt *st = stmt(s, id);
	char *v = NULL;

	if (!st)
		return NULL;
	bind_text(st, 1, a);
	if (n > 1)
		bind_text(st, 2, b);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_reset(st);	/* no read snapshot left open */
	return v;
}

onlist_status onlist_store_set_meta(struct onlist_store *s, const char *key,
				    const char *value)
{
	return step(s, stmt(s, S_SET_META), "set meta", "tt", key, value);
}

char *onlist_store_get_meta(struct onlist_store *s, const char *key)
{
	return read_text(s, S_GET_META, 1, key, NULL);
}

int64_t onlist_store_edit_mark(struct onlist_store *s)
{
	return (int64_t)sqlite3_total_changes64(s->db);
}

onlist_status onlist_store_edit_since(struct onlist_store *s, int64_t mark)
{
	if ((int64_t)sqlite3_total_changes64(s->db) == mark)
		return ONLIST_OK;
	return step(s, onlist__store_prepare(s,
		"INSERT INTO meta(key, value) VALUES('edits', 1)"
		" ON CONFLICT(key) DO UPDATE SET value = value + 1"),
		"count an edit", "");
}

onlist_status onlist_store_add_source(struct onlist_store *s, const char *url,
				      const char *list)
{
	return step(s, stmt(s, S_ADD_SOURCE), "add source", "tt", url, list);
}

onlist_status onlist_store_set_state(struct onlist_store *s, const char *url,
				     const char *key, const char *value)
{
	return step(s, stmt(s, S_SET_STATE), "set source state", "ttt", url,
		    key, value);
}

char *onlist_store_get_state(struct onlist_store *s, const char *url,
			     const char *key)
{
	return read_text(s, S_GET_STATE, 2, url, key);
}

onlist_status onlist__store_rows(struct onlist_store *s, sqlite3_stmt *st,
				 const char *const *params, int nparams,
				 onlist_row_cb row, void *data, long *count)
{
	/* the widest row read through here: commit_review's 17 columns */
	const char *cols[24];
	int rc, n;

	if (count)
		*count = 0;
	for (int i = 0; i < nparams; i++)
		bind_text(st, i + 1, params[i]);
	n = sqlite3_column_count(st);
	if (n > 24)
		n = 24;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < n; i++)
			cols[i] = (const char *)sqlite3_column_text(st, i);
		if (count)
			(*count)++;
		if (row && row(n, cols, data))
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK : fail(s, "query");
}

static const char sql_index_defs[] =
	"SELECT name, sql FROM sqlite_master WHERE type = 'index'"
	" AND tbl_name = ?1 AND sql IS NOT NULL ORDER BY rowid";

onlist_status onlist__store_indexes_drop(struct onlist_store *s,
					 const char *table, char **sql)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql_index_defs);
	GString *make = g_string_new(NULL), *drop = g_string_new(NULL);
	onlist_status ret = ONLIST_OK;
	int rc;

	*sql = NULL;
	if (!st) {
		ret = onlist__store_fail(s, "prepare");
		goto out;
	}
	onlist__bind_text(st, 1, table);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *q = sqlite3_mprintf("DROP INDEX \"%w\";",
					  (const char *)sqlite3_column_text(st, 0));

		if (!q) {
			rc = SQLITE_NOMEM;
			break;
		}
		g_string_append(drop, q);
		sqlite3_free(q);
		g_string_append_printf(make, "%s;\n",
				       (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		ret = rc == SQLITE_NOMEM ? ONLIST_ENOMEM :
		      onlist__store_fail(s, "read the indexes");
		goto out;
	}
	if (drop->len &&
	    sqlite3_exec(s->db, drop->str, NULL, NULL, NULL) != SQLITE_OK) {
		ret = onlist__store_fail(s, "drop the indexes");
		goto out;
	}
	if (!(*sql = strdup(make->str)))
		ret = ONLIST_ENOMEM;
out:
	g_string_free(make, TRUE);
	g_string_free(drop, TRUE);
	return ret;
}

onlist_status onlist__store_indexes_make(struct onlist_store *s,
					 const char *sql)
{
	if (sql && *sql && sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return onlist__store_fail(s, "make the indexes");
	return ONLIST_OK;
}
