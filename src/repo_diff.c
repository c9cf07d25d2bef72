/* repo_diff.c - git diff-tree over a list of commits (see repo_diff.h).
 *
 * Kept apart from the scan: a scan is long-lived parallel diff-trees whose
 * output is hashed line by line and never held; here one short git per
 * algorithm hands each commit's whole diff to the matcher, with settings
 * of its own.  Both start git through git.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "onlist/git.h"
#include "onlist/repo_diff.h"

#define MARK "\001onlist-commit "

static int emit(const char *sha, char *buf, size_t len, onlist_diff_cb cb,
		void *data)
{
	return sha[0] ? cb(sha, buf ? buf : "", len, data) : 0;
}

/* The shas, one per line, as git's input; NULL when out of memory. */
static char *sha_lines(const char (*shas)[41], size_t n, size_t *len)
{
	char *s = malloc(n * 41 + 1);

	*len = 0;
	for (size_t i = 0; s && i < n; i++) {
		memcpy(s + *len, shas[i], 40);
		s[*len + 40] = '\n';
		*len += 41;
	}
	return s;
}

onlist_status onlist_repo_diff_each(const char *repo, const char *algorithm,
				const char (*shas)[41], size_t n,
				onlist_diff_cb cb, void *data, char **errmsg)
{
	char algo[64];
	/* core.quotePath=false comes after git.c's pinned true, and the last
	 * -c wins */
	const char *args[] = {
		"-c", "core.quotePath=false",
		"-c", "diff.suppressBlankEmpty=false", "-c", "diff.noprefix=false",
		"diff-tree", "--stdin", "-r", "-p", "-M", "--full-index", "--root",
		"--always", "--no-color", "--no-ext-diff", "--no-textconv",
		"--indent-heuristic", algo, "-U3", "--src-prefix=a/",
		"--dst-prefix=b/", "--format=" MARK "%H", NULL
	};
	struct onlist_git g;
	struct onlist_git_reader r = { 0 };
	char *input, *line, *buf = NULL, sha[41] = "";
	size_t inlen, got, blen = 0, bcap = 0;
	int rc = 0, stopped = 0;
	onlist_status st = ONLIST_OK;

	if (errmsg)
		*errmsg = NULL;
	if (!repo || repo[0] == '-')
		return onlist_fail(errmsg, ONLIST_EUSAGE, "bad repository path '%s'",
			    repo ? repo : "");
	snprintf(algo, sizeof(algo), "--diff-algorithm=%s", algorithm);
	if (!(input = sha_lines(shas, n, &inlen)))
		return ONLIST_ENOMEM;
	/* the commits as input: git.c feeds them from a file, so there is
	 * no pipe to deadlock on */
	st = onlist_git_start(&g, repo, args, 0, input, inlen, errmsg);
	free(input);
	if (st != ONLIST_OK)
		return st;
	if (onlist_git_reader_init(&r, g.out) < 0) {
		st = ONLIST_ENOMEM;
		stopped = 1;
	}
	while (!stopped &&
	       (rc = onlist_git_reader_next(&r, '\n', &line, &got)) == 1) {
		if (got >= strlen(MARK) + 40 &&
		    !strncmp(line, MARK, strlen(MARK))) {
			if (emit(sha, buf, blen, cb, data)) {
				stopped = 1;
				break;
			}
			memcpy(sha, line + strlen(MARK), 40);
			sha[40] = '\0';
			blen = 0;
			continue;
		}
		if (blen + got + 1 > bcap) {
			char *nb;
			bcap = (blen + got + 1) * 2;
			if (!(nb = realloc(buf, bcap))) {
				st = ONLIST_ENOMEM;
				stopped = 1;
				break;
			}
			buf = nb;
		}
		memcpy(buf + blen, line, got);
		blen += got;
		buf[blen] = '\0';
	}
	if (rc < 0 && !stopped) {
		st = onlist_fail(errmsg, ONLIST_EIO, "reading from git diff-tree: %s",
			  strerror(errno));
		stopped = 1;
	}
	if (!stopped && emit(sha, buf, blen, cb, data))
		stopped = 1;
	/* after a stop, closing its stdout ends git (SIGPIPE), and what it
	 * says then does not matter */
	if (onlist_git_wait(&g, stopped ? NULL : errmsg) && !stopped)
		st = ONLIST_EGIT;
	onlist_git_reader_release(&r);
	free(buf);
	return st;
}

static onlist_status take_tag(char *line, size_t len, void *data)
{
	GHashTable *dates = data;
	char *sp = strrchr(line, ' ');

	(void)len;
	if (sp) {
		*sp = '\0';
		g_hash_table_insert(dates, g_strdup(line),
				    g_memdup2(&(int64_t){ strtoll(sp + 1, NULL, 10) },
					      sizeof(int64_t)));
	}
	return ONLIST_OK;
}

struct named {
	GHashTable *dates;
	onlist_tag_date_cb cb;
	void *data;
};

/* "<sha> (tags/v1.1~3)": the tag v1.1 */
static onlist_status take_name(char *line, size_t len, void *data)
{
	struct named *n = data;
	char *p = strstr(line, " (tags/");
	int64_t *date;

	(void)len;
	if (strlen(line) < 40 || !p)
		return ONLIST_OK;
	line[40] = '\0';
	p += 7;
	p[strcspn(p, "~^)")] = '\0';
	if ((date = g_hash_table_lookup(n->dates, p)))
		n->cb(line, *date, n->data);
	return ONLIST_OK;
}

onlist_status onlist_repo_diff_tag_dates(const char *repo, const char (*shas)[41],
				    size_t n, onlist_tag_date_cb cb, void *data,
				    char **errmsg)
{
	static const char *const refs[] = {
		"for-each-ref", "--format=%(refname:strip=2) %(creatordate:unix)",
		"refs/tags", NULL
	};
	static const char *const names[] = {
		"name-rev", "--tags", "--annotate-stdin", NULL
	};
	struct named nm = { g_hash_table_new_full(g_str_hash, g_str_equal,
						  g_free, g_free), cb, data };
	char *input = NULL;
	size_t inlen = 0;
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	if (!repo || repo[0] == '-') {
		g_hash_table_destroy(nm.dates);
		return onlist_fail(errmsg, ONLIST_EUSAGE, "bad repository path '%s'",
			    repo ? repo : "");
	}
	st = onlist_git_records(repo, refs, 0, NULL, 0, '\n', take_tag,
				nm.dates, errmsg);
	if (st == ONLIST_OK && g_hash_table_size(nm.dates) && n &&
	    !(input = sha_lines(shas, n, &inlen)))
		st = ONLIST_ENOMEM;
	if (st == ONLIST_OK && input)
		st = onlist_git_records(repo, names, 0, input, inlen, '\n',
					take_name, &nm, errmsg);
	free(input);
	g_hash_table_destroy(nm.dates);
	return st;
}
