/* update.c - onlist update: the weekly job's first half.  Fetch every
 * remembered source, scan every configured repository's branches, match;
 * each stage is the command of its name, run in this process, its own
 * output replaced by one summary line (its errors still go to stderr). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "onlist/git.h"
#include "onlist/store.h"

static const char help[] =
	"usage: onlist [--db PATH] update [-q] [--repo PATH]... [--branch REF]...\n\n"
	"Bring the database up to date in one go, as a timer runs it:\n"
	"  fetch   every source `onlist sources` lists\n"
	"  scan    each branch of each repository: the commits since the tip\n"
	"          the last update scanned (the whole branch the first time)\n"
	"  match   join the commits to the postings\n"
	"One summary line per stage (none with -q); a stage that fails does\n"
	"not stop the others.\n\n"
	"  --repo PATH   a repository to scan (several allowed); default: every\n"
	"                `git config onlist.repo` value\n"
	"  --branch REF  a branch to scan in each (several allowed); default:\n"
	"                every `git config onlist.branch` value, else HEAD\n"
	"A branch never scanned is scanned whole, or from `git config\n"
	"onlist.scanFrom` (a revision, e.g. v6.6) when it is set.\n\n"
	"The configuration is git's, read in the current folder (its\n"
	"repository's, then the user's and the system's):\n"
	"  git config --global --add onlist.repo ~/src/linux\n"
	"  git config --global --add onlist.branch master\n\n"
	"Exit status: 0 when every stage succeeded, 1 when one failed (after\n"
	"the others ran), 2 on usage errors.\n";

static long nsources;

static int count_source(const struct onlist_source_row *r, void *data)
{
	(void)r;
	(void)data;
	nsources++;
	return 0;
}

/* The totals, and the number of sources; -1 after saying why. */
static int read_totals(struct onlist_cli *cli, struct onlist_totals *t)
{
	struct onlist_store *s;
	int ret = 0;

	memset(t, 0, sizeof *t);
	nsources = 0;
	if (!(s = onlist_cli_open_store(cli)))
		return -1;
	if (onlist_store_count_totals(s, t) != ONLIST_OK ||
	    onlist_store_sources(s, count_source, NULL) != ONLIST_OK) {
		onlist_err("update: %s", onlist_store_errmsg(s));
		ret = -1;
	}
	onlist_store_close(s);
	return ret;
}

/* Run a command as a stage: its standard output (the lines this stage's
 * summary replaces) goes to /dev/null, its errors to stderr. */
static int stage(struct onlist_cli *cli, int (*fn)(struct onlist_cli *, int, char **),
		 const char *name, int argc, char **argv)
{
	struct onlist_cli sub = *cli;
	int saved, null, ret;

	sub.cmd = name;
	sub.formats = NULL;
	sub.fmt = NULL;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
		onlist_err("update: cannot open /dev/null");
		if (saved >= 0)
			close(saved);
		if (null >= 0)
			close(null);
		return ONLIST_EXIT_FAIL;
	}
	close(null);
	optind = 0;	/* glibc: start afresh on the stage's argv */
	ret = fn(&sub, argc, argv);
	fflush(stdout);
	clearerr(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return ret;
}

/* A string list grown one at a time. */
struct strs {
	char **v;
	size_t n;
};

static int strs_add(struct strs *l, const char *s)
{
	char **v = realloc(l->v, (l->n + 1) * sizeof *v);

	if (!v)
		return -1;
	l->v = v;
	if (!(l->v[l->n] = strdup(s)))
		return -1;
	l->n++;
	return 0;
}

static void strs_free(struct strs *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Every value of `key` in dir's git configuration, added to l.  0 (also
 * when it is not set), or -1 after saying why. */
static int config_all(const char *dir, const char *key, struct strs *l)
{
	char *v = NULL, *err = NULL, *line, *nl;
	onlist_status st;
	int ret = 0;

	st = onlist_git_config_get_all(dir, key, 1, &v, &err);
	if (st == ONLIST_ENOTFOUND) {
		free(err);
		return 0;
	}
	if (st != ONLIST_OK) {
		onlist_err("update: git config %s: %s", key,
			   err ? err : onlist_status_str(st));
		free(err);
		return -1;
	}
	for (line = v; line && *line; line = nl ? nl + 1 : NULL) {
		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		if (*line && strs_add(l, line)) {
			ret = -1;
			break;
		}
	}
	free(v);
	return ret;
}

/* The commit `ref` names in repo, into sha: 0, 1 when git knows no such
 * commit, -1 when git fails otherwise (said with err). */
static int tip(const char *repo, const char *ref, char sha[41], char **err)
{
	char *spec = NULL, *out = NULL;
	const char *args[] = { "rev-parse", "--verify", "--quiet",
			       "--end-of-options", NULL, NULL };
	size_t len = 0;
	int status = 0;
	onlist_status st;

	if (asprintf(&spec, "%s^{commit}", ref) < 0)
		return -1;
	args[4] = spec;
	st = onlist_git_capture(repo, args, 0, &out, &len, &status, err);
	free(spec);
	if (st != ONLIST_OK) {
		free(out);
		return -1;
	}
	if (status || len < 40 || !onlist_git_is_hex(out, 40)) {
		free(out);
		return 1;
	}
	memcpy(sha, out, 40);
	sha[40] = '\0';
	free(out);
	return 0;
}

/* The tip the last update scanned of ref in repo (meta), or NULL. */
static char *tip_key(const char *repo, const char *ref)
{
	char *k = NULL;

	if (asprintf(&k, "update_tip %s %s", repo, ref) < 0)
		return NULL;
	return k;
}

/* Scan one branch of one repository from where the last update left it.
 * 0 scanned, 1 nothing new, -1 failed (said). */
static int scan_branch(struct onlist_cli *cli, const char *repo,
		       const char *ref, const char *from)
{
	char resolved[PATH_MAX], sha[41], last[41], *key = NULL, *prev = NULL,
	     *range = NULL, *err = NULL;
	struct onlist_store *s = NULL;
	int ret = -1, k;

	if (ref[0] == '-') {
		onlist_err("update: branch '%s': not a ref name", ref);
		return -1;
	}
	if (!realpath(repo, resolved)) {
		onlist_err("update: %s: no such repository", repo);
		return -1;
	}
	if ((k = tip(resolved, ref, sha, &err)) != 0) {
		if (k > 0)
			onlist_err("update: %s: no branch or commit '%s'", repo, ref);
		else
			onlist_err_text("update", err ? err : "git rev-parse failed");
		free(err);
		return -1;
	}
	if (!(key = tip_key(resolved, ref)) || !(s = onlist_cli_open_store(cli)))
		goto out;
	prev = onlist_store_get_meta(s, key);
	onlist_store_close(s);
	s = NULL;
	if (prev && !strcmp(prev, sha)) {
		ret = 1;
		goto out;
	}
	/* from the last tip when git still has it (a rewound branch too:
	 * git's range is what is new), else the whole branch */
	if (prev && strlen(prev) == 40 && onlist_git_is_hex(prev, 40) &&
	    tip(resolved, prev, last, NULL) == 0) {
		if (asprintf(&range, "%s..%s", last, sha) < 0)
			goto out;
	} else if (from && tip(resolved, from, last, NULL) == 0) {
		/* the first time, with onlist.scanFrom: what came after it */
		if (asprintf(&range, "%s..%s", last, sha) < 0)
			goto out;
	} else if (from) {
		onlist_err("update: %s: onlist.scanFrom '%s' is no commit there",
			   repo, from);
		goto out;
	} else if (!(range = strdup(sha))) {
		goto out;
	}
	{
		char *argv[] = { "scan", "--repo", resolved, range, NULL };

		if (stage(cli, cmd_scan, "scan", 4, argv) != ONLIST_EXIT_OK)
			goto out;
	}
	if (!(s = onlist_cli_open_store(cli)))
		goto out;
	if (onlist_store_set_meta(s, key, sha) != ONLIST_OK) {
		onlist_err("update: %s", onlist_store_errmsg(s));
		goto out;
	}
	ret = 0;
out:
	onlist_store_close(s);
	free(key);
	free(prev);
	free(range);
	return ret;
}

static const char *plural(long n, const char *one, const char *more)
{
	return n == 1 ? one : more;
}

int cmd_update(struct onlist_cli *cli, int argc, char **argv)
{
	enum { OPT_REPO = ONLIST_OPT_FIRST_LONG, OPT_BRANCH };
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "branch", required_argument, NULL, OPT_BRANCH },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	struct strs repos = { 0 }, branches = { 0 };
	char *from = NULL;
	struct onlist_totals t0, t1, t2, t3;
	int c, ret = ONLIST_EXIT_OK, nscanned = 0, nfailed = 0;
	long nbranch = 0;

	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts, help)) != -1) {
		switch (c) {
		case OPT_REPO:
			if (strs_add(&repos, optarg))
				goto nomem;
			break;
		case OPT_BRANCH:
			if (strs_add(&branches, optarg))
				goto nomem;
			break;
		default:	/* --help, or a usage error: said already */
			strs_free(&repos);
			strs_free(&branches);
			return onlist_cli_stop(c);
		}
	}
	if (onlist_cli_operands(cli, argc, argv, 0, 0, help)) {
		ret = ONLIST_EXIT_USAGE;
		goto out;
	}
	if ((!repos.n && config_all(".", "onlist.repo", &repos)) ||
	    (!branches.n && config_all(".", "onlist.branch", &branches))) {
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (!branches.n && strs_add(&branches, "HEAD"))
		goto nomem;
	from = onlist_git_config(NULL, "onlist.scanFrom");
	if (read_totals(cli, &t0)) {
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}

	/* fetch */
	if (nsources) {
		char *fargv[] = { "fetch", NULL };

		if (stage(cli, cmd_fetch, "fetch", 1, fargv) != ONLIST_EXIT_OK)
			ret = ONLIST_EXIT_FAIL;
	}
	if (read_totals(cli, &t1)) {
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (!cli->quiet) {
		if (!nsources)
			printf("fetch: no sources (`onlist fetch URL` adds one)\n");
		else if (t1.messages == t0.messages)
			printf("fetch: %ld %s, nothing new%s\n", nsources,
			       plural(nsources, "source", "sources"),
			       ret ? " (failed)" : "");
		else
			printf("fetch: %ld %s, %ld new %s, %ld with a patch%s\n",
			       nsources, plural(nsources, "source", "sources"),
			       (long)(t1.messages - t0.messages),
			       plural(t1.messages - t0.messages, "message",
				      "messages"),
			       (long)(t1.patches - t0.patches),
			       ret ? " (failed)" : "");
	}

	/* scan */
	if (!repos.n) {
		onlist_err("update: no repository to scan: set one with `git "
			   "config --global --add onlist.repo PATH`, or give "
			   "--repo");
		nfailed++;
	}
	for (size_t i = 0; i < repos.n; i++)
		for (size_t j = 0; j < branches.n; j++) {
			int k = scan_branch(cli, repos.v[i], branches.v[j], from);

			nbranch++;
			nscanned += k == 0;
			nfailed += k < 0;
		}
	if (nfailed)
		ret = ONLIST_EXIT_FAIL;
	if (read_totals(cli, &t2)) {
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (!cli->quiet) {
		printf("scan: %ld %s of %zu %s", nbranch,
		       plural(nbranch, "branch", "branches"), repos.n,
		       plural((long)repos.n, "repository", "repositories"));
		if (t2.commits != t1.commits)
			printf(", %ld new %s", (long)(t2.commits - t1.commits),
			       plural(t2.commits - t1.commits, "commit",
				      "commits"));
		else
			printf(", nothing new");
		if (nfailed)
			printf(" (%d failed)", nfailed);
		putchar('\n');
	}

	/* match */
	{
		char *margv[] = { "match", NULL };
		int mret = stage(cli, cmd_match, "match", 1, margv);

		if (mret != ONLIST_EXIT_OK)
			ret = ONLIST_EXIT_FAIL;
		if (read_totals(cli, &t3)) {
			ret = ONLIST_EXIT_FAIL;
			goto out;
		}
		if (!cli->quiet) {
			if (t3.commits_matched == t2.commits_matched &&
			    t3.matches == t2.matches)
				printf("match: nothing new; ");
			else
				printf("match: %+ld posted, ", (long)
				       (t3.commits_matched - t2.commits_matched));
			printf("%ld of %ld commits posted%s\n",
			       (long)t3.commits_matched, (long)t3.commits,
			       mret != ONLIST_EXIT_OK ? " (failed)" : "");
		}
	}
	goto out;
nomem:
	onlist_err("update: out of memory");
	ret = ONLIST_EXIT_FAIL;
out:
	free(from);
	strs_free(&repos);
	strs_free(&branches);
	return ret;
}
