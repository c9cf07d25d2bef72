/* import.h - messages from a source into the store.
 *
 * Shared by `onlist import` (local files) and `onlist fetch` (downloads and
 * public-inbox epochs).  Every message is parsed, keyed by Message-ID and
 * written in batches; one that cannot be read is recorded in `skipped`
 * with its place and reason.
 */
#ifndef ONLIST_IMPORT_H
#define ONLIST_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

struct onlist_store;
struct onlist_source;

#define ONLIST_IMPORT_BATCH 2000	/* messages per transaction */
/* onlist_import_source() commits less often: each commit writes every
 * page the batch touched to the WAL (the Message-ID indexes are touched
 * all over), and a killed import redoes at most one batch anyway. */
#define ONLIST_IMPORT_SOURCE_BATCH 20000

struct onlist_import_counts {
	long messages;		/* read from the source */
	long added;		/* new to the database */
	long patches;		/* carrying a patch */
	long skipped;		/* recorded as unreadable */
};

/* Called now and then during a long import; may be NULL. */
typedef void (*onlist_import_progress_cb)(const struct onlist_import_counts *c,
					  void *data);

/* Import one message (the raw RFC 822 text) under `list`; `place` and
 * `offset` say where it was read, for the skipped table.  The caller owns
 * the transaction.  A message GMime cannot read is recorded as skipped
 * and the call succeeds; ONLIST_EDB (with *errmsg) when the store fails. */
onlist_status onlist_import_message(struct onlist_store *s, const char *data,
				    size_t len, const char *list,
				    const char *place, uint64_t offset,
				    struct onlist_import_counts *c,
				    char **errmsg);
/* The same, with when the archive received it where that is known
 * (received > 0: an epoch commit's time, an mbox From_ line's date) and
 * whose word that is (received_how: "epoch", "mbox").  The mail's own
 * Received: fields count too: the earliest of these is stored.  A mail
 * whose Message-ID names another mail already stored is kept apart
 * (onlist_store_put_message) and recorded in skipped, counted as added. */
onlist_status onlist_import_message_at(struct onlist_store *s,
				       const char *data, size_t len,
				       const char *list, const char *place,
				       uint64_t offset, int64_t received,
				       const char *received_how,
				       struct onlist_import_counts *c,
				       char **errmsg);
/* The date of an mbox From_ line (onlist_raw.from_line), 0 when it has
 * none or one of the placeholders public-inbox and git write. */
int64_t onlist_import_from_line_date(const char *from_line);

/* Import every message of `src` under `list`, committing every
 * ONLIST_IMPORT_SOURCE_BATCH messages.  `place` names the source in skipped rows
 * (maildir messages use their own file names).  When the source breaks
 * half-way (a truncated gzip stream), what was read is kept, the break is
 * recorded as a skip, and the error is returned with *errmsg (caller
 * frees). */
onlist_status onlist_import_source(struct onlist_store *s,
				   struct onlist_source *src,
				   const char *place, const char *list,
				   struct onlist_import_counts *c,
				   onlist_import_progress_cb progress,
				   void *data, char **errmsg);

/* ---- upgrading an older database (store_schema.h) ---------------------- */

struct onlist_backfill_counts {
	long reread;		/* messages read again from their source */
	long from_headers;	/* given message_info from their stored
				 * headers alone (the mail is gone) */
	long sources_unreadable; /* sources gone or never files (standard
				 * input, URLs, public-inbox epochs) */
};

/* When the database was upgraded from before schema version 5, give every
 * message the rows import writes now and an older onlist did not:
 * message_info, message_trailers, pulls and message_patch, from the mail
 * read again where it was imported (messages.source, the first copy of
 * its Message-ID there), else message_info from the stored subject and
 * References alone.  A message imported before classes also gets the
 * patch columns import gives it now (a cover letter or pull request is
 * not a patch).  Then the database is no longer marked; without the mark
 * this does nothing.  Idempotent, in batches: an interrupted run is
 * finished by the next.  ONLIST_EDB or ONLIST_ENOMEM with *errmsg (caller
 * frees); a source that cannot be read is not an error. */
onlist_status onlist_import_backfill(struct onlist_store *s,
				     struct onlist_backfill_counts *c,
				     char **errmsg);

#endif
