/* store_schema.h - what an upgraded database owes, and the reads and
 * writes that settle it.
 *
 * Opening a database made by an older onlist adds the tables of the newer
 * schema versions (src/store_schema.c), empty.  Some of them are written
 * at import, from the mail itself: message_info, message_trailers and
 * pulls (version 4) and message_patch (version 5).  The migration marks
 * the database; onlist_import_backfill() (import.h) then reads each
 * message that lacks them again from where it was imported (messages.source)
 * and writes what a fresh import would, or, where that is gone, what its
 * stored headers say.  The derived tables (threads, echoes, matches) are
 * rebuilt by the next `onlist match` as always.
 */
#ifndef ONLIST_STORE_SCHEMA_H
#define ONLIST_STORE_SCHEMA_H

#include <stdint.h>
#include "onlist/status.h"
#include "onlist/store.h"

struct onlist_store;

/* 1 when the migration left rows to fill, 0 when not (or on error). */
int onlist_store_schema_backfill_pending(struct onlist_store *s);
/* Take the mark off (inside the caller's transaction); ONLIST_EDB. */
onlist_status onlist_store_schema_backfill_done(struct onlist_store *s);

/* A message is owed rows when it has no message_info row, or carries a
 * patch and has no message_patch row.  Each function calls cb for each
 * row (strings valid during the call only; non-zero stops) and returns
 * ONLIST_EDB with the handle's message set. */

/* Each source holding messages owed rows, once, in order. */
onlist_status onlist_store_schema_backfill_sources(struct onlist_store *s,
		int (*cb)(const char *source, void *data), void *data);
/* The messages of one source owed rows; needs_info: 1 when it has no
 * message_info row. */
onlist_status onlist_store_schema_backfill_owed(struct onlist_store *s,
		const char *source,
		int (*cb)(const char *msgid, int needs_info, void *data),
		void *data);
/* A message's stored headers, what message_info can be made from when its
 * mail cannot be read again. */
struct onlist_stored_headers {
	int64_t id;			/* messages.id */
	const char *msgid, *subject;	/* subject may be NULL */
	const char *in_reply_to, *refs;	/* "" when none */
	int has_patch;
};
/* Up to `limit` messages still without message_info, by id, after id
 * `after`. */
onlist_status onlist_store_schema_backfill_without_info(struct onlist_store *s,
		int64_t after, int limit,
		int (*cb)(const struct onlist_stored_headers *h, void *data),
		void *data);

/* Set a stored message's patch columns as import sets them now (a cover
 * letter or pull request is no patch since version 4); patch_id and
 * patch_source may be NULL.  ONLIST_EDB with the handle's message set. */
onlist_status onlist_store_schema_set_message_patch(struct onlist_store *s,
					     const char *msgid, int has_patch,
					     const char *patch_id,
					     const char *patch_source);

#endif
