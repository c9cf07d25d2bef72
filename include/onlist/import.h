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

/* Import every message of `src` under `list`, committing every
 * ONLIST_IMPORT_BATCH messages.  `place` names the source in skipped rows
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

#endif
