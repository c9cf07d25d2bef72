/* import.c - messages from a source into the store. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

#include "onlist/import.h"
#include "onlist/mail.h"
#include "onlist/store.h"
#include "onlist/store_thread.h"
#include "onlist/subject.h"
#include "onlist/msgmeta.h"
#include "onlist/patchfp.h"
#include "onlist/store_match.h"

#define MAX_TRAILERS 64	/* per message; the rest is noise */

struct trailers {
	struct onlist_msg_trailer t[MAX_TRAILERS];
	char *mem[MAX_TRAILERS * 3];
	int n, nomem;
};

static int add_trailer(const char *key, size_t keylen, const char *value,
		       size_t valuelen, void *data)
{
	struct trailers *tr = data;
	struct onlist_msg_trailer *t = &tr->t[tr->n];
	char *k, *v, *name, *addr;

	if (tr->n == MAX_TRAILERS)
		return 1;
	k = strndup(key, keylen);
	v = strndup(value, valuelen);
	if (!k || !v || onlist_split_ident(value, valuelen, &name, &addr)) {
		free(k);
		free(v);
		tr->nomem = 1;
		return 1;
	}
	t->key = tr->mem[3 * tr->n] = k;
	t->value = tr->mem[3 * tr->n + 1] = v;
	t->name = name;
	t->addr = addr;
	tr->mem[3 * tr->n + 2] = NULL;
	tr->n++;
	return 0;
}

static void free_trailers(struct trailers *tr)
{
	for (int i = 0; i < tr->n; i++) {
		free(tr->mem[3 * i]);
		free(tr->mem[3 * i + 1]);
		free((char *)tr->t[i].name);
		free((char *)tr->t[i].addr);
	}
}

/* What kind of message m is, from its subject and text.  For a pull
 * request *url, *ref and *tip are set (malloc'd), else NULL. */
static const char *classify(struct onlist_mail *m, const struct onlist_subject *sj,
			    int has_patch, char **url, char **ref, char **tip)
{
	const char *patch = onlist_mail_patch(m, NULL);
	int pull = 0;

	*url = *ref = *tip = NULL;
	if (!sj->reply) {
		pull = onlist_find_pull(onlist_mail_body(m), url, ref, tip);
		if (pull == 0 && patch)
			pull = onlist_find_pull(patch, url, ref, tip);
		if (pull == 0 && sj->pull && !sj->patch) {
			*url = strdup("");
			*ref = strdup("");
			*tip = strdup("");
			pull = *url && *ref && *tip ? 1 : -1;
		}
		if (pull == 1)
			return ONLIST_CLASS_PULL;
	}
	if (!sj->reply && sj->part == 0 && sj->total > 0)
		return ONLIST_CLASS_COVER;
	if (has_patch)
		return ONLIST_CLASS_PATCH;
	if (sj->reply || *onlist_mail_in_reply_to(m) || *onlist_mail_references(m))
		return ONLIST_CLASS_REPLY;
	return ONLIST_CLASS_OTHER;
}

/* A stable backport names the commit it copies: "commit <sha> upstream."
 * or "[ Upstream commit <sha> ]". */
static int names_upstream(const char *body)
{
	static const char *const marks[] = { "commit ", "Upstream commit " };

	for (const char *p = body; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = p;

		while (*q == ' ' || *q == '[')
			q++;
		for (int i = 0; i < 2; i++) {
			size_t n = strlen(marks[i]), h = 0;

			if (strncasecmp(q, marks[i], n))
				continue;
			while (isxdigit((unsigned char)q[n + h]))
				h++;
			if (h >= 12 && (!strncmp(q + n + h, " upstream", 9) ||
					i == 1))
				return 1;
		}
	}
	return 0;
}

/* What fuzzy and repaired matching need of a patch mail. */
static onlist_status put_patch(struct onlist_store *s, struct onlist_mail *m,
			       const char *msgid, const char *stripped)
{
	struct onlist_patch_row r;
	struct onlist_patchfp fp;
	char rid[ONLIST_PATCHID_HEXSZ + 1], *text;
	uint32_t *words = NULL;
	size_t len, nwords = 0;
	const char *patch = onlist_mail_patch(m, &len);
	onlist_status st;

	if (onlist_patchfp_compute(patch, len, &fp))
		return ONLIST_ENOMEM;
	if (asprintf(&text, "%s\n%s", stripped, onlist_mail_body(m)) < 0 ||
	    onlist_words_fp(text, &words, &nwords)) {
		onlist_patchfp_clear(&fp);
		return ONLIST_ENOMEM;
	}
	free(text);
	memset(&r, 0, sizeof(r));
	r.key = msgid;
	r.repaired_id = onlist_patch_repaired_id(patch, len, rid) ? rid : NULL;
	r.fp = fp.h;
	r.nfp = fp.n;
	r.words = words;
	r.nwords = nwords;
	r.files = fp.files;
	r.added = (long)fp.added;
	r.removed = (long)fp.removed;
	st = onlist_store_put_message_patch(s, &r);
	onlist_patchfp_clear(&fp);
	free(words);
	return st;
}

static onlist_status db_error(struct onlist_store *s, char **errmsg)
{
	*errmsg = strdup(onlist_store_errmsg(s));
	return ONLIST_EDB;
}

/* What import keeps of one parsed message: its messages row (but for
 * list, source and offset, which say where it was read) and its
 * message_info with trailers and pull request. */
struct derived {
	struct onlist_message_row row;
	struct onlist_message_info info;
	struct onlist_subject sj;
	struct trailers tr;
	char pid[ONLIST_PATCHID_HEXSZ + 1];
	char *url, *ref, *tip, *cid;
};

static void derived_clear(struct derived *d)
{
	free_trailers(&d->tr);
	free(d->url);
	free(d->ref);
	free(d->tip);
	free(d->cid);
	onlist_subject_clear(&d->sj);
}

/* Fill d from m (data, len: the message as sent).  ONLIST_ENOMEM; d is
 * to be cleared with derived_clear() either way. */
static onlist_status derive(struct derived *d, struct onlist_mail *m,
			    const char *data, size_t len)
{
	struct onlist_message_row *row = &d->row;
	struct onlist_message_info *info = &d->info;

	memset(d, 0, sizeof(*d));
	row->msgid = onlist_mail_message_id(m);
	row->synthetic_id = onlist_mail_id_is_synthetic(m);
	row->date = onlist_mail_date(m);
	row->from_name = onlist_mail_from_name(m);
	row->from_addr = onlist_mail_from_addr(m);
	row->subject = onlist_mail_subject(m);
	row->in_reply_to = onlist_mail_in_reply_to(m);
	row->refs = onlist_mail_references(m);
	row->has_patch = onlist_mail_patch(m, NULL) != NULL;
	row->patch_source = onlist_mail_patch_source(m);
	row->patch_id = onlist_mail_patchid(m, d->pid) ? d->pid : NULL;

	/* What the message is.  A cover letter or a pull request is not a
	 * posted patch of its own, even when it carries a diff. */
	if (onlist_subject_parse(&d->sj, row->subject))
		return ONLIST_ENOMEM;
	info->msgid = row->msgid;
	info->cls = classify(m, &d->sj, row->has_patch, &d->url, &d->ref,
			     &d->tip);
	if (!strcmp(info->cls, ONLIST_CLASS_PULL) ||
	    !strcmp(info->cls, ONLIST_CLASS_COVER)) {
		row->has_patch = 0;
		row->patch_id = NULL;
		row->patch_source = NULL;
	}
	info->reply = d->sj.reply;
	info->version = d->sj.version;
	info->part = d->sj.part;
	info->total = d->sj.total;
	info->prefix = d->sj.prefix;
	info->stripped = d->sj.stripped;
	d->cid = onlist_find_change_id(onlist_mail_body(m));
	if (!d->cid && onlist_mail_patch(m, NULL))
		d->cid = onlist_find_change_id(onlist_mail_patch(m, NULL));
	/* b4 writes it below the "---" of a cover letter, which is neither
	 * the commit message nor a patch when no diff follows: look in the
	 * mail as sent (plain text, as b4 sends it) */
	if (!d->cid && (memmem(data, len, "hange-id:", 9) ||
			memmem(data, len, "hange-Id:", 9))) {
		char *text = strndup(data, len);
		if (text)
			d->cid = onlist_find_change_id(text);
		free(text);
	}
	info->change_id = d->cid;
	info->pull_url = d->url;
	info->pull_ref = d->ref;
	info->pull_tip = d->tip;
	onlist_find_trailers(onlist_mail_body(m), add_trailer, &d->tr);
	info->trailers = d->tr.t;
	info->ntrailers = d->tr.n;
	info->mailer = onlist_mail_mailer(m);
	info->patchwork = onlist_mail_has_patchwork(m);
	info->upstream = names_upstream(onlist_mail_body(m));
	return d->tr.nomem ? ONLIST_ENOMEM : ONLIST_OK;
}

onlist_status onlist_import_message(struct onlist_store *s, const char *data,
				    size_t len, const char *list,
				    const char *place, uint64_t offset,
				    struct onlist_import_counts *c,
				    char **errmsg)
{
	struct onlist_mail *m = NULL;
	struct derived d;
	char *err = NULL;
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
	st = derive(&d, m, data, len);
	d.row.list = list;
	d.row.source = place;
	d.row.offset = offset;
	if (st == ONLIST_OK)
		st = onlist_store_put_message(s, &d.row, &added);
	if (st == ONLIST_OK)
		st = onlist_store_put_message_info(s, &d.info);
	if (st == ONLIST_OK && d.row.has_patch)
		st = put_patch(s, m, d.row.msgid, d.sj.stripped);
	if (st == ONLIST_OK) {
		c->added += added;
		c->patches += d.row.has_patch;
	}
	derived_clear(&d);
	onlist_mail_free(m);
	if (st == ONLIST_ENOMEM) {
		*errmsg = strdup("out of memory");
		return st;
	}
	if (st != ONLIST_OK)
		return db_error(s, errmsg);
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
