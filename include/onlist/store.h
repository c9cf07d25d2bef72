/* store.h - the one SQLite database that holds everything.
 *
 * The schema lives in src/store_schema.c alone.  Writers group their work in
 * batches (onlist_store_begin/commit); every row is keyed so that writing
 * it twice changes nothing, which is what makes an interrupted command safe
 * to run again.
 */
#ifndef ONLIST_STORE_H
#define ONLIST_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"
#include "onlist/repo.h"

struct onlist_store;

/* Open (creating when needed) the database at path, a file name (never an
 * SQLite URI or ":memory:"); the schema is created or upgraded
 * (src/store_schema.c).  When the database was made by an older onlist it
 * is also given the rows that onlist did not keep (store_schema.h): its
 * messages are read again from their sources, once, which on a large
 * archive takes about as long as importing it did.  On failure *out is
 * NULL and *errmsg (caller frees) says why.
 *
 * Defined in src/upgrade.c: filling the rows needs the mail reader, which
 * the store does not depend on. */
onlist_status onlist_store_open(struct onlist_store **out, const char *path,
				char **errmsg);
/* onlist_store_open() without the filling: the schema only.  A caller that
 * wants to report progress calls this, then onlist_import_backfill(). */
onlist_status onlist_store_open_schema(struct onlist_store **out,
				       const char *path, char **errmsg);
/* For reading only: nothing is created or written, so a database in a
 * folder (or a file) the user cannot write can be read.  ONLIST_EDB when
 * there is no database at path, or it cannot be read; ONLIST_OK with
 * *stale set (and *out open) when its schema is older than this onlist's:
 * the caller closes it and opens it with onlist_store_open(), which
 * upgrades it (and needs write access). */
onlist_status onlist_store_open_readonly(struct onlist_store **out,
					 const char *path, int *stale,
					 char **errmsg);

/* Open for reading, as the reading commands do: onlist_store_open_readonly()
 * when a current database is there (an older schema: onlist_store_open()
 * upgrades it first).  Nothing is created: ONLIST_ENOTFOUND when there is
 * no file at path, *errmsg saying "no database at PATH: ..." and what to
 * run.  When the upgrade fails for want of write access, *errmsg says so
 * and what to do. */
onlist_status onlist_store_open_read(struct onlist_store **out,
				     const char *path, char **errmsg);
/* What the caller should tell the user about the handle it opened, or
 * NULL: a database read as immutable (a folder the user may not write)
 * while its WAL holds committed writes, which are then not seen.  Valid
 * until the handle is closed. */
const char *onlist_store_notice(const struct onlist_store *s);
/* Close; NULL is fine.  A handle opened for writing first copies the WAL
 * into the database file as far as no reader needs it, so that a copy of
 * the file alone is whole. */
void onlist_store_close(struct onlist_store *s);
/* For a reading command: its reads in one transaction, one state of the
 * database, until the handle is closed (store.c says why). */
onlist_status onlist_store_begin_read(struct onlist_store *s);
/* For a command that streams rows in (import, fetch): a small page cache
 * and no file map, so its memory stays flat as the database grows; the
 * default suits matching, which reads the same index pages over and over. */
void onlist_store_stream_mode(struct onlist_store *s);

/* Give fn every statement of this handle that took more than 50 ms, with
 * its time and its SQL (parameters filled in); NULL stops it.  The store
 * itself never prints: where the lines go is the caller's choice. */
void onlist_store_trace(struct onlist_store *s,
			void (*fn)(void *data, double seconds, const char *sql),
			void *data);
/* The pages this handle has read from the database file (SQLite's cache
 * misses) and written to it (or its WAL) since it was opened: unlike a
 * time, the same for the same work on any machine (ONLIST_TIMING; the
 * benchmarks compare runs by them).  -1 when SQLite cannot say. */
void onlist_store_page_counts(struct onlist_store *s, long long *reads,
			      long long *writes);
/* The last error message of this handle; never NULL. */
const char *onlist_store_errmsg(const struct onlist_store *s);
/* onlist_fail(errmsg, ONLIST_EDB, ...) with this handle's message: how a
 * function that met a store error passes it up. */
onlist_status onlist_store_fail(struct onlist_store *s, char **errmsg);
/* Non-zero once SQLite has met a damaged database file in this process,
 * on any handle, also in a step whose caller did not look at the error.
 * A command checks it before it exits: a damaged page is never an
 * answer.  A handle's error message for such a step says so, and what to
 * run (onlist_store_damage_msg()). */
int onlist_store_damaged(void);
/* "the database is damaged: run `sqlite3 PATH 'pragma integrity_check'`",
 * PATH quoted for a shell where it needs it; the caller g_free()s it
 * (NULL only when out of memory). */
char *onlist_store_damage_msg(const char *path);

onlist_status onlist_store_begin(struct onlist_store *s);
onlist_status onlist_store_commit(struct onlist_store *s);
onlist_status onlist_store_rollback(struct onlist_store *s);

/* ---- messages --------------------------------------------------------- */

struct onlist_message_row {
	const char *list;
	const char *msgid;
	int synthetic_id;
	int64_t date;
	const char *from_name, *from_addr, *subject;
	const char *in_reply_to, *refs;
	const char *patch_id;		/* NULL: no git patch-id */
	const char *patch_source;	/* "inline", "attachment" or NULL */
	int has_patch;
	const char *source;		/* where it was read: file path */
	uint64_t offset;
	int64_t received;		/* when an archive had it, 0: unknown */
	const char *received_how;	/* "epoch", "mbox" or "header" */
	const char *content_hash;	/* tells mails of one id apart */
};

/* Insert the message.  A Message-ID known with the same content_hash (or,
 * for a row stored without one, the same sender, date, subject and
 * patch-id) is another copy of that mail: its list is added and the
 * earlier received time kept.  A known id with other content is another
 * mail: stored under the key "ID dup:HASH" (the whole content hash, so
 * no other mail can take it) and *dup set.  *key (malloc'd, caller
 * frees) is the key the mail's rows go under; *added
 * says whether a row was made.  ONLIST_EDB, ONLIST_ENOMEM. */
onlist_status onlist_store_put_message(struct onlist_store *s,
				       const struct onlist_message_row *m,
				       int *added, char **key, int *dup);
/* A message's Date (*date) and when an archive received it (*received;
 * 0: unknown) and whose word that is (how: "epoch", "mbox", "header" or
 * ""); all 0 when there is no such message.  ONLIST_EDB. */
onlist_status onlist_store_message_received(struct onlist_store *s,
					    const char *msgid, int64_t *date,
					    int64_t *received, char how[8]);
/* Once every row of a mail of id msgid is written: of the mails of that
 * id, the first an archive received (then the lowest content hash) takes
 * the key msgid itself, whatever the order they were imported in; when
 * that moves a key, what match built on it is rebuilt whole next time. */
onlist_status onlist_store_settle_message(struct onlist_store *s,
					  const char *msgid);

/* Record that the message at source:offset could not be read, and why.
 * Recording the same place twice keeps one row; *added says which. */
onlist_status onlist_store_put_skip(struct onlist_store *s, const char *source,
				    uint64_t offset, const char *reason,
				    int *added);

/* ---- commits ---------------------------------------------------------- */

/* Insert unless the sha is known (a known commit is left as it is, its
 * trailers and skip record too).  A commit with skip_reason set also gets
 * a commit_skipped row: reason, and skip_object (NULL when ""). */
onlist_status onlist_store_put_commit(struct onlist_store *s,
				      const struct onlist_commit *c);
/* 1 when the commit is stored, 0 when not, -1 on error. */
int onlist_store_has_commit(struct onlist_store *s, const char *sha);

/* Remember key=value (repository path, ...). */
onlist_status onlist_store_set_meta(struct onlist_store *s, const char *key,
				    const char *value);
/* The value, malloc'd (caller frees), or NULL when unset. */
char *onlist_store_get_meta(struct onlist_store *s, const char *key);

/* Rows written to an old message (import reading a mail again: its reply
 * kind, in-body author, patch) change what the tiers of match read as a
 * rewritten row does: onlist_store_edit_since(s, mark) counts an edit
 * (meta edits, schema step 20) when any row was written since mark
 * (onlist_store_edit_mark(), before those rows). */
int64_t onlist_store_edit_mark(struct onlist_store *s);
onlist_status onlist_store_edit_since(struct onlist_store *s, int64_t mark);

/* ---- fetch sources ------------------------------------------------------ */

/* Remember a source for `onlist fetch` without arguments (once). */
onlist_status onlist_store_add_source(struct onlist_store *s, const char *url,
				      const char *list);
/* Per-source progress (the last commit imported from an epoch, an ETag).
 * get returns a malloc'd value (caller frees) or NULL when unset. */
onlist_status onlist_store_set_state(struct onlist_store *s, const char *url,
				     const char *key, const char *value);
char *onlist_store_get_state(struct onlist_store *s, const char *url,
			     const char *key);

/* ---- queries ---------------------------------------------------------- */

/* A mail matched to a commit (or, for lookup --patch, carrying a patch)
 * as lookup and match --explain show it.  The strings are the store's,
 * valid during the call. */
struct onlist_posting_row {
	const char *lists;	/* the lists it reached, "a,b"; NULL: none */
	const char *msgid;
	const char *date;	/* epoch seconds; NULL: no usable Date */
	const char *subject;
	const char *method;	/* vocab.h's name; "echo" for an echo */
	const char *from_name, *from_addr;
	double score;		/* 1.0 but for the fuzzy tier */
	const char *echo_rule;	/* "KIND rule: RULE" of an echo, else NULL */
	int info;		/* its message_info row is there: */
	const char *cls, *version, *part, *total, *prefix;
				/* that row's, as text; each NULL when
				 * NULL there */
};
typedef int (*onlist_posting_row_cb)(const struct onlist_posting_row *r,
				     void *data);
/* Each match row of the stored commit sha, oldest mail first (then by
 * Message-ID); or, sha NULL, each mail whose patch-id is patch_id or
 * whose repaired id is repaired (lookup --patch), its method "patch-id",
 * "repaired" or "echo".  cb returns non-zero to stop.  ONLIST_EDB. */
onlist_status onlist_store_postings(struct onlist_store *s, const char *sha,
				    const char *patch_id, const char *repaired,
				    onlist_posting_row_cb cb, void *data);

/* The rows the commands read: one struct a kind, filled in store.c next
 * to its SQL.  A row and its strings are the store's, valid only during
 * the callback (copy what must outlive it); a string field is never NULL
 * unless its comment says so.  A callback returns non-zero to stop.  Each
 * reader returns ONLIST_OK, or ONLIST_EDB (onlist_store_errmsg() says
 * why) after the rows it passed already. */

/* A commit as the database holds it (lookup, match --explain). */
struct onlist_commit_row {
	const char *sha;
	const char *date;		/* commit date, epoch seconds; NULL: none */
	const char *author_name, *author_email;	/* NULL: none stored */
	const char *subject;		/* NULL: none stored */
};
typedef int (*onlist_commit_row_cb)(const struct onlist_commit_row *r,
				    void *data);
/* The stored commits whose sha starts with prefix (lowercase hex), in sha
 * order, at most two: a second row says the prefix is ambiguous. */
onlist_status onlist_store_commits_by_prefix(struct onlist_store *s,
					     const char *prefix,
					     onlist_commit_row_cb cb,
					     void *data);

/* A commit with no posting: what verdict.h judges it by. */
struct onlist_unposted_row {
	const char *sha;
	const char *date;		/* commit date, epoch seconds; NULL: none */
	const char *author_name, *author_email;	/* NULL: none stored */
	const char *subject;		/* NULL: none stored */
	const char *not_diffed;		/* why scan could not diff it, else NULL */
	const char *body, *files;	/* NULL: none stored */
	int64_t landed;			/* when it landed, else the commit date */
};
typedef int (*onlist_unposted_row_cb)(const struct onlist_unposted_row *r,
				      void *data);
/* Every stored commit no mail posted (vocab.h's posting methods), oldest
 * commit first. */
onlist_status onlist_store_unposted(struct onlist_store *s,
				    onlist_unposted_row_cb cb, void *data);
/* The stored commit sha, once, when no mail posted it; no call else. */
onlist_status onlist_store_unposted_commit(struct onlist_store *s,
					   const char *sha,
					   onlist_unposted_row_cb cb,
					   void *data);

/* A list's messages and how far they reach (status, --list-lists).  The
 * dates are epoch seconds, NULL when there is none. */
struct onlist_list_row {
	const char *list;		/* "" for messages of no list */
	int64_t messages, patches;
	const char *first, *last;	/* the first and last usable Date */
	const char *fetched;		/* the last fetch of its source */
};
typedef int (*onlist_list_row_cb)(const struct onlist_list_row *r,
				  void *data);
/* Each list, by name. */
onlist_status onlist_store_lists(struct onlist_store *s,
				 onlist_list_row_cb cb, void *data);

/* How many stored rows give one reason. */
struct onlist_reason_row {
	const char *reason;
	int64_t count;
};
typedef int (*onlist_reason_row_cb)(const struct onlist_reason_row *r,
				    void *data);
/* The skipped messages of the sources matching the GLOB pattern glob
 * (NULL: all), counted by reason: the most frequent first, then by
 * reason. */
onlist_status onlist_store_skipped_by_reason(struct onlist_store *s,
					     const char *glob,
					     onlist_reason_row_cb cb,
					     void *data);

/* A message import could not read. */
struct onlist_skip_row {
	const char *source;		/* the file ("" when none stored) */
	int64_t offset;			/* where in it */
	const char *reason;		/* "" when none stored */
};
typedef int (*onlist_skip_row_cb)(const struct onlist_skip_row *r,
				  void *data);
/* Each skipped message of the sources matching glob (NULL: all), by source
 * and offset. */
onlist_status onlist_store_skipped(struct onlist_store *s, const char *glob,
				   onlist_skip_row_cb cb, void *data);

/* A commit scan could not diff. */
struct onlist_skipped_commit_row {
	const char *sha;
	const char *object;		/* the object missing, NULL: not known */
	const char *reason;		/* git's message, maybe several lines */
	const char *subject;		/* NULL when the commit is not stored */
};
typedef int (*onlist_skipped_commit_row_cb)(
	const struct onlist_skipped_commit_row *r, void *data);
/* Each of them, oldest commit first. */
onlist_status onlist_store_skipped_commits(struct onlist_store *s,
					   onlist_skipped_commit_row_cb cb,
					   void *data);

/* A source `onlist fetch` remembers, or an inbox lookup --remote asked. */
struct onlist_source_row {
	const char *url;
	const char *list;		/* "" when none was given */
	const char *added;		/* epoch seconds; NULL: not known */
	int partial;			/* lookup --remote's (remote.h) */
	int64_t answers;		/* partial: the answers kept, else 0 */
};
typedef int (*onlist_source_row_cb)(const struct onlist_source_row *r,
				    void *data);
/* The sources fetch remembers, oldest first (then by URL). */
onlist_status onlist_store_sources(struct onlist_store *s,
				   onlist_source_row_cb cb, void *data);
/* The partial sources (partial set), oldest first (then by URL). */
onlist_status onlist_store_partial_sources(struct onlist_store *s,
					   onlist_source_row_cb cb,
					   void *data);

/* What the database holds. */
struct onlist_totals {
	int64_t messages, patches;	/* messages, those carrying a patch */
	int64_t skipped;		/* messages that could not be read */
	int64_t commits, matches;
	int64_t commits_matched;	/* commits with a posting */
};
/* Fill *out (all 0 on error). */
onlist_status onlist_store_count_totals(struct onlist_store *s,
					struct onlist_totals *out);
/* Only commits and commits_matched of it (the rest 0), without counting
 * the messages: what match prints. */
onlist_status onlist_store_count_matched(struct onlist_store *s,
					 struct onlist_totals *out);


#endif
