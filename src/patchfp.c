/* patchfp.c - diff fingerprints and repaired patch-ids (see patchfp.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/patchfp.h"

struct walk {
	GString *out;		/* the diff in git form, for the repaired id */
	GArray *h;		/* uint32_t fingerprint */
	GString *files;
	char path[4096];	/* the file the current hunk changes */
	char minus[4096];	/* its "--- " path, for deletions */
	uint32_t path_h;	/* line_hash() of path so far: set_path() */
	size_t added, removed;
};

/* path changed: hash it once, not again for each of its lines */
static void set_path(struct walk *w)
{
	uint32_t h = 2166136261u;

	for (const char *q = w->path; *q; q++)
		h = (h ^ (unsigned char)*q) * 16777619u;
	w->path_h = (h ^ 0u) * 16777619u;
}

static uint32_t line_hash(const struct walk *w, char sign, const char *p,
			  size_t n)
{
	uint32_t h = w->path_h;

	h = (h ^ (unsigned char)sign) * 16777619u;
	for (size_t i = 0; i < n; i++)
		if (!isspace((unsigned char)p[i]))
			h = (h ^ (unsigned char)p[i]) * 16777619u;
	/* the lowest bit says which side: similarity compares the removed
	 * and the added lines separately */
	return (h & ~1u) | (sign == '+');
}

/* "a/fs/x.c\t2013-06-01 ..." -> "fs/x.c"; quilt's "linux.orig/fs/x.c"
 * too: patches are applied with -p1. */
static void strip1(char *dst, size_t size, const char *p, size_t n)
{
	const char *tab = memchr(p, '\t', n), *slash;

	if (tab)
		n = (size_t)(tab - p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (n == 9 && !memcmp(p, "/dev/null", 9)) {
		snprintf(dst, size, "/dev/null");
		return;
	}
	if ((slash = memchr(p, '/', n))) {
		n -= (size_t)(slash + 1 - p);
		p = slash + 1;
	}
	snprintf(dst, size, "%.*s", (int)n, p);
}

static void add_file(struct walk *w)
{
	size_t n = strlen(w->path), len = w->files->len;
	const char *f = w->files->str;

	/* not the same as the last one (indexes, not pointer arithmetic
	 * with a negated size_t, which wraps: UBSan via fuzz_patchfp) */
	if (len > n && f[len - 1] == '\n' &&
	    !memcmp(f + len - n - 1, w->path, n) &&
	    (len == n + 1 || f[len - n - 2] == '\n'))
		return;
	g_string_append(w->files, w->path);
	g_string_append_c(w->files, '\n');
}

static int parse_range(const char **p, long *start, long *count)
{
	char *e;

	*start = strtol(*p, &e, 10);
	if (e == *p)
		return -1;
	*count = 1;
	if (*e == ',') {
		const char *c = e + 1;
		*count = strtol(c, &e, 10);
		if (e == c)
			return -1;
	}
	/* a line count no diff has: not a hunk header (and no counting
	 * down from LONG_MIN) */
	if (*start < 0 || *count < 0 || *count > 100000000)
		return -1;
	*p = e;
	return 0;
}

/* "@@ -a,b +c,d @@": the old and new line counts. */
static int hunk_header(const char *p, size_t n, long *old, long *new)
{
	long s;
	const char *q = p + 3;

	if (n < 4 || memcmp(p, "@@ -", 4))
		return -1;
	q = p + 4;
	if (parse_range(&q, &s, old) || *q++ != ' ' || *q++ != '+' ||
	    parse_range(&q, &s, new))
		return -1;
	return 0;
}

static void changed(struct walk *w, char sign, const char *p, size_t n)
{
	uint32_t h = line_hash(w, sign, p, n);

	g_array_append_val(w->h, h);
	if (sign == '+')
		w->added++;
	else
		w->removed++;
}

static void emit(struct walk *w, const char *p, size_t n)
{
	g_string_append_len(w->out, p, (gssize)n);
	g_string_append_c(w->out, '\n');
}

static void run_terminated(struct walk *w, const char *buf, size_t len);

/* The hunk header is read with strtol(), which needs a terminator: work
 * on a terminated copy (callers' buffers need not have one). */
static void run(struct walk *w, const char *buf, size_t len)
{
	char *copy = g_malloc(len + 1);

	memcpy(copy, buf, len);
	copy[len] = '\0';
	run_terminated(w, copy, len);
	g_free(copy);
}

static void run_terminated(struct walk *w, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	long old = 0, new = 0;
	int in_hunk = 0, in_git_header = 0;

	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p);
		const char *next = e ? e + 1 : end;

		if (n && p[n - 1] == '\r')
			n--;
		if (in_hunk) {
			if (old <= 0 && new <= 0) {
				in_hunk = 0;
				continue;	/* read the line again, outside */
			}
			if ((n >= 11 && !memcmp(p, "diff --git ", 11)) ||
			    (n >= 4 && !memcmp(p, "@@ -", 4))) {
				in_hunk = 0;	/* counts were wrong: damaged */
				continue;
			}
			if (n && (p[0] == '+' || p[0] == '-')) {
				changed(w, p[0], p + 1, n - 1);
				if (p[0] == '+')
					new--;
				else
					old--;
				emit(w, p, n);
			} else if (n && p[0] == '\\') {
				emit(w, p, n);
			} else if (n && p[0] == ' ') {
				old--;
				new--;
				emit(w, p, n);
			} else {
				/* An empty line, or context that lost its
				 * leading space: context again. */
				g_string_append_c(w->out, ' ');
				emit(w, p, n);
				old--;
				new--;
			}
			p = next;
			continue;
		}
		if (n >= 11 && !memcmp(p, "diff --git ", 11)) {
			in_git_header = 1;
			emit(w, p, n);
			w->minus[0] = w->path[0] = '\0';
			set_path(w);
		} else if (n >= 4 && !memcmp(p, "@@ -", 4) &&
			   !hunk_header(p, n, &old, &new)) {
			if (w->path[0])
				in_hunk = 1;
			in_git_header = 0;
			emit(w, p, n);
		} else if (n >= 4 && !memcmp(p, "--- ", 4) && end - next >= 4 &&
			   !memcmp(next, "+++ ", 4)) {
			const char *e2 = memchr(next, '\n', (size_t)(end - next));
			size_t n2 = e2 ? (size_t)(e2 - next) : (size_t)(end - next);
			char plus[4096];

			if (n2 && next[n2 - 1] == '\r')
				n2--;
			strip1(w->minus, sizeof(w->minus), p + 4, n - 4);
			strip1(plus, sizeof(plus), next + 4, n2 - 4);
			snprintf(w->path, sizeof(w->path), "%s",
				 strcmp(plus, "/dev/null") ? plus : w->minus);
			set_path(w);
			add_file(w);
			if (in_git_header) {
				emit(w, p, n);
				emit(w, next, n2);
			} else {
				/* quilt or diff -u: the header git writes */
				int created = !strcmp(w->minus, "/dev/null");
				int deleted = !strcmp(plus, "/dev/null");

				g_string_append_printf(w->out,
					"diff --git a/%s b/%s\n%s", w->path, w->path,
					created ? "new file mode 100644\n" :
					deleted ? "deleted file mode 100644\n" : "");
				g_string_append_printf(w->out, "--- %s%s\n+++ %s%s\n",
					created ? "" : "a/",
					created ? "/dev/null" : w->path,
					deleted ? "" : "b/",
					deleted ? "/dev/null" : w->path);
			}
			in_git_header = 0;
			next = e2 ? e2 + 1 : end;
		} else if (in_git_header) {
			emit(w, p, n);
		}
		p = next;
	}
}

static void insertion_sort_u32(uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;

		for (; j && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort n hashes in place: radix sort, a byte a pass, instead of qsort()
 * through a comparator (on a 200 MB mbox of patches the comparator alone
 * took 4.6% of an import).  Small arrays, where clearing the counters
 * would cost more, go by insertion; without memory for the copy, qsort()
 * still does it. */
static void sort_u32(uint32_t *v, size_t n)
{
	size_t count[256], i, sum, c;
	uint32_t *tmp, *from = v, *to, *swap;
	unsigned shift;

	if (n < 64) {
		insertion_sort_u32(v, n);
		return;
	}
	if (!(tmp = malloc(n * sizeof(*tmp)))) {
		qsort(v, n, sizeof(*v), cmp_u32);
		return;
	}
	to = tmp;
	/* four passes: the result ends in v again */
	for (shift = 0; shift < 32; shift += 8) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[from[i] >> shift & 255]++;
		for (i = 0, sum = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			to[count[from[i] >> shift & 255]++] = from[i];
		swap = from;
		from = to;
		to = swap;
	}
	free(tmp);
}

static void walk_init(struct walk *w)
{
	memset(w, 0, sizeof(*w));
	w->out = g_string_new(NULL);
	w->h = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	w->files = g_string_new(NULL);
	set_path(w);
}

static void walk_release(struct walk *w)
{
	g_string_free(w->out, TRUE);
	g_array_free(w->h, TRUE);
	g_string_free(w->files, TRUE);
}

/* The patch-id of the diff as the walk rewrote it, into hex: 1, or 0
 * when it changes no line. */
static int walk_repaired_id(const struct walk *w,
			    char hex[ONLIST_PATCHID_HEXSZ + 1])
{
	unsigned char raw[ONLIST_PATCHID_RAWSZ];

	if (!w->h->len || !onlist_patchid_buf(w->out->str, w->out->len, raw))
		return 0;
	onlist_patchid_hex(raw, hex);
	return 1;
}

int onlist_patchfp_compute_id(const char *buf, size_t len,
			      struct onlist_patchfp *fp,
			      char hex[ONLIST_PATCHID_HEXSZ + 1], int *has_id)
{
	struct walk w;

	walk_init(&w);
	run(&w, buf, len);
	if (has_id)
		*has_id = walk_repaired_id(&w, hex);
	sort_u32((uint32_t *)(void *)w.h->data, w.h->len);
	memset(fp, 0, sizeof(*fp));
	fp->n = w.h->len;
	fp->h = malloc((fp->n ? fp->n : 1) * sizeof(uint32_t));
	fp->files = strdup(w.files->str);
	if (fp->h && fp->n)	/* an empty GArray has no data at all */
		memcpy(fp->h, w.h->data, fp->n * sizeof(uint32_t));
	fp->added = w.added;
	fp->removed = w.removed;
	walk_release(&w);
	if (!fp->h || !fp->files) {
		onlist_patchfp_release(fp);
		return -1;
	}
	return 0;
}

int onlist_patchfp_compute(const char *buf, size_t len, struct onlist_patchfp *fp)
{
	return onlist_patchfp_compute_id(buf, len, fp, NULL, NULL);
}

void onlist_patchfp_release(struct onlist_patchfp *fp)
{
	free(fp->h);
	free(fp->files);
	memset(fp, 0, sizeof(*fp));
}

/* Multiset Jaccard index of the hashes h of a and b (both sorted) for
 * which (h & mask) == want: mask 0 takes them all.  *present says whether
 * either has any such hash; when only one has, the index is 0. */
static double jaccard(const uint32_t *a, size_t na, const uint32_t *b,
		      size_t nb, uint32_t mask, uint32_t want, int *present)
{
	size_t i = 0, j = 0, both = 0, ca = 0, cb = 0;

	for (size_t k = 0; k < na; k++)
		ca += (a[k] & mask) == want;
	for (size_t k = 0; k < nb; k++)
		cb += (b[k] & mask) == want;
	*present = ca || cb;
	if (!ca || !cb)
		return 0.0;
	while (i < na && j < nb) {
		if ((a[i] & mask) != want) {
			i++;
		} else if ((b[j] & mask) != want) {
			j++;
		} else if (a[i] == b[j]) {
			both++;
			i++;
			j++;
		} else if (a[i] < b[j]) {
			i++;
		} else {
			j++;
		}
	}
	return (double)both / (double)(ca + cb - both);
}

/* The lowest bit of a diff hash is its side: 0 removed, 1 added. */
double onlist_patchfp_similarity(const uint32_t *a, size_t na,
				 const uint32_t *b, size_t nb)
{
	int pm, pp;
	double m = jaccard(a, na, b, nb, 1u, 0u, &pm);
	double p = jaccard(a, na, b, nb, 1u, 1u, &pp);

	if (pm && pp)
		return (m + p) / 2;
	return pm ? m : pp ? p : 0.0;
}

/* For sets without sides (words): plain Jaccard. */
double onlist_patchfp_set_similarity(const uint32_t *a, size_t na, const uint32_t *b,
			     size_t nb)
{
	int present;

	return jaccard(a, na, b, nb, 0u, 0u, &present);
}

int onlist_patch_repaired_id(const char *buf, size_t len,
			     char hex[ONLIST_PATCHID_HEXSZ + 1])
{
	struct walk w;
	int ok;

	walk_init(&w);
	run(&w, buf, len);
	ok = walk_repaired_id(&w, hex);
	walk_release(&w);
	return ok;
}

static int trailer_line(const char *p, const char *e)
{
	const char *q = p;

	while (q < e && (isalnum((unsigned char)*q) || *q == '-'))
		q++;
	return q > p && q < e && *q == ':' && memchr(p, '-', (size_t)(q - p));
}

int onlist_words_fp(const char *text, uint32_t **out, size_t *n)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	const char *p = text ? text : "";
	size_t k = 0;

	while (*p) {
		const char *e = strchr(p, '\n');

		if (!e)
			e = p + strlen(p);
		if (*p != '>' && !trailer_line(p, e)) {
			const char *q = p;
			while (q < e) {
				const char *w;
				uint32_t h = 2166136261u;

				while (q < e && !isalnum((unsigned char)*q))
					q++;
				w = q;
				while (q < e && isalnum((unsigned char)*q)) {
					h = (h ^ (unsigned char)tolower((unsigned char)*q))
					    * 16777619u;
					q++;
				}
				if (q - w >= 3)
					g_array_append_val(a, h);
			}
		}
		p = *e ? e + 1 : e;
	}
	sort_u32((uint32_t *)(void *)a->data, a->len);
	/* a set: drop repeats */
	for (size_t i = 0; i < a->len; i++)
		if (!k || g_array_index(a, uint32_t, i) !=
			  g_array_index(a, uint32_t, k - 1))
			g_array_index(a, uint32_t, k++) = g_array_index(a, uint32_t, i);
	*n = k;
	*out = malloc((k ? k : 1) * sizeof(uint32_t));
	if (*out && k)
		memcpy(*out, a->data, k * sizeof(uint32_t));
	g_array_free(a, TRUE);
	return *out ? 0 : -1;
}
