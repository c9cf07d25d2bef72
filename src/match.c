/* match.c - onlist match's tiers (see match.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <glib.h>

#include "onlist/ignored.h"
#include "onlist/match.h"
#include "onlist/print.h"
#include "onlist/patchfp.h"
#include "onlist/repo.h"
#include "onlist/repo_diff.h"
#include "onlist/review.h"
#include "onlist/store.h"
#include "onlist/store_review.h"
#include "onlist/subject.h"
#include "match_int.h"


static void phase(const struct onlist_match_opts *o, const char *name)
{
	if (o->phase)
		o->phase(name, o->progress_data);
}

/* A warning that does not stop the match, to the caller's o->warn. */
void onlist__match_warn(const struct onlist_match_opts *o, const char *what,
		 const char *why)
{
	char *msg = NULL;

	if (o->warn && asprintf(&msg, "%s: %s", what, why) >= 0)
		o->warn(msg, o->progress_data);
	free(msg);
}

/* ---- commit diffs under the other algorithms ---- */

struct cpatch {
	char *alt[3];
	struct onlist_patchfp fp;
	int have_fp;
};

struct diff_ctx {
	GHashTable *by_sha;
	int algo;		/* -1: myers (fingerprint), else alt index */
};

static int take_diff(const char *sha, const char *diff, size_t len, void *data)
{
	struct diff_ctx *d = data;
	struct cpatch *c = g_hash_table_lookup(d->by_sha, sha);
	unsigned char raw[ONLIST_PATCHID_RAWSZ];
	char hex[ONLIST_PATCHID_HEXSZ + 1];

	if (!c)
		return 0;
	if (d->algo < 0) {
		if (!onlist_patchfp_compute(diff, len, &c->fp))
			c->have_fp = 1;
	} else if (onlist_patchid_buf(diff, len, raw)) {
		onlist_patchid_hex(raw, hex);
		c->alt[d->algo] = strdup(hex);
	}
	return 0;
}

static void free_cpatch(gpointer p)
{
	struct cpatch *c = p;

	for (int i = 0; i < 3; i++)
		free(c->alt[i]);
	onlist_patchfp_release(&c->fp);
	g_free(c);
}

#define DIFF_CHUNK 2000

static onlist_status commit_patches(struct onlist_store *s,
				    const struct onlist_match_opts *o,
				    char **errmsg)
{
	static const char *const algos[3] = { "histogram", "patience", "minimal" };
	char (*shas)[41] = NULL;
	size_t n = 0;
	onlist_status st;

	if (!o->repo)
		return ONLIST_OK;
	if ((st = onlist_store_match_commits_needing_patch(s, &shas, &n)) != ONLIST_OK)
		return st == ONLIST_EDB ? onlist_store_fail(s, errmsg) : st;
	for (size_t at = 0; at < n && st == ONLIST_OK; at += DIFF_CHUNK) {
		size_t k = n - at < DIFF_CHUNK ? n - at : DIFF_CHUNK;
		struct diff_ctx d;
		GHashTableIter it;
		gpointer key, val;

		d.by_sha = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
						 free_cpatch);
		for (size_t i = 0; i < k; i++)
			g_hash_table_insert(d.by_sha, shas[at + i],
					    g_new0(struct cpatch, 1));
		for (int a = -1; a < 3 && st == ONLIST_OK; a++) {
			d.algo = a;
			st = onlist_repo_diff_each(o->repo, a < 0 ? "myers" : algos[a],
					       (const char (*)[41])shas + at, k,
					       take_diff, &d, errmsg);
		}
		if (st == ONLIST_OK && (st = onlist_store_begin(s)) != ONLIST_OK)
			st = onlist_store_fail(s, errmsg);
		g_hash_table_iter_init(&it, d.by_sha);
		while (st == ONLIST_OK && g_hash_table_iter_next(&it, &key, &val)) {
			struct cpatch *c = val;
			struct onlist_patch_row r;

			memset(&r, 0, sizeof(r));
			r.key = key;
			for (int i = 0; i < 3; i++)
				r.alt[i] = c->alt[i];
			r.fp = c->fp.h;
			r.nfp = c->fp.n;
			r.files = c->fp.files;
			r.added = (long)c->fp.added;
			r.removed = (long)c->fp.removed;
			if (onlist_store_fuzzy_put_commit_patch(s, &r) != ONLIST_OK)
				st = onlist_store_fail(s, errmsg);
		}
		if (st == ONLIST_OK && onlist_store_commit(s) != ONLIST_OK)
			st = onlist_store_fail(s, errmsg);
		else if (st != ONLIST_OK)
			onlist_store_rollback(s);
		g_hash_table_destroy(d.by_sha);
		if (o->progress)
			o->progress("diffing unmatched commits", (long)(at + k),
				    (long)n, o->progress_data);
	}
	free(shas);
	return st;
}

/* ---- fuzzy ---- */

#define CLOCK_SLACK 86400	/* a day: mail and commit clocks disagree */
/* Candidates are looked for from a year before the commit was written to
 * a year after it was committed (or its landing plus the slack): the
 * posting that became a commit is not older than that, and a window
 * keeps a prolific author's ten thousand patches out of every comparison.
 * The bound itself is applied by score_one(), so --explain can show a
 * late candidate. */
#define WINDOW (365 * 86400LL)

static void window(const struct onlist_fuzzy_commit *c, int64_t *lo, int64_t *hi)
{
	int64_t w = c->author_date && c->author_date < c->commit_date ?
		    c->author_date : c->commit_date;

	*lo = w ? w - WINDOW : 0;
	*hi = c->commit_date ? c->commit_date + WINDOW : INT64_MAX;
	if (c->bound && c->bound + WINDOW > *hi)
		*hi = c->bound + WINDOW;
}

struct score {
	double diff, msg, score;
	int subject, author, late, echo, accepted;
};

struct cand {
	struct onlist_fuzzy_candidate m;	/* strings and arrays owned */
};

static void cand_clear(gpointer p)
{
	struct cand *c = p;

	g_free((char *)c->m.msgid);
	g_free((char *)c->m.from_addr);
	g_free((char *)c->m.subject);
	g_free((char *)c->m.stripped);
	g_free((uint32_t *)c->m.fp);
	g_free((uint32_t *)c->m.words);
}

static int keep_cand(const struct onlist_fuzzy_candidate *m, void *data)
{
	GArray *a = data;
	struct cand c;

	c.m = *m;
	c.m.msgid = g_strdup(m->msgid);
	c.m.from_addr = g_strdup(m->from_addr);
	c.m.subject = g_strdup(m->subject);
	c.m.stripped = g_strdup(m->stripped);
	c.m.fp = g_memdup2(m->fp, m->nfp * sizeof(uint32_t));
	c.m.words = g_memdup2(m->words, m->nwords * sizeof(uint32_t));
	g_array_append_val(a, c);
	return 0;
}

struct hit {
	uint32_t h;
	guint cand;
};

/* Sort the hits by hash, those of one hash in the order they came (the
 * order a stable sort keeps): an insertion sort when few, else four
 * passes of 8 bits.  A comparison sort through a callback cost a tenth
 * of a whole tier (1M x 100k: 7.6 million hits). */
static void sort_hits(GArray *a)
{
	size_t n = a->len, count[256];
	struct hit *v = (struct hit *)(void *)a->data, *tmp, *from, *to;

	if (n < 64) {
		for (size_t i = 1; i < n; i++) {
			struct hit x = v[i];
			size_t j = i;

			for (; j > 0 && v[j - 1].h > x.h; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	tmp = g_new(struct hit, n);
	from = v;
	to = tmp;
	for (int shift = 0; shift < 32; shift += 8) {
		size_t sum = 0;

		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(from[i].h >> shift) & 0xff]++;
		for (size_t k = 0; k < 256; k++) {
			size_t c = count[k];

			count[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			to[count[(from[i].h >> shift) & 0xff]++] = from[i];
		from = to;
		to = from == v ? tmp : v;
	}
	/* an even number of passes: the sorted hits are back in v */
	g_free(tmp);
}

static gint by_date(gconstpointer a, gconstpointer b)
{
	const struct cand *x = a, *y = b;

	return x->m.date < y->m.date ? -1 : x->m.date > y->m.date;
}

struct fuzzy_ctx {
	struct onlist_store *s;
	const struct onlist_fuzzy_commit *c;
	char *addr;		/* lower-case */
	char *stripped;		/* lower-case */
	uint32_t *words;
	size_t nwords;
	double threshold;
	struct onlist_explain *explain;	/* --explain: fill this, match nothing */
	GArray *shown;		/* explain: struct onlist_explain_cand */
	/* the current author's patch mails, oldest first: commits come
	 * grouped by author, so each author's mails are read once */
	char *cache_addr;
	GArray *cache;		/* struct cand */
	/* every changed-line hash of the cached mails with the mail it is
	 * in, sorted by hash: a mail that shares no changed line with the
	 * commit scores below the 0.2 floor, so only the others are
	 * scored */
	GArray *index;		/* struct hit */
	guint *stamp;		/* per cached mail: the last commit it was
				 * scored for */
	guint commit_no;
	/* one person's addresses, through the .mailmap: address -> its
	 * canonical address, and canonical -> every address (GPtrArray) */
	GHashTable *canon, *aliases;
	long accepted;
	onlist_status st;
	/* after new mail only (incremental): the commits an earlier tier
	 * matched last run and none has now (set), the last run's fuzzy
	 * matches (sha -> GPtrArray of struct kept), and the canonical
	 * addresses and stripped subjects (lower case) of the patch mails
	 * since, each with the dates of its mails (struct span) */
	int incr;
	GHashTable *tiered, *old, *new_addr, *new_subj;
	/* the new patch mails themselves (struct cand), by sender and by
	 * stripped subject (lower case -> GArray of their indexes), and
	 * those of them the current commit has for candidates */
	GArray *nm;
	GHashTable *nm_from, *nm_subj;
	GPtrArray *pick;
};

static void score_one(const struct fuzzy_ctx *f,
		      const struct onlist_fuzzy_candidate *m, struct score *sc)
{
	char *ms = g_ascii_strdown(m->stripped, -1);

	sc->diff = onlist_patchfp_similarity(f->c->fp, f->c->nfp, m->fp, m->nfp);
	sc->msg = onlist_patchfp_set_similarity(f->words, f->nwords, m->words,
					m->nwords);
	sc->subject = !strcmp(ms, f->stripped) && *ms;
	sc->author = !g_ascii_strcasecmp(m->from_addr, f->addr);
	if (!sc->author && f->canon) {
		char *low = g_ascii_strdown(m->from_addr, -1);
		const char *a = g_hash_table_lookup(f->canon, low);
		const char *b = g_hash_table_lookup(f->canon, f->addr);
		sc->author = a && b && !strcmp(a, b);
		g_free(low);
	}
	g_free(ms);
	sc->score = 0.6 * sc->diff + 0.25 * sc->msg + 0.15 * sc->subject;
	sc->late = f->c->bound && m->date > f->c->bound + CLOCK_SLACK;
	sc->echo = m->echo;
	/* the changed lines must carry part of the weight: the same subject
	 * and words alone ("Update MAINTAINERS") are not the same patch */
	sc->accepted = !sc->late && !sc->echo && sc->diff >= 0.2 &&
		       sc->score >= f->threshold;
}

static int fuzzy_cand(const struct onlist_fuzzy_candidate *m, void *data)
{
	struct fuzzy_ctx *f = data;
	struct score sc;

	score_one(f, m, &sc);
	if (f->explain) {
		struct onlist_explain_cand x = {
			.msgid = g_strdup(m->msgid),
			.from = g_strdup(m->from_addr),
			.subject = g_strdup(m->subject),
			.version = m->version,
			.diff = sc.diff, .msg = sc.msg, .score = sc.score,
			.same_subject = sc.subject, .same_author = sc.author,
			.why = sc.echo ? ONLIST_FUZZY_ECHO :
			       sc.late ? ONLIST_FUZZY_LATE :
			       sc.accepted ? ONLIST_FUZZY_TAKEN :
			       sc.diff < 0.2 ? ONLIST_FUZZY_FEW_LINES :
			       ONLIST_FUZZY_BELOW,
		};

		g_array_append_val(f->shown, x);
		return 0;
	}
	if (sc.accepted) {
		if (onlist_store_match_put(f->s, f->c->sha, m->msgid, "fuzzy",
					   sc.score) != ONLIST_OK) {
			f->st = ONLIST_EDB;
			return 1;
		}
		f->accepted++;
	}
	return 0;
}

static int fuzzy_prepare(struct fuzzy_ctx *f, const struct onlist_fuzzy_commit *c)
{
	struct onlist_subject sj;
	char *text;

	f->c = c;
	f->addr = g_ascii_strdown(c->author_email, -1);
	if (onlist_subject_parse(&sj, c->subject))
		return -1;
	f->stripped = g_ascii_strdown(sj.stripped, -1);	/* as SQLite's lower() */
	if (asprintf(&text, "%s\n%s", sj.stripped, c->body) < 0) {
		onlist_subject_release(&sj);
		return -1;
	}
	onlist_subject_release(&sj);
	if (onlist_words_fp(text, &f->words, &f->nwords)) {
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

static void fuzzy_done(struct fuzzy_ctx *f)
{
	g_free(f->addr);
	g_free(f->stripped);
	free(f->words);
	f->addr = f->stripped = NULL;
	f->words = NULL;
}

struct kept {
	char *msgid;
	double score;
};

static void kept_free(gpointer p)
{
	struct kept *k = p;

	g_free(k->msgid);
	g_free(k);
}

static const char *canonical(const struct fuzzy_ctx *f, const char *addr)
{
	const char *cn = f->canon ? g_hash_table_lookup(f->canon, addr) : NULL;

	return cn ? cn : addr;
}

static int take_tiered(const char *sha, void *data)
{
	struct fuzzy_ctx *f = data;

	g_hash_table_add(f->tiered, g_strdup(sha));
	return 0;
}

static int take_old_fuzzy(const char *sha, const char *msgid, double score,
			  void *data)
{
	struct fuzzy_ctx *f = data;
	GPtrArray *a;
	struct kept *k;

	if (!(a = g_hash_table_lookup(f->old, sha))) {
		a = g_ptr_array_new_with_free_func(kept_free);
		g_hash_table_insert(f->old, g_strdup(sha), a);
	}
	k = g_new(struct kept, 1);
	k->msgid = g_strdup(msgid);
	k->score = score;
	g_ptr_array_add(a, k);
	return 0;
}

/* The first and last date of the new mails of one address or subject:
 * a commit whose window (window()) misses them has none of them among its
 * candidates. */
struct span {
	int64_t lo, hi;
};

static void add_span(GHashTable *h, const char *key, int64_t lo, int64_t hi)
{
	struct span *x = g_hash_table_lookup(h, key);

	if (!x) {
		x = g_new(struct span, 1);
		x->lo = lo;
		x->hi = hi;
		g_hash_table_insert(h, g_strdup(key), x);
		return;
	}
	if (lo < x->lo)
		x->lo = lo;
	if (hi > x->hi)
		x->hi = hi;
}

/* Both the Date (the subject candidates' window) and when the mail
 * counts as sent (the author candidates') are taken. */
static int take_new_mail(const char *from, const char *stripped, int64_t date,
			 int64_t sent, void *data)
{
	struct fuzzy_ctx *f = data;
	int64_t lo = date < sent ? date : sent, hi = date < sent ? sent : date;

	if (from)
		add_span(f->new_addr, canonical(f, from), lo, hi);
	if (stripped)
		add_span(f->new_subj, stripped, lo, hi);
	return 0;
}

static int in_window(GHashTable *h, const char *key, int64_t lo, int64_t hi)
{
	const struct span *x = g_hash_table_lookup(h, key);

	return x && x->lo <= hi && x->hi >= lo;
}

static const struct onlist_fuzzy_old_cbs old_cbs = {
	take_tiered, take_old_fuzzy, take_new_mail
};

/* After new mail, a commit scored last run keeps its fuzzy matches unless
 * a new mail may be one of its candidates: one from the same person
 * (through the aliases) or with the same stripped subject, dated in the
 * commit's window (an old commit's window ends before new mail).
 * 1 when the old matches were kept. */
static int keep_old(struct fuzzy_ctx *f, const struct onlist_fuzzy_commit *c)
{
	GPtrArray *a;
	int64_t lo, hi;

	window(c, &lo, &hi);
	if (g_hash_table_contains(f->tiered, c->sha) ||
	    in_window(f->new_addr, canonical(f, f->addr), lo, hi) ||
	    in_window(f->new_subj, f->stripped, lo, hi))
		return 0;
	a = g_hash_table_lookup(f->old, c->sha);
	for (guint i = 0; a && i < a->len && f->st == ONLIST_OK; i++) {
		const struct kept *k = g_ptr_array_index(a, i);

		if (onlist_store_match_put(f->s, c->sha, k->msgid, "fuzzy",
					   k->score) != ONLIST_OK)
			f->st = ONLIST_EDB;
	}
	return 1;
}

/* f->addr and f->stripped from the first columns of a commit, as
 * fuzzy_prepare() makes them; 1 (f->st set) when out of memory. */
static int addr_and_subject(struct fuzzy_ctx *f, const struct onlist_fuzzy_commit *c)
{
	struct onlist_subject sj;

	if (onlist_subject_parse(&sj, c->subject ? c->subject : "")) {
		f->st = ONLIST_ENOMEM;
		return 1;
	}
	f->addr = g_ascii_strdown(c->author_email ? c->author_email : "", -1);
	f->stripped = g_ascii_strdown(sj.stripped, -1);
	onlist_subject_release(&sj);
	return 0;
}

/* Asked before a commit is read whole: after new mail (f->incr), one
 * whose fuzzy matches new mail cannot change keeps the last run's
 * (keep_old()) and is not read.  On an error every commit is skipped. */
static int fuzzy_skip(const struct onlist_fuzzy_commit *c, void *data)
{
	struct fuzzy_ctx *f = data;
	int kept;

	if (f->st != ONLIST_OK)
		return 1;
	if (!f->incr)
		return 0;
	if (addr_and_subject(f, c))
		return 1;
	kept = keep_old(f, c);
	g_free(f->addr);
	g_free(f->stripped);
	f->addr = f->stripped = NULL;
	return kept;
}

static int fuzzy_commit(const struct onlist_fuzzy_commit *c, void *data)
{
	struct fuzzy_ctx *f = data;
	int64_t lo, hi;

	if (!c->nfp)
		return 0;	/* an empty diff has nothing to compare */
	if (fuzzy_prepare(f, c)) {
		f->st = ONLIST_ENOMEM;
		return 1;
	}
	window(c, &lo, &hi);
	if (!f->cache_addr || strcmp(f->cache_addr, f->addr)) {
		g_free(f->cache_addr);
		f->cache_addr = g_strdup(f->addr);
		g_array_set_size(f->cache, 0);
		const char *cn = f->canon ? g_hash_table_lookup(f->canon, f->addr) : NULL;
		GPtrArray *all = cn ? g_hash_table_lookup(f->aliases, cn) : NULL;
		for (guint k = 0; k < (all ? all->len : 1); k++) {
			const char *addr = all ? g_ptr_array_index(all, k) : f->addr;
			if (onlist_store_fuzzy_candidates(f->s, addr, NULL,
							  INT64_MIN, INT64_MAX, 1,
							  keep_cand, f->cache)
			    != ONLIST_OK) {
				f->st = ONLIST_EDB;
				fuzzy_done(f);
				return 1;
			}
		}
		g_array_sort(f->cache, by_date);
		g_array_set_size(f->index, 0);
		for (guint i = 0; i < f->cache->len; i++) {
			const struct cand *x = &g_array_index(f->cache, struct cand, i);
			for (size_t k = 0; k < x->m.nfp; k++) {
				struct hit h = { x->m.fp[k], i };
				g_array_append_val(f->index, h);
			}
		}
		sort_hits(f->index);
		g_free(f->stamp);
		f->stamp = g_new0(guint, f->cache->len + 1);
	}
	/* the author's mails in the window that share a changed line */
	f->commit_no++;
	for (size_t k = 0; k < c->nfp && f->st == ONLIST_OK; k++) {
		guint a = 0, b = f->index->len;

		if (k && c->fp[k] == c->fp[k - 1])
			continue;
		while (a < b) {
			guint mid = a + (b - a) / 2;
			if (g_array_index(f->index, struct hit, mid).h < c->fp[k])
				a = mid + 1;
			else
				b = mid;
		}
		for (; a < f->index->len; a++) {
			const struct hit *h = &g_array_index(f->index, struct hit, a);
			const struct cand *x;

			if (h->h != c->fp[k])
				break;
			if (f->stamp[h->cand] == f->commit_no)
				continue;
			f->stamp[h->cand] = f->commit_no;
			x = &g_array_index(f->cache, struct cand, h->cand);
			if (x->m.date < lo || x->m.date > hi)
				continue;
			if (fuzzy_cand(&x->m, f))
				break;
		}
	}
	/* others' mails with the same subject */
	if (f->st == ONLIST_OK &&
	    onlist_store_fuzzy_candidates(f->s, f->addr, f->stripped, lo, hi, 0,
					  fuzzy_cand, f) != ONLIST_OK)
		f->st = ONLIST_EDB;
	fuzzy_done(f);
	return f->st != ONLIST_OK;
}

/* ---- after new mail: the new mails scored against the commits ---- */

/* A commit's fuzzy matches are the candidates that score enough, each on
 * its own: after new mail, a commit whose candidates are the old ones
 * plus some new mails keeps the last run's matches (the old ones score as
 * they did: the stamp says the commits, bounds and old mails are the
 * same) and has only the new ones scored. */

static void nm_index(GHashTable *h, const char *key, guint i)
{
	GArray *a = g_hash_table_lookup(h, key);

	if (!a) {
		a = g_array_new(FALSE, FALSE, sizeof(guint));
		g_hash_table_insert(h, g_ascii_strdown(key, -1), a);
	}
	g_array_append_val(a, i);
}

static onlist_status load_new_mails(struct fuzzy_ctx *f, int64_t since)
{
	f->nm = g_array_new(FALSE, FALSE, sizeof(struct cand));
	g_array_set_clear_func(f->nm, cand_clear);
	f->nm_from = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   (GDestroyNotify)g_array_unref);
	f->nm_subj = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					   (GDestroyNotify)g_array_unref);
	f->pick = g_ptr_array_new();
	if (onlist_store_fuzzy_new_mails(f->s, since, keep_cand, f->nm)
	    != ONLIST_OK)
		return ONLIST_EDB;
	for (guint i = 0; i < f->nm->len; i++) {
		const struct cand *x = &g_array_index(f->nm, struct cand, i);
		char *low;

		/* as the candidates' SQL compares them: lower(from_addr),
		 * lower(stripped) */
		if (x->m.from_addr) {
			low = g_ascii_strdown(x->m.from_addr, -1);
			nm_index(f->nm_from, low, i);
			g_free(low);
		}
		if (x->m.stripped) {
			low = g_ascii_strdown(x->m.stripped, -1);
			nm_index(f->nm_subj, low, i);
			g_free(low);
		}
	}
	return ONLIST_OK;
}

static void free_new_mails(struct fuzzy_ctx *f)
{
	if (f->nm)
		g_array_free(f->nm, TRUE);
	if (f->nm_from)
		g_hash_table_destroy(f->nm_from);
	if (f->nm_subj)
		g_hash_table_destroy(f->nm_subj);
	if (f->pick)
		g_ptr_array_free(f->pick, TRUE);
	f->nm = NULL;
	f->nm_from = f->nm_subj = NULL;
	f->pick = NULL;
}

static void pick(struct fuzzy_ctx *f, const struct onlist_fuzzy_candidate *m)
{
	for (guint i = 0; i < f->pick->len; i++)
		if (g_ptr_array_index(f->pick, i) == m)
			return;
	g_ptr_array_add(f->pick, (gpointer)m);
}

/* Whether the sorted hashes a and b have one in common. */
static int shares_line(const uint32_t *a, size_t na, const uint32_t *b,
		       size_t nb)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		if (a[i] == b[j])
			return 1;
		if (a[i] < b[j])
			i++;
		else
			j++;
	}
	return 0;
}

/* The new mails that are candidates of commit c, into f->pick, by the
 * tests fuzzy_commit() and onlist_store_fuzzy_candidates() make: from one
 * of the author's addresses (the aliases of its canonical one) and sent
 * in the window, or from another address with the same stripped subject
 * and dated in the window.  Skipped (1) when there is none. */
static int pair_skip(const struct onlist_fuzzy_commit *c, void *data)
{
	struct fuzzy_ctx *f = data;
	const char *cn;
	GPtrArray *all;
	GArray *a;
	int64_t lo, hi;

	if (f->st != ONLIST_OK || addr_and_subject(f, c))
		return 1;
	window(c, &lo, &hi);
	g_ptr_array_set_size(f->pick, 0);
	cn = f->canon ? g_hash_table_lookup(f->canon, f->addr) : NULL;
	all = cn ? g_hash_table_lookup(f->aliases, cn) : NULL;
	for (guint k = 0; k < (all ? all->len : 1); k++) {
		const char *addr = all ? g_ptr_array_index(all, k) : f->addr;

		a = g_hash_table_lookup(f->nm_from, addr);
		for (guint i = 0; a && i < a->len; i++) {
			const struct cand *x = &g_array_index(f->nm, struct cand,
						g_array_index(a, guint, i));

			/* lower(from_addr) = addr, dated (the SQL's
			 * BETWEEN), sent in the window (fuzzy_commit()) */
			if (x->m.dated && x->m.date >= lo && x->m.date <= hi)
				pick(f, &x->m);
		}
	}
	a = *f->stripped ? g_hash_table_lookup(f->nm_subj, f->stripped) : NULL;
	for (guint i = 0; a && i < a->len; i++) {
		const struct cand *x = &g_array_index(f->nm, struct cand,
					g_array_index(a, guint, i));
		char *from = x->m.from_addr ?
			     g_ascii_strdown(x->m.from_addr, -1) : NULL;

		if (from && strcmp(from, f->addr) && x->m.dated &&
		    x->m.raw_date >= lo && x->m.raw_date <= hi)
			pick(f, &x->m);
		g_free(from);
	}
	g_free(f->addr);
	g_free(f->stripped);
	f->addr = f->stripped = NULL;
	/* a mail that shares no changed line with the commit scores below
	 * the floor (score_one()): the commit is read whole only for the
	 * others */
	for (guint i = 0; i < f->pick->len;) {
		const struct onlist_fuzzy_candidate *m = g_ptr_array_index(f->pick, i);

		if (shares_line(c->fp, c->nfp, m->fp, m->nfp))
			i++;
		else
			g_ptr_array_remove_index(f->pick, i);
	}
	return f->pick->len == 0;
}

/* The commit date from which a commit's window (window()) holds every
 * date pair_skip() compares, whatever its bound: the latest date or
 * raw date of a dated new mail, less a year (onlist_store_fuzzy_commits_
 * pairs() then reads no bound for those).  INT64_MAX, none, without a
 * dated new mail. */
static int64_t pairs_recent(const struct fuzzy_ctx *f)
{
	int64_t mx = INT64_MIN;
	int any = 0;

	for (guint i = 0; f->nm && i < f->nm->len; i++) {
		const struct cand *x = &g_array_index(f->nm, struct cand, i);

		if (!x->m.dated)
			continue;
		any = 1;
		if (x->m.date > mx)
			mx = x->m.date;
		if (x->m.raw_date > mx)
			mx = x->m.raw_date;
	}
	if (!any)
		return INT64_MAX;
	return mx < INT64_MIN + WINDOW ? INT64_MIN : mx - WINDOW;
}

static int pair_commit(const struct onlist_fuzzy_commit *c, void *data)
{
	struct fuzzy_ctx *f = data;

	if (!c->nfp)
		return 0;	/* as fuzzy_commit() */
	if (fuzzy_prepare(f, c)) {
		f->st = ONLIST_ENOMEM;
		return 1;
	}
	for (guint i = 0; i < f->pick->len && f->st == ONLIST_OK; i++)
		if (fuzzy_cand(g_ptr_array_index(f->pick, i), f))
			break;
	fuzzy_done(f);
	return f->st != ONLIST_OK;
}

/* After new mail: the commits to score again whole and the rest's
 * matches kept (onlist_store_fuzzy_todo()), those scored, then the new
 * mails scored against the commits they can be candidates of: only a
 * commit of a new mail's person (any of the addresses the aliases give)
 * or subject (the stored keys), or one an earlier tier no longer
 * matches, can change. */
static onlist_status fuzzy_incremental(struct onlist_store *s,
				       struct fuzzy_ctx *f, int64_t since)
{
	GPtrArray *addrs = g_ptr_array_new(), *subjects = g_ptr_array_new();
	GArray *spans = g_array_new(FALSE, FALSE, sizeof(int64_t[2]));
	GHashTableIter it;
	gpointer k, v;
	onlist_status st;

	g_hash_table_iter_init(&it, f->new_addr);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		GPtrArray *all = f->aliases ? g_hash_table_lookup(f->aliases, k) : NULL;
		const struct span *x = v;
		int64_t span[2] = { x->lo, x->hi };

		g_ptr_array_add(addrs, k);
		g_array_append_val(spans, span);
		for (guint i = 0; all && i < all->len; i++) {
			g_ptr_array_add(addrs, g_ptr_array_index(all, i));
			g_array_append_val(spans, span);
		}
	}
	g_hash_table_iter_init(&it, f->new_subj);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(subjects, k);
	st = onlist_store_fuzzy_todo(s, (const char *const *)addrs->pdata,
				     (const int64_t (*)[2])(void *)spans->data,
				     addrs->len,
				     (const char *const *)subjects->pdata,
				     subjects->len, &old_cbs, f);
	g_ptr_array_free(addrs, TRUE);
	g_array_free(spans, TRUE);
	g_ptr_array_free(subjects, TRUE);
	if (st == ONLIST_OK &&
	    onlist_store_fuzzy_commits_todo(s, fuzzy_skip, fuzzy_commit, f)
	    != ONLIST_OK)
		st = ONLIST_EDB;
	if (st == ONLIST_OK)
		st = load_new_mails(f, since);
	if (st == ONLIST_OK &&
	    onlist_store_fuzzy_commits_pairs(s, pairs_recent(f), pair_skip,
					     pair_commit, f) != ONLIST_OK)
		st = ONLIST_EDB;
	free_new_mails(f);
	return st;
}

/* ---- the time bound of a linear history ---- */

struct bound_ctx {
	struct onlist_store *s;
	onlist_status st;
};

static void take_bound(const char *sha, int64_t date, void *data)
{
	struct bound_ctx *b = data;

	if (b->st == ONLIST_OK)
		b->st = onlist_store_match_put_bound(b->s, sha, date);
}

/* Without merges, a commit landed with the first tag that contains it
 * (the release that shipped it): the bound for its postings.  Untagged
 * commits stay without one. */
static onlist_status tag_bounds(struct onlist_store *s,
				const struct onlist_match_opts *o)
{
	struct bound_ctx b = { s, ONLIST_OK };
	char (*shas)[41] = NULL, *err = NULL;
	size_t n = 0;
	onlist_status st;

	if (!o->repo || onlist_store_match_history_linear(s) != 1)
		return ONLIST_OK;
	if ((st = onlist_store_match_commits_unbounded(s, &shas, &n)) != ONLIST_OK)
		return st;
	if (n && onlist_repo_diff_tag_dates(o->repo, (const char (*)[41])shas, n,
				       take_bound, &b, &err) != ONLIST_OK) {
		/* no tags to read is no bound, not a failure of the match */
		onlist__match_warn(o, "no tag dates", err ? err : "git failed");
	}
	free(err);
	free(shas);
	return b.st;
}

/* ---- the run ---- */

/* The field a rule looks at. */
enum rule_field {
	RF_OTHER, RF_MSGID, RF_FROM, RF_SUBJECT, RF_MAILER, RF_LIST,
	RF_PATCHWORK, RF_UPSTREAM
};

struct compiled_rule {
	const struct onlist_echo_rule *r;
	GPatternSpec *spec;
	char *text;		/* "field pattern", for the echoes table */
	enum rule_field field;
	/* the pattern's longest run without * or ?: a value it matches
	 * has it (NULL: none) */
	char *need;
};

/* A value's first rule of its field is remembered for that many values
 * at most (a field's values repeat: senders, mailers, list sets). */
#define MEMO_MAX 65536

struct rules {
	struct compiled_rule *v;
	size_t n;
	/* value of from, mailer, lists -> 1 + the first rule of that field
	 * it hits (n + 1: none) */
	GHashTable *memo[3];
};

/* Every line of `lists` matches one of the list rules: a patch sent to
 * its subsystem list and Cc'd to stable@ is a posting, not an echo. */
static int all_echo_lists(const struct rules *rs, const char *lists)
{
	gchar **names = g_strsplit(lists, "\n", -1);
	int all = names[0] != NULL;

	for (gchar **n = names; *n && all; n++) {
		int hit = 0;
		for (size_t i = 0; i < rs->n && !hit; i++)
			hit = rs->v[i].field == RF_LIST &&
			      g_pattern_spec_match_string(rs->v[i].spec, *n);
		all = hit;
	}
	g_strfreev(names);
	return all;
}

/* Whether v has need (NULL: anything has), ASCII letters folded when
 * fold (need is lower-case): a cheap test before the glob, which a
 * value without it cannot match. */
static int has_part(const char *v, const char *need, int fold)
{
	size_t n;

	if (!need)
		return 1;
	if (!fold)
		return strstr(v, need) != NULL;
	for (n = strlen(need); *v; v++)
		if (!g_ascii_strncasecmp(v, need, n))
			return 1;
	return 0;
}

/* The longest run of p without a wildcard (NULL: none). */
static char *longest_part(const char *p)
{
	size_t best = 0, at = 0;

	for (size_t i = 0; p[i];) {
		size_t n = strcspn(p + i, "*?");

		if (n > best) {
			best = n;
			at = i;
		}
		i += n;
		i += p[i] != 0;
	}
	return best ? g_strndup(p + at, best) : NULL;
}

/* Whether rule c hits the message: each rule looks at one field. */
static int rule_hits(const struct rules *rs, const struct compiled_rule *c,
		     const struct onlist_classify_row *row, int *lists_all)
{
	const char *v = NULL;
	char *low = NULL;
	int hit = 0;

	switch (c->field) {
	case RF_LIST:
		if (*lists_all < 0)
			*lists_all = row->lists && all_echo_lists(rs, row->lists);
		/* name the first list rule that matches one of them */
		if (*lists_all) {
			gchar **names = g_strsplit(row->lists, "\n", -1);
			for (gchar **n = names; *n && !hit; n++)
				hit = g_pattern_spec_match_string(c->spec, *n);
			g_strfreev(names);
		}
		return hit;
	case RF_PATCHWORK:
	case RF_UPSTREAM:
		return (c->field == RF_PATCHWORK ? row->patchwork :
			row->upstream) && !strcmp(c->r->pattern, "1");
	case RF_MSGID:
		if (row->msgid && has_part(row->msgid, c->need, 1))
			v = low = g_ascii_strdown(row->msgid, -1);
		break;
	case RF_FROM:
		v = row->from;
		break;
	case RF_SUBJECT:
		v = row->subject;
		break;
	case RF_MAILER:
		v = row->mailer;
		break;
	case RF_OTHER:
		break;
	}
	hit = v && (low || has_part(v, c->need, 0)) &&
	      g_pattern_spec_match_string(c->spec, v);
	g_free(low);
	return hit;
}

/* The first rule of field f that the message hits (rs->n: none), looked
 * up in memo m by the field's value v. */
static size_t first_hit(const struct rules *rs, enum rule_field f, int m,
			const char *v, const struct onlist_classify_row *row)
{
	gpointer got;
	size_t i;
	int lists_all = -1;

	if (!v)
		return rs->n;
	if ((got = g_hash_table_lookup(rs->memo[m], v)))
		return (size_t)GPOINTER_TO_SIZE(got) - 1;
	for (i = 0; i < rs->n; i++)
		if (rs->v[i].field == f && rule_hits(rs, &rs->v[i], row, &lists_all))
			break;
	if (g_hash_table_size(rs->memo[m]) < MEMO_MAX)
		g_hash_table_insert(rs->memo[m], g_strdup(v),
				    GSIZE_TO_POINTER(i + 1));
	return i;
}

/* The first rule the message hits: the first of the from, mailer and
 * list rules, remembered by value, or an earlier one of the others. */
static int classify_one(const struct onlist_classify_row *row,
			const char **kind, const char **rule, void *data)
{
	const struct rules *rs = data;
	size_t best = first_hit(rs, RF_FROM, 0, row->from, row), i;
	int lists_all = -1;

	if ((i = first_hit(rs, RF_MAILER, 1, row->mailer, row)) < best)
		best = i;
	if ((i = first_hit(rs, RF_LIST, 2, row->lists, row)) < best)
		best = i;
	for (i = 0; i < best; i++) {
		enum rule_field f = rs->v[i].field;

		if (f != RF_FROM && f != RF_MAILER && f != RF_LIST &&
		    rule_hits(rs, &rs->v[i], row, &lists_all))
			best = i;
	}
	if (best >= rs->n)
		return 0;
	*kind = rs->v[best].r->kind;
	*rule = rs->v[best].text;
	return 1;
}

static enum rule_field rule_field_of(const char *f)
{
	static const char *const names[] = {
		[RF_MSGID] = "msgid", [RF_FROM] = "from",
		[RF_SUBJECT] = "subject", [RF_MAILER] = "mailer",
		[RF_LIST] = "list", [RF_PATCHWORK] = "patchwork",
		[RF_UPSTREAM] = "upstream"
	};

	for (size_t i = RF_MSGID; i < G_N_ELEMENTS(names); i++)
		if (!strcmp(f, names[i]))
			return (enum rule_field)i;
	return RF_OTHER;
}

/* The echo and bot rules of this run, compiled; *key (when key is not
 * NULL) names them for the echoes table.  Release with free_rules(). */
static void compile_rules(const struct onlist_match_opts *o, struct rules *rs,
			  GString *key)
{
	size_t all = onlist_match_ndefault_rules + o->nrules, n = 0;

	rs->v = g_new0(struct compiled_rule, all + 1);
	for (size_t i = 0; i < all; i++) {
		const struct onlist_echo_rule *r = i < onlist_match_ndefault_rules ?
			&onlist_match_default_rules[i] :
			&o->rules[i - onlist_match_ndefault_rules];
		char *low;

		if (!strcmp(r->kind, "release") || !strcmp(r->kind, "notice") ||
		    !strcmp(r->kind, "embargo"))
			continue;	/* for the verdicts (release_rules), the
					 * review (build_reviews) */
		low = g_utf8_strdown(r->pattern, -1);
		rs->v[n].r = r;
		rs->v[n].spec = g_pattern_spec_new(low);
		rs->v[n].text = g_strdup_printf("%s %s", r->field, r->pattern);
		rs->v[n].field = rule_field_of(r->field);
		rs->v[n].need = longest_part(low);
		if (key)
			g_string_append_printf(key, "\n%s %s", r->kind,
					       rs->v[n].text);
		g_free(low);
		n++;
	}
	rs->n = n;
	for (size_t m = 0; m < G_N_ELEMENTS(rs->memo); m++)
		rs->memo[m] = g_hash_table_new_full(g_str_hash, g_str_equal,
						    g_free, NULL);
}

static void free_rules(struct rules *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		g_pattern_spec_free(rs->v[i].spec);
		g_free(rs->v[i].text);
		g_free(rs->v[i].need);
	}
	g_free(rs->v);
	for (size_t m = 0; m < G_N_ELEMENTS(rs->memo); m++)
		g_hash_table_destroy(rs->memo[m]);
}

/* The rules are plain globs (* and ?, nothing else special: "[merged"
 * means those characters), matched case-insensitively in one pass over
 * the messages. */
static onlist_status classify(struct onlist_store *s,
			      const struct onlist_match_opts *o, long *count)
{
	struct rules rs;
	GString *key = g_string_new("1");	/* version of classify_one() */
	onlist_status st;

	compile_rules(o, &rs, key);
	st = onlist_store_match_classify(s, key->str, classify_one, &rs, count);
	g_string_free(key, TRUE);
	free_rules(&rs);
	return st;
}

/* A lower-case address that a "from" rule names: a review trailer
 * "Tested-by: syzbot+...@..." is no review even in a person's reply. */
static int bot_addr(const char *addr, void *data)
{
	const struct rules *rs = data;

	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->v[i].r->field, "from") &&
		    g_pattern_spec_match_string(rs->v[i].spec, addr))
			return 1;
	return 0;
}

static onlist_status build_reviews(struct onlist_store *s,
				   const struct onlist_match_opts *o,
				   struct onlist_match_counts *c)
{
	GHashTable *canon = onlist__match_review_canon(s, o);
	char *key = onlist__match_canon_key(canon);
	struct onlist_review_counts rc;
	struct rules rs;
	onlist_status st;
	GPtrArray *notice = g_ptr_array_new();	/* the rules file's */

	for (size_t i = 0; i < o->nrules; i++)
		if (!strcmp(o->rules[i].kind, "notice"))
			g_ptr_array_add(notice, (gpointer)o->rules[i].pattern);
	compile_rules(o, &rs, NULL);
	st = onlist_review_update(s, canon ? onlist__match_canon_addr : NULL,
				  canon, key, bot_addr, &rs,
				  (const char *const *)notice->pdata,
				  notice->len, &rc);
	free_rules(&rs);
	g_ptr_array_free(notice, TRUE);
	g_free(key);
	if (canon)
		g_hash_table_destroy(canon);
	c->review_tags = rc.reviews;
	c->reviews = rc.commits;
	c->reviews_computed = rc.computed;
	for (int i = 0; i < ONLIST_REVIEW_NSTATES; i++)
		c->review_state[i] = rc.state[i];
	return st;
}

static char *tier_stamp(struct onlist_store *s, const char *name,
			const char *key, struct onlist_match_tier_counts *counts,
			int64_t *since)
{
	char *stamp = onlist_store_match_tier_stamp(s, name, key, counts, since);
	char *dirty = onlist_store_get_meta(s, "review_dirty");

	if (dirty && !strcmp(dirty, "*"))
		*since = -1;
	free(dirty);
	return stamp;
}

/* Whether the fuzzy tier can keep the last run's matches of the commits
 * no new mail reaches (f->incr), and what it needs for that; *stamp gets
 * what to keep in meta fuzzy_stamp after the tier. */
static onlist_status fuzzy_begin(struct onlist_store *s, struct fuzzy_ctx *f,
				 struct onlist_match_tier_counts *counts,
				 int64_t exact_since, char **stamp,
				 long long *kept_since)
{
	char *canon = onlist__match_canon_key(f->canon), *key;
	int64_t since = -1;

	key = g_strdup_printf("fz1:%.17g:%s", f->threshold, canon);
	g_free(canon);
	*stamp = tier_stamp(s, "fuzzy_stamp", key, counts, &since);
	g_free(key);
	if (!*stamp)
		return ONLIST_EDB;
	/* the matches were emptied: none of the last run's to keep */
	if (exact_since < 0)
		since = -1;
	*kept_since = since;
	/* the other tiers' rows are in place: the last fuzzy ones go */
	if (since < 0)
		return exact_since < 0 ? ONLIST_OK : onlist_store_fuzzy_clear(s);
	f->incr = 1;
	f->tiered = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	f->old = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       (GDestroyNotify)g_ptr_array_unref);
	f->new_addr = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	f->new_subj = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	return onlist_store_fuzzy_old(s, since, &old_cbs, f);
}

static void fuzzy_end(struct fuzzy_ctx *f)
{
	GHashTable **h[4] = { &f->tiered, &f->old, &f->new_addr, &f->new_subj };

	for (int i = 0; i < 4; i++)
		if (*h[i]) {
			g_hash_table_destroy(*h[i]);
			*h[i] = NULL;
		}
	f->incr = 0;
}

static onlist_status keep_release_rules(struct onlist_store *s,
					const struct onlist_match_opts *o)
{
	GString *g = g_string_new(NULL);
	onlist_status st;

	for (size_t i = 0; i < o->nrules; i++)
		if (!strcmp(o->rules[i].kind, "release"))
			g_string_append_printf(g, "%s%s", g->len ? "\n" : "",
					       o->rules[i].pattern);
	st = onlist_store_set_meta(s, "release_rules", g->str);
	g_string_truncate(g, 0);
	for (size_t i = 0; i < o->nrules; i++)
		if (!strcmp(o->rules[i].kind, "embargo"))
			g_string_append_printf(g, "%s%s %s", g->len ? "\n" : "",
					       o->rules[i].field,
					       o->rules[i].pattern);
	if (st == ONLIST_OK)
		st = onlist_store_set_meta(s, "embargo_rules", g->str);
	g_string_free(g, TRUE);
	return st;
}

static onlist_status begin_classified(struct onlist_store *s,
				      const struct onlist_match_opts *o,
				      struct onlist_match_counts *c)
{
	onlist_status st;

	if ((st = onlist_store_begin(s)) != ONLIST_OK)
		return st;
	/* classify() empties the echoes table when it must */
	if ((st = classify(s, o, &c->classified)) != ONLIST_OK ||
	    (st = keep_release_rules(s, o)) != ONLIST_OK)
		onlist_store_rollback(s);
	return st;
}

onlist_status onlist_match_run(struct onlist_store *s,
			       const struct onlist_match_opts *o,
			       struct onlist_match_counts *c, char **errmsg)
{
	struct fuzzy_ctx f;
	/* the table counts both stamps take, made once */
	struct onlist_match_tier_counts counts = ONLIST_MATCH_TIER_COUNTS_INIT;
	onlist_status st;
	char *stamp = NULL;
	int64_t since;
	int oom = 0;

	*errmsg = NULL;
	memset(c, 0, sizeof(*c));
	/* 1. Which mails are echoes (and bots): commits whose only partner
	 * is an echo need their diffs too. */
	phase(o, "threads");
	if ((st = begin_classified(s, o, c)) != ONLIST_OK ||
	    (st = onlist_store_commit(s)) != ONLIST_OK)
		return onlist_store_fail(s, errmsg);
	/* 2. Diffs of the commits no posting has by exact patch-id
	 * (cached: a commit's diff does not change). */
	phase(o, "classes and commit diffs");
	if ((st = commit_patches(s, o, errmsg)) != ONLIST_OK)
		return st;
	/* 3. All matches, rebuilt in one transaction: a reader sees the
	 * old set or the new one. */
	{
		long classified = c->classified;

		memset(c, 0, sizeof(*c));
		c->classified = classified;
		c->fuzzy_since = c->exact_since = -1;
	}
	if ((st = onlist_store_match_begin(s)) != ONLIST_OK)
		return onlist_store_fail(s, errmsg);
	if (tag_bounds(s, o) != ONLIST_OK)
		goto db;
	if (!(stamp = tier_stamp(s, "exact_stamp", "x2", &counts, &since)))
		goto db;
	c->exact_since = since;
	st = onlist_store_set_meta(s, "exact_stamp", stamp);
	g_free(stamp);
	stamp = NULL;
	if (st != ONLIST_OK || onlist_store_match_reset(s, since) != ONLIST_OK)
		goto db;
	if ((st = onlist__match_subject_keys(s, since < 0)) != ONLIST_OK) {
		if (st == ONLIST_ENOMEM) {
			onlist_store_rollback(s);
			return onlist_fail(errmsg, st, "out of memory");
		}
		goto db;
	}
	phase(o, "match setup");
	if (onlist_store_match_links(s, onlist__match_link_fits, &oom, &c->link) != ONLIST_OK)
		goto db;
	if (oom) {
		onlist_store_rollback(s);
		return onlist_fail(errmsg, ONLIST_ENOMEM, "out of memory");
	}
	phase(o, "link tier");
	if (onlist_store_match_exact(s, since, &c->patchid) != ONLIST_OK ||
	    onlist_store_match_since(s, since) != ONLIST_OK)
		goto db;
	phase(o, "patch-id tier");
	if (onlist_store_match_tier(s, ONLIST_TIER_ALT, since,
				    &c->alt) != ONLIST_OK)
		goto db;
	phase(o, "other-algorithm tier");
	if (onlist_store_match_tier(s, ONLIST_TIER_REPAIRED, since,
				    &c->repaired) != ONLIST_OK)
		goto db;
	phase(o, "repaired tier");
	if (onlist_store_match_tier(s, ONLIST_TIER_QUOTED, since,
				    &c->quoted) != ONLIST_OK)
		goto db;
	phase(o, "quoted tier");
	if (onlist_store_match_author_date(s, since, onlist__match_author_date_fits, &oom,
					   &c->author_date) != ONLIST_OK)
		goto db;
	if (oom) {
		onlist_store_rollback(s);
		return onlist_fail(errmsg, ONLIST_ENOMEM, "out of memory");
	}
	phase(o, "author-date tier");
	if ((st = onlist__match_subjects(s, since, &c->subject)) != ONLIST_OK) {
		if (st == ONLIST_ENOMEM) {
			onlist_store_rollback(s);
			return onlist_fail(errmsg, st, "out of memory");
		}
		goto db;
	}
	phase(o, "subject tier");
	if (!o->no_fuzzy) {
		memset(&f, 0, sizeof(f));
		f.s = s;
		f.threshold = o->threshold > 0 ? o->threshold : ONLIST_FUZZY_THRESHOLD;
		f.cache = g_array_new(FALSE, FALSE, sizeof(struct cand));
		g_array_set_clear_func(f.cache, cand_clear);
		f.index = g_array_new(FALSE, FALSE, sizeof(struct hit));
		onlist__match_aliases(s, o, &f.canon, &f.aliases);
		if ((st = fuzzy_begin(s, &f, &counts, since, &stamp,
				      &c->fuzzy_since)) != ONLIST_OK)
			f.st = st;
		else if (f.incr && (st = fuzzy_incremental(s, &f,
					c->fuzzy_since)) != ONLIST_OK)
			f.st = f.st != ONLIST_OK ? f.st : st;
		else if (!f.incr &&
			 onlist_store_fuzzy_commits(s, NULL, fuzzy_skip,
						    fuzzy_commit, &f)
			 != ONLIST_OK)
			f.st = ONLIST_EDB;
		fuzzy_end(&f);
		if (f.st == ONLIST_OK &&
		    (onlist_store_set_meta(s, "fuzzy_stamp", stamp) != ONLIST_OK ||
		     (f.accepted = onlist_store_match_count(s, "fuzzy",
							     since >= 0)) < 0))
			f.st = ONLIST_EDB;
		g_free(stamp);
		g_array_free(f.cache, TRUE);
		g_array_free(f.index, TRUE);
		if (f.canon) {
			g_hash_table_destroy(f.canon);
			g_hash_table_destroy(f.aliases);
		}
		g_free(f.stamp);
		g_free(f.cache_addr);
		if (f.st != ONLIST_OK)
			goto db;
		c->fuzzy = f.accepted;
	} else if (onlist_store_set_meta(s, "fuzzy_stamp", "") != ONLIST_OK ||
		   (since >= 0 && onlist_store_fuzzy_clear(s) != ONLIST_OK)) {
		goto db;	/* the next run has no fuzzy matches to keep */
	}
	phase(o, "fuzzy tier");
	if (onlist_store_match_tier(s, ONLIST_TIER_LATE, since,
				    &c->late) != ONLIST_OK ||
	    onlist_store_match_tier(s, ONLIST_TIER_ECHO, since,
				    &c->echo) != ONLIST_OK ||
	    onlist_store_match_log_end(s) != ONLIST_OK)
		goto db;
	phase(o, "late and echo tiers");
	/* 4. What onlist ignored judges, again for the topics the thread
	 * build and these matches changed (before the review takes the
	 * thread build's list of them) */
	if (onlist_ignored_update(s, o, NULL) != ONLIST_OK)
		goto db;
	phase(o, "ignored topics");
	/* 5. Review on the list, from the threads and these matches. */
	if ((st = build_reviews(s, o, c)) != ONLIST_OK) {
		if (st != ONLIST_EDB) {
			onlist_store_rollback(s);
			return st;
		}
		goto db;
	}
	phase(o, "reviews");
	if (onlist_store_commit(s) != ONLIST_OK)
		goto db;
	return ONLIST_OK;
db:
	st = onlist_store_fail(s, errmsg);
	onlist_store_rollback(s);
	return st;
}

static gint by_score(gconstpointer a, gconstpointer b)
{
	const struct onlist_explain_cand *x = a, *y = b;

	return x->score < y->score ? 1 : x->score > y->score ? -1 : 0;
}

static void cand_free(struct onlist_explain_cand *x)
{
	g_free(x->msgid);
	g_free(x->from);
	g_free(x->subject);
}

struct explain_ctx {
	struct fuzzy_ctx f;
	int found;
};

static int explain_commit(const struct onlist_fuzzy_commit *c, void *data)
{
	struct explain_ctx *e = data;
	struct onlist_explain *x = e->f.explain;

	e->found = 1;
	if (fuzzy_prepare(&e->f, c)) {
		e->f.st = ONLIST_ENOMEM;
		return 1;
	}
	x->fuzzy = 1;
	x->author = g_strdup(e->f.addr);
	x->stripped = g_strdup(e->f.stripped);
	x->bound = c->bound;
	x->empty_diff = !c->nfp;
	if (c->nfp) {
		int64_t lo, hi;

		window(c, &lo, &hi);
		if (onlist_store_fuzzy_candidates(e->f.s, e->f.addr,
						  e->f.stripped, lo, hi, 1,
						  fuzzy_cand, &e->f) != ONLIST_OK)
			e->f.st = ONLIST_EDB;
	}
	g_array_sort(e->f.shown, by_score);
	fuzzy_done(&e->f);
	return 1;
}

onlist_status onlist_match_explain(struct onlist_store *s,
				   const struct onlist_match_opts *o,
				   const char *sha, struct onlist_explain *x,
				   char **errmsg)
{
	struct explain_ctx e;
	onlist_status st = ONLIST_OK;

	*errmsg = NULL;
	memset(x, 0, sizeof(*x));
	memset(&e, 0, sizeof(e));
	e.f.s = s;
	e.f.explain = x;
	e.f.shown = g_array_new(FALSE, FALSE,
				sizeof(struct onlist_explain_cand));
	e.f.threshold = o->threshold > 0 ? o->threshold : ONLIST_FUZZY_THRESHOLD;
	if (onlist_store_match_compute_bounds(s) != ONLIST_OK ||
	    tag_bounds(s, o) != ONLIST_OK ||
	    onlist__explain_links(s, sha, x) != ONLIST_OK ||
	    onlist__explain_subject(s, sha, x) != ONLIST_OK ||
	    onlist_store_fuzzy_commits(s, sha, NULL, explain_commit, &e) != ONLIST_OK ||
	    e.f.st != ONLIST_OK)
		st = onlist_store_fail(s, errmsg);
	x->ncands = e.f.shown->len;
	x->cands = (struct onlist_explain_cand *)g_array_free(e.f.shown, FALSE);
	return st;
}

void onlist_explain_release(struct onlist_explain *x)
{
	for (size_t i = 0; i < x->nlinks; i++) {
		g_free(x->links[i].msgid);
		g_free(x->links[i].subject);
		g_strfreev(x->links[i].files);
	}
	g_free(x->links);
	for (size_t i = 0; i < x->nsubjects; i++)
		g_strfreev(x->subjects[i].msgids);
	g_free(x->subjects);
	g_free(x->author);
	g_free(x->stripped);
	for (size_t i = 0; i < x->ncands; i++)
		cand_free(&x->cands[i]);
	g_free(x->cands);
	memset(x, 0, sizeof(*x));
}
