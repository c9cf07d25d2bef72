/* subsys.c - which subsystem a path belongs to: a kernel-style MAINTAINERS
 * file read the way scripts/get_maintainer.pl reads it, or the top of the
 * path when there is none. */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/buf.h"
#include "onlist/subsys.h"

struct pattern {
	char type;		/* 'F', 'X' or 'N' */
	char *value;
	regex_t re;		/* N: only */
	int re_ok;
};

struct section {
	char *name;
	struct pattern *p;
	size_t n, alloc;
};

/* F: and X: patterns by their literal prefix (up to the first wildcard):
 * a path can only match a pattern whose literal prefix is a prefix of it,
 * so a lookup tries one short run of the sorted index per prefix length
 * of the path instead of every pattern of a kernel's ~3,000 sections. */
struct ientry {
	const char *lit;
	size_t len;
	unsigned sec, pat;
};

struct onlist_maintainers {
	struct section *s;
	size_t n, alloc;
	struct ientry *idx;
	size_t nidx;
	struct ientry *nre;	/* N: patterns, tried on every path */
	size_t nnre;
	size_t dropped;		/* N: patterns not used (see sane_regex) */
};

size_t onlist_maintainers_dropped(const struct onlist_maintainers *m)
{
	return m ? m->dropped : 0;
}

static void section_free(struct section *sec)
{
	for (size_t i = 0; i < sec->n; i++) {
		free(sec->p[i].value);
		if (sec->p[i].re_ok)
			regfree(&sec->p[i].re);
	}
	free(sec->p);
	free(sec->name);
}

void onlist_maintainers_free(struct onlist_maintainers *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		section_free(&m->s[i]);
	free(m->s);
	free(m->idx);
	free(m->nre);
	free(m);
}

size_t onlist_maintainers_count(const struct onlist_maintainers *m)
{
	size_t k = 0;

	for (size_t i = 0; m && i < m->n; i++)
		k += m->s[i].n > 0;
	return k;
}

/* glibc's regcomp() copies the tree of an operand once per quantifier
 * applied to it: "[^a-z]++++...+" took gigabytes (fuzz_maintainers), and
 * "((a{255}){255}){255}" 13 s and 3.5 GB, as the copies multiply through
 * nested groups.  The kernel's N: patterns are short, never stack
 * quantifiers, never quantify a group that holds a quantifier, and count
 * no higher than a few; a pattern that does any of that, or is long, is
 * dropped (and counted) like one that does not compile.  What is left
 * compiles to at most 256 x 100 nodes. */
#define REGEX_MAX_LEN 256
#define REGEX_MAX_COUNT 100
#define REGEX_MAX_DEPTH 32

static int sane_regex(const char *re)
{
	/* quantified[d]: the group open at depth d holds a quantifier */
	int prev_quant = 0, depth = 0, closed_quant = 0, after_close = 0;
	char quantified[REGEX_MAX_DEPTH + 1] = { 0 };

	if (strlen(re) > REGEX_MAX_LEN)
		return 0;
	for (const char *c = re; *c; c++) {
		int quant = *c == '*' || *c == '+' || *c == '?' || *c == '{';

		if (*c == '\\' && c[1]) {
			c++;
			prev_quant = after_close = 0;
			continue;
		}
		if (quant && prev_quant)
			return 0;
		if (quant && after_close && closed_quant)
			return 0;	/* a quantified group inside a quantifier */
		if (*c == '{') {
			/* {m}, {m,}, {m,n}: no count above REGEX_MAX_COUNT */
			char *end;
			long a = strtol(c + 1, &end, 10), b = a;

			if (*end == ',')
				b = end[1] == '}' ? 0 : strtol(end + 1, &end, 10);
			if (a > REGEX_MAX_COUNT || b > REGEX_MAX_COUNT || a < 0 || b < 0)
				return 0;
		}
		if (quant)
			quantified[depth] = 1;
		after_close = 0;
		if (*c == '(') {
			if (++depth > REGEX_MAX_DEPTH)
				return 0;
			quantified[depth] = 0;
		} else if (*c == ')' && depth > 0) {
			closed_quant = quantified[depth];
			depth--;
			/* what the group holds, its parent holds too */
			quantified[depth] |= (char)closed_quant;
			after_close = 1;
		}
		prev_quant = quant || *c == '}';
	}
	return 1;
}

static int add_pattern(struct section *sec, char type, const char *v,
		       size_t len)
{
	struct pattern *p;

	if (sec->n == sec->alloc) {
		struct pattern *np = onlist_grow(sec->p, &sec->alloc,
						 sizeof *np, 4);
		if (!np)
			return -1;
		sec->p = np;
	}
	p = &sec->p[sec->n];
	memset(p, 0, sizeof *p);
	p->type = type;
	if (!(p->value = strndup(v, len)))
		return -1;
	/* get_maintainer.pl matches N: as a Perl regex; POSIX ERE is close
	 * enough for the kernel's (and one that does not compile is dropped) */
	if (type == 'N') {
		if (!sane_regex(p->value) ||
		    regcomp(&p->re, p->value, REG_EXTENDED | REG_NOSUB)) {
			free(p->value);
			return 1;
		}
		p->re_ok = 1;
	}
	sec->n++;
	return 0;
}

static int cmp_ientry(const void *a, const void *b)
{
	const struct ientry *x = a, *y = b;
	int c = memcmp(x->lit, y->lit, x->len < y->len ? x->len : y->len);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	/* file order within one prefix: ties go to the earlier section */
	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->pat < y->pat ? -1 : x->pat > y->pat;
}

static int build_index(struct onlist_maintainers *m)
{
	size_t n = 0, k = 0;

	for (size_t i = 0; i < m->n; i++)
		n += m->s[i].n;
	if (n && (!(m->idx = calloc(n, sizeof *m->idx)) ||
		  !(m->nre = calloc(n, sizeof *m->nre))))
		return -1;
	for (size_t i = 0; i < m->n; i++)
		for (size_t j = 0; j < m->s[i].n; j++) {
			const struct pattern *p = &m->s[i].p[j];
			struct ientry e = { p->value, strcspn(p->value, "*?"),
					    (unsigned)i, (unsigned)j };
			if (p->type == 'N')
				m->nre[m->nnre++] = e;
			else
				m->idx[k++] = e;
		}
	m->nidx = k;
	if (k)
		qsort(m->idx, k, sizeof *m->idx, cmp_ientry);
	return 0;
}

onlist_status onlist_maintainers_parse(struct onlist_maintainers **out,
				       const char *text, size_t len)
{
	struct onlist_maintainers *m = calloc(1, sizeof *m);
	const char *p = text, *end = text + len, *nl;
	struct section *cur = NULL;

	*out = NULL;
	if (!m)
		return ONLIST_ENOMEM;
	for (; p < end; p = nl + 1) {
		const char *e;
		if (!(nl = memchr(p, '\n', (size_t)(end - p))))
			nl = end;
		e = nl;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e == p) {
			cur = NULL;	/* a blank line ends a section */
			continue;
		}
		if (e - p >= 2 && p[0] >= 'A' && p[0] <= 'Z' && p[1] == ':') {
			const char *v = p + 2;
			if (!cur || (p[0] != 'F' && p[0] != 'X' && p[0] != 'N'))
				continue;
			while (v < e && (*v == ' ' || *v == '\t'))
				v++;
			if (v < e) {
				int r = add_pattern(cur, p[0], v, (size_t)(e - v));

				if (r < 0)
					goto nomem;
				m->dropped += r;
			}
			continue;
		}
		if (*p == ' ' || *p == '\t')
			continue;	/* the preamble's indented text */
		if (m->n == m->alloc) {
			struct section *ns = onlist_grow(m->s, &m->alloc,
							 sizeof *ns, 64);
			if (!ns)
				goto nomem;
			m->s = ns;
		}
		cur = &m->s[m->n];
		memset(cur, 0, sizeof *cur);
		if (!(cur->name = strndup(p, (size_t)(e - p))))
			goto nomem;
		m->n++;
	}
	if (build_index(m))
		goto nomem;
	*out = m;
	return ONLIST_OK;
nomem:
	onlist_maintainers_free(m);
	return ONLIST_ENOMEM;
}

/* Does glob `p` match a prefix of `s`?  As in get_maintainer.pl, where the
 * pattern becomes the regex ^pattern with * as .* and ? as . : a star
 * crosses '/'. */
static int prefix_match(const char *p, const char *s)
{
	/* Iterative, with one backtracking point (the last star): the
	 * recursive form took exponential time on "F:\t*****...x" (found
	 * by fuzz_maintainers), and MAINTAINERS comes from the repository
	 * being scanned. */
	const char *star_p = NULL, *star_s = NULL;

	for (;;) {
		if (!*p)
			return 1;	/* a prefix of s matched */
		if (*p == '*') {
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (*s && (*p == '?' || *p == *s)) {
			p++;
			s++;
			continue;
		}
		if (star_p && *star_s) {
			p = star_p;
			s = ++star_s;
			continue;
		}
		return 0;
	}
}

static int slashes(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* get_maintainer.pl's file_match_pattern(); the depth it ranks a match
 * by in *depth.  A pattern without a wildcard that names a directory
 * without its trailing '/' is taken as one (get_maintainer.pl asks the
 * file system; we have only the path). */
static int file_match(const char *pat, const char *path, int *depth)
{
	size_t pl = strlen(pat);
	int dir = pl && pat[pl - 1] == '/';

	if (!prefix_match(pat, path))
		return 0;
	if (!dir && slashes(path) != slashes(pat)) {
		if (strpbrk(pat, "*?") || strncmp(path, pat, pl) ||
		    path[pl] != '/')
			return 0;
		dir = 1;
		*depth = slashes(pat) + 1;
	} else {
		*depth = slashes(pat) + !dir;
	}
	if (pat[0] == '*')
		*depth = -1;
	return 1;
}

struct cand {
	unsigned sec;
	int depth, hit, excluded;
};

static struct cand *cand_of(struct cand *c, size_t *n, size_t cap,
			    unsigned sec)
{
	for (size_t i = 0; i < *n; i++)
		if (c[i].sec == sec)
			return &c[i];
	if (*n == cap)
		return NULL;
	c[*n].sec = sec;
	c[*n].depth = -2;
	c[*n].hit = c[*n].excluded = 0;
	return &c[(*n)++];
}

/* First index entry whose literal is exactly path[0, len). */
static size_t lower_bound(const struct onlist_maintainers *m,
			  const char *path, size_t len)
{
	size_t lo = 0, hi = m->nidx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ientry *e = &m->idx[mid];
		int c = memcmp(e->lit, path, e->len < len ? e->len : len);
		if (c < 0 || (!c && e->len < len))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const char *onlist_maintainers_section(const struct onlist_maintainers *m,
				       const char *path)
{
	struct cand c[256];
	size_t nc = 0, plen = strlen(path);
	const char *best = NULL;
	unsigned best_sec = 0;
	int best_depth = -2, d;

	if (!m)
		return NULL;
	for (size_t len = 0; len <= plen; len++) {
		for (size_t i = lower_bound(m, path, len); i < m->nidx; i++) {
			const struct ientry *e = &m->idx[i];
			const struct pattern *p;
			struct cand *k;

			if (e->len != len || memcmp(e->lit, path, len))
				break;
			p = &m->s[e->sec].p[e->pat];
			if (!file_match(p->value, path, &d))
				continue;
			if (!(k = cand_of(c, &nc, sizeof c / sizeof *c, e->sec)))
				continue;
			if (p->type == 'X') {
				k->excluded = 1;
			} else {
				k->hit = 1;
				if (d > k->depth)
					k->depth = d;
			}
		}
	}
	for (size_t i = 0; i < m->nnre; i++) {
		const struct ientry *e = &m->nre[i];
		struct cand *k;

		if (regexec(&m->s[e->sec].p[e->pat].re, path, 0, NULL, 0) ||
		    !(k = cand_of(c, &nc, sizeof c / sizeof *c, e->sec)))
			continue;
		k->hit = 1;
		if (k->depth < 0)
			k->depth = 0;
	}
	for (size_t i = 0; i < nc; i++) {
		if (!c[i].hit || c[i].excluded)
			continue;
		if (c[i].depth > best_depth ||
		    (c[i].depth == best_depth && c[i].sec < best_sec)) {
			best = m->s[c[i].sec].name;
			best_sec = c[i].sec;
			best_depth = c[i].depth;
		}
	}
	return best;
}

/* The first two directory components of path, or "(top level)". */
static void top_two(const char *path, size_t len, char *buf, size_t n)
{
	const char *slash1 = memchr(path, '/', len), *slash2 = NULL, *last;
	size_t k;

	last = path + len;
	while (last > path && last[-1] != '/')
		last--;
	if (!slash1) {
		snprintf(buf, n, "(top level)");
		return;
	}
	slash2 = memchr(slash1 + 1, '/', (size_t)(path + len - slash1 - 1));
	k = (size_t)((slash2 && slash2 < last ? slash2 : last - 1) - path);
	snprintf(buf, n, "%.*s", (int)k, path);
}

void onlist_subsys_vote(const char *files, onlist_subsys_namer namer,
			void *data, char *buf, size_t n)
{
	struct { char name[256]; int count; } seen[64];
	size_t nseen = 0, best = 0;
	const char *p, *nl;

	if (!n)
		return;
	for (p = files; p && *p; p = *nl ? nl + 1 : nl) {
		char name[256];
		size_t i;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl == p || !namer(p, (size_t)(nl - p), name, sizeof name, data))
			continue;
		for (i = 0; i < nseen && strcmp(seen[i].name, name); i++)
			;
		if (i == nseen) {
			if (nseen == sizeof seen / sizeof *seen)
				continue;
			snprintf(seen[nseen].name, sizeof seen[0].name, "%s", name);
			seen[nseen++].count = 0;
		}
		seen[i].count++;
	}
	for (size_t i = 1; i < nseen; i++)
		if (seen[i].count > seen[best].count)
			best = i;
	snprintf(buf, n, "%s", nseen ? seen[best].name : "(no files)");
}

/* A path's MAINTAINERS section, else its top two components. */
static int section_name(const char *p, size_t len, char *name, size_t n,
			void *data)
{
	const struct onlist_maintainers *m = data;
	char path[4096];
	const char *sec;

	if (len >= sizeof path)
		return 0;
	memcpy(path, p, len);
	path[len] = '\0';
	if ((sec = onlist_maintainers_section(m, path)))
		snprintf(name, n, "%s", sec);
	else
		top_two(path, len, name, n);
	return 1;
}

void onlist_subsystem(const struct onlist_maintainers *m, const char *files,
		      char *buf, size_t n)
{
	onlist_subsys_vote(files, section_name, (void *)m, buf, n);
}
