/* cmd_scan.c - onlist scan --repo PATH RANGE */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "onlist/emit.h"
#include "onlist/store_report.h"
#include "onlist/repo.h"
#include "onlist/store.h"

static const char help[] =
	"usage: onlist [--db PATH] scan [--repo PATH] [--jobs N]\n"
	"                               [--format text|json | --json] RANGE\n\n"
	"Read every non-merge commit of RANGE (anything `git rev-list` takes,\n"
	"e.g. v3.5..v3.11) into the database: author, committer, dates,\n"
	"subject, body, trailers, files touched and the patch-id of its diff,\n"
	"computed the way `git format-patch` output would hash.  Commits\n"
	"already in the database are skipped, so scanning again is cheap.\n"
	"Each commit's landing is recorded too: the first-parent commit of\n"
	"the range's tip that brought it in (the merge, or itself), and when.\n"
	"A commit git cannot diff (an object missing from a snapshot or a\n"
	"partial clone whose remote cannot send it) is stored without a\n"
	"patch-id and counted as skipped; the scan goes on, and\n"
	"`onlist skipped --commits` says why for each.\n\n"
	"  --repo PATH  the git repository (default: the current directory)\n"
	"  --jobs N     git processes diffing in parallel (default: one per\n"
	"               CPU, at most 16)\n"
	"  --format json  print {range, repo, new_commits, skipped_commits}\n"
	"               when done\n"
	"  --force      scan a repository that looks like a public-inbox\n"
	"               archive (commits of one file `m`: mail, which\n"
	"               `onlist fetch DIR` reads) all the same\n\n"
	"Exit status: 0 on success, skipped commits included; 1 when git\n"
	"fails (e.g. an unknown revision), 2 on usage errors.\n";

struct scan_ctx {
	struct onlist_store *s;
	struct onlist_progress prog;
	int in_tx;
	long added;
	long skipped;		/* of them, not diffed */
	int failed;
	/* landings: only those of the range's commits (a walk of its new
	 * part only may see older ones the range excludes), when set */
	struct onlist_scan_list *only;
	long landed;		/* rows written */
};

/* The range whose landings the last scan stored, in meta
 * (onlist_repo_scan_landing_record): a scan of the same range keeps them,
 * one whose tip moved walks the new part only.  A schema step that
 * changes the landing table must delete it, so that the next scan walks
 * whole. */
#define LANDED_KEY "scan_landed"

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
	c->skipped += commit->skip_reason != NULL;
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
	int has = c->only ? onlist_repo_scan_list_has(c->only, l->sha) : 1;

	if (!has)
		return 0;
	if (has < 0) {
		onlist_err("scan: out of memory");
		c->failed = 1;
		return 1;
	}
	c->landed++;
	if (onlist_store_report_put_landing(c->s, l) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(c->s));
		c->failed = 1;
		return 1;
	}
	return 0;
}

static const char *const plan_name[] = {
	[ONLIST_SCAN_LANDING_WHOLE] = "the whole range walked",
	[ONLIST_SCAN_LANDING_NEW] = "the new part walked",
	[ONLIST_SCAN_LANDING_KEPT] = "kept",
};

/* Where every commit of the range landed, in one transaction: the last
 * range scanned decides.  A walk costs two gits reading the whole range's
 * commit graph, so it is done only for what changed: nothing when the
 * range is the one whose landings are stored, the new part when only its
 * tip moved (the landings of the rest are then what they were). */
static onlist_status landings(struct scan_ctx *c, const char *repo,
			      const char *range, const char *now,
			      struct onlist_scan_list *list,
			      enum onlist_scan_landing *plan, char **err)
{
	char *last = NULL, *part = NULL, *msg = NULL, *rec = NULL;
	size_t listed = onlist_repo_scan_list_count(list), before;
	onlist_status st = ONLIST_OK;

	/* the record is read under the write lock: a scan of another range
	 * that ends meanwhile rewrites landings of this one's commits */
	if (onlist_store_begin(c->s) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(c->s));
		c->failed = 1;
		goto out;
	}
	last = onlist_store_get_meta(c->s, LANDED_KEY);
	if (onlist_repo_scan_landing_plan(repo, last, now, listed, plan, &part,
					  &before, &msg) != ONLIST_OK)
		*plan = ONLIST_SCAN_LANDING_WHOLE;
	free(msg);
	c->only = *plan == ONLIST_SCAN_LANDING_NEW ? list : NULL;
	if (c->only) {
		st = onlist_landing_walk(repo, part, put_landing, c, err);
		/* the old part is not what it was: walk it all after all */
		if (st == ONLIST_OK && !c->failed &&
		    before + (size_t)c->landed != listed) {
			*plan = ONLIST_SCAN_LANDING_WHOLE;
			c->only = NULL;
		}
	}
	if (*plan == ONLIST_SCAN_LANDING_WHOLE && st == ONLIST_OK && !c->failed)
		st = onlist_landing_walk(repo, range, put_landing, c, err);
	if (*plan != ONLIST_SCAN_LANDING_KEPT && st == ONLIST_OK &&
	    !c->failed) {
		if (!(rec = onlist_repo_scan_landing_record(now, listed)) ||
		    onlist_store_set_meta(c->s, LANDED_KEY, rec) != ONLIST_OK) {
			onlist_err("%s", rec ? onlist_store_errmsg(c->s) :
					 "scan: out of memory");
			c->failed = 1;
		}
	}
	if (st != ONLIST_OK || c->failed) {
		onlist_store_rollback(c->s);
		goto out;
	}
	if (onlist_store_commit(c->s) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(c->s));
		c->failed = 1;
	}
out:
	free(last);
	free(part);
	free(rec);
	return st;
}

static double cpu_seconds(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru))
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/* ONLIST_TIMING=1: the CPU time (user + sys) onlist spent itself and the
 * time its gits spent, apart (bench/patchid.sh: on N CPUs a scan cannot
 * take less wall time than the sum over N); then what the scan did: a
 * rescan of a scanned range lists it and diffs nothing, walks nothing. */
static void timing(const struct scan_ctx *c, size_t listed, size_t diffed,
		   int plan)
{
	if (!getenv("ONLIST_TIMING"))
		return;
	fprintf(stderr, "timing: scan: onlist %.2f s CPU, its gits "
		"%.2f s CPU\n", cpu_seconds(RUSAGE_SELF),
		cpu_seconds(RUSAGE_CHILDREN));
	fprintf(stderr, "timing: scan: %zu commits listed, %zu diffed; "
		"landings: %s, %ld written\n", listed, diffed,
		plan < 0 ? "not reached" : plan_name[plan], c->landed);
}

int cmd_scan(struct onlist_cli *cli, int argc, char **argv)
{
	enum { OPT_REPO = ONLIST_OPT_FIRST_LONG, OPT_JOBS, OPT_FORCE };
	static const struct option longopts[] = {
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "jobs", required_argument, NULL, OPT_JOBS },
		{ "force", no_argument, NULL, OPT_FORCE },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_scan_opts opts = ONLIST_SCAN_OPTS_INIT;
	struct onlist_scan_list *list = NULL;
	char *now = NULL, *last = NULL, *rec = NULL;
	enum onlist_scan_landing plan;
	size_t diffed = 0;
	int planned = -1;
	struct onlist_out out = ONLIST_OUT_INIT;
	struct scan_ctx c = { 0 };
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	const char *repo = ".", *range = NULL;
	char resolved[PATH_MAX], *err = NULL, *end;
	onlist_status st;
	int o, force = 0, inbox = 0;

	onlist_cli_formats(cli, formats, &fmt);
	while ((o = onlist_cli_getopt(cli, argc, argv, "", longopts, help)) != -1) {
		switch (o) {
		case OPT_REPO:
			repo = optarg;
			break;
		case OPT_JOBS:
			opts.jobs = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || opts.jobs < 1) {
				onlist_err("scan: --jobs wants a number of "
					   "processes, 1 or more, not '%s'", optarg);
				return ONLIST_EXIT_USAGE;
			}
			break;
		case OPT_FORCE:
			force = 1;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(o);
		}
	}
	if (onlist_cli_operands(cli, argc, argv, 1, -1, help))
		return ONLIST_EXIT_USAGE;
	range = argv[optind];
	if (optind + 1 < argc) {
		onlist_err("scan: one range only ('%s' and '%s')", range,
			   argv[optind + 1]);
		return ONLIST_EXIT_USAGE;
	}
	if (!realpath(repo, resolved)) {
		onlist_err("scan: %s: no such repository", repo);
		return ONLIST_EXIT_FAIL;
	}
	/* One rev-list for the probe, the scan and the landings: on a long
	 * history each walk costs as much as the first.  A git error here is
	 * reported below, once the database is open, as it always was. */
	st = onlist_repo_scan_list(&list, resolved, range, &err);
	/* a mail archive's commits would go in as a project's */
	if (st == ONLIST_OK &&
	    onlist_repo_scan_list_inbox(list, resolved, &inbox, NULL) ==
	    ONLIST_OK && inbox) {
		onlist_err("scan: %s looks like a public-inbox archive (every "
			   "commit of %s holds one message file): that is mail, "
			   "read with `onlist fetch %s`; %s", repo, range, repo,
			   force ? "scanning it all the same (--force)" :
			   "--force scans it all the same");
		if (!force) {
			onlist_repo_scan_list_free(list);
			return ONLIST_EXIT_FAIL;
		}
	}
	if (!(c.s = onlist_cli_open_store(cli))) {
		onlist_repo_scan_list_free(list);
		free(err);
		return ONLIST_EXIT_FAIL;
	}
	onlist_progress_init(&c.prog, cli);
	opts.known = known;
	opts.known_data = &c;
	opts.each = each;
	opts.each_data = &c;
	opts.round_done = round_done;
	/* What the range is now: not knowing costs a whole landing walk,
	 * nothing more.  When it is the one whose landings are stored, with
	 * as many commits, every commit is stored too (the record is written
	 * once they are): no commit is looked up, and the landing step finds
	 * nothing to do either. */
	if (st == ONLIST_OK) {
		char *msg = NULL;

		if (onlist_repo_scan_resolve(resolved, range, &now, &msg) !=
		    ONLIST_OK)
			now = NULL;
		free(msg);
		if (now) {
			rec = onlist_repo_scan_landing_record(now,
				onlist_repo_scan_list_count(list));
			last = onlist_store_get_meta(c.s, LANDED_KEY);
		}
		if (!rec || !last || strcmp(rec, last))
			st = onlist_repo_scan_listed(resolved, list, &opts,
						     &diffed, &err);
		free(rec);
		free(last);
	}
	onlist_progress_done(&c.prog);
	if (c.in_tx) {
		/* The scan stopped half-way through a round: keep nothing of
		 * it, a re-run redoes the round. */
		onlist_store_rollback(c.s);
	}
	if (st == ONLIST_OK && !c.failed) {
		st = landings(&c, resolved, range, now, list, &plan, &err);
		planned = (int)plan;
	}
	if (st == ONLIST_OK && !c.failed &&
	    onlist_store_set_meta(c.s, "repo", resolved) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(c.s));
		c.failed = 1;
	}
	onlist_store_close(c.s);
	timing(&c, onlist_repo_scan_list_count(list), diffed, planned);
	onlist_repo_scan_list_free(list);
	free(now);
	if (st != ONLIST_OK) {
		/* git's message quotes the range, and may quote ref names */
		fputs("onlist: scan: ", stderr);
		onlist_put_text(stderr, err ? err : onlist_status_str(st));
		fputc('\n', stderr);
		free(err);
		return st == ONLIST_EUSAGE ? ONLIST_EXIT_USAGE : ONLIST_EXIT_FAIL;
	}
	if (c.failed)
		return ONLIST_EXIT_FAIL;
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	if (fmt == ONLIST_FMT_JSON) {
		struct onlist_emit *e = onlist_emit_new(out.f, fmt);

		if (!e) {
			onlist_err("scan: out of memory");
			return onlist_cli_out_close(cli, &out, ONLIST_EXIT_FAIL);
		}
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "range", range,
				  "repo", resolved, NULL);
		onlist_emit_kint(e, "new_commits", c.added);
		onlist_emit_kint(e, "skipped_commits", c.skipped);
		onlist_emit_end(e);
		if (onlist_emit_free(e) != ONLIST_OK)
			return onlist_cli_out_close(cli, &out, ONLIST_EXIT_FAIL);
	} else {
		onlist_put_text(out.f, range);
		fprintf(out.f, ": %ld new commits", c.added);
		/* stored all the same, without a patch-id */
		if (c.skipped)
			fprintf(out.f, ", %ld of them skipped: git could not "
				"diff %s (onlist skipped --commits says why)",
				c.skipped, c.skipped == 1 ? "it" : "them");
		fputc('\n', out.f);
	}
	return onlist_cli_out_close(cli, &out, ONLIST_EXIT_OK);
}
