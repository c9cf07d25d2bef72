/* repo_diff.c - git diff-tree over a list of commits (see repo_diff.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "onlist/repo_diff.h"

extern char **environ;

#define MARK "\001onlist-commit "

static onlist_status fail(char **errmsg, onlist_status st, const char *fmt,
			  const char *arg)
{
	if (errmsg && asprintf(errmsg, fmt, arg) < 0)
		*errmsg = NULL;
	return st;
}

static int emit(const char *sha, char *buf, size_t len, onlist_diff_cb cb,
		void *data)
{
	return sha[0] ? cb(sha, buf ? buf : "", len, data) : 0;
}

onlist_status onlist_repo_diffs(const char *repo, const char *algorithm,
				const char (*shas)[41], size_t n,
				onlist_diff_cb cb, void *data, char **errmsg)
{
	char algo[64], in_path[] = "/tmp/onlist-diff-XXXXXX";
	const char *argv[] = {
		"git", "-C", repo, "-c", "core.quotePath=false",
		"-c", "diff.suppressBlankEmpty=false", "-c", "diff.noprefix=false",
		"diff-tree", "--stdin", "-r", "-p", "-M", "--full-index", "--root",
		"--always", "--no-color", "--no-ext-diff", "--no-textconv",
		"--indent-heuristic", algo, "-U3", "--src-prefix=a/",
		"--dst-prefix=b/", "--format=" MARK "%H", NULL
	};
	posix_spawn_file_actions_t fa;
	int in = -1, out[2] = { -1, -1 }, status, stopped = 0;
	pid_t pid;
	FILE *f = NULL;
	char *line = NULL, *buf = NULL, sha[41] = "";
	size_t cap = 0, blen = 0, bcap = 0;
	ssize_t got;
	onlist_status ret = ONLIST_OK;

	if (errmsg)
		*errmsg = NULL;
	if (!repo || repo[0] == '-')
		return fail(errmsg, ONLIST_EUSAGE, "bad repository path '%s'",
			    repo ? repo : "");
	snprintf(algo, sizeof(algo), "--diff-algorithm=%s", algorithm);
	/* the commits, one per line, from a file: no pipe to deadlock on */
	if ((in = mkstemp(in_path)) < 0)
		return fail(errmsg, ONLIST_EIO, "temporary file: %s",
			    strerror(errno));
	unlink(in_path);
	for (size_t i = 0; i < n; i++)
		if (dprintf(in, "%s\n", shas[i]) < 0) {
			close(in);
			return fail(errmsg, ONLIST_EIO, "temporary file: %s",
				    strerror(errno));
		}
	lseek(in, 0, SEEK_SET);
	if (pipe2(out, O_CLOEXEC)) {
		close(in);
		return fail(errmsg, ONLIST_EIO, "pipe: %s", strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	if (posix_spawnp(&pid, "git", &fa, NULL, (char *const *)argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(in);
		close(out[0]);
		close(out[1]);
		return fail(errmsg, ONLIST_EGIT, "cannot run git: %s",
			    strerror(errno));
	}
	posix_spawn_file_actions_destroy(&fa);
	close(in);
	close(out[1]);
	f = fdopen(out[0], "r");
	while (f && (got = getline(&line, &cap, f)) > 0) {
		if (!strncmp(line, MARK, strlen(MARK)) &&
		    got >= (ssize_t)(strlen(MARK) + 40)) {
			if (emit(sha, buf, blen, cb, data)) {
				stopped = 1;
				break;
			}
			memcpy(sha, line + strlen(MARK), 40);
			sha[40] = '\0';
			blen = 0;
			continue;
		}
		if (blen + (size_t)got + 1 > bcap) {
			char *nb;
			bcap = (blen + (size_t)got + 1) * 2;
			if (!(nb = realloc(buf, bcap))) {
				ret = ONLIST_ENOMEM;
				stopped = 1;
				break;
			}
			buf = nb;
		}
		memcpy(buf + blen, line, (size_t)got);
		blen += (size_t)got;
		buf[blen] = '\0';
	}
	if (!stopped && emit(sha, buf, blen, cb, data))
		stopped = 1;
	if (f)
		fclose(f);
	else
		close(out[0]);
	if (stopped)
		kill(pid, SIGTERM);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!stopped && ret == ONLIST_OK &&
	    (!WIFEXITED(status) || WEXITSTATUS(status)))
		ret = fail(errmsg, ONLIST_EGIT, "git diff-tree failed in %s", repo);
	free(line);
	free(buf);
	return ret;
}

typedef void (*line_cb)(char *line, void *data);

/* Run git (argv, NULL-terminated, without "git") in repo, feeding it the
 * lines of `in` (NULL: nothing) from an unlinked temporary file, and call
 * cb for each line of its output (newline removed). */
static onlist_status git_lines(const char *repo, const char *const *args,
			       const char (*in)[41], size_t nin, line_cb cb,
			       void *data, char **errmsg)
{
	const char *argv[16];
	char tmpl[] = "/tmp/onlist-git-XXXXXX", *line = NULL;
	posix_spawn_file_actions_t fa;
	int fd, out[2], status, a = 0;
	size_t cap = 0;
	ssize_t len;
	pid_t pid;
	FILE *f;

	argv[a++] = "git";
	argv[a++] = "-C";
	argv[a++] = repo;
	for (int i = 0; args[i] && a < 15; i++)
		argv[a++] = args[i];
	argv[a] = NULL;
	if ((fd = mkstemp(tmpl)) < 0)
		return fail(errmsg, ONLIST_EIO, "temporary file: %s", strerror(errno));
	unlink(tmpl);
	for (size_t i = 0; i < nin; i++)
		if (dprintf(fd, "%s\n", in[i]) < 0) {
			close(fd);
			return fail(errmsg, ONLIST_EIO, "temporary file: %s",
				    strerror(errno));
		}
	lseek(fd, 0, SEEK_SET);
	if (pipe2(out, O_CLOEXEC)) {
		close(fd);
		return fail(errmsg, ONLIST_EIO, "pipe: %s", strerror(errno));
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	status = posix_spawnp(&pid, "git", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fd);
	close(out[1]);
	if (status) {
		close(out[0]);
		return fail(errmsg, ONLIST_EGIT, "cannot run git: %s", strerror(status));
	}
	f = fdopen(out[0], "r");
	while (f && (len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[len - 1] = '\0';
		cb(line, data);
	}
	if (f)
		fclose(f);
	else
		close(out[0]);
	free(line);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return fail(errmsg, ONLIST_EGIT, "git %s failed", args[0]);
	return ONLIST_OK;
}

static void take_tag(char *line, void *data)
{
	GHashTable *dates = data;
	char *sp = strrchr(line, ' ');

	if (sp) {
		*sp = '\0';
		g_hash_table_insert(dates, g_strdup(line),
				    g_memdup2(&(int64_t){ strtoll(sp + 1, NULL, 10) },
					      sizeof(int64_t)));
	}
}

struct named {
	GHashTable *dates;
	onlist_tag_date_cb cb;
	void *data;
};

/* "<sha> (tags/v1.1~3)": the tag v1.1 */
static void take_name(char *line, void *data)
{
	struct named *n = data;
	char *p = strstr(line, " (tags/");
	int64_t *date;

	if (strlen(line) < 40 || !p)
		return;
	line[40] = '\0';
	p += 7;
	p[strcspn(p, "~^)")] = '\0';
	if ((date = g_hash_table_lookup(n->dates, p)))
		n->cb(line, *date, n->data);
}

onlist_status onlist_repo_tag_dates(const char *repo, const char (*shas)[41],
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
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	if (!repo || repo[0] == '-') {
		g_hash_table_destroy(nm.dates);
		return fail(errmsg, ONLIST_EUSAGE, "bad repository path '%s'",
			    repo ? repo : "");
	}
	st = git_lines(repo, refs, NULL, 0, take_tag, nm.dates, errmsg);
	if (st == ONLIST_OK && g_hash_table_size(nm.dates) && n)
		st = git_lines(repo, names, shas, n, take_name, &nm, errmsg);
	g_hash_table_destroy(nm.dates);
	return st;
}
