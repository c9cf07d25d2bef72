/* repo_commit.c - one commit as git diff-tree prints it: its trailers,
 * whether its message says anything beyond them, the paths its diff
 * touches and its patch-id, taken line by line (see repo_scan_int.h).
 * repo_scan.c runs the gits and hands their output here; nothing in this
 * file starts a process or waits on one.
 */
#include <stdlib.h>
#include <string.h>

#include "onlist/buf.h"
#include "onlist/repo_scan.h"
#include "repo_scan_int.h"

void onlist_commit_release(struct onlist_commit *c)
{
	size_t i;

	if (!c)
		return;
	free(c->author_name);
	free(c->author_email);
	free(c->committer_name);
	free(c->committer_email);
	free(c->subject);
	free(c->body);
	for (i = 0; i < c->ntrailers; i++) {
		free(c->trailers[i].key);
		free(c->trailers[i].value);
	}
	free(c->trailers);
	free(c->files);
	free(c->skip_reason);
	memset(c, 0, sizeof *c);
}

/* "Key: value" lines, as %(trailers:only,unfold) prints them: git writes
 * every parsed trailer as key, ": ", value, whatever separator the message
 * used. */
static int parse_trailers(struct onlist_commit *c, const char *s)
{
	const char *p, *nl, *colon;
	size_t n = 0;

	for (p = s; *p; p++)
		n += *p == '\n';
	if (!n)
		return 0;
	if (!(c->trailers = calloc(n, sizeof *c->trailers)))
		return -1;
	for (p = s; *p; p = *nl ? nl + 1 : nl) {
		const char *v;
		if (!(nl = strchr(p, '\n')))
			nl = p + strlen(p);
		if (nl == p)
			continue;
		colon = memchr(p, ':', (size_t)(nl - p));
		if (!colon)
			colon = nl;
		v = colon < nl ? colon + 1 : nl;
		if (v < nl && *v == ' ')
			v++;
		c->trailers[c->ntrailers].key = strndup(p, (size_t)(colon - p));
		c->trailers[c->ntrailers].value = strndup(v, (size_t)(nl - v));
		if (!c->trailers[c->ntrailers].key ||
		    !c->trailers[c->ntrailers].value) {
			free(c->trailers[c->ntrailers].key);
			free(c->trailers[c->ntrailers].value);
			return -1;
		}
		c->ntrailers++;
	}
	return 0;
}

static int is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
			return 0;
	return 1;
}

/* The body says nothing beyond its trailers: what is left after cutting
 * out the trailer block git found (its last occurrence: the block ends the
 * message) is blank. */
static int body_is_empty(const char *body, const char *block)
{
	size_t bl = strlen(body), tl = strlen(block);
	const char *cut = NULL, *p = body;

	while (tl && (p = memmem(p, bl - (size_t)(p - body), block, tl))) {
		cut = p;
		p++;
	}
	if (!cut)
		return is_blank(body, bl);
	return is_blank(body, (size_t)(cut - body)) &&
	       is_blank(cut + tl, bl - (size_t)(cut - body) - tl);
}

/* The path a "diff --git a/X b/Y" line names on its b side.  A quoted name
 * stays quoted, without its "b/".  When the two names differ and are not
 * quoted, spaces make the split ambiguous; such a pair is a rename or copy,
 * whose "rename to"/"copy to" line then replaces this guess. */
static int diff_git_path(const char *s, size_t n, struct onlist_buf *out)
{
	size_t i, l;

	out->len = 0;
	if (n >= 4 && s[n - 1] == '"') {
		/* inside a quoted name a quote is escaped, so the last
		 * ` "b/` starts the b side */
		for (i = n - 3; i-- > 0;)
			if (!memcmp(s + i, " \"b/", 4))
				return onlist_buf_add(out, "\"", 1) ||
				       onlist_buf_add(out, s + i + 4, n - i - 4);
		return onlist_buf_add(out, s, n);
	}
	if (n >= 7 && (n - 5) % 2 == 0 && !memcmp(s, "a/", 2)) {
		l = (n - 5) / 2;
		if (!memcmp(s + 2 + l, " b/", 3) && !memcmp(s + 2, s + 5 + l, l))
			return onlist_buf_add(out, s + 5 + l, l);
	}
	for (i = n >= 3 ? n - 2 : 0; i-- > 0;)
		if (!memcmp(s + i, " b/", 3))
			return onlist_buf_add(out, s + i + 3, n - i - 3);
	return onlist_buf_add(out, s, n);
}

static int flush_path(struct onlist__commit_parse *ps)
{
	int rc = 0;

	if (ps->path.len)
		rc = onlist_buf_add(&ps->files, ps->path.data, ps->path.len) ||
		     onlist_buf_add(&ps->files, "\n", 1);
	ps->path.len = 0;
	return rc;
}

int onlist__commit_diff_line(struct onlist__commit_parse *ps, const char *line, size_t len)
{
	size_t n = len;

	if (ps->hashing &&
	    onlist_patchid_line(&ps->pid, line, len, NULL) != ONLIST_PATCHID_MORE)
		ps->hashing = 0;	/* git ends this patch here too */
	/* only header lines start with a letter */
	if (!len || line[0] < 'a' || line[0] > 'z')
		return 0;
	if (line[n - 1] == '\n')
		n--;
	if (n > 11 && !memcmp(line, "diff --git ", 11)) {
		if (flush_path(ps))
			return -1;
		return diff_git_path(line + 11, n - 11, &ps->path);
	}
	if (n > 10 && !memcmp(line, "rename to ", 10)) {
		ps->path.len = 0;
		return onlist_buf_add(&ps->path, line + 10, n - 10);
	}
	if (n > 8 && !memcmp(line, "copy to ", 8)) {
		ps->path.len = 0;
		return onlist_buf_add(&ps->path, line + 8, n - 8);
	}
	return 0;
}

/* A line of `--name-only` output: one path, quoted as "diff --git" quotes
 * it. */
int onlist__commit_name_line(struct onlist__commit_parse *ps, const char *line, size_t len)
{
	if (len && line[len - 1] == '\n')
		len--;
	if (!len)
		return 0;
	if (flush_path(ps))
		return -1;
	return onlist_buf_add(&ps->path, line, len);
}

int onlist__commit_trailers(struct onlist_commit *c, const char *trailers,
			    const char *block)
{
	if (parse_trailers(c, trailers) < 0)
		return -1;
	c->body_empty = body_is_empty(c->body, block);
	return 0;
}

void onlist__commit_start(struct onlist__commit_parse *ps)
{
	onlist_patchid_init(&ps->pid, 1);
	ps->hashing = 1;
	ps->files.len = ps->path.len = 0;
}

int onlist__commit_finish(struct onlist__commit_parse *ps,
			  struct onlist_commit *c)
{
	unsigned char raw[ONLIST_PATCHID_RAWSZ];

	if (flush_path(ps) ||
	    !(c->files = strdup(ps->files.len ? ps->files.data : "")))
		return -1;
	c->has_patchid = onlist_patchid_finish(&ps->pid, raw);
	if (c->has_patchid)
		onlist_patchid_hex(raw, c->patchid);
	else
		c->patchid[0] = '\0';
	return 0;
}

void onlist__commit_parse_release(struct onlist__commit_parse *ps)
{
	onlist_buf_release(&ps->files);
	onlist_buf_release(&ps->path);
}
