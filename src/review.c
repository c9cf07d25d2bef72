/* review.c - which tags given on the list are review, and the review
 * state of a posted commit over every version of its topic (review.h).
 * The store reads and writes them; no SQL here. */
#include <string.h>
#include <strings.h>
#include <glib.h>

#include "onlist/vocab.h"
#include "onlist/review.h"

const char *onlist_review_state_name(enum onlist_review_state s)
{
	switch (s) {
	case ONLIST_REVIEW_REVIEWED: return "reviewed";
	case ONLIST_REVIEW_SERIES: return "reviewed_series";
	case ONLIST_REVIEW_DISCUSSED: return "discussed";
	case ONLIST_REVIEW_UNKNOWN: return "unknown";
	case ONLIST_REVIEW_NO_REPLY: break;
	}
	return "no_reply";
}

enum onlist_review_kind onlist_review_kind(const char *key)
{
	if (onlist_is_review_key(key))
		return ONLIST_TAG_REVIEW;
	if (onlist_is_nak_key(key))
		return ONLIST_TAG_NAK;
	return ONLIST_TAG_NONE;
}

/* addr is one of the lines of `lines` */
static int in_lines(const char *addr, const char *lines)
{
	size_t n = strlen(addr);

	if (!n || !lines)
		return 0;
	for (const char *p = lines; *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == n && !memcmp(p, addr, n))
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

static int same(const char *a, const char *b)
{
	return a && b && *a && !strcmp(a, b);
}

void onlist_review_judge(struct onlist_review_tag *t)
{
	t->why_not = NULL;
	if (t->bot)
		t->why_not = "bot";
	else if (same(t->addr, t->target_from) || same(t->sender, t->target_from))
		t->why_not = "sender";
	else if (same(t->addr, t->target_author) ||
		 same(t->sender, t->target_author))
		t->why_not = "author";
	else if (in_lines(t->addr, t->target_codev) ||
		 in_lines(t->sender, t->target_codev))
		t->why_not = "co-developer";
}

/* "a\nb": each line into who (the strings are kept for the table's life
 * in keep) */
static void add_lines(GHashTable *who, GStringChunk *keep, const char *lines)
{
	for (const char *p = lines; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l)
			g_hash_table_add(who, g_string_chunk_insert_len(keep, p, (gssize)l));
		if (!e)
			break;
		p = e + 1;
	}
}

/* The people whose word is not review of this commit (review.h): its
 * author and Co-developed-by people, and the sender, credited author
 * and Co-developed-by people of every version of its patch. */
static void add_nonreviewers(GHashTable *who, GStringChunk *keep,
			     const struct onlist_review_in *in,
			     const unsigned char *version)
{
	if (*in->author)
		g_hash_table_add(who, (gpointer)in->author);
	for (size_t i = 0; i < in->ntrailers; i++)
		if (!strcasecmp(in->trailers[i].key, "co-developed-by") &&
		    *in->trailers[i].addr)
			g_hash_table_add(who, (gpointer)in->trailers[i].addr);
	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *m = &in->msgs[i];

		/* a diff sent as a reply with the patch's subject is a
		 * reviewer's "how about this": its sender stays a reviewer
		 * unless that reply is what was applied */
		if (!m->posting && (!version[i] || m->reply))
			continue;
		if (*m->from)
			g_hash_table_add(who, (gpointer)m->from);
		if (m->author && *m->author)
			g_hash_table_add(who, (gpointer)m->author);
		add_lines(who, keep, m->codev);
	}
}

static int counts(GHashTable *who, const char *addr)
{
	return !*addr || !g_hash_table_contains(who, addr);
}

/* The part of the patch of series ser stored with this stripped subject,
 * or 0 */
static int part_by_subject(const struct onlist_review_in *in, const char *ser,
			   const char *stripped)
{
	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *m = &in->msgs[i];

		if (!m->cover && m->part > 0 && *stripped &&
		    !strcmp(m->series, ser) && !strcmp(m->stripped, stripped))
			return m->part;
	}
	return 0;
}

/* The part of series other that a neighbour (part j of the posting's
 * series) matches by subject, or 0 */
static int neighbour(const struct onlist_review_in *in, const char *ser, int j,
		     const char *other)
{
	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *m = &in->msgs[i];

		if (!m->cover && m->part == j && !strcmp(m->series, ser))
			return part_by_subject(in, other, m->stripped);
	}
	return 0;
}

/* Series other (another version of the topic, without a stored copy of
 * the patch) had the patch in a part the archive lacks: a part of it is
 * missing between the parts its subjects match to the nearest
 * neighbours of a posting in the posting's own series (selinux: v1
 * 9/12, too large for the list, split into v2 9/13 and 10/13; v1 8/12
 * and 10/12 are v2 8/13 and 11/13).  A patch new in the later version
 * and put in the same gap would be taken for it: the limit README
 * names. */
static int lost_in_gap(const struct onlist_review_in *in, const char *other)
{
	unsigned char *have;
	int total = -1, missing = 0, yes = 0;

	for (size_t i = 0; i < in->nmsgs && total < 1; i++)
		if (!in->msgs[i].cover && in->msgs[i].part > 0 &&
		    !strcmp(in->msgs[i].series, other))
			total = in->msgs[i].total;
	if (total < 2 || total > 999 || !(have = g_try_malloc0((gsize)total + 2)))
		return 0;
	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *m = &in->msgs[i];

		if (!m->cover && m->part >= 1 && m->part <= total &&
		    !strcmp(m->series, other))
			have[m->part] = 1;
	}
	for (int x = 1; x <= total; x++)
		missing += !have[x];
	for (size_t i = 0; i < in->nmsgs && missing && !yes; i++) {
		const struct onlist_review_msg *p = &in->msgs[i];
		int lo = 0, hi = total + 1;

		if (!p->posting || p->cover || p->part < 1 ||
		    !strcmp(p->series, other))
			continue;
		for (int j = p->part - 1; j >= 1 && !lo; j--)
			lo = neighbour(in, p->series, j, other);
		for (int j = p->part + 1; j <= p->total && hi == total + 1; j++) {
			int b = neighbour(in, p->series, j, other);

			if (b)
				hi = b;
		}
		for (int x = lo + 1; x < hi && !yes; x++)
			yes = !have[x];
	}
	g_free(have);
	return yes;
}

/* m (linked by author, files and subject prefix, store_review.c) is a
 * sibling of a posting rather than an earlier version of it: it is in a
 * posting's series, or that series has a patch of m's subject, its own
 * later version (io-uring: v1 "examples/send-zc: add affinity" is v2's
 * 2/5, not an earlier "add defer taskrun support", though all touch
 * one file) */
static int sibling_of_posting(const struct onlist_review_in *in,
			      const struct onlist_review_msg *m)
{
	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *p = &in->msgs[i];

		if (!p->posting || p->cover)
			continue;
		if (!strcmp(p->series, m->series))
			return 1;
		for (size_t k = 0; k < in->nmsgs; k++) {
			const struct onlist_review_msg *q = &in->msgs[k];

			if (!q->cover && q != m && *m->stripped &&
			    !strcmp(q->series, p->series) &&
			    !strcmp(q->stripped, m->stripped))
				return 1;
		}
	}
	return 0;
}

onlist_status onlist_review_commit(const struct onlist_review_in *in,
				   struct onlist_review_out *out)
{
	/* msgid -> index + 1 of the topic's patches and cover letters */
	GHashTable *idx = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTable *stripped = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTable *series = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTable *who = g_hash_table_new(g_str_hash, g_str_equal);
	GStringChunk *keep = g_string_chunk_new(256);
	unsigned char *version;		/* msgs[i] is a version of the patch */
	long best = -1, best_series = -1;
	int best_posting = 0, best_series_posting = 0, notice_near = 0;

	out->state = ONLIST_REVIEW_NO_REPLY;
	out->evidence = -1;
	out->naks = 0;
	out->notice = -1;
	out->untold = -1;
	if (!(version = g_try_malloc0(in->nmsgs ? in->nmsgs : 1))) {
		g_hash_table_destroy(idx);
		g_hash_table_destroy(stripped);
		g_hash_table_destroy(series);
		g_hash_table_destroy(who);
		g_string_chunk_free(keep);
		return ONLIST_ENOMEM;
	}
	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *m = &in->msgs[i];

		g_hash_table_insert(idx, (gpointer)m->msgid, GSIZE_TO_POINTER(i + 1));
		if (m->posting && !m->cover && *m->stripped)
			g_hash_table_add(stripped, (gpointer)m->stripped);
		/* a Link: to a cover letter makes its series the commit's */
		if (m->posting)
			g_hash_table_add(series, (gpointer)m->series);
	}
	/* Versions of the patch: the postings, and the patches of the same
	 * topic with the same subject (v1 of a patch v3 of which was
	 * applied) */
	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *m = &in->msgs[i];

		if (m->cover)
			continue;
		/* an earlier version under the commit's subject, from its
		 * author (the commit named after v1, v2 renamed) */
		if (m->posting || (m->linked && !sibling_of_posting(in, m)) ||
		    (*m->stripped && g_hash_table_contains(stripped, m->stripped)) ||
		    (in->subject && *in->subject && !m->reply &&
		     !strcmp(m->stripped, in->subject) &&
		     (same(m->from, in->author) || same(m->author, in->author)))) {
			version[i] = 1;
			g_hash_table_add(series, (gpointer)m->series);
		}
	}
	add_nonreviewers(who, keep, in, version);
	for (size_t k = 0; k < in->ntags; k++) {
		const struct onlist_review_tag *t = &in->tags[k];
		gpointer v = g_hash_table_lookup(idx, t->target);
		const struct onlist_review_msg *m;
		size_t i;
		int on_posting;

		if (!v || t->why_not || !counts(who, t->addr) ||
		    !counts(who, t->sender))
			continue;
		i = GPOINTER_TO_SIZE(v) - 1;
		m = &in->msgs[i];
		on_posting = m->posting;
		switch (onlist_review_kind(t->key)) {
		case ONLIST_TAG_NAK:
			out->naks++;
			break;
		case ONLIST_TAG_REVIEW:
			if (version[i]) {
				if (best < 0 || (on_posting && !best_posting)) {
					best = (long)k;
					best_posting = on_posting;
				}
			} else if ((m->cover || !strcmp(m->msgid, m->series) ||
				    t->series_scope) &&
				   (g_hash_table_contains(series, m->series) ||
				    lost_in_gap(in, m->series))) {
				/* a sibling patch's own tag is its own; the
				 * patch the others answer, in a series
				 * without a cover letter, stands for one */
				if (best_series < 0 ||
				    (on_posting && !best_series_posting)) {
					best_series = (long)k;
					best_series_posting = on_posting;
				}
			}
			break;
		case ONLIST_TAG_NONE:
			break;
		}
	}
	if (best >= 0) {
		out->state = ONLIST_REVIEW_REVIEWED;
		out->evidence = best;
	} else if (best_series >= 0) {
		out->state = ONLIST_REVIEW_SERIES;
		out->evidence = best_series;
	}
	/* Replies: discussion by others, and the notices (from anyone) */
	for (size_t r = 0; r < in->nreplies; r++) {
		const struct onlist_review_reply *x = &in->replies[r];
		gpointer v = g_hash_table_lookup(idx, x->target);
		int yes = 0;

		const struct onlist_review_msg *m =
			v ? &in->msgs[GPOINTER_TO_SIZE(v) - 1] : NULL;
		/* on a version of the patch, or the cover letter of one of
		 * its series: a reply to a sibling patch is about that one */
		int near = m && (version[GPOINTER_TO_SIZE(v) - 1] ||
				 ((m->cover || !strcmp(m->msgid, m->series)) &&
				  g_hash_table_contains(series, m->series)));

		if (v && x->notice) {
			/* those near first */
			if (out->notice < 0 || (near && !notice_near)) {
				out->notice = (long)r;
				notice_near = near;
			}
		} else if (near && !x->bot && counts(who, x->sender)) {
			yes = 1;
			if (out->state == ONLIST_REVIEW_NO_REPLY)
				out->state = ONLIST_REVIEW_DISCUSSED;
		}
		if (out->counted)
			out->counted[r] = (unsigned char)yes;
	}
	/* Review trailers in git that nobody gave on the list */
	for (size_t i = 0; i < in->ntrailers; i++) {
		const struct onlist_review_trailer *g = &in->trailers[i];
		int seen = 0;

		out->off_list[i] = 0;
		if (onlist_review_kind(g->key) != ONLIST_TAG_REVIEW)
			continue;
		for (size_t k = 0; k < in->ntags && !seen; k++) {
			const struct onlist_review_tag *t = &in->tags[k];

			if (!g_hash_table_contains(idx, t->target) ||
			    onlist_review_kind(t->key) != ONLIST_TAG_REVIEW)
				continue;
			seen = *g->addr ? same(g->addr, t->addr) :
			       *g->name && t->name && !g_ascii_strcasecmp(g->name, t->name);
		}
		out->off_list[i] = !seen;
		/* no review on the list, and a review tag in git the archive
		 * may have ended too early to show (review.h) */
		if (!seen && out->untold < 0 &&
		    (out->state == ONLIST_REVIEW_NO_REPLY ||
		     out->state == ONLIST_REVIEW_DISCUSSED) &&
		    in->landed > 0 && in->archive_end > 0 &&
		    in->archive_end < in->landed + ONLIST_REVIEW_MARGIN &&
		    !g->bot && (*g->addr || *g->name) && counts(who, g->addr))
			out->untold = (long)i;
	}
	if (out->untold >= 0)
		out->state = ONLIST_REVIEW_UNKNOWN;
	g_free(version);
	g_hash_table_destroy(idx);
	g_hash_table_destroy(stripped);
	g_hash_table_destroy(series);
	g_hash_table_destroy(who);
	g_string_chunk_free(keep);
	return ONLIST_OK;
}

onlist_status onlist_review_tally(const struct onlist_review_in *in,
				  const unsigned char *counted,
				  struct onlist_review_tally *t)
{
	/* msgid -> its series; series -> index + 1 of its first message */
	GHashTable *ser = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTable *first = g_hash_table_new(g_str_hash, g_str_equal);
	GHashTable *people = g_hash_table_new(g_str_hash, g_str_equal);

	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *m = &in->msgs[i];

		g_hash_table_insert(ser, (gpointer)m->msgid, (gpointer)m->series);
		t->series_replies[i] = -1;
		t->replies[i] = t->repliers[i] = 0;
		if (!g_hash_table_contains(first, m->series)) {
			g_hash_table_insert(first, (gpointer)m->series,
					    GSIZE_TO_POINTER(i + 1));
			t->series_replies[i] = 0;
		}
	}
	/* each series' replies, for lookup's versions */
	for (size_t r = 0; r < in->nreplies; r++) {
		const char *h = g_hash_table_lookup(ser, in->replies[r].target);

		if (counted[r] && h)
			t->series_replies[GPOINTER_TO_SIZE(
				g_hash_table_lookup(first, h)) - 1]++;
	}
	/* each posting's: those to it and to the cover letter of its
	 * series */
	for (size_t i = 0; i < in->nmsgs; i++) {
		const struct onlist_review_msg *m = &in->msgs[i];
		int cover = 0;

		if (!m->posting)
			continue;
		for (size_t k = 0; k < in->nmsgs && !cover; k++)
			cover = in->msgs[k].cover &&
				!strcmp(in->msgs[k].msgid, m->series);
		g_hash_table_remove_all(people);
		for (size_t r = 0; r < in->nreplies; r++) {
			const struct onlist_review_reply *x = &in->replies[r];

			if (!counted[r] || (strcmp(x->target, m->msgid) &&
					    (!cover || strcmp(x->target, m->series))))
				continue;
			t->replies[i]++;
			g_hash_table_add(people, (gpointer)x->sender);
		}
		t->repliers[i] = (int)g_hash_table_size(people);
	}
	g_hash_table_destroy(ser);
	g_hash_table_destroy(first);
	g_hash_table_destroy(people);
	return ONLIST_OK;
}
