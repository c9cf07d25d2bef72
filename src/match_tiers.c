/* match_tiers.c - the link tier and the subject tier of onlist match
 * (match.h), with what --explain shows of them (match_int.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <glib.h>

#include "onlist/match.h"
#include "onlist/print.h"
#include "onlist/patchfp.h"
#include "onlist/repo.h"
#include "onlist/repo_diff.h"
#include "onlist/store.h"
#include "onlist/store_review.h"
#include "onlist/subject.h"
#include "match_int.h"

/* ---- the link tier ---------------------------------------------------- */

/* Whether two lists of paths, one a line, name one path both. */
static int share_a_file(const char *a, const char *b)
{
	GHashTable *h = g_hash_table_new(g_str_hash, g_str_equal);
	gchar **va = g_strsplit(a, "\n", -1), **vb = g_strsplit(b, "\n", -1);
	int hit = 0;

	for (gchar **p = va; *p; p++)
		if (**p)
			g_hash_table_add(h, *p);
	for (gchar **p = vb; *p && !hit; p++)
		hit = **p && g_hash_table_contains(h, *p);
	g_hash_table_destroy(h);
	g_strfreev(va);
	g_strfreev(vb);
	return hit;
}

/* Whether the commit's subject and the mail's are the same by the subject
 * tier's key; -1 when out of memory. */
static int same_subject_key(const char *commit_subject, const char *stripped)
{
	struct onlist_subject sj;
	char *a, *b;
	int same;

	if (onlist_subject_parse(&sj, commit_subject ? commit_subject : ""))
		return -1;
	a = onlist_subject_key(sj.stripped);
	b = onlist_subject_key(stripped ? stripped : "");
	onlist_subject_release(&sj);
	same = a && b ? *a && !strcmp(a, b) : -1;
	free(a);
	free(b);
	return same;
}

/* A Link: trailer names the commit's posting, or the cover letter of its
 * series; on a list that several projects share it may also name another
 * project's patch the commit follows (liburing commits link the kernel
 * patches whose feature they add).  A linked patch that touches none of
 * the commit's files and has another subject is no posting of it: the
 * commit goes on to the other tiers.  A cover letter touches no file and
 * names the series: taken as it is.  Without the files of both sides
 * nothing says the patch is another one: taken. */
int onlist__match_link_fits(const struct onlist_link_row *r, void *data)
{
	int *oom = data, same;

	if (r->cover || !r->commit_files || !*r->commit_files ||
	    !r->mail_files || !*r->mail_files ||
	    share_a_file(r->commit_files, r->mail_files))
		return 1;
	if ((same = same_subject_key(r->commit_subject, r->mail_stripped)) < 0)
		*oom = 1;
	return same != 0;
}

/* The author-date tier's key (sender and Date to the second) is
 * the sender's word: anyone can post a mail From the author dated the
 * author date.  It is taken when the mail also shows something of the
 * commit: a file both change, or the subject.  git am keeps both, and
 * a rewrite on the way in seldom changes both. */
int onlist__match_author_date_fits(const struct onlist_link_row *r, void *data)
{
	int *oom = data, same;

	if (r->commit_files && *r->commit_files && r->mail_files &&
	    *r->mail_files && share_a_file(r->commit_files, r->mail_files))
		return 1;
	if ((same = same_subject_key(r->commit_subject, r->mail_stripped)) < 0)
		*oom = 1;
	return same > 0;
}

onlist_status onlist_match_link_taken(struct onlist_store *s, const char *sha,
				      const char *msgid, int *taken,
				      char **errmsg)
{
	int oom = 0;

	*errmsg = NULL;
	/* the link tier is bounded by landing: the landings and received
	 * times as they are now (lookup --remote adds both as it goes) */
	if (onlist_store_match_compute_bounds(s) != ONLIST_OK ||
	    onlist_store_match_link_mail(s, sha, msgid, onlist__match_link_fits, &oom,
				   taken) != ONLIST_OK)
		return onlist_store_fail(s, errmsg);
	if (oom) {
		return onlist_fail(errmsg, ONLIST_ENOMEM, "out of memory");
	}
	return ONLIST_OK;
}

struct link_explain {
	GArray *links;		/* struct onlist_explain_link */
	int oom;
};

/* --explain: each linked patch the link tier refuses, and why. */
static int explain_link(const struct onlist_link_row *r, void *data)
{
	struct link_explain *x = data;
	struct onlist_explain_link l;
	gchar **files;
	guint n = 0;

	if (onlist__match_link_fits(r, &x->oom) || x->oom)
		return 0;
	files = g_strsplit(r->mail_files, "\n", -1);
	for (gchar **p = files; *p; p++)	/* drop the empty ones */
		if (**p)
			files[n++] = *p;
		else
			g_free(*p);
	files[n] = NULL;
	l.msgid = g_strdup(r->msgid);
	l.subject = g_strdup(r->mail_stripped);
	l.files = files;
	g_array_append_val(x->links, l);
	return 0;
}

onlist_status onlist__explain_links(struct onlist_store *s, const char *sha,
				   struct onlist_explain *out)
{
	struct link_explain x = {
		g_array_new(FALSE, FALSE, sizeof(struct onlist_explain_link)), 0
	};
	onlist_status st = onlist_store_match_links_of(s, sha, explain_link, &x);

	out->nlinks = x.links->len;
	out->links = (struct onlist_explain_link *)g_array_free(x.links, FALSE);
	return st == ONLIST_OK && x.oom ? ONLIST_ENOMEM : st;
}

/* ---- the subject tier ------------------------------------------------ */

/* The same subject (onlist_subject_key) from the commit's author, on a
 * mail that carries a diff no commit has yet, sent within a year before
 * the commit's author date and no later than a day after it landed.  When
 * the mails that qualify carry different diffs, none is taken: two patches
 * under one subject are not told apart by their subject.  Both sides are
 * read once and joined here on "address NL key": no SQL function runs per
 * pair, and the cost is one pass over the unmatched commits and one over
 * the patch mails. */
#define SUBJECT_BEFORE (365 * 86400)

struct subj_commit {
	char sha[41];
	int64_t adate, bound;	/* bound 0: landing unknown */
	GPtrArray *msgids;	/* the mails that qualify */
	GPtrArray *diffs;	/* their distinct patch-ids */
};

struct subj_ctx {
	GHashTable *by_key;	/* "addr\nkey" -> GPtrArray of subj_commit */
	GHashTable *addrs;	/* the commits' author addresses: a mail from
				 * anyone else is passed over unparsed */
	GPtrArray *commits;	/* owns the subj_commits */
	/* after new mail: the "addr\nkey" a new mail, or one an earlier
	 * tier took or gave back, has; only the commits of these keys (or
	 * marked by the store) are read, the others keep their matches */
	GHashTable *dirty_keys;
	int oom;
};

static void subj_commit_free(void *p)
{
	struct subj_commit *c = p;

	g_ptr_array_free(c->msgids, TRUE);
	g_ptr_array_free(c->diffs, TRUE);
	g_free(c);
}

/* "addr\nkey" for a stripped subject, or NULL (out of memory, or a
 * subject with nothing to compare: all punctuation or empty). */
static char *subj_hash_key(const char *addr, const char *stripped)
{
	char *k = onlist_subject_key(stripped), *hk = NULL;

	if (k && *k)
		hk = g_strdup_printf("%s\n%s", addr, k);
	free(k);
	return hk;
}

static int subj_commit_row(const struct onlist_subject_commit_row *c,
			   void *data)
{
	struct subj_ctx *x = data;
	struct onlist_subject sj;
	struct subj_commit *sc;
	GPtrArray *l;
	char *hk;

	if (!c->sha || !c->subject || !c->author || strlen(c->sha) > 40)
		return 0;
	if (onlist_subject_parse(&sj, c->subject)) {
		x->oom = 1;
		return 1;
	}
	hk = subj_hash_key(c->author, sj.stripped);
	onlist_subject_release(&sj);
	if (!hk)
		return 0;
	if (x->dirty_keys && !c->dirty &&
	    !g_hash_table_contains(x->dirty_keys, hk)) {
		g_free(hk);	/* keeps the last run's matches */
		return 0;
	}
	sc = g_new0(struct subj_commit, 1);
	memcpy(sc->sha, c->sha, strlen(c->sha) + 1);
	sc->adate = c->author_date;
	sc->bound = c->bound;
	sc->msgids = g_ptr_array_new_with_free_func(g_free);
	sc->diffs = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(x->commits, sc);
	g_hash_table_add(x->addrs, g_strdup(c->author));
	if (!(l = g_hash_table_lookup(x->by_key, hk))) {
		l = g_ptr_array_new();
		g_hash_table_insert(x->by_key, hk, l);
	} else {
		g_free(hk);
	}
	g_ptr_array_add(l, sc);
	return 0;
}

static int subj_mail_row(const struct onlist_subject_mail_row *c, void *data)
{
	struct subj_ctx *x = data;
	GPtrArray *l;
	char *hk;
	int64_t date;

	if (!c->msgid || !c->stripped || !c->from || !c->diff)
		return 0;
	if (!g_hash_table_contains(x->addrs, c->from) ||
	    !(hk = subj_hash_key(c->from, c->stripped)))
		return 0;
	l = g_hash_table_lookup(x->by_key, hk);
	g_free(hk);
	date = c->date;
	for (guint i = 0; l && i < l->len; i++) {
		struct subj_commit *sc = g_ptr_array_index(l, i);
		int64_t hi = sc->bound ? sc->bound + 86400 : sc->adate + SUBJECT_BEFORE;
		guint k;

		if (date <= 0 || date < sc->adate - SUBJECT_BEFORE || date > hi)
			continue;
		g_ptr_array_add(sc->msgids, g_strdup(c->msgid));
		for (k = 0; k < sc->diffs->len; k++)
			if (!strcmp(g_ptr_array_index(sc->diffs, k), c->diff))
				break;
		if (k == sc->diffs->len)
			g_ptr_array_add(sc->diffs, g_strdup(c->diff));
	}
	return 0;
}

static int subj_changed_row(const struct onlist_subject_mail_row *c,
			    void *data)
{
	struct subj_ctx *x = data;
	char *hk;

	if (!c->from || !c->stripped)
		return 0;
	if ((hk = subj_hash_key(c->from, c->stripped)))
		g_hash_table_add(x->dirty_keys, hk);
	return 0;
}

/* Fill x for the unmatched commits (only `sha` when not NULL); after new
 * mail (since >= 0) for those whose matches it can change, which go to
 * temp.dirty, and with the mails of their authors only. */
static onlist_status subj_collect(struct onlist_store *s, const char *sha,
				  int64_t since, struct subj_ctx *x)
{
	GHashTableIter it;
	gpointer hk;

	x->by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					  (GDestroyNotify)g_ptr_array_unref);
	x->addrs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	x->commits = g_ptr_array_new_with_free_func(subj_commit_free);
	x->dirty_keys = NULL;
	x->oom = 0;
	if (since >= 0) {
		x->dirty_keys = g_hash_table_new_full(g_str_hash, g_str_equal,
						      g_free, NULL);
		if (onlist_store_match_subject_changed(s, since, subj_changed_row, x)
		    != ONLIST_OK)
			return ONLIST_EDB;
	}
	if (since >= 0) {
		/* a commit not dirty is looked at when its key changed: the
		 * commits of those keys are looked up (the stored keys) */
		GPtrArray *from = g_ptr_array_new_with_free_func(g_free);
		GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
		GHashTableIter ki;
		gpointer k;
		onlist_status r;

		g_hash_table_iter_init(&ki, x->dirty_keys);
		while (g_hash_table_iter_next(&ki, &k, NULL)) {
			const char *nl = strrchr(k, '\n');

			g_ptr_array_add(from, g_strndup(k, (gsize)(nl - (const char *)k)));
			g_ptr_array_add(keys, g_strdup(nl + 1));
		}
		r = onlist_store_match_subject_commits_of(s,
				(const char *const *)from->pdata,
				(const char *const *)keys->pdata, from->len,
				subj_commit_row, x);
		g_ptr_array_free(from, TRUE);
		g_ptr_array_free(keys, TRUE);
		if (r != ONLIST_OK)
			return ONLIST_EDB;
	} else if (onlist_store_match_subject_commits(s, sha, subj_commit_row, x)
		   != ONLIST_OK) {
		return ONLIST_EDB;
	}
	if (x->oom || !x->commits->len)
		return x->oom ? ONLIST_ENOMEM : ONLIST_OK;
	if (since < 0)
		return onlist_store_match_subject_mails(s, NULL, subj_mail_row, x)
		       != ONLIST_OK ? ONLIST_EDB :
		       x->oom ? ONLIST_ENOMEM : ONLIST_OK;
	for (guint i = 0; i < x->commits->len; i++)
		if (onlist_store_match_dirty_add(s, ((struct subj_commit *)
				g_ptr_array_index(x->commits, i))->sha) != ONLIST_OK)
			return ONLIST_EDB;
	/* the mails of the commits' keys (no other mail is one of their
	 * candidates), by the stored keys */
	g_hash_table_iter_init(&it, x->by_key);
	while (g_hash_table_iter_next(&it, &hk, NULL)) {
		const char *nl = strrchr(hk, '\n');
		char *addr = g_strndup(hk, (gsize)(nl - (const char *)hk));
		onlist_status r = onlist_store_match_subject_mails_key(s, addr,
						nl + 1, subj_mail_row, x);

		g_free(addr);
		if (r != ONLIST_OK)
			return ONLIST_EDB;
	}
	return x->oom ? ONLIST_ENOMEM : ONLIST_OK;
}

/* ---- the stored subject keys ---- */

struct keys_ctx {
	struct onlist_store *s;
	int whole;
	onlist_status st;
};

static int commit_key(const char *sha, const char *subject, const char *author,
		      void *data)
{
	struct keys_ctx *k = data;
	struct onlist_subject sj;
	char *low, *key;

	if (!sha)
		return 0;
	if (onlist_subject_parse(&sj, subject ? subject : ""))
		return 1;
	/* as the fuzzy tier (fuzzy_prepare()) and subj_hash_key() make them */
	low = g_ascii_strdown(sj.stripped, -1);
	key = onlist_subject_key(sj.stripped);
	onlist_subject_release(&sj);
	if (key && onlist_store_match_put_commit_key(k->s, k->whole, sha,
			author ? author : "", low, key) != ONLIST_OK)
		k->st = ONLIST_EDB;
	g_free(low);
	free(key);
	return !key || k->st != ONLIST_OK;
}

static int mail_key(const char *msgid, const char *stripped, const char *from,
		    void *data)
{
	struct keys_ctx *k = data;
	char *key;

	if (!msgid || !stripped || !from)
		return 0;
	if (!(key = onlist_subject_key(stripped)))
		return 1;
	if (*key && onlist_store_match_put_mail_key(k->s, k->whole, msgid,
							from, key)
	    != ONLIST_OK)
		k->st = ONLIST_EDB;
	free(key);
	return k->st != ONLIST_OK;
}

onlist_status onlist__match_subject_keys(struct onlist_store *s, int whole)
{
	static const struct onlist_subject_key_cbs cbs = { commit_key, mail_key };
	struct keys_ctx k = { s, whole, ONLIST_OK };
	onlist_status st = onlist_store_match_keys_update(s, &k.whole, &cbs, &k);

	return k.st != ONLIST_OK ? k.st : st;
}

static void subj_done(struct subj_ctx *x)
{
	g_hash_table_destroy(x->by_key);
	g_hash_table_destroy(x->addrs);
	g_ptr_array_free(x->commits, TRUE);
	if (x->dirty_keys)
		g_hash_table_destroy(x->dirty_keys);
}

onlist_status onlist__match_subjects(struct onlist_store *s, int64_t since,
				     long *added)
{
	struct subj_ctx x;
	onlist_status st = subj_collect(s, NULL, since, &x);

	/* after new mail, the rows of the commits computed again go (the
	 * others' stay); a row there does not hide its mail from the reads
	 * above, which only the earlier tiers' rows do */
	if (st == ONLIST_OK && since >= 0 &&
	    onlist_store_match_subject_clear(s) != ONLIST_OK)
		st = ONLIST_EDB;

	for (guint i = 0; st == ONLIST_OK && i < x.commits->len; i++) {
		struct subj_commit *sc = g_ptr_array_index(x.commits, i);

		if (sc->diffs->len != 1)
			continue;	/* none, or several different patches */
		for (guint k = 0; st == ONLIST_OK && k < sc->msgids->len; k++)
			if ((st = onlist_store_match_put(s, sc->sha,
					g_ptr_array_index(sc->msgids, k),
					"subject", 1.0)) == ONLIST_OK &&
			    since < 0)
				(*added)++;
	}
	subj_done(&x);
	if (st == ONLIST_OK && since >= 0) {
		long n = onlist_store_match_count(s, "subject", 1);

		if (n < 0)
			return ONLIST_EDB;
		*added += n;
	}
	return st;
}

/* --explain: what the subject tier saw for one unmatched commit. */
onlist_status onlist__explain_subject(struct onlist_store *s, const char *sha,
				     struct onlist_explain *out)
{
	struct subj_ctx x;
	onlist_status st = subj_collect(s, sha, -1, &x);

	if (st == ONLIST_OK && x.commits->len) {
		out->subjects = g_new0(struct onlist_explain_subject,
				       x.commits->len);
		out->nsubjects = x.commits->len;
	}
	for (guint i = 0; st == ONLIST_OK && i < x.commits->len; i++) {
		struct subj_commit *sc = g_ptr_array_index(x.commits, i);
		struct onlist_explain_subject *e = &out->subjects[i];

		e->nmsgids = sc->msgids->len;
		e->npatches = sc->diffs->len;
		e->msgids = g_new0(char *, sc->msgids->len + 1);
		for (guint k = 0; k < sc->msgids->len; k++)
			e->msgids[k] = g_strdup(g_ptr_array_index(sc->msgids,
								  k));
	}
	subj_done(&x);
	return st;
}

/* The release rules of this run, kept for the commands that explain
 * never-posted commits (they read no rules file): meta release_rules,
 * one glob a line. */
/* onlist_store_match_tier_stamp(), and no keeping when every message was
 * classified again (other rules: old mails' echo class may differ). */
