/* thread.c - threads, replies, series and topics of messages in memory
 * (see thread.h).  The store reads and writes them; no SQL here. */
#include <limits.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <glib.h>

#include "onlist/buf.h"
#include "onlist/thread.h"

enum { C_PATCH, C_COVER, C_PULL, C_REPLY, C_OTHER };

/* name_topics()'s tables are tens of MB of small blocks for a million
 * messages; freed, glibc keeps their pages (resident) unless asked, and
 * the replies and the rows written next come on top (1,000,000 tiny
 * messages: peak RSS 260 MB -> 251 MB). */
static void give_back(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

struct graph {
	struct onlist_thread_msg *n;
	size_t len;
	unsigned char *cls;	/* C_* of each message */
	unsigned char *state;	/* resolve(): 0 open, 1 on the path, 2 done */
	/* msgid -> index + 1 of the first message with it, 0 for an empty
	 * slot; open addressing over twice as many slots as messages (a
	 * GLib hash table holds a key, a value and a hash a slot: 42 MB
	 * for a million messages, against 8) */
	unsigned *ids;
	size_t mask;
};

unsigned char onlist_class_code(const char *c)
{
	if (!c)
		return ONLIST_CLS_UNKNOWN;
	if (!strcmp(c, ONLIST_CLASS_PATCH))
		return ONLIST_CLS_PATCH;
	if (!strcmp(c, ONLIST_CLASS_COVER))
		return ONLIST_CLS_COVER;
	if (!strcmp(c, ONLIST_CLASS_PULL))
		return ONLIST_CLS_PULL;
	if (!strcmp(c, ONLIST_CLASS_REPLY))
		return ONLIST_CLS_REPLY;
	return ONLIST_CLS_OTHER;
}

static int class_of(unsigned char c, int has_patch)
{
	switch (c) {
	case ONLIST_CLS_UNKNOWN:	/* imported before classes were kept */
		return has_patch ? C_PATCH : C_OTHER;
	case ONLIST_CLS_PATCH:
		return C_PATCH;
	case ONLIST_CLS_COVER:
		return C_COVER;
	case ONLIST_CLS_PULL:
		return C_PULL;
	case ONLIST_CLS_REPLY:
		return C_REPLY;
	default:
		return C_OTHER;
	}
}

static size_t hash_id(const char *id, size_t len)
{
	uint32_t h = 5381;

	for (size_t i = 0; i < len; i++)
		h = h * 33 + (unsigned char)id[i];
	return h;
}

/* The slot of id[0..len) in g->ids: its message's, else the empty one
 * where it would go. */
static size_t id_slot(const struct graph *g, const char *id, size_t len)
{
	size_t j = hash_id(id, len) & g->mask;

	while (g->ids[j]) {
		const char *m = g->n[g->ids[j] - 1].msgid;

		if (!strncmp(m, id, len) && !m[len])
			break;
		j = (j + 1) & g->mask;
	}
	return j;
}

static int lookup(struct graph *g, const char *id, size_t len)
{
	/* ids of 1 KB or more are never found (they were looked up through
	 * a buffer of that size) */
	if (!len || len >= 1024)
		return -1;
	return (int)g->ids[id_slot(g, id, len)] - 1;
}

static onlist_status add_pending(struct onlist_threads *t, int self,
				 const char *ref, size_t len, size_t *cap)
{
	if (!len)
		return ONLIST_OK;
	if (t->npending == *cap) {
		struct onlist_thread_pending *p = onlist_grow(t->pending, cap,
							      sizeof *p, 1024);

		if (!p)
			return ONLIST_ENOMEM;
		t->pending = p;
	}
	t->pending[t->npending].msg = self;
	t->pending[t->npending].ref = ref;
	t->pending[t->npending].len = len;
	t->npending++;
	return ONLIST_OK;
}

/* The nearest stored parent: In-Reply-To, else the last stored entry of
 * References (a missing parent is skipped over, not fatal).  What was
 * looked for in vain goes to t->pending; *parent is -1 for none. */
static onlist_status find_parent(struct graph *g, int self,
				 struct onlist_threads *t, size_t *cap,
				 int *parent)
{
	struct onlist_thread_msg *x = &g->n[self];
	size_t len = strlen(x->in_reply_to);
	const char *r, *end;
	int p;

	*parent = -1;
	if ((p = lookup(g, x->in_reply_to, len)) >= 0 && p != self) {
		*parent = p;
		return ONLIST_OK;
	}
	if (p < 0 && add_pending(t, self, x->in_reply_to, len, cap) != ONLIST_OK)
		return ONLIST_ENOMEM;
	end = x->refs + strlen(x->refs);
	while (end > x->refs) {
		while (end > x->refs && end[-1] == ' ')
			end--;
		r = end;
		while (r > x->refs && r[-1] != ' ')
			r--;
		if (r < end && (p = lookup(g, r, (size_t)(end - r))) >= 0 &&
		    p != self) {
			*parent = p;
			return ONLIST_OK;
		}
		if (r < end && p < 0 &&
		    add_pending(t, self, r, (size_t)(end - r), cap) != ONLIST_OK)
			return ONLIST_ENOMEM;
		end = r;
	}
	return ONLIST_OK;
}

/* Cover letters by structure (thread.h): a mail without a patch that a
 * numbered patch from its sender answers is the cover letter of that
 * patch's series, whatever its subject ("[v4] ...", "[PATCH] ...",
 * "[RFC] ...", or sent as a reply into an older version's thread).  It
 * takes the patches' length, and their version when it names none. */
static void find_covers(struct graph *g)
{
	for (size_t i = 0; i < g->len; i++) {
		const struct onlist_thread_msg *x = &g->n[i];
		struct onlist_thread_msg *c;
		int p = x->parent;

		if (g->cls[i] != C_PATCH || x->reply || x->part < 1 ||
		    x->total < 1 || p < 0 ||
		    (g->cls[p] != C_REPLY && g->cls[p] != C_OTHER))
			continue;
		c = &g->n[p];
		if (!*c->from || strcmp(c->from, x->from))
			continue;
		g->cls[p] = C_COVER;
		c->part = 0;
		c->total = x->total;
		if (c->version <= 1)
			c->version = x->version;
	}
}

/* Root, depth and the patch or cover letter each message answers, top
 * down along each path; a loop in the references is cut where found.
 * Iterative: a thread thousands of replies deep costs nothing special. */
static void resolve(struct graph *g)
{
	GArray *path = g_array_new(FALSE, FALSE, sizeof(int));

	for (size_t i = 0; i < g->len; i++) {
		int j = (int)i;

		if (g->state[i] == 2)
			continue;
		g_array_set_size(path, 0);
		while (j >= 0 && g->state[j] == 0) {
			g->state[j] = 1;
			g_array_append_val(path, j);
			j = g->n[j].parent;
		}
		if (j >= 0 && g->state[j] == 1) {
			/* A loop: j becomes a root; walk again. */
			g->n[j].parent = -1;
			for (guint k = 0; k < path->len; k++)
				g->state[g_array_index(path, int, k)] = 0;
			i--;
			continue;
		}
		for (guint k = path->len; k-- > 0;) {
			int xi = g_array_index(path, int, k);
			struct onlist_thread_msg *x = &g->n[xi];
			int p = x->parent;

			if (p < 0) {
				x->root = xi;
				x->depth = 0;
				x->answers = -1;
			} else {
				x->root = g->n[p].root;
				x->depth = g->n[p].depth + 1;
				x->answers = g->cls[p] == C_PATCH ||
					     g->cls[p] == C_COVER ?
					     p : g->n[p].answers;
				/* below a reviewer's "how about this" (a
				 * "Re:" with a diff): about the patch it
				 * answers ("Yes. Feel free to add:
				 * Reviewed-by: ..." to the maintainer's
				 * proposed change); a new patch sent there
				 * keeps answering it, as topics are linked
				 * by what patches answer */
				if (g->cls[p] == C_PATCH && g->n[p].reply &&
				    g->n[p].answers >= 0 &&
				    (g->cls[xi] != C_PATCH || x->reply))
					x->answers = g->n[p].answers;
			}
			g->state[xi] = 2;
		}
	}
	g_array_free(path, TRUE);
}

#define ORPHAN_WINDOW (30 * 86400)	/* a reply answers within a month */

/* A reply whose mailer dropped In-Reply-To and References (or whose
 * parents all are missing) answers the latest patch or cover letter with
 * the same subject sent before it (a day of clock slack), from someone
 * else, within ORPHAN_WINDOW.  Its thread is left as it is: only what it
 * answers is found. */
static void adopt_orphans(struct graph *g)
{
	GHashTable *by_subject = g_hash_table_new_full(g_str_hash, g_str_equal,
						       g_free, (GDestroyNotify)g_array_unref);

	for (size_t i = 0; i < g->len; i++) {
		GArray *a;
		char *k;
		int v = (int)i;

		if ((g->cls[i] != C_PATCH && g->cls[i] != C_COVER) ||
		    !g->n[i].stripped[0])
			continue;
		k = g_utf8_strdown(g->n[i].stripped, -1);
		if (!(a = g_hash_table_lookup(by_subject, k))) {
			a = g_array_new(FALSE, FALSE, sizeof(int));
			g_hash_table_insert(by_subject, k, a);
		} else {
			g_free(k);
		}
		g_array_append_val(a, v);
	}
	for (size_t i = 0; i < g->len; i++) {
		struct onlist_thread_msg *x = &g->n[i];
		int best = -1;
		GArray *a;
		char *k;

		if (x->parent >= 0 || g->cls[i] != C_REPLY || !x->stripped[0])
			continue;
		k = g_utf8_strdown(x->stripped, -1);
		a = g_hash_table_lookup(by_subject, k);
		g_free(k);
		for (guint j = 0; a && j < a->len; j++) {
			int h = g_array_index(a, int, j);
			int64_t d = x->date - g->n[h].date;

			if (d < -86400 || d > ORPHAN_WINDOW ||
			    !strcmp(g->n[h].from, x->from))
				continue;
			if (best < 0 || g->n[h].date > g->n[best].date)
				best = h;
		}
		x->answers = best;
	}
	g_hash_table_destroy(by_subject);
}

/* Key of the series a numbered patch without a threaded head may belong
 * to: same sender, version and length. */
static char *fallback_key(const struct onlist_thread_msg *x)
{
	return g_strdup_printf("%s\x1f%d\x1f%d", x->from, x->version, x->total);
}

#define FALLBACK_WINDOW 3600	/* seconds between a head and its patches */

static int nearest_head(struct graph *g, GHashTable *heads,
			const struct onlist_thread_msg *x, int covers_only)
{
	char *key = fallback_key(x);
	GArray *a = g_hash_table_lookup(heads, key);
	int best = -1;
	int64_t bestd = FALLBACK_WINDOW + 1;

	g_free(key);
	for (guint k = 0; a && k < a->len; k++) {
		int h = g_array_index(a, int, k);
		int64_t d = g->n[h].date - x->date;

		if (d < 0)
			d = -d;
		if (covers_only && g->cls[h] != C_COVER)
			continue;
		if (d < bestd || (d == bestd && g->cls[h] == C_COVER)) {
			best = h;
			bestd = d;
		}
	}
	return best;
}

static void group_series(struct graph *g)
{
	GHashTable *heads = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						  (GDestroyNotify)g_array_unref);

	/* Possible heads of a series: cover letters and first patches. */
	for (size_t i = 0; i < g->len; i++) {
		struct onlist_thread_msg *x = &g->n[i];
		int v = (int)i;
		char *key;
		GArray *a;

		x->series = -1;
		if (x->total <= 0 || !((g->cls[i] == C_COVER && x->part == 0) ||
				       (g->cls[i] == C_PATCH && x->part == 1)))
			continue;
		key = fallback_key(x);
		if (!(a = g_hash_table_lookup(heads, key))) {
			a = g_array_new(FALSE, FALSE, sizeof(int));
			g_hash_table_insert(heads, key, a);
		} else {
			g_free(key);
		}
		g_array_append_val(a, v);
	}
	for (size_t i = 0; i < g->len; i++) {
		struct onlist_thread_msg *x = &g->n[i];
		int y, cover = -1, first = -1, steps = 0;

		if (g->cls[i] != C_PATCH && g->cls[i] != C_COVER)
			continue;
		if (x->total <= 0 || g->cls[i] == C_COVER) {
			x->series = (int)i;
			continue;
		}
		for (y = x->parent; y >= 0 && steps < 10000;
		     y = g->n[y].parent, steps++) {
			struct onlist_thread_msg *a = &g->n[y];

			if (a->total != x->total)
				continue;
			if (g->cls[y] == C_COVER && a->part == 0) {
				cover = y;
				break;
			}
			if (g->cls[y] == C_PATCH && a->part == 1 &&
			    !strcmp(a->from, x->from))
				first = y;
		}
		if (cover >= 0)
			x->series = cover;
		else if (first >= 0)
			x->series = first;
		else if ((y = nearest_head(g, heads, x, x->part == 1)) >= 0)
			x->series = y;
		else
			x->series = (int)i;
	}
	/* A first patch whose series head is another first patch follows
	 * that one's head (threaded under a cover found by date). */
	for (size_t i = 0; i < g->len; i++) {
		struct onlist_thread_msg *x = &g->n[i];

		if (x->series >= 0 && g->n[x->series].series >= 0 &&
		    g->n[x->series].series != x->series)
			x->series = g->n[x->series].series;
	}
	g_hash_table_destroy(heads);
}

/* The topic of a series: its change-id, else sender and subject of the
 * head.  Versions of one piece of work share it. */
static char *topic_of(struct graph *g, int head, GHashTable *change_ids)
{
	const struct onlist_thread_msg *h = &g->n[head];
	const char *cid = h->change_id[0] ? h->change_id :
			  g_hash_table_lookup(change_ids, GINT_TO_POINTER(head + 1));
	char *t, *low;

	if (cid && *cid)
		return g_strdup_printf("change-id:%s", cid);
	low = g_utf8_strdown(h->stripped, -1);
	t = g_strdup_printf("%s\x1f%s", h->from, low);
	g_free(low);
	return t;
}

static onlist_status add_reply(struct onlist_threads *t, struct graph *g,
			       int patch, int reply, size_t *cap)
{
	if (t->nreplies == *cap) {
		struct onlist_thread_reply *r = onlist_grow(t->replies, cap,
							    sizeof *r, 1024);

		if (!r)
			return ONLIST_ENOMEM;
		t->replies = r;
	}
	t->replies[t->nreplies].patch = patch;
	t->replies[t->nreplies].reply = reply;
	t->replies[t->nreplies].by_author =
		!strcmp(g->n[patch].from, g->n[reply].from);
	t->nreplies++;
	return ONLIST_OK;
}

/* Union-find over series heads: the versions of one piece of work. */
static int uf_find(int *up, int i)
{
	while (up[i] != i) {
		up[i] = up[up[i]];
		i = up[i];
	}
	return i;
}

static void uf_join(int *up, int a, int b)
{
	a = uf_find(up, a);
	b = uf_find(up, b);
	/* the smaller index wins: the result does not depend on the order
	 * in which links are found */
	if (a < b)
		up[b] = a;
	else if (b < a)
		up[a] = b;
}

/* a names a topic before b */
static int key_before(const char *a, const char *b)
{
	int ca = !strncmp(a, "change-id:", 10), cb = !strncmp(b, "change-id:", 10);

	return ca != cb ? ca : strcmp(a, b) < 0;
}

/* Join the series heads that have the same value of some key (borrowed:
 * it must outlive the table). */
static void join_by(GHashTable *first, int *up, const char *key, int head)
{
	gpointer v = g_hash_table_lookup(first, key);

	if (v)
		uf_join(up, GPOINTER_TO_INT(v) - 1, head);
	else
		g_hash_table_insert(first, (gpointer)key, GINT_TO_POINTER(head + 1));
}

/* "from\x1fsubject", as topic_of() names a series without a change-id */
static const char *patch_key(GStringChunk *c, const char *from, const char *low)
{
	char *k = g_strdup_printf("%s\x1f%s", from, low);
	const char *v = g_string_chunk_insert(c, k);

	g_free(k);
	return v;
}

/* The display name as a key: case folded, white space made one space, or
 * NULL when it has fewer than two words (a first name alone, or an
 * address written as the name, says too little of who sent it).  The
 * result is malloc'd with GLib. */
static char *name_key(const char *name)
{
	GString *k;
	char *low;
	int words = 0, gap = 1;

	if (!name || !*name)
		return NULL;
	low = g_utf8_casefold(name, -1);
	k = g_string_new("\x1e");	/* apart from the addresses */
	for (const char *p = low; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '"') {
			gap = 1;
			continue;
		}
		if (gap) {
			if (words++)
				g_string_append_c(k, ' ');
			gap = 0;
		}
		g_string_append_c(k, *p);
	}
	g_free(low);
	if (words < 2) {
		g_string_free(k, TRUE);
		return NULL;
	}
	return g_string_free(k, FALSE);
}

/* Join a series to the others whose patches or heads have the same
 * subject and the same person by another identity than the sender's
 * address (thread.h): the in-body author, unless a backport, and two-word
 * display names. */
static void join_people(GHashTable *first, int *up, GStringChunk *c,
			const struct onlist_thread_msg *x, const char *low)
{
	const char *names[2] = { x->from_name, NULL };
	int inbody = x->author && *x->author && !x->backport;

	if (inbody && strcmp(x->author, x->from))
		join_by(first, up, patch_key(c, x->author, low), x->series);
	if (inbody)
		names[1] = x->author_name;
	for (int k = 0; k < 2; k++) {
		char *n = name_key(names[k]);

		if (n)
			join_by(first, up, patch_key(c, n, low), x->series);
		g_free(n);
	}
}

/* The topic of each series head, into t->owned[root] for the root of
 * its set of versions (see uf_find()), and into topic of each message of
 * a series; t->topics counts them.  Series are
 * versions of one topic when they share the key topic_of() gives (the
 * change-id, else sender and head subject), and also when
 * - a patch of one has the sender and subject of a patch (or the head) of
 *   the other: the cover letter was renamed between v1 and v2, its
 *   patches were not;
 * - the head of one answers a patch or cover letter of the other, with a
 *   lower version: a v2 sent as a reply to v1 (by whoever sent it: a
 *   series taken over by someone else is still the same work).
 * A topic is named by the least key of its series, a change-id before any
 * other (strcmp among equals), so that it does not depend on the order the
 * messages come in. */
static onlist_status name_topics(struct graph *g, struct onlist_threads *t,
				 GHashTable *change_ids)
{
	GHashTable *first = g_hash_table_new(g_str_hash, g_str_equal);
	GStringChunk *patch_keys = g_string_chunk_new(1 << 16);
	/* the key of each head; in the end, that of its set at the root */
	char **key = t->owned;
	int *up = malloc((g->len ? g->len : 1) * sizeof(*up));
	onlist_status ret = ONLIST_OK;

	if (!up) {
		ret = ONLIST_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < g->len; i++) {
		up[i] = (int)i;
		if (g->n[i].series == (int)i) {
			key[i] = topic_of(g, (int)i, change_ids);
			join_by(first, up, key[i], (int)i);
		}
	}
	for (size_t i = 0; i < g->len; i++) {
		const struct onlist_thread_msg *x = &g->n[i];
		int a = x->answers;
		char *low = NULL;

		if (x->series < 0)
			continue;
		/* lower-cased once for both keys below */
		if ((g->cls[i] == C_PATCH || x->series == (int)i) &&
		    x->stripped[0])
			low = g_utf8_strdown(x->stripped, -1);
		/* a patch that heads its series without a change-id has
		 * this key already (topic_of) */
		if (g->cls[i] == C_PATCH && low &&
		    (x->series != (int)i || !strncmp(key[i], "change-id:", 10)))
			join_by(first, up, patch_key(patch_keys, x->from, low),
				x->series);
		if (low)
			join_people(first, up, patch_keys, x, low);
		g_free(low);
		if (x->series == (int)i && a >= 0 && g->n[a].series >= 0 &&
		    g->n[a].series != (int)i && g->n[a].version < x->version)
			uf_join(up, (int)i, g->n[a].series);
	}
	/* the least key of each set, at its root (the keys are equal
	 * within no two sets: equal keys were joined) */
	for (size_t i = 0; i < g->len; i++) {
		char *k = key[i];
		int r;

		if (!k || (r = uf_find(up, (int)i)) == (int)i)
			continue;
		if (key_before(k, key[r])) {
			key[i] = key[r];
			key[r] = k;
		}
	}
	for (size_t i = 0; i < g->len; i++) {
		struct onlist_thread_msg *x = &g->n[i];

		if (x->series >= 0)
			x->topic = key[uf_find(up, x->series)];
	}
	g_hash_table_destroy(first);	/* it holds the keys */
	first = NULL;
	for (size_t i = 0; i < g->len; i++) {
		if (!key[i])
			continue;
		if (uf_find(up, (int)i) == (int)i)
			key[t->topics++] = key[i];
		else
			g_free(key[i]);
		if ((size_t)t->topics <= i)
			key[i] = NULL;
	}
	/* only the topics are kept: fewer than the messages */
	t->nowned = (size_t)t->topics;
	if ((key = realloc(t->owned, (t->nowned ? t->nowned : 1) * sizeof(*key))))
		t->owned = key;
	give_back();
out:
	free(up);
	if (first)
		g_hash_table_destroy(first);
	g_string_chunk_free(patch_keys);
	return ret;
}

/* Topics of the series heads, and the replies to each patch. */
static onlist_status topics_and_replies(struct graph *g, struct onlist_threads *t)
{
	/* series head + 1 -> the first change-id among its messages */
	GHashTable *change_ids = g_hash_table_new(g_direct_hash, g_direct_equal);
	/* the patches of the series headed by h, in order:
	 * member[start[h]] .. member[start[h + 1] - 1] */
	int *start = NULL, *member = NULL;
	onlist_status ret = ONLIST_OK;
	size_t cap = 0;

	for (size_t i = 0; i < g->len; i++) {
		struct onlist_thread_msg *x = &g->n[i];

		if (x->series < 0)
			continue;
		if (x->change_id[0] &&
		    !g_hash_table_contains(change_ids, GINT_TO_POINTER(x->series + 1)))
			g_hash_table_insert(change_ids,
					    GINT_TO_POINTER(x->series + 1),
					    (gpointer)x->change_id);
	}
	if (!(t->owned = calloc(g->len ? g->len : 1, sizeof(*t->owned)))) {
		ret = ONLIST_ENOMEM;
		goto out;
	}
	t->nowned = g->len;
	if ((ret = name_topics(g, t, change_ids)) != ONLIST_OK)
		goto out;
	/* after the topics, whose tables are gone by then */
	if (!(start = calloc(g->len + 1, sizeof(*start)))) {
		ret = ONLIST_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < g->len; i++)
		if (g->n[i].series >= 0 && g->cls[i] == C_PATCH)
			start[g->n[i].series + 1]++;
	for (size_t h = 0; h < g->len; h++)
		start[h + 1] += start[h];
	if (!(member = malloc((start[g->len] ? start[g->len] : 1) *
			      sizeof(*member)))) {
		ret = ONLIST_ENOMEM;
		goto out;
	}
	/* start[h] counts up to start[h + 1] while filling: shifted back
	 * after */
	for (size_t i = 0; i < g->len; i++)
		if (g->n[i].series >= 0 && g->cls[i] == C_PATCH)
			member[start[g->n[i].series]++] = (int)i;
	for (size_t h = g->len; h > 0; h--)
		start[h] = start[h - 1];
	start[0] = 0;
	for (size_t i = 0; i < g->len; i++)
		t->series += g->n[i].series == (int)i;
	for (size_t i = 0; i < g->len && ret == ONLIST_OK; i++) {
		struct onlist_thread_msg *x = &g->n[i];
		int a = x->answers;

		/* Review: a reply (not a new patch, cover or pull request)
		 * below a patch, or below the cover letter of its series.
		 * A "Re:" with a diff in it answers too: a reviewer's "how
		 * about this instead", whose tags and whose word would be
		 * lost if it counted only as a patch of its own. */
		if ((g->cls[i] != C_REPLY && g->cls[i] != C_OTHER &&
		     !(g->cls[i] == C_PATCH && x->reply)) || a < 0)
			continue;
		if (g->cls[a] == C_PATCH) {
			ret = add_reply(t, g, a, (int)i, &cap);
		} else {
			for (int k = start[a]; k < start[a + 1] && ret == ONLIST_OK; k++)
				ret = add_reply(t, g, member[k], (int)i, &cap);
		}
	}
out:
	g_hash_table_destroy(change_ids);
	free(start);
	free(member);
	return ret;
}

onlist_status onlist_thread_build(struct onlist_thread_msg *msgs, size_t n,
				  struct onlist_threads *out)
{
	struct graph g = { msgs, n, NULL, NULL, NULL, 0 };
	onlist_status ret;
	size_t pcap = 0;

	if (n >= INT_MAX)
		return ONLIST_EUSAGE;	/* indexes are ints */
	g.cls = malloc(n ? n : 1);
	g.state = calloc(n ? n : 1, 1);
	if (!g.cls || !g.state) {
		ret = ONLIST_ENOMEM;
		goto out;
	}
	for (g.mask = 15; g.mask < 2 * n; g.mask = 2 * g.mask + 1)
		;
	if (!(g.ids = calloc(g.mask + 1, sizeof(*g.ids)))) {
		ret = ONLIST_ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		size_t j;

		msgs[i].parent = msgs[i].root = msgs[i].answers = -1;
		msgs[i].series = -1;
		msgs[i].depth = 0;
		msgs[i].topic = NULL;
		g.cls[i] = (unsigned char)class_of(msgs[i].cls, msgs[i].has_patch);
		/* the first message with an id is the one a reference names */
		j = id_slot(&g, msgs[i].msgid, strlen(msgs[i].msgid));
		if (!g.ids[j])
			g.ids[j] = (unsigned)i + 1;
	}
	for (size_t i = 0; i < n; i++)
		if ((ret = find_parent(&g, (int)i, out, &pcap, &msgs[i].parent))
		    != ONLIST_OK)
			goto out;
	/* not needed past here, and as large as the messages' ids */
	free(g.ids);
	g.ids = NULL;
	find_covers(&g);
	resolve(&g);
	free(g.state);
	g.state = NULL;
	adopt_orphans(&g);
	/* after resolve(): a loop it cut left one more root */
	for (size_t i = 0; i < n; i++)
		out->threads += msgs[i].parent < 0;
	group_series(&g);
	ret = topics_and_replies(&g, out);
out:
	free(g.ids);
	free(g.cls);
	free(g.state);
	return ret;
}

void onlist_threads_release(struct onlist_threads *t)
{
	for (size_t i = 0; t->owned && i < t->nowned; i++)
		g_free(t->owned[i]);
	free(t->owned);
	free(t->replies);
	free(t->pending);
	*t = (struct onlist_threads)ONLIST_THREADS_INIT;
}
