/* review_update.c - the review phase of `onlist match`
 * (onlist_review_update(), review.h): which commits are computed again
 * (all of them, or after new mail only those whose postings or topics
 * changed), the rows of each commit's topics gathered, review.c asked to
 * judge them, and the results handed to the store.  review.c decides a
 * commit's state; store_review.c reads and writes what this file asks
 * for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>

#include "onlist/msgmeta.h"
#include "onlist/review.h"
#include "onlist/store.h"
#include "onlist/store_review.h"

struct gtrailer {
	struct onlist_review_trailer t;
	const char *line;		/* "Key: value" */
};

struct build {
	struct onlist_store *s;
	GStringChunk *str;
	onlist_canon_fn canon;
	void *canon_data;
	onlist_bot_addr_fn is_bot;
	void *bot_data;
	GArray *tags;			/* struct onlist_review_tag */
	GArray *tag_seq;		/* int: message_trailers.seq of each */
	GHashTable *topic_tags;		/* topic -> GArray of tag indexes */
	GHashTable *members;		/* topic -> GArray of onlist_review_msg */
	GHashTable *replies;		/* topic -> GArray of onlist_review_reply */
	GHashTable *trailers;		/* sha -> GArray of struct gtrailer */
	int some;			/* 1: only the commits chosen */
	int list_end;			/* the store made where the lists end */
	const char *const *notice;	/* the rules file's notice patterns */
	size_t nnotice;
	struct onlist_review_counts *c;
};

static const char *intern(struct build *b, const char *v)
{
	return g_string_chunk_insert_const(b->str, v ? v : "");
}

static const char *canon(struct build *b, const char *addr)
{
	const char *c;

	if (!*addr || !b->canon || !(c = b->canon(addr, b->canon_data)))
		return addr;
	return g_string_chunk_insert_const(b->str, c);
}

/* "a\nb" with each line through canon() */
static const char *canon_lines(struct build *b, const char *lines)
{
	GString *o;
	gchar **v;

	if (!*lines || !b->canon)
		return lines;
	o = g_string_new(NULL);
	v = g_strsplit(lines, "\n", -1);
	for (gchar **p = v; *p; p++)
		g_string_append_printf(o, "%s%s", p == v ? "" : "\n",
				       canon(b, *p));
	g_strfreev(v);
	lines = g_string_chunk_insert_const(b->str, o->str);
	g_string_free(o, TRUE);
	return lines;
}

static GArray *bucket(GHashTable *h, const char *key, size_t elt)
{
	GArray *a = g_hash_table_lookup(h, key);

	if (!a) {
		a = g_array_new(FALSE, FALSE, (guint)elt);
		g_hash_table_insert(h, (gpointer)key, a);
	}
	return a;
}

/* Each review tag judged, kept by the topic it was given in, and
 * written back with the judgement. */
static onlist_status tag_row(const struct onlist_store_review_tag_row *r,
			     void *data)
{
	struct build *b = data;
	struct onlist_review_tag t;
	const char *topic = r->topic ? intern(b, r->topic) : NULL;
	guint k = b->tags->len;

	memset(&t, 0, sizeof t);
	t.msgid = intern(b, r->msgid);
	t.key = intern(b, r->key);
	t.name = intern(b, r->name);
	t.addr = canon(b, intern(b, r->addr));
	t.sender = canon(b, intern(b, r->sender));
	t.bot = r->echo ||
		(b->is_bot && *r->addr && b->is_bot(r->addr, b->bot_data));
	t.target = intern(b, r->target);
	t.target_from = canon(b, intern(b, r->target_from));
	t.target_codev = canon_lines(b, intern(b, r->target_codev));
	t.target_author = canon(b, intern(b, r->target_author));
	t.series_scope = r->series_scope;
	onlist_review_judge(&t);
	b->c->tags++;
	b->c->reviews += !t.why_not &&
			 onlist_review_kind(t.key) == ONLIST_TAG_REVIEW;
	g_array_append_val(b->tags, t);
	g_array_append_val(b->tag_seq, r->seq);
	if (topic)
		g_array_append_val(bucket(b->topic_tags, topic, sizeof(guint)), k);
	return onlist_store_review_put_tag(b->s, r, t.why_not);
}

static onlist_status member_row(const struct onlist_store_review_member *r,
				void *data)
{
	struct build *b = data;
	struct onlist_review_msg m;

	/* in a series and no patch: a cover letter, by its subject or by
	 * its place in the thread (thread.h) */
	if (r->cls && !strcmp(r->cls, "pull"))
		return ONLIST_OK;
	m.msgid = intern(b, r->msgid);
	m.series = intern(b, r->series);
	m.cover = r->cls && strcmp(r->cls, "patch");
	m.from = canon(b, intern(b, r->from));
	m.stripped = intern(b, r->stripped);
	m.posting = 0;
	m.linked = 0;
	m.author = canon(b, intern(b, r->author));
	m.codev = canon_lines(b, intern(b, r->codev));
	m.reply = r->reply;
	m.part = r->part;
	m.total = r->total;
	g_array_append_val(bucket(b->members, intern(b, r->topic), sizeof m), m);
	return ONLIST_OK;
}

static onlist_status reply_row(const struct onlist_store_review_reply_row *x,
			       void *data)
{
	struct build *b = data;
	struct onlist_review_reply r;

	r.target = intern(b, x->target);
	r.sender = canon(b, intern(b, x->sender));
	r.bot = x->echo;
	r.msgid = intern(b, x->msgid);
	/* the built-in patterns decided at import; a robot's notice
	 * (patchwork-bot) and the rules file's patterns need the text */
	r.notice = x->kind && (!strcmp(x->kind, "notice") ||
		   (!strcmp(x->kind, "discussion") && x->text &&
		    (b->nnotice || r.bot) &&
		    onlist_reply_is_notice(x->text, b->notice, b->nnotice,
					   r.bot)));
	g_array_append_val(bucket(b->replies, intern(b, x->topic), sizeof r), r);
	return ONLIST_OK;
}

static onlist_status trailer_row(const struct onlist_store_review_trailer_row *r,
				 void *data)
{
	struct build *b = data;
	struct gtrailer g;
	const char *v = r->value ? r->value : "";
	char *name = NULL, *addr = NULL, *line;

	if (onlist_split_ident(v, strlen(v), &name, &addr))
		return ONLIST_ENOMEM;
	g.t.key = intern(b, r->key);
	g.t.name = g_string_chunk_insert_const(b->str, name);
	g.t.addr = canon(b, g_string_chunk_insert_const(b->str, addr));
	g.t.bot = b->is_bot && *addr && b->is_bot(addr, b->bot_data);
	line = g_strdup_printf("%s: %s", g.t.key, v);
	g.line = g_string_chunk_insert_const(b->str, line);
	g_free(line);
	free(name);
	free(addr);
	g_array_append_val(bucket(b->trailers, intern(b, r->sha), sizeof g), g);
	return ONLIST_OK;
}

/* The topics of the commits to compute: their patches and cover
 * letters, the replies in them, and the commits' trailers in git. */
static onlist_status load_topics(struct build *b)
{
	onlist_status ret;

	if ((ret = onlist_store_review_members(b->s, b->some, member_row,
					       b)) != ONLIST_OK ||
	    (ret = onlist_store_review_replies(b->s, b->some, reply_row,
					       b)) != ONLIST_OK)
		return ret;
	return onlist_store_review_trailers(b->s, b->some, trailer_row, b);
}

/* sha's commit date and the end of its postings' archive (review.h's
 * `unknown`); 0 when not known. */
static onlist_status coverage(struct build *b, const char *sha,
			      int64_t *landed, int64_t *end)
{
	onlist_status ret;

	*landed = *end = 0;
	/* each list's last mail is a pass over the whole archive: made once,
	 * for the first commit that needs it, and not at all by a run whose
	 * commits carry no review tag in git */
	if (!b->list_end) {
		if ((ret = onlist_store_review_list_end(b->s)) != ONLIST_OK)
			return ret;
		b->list_end = 1;
	}
	return onlist_store_review_coverage(b->s, sha, landed, end);
}

/* Why the review is unknown, in a line (commit_review.why): "the
 * archive ends 2026-01-19, before the commit landed 2026-01-28; git
 * carries Acked-by: ...".  g_free() it. */
static char *unknown_why(const struct onlist_review_in *in, const char *line)
{
	char a[16], l[16];
	time_t ta = (time_t)in->archive_end, tl = (time_t)in->landed;
	struct tm tm;

	strftime(a, sizeof a, "%Y-%m-%d", gmtime_r(&ta, &tm));
	strftime(l, sizeof l, "%Y-%m-%d", gmtime_r(&tl, &tm));
	return g_strdup_printf("the archive ends %s, %s the commit landed %s;"
			       " git carries %s", a,
			       in->archive_end < in->landed ? "before" :
			       "less than a day after", l, line);
}

/* One commit: its postings' topics gathered, judged, written. */
static onlist_status one_commit(struct build *b, const char *sha,
				const char *author, const char *subject,
				GPtrArray *postings, GPtrArray *linked,
				GPtrArray *topics)
{
	GArray *msgs = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_msg));
	GArray *tags = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_tag));
	GArray *tagk = g_array_new(FALSE, FALSE, sizeof(guint));
	GArray *reps = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_reply));
	GArray *gt = g_hash_table_lookup(b->trailers, sha);
	GArray *trs = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_trailer));
	struct onlist_review_in in;
	struct onlist_review_out out;
	struct onlist_review_tally tally = { NULL, NULL, NULL };
	struct onlist_store_review_row row = { 0 };
	unsigned char *off, *counted = NULL;
	char *why = NULL;
	GString *off_text = g_string_new(NULL);
	onlist_status ret;

	for (guint i = 0; i < topics->len; i++) {
		const char *t = g_ptr_array_index(topics, i);
		GArray *a;

		if ((a = g_hash_table_lookup(b->members, t)))
			g_array_append_vals(msgs, a->data, a->len);
		if ((a = g_hash_table_lookup(b->replies, t)))
			g_array_append_vals(reps, a->data, a->len);
		if ((a = g_hash_table_lookup(b->topic_tags, t)))
			for (guint k = 0; k < a->len; k++) {
				guint ti = g_array_index(a, guint, k);

				g_array_append_val(tags, g_array_index(b->tags,
					struct onlist_review_tag, ti));
				g_array_append_val(tagk, ti);
			}
	}
	for (guint i = 0; i < msgs->len; i++) {
		struct onlist_review_msg *m =
			&g_array_index(msgs, struct onlist_review_msg, i);

		for (guint k = 0; k < postings->len && !m->posting; k++)
			m->posting = !strcmp(m->msgid, g_ptr_array_index(postings, k));
		m->linked = 0;
		for (guint k = 0; k < linked->len && !m->linked; k++)
			m->linked = !strcmp(m->msgid, g_ptr_array_index(linked, k));
	}
	for (guint i = 0; gt && i < gt->len; i++)
		g_array_append_val(trs, g_array_index(gt, struct gtrailer, i).t);
	off = g_malloc0(trs->len ? trs->len : 1);
	in.author = canon(b, author);
	in.subject = subject;
	in.trailers = (const struct onlist_review_trailer *)(void *)trs->data;
	in.ntrailers = trs->len;
	in.msgs = (const struct onlist_review_msg *)(void *)msgs->data;
	in.nmsgs = msgs->len;
	in.tags = (const struct onlist_review_tag *)(void *)tags->data;
	in.ntags = tags->len;
	in.replies = (const struct onlist_review_reply *)(void *)reps->data;
	in.nreplies = reps->len;
	/* where the archive ends matters only for a review tag in git
	 * (review.h: unknown); without one, landed 0 never makes it */
	in.landed = in.archive_end = 0;
	for (guint i = 0; i < trs->len; i++)
		if (onlist_review_kind(g_array_index(trs,
		    struct onlist_review_trailer, i).key) == ONLIST_TAG_REVIEW) {
			ret = coverage(b, sha, &in.landed, &in.archive_end);
			if (ret != ONLIST_OK)
				goto out;
			break;
		}
	out.off_list = off;
	counted = g_malloc0(reps->len ? reps->len : 1);
	out.counted = counted;
	if ((ret = onlist_review_commit(&in, &out)) != ONLIST_OK)
		goto out;
	if (out.notice >= 0 &&
	    (ret = onlist_store_review_put_notice(b->s, sha,
				g_array_index(reps, struct onlist_review_reply,
					      out.notice).msgid)) != ONLIST_OK)
		goto out;
	/* the replies lookup shows, by the same rule (review.c) */
	tally.replies = g_new0(int, msgs->len + 1);
	tally.repliers = g_new0(int, msgs->len + 1);
	tally.series_replies = g_new0(int, msgs->len + 1);
	if ((ret = onlist_review_tally(&in, counted, &tally)) != ONLIST_OK)
		goto out;
	for (guint i = 0; i < msgs->len; i++) {
		const struct onlist_review_msg *m =
			&g_array_index(msgs, struct onlist_review_msg, i);

		if (tally.series_replies[i] >= 0 &&
		    (ret = onlist_store_review_put_series_replies(b->s, sha,
					m->series, tally.series_replies[i]))
		    != ONLIST_OK)
			goto out;
		if (m->posting &&
		    (ret = onlist_store_review_put_posting(b->s, sha, m->msgid,
					tally.replies[i], tally.repliers[i]))
		    != ONLIST_OK)
			goto out;
	}
	for (guint i = 0; i < trs->len; i++)
		if (off[i])
			g_string_append_printf(off_text, "%s%s",
					       off_text->len ? "\n" : "",
					       g_array_index(gt, struct gtrailer, i).line);
	row.sha = sha;
	row.state = onlist_review_state_name(out.state);
	if (out.evidence >= 0) {
		guint ti = g_array_index(tagk, guint, out.evidence);

		row.evidence_msgid = g_array_index(b->tags,
					struct onlist_review_tag, ti).msgid;
		row.evidence_seq = g_array_index(b->tag_seq, int, ti);
	}
	row.naks = out.naks;
	row.off_list_tags = off_text->len ? off_text->str : NULL;
	if (out.untold >= 0)
		row.why = why = unknown_why(&in, g_array_index(gt,
					struct gtrailer, out.untold).line);
	if ((ret = onlist_store_review_put(b->s, &row)) != ONLIST_OK)
		goto out;
	b->c->commits++;
	b->c->computed++;
	b->c->state[out.state]++;
out:
	g_free(tally.replies);
	g_free(tally.repliers);
	g_free(tally.series_replies);
	g_free(off);
	g_free(counted);
	g_free(why);
	g_string_free(off_text, TRUE);
	g_array_free(msgs, TRUE);
	g_array_free(tags, TRUE);
	g_array_free(tagk, TRUE);
	g_array_free(reps, TRUE);
	g_array_free(trs, TRUE);
	return ret;
}

static void add_unique(GPtrArray *a, const char *v)
{
	for (guint i = 0; i < a->len; i++)
		if (!strcmp(g_ptr_array_index(a, i), v))
			return;
	g_ptr_array_add(a, (gpointer)v);
}

/* The rows of one commit come together (ordered by sha): gathered until
 * the next commit's first row. */
struct walk {
	struct build *b;
	GPtrArray *postings, *linked, *topics;
	const char *sha, *author, *subject;
};

static onlist_status commit_row(const struct onlist_store_review_posted *r,
				void *data)
{
	struct walk *w = data;
	struct build *b = w->b;
	const char *x = intern(b, r->sha);
	onlist_status ret;

	if (w->sha && strcmp(w->sha, x)) {
		if ((ret = one_commit(b, w->sha, w->author, w->subject,
				      w->postings, w->linked,
				      w->topics)) != ONLIST_OK)
			return ret;
		g_ptr_array_set_size(w->postings, 0);
		g_ptr_array_set_size(w->linked, 0);
		g_ptr_array_set_size(w->topics, 0);
	}
	w->sha = x;
	w->author = intern(b, r->author);
	w->subject = intern(b, r->subject);
	g_ptr_array_add(r->posted ? w->postings : w->linked,
			(gpointer)intern(b, r->msgid));
	if (r->topic)
		add_unique(w->topics, intern(b, r->topic));
	return ONLIST_OK;
}

static onlist_status each_commit(struct build *b)
{
	struct walk w = { b, g_ptr_array_new(), g_ptr_array_new(),
			  g_ptr_array_new(), NULL, "", "" };
	onlist_status ret;

	/* one_commit() writes while the store walks the commits: SQLite
	 * allows that (the rows written are not the ones read) */
	ret = onlist_store_review_commits(b->s, b->some, commit_row, &w);
	if (ret == ONLIST_OK && w.sha)
		ret = one_commit(b, w.sha, w.author, w.subject, w.postings,
				 w.linked, w.topics);
	g_ptr_array_free(w.postings, TRUE);
	g_ptr_array_free(w.linked, TRUE);
	g_ptr_array_free(w.topics, TRUE);
	return ret;
}

static void free_array(gpointer p)
{
	g_array_free(p, TRUE);
}

/* Whether only some commits are computed again: the thread build named
 * the topics it changed (meta review_dirty), the match tiers logged what
 * they changed (an incremental match run just before), the classes and the
 * addresses' canonical forms are those of the last review, and the table
 * holds rows when the last review wrote some (an upgrade that empties it
 * deletes meta review_rows too).  Its rows are not counted: a count read
 * every row at each run (5M x 1M: 10,800 pages, a fifth of the reviews'
 * reads after 1,000 new messages), and an older onlist that wrote the
 * table without review_rows cannot open a database of schema 26.  *some
 * 1: the store has chosen them; 0: all of them (nothing deleted yet). */
static onlist_status only_some(struct onlist_store *s, const char *canon_key,
			       int *some)
{
	char *dirty = onlist_store_get_meta(s, "review_dirty");
	char *was = onlist_store_get_meta(s, "review_canon");
	char *rows = onlist_store_get_meta(s, "review_rows");
	int logged = onlist_store_review_has_log(s);
	int any = onlist_store_review_any(s);
	onlist_status ret = ONLIST_OK;

	*some = 0;
	if (!dirty || !strcmp(dirty, "*") || !was || strcmp(was, canon_key) ||
	    !logged || !rows || any < 0 || (atol(rows) > 0) != any)
		goto out;
	if ((ret = onlist_store_review_some_begin(s)) != ONLIST_OK)
		goto out;
	for (char *p = dirty; *p;) {
		char *e = strchr(p, '\n');

		if (e)
			*e = '\0';
		if ((ret = onlist_store_review_some_topic(s, p)) != ONLIST_OK)
			goto out;
		if (!e)
			break;
		p = e + 1;
	}
	if ((ret = onlist_store_review_some_commits(s)) == ONLIST_OK)
		*some = 1;
out:
	free(dirty);
	free(was);
	free(rows);
	return ret;
}

static onlist_status state_row(const char *name, int64_t n, void *data)
{
	struct onlist_review_counts *c = data;

	for (int k = 0; k < ONLIST_REVIEW_NSTATES; k++)
		if (name && !strcmp(name, onlist_review_state_name(k)))
			c->state[k] += n;
	c->commits += n;
	return ONLIST_OK;
}

/* The counts of the last review, kept after its number of rows (meta
 * review_rows: the rows, then each state's): after new mail the states of
 * the commits computed again are counted as they were and as they are,
 * not every row's. */
static int kept_states(struct onlist_store *s, struct onlist_review_counts *c)
{
	char *v = onlist_store_get_meta(s, "review_rows");
	const char *p = v;
	int k = -1, used;

	if (p && sscanf(p, "%ld%n", &c->commits, &used) == 1)
		for (k = 0, p += used; k < ONLIST_REVIEW_NSTATES; k++, p += used)
			if (sscanf(p, "%ld%n", &c->state[k], &used) != 1)
				break;
	free(v);
	return k == ONLIST_REVIEW_NSTATES;
}

static onlist_status count_states(struct onlist_store *s, int some,
				  struct onlist_review_counts *c)
{
	struct onlist_review_counts was = { 0 }, now = { 0 }, kept = { 0 };
	onlist_status ret;

	c->commits = 0;
	memset(c->state, 0, sizeof(c->state));
	if (!some || !kept_states(s, &kept))
		return onlist_store_review_states(s, 0, state_row, c);
	if ((ret = onlist_store_review_states(s, 2, state_row, &was))
	    != ONLIST_OK ||
	    (ret = onlist_store_review_states(s, 1, state_row, &now))
	    != ONLIST_OK)
		return ret;
	c->commits = kept.commits - was.commits + now.commits;
	for (int k = 0; k < ONLIST_REVIEW_NSTATES; k++)
		c->state[k] = kept.state[k] - was.state[k] + now.state[k];
	return ONLIST_OK;
}

/* The tables rebuilt, once the commits to compute are chosen. */
static onlist_status rebuild(struct build *b, const char *canon_key,
			     long long maxid)
{
	struct onlist_store *s = b->s;
	onlist_status ret;
	char n[32 * (ONLIST_REVIEW_NSTATES + 1)];
	size_t len;

	/* the tags are few: always all of them */
	if ((ret = onlist_store_review_clear(s, !b->some)) != ONLIST_OK ||
	    (ret = onlist_store_review_links(s, b->some)) != ONLIST_OK ||
	    (ret = onlist_store_review_tags(s, tag_row, b)) != ONLIST_OK ||
	    (b->some && (ret = onlist_store_review_some_topics(s)) != ONLIST_OK) ||
	    (ret = load_topics(b)) != ONLIST_OK ||
	    (ret = each_commit(b)) != ONLIST_OK ||
	    (ret = count_states(s, b->some, b->c)) != ONLIST_OK ||
	    (ret = onlist_store_set_meta(s, "review_dirty", "")) != ONLIST_OK ||
	    (ret = onlist_store_set_meta(s, "review_canon", canon_key)) != ONLIST_OK)
		return ret;
	len = (size_t)snprintf(n, sizeof n, "%ld", b->c->commits);
	for (int k = 0; k < ONLIST_REVIEW_NSTATES; k++)
		len += (size_t)snprintf(n + len, sizeof n - len, " %ld",
					b->c->state[k]);
	if ((ret = onlist_store_set_meta(s, "review_rows", n)) != ONLIST_OK)
		return ret;
	snprintf(n, sizeof n, "%lld", maxid);
	return onlist_store_set_meta(s, "review_upto", n);
}

/* A key (topic, sha) -> GArray table of struct build. */
static GHashTable *topic_table(void)
{
	return g_hash_table_new_full(g_str_hash, g_str_equal, NULL, free_array);
}

onlist_status onlist_review_update(struct onlist_store *s,
				   onlist_canon_fn canon_fn, void *data,
				   const char *canon_key,
				   onlist_bot_addr_fn is_bot, void *bot_data,
				   const char *const *notice, size_t nnotice,
				   struct onlist_review_counts *c)
{
	struct build b = { 0 };
	struct onlist_review_counts dummy;
	onlist_status ret;
	GString *key = g_string_new(canon_key), *was_key = g_string_new(canon_key);
	int64_t nr[3];
	char *upto = onlist_store_get_meta(s, "review_upto");

	/* what the notices are decided by: the replies' kinds (more come
	 * with mail imported again) and the rules file's patterns; when
	 * that changes, every commit is computed again.  The kinds of the
	 * mails stored since the last review (ids above review_upto) are
	 * not counted in the comparison: their topics are the thread
	 * build's to name (new mail is in review_dirty) */
	ret = onlist_store_review_reply_counts(s, upto ? atoll(upto) : -1, nr);
	free(upto);
	if (ret != ONLIST_OK)
		goto out;
	g_string_append_printf(key, "\x1freplies %lld", (long long)nr[0]);
	g_string_append_printf(was_key, "\x1freplies %lld",
			       (long long)(nr[0] - nr[1]));
	for (size_t i = 0; i < nnotice; i++) {
		g_string_append_printf(key, "\x1fnotice %s", notice[i]);
		g_string_append_printf(was_key, "\x1fnotice %s", notice[i]);
	}
	if (!c)
		c = &dummy;
	memset(c, 0, sizeof *c);
	b = (struct build){
		.s = s, .c = c, .notice = notice, .nnotice = nnotice,
		.canon = canon_fn, .canon_data = data,
		.is_bot = is_bot, .bot_data = bot_data,
		.str = g_string_chunk_new(1 << 16),
		.tags = g_array_new(FALSE, FALSE, sizeof(struct onlist_review_tag)),
		.tag_seq = g_array_new(FALSE, FALSE, sizeof(int)),
		.topic_tags = topic_table(), .members = topic_table(),
		.replies = topic_table(), .trailers = topic_table(),
	};
	if ((ret = only_some(s, was_key->str, &b.some)) == ONLIST_OK)
		ret = rebuild(&b, key->str, (long long)nr[2]);
	g_hash_table_destroy(b.topic_tags);
	g_hash_table_destroy(b.members);
	g_hash_table_destroy(b.replies);
	g_hash_table_destroy(b.trailers);
	g_array_free(b.tags, TRUE);
	g_array_free(b.tag_seq, TRUE);
	g_string_chunk_free(b.str);
out:
	g_string_free(key, TRUE);
	g_string_free(was_key, TRUE);
	return ret;
}
