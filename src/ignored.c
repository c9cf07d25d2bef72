/* ignored.c - the series nobody answered and nobody applied (ignored.h):
 * the judgement, the scope and the walk; ignored_save.c writes the saved
 * judgement the walk reads. */
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/ignored.h"
#include "onlist/match.h"
#include "onlist/msgmeta.h"
#include "onlist/store.h"
#include "onlist/store_ignored.h"
#include "onlist/store_report.h"	/* onlist_store_report_span */
#include "ignored_int.h"

static const char *const state_names[ONLIST_IGN_NSTATES] = {
	[ONLIST_IGN_IGNORED] = "ignored",
	[ONLIST_IGN_APPLIED] = "applied",
	[ONLIST_IGN_OTHER] = "other_project",
	[ONLIST_IGN_ANSWERED] = "answered",
	[ONLIST_IGN_NOTICE] = "notice_only",
	[ONLIST_IGN_BEFORE] = "unknown_before",
	[ONLIST_IGN_AFTER] = "unknown_after",
	[ONLIST_IGN_RECENT] = "too_recent",
	[ONLIST_IGN_SUPERSEDED] = "superseded",
};

const char *onlist_ignored_state_name(enum onlist_ignored_state s)
{
	return (unsigned)s < ONLIST_IGN_NSTATES ? state_names[s] : "?";
}

int64_t onlist_ignored_line(const struct onlist_ignored_scope *sc)
{
	int64_t end;

	if (!sc->last_commit || !sc->last_mail)
		return 0;
	end = sc->last_commit < sc->last_mail ? sc->last_commit : sc->last_mail;
	return end - (sc->age >= 0 ? sc->age : ONLIST_IGNORED_AGE);
}

/* A display name as thread.h compares them: case and runs of white space
 * aside, and one of fewer than two words no name (one name is too common
 * to be one person's).  Walked a character at a time, not copied: the
 * names of a topic's authors are compared with every reply's (a whole
 * save: a copy of each, 0.4 s of 7.8 s CPU on 1,000,000 x 100,000). */
struct name_walk {
	const char *p;
	int space, words;
};

/* The next character of the name as compared (a word begun after
 * another gives a ' ' first), 0 at its end; w->words the words begun. */
static int name_next(struct name_walk *w)
{
	for (; *w->p; w->p++) {
		char c = *w->p;

		if (c == ' ' || c == '\t' || c == '"') {
			w->space = 1;
			continue;
		}
		if (w->space) {
			w->space = 0;
			if (w->words++)
				return ' ';	/* *w->p is the next one */
		}
		w->p++;
		return g_ascii_tolower(c);
	}
	return 0;
}

/* Whether name has two words or more. */
static int two_words(const char *name)
{
	struct name_walk w = { name, 1, 0 };

	while (w.words < 2 && name_next(&w))
		;
	return w.words >= 2;
}

/* Whether names a and b are one name, as compared, of two words or
 * more. */
static int same_name(const char *a, const char *b)
{
	struct name_walk x = { a, 1, 0 }, y = { b, 1, 0 };
	int c;

	do {
		if ((c = name_next(&x)) != name_next(&y))
			return 0;
	} while (c);
	return x.words >= 2;
}

/* Whether a line of `lines` (one a line) is `s`. */
static int has_line(const char *lines, const char *s)
{
	size_t n = strlen(s);

	if (!n)
		return 0;
	for (const char *p = lines; *p; ) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !memcmp(p, s, n))
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* Whether the reply is from one of the topic's authors. */
static int by_author(const struct onlist_ignored_msg *msgs, size_t n,
		     const struct onlist_ignored_reply *r)
{
	int named = two_words(r->from_name);

	for (size_t i = 0; i < n; i++) {
		const struct onlist_ignored_msg *m = &msgs[i];

		if (*r->from && (!strcmp(r->from, m->from) ||
				 !strcmp(r->from, m->author) ||
				 has_line(m->codev, r->from)))
			return 1;
		if (named && same_name(r->from_name, m->from_name))
			return 1;
	}
	return 0;
}

/* Whether a patch touches a path of the scope. */
static int touches(const struct onlist_ignored_scope *sc, const char *files)
{
	char *copy = g_strdup(files), *save = NULL;
	int yes = 0;

	for (char *p = strtok_r(copy, "\n", &save); p && !yes;
	     p = strtok_r(NULL, "\n", &save))
		yes = sc->known_path && sc->known_path(p, sc->path_data);
	g_free(copy);
	return yes;
}

/* What the replies decide, whatever else holds: ONLIST_IGN_ANSWERED by
 * the first answer, else ONLIST_IGN_NOTICE by the first notice (*reply
 * its index), else ONLIST_IGN_IGNORED (*reply -1). */
int onlist__ignored_reply_decides(const struct onlist_ignored_msg *msgs,
				  size_t n, const struct onlist_ignored_reply *r)
{
	/* a notice from anyone, a robot's (patchwork-bot) and the author's
	 * own too: the patch went somewhere */
	return r->notice || !(r->bot || by_author(msgs, n, r));
}

int onlist__ignored_reply_before(const struct onlist_ignored_reply *r,
				 const struct onlist_ignored_reply *first)
{
	/* of one date, the least Message-ID: the same whatever order the
	 * rows came in */
	return r->date < first->date ||
	       (r->date == first->date && strcmp(r->msgid, first->msgid) < 0);
}

enum onlist_ignored_state
onlist__ignored_reply_verdict(const struct onlist_ignored_msg *msgs, size_t n,
			      const struct onlist_ignored_reply *replies,
			      size_t nr, long *reply)
{
	long answer = -1, notice = -1;

	for (size_t i = 0; i < nr; i++) {
		const struct onlist_ignored_reply *r = &replies[i];
		long *first = r->notice ? &notice : &answer;

		if (!onlist__ignored_reply_decides(msgs, n, r))
			continue;
		if (*first < 0 ||
		    onlist__ignored_reply_before(r, &replies[*first]))
			*first = (long)i;
	}
	*reply = answer >= 0 ? answer : notice;
	return answer >= 0 ? ONLIST_IGN_ANSWERED :
	       notice >= 0 ? ONLIST_IGN_NOTICE : ONLIST_IGN_IGNORED;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

onlist_status onlist_ignored_judge(const struct onlist_ignored_scope *sc,
				   const struct onlist_ignored_msg *msgs,
				   size_t n,
				   const struct onlist_ignored_reply *replies,
				   size_t nr, struct onlist_ignored_out *out)
{
	size_t latest = 0;
	int touched = 0;
	int64_t line = onlist_ignored_line(sc);
	GHashTable *series;

	memset(out, 0, sizeof(*out));
	out->msg = out->reply = -1;
	if (!n)
		return ONLIST_EUSAGE;
	series = g_hash_table_new(g_str_hash, g_str_equal);
	/* the latest series: the highest version, then the latest posted */
	for (size_t i = 0; i < n; i++) {
		const struct onlist_ignored_msg *m = &msgs[i], *l = &msgs[latest];
		int seen = 0;

		g_hash_table_add(series, (gpointer)m->series);
		if (m->version > l->version ||
		    (m->version == l->version && strcmp(m->series, l->series) &&
		     m->date > l->date))
			latest = i;
		if (m->date > out->date)
			out->date = m->date;
		for (int k = 0; k < out->nversions; k++)
			seen |= out->versions[k] == m->version;
		if (!seen && out->nversions < (int)G_N_ELEMENTS(out->versions))
			out->versions[out->nversions++] = m->version;
		if (*m->commit && out->msg < 0)
			out->msg = (long)i;
		if (!m->cover && !touched)
			touched = touches(sc, m->files);
	}
	out->series = g_hash_table_size(series);
	g_hash_table_destroy(series);
	qsort(out->versions, (size_t)out->nversions, sizeof(int), cmp_int);
	/* its head: the message the series is named by, else its first */
	out->head = latest;
	for (size_t i = 0; i < n; i++) {
		const struct onlist_ignored_msg *m = &msgs[i];

		if (strcmp(m->series, msgs[latest].series))
			continue;
		if (!m->cover)
			out->patches++;
		if (!strcmp(m->msgid, m->series) ||
		    (strcmp(msgs[out->head].msgid, msgs[out->head].series) &&
		     m->date < msgs[out->head].date))
			out->head = i;
	}
	if (out->msg >= 0) {
		out->state = ONLIST_IGN_APPLIED;
		return ONLIST_OK;
	}
	if (!touched) {
		out->state = ONLIST_IGN_OTHER;
		return ONLIST_OK;
	}
	out->state = onlist__ignored_reply_verdict(msgs, n, replies, nr,
						   &out->reply);
	if (out->state != ONLIST_IGN_IGNORED)
		return ONLIST_OK;
	/* a newer patch cannot be judged yet; an older one may have landed
	 * before the scanned history starts */
	if (!sc->first_commit || out->date < sc->first_commit)
		out->state = ONLIST_IGN_BEFORE;
	else if (out->date > sc->last_commit)
		out->state = ONLIST_IGN_AFTER;
	else if (!line || out->date > line)
		out->state = ONLIST_IGN_RECENT;
	else
		out->state = ONLIST_IGN_IGNORED;
	return ONLIST_OK;
}

/* ---- the scope ---------------------------------------------------------- */

struct priv {
	GHashTable *paths, *dirs;	/* the commits' paths, their folders */
	char **prefixes;		/* --paths */
	size_t nprefixes;
	GPtrArray *notice;		/* the rules file's notice patterns */
};

/* The folder of a path ("" for a top-level file), in place. */
static char *parent(char *path)
{
	char *slash = strrchr(path, '/');

	if (slash)
		*slash = 0;
	else
		*path = 0;
	return path;
}

static int known_path(const char *path, void *data)
{
	struct priv *p = data;
	int ok;

	if (p->nprefixes) {
		ok = 0;
		for (size_t i = 0; i < p->nprefixes && !ok; i++) {
			size_t n = strlen(p->prefixes[i]);

			ok = !strncmp(path, p->prefixes[i], n) &&
			     (path[n] == '/' || !path[n] || !n ||
			      p->prefixes[i][n - 1] == '/');
		}
		if (!ok)
			return 0;
	}
	if (g_hash_table_contains(p->paths, path))
		return 1;
	/* a new file, in a folder the project has */
	{
		char *dir = parent(g_strdup(path));

		ok = *dir && g_hash_table_contains(p->dirs, dir);
		g_free(dir);
	}
	return ok;
}

static int commit_row(int64_t date, const char *files, void *data)
{
	struct onlist_ignored_ctx *ctx = data;
	struct priv *p = ctx->priv;
	char *copy, *save = NULL;

	ctx->commits++;
	if (date && (!ctx->scope.first_commit || date < ctx->scope.first_commit))
		ctx->scope.first_commit = date;
	if (date > ctx->scope.last_commit)
		ctx->scope.last_commit = date;
	copy = g_strdup(files);
	for (char *f = strtok_r(copy, "\n", &save); f;
	     f = strtok_r(NULL, "\n", &save)) {
		if (g_hash_table_contains(p->paths, f))
			continue;
		g_hash_table_add(p->paths, g_strdup(f));
		g_hash_table_add(p->dirs, parent(g_strdup(f)));
	}
	g_free(copy);
	return 0;
}

onlist_status onlist_ignored_ctx_init(struct onlist_ignored_ctx *ctx,
				      struct onlist_store *s,
				      const char *const *paths, size_t npaths,
				      int64_t age)
{
	struct priv *p = g_new0(struct priv, 1);
	char *canon;
	onlist_status st;

	memset(ctx, 0, sizeof(*ctx));
	ctx->priv = p;
	p->paths = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	p->dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	p->notice = g_ptr_array_new_with_free_func(g_free);
	p->prefixes = g_new0(char *, npaths + 1);
	for (size_t i = 0; i < npaths; i++) {
		const char *v = paths[i];

		while (v[0] == '.' && v[1] == '/')	/* "./src" is src */
			v += 2;
		p->prefixes[p->nprefixes++] = g_strdup(v);
	}
	ctx->scope.age = age >= 0 ? age : ONLIST_IGNORED_AGE;
	ctx->scope.known_path = known_path;
	ctx->scope.path_data = p;
	ctx->repo = onlist_store_get_meta(s, "repo");
	if ((st = onlist_store_ignored_commits(s, commit_row, ctx)) != ONLIST_OK)
		return st;
	ctx->paths = g_hash_table_size(p->paths);
	if ((st = onlist_store_report_span(s, &ctx->first_mail,
				    &ctx->scope.last_mail)) != ONLIST_OK)
		return st;
	/* the notice patterns of the rules file the last match read, as
	 * review_update.c keeps them in its key ("\x1fnotice PATTERN") */
	if ((canon = onlist_store_get_meta(s, "review_canon"))) {
		char **parts = g_strsplit(canon, "\x1f", -1);

		for (char **q = parts; *q; q++)
			if (!strncmp(*q, "notice ", 7))
				g_ptr_array_add(p->notice, g_strdup(*q + 7));
		g_strfreev(parts);
		free(canon);
	}
	return ONLIST_OK;
}

void onlist_ignored_ctx_release(struct onlist_ignored_ctx *ctx)
{
	struct priv *p = ctx->priv;

	if (p) {
		g_hash_table_destroy(p->paths);
		g_hash_table_destroy(p->dirs);
		g_strfreev(p->prefixes);
		g_ptr_array_free(p->notice, TRUE);
		g_free(p);
	}
	free(ctx->repo);
	memset(ctx, 0, sizeof(*ctx));
}

/* ---- the walk ----------------------------------------------------------- */

struct walk {
	struct onlist_ignored_ctx *ctx;
	onlist_ignored_cb cb;
	void *data;
	int stop;
	/* the topic being read */
	char *topic;
	GArray *msgs;
	GStringChunk *scratch;
	/* the topics kept for the replies, and their strings */
	GHashTable *cands;		/* topic -> struct cand */
	GHashTable *by_msg;		/* their messages' msgids -> cand */
	GPtrArray *order;		/* the topics, as read */
	GStringChunk *keep;
	/* sender -> GArray of struct prior: the patches of topics applied,
	 * answered or noticed, that may supersede an ignored one */
	GHashTable *priors;
	/* path -> struct file_use: how many topics change it */
	GHashTable *files;
	const char *only;		/* call cb for this topic only */
	GPtrArray *lists;		/* word_list()'s */
	int counted;			/* files holds the counts already */
	guint topic_no;			/* topics read so far */
	GStringChunk *words;		/* word_list()'s words, once each */
};

struct file_use {
	guint topics;
	guint last;			/* the last topic counted (topic_no) */
};

static void file_use_free(gpointer p)
{
	g_free(p);
}

/* Count the topic being read (w->topic_no) once for each path its
 * message changes. */
static void count_files(struct walk *w, const char *files)
{
	char *copy = g_strdup(files), *save = NULL;

	for (char *f = strtok_r(copy, "\n", &save); f;
	     f = strtok_r(NULL, "\n", &save)) {
		struct file_use *u = g_hash_table_lookup(w->files, f);

		if (!u) {
			u = g_new0(struct file_use, 1);
			g_hash_table_insert(w->files, g_strdup(f), u);
		}
		if (u->last == w->topic_no)
			continue;
		u->topics++;
		u->last = w->topic_no;
	}
	g_free(copy);
}

struct prior {
	int64_t date;
	const char *files, *subject;
	const char **words;		/* subject_words(), once needed */
	int nwords;
};

static const char *in(GStringChunk *c, const char *s);

static void add_prior(struct walk *w, const char *who,
		      const struct onlist_ignored_msg *m)
{
	struct prior p = { m->date, in(w->keep, m->files), in(w->keep, m->subject),
			   NULL, -1 };
	GArray *a;

	if (!*who)
		return;
	if (!(a = g_hash_table_lookup(w->priors, who))) {
		a = g_array_new(FALSE, FALSE, sizeof(struct prior));
		g_hash_table_insert(w->priors, (gpointer)in(w->keep, who), a);
	}
	g_array_append_val(a, p);
}

/* The patches of a topic that may supersede an ignored one. */
static void add_priors(struct walk *w, const struct onlist_ignored_msg *msgs,
		       size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (msgs[i].cover)
			continue;
		add_prior(w, msgs[i].from, &msgs[i]);
		if (strcmp(msgs[i].author, msgs[i].from))
			add_prior(w, msgs[i].author, &msgs[i]);
	}
}

/* Words in the subjects of any project's patches: two subjects that
 * share only these are not one piece of work ("tests: add test for X"). */
static const char *const common_words[] = {
	"add", "adds", "added", "fix", "fixes", "fixed", "test", "tests",
	"the", "and", "for", "with", "from", "into", "use", "when", "not",
	"support", "update", "remove", "make", "new", "patch", NULL
};

/* The words of a subject that say what it is about: lower case, three
 * letters or more, none of the common ones, without the [PATCH ...]
 * prefixes and "Re:". */
static GHashTable *subject_words(const char *subject)
{
	GHashTable *h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      NULL);
	const char *p = subject;

	for (;;) {	/* leading "[...]" groups and "Re:" */
		while (*p == ' ')
			p++;
		if (*p == '[' && strchr(p, ']'))
			p = strchr(p, ']') + 1;
		else if (!g_ascii_strncasecmp(p, "re:", 3))
			p += 3;
		else
			break;
	}
	while (*p) {
		const char *b = p;

		while (*p && (g_ascii_isalnum(*p) || *p == '_'))
			p++;
		if (p - b >= 3) {
			char *word = g_ascii_strdown(b, p - b);

			if (g_strv_contains(common_words, word))
				g_free(word);
			else
				g_hash_table_add(h, word);
		}
		while (*p && !(g_ascii_isalnum(*p) || *p == '_'))
			p++;
	}
	return h;
}

static gint cmp_topic(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const char *const *)a;
	uintptr_t y = (uintptr_t)*(const char *const *)b;

	return (x > y) - (x < y);
}

/* A subject's words (subject_words()) as one string each in w->keep,
 * by address: computed once a subject, compared without hashing. */
static const char **word_list(struct walk *w, const char *subject, int *n)
{
	GHashTable *h = subject_words(subject);
	GHashTableIter it;
	gpointer k;
	const char **v = g_new(const char *, g_hash_table_size(h) + 1);
	int i = 0;

	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, NULL))
		v[i++] = g_string_chunk_insert_const(w->words, k);
	g_hash_table_destroy(h);
	qsort(v, (size_t)i, sizeof(*v), cmp_ptr);
	g_ptr_array_add(w->lists, v);
	*n = i;
	return v;
}

/* Whether two subjects share half their words or more (Jaccard). */
static int similar(const char **a, int na, const char **b, int nb)
{
	int both = 0, all;

	for (int i = 0, j = 0; i < na && j < nb; ) {
		int c = cmp_ptr(&a[i], &b[j]);

		both += !c;
		i += c <= 0;
		j += c >= 0;
	}
	all = na + nb - both;
	return all && 2 * both >= all;
}

/* Files that every patch adding something touches (the list of tests
 * or objects): sharing one says nothing. */
static int hub_file(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "Makefile", 8) || !strncmp(base, "Kconfig", 7) ||
	       !strcmp(base, "Kbuild") || !strcmp(base, "meson.build") ||
	       !strcmp(base, "CMakeLists.txt") || !strcmp(base, "MAINTAINERS") ||
	       !strcmp(base, ".gitignore");
}

/* A file so few topics change (three at most, in the whole archive)
 * that two patches of one sender to it are one piece of work: a test
 * or driver of its own, sent again later under another subject. */
#define RARE_FILE 3

/* 0: the lists of paths (one a line) share no path but hub files; 1:
 * they do; 2: one of the shared paths is a rare one. */
static int share_file(struct walk *w, const char *a, const char *b)
{
	char *copy = g_strdup(a), *save = NULL;
	int yes = 0;

	for (char *p = strtok_r(copy, "\n", &save); p && yes < 2;
	     p = strtok_r(NULL, "\n", &save)) {
		struct file_use *u;

		if (hub_file(p) || !has_line(b, p))
			continue;
		u = g_hash_table_lookup(w->files, p);
		yes = u && u->topics <= RARE_FILE ? 2 : 1;
	}
	g_free(copy);
	return yes;
}

static gint by_prior_date(gconstpointer a, gconstpointer b)
{
	const struct prior *x = a, *y = b;

	return (x->date > y->date) - (x->date < y->date);
}

/* Each sender's priors by date, for superseded() to bisect. */
static void sort_priors(struct walk *w)
{
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, w->priors);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_array_sort(v, by_prior_date);
}

/* A later version of an ignored topic that thread.h did not link: a
 * prior (sort_priors()) of a sender of it posted within a year after. */
static int superseded(struct walk *w, const struct onlist_ignored_msg *msgs,
		      size_t n, int64_t date)
{
	for (size_t i = 0; i < n; i++) {
		const char *who[2] = { msgs[i].from, msgs[i].author };
		const char **words = NULL;
		int nwords = 0;

		if (msgs[i].cover)
			continue;
		for (int k = 0; k < 2; k++) {
			GArray *a = g_hash_table_lookup(w->priors, who[k]);
			guint lo = 0, hi = a ? a->len : 0;

			while (lo < hi) {	/* the first one after date */
				guint mid = lo + (hi - lo) / 2;

				if (g_array_index(a, struct prior, mid).date <= date)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (guint j = lo; a && j < a->len; j++) {
				struct prior *p = &g_array_index(a, struct prior, j);
				int shared;

				if (p->date - date >= 365 * 86400LL)
					break;
				shared = share_file(w, msgs[i].files, p->files);
				if (shared == 2)
					return 1;
				if (!shared)
					continue;
				if (!words)
					words = word_list(w, msgs[i].subject, &nwords);
				if (p->nwords < 0)
					p->words = word_list(w, p->subject, &p->nwords);
				if (similar(words, nwords, p->words, p->nwords))
					return 1;
			}
		}
	}
	return 0;
}

static const char *in(GStringChunk *c, const char *s)
{
	return g_string_chunk_insert(c, s);
}

void onlist__ignored_copy_msg(GStringChunk *c, struct onlist_ignored_msg *d,
			      const struct onlist_ignored_msg *m)
{
	*d = *m;
	d->msgid = in(c, m->msgid);
	d->series = in(c, m->series);
	d->list = in(c, m->list);
	d->from = in(c, m->from);
	d->from_name = in(c, m->from_name);
	d->subject = in(c, m->subject);
	d->author = in(c, m->author);
	d->codev = in(c, m->codev);
	d->files = in(c, m->files);
	d->commit = in(c, m->commit);
}

void onlist__ignored_cand_free(gpointer p)
{
	struct cand *c = p;

	g_array_free(c->msgs, TRUE);
	g_array_free(c->replies, TRUE);
	g_free(c);
}

/* The topic read so far: judged at once when replies cannot change its
 * answer (applied, another project's), else kept for them. */
static void flush(struct walk *w)
{
	struct onlist_ignored_out out;
	struct cand *c;
	const char *topic;

	if (!w->topic || !w->msgs->len || w->stop)
		goto out;
	onlist_ignored_judge(&w->ctx->scope, (struct onlist_ignored_msg *)
			     w->msgs->data, w->msgs->len, NULL, 0, &out);
	/* outside the caller's window: read for what it supersedes only */
	if ((w->ctx->since && out.date < w->ctx->since) ||
	    (w->ctx->until && out.date >= w->ctx->until)) {
		if (out.state == ONLIST_IGN_APPLIED)
			add_priors(w, (struct onlist_ignored_msg *)w->msgs->data,
				   w->msgs->len);
		goto out;
	}
	if (out.state == ONLIST_IGN_APPLIED || out.state == ONLIST_IGN_OTHER) {
		if (out.state == ONLIST_IGN_APPLIED)
			add_priors(w, (struct onlist_ignored_msg *)w->msgs->data,
				   w->msgs->len);
		if (!w->only || !strcmp(w->only, w->topic))
			w->stop = w->cb((struct onlist_ignored_msg *)w->msgs->data,
					w->msgs->len, NULL, 0, &out,
					w->data) != 0;
		goto out;
	}
	c = g_new0(struct cand, 1);
	c->msgs = g_array_sized_new(FALSE, FALSE,
				    sizeof(struct onlist_ignored_msg),
				    w->msgs->len);
	c->replies = g_array_new(FALSE, FALSE,
				 sizeof(struct onlist_ignored_reply));
	for (guint i = 0; i < w->msgs->len; i++) {
		struct onlist_ignored_msg d;

		onlist__ignored_copy_msg(w->keep, &d, &g_array_index(w->msgs,
					struct onlist_ignored_msg, i));
		g_array_append_val(c->msgs, d);
		g_hash_table_insert(w->by_msg, (gpointer)d.msgid, c);
	}
	topic = in(w->keep, w->topic);
	g_hash_table_insert(w->cands, (gpointer)topic, c);
	g_ptr_array_add(w->order, (gpointer)topic);
out:
	g_array_set_size(w->msgs, 0);
	g_string_chunk_clear(w->scratch);
	g_free(w->topic);
	w->topic = NULL;
}

static int member_row(const struct onlist_store_ignored_msg *r, void *data)
{
	struct walk *w = data;
	struct onlist_ignored_msg d;

	if (!w->topic || strcmp(w->topic, r->topic)) {
		flush(w);
		w->topic = g_strdup(r->topic);
		w->topic_no++;
	}
	if (r->skip)
		return w->stop;
	if (!r->m.cover && !w->counted)
		count_files(w, r->m.files);
	onlist__ignored_copy_msg(w->scratch, &d, &r->m);
	g_array_append_val(w->msgs, d);
	return w->stop;
}

/* A reply, its strings kept; notice decided.  notice: the rules
 * file's patterns. */
struct onlist_ignored_reply
onlist__ignored_keep_reply(GStringChunk *keep,
			   const struct onlist_store_ignored_reply *r,
			   GPtrArray *notice)
{
	struct onlist_ignored_reply d = r->r;

	d.msgid = in(keep, r->r.msgid);
	d.target = in(keep, r->r.target);
	d.from = in(keep, r->r.from);
	d.from_name = in(keep, r->r.from_name);
	d.notice = onlist__ignored_reply_notice(r, notice);
	return d;
}

int onlist__ignored_reply_notice(const struct onlist_store_ignored_reply *r,
				 GPtrArray *notice)
{
	/* the built-in patterns decided at import; a robot's notice and the
	 * rules file's patterns need the text (store_review.c's rule) */
	return !strcmp(r->kind, "notice") ||
	       (!strcmp(r->kind, "discussion") && *r->text &&
		(notice->len || r->r.bot) &&
		onlist_reply_is_notice(r->text,
				       (const char *const *)notice->pdata,
				       notice->len, r->r.bot));
}

static int reply_row(const struct onlist_store_ignored_reply *r, void *data)
{
	struct walk *w = data;
	struct priv *p = w->ctx->priv;
	struct cand *c = g_hash_table_lookup(w->by_msg, r->r.target);
	struct onlist_ignored_reply d;

	if (!c)
		return 0;
	d = onlist__ignored_keep_reply(w->keep, r, p->notice);
	g_array_append_val(c->replies, d);
	return 0;
}

/* The saved answer of a topic (onlist_ignored_update()), as the one
 * reply that decided it: the judgement finds the same. */
static int answer_row(const char *topic, int answer,
		      const struct onlist_ignored_reply *r, void *data)
{
	struct walk *w = data;
	struct cand *c = g_hash_table_lookup(w->cands, topic);
	struct onlist_ignored_reply d = *r;

	(void)answer;
	if (!c || !c->msgs->len)
		return 0;
	d.msgid = in(w->keep, r->msgid);
	d.target = g_array_index(c->msgs, struct onlist_ignored_msg, 0).msgid;
	d.from = in(w->keep, r->from);
	d.from_name = in(w->keep, r->from_name);
	g_array_append_val(c->replies, d);
	return 0;
}

/* Whether the saved judgement is the one of the threads stored: made by
 * the match that built them. */
static int saved_current(struct onlist_store *s)
{
	char *stamp = onlist_store_get_meta(s, "ignored_stamp");
	char *threads = onlist_store_get_meta(s, "threads_stamp");
	char *made = onlist_store_get_meta(s, "ignored_threads");
	int yes = stamp && threads && made && !strcmp(threads, made);

	free(stamp);
	free(threads);
	free(made);
	return yes;
}

int onlist__ignored_add_topic(const char *topic, void *data)
{
	GHashTable *h = data;

	if (!g_hash_table_contains(h, topic))
		g_hash_table_add(h, g_strdup(topic));
	return 0;
}

/* Into later (a set of topics): those with a patch of a sender or in-body
 * author of m[i], a patch itself, posted within a year after date: the
 * priors superseded() may meet. */
static onlist_status add_later(struct onlist_store *s,
			       const struct onlist_ignored_msg *m,
			       int64_t date, GHashTable *later)
{
	const char *who[2] = { m->from, m->author };
	onlist_status st = ONLIST_OK;

	if (m->cover)
		return ONLIST_OK;
	for (int j = 0; j < 2 && st == ONLIST_OK; j++)
		if (*who[j])
			st = onlist_store_ignored_later(s, who[j], date,
							date + 365 * 86400LL,
							onlist__ignored_add_topic,
							later);
	return st;
}

/* One topic from the saved tables, and the topics that may supersede it:
 * those with a patch of one of its senders posted within a year after
 * it (superseded()'s priors), with the counts of topics that change its
 * files (share_file()'s, the only ones it asks). */
static onlist_status load_one(struct walk *w, struct onlist_store *s,
			      const char *topic)
{
	GHashTable *later = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, NULL);
	GHashTableIter it;
	gpointer k;
	struct cand *c;
	onlist_status st;

	w->counted = 1;
	if ((st = onlist_store_ignored_members(s, 1, topic, member_row, w))
	    != ONLIST_OK)
		goto out;
	flush(w);
	if ((c = g_hash_table_lookup(w->cands, topic))) {
		const struct onlist_ignored_msg *m =
			(const struct onlist_ignored_msg *)c->msgs->data;
		int64_t date = 0;

		for (guint i = 0; i < c->msgs->len; i++)
			if (m[i].date > date)
				date = m[i].date;
		for (guint i = 0; i < c->msgs->len && st == ONLIST_OK; i++) {
			char *copy, *save = NULL;

			if (m[i].cover)
				continue;
			st = add_later(s, &m[i], date, later);
			copy = g_strdup(m[i].files);
			for (char *f = strtok_r(copy, "\n", &save);
			     f && st == ONLIST_OK; f = strtok_r(NULL, "\n", &save)) {
				struct file_use *u;
				long n;

				if (g_hash_table_contains(w->files, f))
					continue;
				st = onlist_store_ignored_file_topics(s, f, RARE_FILE + 1, &n);
				u = g_new0(struct file_use, 1);
				u->topics = (guint)n;
				g_hash_table_insert(w->files, g_strdup(f), u);
			}
			g_free(copy);
		}
		g_hash_table_remove(later, topic);
		g_hash_table_iter_init(&it, later);
		while (st == ONLIST_OK && g_hash_table_iter_next(&it, &k, NULL))
			st = onlist_store_ignored_members(s, 1, k, member_row, w);
		if (st == ONLIST_OK)
			flush(w);
	}
	/* the answers of the topics kept for them */
	for (guint i = 0; st == ONLIST_OK && i < w->order->len; i++)
		st = onlist_store_ignored_answers(s, g_ptr_array_index(w->order, i),
						  answer_row, w);
out:
	g_hash_table_destroy(later);
	return st;
}

/* The saved members of each topic of the set topics but those of skip
 * (NULL: none), in topic order (as a whole read meets them), each
 * flushed. */
static onlist_status read_topics(struct walk *w, struct onlist_store *s,
				 GHashTable *topics, GHashTable *skip)
{
	GPtrArray *v = g_ptr_array_sized_new(g_hash_table_size(topics));
	GHashTableIter it;
	gpointer k;
	onlist_status st = ONLIST_OK;

	g_hash_table_iter_init(&it, topics);
	while (g_hash_table_iter_next(&it, &k, NULL))
		if (!skip || !g_hash_table_contains(skip, k))
			g_ptr_array_add(v, k);
	g_ptr_array_sort(v, cmp_topic);
	for (guint i = 0; i < v->len && st == ONLIST_OK && !w->stop; i++)
		st = onlist_store_ignored_members(s, 1, g_ptr_array_index(v, i),
						  member_row, w);
	if (st == ONLIST_OK)
		flush(w);
	g_ptr_array_free(v, TRUE);
	return st;
}

/* The topics of the caller's window (ctx since, until) from the saved
 * tables, in the order of a whole read (by topic), each with its answer:
 * those whose latest message is in the window have one there.  The
 * others, read whole, would only add priors (load_later() reads those
 * that can) and counts of files (count_shared()). */
static onlist_status load_window(struct walk *w, struct onlist_store *s,
				 GHashTable *read)
{
	onlist_status st;

	/* counted in the topics read: enough for most paths (count_shared()) */
	w->counted = 0;
	if ((st = onlist_store_ignored_dated(s, w->ctx->since, w->ctx->until ?
					     w->ctx->until : INT64_MAX,
					     onlist__ignored_add_topic, read))
	    != ONLIST_OK)
		return st;
	st = read_topics(w, s, read, NULL);
	for (guint i = 0; st == ONLIST_OK && i < w->order->len; i++)
		st = onlist_store_ignored_answers(s, g_ptr_array_index(w->order, i),
						  answer_row, w);
	return st;
}

/* The topics that may supersede an ignored one of the window (judged):
 * those with a patch of one of its senders posted within a year after
 * it, read for their priors (flush(): the applied ones; answered ones
 * outside the window are not read for their replies, as in a whole
 * read). */
static onlist_status load_later(struct walk *w, struct onlist_store *s,
				GHashTable *read)
{
	GHashTable *later = g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, NULL);
	onlist_status st = ONLIST_OK;

	for (guint i = 0; st == ONLIST_OK && i < w->order->len; i++) {
		struct cand *c = g_hash_table_lookup(w->cands,
						     g_ptr_array_index(w->order, i));
		const struct onlist_ignored_msg *m =
			(const struct onlist_ignored_msg *)c->msgs->data;
		int64_t date = c->out.date;

		if (c->out.state != ONLIST_IGN_IGNORED)
			continue;
		for (guint j = 0; j < c->msgs->len && st == ONLIST_OK; j++)
			st = add_later(s, &m[j], date, later);
	}
	if (st == ONLIST_OK)
		st = read_topics(w, s, later, read);
	g_hash_table_destroy(later);
	return st;
}

/* The paths superseded() will ask the count of (share_file()): of an
 * ignored topic's patch, no hub file, changed by a prior it meets; added
 * to need (path -> struct file_use) unless the topics read already
 * change it four times or more (w->files: not rare, whatever the rest). */
static void need_counts(struct walk *w, const struct onlist_ignored_msg *msgs,
			size_t n, int64_t date, GHashTable *need)
{
	for (size_t i = 0; i < n; i++) {
		const char *who[2] = { msgs[i].from, msgs[i].author };

		if (msgs[i].cover)
			continue;
		for (int k = 0; k < 2; k++) {
			GArray *a = g_hash_table_lookup(w->priors, who[k]);

			for (guint j = 0; a && j < a->len; j++) {
				struct prior *p = &g_array_index(a, struct prior, j);
				char *copy, *save = NULL;

				if (p->date <= date ||
				    p->date - date >= 365 * 86400LL)
					continue;
				copy = g_strdup(msgs[i].files);
				for (char *f = strtok_r(copy, "\n", &save); f;
				     f = strtok_r(NULL, "\n", &save)) {
					struct file_use *u =
						g_hash_table_lookup(w->files, f);

					if (hub_file(f) || !has_line(p->files, f) ||
					    (u && u->topics > RARE_FILE) ||
					    g_hash_table_contains(need, f))
						continue;
					g_hash_table_insert(need, g_strdup(f),
							    g_new0(struct file_use, 1));
				}
				g_free(copy);
			}
		}
	}
}

struct file_count {
	GHashTable *need;
	char *topic;
	guint topic_no;
	guint pending;		/* paths of need not yet past RARE_FILE */
};

static int file_row(const char *topic, const char *files, void *data)
{
	struct file_count *fc = data;
	char *copy, *save = NULL;

	if (!fc->topic || strcmp(fc->topic, topic)) {
		g_free(fc->topic);
		fc->topic = g_strdup(topic);
		fc->topic_no++;
	}
	copy = g_strdup(files);
	for (char *f = strtok_r(copy, "\n", &save); f;
	     f = strtok_r(NULL, "\n", &save)) {
		struct file_use *u = g_hash_table_lookup(fc->need, f);

		if (!u || u->last == fc->topic_no || u->topics > RARE_FILE)
			continue;
		u->topics++;
		u->last = fc->topic_no;
		fc->pending -= u->topics > RARE_FILE;
	}
	g_free(copy);
	return !fc->pending;	/* each one known not rare: enough */
}

/* How many topics of the whole table change each path superseded() will
 * ask of, as a whole read counts them (member_row()) up to RARE_FILE + 1:
 * counted in the topics read (w->files), and for those few there, in one
 * pass over the saved patches' files that stops once each is past
 * RARE_FILE; none when no ignored topic meets a prior. */
static onlist_status count_shared(struct walk *w, struct onlist_store *s)
{
	GHashTable *need = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, file_use_free);
	struct file_count fc = { need, NULL, 0, 0 };
	GHashTableIter it;
	gpointer k, v;
	onlist_status st = ONLIST_OK;

	for (guint i = 0; i < w->order->len; i++) {
		struct cand *c = g_hash_table_lookup(w->cands,
						     g_ptr_array_index(w->order, i));

		if (c->out.state == ONLIST_IGN_IGNORED)
			need_counts(w, (struct onlist_ignored_msg *)c->msgs->data,
				    c->msgs->len, c->out.date, need);
	}
	if ((fc.pending = g_hash_table_size(need)))
		st = onlist_store_ignored_patch_files(s, file_row, &fc);
	g_hash_table_iter_init(&it, need);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct file_use *u = g_hash_table_lookup(w->files, k);

		if (!u) {
			u = g_new0(struct file_use, 1);
			g_hash_table_insert(w->files, g_strdup(k), u);
		}
		u->topics = ((struct file_use *)v)->topics;
	}
	g_hash_table_destroy(need);
	g_free(fc.topic);
	return st;
}

onlist_status onlist_ignored_run(struct onlist_ignored_ctx *ctx,
				 struct onlist_store *s, const char *msgid,
				 onlist_ignored_cb cb, void *data)
{
	struct walk w = { .ctx = ctx, .cb = cb, .data = data };
	char *topic = NULL;
	GHashTable *read = NULL;
	onlist_status st;
	int saved, window;

	if (msgid) {
		if ((st = onlist_store_ignored_topic(s, msgid, &topic)) != ONLIST_OK)
			return st;
		if (!topic)
			return ONLIST_ENOTFOUND;
	}
	w.only = topic;
	w.msgs = g_array_new(FALSE, FALSE, sizeof(struct onlist_ignored_msg));
	w.scratch = g_string_chunk_new(4096);
	w.keep = g_string_chunk_new(1 << 16);
	w.cands = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					onlist__ignored_cand_free);
	w.order = g_ptr_array_new();
	w.by_msg = g_hash_table_new(g_str_hash, g_str_equal);
	w.priors = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					 (GDestroyNotify)g_array_unref);
	w.files = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					file_use_free);
	w.lists = g_ptr_array_new_with_free_func(g_free);
	w.words = g_string_chunk_new(4096);
	saved = saved_current(s);
	/* a window opened below (the report's period): from the saved
	 * tables, its topics and those that may supersede them only */
	window = saved && !topic && ctx->since;
	/* every topic, even for one: a later one may supersede it; from the
	 * saved tables, only those that can */
	if (saved && topic)
		st = load_one(&w, s, topic);
	else if (window) {
		read = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					     NULL);
		st = load_window(&w, s, read);
	} else
		st = onlist_store_ignored_members(s, saved, NULL, member_row, &w);
	if (st == ONLIST_OK)
		flush(&w);
	if ((saved && topic) || window) {
		;	/* load_one(), load_window() read the answers */
	} else if (st == ONLIST_OK && !w.stop && w.order->len && saved) {
		st = onlist_store_ignored_answers(s, NULL, answer_row, &w);
	} else if (st == ONLIST_OK && !w.stop && w.order->len) {
		/* the replies to the topics they can decide, only */
		guint n = 0;
		gpointer *ids = g_hash_table_get_keys_as_array(w.by_msg, &n);

		st = onlist_store_ignored_replies_to(s, (const char *const *)ids,
						     n, reply_row, &w);
		onlist_store_ignored_targets_drop(s);
		g_free(ids);
	}
	/* judged first, all of them: an answered topic may supersede an
	 * ignored one read before it */
	for (guint i = 0; st == ONLIST_OK && i < w.order->len; i++) {
		struct cand *c = g_hash_table_lookup(w.cands,
						     g_ptr_array_index(w.order, i));

		onlist_ignored_judge(&ctx->scope, (struct onlist_ignored_msg *)
				     c->msgs->data, c->msgs->len,
				     (struct onlist_ignored_reply *)c->replies->data,
				     c->replies->len, &c->out);
		if (c->out.state == ONLIST_IGN_ANSWERED ||
		    c->out.state == ONLIST_IGN_NOTICE)
			add_priors(&w, (struct onlist_ignored_msg *)c->msgs->data,
				   c->msgs->len);
	}
	if (window && st == ONLIST_OK && !w.stop)
		st = load_later(&w, s, read);
	sort_priors(&w);
	if (window && st == ONLIST_OK && !w.stop)
		st = count_shared(&w, s);
	for (guint i = 0; st == ONLIST_OK && !w.stop && i < w.order->len; i++) {
		const char *t = g_ptr_array_index(w.order, i);
		struct cand *c = g_hash_table_lookup(w.cands, t);

		if (topic && strcmp(topic, t))
			continue;
		if (c->out.state == ONLIST_IGN_IGNORED &&
		    superseded(&w, (struct onlist_ignored_msg *)c->msgs->data,
			       c->msgs->len, c->out.date))
			c->out.state = ONLIST_IGN_SUPERSEDED;
		w.stop = cb((struct onlist_ignored_msg *)c->msgs->data,
			    c->msgs->len,
			    (struct onlist_ignored_reply *)c->replies->data,
			    c->replies->len, &c->out, data) != 0;
	}
	g_free(w.topic);
	g_array_free(w.msgs, TRUE);
	g_string_chunk_free(w.scratch);
	g_hash_table_destroy(w.by_msg);
	g_hash_table_destroy(w.cands);
	g_ptr_array_free(w.order, TRUE);
	g_hash_table_destroy(w.priors);
	g_hash_table_destroy(w.files);
	g_ptr_array_free(w.lists, TRUE);
	g_string_chunk_free(w.words);
	g_string_chunk_free(w.keep);
	if (read)
		g_hash_table_destroy(read);
	free(topic);
	return st;
}
