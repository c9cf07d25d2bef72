/* msgid.c - the Message-ID a user or a trailer names (see msgid.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "onlist/msgid.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A copy of [p, e) with white space trimmed at both ends. */
static onlist_status copy_id(const char *p, const char *e, char **out)
{
	while (p < e && is_space(*p))
		p++;
	while (e > p && is_space(e[-1]))
		e--;
	if (p == e)
		return ONLIST_EPARSE;
	if (!(*out = strndup(p, (size_t)(e - p))))
		return ONLIST_ENOMEM;
	return ONLIST_OK;
}

/* What lore appends to a message's URL: the thread (/T/ flat, /t/ nested),
 * the raw message, the thread as mbox or Atom; /u/ is the older spelling
 * of a message URL some archives still link to. */
static int lore_suffix(const char *comp)
{
	static const char *const suffixes[] = {
		"T", "t", "u", "raw", "t.mbox.gz", "t.atom",
	};

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++)
		if (!strcmp(comp, suffixes[i]))
			return 1;
	return 0;
}

/* The id in the URL [s, s + n): the last path component that is not one
 * of lore's suffixes, %XX decoded, and only when it has an '@'. */
static onlist_status from_url(const char *s, size_t n, char **out)
{
	char *u = strndup(s, n), *path, *comp = NULL, *d, *c;
	onlist_status ret = ONLIST_EPARSE;

	if (!u)
		return ONLIST_ENOMEM;
	u[strcspn(u, "#?")] = '\0';	/* anchors (#r, #u) and queries */
	path = strstr(u, "://");	/* NULL when "://" was in the anchor */
	path = path ? strchr(path + 3, '/') : NULL;
	while (path) {
		size_t len = strlen(path);
		char *slash;

		while (len && path[len - 1] == '/')
			path[--len] = '\0';
		if (!(slash = strrchr(path, '/')))
			break;		/* nothing left after the host */
		if (!lore_suffix(slash + 1)) {
			comp = slash + 1;
			break;
		}
		*slash = '\0';
	}
	if (!comp)
		goto out;
	/* Decoding never lengthens: do it in place. */
	for (d = c = comp; *c; c++) {
		int hi, lo;

		if (c[0] == '%' && (hi = hex_value(c[1])) >= 0 &&
		    (lo = hex_value(c[2])) >= 0) {
			if (!(*d++ = (char)(hi * 16 + lo)))
				goto out;	/* %00 would cut the id short */
			c += 2;
		} else {
			*d++ = *c;
		}
	}
	*d = '\0';
	if (strchr(comp, '@'))
		ret = copy_id(comp, comp + strlen(comp), out);
out:
	free(u);
	return ret;
}

onlist_status onlist_msgid_parse(const char *arg, char **out)
{
	static const char *const keys[] = { "Link:", "Message-Id:" };
	const char *p, *e, *lt, *gt;

	*out = NULL;
	if (!arg)
		return ONLIST_EPARSE;
	p = arg;
	while (is_space(*p))
		p++;
	/* a whole trailer line, pasted */
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (!strncasecmp(p, keys[i], strlen(keys[i]))) {
			p += strlen(keys[i]);
			while (is_space(*p))
				p++;
			break;
		}
	e = p;
	while (*e && !is_space(*e))
		e++;
	if (memmem(p, (size_t)(e - p), "://", 3))
		return from_url(p, (size_t)(e - p), out);
	if ((lt = strchr(p, '<')) && (gt = strchr(lt + 1, '>')))
		return copy_id(lt + 1, gt, out);
	/* bare: one word, a stray bracket at either end dropped */
	if (*p == '<')
		p++;
	if (e > p && e[-1] == '>')
		e--;
	return copy_id(p, e, out);
}
