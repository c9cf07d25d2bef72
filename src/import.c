/* import.c - messages from a source into the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/import.h"
#include "onlist/mail.h"
#include "onlist/store.h"

static onlist_status db_error(struct onlist_store *s, char **errmsg)
{
	*errmsg = strdup(onlist_store_errmsg(s));
	return ONLIST_EDB;
}

onlist_status onlist_import_message(struct onlist_store *s, const char *data,
				    size_t len, const char *list,
				    const char *place, uint64_t offset,
				    struct onlist_import_counts *c,
				    char **errmsg)
{
	struct onlist_mail *m = NULL;
	struct onlist_message_row row;
	char pid[ONLIST_PATCHID_HEXSZ + 1], *err = NULL;
	onlist_status st;
	int added = 0;

	*errmsg = NULL;
	c->messages++;
	st = onlist_mail_parse(&m, data, len, &err);
	if (st != ONLIST_OK) {
		char *reason = NULL;

		if (asprintf(&reason, "unreadable message: %s",
			     err ? err : onlist_status_str(st)) < 0)
			reason = NULL;
		free(err);
		st = onlist_store_put_skip(s, place, offset,
					   reason ? reason : "unreadable message",
					   NULL);
		free(reason);
		if (st != ONLIST_OK)
			return db_error(s, errmsg);
		c->skipped++;
		return ONLIST_OK;
	}
	memset(&row, 0, sizeof(row));
	row.list = list;
	row.msgid = onlist_mail_message_id(m);
	row.synthetic_id = onlist_mail_id_is_synthetic(m);
	row.date = onlist_mail_date(m);
	row.from_name = onlist_mail_from_name(m);
	row.from_addr = onlist_mail_from_addr(m);
	row.subject = onlist_mail_subject(m);
	row.in_reply_to = onlist_mail_in_reply_to(m);
	row.refs = onlist_mail_references(m);
	row.has_patch = onlist_mail_patch(m, NULL) != NULL;
	row.patch_source = onlist_mail_patch_source(m);
	row.patch_id = onlist_mail_patchid(m, pid) ? pid : NULL;
	row.source = place;
	row.offset = offset;
	st = onlist_store_put_message(s, &row, &added);
	onlist_mail_free(m);
	if (st != ONLIST_OK)
		return db_error(s, errmsg);
	c->added += added;
	c->patches += row.has_patch;
	return ONLIST_OK;
}

onlist_status onlist_import_source(struct onlist_store *s,
				   struct onlist_source *src,
				   const char *place, const char *list,
				   struct onlist_import_counts *c,
				   onlist_import_progress_cb progress,
				   void *data, char **errmsg)
{
	onlist_status st, ret = ONLIST_OK;
	uint64_t last_offset = 0;
	long in_batch = 0;
	/* What the last commit made durable: when a commit fails (disk
	 * full) the counts must not claim the batch that was lost. */
	struct onlist_import_counts kept = *c;

	*errmsg = NULL;
	for (;;) {
		struct onlist_raw raw;
		char *err = NULL;

		if (!in_batch && onlist_store_begin(s) != ONLIST_OK)
			return db_error(s, errmsg);
		memset(&raw, 0, sizeof(raw));
		st = onlist_source_next(src, &raw, &err);
		if (st == ONLIST_ENOTFOUND) {
			free(err);
			break;
		}
		if (st != ONLIST_OK) {
			/* The input itself broke: keep what was read, record
			 * where it broke, and report it.  A maildir file that
			 * cannot be opened is one message lost, not the rest. */
			const char *why = err ? err : onlist_status_str(st);
			/* A maildir names the file that failed; an mbox broke
			 * just after the last message read. */
			if (onlist_store_put_skip(s, raw.file ? raw.file : place,
						  raw.file ? 0 : last_offset + 1,
						  why, NULL) != ONLIST_OK) {
				free(err);
				ret = db_error(s, errmsg);
				break;
			}
			c->skipped++;
			if (st == ONLIST_EIO) {
				free(err);
				in_batch++;
				ret = ONLIST_EIO;
				continue;
			}
			*errmsg = err;
			ret = st;
			break;
		}
		last_offset = raw.offset;
		if (raw.skip) {
			/* Too large to read: counted and recorded, not lost
			 * silently. */
			c->messages++;
			if (onlist_store_put_skip(s, raw.file ? raw.file : place,
						  raw.offset, raw.skip,
						  NULL) != ONLIST_OK) {
				ret = db_error(s, errmsg);
				break;
			}
			c->skipped++;
			in_batch++;
			continue;
		}
		st = onlist_import_message(s, raw.data, raw.len, list,
					   raw.file ? raw.file : place,
					   raw.offset, c, errmsg);
		if (st != ONLIST_OK) {
			ret = st;
			break;
		}
		if (++in_batch >= ONLIST_IMPORT_BATCH) {
			in_batch = 0;
			if (onlist_store_commit(s) != ONLIST_OK) {
				*c = kept;
				st = db_error(s, errmsg);
				onlist_store_rollback(s);
				return st;
			}
			kept = *c;
			if (progress)
				progress(c, data);
		}
	}
	if (ret == ONLIST_EDB) {
		*c = kept;
		onlist_store_rollback(s);
		return ret;
	}
	if (onlist_store_commit(s) != ONLIST_OK) {
		*c = kept;
		free(*errmsg);
		st = db_error(s, errmsg);
		onlist_store_rollback(s);
		return st;
	}
	if (ret == ONLIST_EIO && !*errmsg)
		*errmsg = strdup("some maildir files could not be read");
	return ret;
}
