/* cmd_scan.c - onlist scan --repo PATH RANGE */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/report.h"
#include "onlist/repo.h"
#include "onlist/store.h"

static const char help[] =
	"usage: onlist [--db PATH] scan [--repo PATH] [--jobs N] RANGE\n\n"
	"Read every non-merge commit of RANGE (anything `git rev-list` takes,\n"
	"e.g. v3.5..v3.11) into the database: author, committer, dates,\n"
	"subject, body, trailers, files touched and the patch-id of its diff,\n"
	"computed the way `git format-patch` output would hash.  Commits\n"
	"already in the database are skipped, so scanning again is cheap.\n"
	"Each commit's landing is recorded too: the first-parent commit of\n"
	"the range's tip that brought it in (the merge, or itself), and when.\n\n"
	"  --repo PATH  the git repository (default: the current directory)\n"
	"  --jobs N     git processes diffing in parallel (default 2)\n\n"
	"Exit status: 0 on success, 1 when git fails (e.g. an unknown\n"
	"revision), 2 on usage errors.\n";

struct scan_ctx {
	struct onlist_store *s;
	struct onlist_progress prog;
	int in_tx;
	long added;
	int failed;
};

static int known(const char *sha, void *data)
{
	struct scan_ctx *c = data;
	return onlist_store_has_commit(c->s, sha) == 1;
}

static int each(const struct onlist_commit *commit, void *data)
{
	struct scan_ctx *c = data;

	if (!c->in_tx) {
		if (onlist_store_begin(c->s) != ONLIST_OK)
			goto fail;
		c->in_tx = 1;
	}
	if (onlist_store_put_commit(c->s, commit) != ONLIST_OK)
		goto fail;
	c->added++;
	return 0;
fail:
	onlist_err("%s", onlist_store_errmsg(c->s));
	c->failed = 1;
	return 1;
}

/* One transaction per round: a kill loses at most the round under way. */
static int round_done(size_t done, size_t total, void *data)
{
	struct scan_ctx *c = data;

	if (c->in_tx) {
		c->in_tx = 0;
		if (onlist_store_commit(c->s) != ONLIST_OK) {
			onlist_err("%s", onlist_store_errmsg(c->s));
			c->failed = 1;
			return 1;
		}
	}
	onlist_progress(&c->prog, "scan: %zu/%zu commits, %.0f commits/s",
			done, total, done / (onlist_now() - c->prog.start + 1e-9));
	return 0;
}

static int put_landing(const struct onlist_landing *l, void *data)
{
	struct scan_ctx *c = data;

	if (onlist_store_put_landing(c->s, l) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(c->s));
		c->failed = 1;
		return 1;
	}
	return 0;
}

/* Where every commit of the range landed, in one transaction: landings
 * are cheap (two gits reading the commit graph, no diffs) and are
 * recomputed whole on each scan, so the last range scanned decides. */
static onlist_status landings(struct scan_ctx *c, const char *repo,
			      const char *range, char **err)
{
	onlist_status st;

	if (onlist_store_begin(c->s) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(c->s));
		c->failed = 1;
		return ONLIST_OK;
	}
	st = onlist_repo_landings(repo, range, put_landing, c, err);
	if (st != ONLIST_OK || c->failed) {
		onlist_store_rollback(c->s);
		return st;
	}
	if (onlist_store_commit(c->s) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(c->s));
		c->failed = 1;
	}
	return ONLIST_OK;
}

int cmd_scan(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_scan_opts opts = ONLIST_SCAN_OPTS_INIT;
	struct scan_ctx c = { 0 };
	const char *repo = ".", *range = NULL;
	char resolved[PATH_MAX], *err = NULL;
	onlist_status st;
	int i;

	if (onlist_cli_help(argc, argv, help))
		return ONLIST_EXIT_OK;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--repo") && i + 1 < argc)
			repo = argv[++i];
		else if (!strncmp(argv[i], "--repo=", 7))
			repo = argv[i] + 7;
		else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
			opts.jobs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--") && i + 1 < argc && !range)
			range = argv[++i];
		else if (argv[i][0] == '-') {
			onlist_err("scan: unknown option '%s' (a range cannot "
				   "start with '-')", argv[i]);
			return ONLIST_EXIT_USAGE;
		} else if (!range)
			range = argv[i];
		else {
			onlist_err("scan: one range only ('%s' and '%s')",
				   range, argv[i]);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (!range) {
		fputs(help, stderr);
		return ONLIST_EXIT_USAGE;
	}
	if (!realpath(repo, resolved)) {
		onlist_err("scan: %s: no such repository", repo);
		return ONLIST_EXIT_FAIL;
	}
	if (!(c.s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	onlist_progress_init(&c.prog, cli);
	opts.known = known;
	opts.known_data = &c;
	opts.each = each;
	opts.each_data = &c;
	opts.round_done = round_done;
	st = onlist_repo_scan(resolved, range, &opts, &err);
	onlist_progress_done(&c.prog);
	if (c.in_tx) {
		/* The scan stopped half-way through a round: keep nothing of
		 * it, a re-run redoes the round. */
		onlist_store_rollback(c.s);
	}
	if (st == ONLIST_OK && !c.failed)
		st = landings(&c, resolved, range, &err);
	if (st == ONLIST_OK && !c.failed &&
	    onlist_store_set_meta(c.s, "repo", resolved) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(c.s));
		c.failed = 1;
	}
	onlist_store_close(c.s);
	if (st != ONLIST_OK) {
		onlist_err("scan: %s", err ? err : onlist_status_str(st));
		free(err);
		return st == ONLIST_EUSAGE ? ONLIST_EXIT_USAGE : ONLIST_EXIT_FAIL;
	}
	if (c.failed)
		return ONLIST_EXIT_FAIL;
	printf("%s: %ld new commits\n", range, c.added);
	return ONLIST_EXIT_OK;
}
