/* subject.c - parse the prefix of a mail subject: [PATCH v3 2/7], Re:... */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/subject.h"

/* Reply and forward markers of the mailers found on lists, in the
 * languages they were found in: Re, Fwd, Fw, AW (German), Sv/Vs
 * (Scandinavian), Antw (Dutch), Odp (Polish), R/Rif (Italian), Tr
 * (French), Wg (German forward), Ynt (Turkish). */
static const char *const reply_words[] = {
	"re", "fwd", "fw", "aw", "sv", "vs", "antw", "odp", "r", "rif",
	"tr", "wg", "ynt",
};

/* The length of a reply marker at p ("Re:", "RE[2]:", "Fwd :"), or 0. */
static size_t reply_marker(const char *p)
{
	for (size_t i = 0; i < sizeof(reply_words) / sizeof(*reply_words); i++) {
		size_t n = strlen(reply_words[i]);
		const char *q = p + n;

		if (strncasecmp(p, reply_words[i], n))
			continue;
		if (*q == '[' || *q == '(') {	/* Re[2]: Re(3): */
			char close = *q == '[' ? ']' : ')';
			q++;
			while (isdigit((unsigned char)*q))
				q++;
			if (*q++ != close)
				continue;
		}
		while (*q == ' ')
			q++;
		if (*q == ':')
			return (size_t)(q + 1 - p);
	}
	return 0;
}

static int append_word(char **dst, const char *w, size_t n)
{
	size_t have = *dst ? strlen(*dst) : 0;
	char *p = realloc(*dst, have + n + 2);

	if (!p)
		return -1;
	if (have)
		p[have++] = ' ';
	memcpy(p + have, w, n);
	p[have + n] = '\0';
	*dst = p;
	return 0;
}

static int all_digits(const char *p, size_t n)
{
	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

static int to_int(const char *p, size_t n)
{
	long v = 0;

	for (size_t i = 0; i < n && v < 100000; i++)
		v = v * 10 + (p[i] - '0');
	return (int)v;
}

/* "v3", "V12": the version number, else 0. */
static int version_word(const char *p, size_t n)
{
	if (n >= 2 && (p[0] == 'v' || p[0] == 'V') && all_digits(p + 1, n - 1))
		return to_int(p + 1, n - 1);
	return 0;
}

static int word(struct onlist_subject *s, const char *w, size_t n)
{
	const char *slash = memchr(w, '/', n);
	int v;

	if (slash && all_digits(w, (size_t)(slash - w)) &&
	    all_digits(slash + 1, n - (size_t)(slash - w) - 1)) {
		s->part = to_int(w, (size_t)(slash - w));
		s->total = to_int(slash + 1, n - (size_t)(slash - w) - 1);
		return 0;
	}
	if ((v = version_word(w, n))) {
		s->version = v;
		return 0;
	}
	if (n >= 5 && !strncasecmp(w, "patch", 5)) {
		/* PATCHv2, PATCH-v2, PATCH_v2 */
		const char *r = w + 5;
		size_t rn = n - 5;
		if (rn && (*r == '-' || *r == '_')) {
			r++;
			rn--;
		}
		if (rn == 0 || (v = version_word(r, rn))) {
			s->patch = 1;
			if (rn)
				s->version = v;
			return append_word(&s->prefix, w, 5);
		}
	}
	if (n == 3 && !strncasecmp(w, "rfc", 3))
		s->rfc = 1;
	else if (n == 6 && !strncasecmp(w, "resend", 6))
		s->resend = 1;
	else if (n == 4 && !strncasecmp(w, "pull", 4))
		s->pull = 1;
	return append_word(&s->prefix, w, n);
}

/* The words of one [tag group], which may nest: "[PATCH [net] v2 1/3]". */
static int tags(struct onlist_subject *s, const char *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t start;

		while (i < n && (isspace((unsigned char)p[i]) || p[i] == ',' ||
				 p[i] == '[' || p[i] == ']'))
			i++;
		start = i;
		while (i < n && !isspace((unsigned char)p[i]) && p[i] != ',' &&
		       p[i] != '[' && p[i] != ']')
			i++;
		if (i > start && word(s, p + start, i - start))
			return -1;
	}
	return 0;
}

int onlist_subject_parse(struct onlist_subject *out, const char *subject)
{
	const char *p = subject ? subject : "";
	size_t n, o = 0;
	int tagged = 0, versioned;
	char *d;

	memset(out, 0, sizeof(*out));
	out->version = 0;	/* 1 below, unless the tags give one */
	out->part = out->total = -1;
	for (;;) {
		while (isspace((unsigned char)*p) || *p == ':')
			p++;
		if ((n = reply_marker(p))) {
			out->reply = 1;
			p += n;
		} else if (*p == '[') {
			int depth = 0;
			const char *q = p;

			do {
				if (*q == '[')
					depth++;
				else if (*q == ']')
					depth--;
				q++;
			} while (*q && depth);
			if (depth)
				break;	/* "[unclosed": part of the subject */
			if (tags(out, p + 1, (size_t)(q - p - 2)))
				goto oom;
			tagged = 1;
			p = q;
		} else {
			break;
		}
	}
	/* "[PATCH BlueZ] V3: foo": a version written after the tags, as
	 * some post their next version (BlueZ's list does, often).  Only
	 * right after a [tag] group and only as "vN:" and a space: "V4L2:
	 * fix" and "v2 of the driver" are subjects.  A version in the tags
	 * wins; the word goes either way, or the subject of v3 would not
	 * be v1's and the versions would not be linked. */
	versioned = out->version > 0;
	if (!versioned)
		out->version = 1;
	if (tagged && (p[0] == 'v' || p[0] == 'V')) {
		const char *q = p + 1;

		while (isdigit((unsigned char)*q))
			q++;
		if (q[0] == ':' && isspace((unsigned char)q[1]) &&
		    (n = (size_t)(q - p)) >= 2 && version_word(p, n)) {
			if (!versioned)
				out->version = version_word(p, n);
			p = q + 1;
			while (isspace((unsigned char)*p))
				p++;
		}
	}
	/* The rest, white space folded, no trailing space. */
	d = out->stripped = malloc(strlen(p) + 1);
	if (!d)
		goto oom;
	for (; *p; p++) {
		if (isspace((unsigned char)*p)) {
			if (o && d[o - 1] != ' ')
				d[o++] = ' ';
		} else {
			d[o++] = *p;
		}
	}
	if (o && d[o - 1] == ' ')
		o--;
	d[o] = '\0';
	if (!out->prefix && !(out->prefix = strdup("")))
		goto oom;
	return 0;
oom:
	onlist_subject_release(out);
	return -1;
}

void onlist_subject_release(struct onlist_subject *s)
{
	free(s->prefix);
	free(s->stripped);
	s->prefix = s->stripped = NULL;
}

/* "5.15", "6.1.y", "4.19.123", "5.10-stable": two or three fields of
 * digits between dots, the last one "y" for a stable branch. */
static int kernel_version(const char *w, size_t n)
{
	int fields = 0;

	if (n > 7 && !strncasecmp(w + n - 7, "-stable", 7))
		n -= 7;
	for (size_t i = 0; i <= n; fields++) {
		size_t f = i;

		while (i < n && w[i] != '.')
			i++;
		if (!all_digits(w + f, i - f) &&
		    !(fields >= 2 && i == n && i - f == 1 &&
		      (w[f] == 'y' || w[f] == 'Y')))
			return 0;
		i++;	/* over the dot, or past the end */
	}
	return fields == 2 || fields == 3;
}

int onlist_subject_stable(const char *prefix)
{
	const char *p = prefix;

	while (p && *p) {
		size_t n;

		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if ((n == 6 && !strncasecmp(p, "stable", 6)) ||
		    (n == 7 && !strncasecmp(p, "autosel", 7)) ||
		    (n && kernel_version(p, n)))
			return 1;
		p += n;
	}
	return 0;
}

char *onlist_subject_key(const char *s)
{
	size_t n = s ? strlen(s) : 0, k = 0;
	char *out = malloc(n + 1);
	int gap = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x80 || isalnum(c)) {
			if (gap && k)
				out[k++] = ' ';
			gap = 0;
			out[k++] = (char)(c < 0x80 ? tolower(c) : c);
		} else {
			gap = 1;
		}
	}
	out[k] = '\0';
	return out;
}
