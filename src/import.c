/* import.c - messages from a source into the store. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>
#include <sys/stat.h>
#include <time.h>
#include <glib.h>

#include "onlist/import.h"
#include "onlist/mail.h"
#include "onlist/store.h"
#include "onlist/store_thread.h"
#include "onlist/subject.h"
#include "onlist/msgmeta.h"
#include "onlist/patchfp.h"
#include "onlist/store_fuzzy.h"
#include "onlist/store_schema.h"
#include "onlist/store_review.h"

#define MAX_TRAILERS 64	/* per message; the rest is noise */

struct trailers {
	struct onlist_msg_trailer t[MAX_TRAILERS];
	char *mem[MAX_TRAILERS * 3];
	int n, nomem;
};

/* Does "Change-Id:" (any case of the "id") occur in the raw mail?  It
 * is looked for in every mail, nearly always in vain: the colons are few
 * and memchr() finds them much faster than memmem() finds "hange-". */
static int has_change_id_tag(const char *data, size_t len)
{
	const char *p = data + 8, *end = data + len, *q;

	if (len < 9)
		return 0;
	while ((q = memchr(p, ':', (size_t)(end - p)))) {
		if (!memcmp(q - 8, "hange-", 6) && (q[-2] == 'i' || q[-2] == 'I') &&
		    q[-1] == 'd')
			return 1;
		p = q + 1;
	}
	return 0;
}
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

/* The review tags a reply quotes (msgmeta.h), for mail the archive lost */
#define MAX_QUOTED 16
struct quoted {
	struct onlist_quoted_tag t[MAX_QUOTED];
	int n, nomem;
};

static int add_quoted(const char *key, size_t keylen, const char *value,
		      size_t valuelen, const char *attrib, void *data)
{
	struct quoted *q = data;
	struct onlist_quoted_tag *t = &q->t[q->n];
	char *name, *addr;

	if (q->n == MAX_QUOTED)
		return 1;
	memset(t, 0, sizeof *t);
	if (!(t->key = strndup(key, keylen)) ||
	    !(t->value = strndup(value, valuelen)) ||
	    !(t->attrib = strdup(attrib)) ||
	    onlist_split_ident(value, valuelen, &name, &addr)) {
		free((char *)t->key);
		free((char *)t->value);
		free((char *)t->attrib);
		q->nomem = 1;
		return 1;
	}
	t->name = name;
	t->addr = addr;
	q->n++;
	return 0;
}

static void free_quoted(struct quoted *q)
{
	for (int i = 0; i < q->n; i++) {
		free((char *)q->t[i].key);
		free((char *)q->t[i].value);
		free((char *)q->t[i].attrib);
		free((char *)q->t[i].name);
		free((char *)q->t[i].addr);
	}
	q->n = 0;
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

/* What kind of message it is, from what its headers say: the subject,
 * whether it carries a patch, whether it answers another. */
static const char *class_by_headers(const struct onlist_subject *sj,
				    int has_patch, int answers)
{
	if (!sj->reply && sj->part == 0 && sj->total > 0)
		return ONLIST_CLASS_COVER;
	if (has_patch)
		return ONLIST_CLASS_PATCH;
	if (sj->reply || answers)
		return ONLIST_CLASS_REPLY;
	return ONLIST_CLASS_OTHER;
}

/* A "[GIT PULL]" subject without PATCH: a pull request even when the
 * text names no repository. */
static int subject_says_pull(const struct onlist_subject *sj)
{
	return !sj->reply && sj->pull && !sj->patch;
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
		if (pull == 0 && subject_says_pull(sj)) {
			*url = strdup("");
			*ref = strdup("");
			*tip = strdup("");
			pull = *url && *ref && *tip ? 1 : -1;
		}
		if (pull == 1)
			return ONLIST_CLASS_PULL;
	}
	return class_by_headers(sj, has_patch, *onlist_mail_in_reply_to(m) ||
				*onlist_mail_references(m));
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
		if ((*q | 0x20) != 'c' && (*q | 0x20) != 'u')
			continue;	/* neither mark: most lines */
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
	int has_rid;

	if (onlist_patchfp_compute_id(patch, len, &fp, rid, &has_rid))
		return ONLIST_ENOMEM;
	if (asprintf(&text, "%s\n%s", stripped, onlist_mail_body(m)) < 0 ||
	    onlist_words_fp(text, &words, &nwords)) {
		onlist_patchfp_release(&fp);
		return ONLIST_ENOMEM;
	}
	free(text);
	memset(&r, 0, sizeof(r));
	r.key = msgid;
	r.repaired_id = has_rid ? rid : NULL;
	r.fp = fp.h;
	r.nfp = fp.n;
	r.words = words;
	r.nwords = nwords;
	r.files = fp.files;
	r.added = (long)fp.added;
	r.removed = (long)fp.removed;
	st = onlist_store_fuzzy_put_message_patch(s, &r);
	onlist_patchfp_release(&fp);
	free(words);
	return st;
}

/* What import keeps of one parsed message: its messages row (but for
 * list, source and offset, which say where it was read) and its
 * message_info with trailers and pull request. */
struct derived {
	struct onlist_message_row row;
	struct onlist_message_info info;
	struct onlist_subject sj;
	struct trailers tr;
	struct quoted qt;
	char pid[ONLIST_PATCHID_HEXSZ + 1];
	char *url, *ref, *tip, *cid;
	char *author_name, *author_addr;	/* in-body From */
	char *own;				/* a reply's own text */
	char qid[ONLIST_PATCHID_HEXSZ + 1], qrid[ONLIST_PATCHID_HEXSZ + 1];
};

static void derived_clear(struct derived *d)
{
	free_trailers(&d->tr);
	free_quoted(&d->qt);
	free(d->url);
	free(d->ref);
	free(d->tip);
	free(d->cid);
	free(d->author_name);
	free(d->author_addr);
	free(d->own);
	onlist_subject_release(&d->sj);
}

/* What a reply says (msgmeta.h): a review tag, a NAK, an applied notice
 * or discussion; its own text is kept when it is a few short lines, for
 * the notice patterns a rules file adds at match time. */
#define REPLY_TEXT_KEEP 400
static onlist_status reply_kind(struct derived *d, struct onlist_mail *m)
{
	struct onlist_message_info *info = &d->info;
	int more = 0, nak = 0, tag = 0, lines = 0, nomem = 0;
	char *q;

	/* a "Re:" with a diff ("how about this") gets a row only for its
	 * tags: whether they are for the whole series ("For all 12:") */
	int sketch = !strcmp(info->cls, ONLIST_CLASS_PATCH) && info->reply;

	if (strcmp(info->cls, ONLIST_CLASS_REPLY) && strcmp(info->cls, ONLIST_CLASS_OTHER) &&
	    !sketch)
		return ONLIST_OK;
	for (int k = 0; k < d->tr.n; k++) {
		const char *key = d->tr.t[k].key;

		if (!strcasecmp(key, "nacked-by") || !strcasecmp(key, "nak"))
			nak = 1;
		else if (onlist_trailer_is_review(key, strlen(key)))
			tag = 1;
	}
	if (sketch) {
		if (tag || nak)
			info->reply_kind = !tag ? "nak" :
				onlist_reply_series_scope(onlist_mail_body(m)) ?
				"series-tag" : "tag";
		return ONLIST_OK;
	}
	if (!(d->own = onlist_reply_own_text(onlist_mail_body(m), &more)))
		return ONLIST_ENOMEM;
	/* tags it quotes: review given in a mail the archive may have lost */
	onlist_find_quoted_trailers(onlist_mail_body(m), add_quoted, &d->qt);
	if (d->qt.nomem)
		return ONLIST_ENOMEM;
	for (const char *p = d->own; *p; p++)
		lines += *p == '\n';
	info->reply_kind = tag ? (onlist_reply_series_scope(onlist_mail_body(m)) ?
				  "series-tag" : "tag") : nak ? "nak" :
			   onlist_reply_is_notice(d->own, NULL, 0, 0) ? "notice" :
			   "discussion";
	if (!more && lines < 8 && strlen(d->own) <= REPLY_TEXT_KEEP)
		info->reply_text = d->own;
	/* a diff it quotes: the posting, when the archive lost the mail
	 * answered (match's `quoted` tier).  Only below a few lines of its
	 * own ("Committed, thanks."): a maintainer's receipt quotes the
	 * whole patch, while a review's comments cut it, and hashing every
	 * quote made import of reply-heavy mail a third slower */
	if (info->reply_text &&
	    (q = onlist_quoted_diff(onlist_mail_body(m), &nomem))) {
		unsigned char raw[ONLIST_PATCHID_RAWSZ];

		if (onlist_patchid_buf(q, strlen(q), raw)) {
			onlist_patchid_hex(raw, d->qid);
			info->quoted_id = d->qid;
		}
		if (onlist_patch_repaired_id(q, strlen(q), d->qrid))
			info->quoted_repaired = d->qrid;
		free(q);
	}
	return nomem ? ONLIST_ENOMEM : ONLIST_OK;
}

/* Fill d from m (data, len: the message as sent).  ONLIST_ENOMEM; d is
 * to be cleared with derived_clear() either way. */
static onlist_status derive(struct derived *d, struct onlist_mail *m,
			    const char *data, size_t len)
{
	struct onlist_message_row *row = &d->row;
	struct onlist_message_info *info = &d->info;
	const char *ib;
	onlist_status st;

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
	if (!d->cid && has_change_id_tag(data, len)) {
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
	if ((st = reply_kind(d, m)) != ONLIST_OK)
		return st;
	info->mailer = onlist_mail_mailer(m);
	info->patchwork = onlist_mail_has_patchwork(m);
	info->upstream = names_upstream(onlist_mail_body(m));
	/* who wrote it, when someone else posts it (git am's author) */
	if ((ib = onlist_mail_inbody(m, "From")) &&
	    onlist_split_ident(ib, strlen(ib), &d->author_name, &d->author_addr))
		return ONLIST_ENOMEM;
	if (d->author_addr && *d->author_addr) {
		info->author_name = d->author_name;
		info->author_addr = d->author_addr;
	}
	return d->tr.nomem ? ONLIST_ENOMEM : ONLIST_OK;
}

/* What makes two mails of one Message-ID one mail: what its author
 * wrote -- the sender, Date, Subject, In-Reply-To and References as onlist
 * reads them, and the body byte for byte (CRs and the line ends at its
 * end aside).  Not the
 * other header fields: the same mail delivered twice, or through two
 * lists, comes with other Received:, List-*, Delivered-To, DKIM and
 * Archived-At fields, and is still one mail.  A list that rewrites the
 * body (a footer) makes its copy another mail: kept apart, which costs a
 * row, never a verdict.  hex: SHA-256, 64 hex digits. */
static int content_hash(const struct onlist_message_row *row, const char *data,
			size_t len, char hex[65])
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	const char *fields[] = { row->from_addr, row->subject, row->in_reply_to,
				 row->refs };
	const char *p = data, *end = data + len, *body = data;
	char date[32];

	if (!sum)
		return -1;
	/* the body begins after the first empty line */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl) {
			body = end;
			break;
		}
		if (nl == p || (nl == p + 1 && *p == '\r')) {
			body = nl + 1;
			break;
		}
		p = nl + 1;
		body = end;
	}
	/* an mbox ends a message with the blank line before the next
	 * From_ line, a maildir file may not: trailing line ends aside */
	while (end > body && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	snprintf(date, sizeof(date), "%lld\n", (long long)row->date);
	g_checksum_update(sum, (const guchar *)date, -1);
	for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++) {
		g_checksum_update(sum, (const guchar *)(fields[i] ? fields[i] : ""), -1);
		g_checksum_update(sum, (const guchar *)"\n", 1);
	}
	for (p = body; p < end;) {
		const char *cr = memchr(p, '\r', (size_t)(end - p));
		const char *stop = cr ? cr : end;

		g_checksum_update(sum, (const guchar *)p, (gssize)(stop - p));
		p = cr ? cr + 1 : end;
	}
	snprintf(hex, 65, "%s", g_checksum_get_string(sum));
	g_checksum_free(sum);
	return 0;
}

/* The date of an mbox From_ line ("SENDER Www Mmm dd hh:mm:ss yyyy"), in
 * UTC as the line gives no zone; 0 when it has none or a placeholder:
 * public-inbox writes "Thu Jan  1 00:00:00 1970", git format-patch
 * "Mon Sep 17 00:00:00 2001". */
int64_t onlist_import_from_line_date(const char *from_line)
{
	const char *sp = from_line ? strchr(from_line, ' ') : NULL;
	struct tm tm;
	char *end;
	time_t t;

	if (!sp)
		return 0;
	memset(&tm, 0, sizeof(tm));
	end = strptime(sp + 1, "%a %b %d %H:%M:%S %Y", &tm);
	if (!end)
		return 0;
	t = timegm(&tm);
	if (t <= 86400 || t == 1000684800)
		return 0;
	return (int64_t)t;
}

onlist_status onlist_import_message_at(struct onlist_store *s,
				       const char *data, size_t len,
				       const char *list, const char *place,
				       uint64_t offset, int64_t received,
				       const char *received_how,
				       struct onlist_import_counts *c,
				       char **errmsg)
{
	struct onlist_mail *m = NULL;
	struct derived d;
	char *err = NULL, *key = NULL, hash[65];
	const char *id;
	onlist_status st;
	int added = 0, dup = 0;
	int64_t mark;
	int64_t hop;

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
			return onlist_store_fail(s, errmsg);
		c->skipped++;
		return ONLIST_OK;
	}
	st = derive(&d, m, data, len);
	d.row.list = list;
	d.row.source = place;
	d.row.offset = offset;
	/* the earliest of the upper bounds known: the archive's, the last
	 * server's */
	hop = onlist_mail_received(data, len);
	d.row.received = received > 0 ? received : 0;
	d.row.received_how = received > 0 ? received_how : NULL;
	if (hop > 0 && (!d.row.received || hop < d.row.received)) {
		d.row.received = hop;
		d.row.received_how = "header";
	}
	id = d.row.msgid;
	if (st == ONLIST_OK && content_hash(&d.row, data, len, hash) < 0)
		st = ONLIST_ENOMEM;
	d.row.content_hash = hash;
	if (st == ONLIST_OK)
		st = onlist_store_put_message(s, &d.row, &added, &key, &dup);
	/* Every row of this mail goes under its own key: one mail's headers
	 * never describe another's patch. */
	if (st == ONLIST_OK)
		d.row.msgid = d.info.msgid = key;
	mark = onlist_store_edit_mark(s);
	if (st == ONLIST_OK)
		st = onlist_store_thread_put_message_info(s, &d.info);
	if (st == ONLIST_OK && d.qt.n)
		st = onlist_store_review_put_quoted_tags(s, d.info.msgid, d.qt.t,
						  (size_t)d.qt.n);
	if (st == ONLIST_OK && d.row.has_patch)
		st = put_patch(s, m, d.row.msgid, d.sj.stripped);
	/* a copy of a message gave it rows it lacked */
	if (st == ONLIST_OK && !added)
		st = onlist_store_edit_since(s, mark);
	if (st == ONLIST_OK && dup && added)
		st = onlist_store_put_skip(s, place, offset, "another mail with "
					   "a Message-ID seen before: both kept, "
					   "this one apart", NULL);
	if (st == ONLIST_OK && key && strcmp(key, id))
		st = onlist_store_settle_message(s, id);
	if (st == ONLIST_OK) {
		c->added += added;
		c->patches += d.row.has_patch;
	}
	free(key);
	derived_clear(&d);
	onlist_mail_free(m);
	if (st == ONLIST_ENOMEM)
		return onlist_fail(errmsg, st, "out of memory");
	if (st != ONLIST_OK)
		return onlist_store_fail(s, errmsg);
	return ONLIST_OK;
}

onlist_status onlist_import_message(struct onlist_store *s, const char *data,
				    size_t len, const char *list,
				    const char *place, uint64_t offset,
				    struct onlist_import_counts *c,
				    char **errmsg)
{
	return onlist_import_message_at(s, data, len, list, place, offset, 0,
					NULL, c, errmsg);
}

/* A maildir file's key in the database (skipped, messages.source): its
 * folder's real path and its own name, so that "mq", "./mq" and "mq/"
 * record one file once, as an mbox is recorded by its real path.  The
 * file itself is not resolved: a link is recorded as the link. */
static const char *file_key(const char *file, char *buf)
{
	const char *slash = strrchr(file, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	if (!slash || (size_t)(slash - file) >= sizeof(dir))
		return file;
	memcpy(dir, file, (size_t)(slash - file));
	dir[slash - file] = '\0';
	if (!realpath(*dir ? dir : "/", real) ||
	    snprintf(buf, PATH_MAX + NAME_MAX + 2, "%s%s", real, slash) >=
	    PATH_MAX + NAME_MAX + 2)
		return file;
	return buf;
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
		char *err = NULL, key[PATH_MAX + NAME_MAX + 2];
		const char *where;

		if (!in_batch && onlist_store_begin(s) != ONLIST_OK)
			return onlist_store_fail(s, errmsg);
		memset(&raw, 0, sizeof(raw));
		st = onlist_source_next(src, &raw, &err);
		if (st == ONLIST_ENOTFOUND) {
			free(err);
			break;
		}
		where = raw.file ? file_key(raw.file, key) : place;
		if (st != ONLIST_OK) {
			/* The input itself broke: keep what was read, record
			 * where it broke, and report it.  A maildir file that
			 * cannot be opened is one message lost, not the rest. */
			const char *why = err ? err : onlist_status_str(st);
			/* A maildir names the file that failed; an mbox broke
			 * just after the last message read. */
			if (onlist_store_put_skip(s, where,
						  raw.file ? 0 : last_offset + 1,
						  why, NULL) != ONLIST_OK) {
				free(err);
				ret = onlist_store_fail(s, errmsg);
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
			if (onlist_store_put_skip(s, where,
						  raw.offset, raw.skip,
						  NULL) != ONLIST_OK) {
				ret = onlist_store_fail(s, errmsg);
				break;
			}
			c->skipped++;
			in_batch++;
			continue;
		}
		st = onlist_import_message_at(s, raw.data, raw.len, list,
					      where, raw.offset,
					      onlist_import_from_line_date(raw.from_line),
					      "mbox", c, errmsg);
		if (st != ONLIST_OK) {
			ret = st;
			break;
		}
		if (++in_batch >= ONLIST_IMPORT_SOURCE_BATCH) {
			in_batch = 0;
			if (onlist_store_commit(s) != ONLIST_OK) {
				*c = kept;
				st = onlist_store_fail(s, errmsg);
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
		st = onlist_store_fail(s, errmsg);
		onlist_store_rollback(s);
		return st;
	}
	if (ret == ONLIST_EIO)
		onlist_set_err(errmsg, "some maildir files could not be read");
	return ret;
}

/* ---- what an upgraded database owes (store_schema.h) -------------------- */

/* A source the backfill may read: a file or directory that still exists.
 * Not standard input, a URL, an epoch's "dir#commit", nor a FIFO or
 * device (a database names the paths it was given; reading them must not
 * block). */
static int readable_source(const char *source)
{
	struct stat sb;

	return strcmp(source, "-") && stat(source, &sb) == 0 &&
	       (S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode));
}

static int take_string(const char *str, void *data)
{
	g_ptr_array_add(data, g_strdup(str));
	return 0;
}

/* msgid -> 2 when message_info is owed, else 1 */
static int take_owed(const char *msgid, int needs_info, void *data)
{
	g_hash_table_insert(data, g_strdup(msgid),
			    GINT_TO_POINTER(needs_info ? 2 : 1));
	return 0;
}

/* Write what import would have of one message read again. */
static onlist_status refill(struct onlist_store *s, struct onlist_mail *m,
			    const struct onlist_raw *raw, int needs_info)
{
	struct derived d;
	onlist_status st = derive(&d, m, raw->data, raw->len);
	int64_t mark = onlist_store_edit_mark(s);

	/* known message_info stays as it is; the in-body author, which no
	 * onlist before schema 10 kept, is added either way */
	if (st == ONLIST_OK)
		st = onlist_store_thread_put_message_info(s, &d.info);
	if (st == ONLIST_OK && d.qt.n)
		st = onlist_store_review_put_quoted_tags(s, d.info.msgid, d.qt.t,
						  (size_t)d.qt.n);
	/* Imported before classes: a cover letter or pull request may be
	 * stored as a patch.  The row gets the patch columns import gives
	 * it now. */
	if (st == ONLIST_OK && needs_info)
		st = onlist_store_schema_set_message_patch(s, d.row.msgid,
						    d.row.has_patch,
						    d.row.patch_id,
						    d.row.patch_source);
	if (st == ONLIST_OK && d.row.has_patch)
		st = put_patch(s, m, d.row.msgid, d.sj.stripped);
	if (st == ONLIST_OK)
		st = onlist_store_edit_since(s, mark);
	derived_clear(&d);
	return st;
}

/* Read one source again for the messages of it that are owed rows. */
static onlist_status backfill_source(struct onlist_store *s, const char *path,
				     struct onlist_backfill_counts *c)
{
	GHashTable *owed = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	struct onlist_source *src = NULL;
	onlist_status st;
	long in_batch = 0;
	char *err = NULL;

	st = onlist_store_schema_backfill_owed(s, path, take_owed, owed);
	if (st != ONLIST_OK || !g_hash_table_size(owed))
		goto out;
	if (onlist_source_open(&src, path, &err) != ONLIST_OK) {
		/* gone or changed into something else: the headers will do */
		free(err);
		c->sources_unreadable++;
		goto out;
	}
	if ((st = onlist_store_begin(s)) != ONLIST_OK)
		goto out;
	while (g_hash_table_size(owed)) {
		struct onlist_raw raw;
		struct onlist_mail *m = NULL;
		gpointer key, val;
		onlist_status r;

		memset(&raw, 0, sizeof(raw));
		r = onlist_source_next(src, &raw, &err);
		free(err);
		err = NULL;
		if (r == ONLIST_EIO && raw.file)
			continue;	/* one maildir file: the next */
		if (r != ONLIST_OK)
			break;		/* the end, or a broken stream */
		if (raw.skip || onlist_mail_parse(&m, raw.data, raw.len,
						  &err) != ONLIST_OK) {
			free(err);
			err = NULL;
			continue;
		}
		/* The first copy in the source is the one import kept. */
		if (!g_hash_table_lookup_extended(owed, onlist_mail_message_id(m),
						  &key, &val)) {
			onlist_mail_free(m);
			continue;
		}
		st = refill(s, m, &raw, GPOINTER_TO_INT(val) == 2);
		g_hash_table_remove(owed, onlist_mail_message_id(m));
		onlist_mail_free(m);
		if (st != ONLIST_OK)
			break;
		c->reread++;
		if (++in_batch >= ONLIST_IMPORT_BATCH) {
			in_batch = 0;
			if ((st = onlist_store_commit(s)) != ONLIST_OK ||
			    (st = onlist_store_begin(s)) != ONLIST_OK)
				break;
		}
	}
	if (st == ONLIST_OK)
		st = onlist_store_commit(s);
	if (st != ONLIST_OK)
		onlist_store_rollback(s);
out:
	onlist_source_free(src);
	g_hash_table_destroy(owed);
	return st;
}

struct headers_row {
	int64_t id;
	char *msgid, *subject, *irt, *refs;
	int has_patch;
};

static int take_headers(const struct onlist_stored_headers *h, void *data)
{
	struct headers_row r;

	r.id = h->id;
	r.msgid = g_strdup(h->msgid);
	r.subject = g_strdup(h->subject);
	r.irt = g_strdup(h->in_reply_to);
	r.refs = g_strdup(h->refs);
	r.has_patch = h->has_patch;
	g_array_append_val(data, r);
	return 0;
}

static void clear_headers_row(gpointer p)
{
	struct headers_row *r = p;

	g_free(r->msgid);
	g_free(r->subject);
	g_free(r->irt);
	g_free(r->refs);
}

/* message_info from the stored headers alone, for a message whose mail
 * could not be read again: class, version, part, total, prefix and
 * subject as import would find them; no trailers, change-id, mailer or
 * pull request URL (NULL or 0: unknown). */
static onlist_status from_headers(struct onlist_store *s,
				  const struct headers_row *r)
{
	struct onlist_message_info info;
	struct onlist_subject sj;
	onlist_status st;
	int64_t mark;

	if (onlist_subject_parse(&sj, r->subject))
		return ONLIST_ENOMEM;
	memset(&info, 0, sizeof(info));
	info.msgid = r->msgid;
	if (subject_says_pull(&sj)) {
		info.cls = ONLIST_CLASS_PULL;
		info.pull_url = info.pull_ref = info.pull_tip = "";
	} else {
		info.cls = class_by_headers(&sj, r->has_patch, *r->irt || *r->refs);
	}
	info.reply = sj.reply;
	info.version = sj.version;
	info.part = sj.part;
	info.total = sj.total;
	info.prefix = sj.prefix;
	info.stripped = sj.stripped;
	mark = onlist_store_edit_mark(s);
	st = onlist_store_thread_put_message_info(s, &info);
	if (st == ONLIST_OK && r->has_patch &&
	    strcmp(info.cls, ONLIST_CLASS_PATCH))
		st = onlist_store_schema_set_message_patch(s, r->msgid, 0, NULL, NULL);
	if (st == ONLIST_OK)
		st = onlist_store_edit_since(s, mark);
	onlist_subject_release(&sj);
	return st;
}

static onlist_status backfill_headers(struct onlist_store *s,
				      struct onlist_backfill_counts *c)
{
	GArray *rows = g_array_new(FALSE, FALSE, sizeof(struct headers_row));
	int64_t after = 0;
	onlist_status st = ONLIST_OK;

	g_array_set_clear_func(rows, clear_headers_row);
	/* In batches read whole before writing: the query reads the table
	 * the writes change. */
	for (;;) {
		g_array_set_size(rows, 0);
		st = onlist_store_schema_backfill_without_info(s, after,
					ONLIST_IMPORT_BATCH, take_headers, rows);
		if (st != ONLIST_OK || !rows->len)
			break;
		if ((st = onlist_store_begin(s)) != ONLIST_OK)
			break;
		for (guint i = 0; i < rows->len && st == ONLIST_OK; i++) {
			st = from_headers(s, &g_array_index(rows, struct headers_row, i));
			c->from_headers += st == ONLIST_OK;
		}
		after = g_array_index(rows, struct headers_row, rows->len - 1).id;
		if (st == ONLIST_OK)
			st = onlist_store_commit(s);
		if (st != ONLIST_OK) {
			onlist_store_rollback(s);
			break;
		}
	}
	g_array_free(rows, TRUE);
	return st;
}

onlist_status onlist_import_backfill(struct onlist_store *s,
				     struct onlist_backfill_counts *c,
				     char **errmsg)
{
	GPtrArray *sources = g_ptr_array_new_with_free_func(g_free);
	onlist_status st;

	memset(c, 0, sizeof(*c));
	*errmsg = NULL;
	if (!onlist_store_schema_backfill_pending(s)) {
		g_ptr_array_free(sources, TRUE);
		return ONLIST_OK;
	}
	st = onlist_store_schema_backfill_sources(s, take_string, sources);
	for (guint i = 0; i < sources->len && st == ONLIST_OK; i++) {
		const char *path = g_ptr_array_index(sources, i);

		if (readable_source(path))
			st = backfill_source(s, path, c);
		else
			c->sources_unreadable++;
	}
	g_ptr_array_free(sources, TRUE);
	if (st == ONLIST_OK)
		st = backfill_headers(s, c);
	if (st == ONLIST_OK && (st = onlist_store_begin(s)) == ONLIST_OK) {
		if ((st = onlist_store_schema_backfill_done(s)) == ONLIST_OK)
			st = onlist_store_commit(s);
		if (st != ONLIST_OK)
			onlist_store_rollback(s);
	}
	if (st == ONLIST_ENOMEM)
		return onlist_fail(errmsg, st, "out of memory");
	if (st != ONLIST_OK)
		return onlist_fail(errmsg, st, "%s", onlist_store_errmsg(s));
	return st;
}
