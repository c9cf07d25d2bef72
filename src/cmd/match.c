/* cmd_match.c - onlist match */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/match.h"
#include "onlist/store.h"
#include "onlist/store_thread.h"

static const char help[] =
	"usage: onlist [--db PATH] match [--repo PATH] [--rules FILE] [--aliases FILE]\n"
	"                                [--threshold X] [--no-fuzzy]\n"
	"       onlist [--db PATH] match [--threshold X] --explain COMMIT [--all]\n\n"
	"Join the scanned commits to the imported postings, in tiers: a Link:\n"
	"or Message-Id: trailer naming a stored mail (link); the same\n"
	"`git patch-id --stable` (patch-id); the same patch-id under git's\n"
	"histogram, patience or minimal diff (patch-id-alg); the same patch-id\n"
	"after repairing what mailers do to diffs, or putting a quilt / diff -u\n"
	"patch in git form (repaired); and for what is left, a mail from the\n"
	"same author or with the same subject, sent before the commit landed,\n"
	"whose changed lines and message are close enough (fuzzy: \"posted,\n"
	"modified before merge\", with its score).  Echoes and bot mails\n"
	"(commit notices, stable backports, ...) never count as postings; a\n"
	"commit only they carry stays unposted, and lookup names the echo.\n"
	"A posting sent more than a day after the commit landed (its merge)\n"
	"does not count either (late): it is a backport or a resend.\n\n"
	"It also rebuilds the threads, the replies each patch received and the\n"
	"series and versions (used by lookup and thread).  Every run recomputes\n"
	"the matches from scratch in one transaction.\n\n"
	"  --repo PATH      the repository, for the other diff algorithms and the\n"
	"                   fuzzy tier (default: the one `scan` used)\n"
	"  --aliases FILE   one more mailmap (\"Name <new> <old>\" lines): addresses\n"
	"                   it ties together are one author for the fuzzy tier,\n"
	"                   like those the repository's .mailmap ties\n"
	"  --rules FILE     more echo/bot rules: \"echo|bot FIELD GLOB\" per line,\n"
	"                   FIELD one of list, from, subject, mailer, patchwork,\n"
	"                   upstream (see README)\n"
	"  --threshold X    fuzzy score needed, 0..1 (default 0.5)\n"
	"  --no-fuzzy       leave the fuzzy tier out\n"
	"  --explain COMMIT print how COMMIT was matched and its fuzzy candidates\n"
	"                   with their scores, best first (after a match run;\n"
	"                   give the run's --threshold); the best 20, or\n"
	"  --all            every candidate considered\n"
	"A Link: trailer counts only when it names a patch or cover letter: a\n"
	"link to a bug report or a discussion is not a posting.\n";

static int totals(int ncol, const char *const *cols, void *data)
{
	long *t = data;

	for (int i = 0; i < ncol && i < 6; i++)
		t[i] = cols[i] ? atol(cols[i]) : 0;
	return 0;
}

static int print_match(int ncol, const char *const *c, void *data)
{
	int *n = data;

	(void)ncol;
	printf("  %-12s <%s> %s\n", c[4] ? c[4] : "?", c[1] ? c[1] : "",
	       c[3] ? c[3] : "");
	(*n)++;
	return 0;
}

static int take_sha(int ncol, const char *const *c, void *data)
{
	char *sha = data;

	(void)ncol;
	if (sha[0]) {
		sha[0] = '?';	/* ambiguous */
		return 1;
	}
	snprintf(sha, 41, "%s", c[0]);
	return 0;
}

static int explain(struct onlist_store *s, const struct onlist_match_opts *o,
		   const char *arg)
{
	char sha[41] = "", *err = NULL;
	const char *p[1] = { arg };
	int n = 0;

	if (strlen(arg) < 4 || strspn(arg, "0123456789abcdef") != strlen(arg)) {
		onlist_err("match: --explain wants a commit id (hex), not '%s'", arg);
		return ONLIST_EXIT_USAGE;
	}
	onlist_store_query(s, ONLIST_Q_COMMIT_BY_PREFIX, p, 1, take_sha, sha);
	if (!sha[0] || sha[0] == '?') {
		onlist_err("match: %s: %s", arg, sha[0] ? "ambiguous" :
			   "no such commit in the database");
		return ONLIST_EXIT_FAIL;
	}
	printf("commit %s\nmatches:\n", sha);
	p[0] = sha;
	onlist_store_query(s, ONLIST_Q_POSTINGS, p, 1, print_match, &n);
	if (!n)
		puts("  none: never posted");
	if (onlist_match_explain(s, o, sha, stdout, &err) != ONLIST_OK) {
		onlist_err("match: %s", err ? err : "explain failed");
		free(err);
		return ONLIST_EXIT_FAIL;
	}
	return ONLIST_EXIT_OK;
}

static void progress(const char *what, long done, long total, void *data)
{
	struct onlist_progress *p = data;

	onlist_progress(p, "%s: %ld/%ld", what, done, total);
}

int cmd_match(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_match_opts o;
	struct onlist_match_counts c;
	struct onlist_thread_counts tc;
	struct onlist_progress prog;
	struct onlist_echo_rule *rules = NULL;
	struct onlist_store *s;
	const char *rules_path = NULL, *explain_sha = NULL, *repo_opt = NULL;
	char *repo = NULL, *err = NULL;
	size_t nrules = 0;
	int ret = ONLIST_EXIT_OK;

	if (onlist_cli_help(argc, argv, help))
		return ONLIST_EXIT_OK;
	memset(&o, 0, sizeof(o));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--repo") && i + 1 < argc)
			repo_opt = argv[++i];
		else if (!strcmp(a, "--rules") && i + 1 < argc)
			rules_path = argv[++i];
		else if (!strcmp(a, "--aliases") && i + 1 < argc)
			o.aliases = argv[++i];
		else if (!strcmp(a, "--explain") && i + 1 < argc)
			explain_sha = argv[++i];
		else if (!strcmp(a, "--threshold") && i + 1 < argc) {
			char *e;
			o.threshold = strtod(argv[++i], &e);
			if (*e || o.threshold <= 0 || o.threshold > 1) {
				onlist_err("match: --threshold wants a number in (0, 1]");
				return ONLIST_EXIT_USAGE;
			}
		} else if (!strcmp(a, "--no-fuzzy"))
			o.no_fuzzy = 1;
		else if (!strcmp(a, "--all"))
			o.explain_all = 1;
		else {
			onlist_err("match: unexpected argument '%s'", a);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (rules_path && onlist_match_read_rules(rules_path, &rules, &nrules,
						  &err) != ONLIST_OK) {
		onlist_err("match: %s", err ? err : "bad rules file");
		free(err);
		return ONLIST_EXIT_USAGE;
	}
	o.rules = rules;
	o.nrules = nrules;
	if (!(s = onlist_cli_open_store(cli))) {
		onlist_match_free_rules(rules, nrules);
		return ONLIST_EXIT_FAIL;
	}
	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(s, "repo");
	o.repo = repo;
	if (explain_sha) {
		ret = explain(s, &o, explain_sha);
		goto out;
	}
	onlist_progress_init(&prog, cli);
	o.progress = progress;
	o.progress_data = &prog;
	if (onlist_store_build_threads(s, &tc) != ONLIST_OK) {
		onlist_err("match: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (onlist_match_run(s, &o, &c, &err) != ONLIST_OK) {
		onlist_progress_done(&prog);
		onlist_err("match: %s", err ? err : "failed");
		free(err);
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	onlist_progress_done(&prog);
	printf("%ld threads, %ld series in %ld topics, %ld replies to patches\n",
	       tc.threads, tc.series, tc.topics, tc.replies);
	printf("%ld echo or bot mails; matches: %ld link, %ld patch-id, "
	       "%ld patch-id-alg, %ld repaired, %ld fuzzy; not postings: %ld late, "
	       "%ld echo\n", c.classified, c.link, c.patchid, c.alt, c.repaired,
	       c.fuzzy, c.late, c.echo);
	{
		long t[6] = { 0 };
		onlist_store_query(s, ONLIST_Q_COUNT_TOTALS, NULL, 0, totals, t);
		printf("%ld of %ld commits matched (%.1f%%)\n", t[5], t[3],
		       t[3] ? 100.0 * t[5] / t[3] : 0.0);
	}
out:
	onlist_store_close(s);
	free(repo);
	onlist_match_free_rules(rules, nrules);
	return ret;
}
