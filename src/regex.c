/* regex.c - regular expressions from outside, compiled only when
 * regcomp() is bounded on them. */
#include <stdlib.h>
#include <string.h>

#include "onlist/regex.h"

/* glibc's regcomp() copies the tree of an operand once per repetition a
 * quantifier asks for ("a{3}" is "aaa", "a+" is "aa*"), and the copies
 * multiply through nested groups: the release pattern
 * "((((a{1,100}){1,100}){1,100}){1,100})" took 23.8 GB before it was
 * killed.  So estimate the nodes it would build: each atom 1, times the
 * copies of every quantifier over it ({m}: m, {m,}: m + 1, {m,n}: n, +:
 * 2, * and ?: 1).  MAINTAINERS' N: patterns are held to a stricter,
 * structural rule (subsys.c); a release pattern commonly quantifies a
 * group holding one ("(\.[0-9]+)?"), which costs nothing. */
#define MAX_DEPTH 32
#define MAX_COUNT 100
#define MAX_NODES (ONLIST_REGEX_MAX_LEN * MAX_COUNT)

/* The end of the bracket expression starting at p ('['), or NULL. */
static const char *bracket_end(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')		/* a ']' first is a member */
		p++;
	for (; *p && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *e = strchr(p + 2, p[1]);

			while (e && e[1] != ']')
				e = strchr(e + 1, p[1]);
			if (!e)
				return NULL;
			p = e + 1;
		}
	return *p ? p : NULL;
}

int onlist_regex_bounded(const char *re)
{
	/* per open group: the nodes so far, and those of its last item
	 * (what a quantifier would apply to) */
	double sum[MAX_DEPTH + 1] = { 0 }, last[MAX_DEPTH + 1] = { 0 };
	int depth = 0;

	if (strlen(re) > ONLIST_REGEX_MAX_LEN)
		return 0;
	for (const char *c = re; *c; c++) {
		double k = 0;

		switch (*c) {
		case '(':
			if (++depth > MAX_DEPTH)
				return 0;
			sum[depth] = last[depth] = 0;
			continue;
		case ')':
			if (depth == 0)
				break;	/* a literal ')' in an ERE */
			depth--;
			last[depth] = sum[depth + 1] + 1;
			sum[depth] += last[depth];
			continue;
		case '|':
			last[depth] = 0;
			continue;
		case '*':
		case '?':
			continue;	/* no copy */
		case '+':
			k = 2;
			break;
		case '{': {
			char *end;
			long a = strtol(c + 1, &end, 10), b = a;

			if (end == c + 1)
				break;	/* not a count: a literal '{' */
			if (*end == ',')
				b = end[1] == '}' ? a + 1 : strtol(end + 1, &end, 10);
			if (a < 0 || b < 0 || a > MAX_COUNT || b > MAX_COUNT)
				return 0;
			k = b > 1 ? (double)b : 1;
			if ((end = strchr(c, '}')))
				c = end;
			break;
		}
		case '[': {
			const char *e = bracket_end(c);

			if (!e)
				return 0;	/* regcomp() refuses it too */
			c = e;
			break;
		}
		case '\\':
			if (c[1])
				c++;
			break;
		}
		if (k) {	/* a quantifier: its operand copied k times */
			sum[depth] += last[depth] * (k - 1);
			last[depth] *= k;
		} else {	/* an atom */
			last[depth] = 1;
			sum[depth] += 1;
		}
		if (sum[depth] > MAX_NODES)
			return 0;
	}
	for (; depth > 0; depth--)
		sum[depth - 1] += sum[depth];
	return sum[0] <= MAX_NODES;
}

onlist_status onlist_regex_compile(regex_t *out, const char *re, int cflags)
{
	if (!onlist_regex_bounded(re))
		return ONLIST_EUSAGE;
	return regcomp(out, re, cflags) ? ONLIST_EPARSE : ONLIST_OK;
}
