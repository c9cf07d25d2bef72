/* msgmeta.c - trailers, pull requests and change-ids in a mail's text. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/msgmeta.h"

static const char *line_end(const char *p)
{
	const char *e = strchr(p, '\n');

	return e ? e : p + strlen(p);
}

/* Without a trailing "\r" and blanks. */
static size_t trimmed_len(const char *p, const char *e)
{
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	return (size_t)(e - p);
}

static int is_key_char(int c)
{
	return isalnum(c) || c == '-' || c == '_';
}

int onlist_find_trailers(const char *text, onlist_trailer_cb cb, void *data)
{
	const char *p = text ? text : "";

	while (*p) {
		const char *e = line_end(p), *k = p, *q;
		size_t n = trimmed_len(p, e);

		if ((n == 2 && !strncmp(p, "--", 2) && p[2] == ' ') ||
		    (n >= 26 && !strncmp(p, "-----Original Message-----", 26)))
			break;
		while (k < p + n && (*k == ' ' || *k == '\t'))
			k++;
		/* a bare "NAK" on a line of its own: a Nacked-by without the
		 * name (the key "NAK", an empty value) */
		if (p + n - k == 3 && !strncasecmp(k, "nak", 3)) {
			int r = cb(k, 3, k + 3, 0, data);

			if (r)
				return r;
			p = *e ? e + 1 : e;
			continue;
		}
		q = k;
		while (q < p + n && is_key_char((unsigned char)*q))
			q++;
		if (q - k >= 4 && isalpha((unsigned char)*k) &&
		    !strncasecmp(q - 3, "-by", 3)) {
			const char *key_end = q, *v;

			while (q < p + n && (*q == ' ' || *q == '\t'))
				q++;
			if (q < p + n && *q == ':') {
				v = q + 1;
				while (v < p + n && isspace((unsigned char)*v))
					v++;
				if (v < p + n) {
					int r = cb(k, (size_t)(key_end - k), v,
						   (size_t)(p + n - v), data);
					if (r)
						return r;
				}
			}
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

int onlist_trailer_is_review(const char *key, size_t keylen)
{
	static const char *const review[] = {
		"reviewed-by", "acked-by", "tested-by", "nacked-by",
	};

	for (size_t i = 0; i < sizeof(review) / sizeof(*review); i++)
		if (keylen == strlen(review[i]) &&
		    !strncasecmp(key, review[i], keylen))
			return 1;
	return 0;
}

static char *dup_trim(const char *p, size_t n)
{
	char *s;

	while (n && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	while (n && (isspace((unsigned char)p[n - 1]) || p[n - 1] == '"'))
		n--;
	while (n && *p == '"') {
		p++;
		n--;
	}
	if (!(s = malloc(n + 1)))
		return NULL;
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

int onlist_split_ident(const char *value, size_t len, char **name, char **addr)
{
	const char *lt = memchr(value, '<', len), *gt;

	*name = *addr = NULL;
	if (lt && (gt = memchr(lt, '>', len - (size_t)(lt - value)))) {
		*name = dup_trim(value, (size_t)(lt - value));
		*addr = dup_trim(lt + 1, (size_t)(gt - lt - 1));
	} else if (memchr(value, '@', len) && !memchr(value, ' ', len)) {
		*name = strdup("");
		*addr = dup_trim(value, len);
	} else {
		*name = dup_trim(value, len);
		*addr = strdup("");
	}
	if (!*name || !*addr) {
		free(*name);
		free(*addr);
		*name = *addr = NULL;
		return -1;
	}
	for (char *c = *addr; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return 0;
}

int onlist_find_pull(const char *text, char **url, char **ref, char **tip)
{
	const char *p, *e, *u, *ue, *r;

	*url = *ref = *tip = NULL;
	for (p = text; p && (p = (const char *)strcasestr(p, "are available in the git "
					"repository at")); p++) {
		const char *b = p;	/* quoted ("> are available...")? */

		while (b > text && b[-1] != '\n')
			b--;
		while (b < p && (*b == ' ' || *b == '\t'))
			b++;
		if (b == p)
			break;
	}
	if (!p)
		return 0;
	/* The next line that is not empty. */
	p = line_end(p);
	while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
		p++;
	e = line_end(p);
	u = p;
	ue = u;
	while (ue < e && !isspace((unsigned char)*ue))
		ue++;
	if (ue == u)
		return 0;
	r = ue;
	while (r < e && isspace((unsigned char)*r))
		r++;
	if (!(*url = dup_trim(u, (size_t)(ue - u))) ||
	    !(*ref = dup_trim(r, trimmed_len(r, e))))
		goto oom;
	if (!**url) {		/* only quotes where the URL goes */
		free(*url);
		free(*ref);
		*url = *ref = NULL;
		return 0;
	}
	if ((p = (const char *)strcasestr(e, "for you to fetch changes up to"))) {
		p += strlen("for you to fetch changes up to");
		while (*p == ' ')
			p++;
		u = p;
		while (isxdigit((unsigned char)*p))
			p++;
		if (p - u >= 7 && p - u <= 64) {
			if (!(*tip = dup_trim(u, (size_t)(p - u))))
				goto oom;
			for (char *c = *tip; *c; c++)
				*c = (char)tolower((unsigned char)*c);
		}
	}
	if (!*tip && !(*tip = strdup("")))
		goto oom;
	return 1;
oom:
	free(*url);
	free(*ref);
	free(*tip);
	*url = *ref = *tip = NULL;
	return -1;
}

char *onlist_find_change_id(const char *text)
{
	const char *p = text ? text : "";

	while (*p) {
		const char *e = line_end(p);

		if (!strncasecmp(p, "change-id:", 10)) {
			const char *v = p + 10;
			size_t n;

			while (*v == ' ' || *v == '\t')
				v++;
			n = trimmed_len(v, e);
			if (n && n < 200)
				return dup_trim(v, n);
		}
		p = *e ? e + 1 : e;
	}
	return NULL;
}
