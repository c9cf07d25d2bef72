/* cmd_match.c - onlist match */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "onlist/git.h"
#include "onlist/repo_scan.h"
#include "onlist/match.h"
#include "onlist/msgmeta.h"
#include "onlist/store.h"
#include "onlist/thread.h"
#include "onlist/store_thread.h"

static const char help[] =
	"usage: onlist [--db PATH] match [--repo PATH] [--rules FILE] [--aliases FILE]\n"
	"                                [--threshold X] [--no-fuzzy]\n"
	"                                [--format text|json | --json]\n"
	"       onlist [--db PATH] match [--threshold X] --explain COMMIT [--all]\n"
	"       onlist [--db PATH] match --remote URL [--yes] [--refresh]\n"
	"                                [--pace SECONDS] [--repo PATH] [RANGE]\n\n"
	"Join the scanned commits to the imported postings, in tiers: a Link:\n"
	"or Message-Id: trailer naming a stored mail (link); the same\n"
	"`git patch-id --stable` (patch-id); the same patch-id under git's\n"
	"histogram, patience or minimal diff (patch-id-alg); the same patch-id\n"
	"after repairing what mailers do to diffs, or putting a quilt / diff -u\n"
	"patch in git form (repaired); the diff quoted by a reply to a mail\n"
	"the archive lost (quoted); a patch mail from the commit's author\n"
	"dated its author date to the second, as git am leaves it\n"
	"(author-date); a patch mail from the author with the same subject\n"
	"(ignoring prefixes, case and punctuation), unless several such mails\n"
	"carry different patches (subject); and for what is left, a mail from\n"
	"the same author or with the same subject, sent before the commit\n"
	"landed, whose changed lines and message are close enough (fuzzy,\n"
	"with its score).  The last three are \"posted, modified before\n"
	"merge\".  Echoes and bot mails\n"
	"(commit notices, stable backports, ...) never count as postings; a\n"
	"commit only they carry stays unposted, and lookup names the echo.\n"
	"A posting sent more than a day after the commit landed (its merge)\n"
	"does not count either (late): it is a backport or a resend.\n\n"
	"It also rebuilds the threads, the replies each patch received and the\n"
	"series and versions (used by lookup and thread).  Every run rebuilds\n"
	"the matches in one transaction.\n\n"
	"  --repo PATH      the repository, for the other diff algorithms and the\n"
	"                   fuzzy tier (default: the one `scan` used)\n"
	"  --aliases FILE   one more mailmap (\"Name <new> <old>\" lines): addresses\n"
	"                   it ties together are one author for the fuzzy tier,\n"
	"                   like those the repository's .mailmap ties\n"
	"  --rules-help     print the rules file format and the built-in rules\n"
	"  --rules FILE     more echo/bot rules: \"echo|bot FIELD GLOB\" per line,\n"
	"                   release rules: \"release subject GLOB\", and notice\n"
	"                   rules: \"notice text GLOB\";\n"
	"                   FIELD one of list, from, subject, mailer, patchwork,\n"
	"                   upstream (see README)\n"
	"  --threshold X    fuzzy score needed, 0..1 (default 0.5)\n"
	"  --no-fuzzy       leave the fuzzy tier out\n"
	"  --explain COMMIT print how COMMIT was matched, the linked patches the\n"
	"                   link tier refused (another project's) and why, what\n"
	"                   the subject tier saw, and its fuzzy candidates\n"
	"                   with their scores, best first (after a match run;\n"
	"                   give the run's --threshold); the best 20, or\n"
	"  --all            every candidate considered\n"
	"  --format json    print the counts as one JSON object: threads, series,\n"
	"                   topics, replies, echo_or_bot, matches {link, patch-id,\n"
	"                   patch-id-alg, repaired, author-date, subject, fuzzy},\n"
	"                   not_postings {late,\n"
	"                   echo}, commits, commits_matched (not with --explain)\n"
	"  --remote URL     for every scanned commit (of RANGE) with no posting\n"
	"                   yet, ask the public-inbox inbox URL as `lookup\n"
	"                   --remote` does, then match; asks before more than\n"
	"                   2,000 requests (about 6 a commit) unless --yes\n"
	"A Link: trailer counts only when it names a patch or cover letter: a\n"
	"link to a bug report or a discussion is not a posting.\n";

struct explain_out {
	FILE *f;
	int n;
};

static int print_match(const struct onlist_posting_row *r, void *data)
{
	struct explain_out *e = data;
	const char *method = r->method ? r->method : "?";

	fputs("  ", e->f);
	onlist_put_text(e->f, method);
	fprintf(e->f, "%*s <", strlen(method) < 12 ? 12 - (int)strlen(method) : 0,
		"");
	onlist_put_text(e->f, r->msgid);
	fputs("> ", e->f);
	onlist_put_text(e->f, r->subject);
	fputc('\n', e->f);
	e->n++;
	return 0;
}

static int take_sha(const struct onlist_commit_row *r, void *data)
{
	char *sha = data;

	if (sha[0]) {
		sha[0] = '?';	/* ambiguous */
		return 1;
	}
	snprintf(sha, 41, "%s", r->sha);
	return 0;
}

#define EXPLAIN_SHOWN 20	/* candidates printed, best first (--all: every one) */

static const char *const fuzzy_why[] = {
	[ONLIST_FUZZY_TAKEN] = "taken",
	[ONLIST_FUZZY_ECHO] = "not taken (echo or bot mail)",
	[ONLIST_FUZZY_LATE] = "not taken (sent more than a day after the "
			      "commit landed)",
	[ONLIST_FUZZY_FEW_LINES] = "not taken (too few changed lines in "
				   "common)",
	[ONLIST_FUZZY_BELOW] = "not taken (below the threshold)",
};

/* What the library found for --explain, in prose; every string from mail
 * or git through the one terminal escaper. */
static void print_explain(FILE *f, const struct onlist_explain *x, int all)
{
	for (size_t i = 0; i < x->nlinks; i++) {
		const struct onlist_explain_link *l = &x->links[i];

		fputs("Link: <", f);
		onlist_put_text(f, l->msgid);
		fputs("> names a patch that touches none of the commit's "
		      "files (it touches ", f);
		for (size_t k = 0; l->files[k]; k++) {
			if (k == 3) {
				fputs(", ...", f);
				break;
			}
			if (k)
				fputs(", ", f);
			onlist_put_text(f, l->files[k]);
		}
		fputs(") and has another subject (\"", f);
		onlist_put_text(f, l->subject);
		fputs("\"): not this commit's posting\n", f);
	}
	for (size_t i = 0; i < x->nsubjects; i++) {
		const struct onlist_explain_subject *e = &x->subjects[i];

		if (!e->nmsgids) {
			fputs("subject: no patch mail from the author with this "
			      "subject\n", f);
			continue;
		}
		if (e->npatches > 1)
			fprintf(f, "subject: not taken: %zu mails from the "
				"author with this subject carry %zu different "
				"patches:\n", e->nmsgids, e->npatches);
		else
			fprintf(f, "subject: %zu mail(s) from the author with "
				"this subject, one patch:\n", e->nmsgids);
		for (size_t k = 0; k < e->nmsgids; k++) {
			fputs("  <", f);
			onlist_put_text(f, e->msgids[k]);
			fputs(">\n", f);
		}
	}
	if (!x->fuzzy) {
		fputs("fuzzy candidates: not computed for this commit (its "
		      "exact patch-id matched a posting, or no repository "
		      "was given to diff it)\n", f);
		return;
	}
	fputs("fuzzy candidates (same author <", f);
	onlist_put_text(f, x->author);
	fputs("> or same subject \"", f);
	onlist_put_text(f, x->stripped);
	fputs("\")", f);
	if (x->bound) {
		GDateTime *t = g_date_time_new_from_unix_utc(x->bound);
		char *d = g_date_time_format(t, "%Y-%m-%d %H:%M");

		fprintf(f, ", sent before %s UTC + 1 day (landing):\n", d);
		g_free(d);
		g_date_time_unref(t);
	} else {
		fputs(", no time bound (landing unknown):\n", f);
	}
	if (x->empty_diff)
		fputs("  none: the commit's diff is empty\n", f);
	for (size_t i = 0; i < x->ncands; i++) {
		const struct onlist_explain_cand *c = &x->cands[i];

		if (!all && i >= EXPLAIN_SHOWN && c->why != ONLIST_FUZZY_TAKEN)
			continue;
		fputs("  <", f);
		onlist_put_text(f, c->msgid ? c->msgid : "?");
		fputs(">\n    ", f);
		onlist_put_text(f, c->from ? c->from : "?");
		fprintf(f, ", v%d, ", c->version);
		onlist_put_text(f, c->subject ? c->subject : "?");
		fprintf(f, "\n    changed lines %.2f, message %.2f, subject %s, "
			"author %s -> score %.2f: %s\n", c->diff, c->msg,
			c->same_subject ? "same" : "differs",
			c->same_author ? "same" : "differs", c->score,
			fuzzy_why[c->why]);
	}
	if (!all && x->ncands > EXPLAIN_SHOWN)
		fprintf(f, "  ... and %zu more with lower scores (--all shows "
			"them)\n", x->ncands - EXPLAIN_SHOWN);
	else if (!x->ncands)
		fputs("  none\n", f);
}

static int explain(struct onlist_store *s, const struct onlist_match_opts *o,
		   const char *arg, int all, FILE *f)
{
	struct explain_out e = { f, 0 };
	struct onlist_explain x;
	char sha[41] = "", *err = NULL;

	if (strlen(arg) < 4 || strspn(arg, "0123456789abcdef") != strlen(arg)) {
		onlist_err("match: --explain wants a commit id (hex), not '%s'", arg);
		return ONLIST_EXIT_USAGE;
	}
	onlist_store_commits_by_prefix(s, arg, take_sha, sha);
	if (!sha[0] || sha[0] == '?') {
		onlist_err("match: %s: %s", arg, sha[0] ? "ambiguous" :
			   "no such commit in the database");
		return ONLIST_EXIT_FAIL;
	}
	/* sha is 40 hex digits: take_sha copied a stored commit id */
	fprintf(f, "commit %.40s\nmatches:\n", sha);
	onlist_store_postings(s, sha, NULL, NULL, print_match, &e);
	if (!e.n)
		fputs("  none: never posted\n", f);
	if (onlist_match_explain(s, o, sha, &x, &err) != ONLIST_OK) {
		onlist_explain_release(&x);
		fputs("onlist: match: ", stderr);
		onlist_put_text(stderr, err ? err : "explain failed");
		fputc('\n', stderr);
		free(err);
		return ONLIST_EXIT_FAIL;
	}
	print_explain(f, &x, all);
	onlist_explain_release(&x);
	return ONLIST_EXIT_OK;
}

static void progress(const char *what, long done, long total, void *data)
{
	struct onlist_progress *p = data;

	onlist_progress(p, "%s: %ld/%ld", what, done, total);
}

/* The store ONLIST_TIMING's lines count the pages of (phase() is given
 * the progress data, not the store). */
static struct onlist_store *timing_store;

/* ONLIST_TIMING=1 prints the CPU time used when each phase ends, and the
 * pages read and written until then (for the benchmarks: bench/README). */
static void phase(const char *name, void *data)
{
	long long reads = -1, writes = -1;

	(void)data;
	if (!getenv("ONLIST_TIMING"))
		return;
	if (timing_store)
		onlist_store_page_counts(timing_store, &reads, &writes);
	fprintf(stderr, "timing: %s done at %.2f s CPU, %lld pages read, "
		"%lld written\n", name, (double)clock() / CLOCKS_PER_SEC,
		reads, writes);
}

static void warn(const char *msg, void *data)
{
	onlist_progress_done(data);
	onlist_err("match: %s", msg);
}

struct count {
	const char *key;
	long n;
};

/* The members key: n of c[0..n), in a map of their own under `in`. */
static void emit_counts(struct onlist_emit *e, const char *in,
			const struct count *c, size_t n)
{
	if (in) {
		onlist_emit_key(e, in);
		onlist_emit_begin_map(e, 0);
	}
	for (size_t i = 0; i < n; i++)
		onlist_emit_kint(e, c[i].key, c[i].n);
	if (in)
		onlist_emit_end(e);
}

static void print_counts(FILE *f, int json,
			 const struct onlist_thread_counts *tc,
			 const struct onlist_match_counts *c,
			 const struct onlist_totals *t)
{
	if (json) {
		const struct count head[] = {
			{ "threads", tc->threads }, { "series", tc->series },
			{ "topics", tc->topics }, { "replies", tc->replies },
			{ "echo_or_bot", c->classified },
		}, tiers[] = {
			{ "link", c->link }, { "patch-id", c->patchid },
			{ "patch-id-alg", c->alt }, { "repaired", c->repaired },
			{ "quoted", c->quoted }, { "author-date", c->author_date },
			{ "subject", c->subject }, { "fuzzy", c->fuzzy },
		}, not_postings[] = {
			{ "late", c->late }, { "echo", c->echo },
		}, tail[] = {
			{ "commits", t->commits },
			{ "commits_matched", t->commits_matched },
		};
		struct onlist_emit *e = onlist_emit_new(f, ONLIST_FMT_JSON);

		if (!e)
			return;
		onlist_emit_begin_map(e, 0);
		emit_counts(e, NULL, head, sizeof(head) / sizeof(head[0]));
		emit_counts(e, "matches", tiers, sizeof(tiers) / sizeof(tiers[0]));
		emit_counts(e, "not_postings", not_postings,
			    sizeof(not_postings) / sizeof(not_postings[0]));
		emit_counts(e, NULL, tail, sizeof(tail) / sizeof(tail[0]));
		onlist_emit_end(e);
		onlist_emit_free(e);
		return;
	}
	fprintf(f, "%ld threads, %ld series in %ld topics, %ld replies to "
		"patches\n", tc->threads, tc->series, tc->topics, tc->replies);
	fprintf(f, "%ld echo or bot mails; matches: %ld link, %ld patch-id, "
		"%ld patch-id-alg, %ld repaired, %ld quoted, %ld author-date, "
		"%ld subject, %ld fuzzy; not postings: %ld late, %ld echo\n",
		c->classified, c->link, c->patchid, c->alt, c->repaired, c->quoted,
		c->author_date,
		c->subject, c->fuzzy, c->late, c->echo);
	fprintf(f, "%ld of %ld commits matched (%.1f%%)\n",
		(long)t->commits_matched, (long)t->commits, t->commits ?
		100.0 * t->commits_matched / t->commits : 0.0);
}

/* --rules-help: the rules file format, and the built-in rules in it. */
static int rules_help(FILE *f)
{
	fputs("# onlist rules: one \"KIND FIELD PATTERN\" a line, '#' starts a comment.\n"
	      "# PATTERN is a glob matched without regard to case; only * and ? are\n"
	      "# special.  KIND:\n"
	      "#   echo  a mail that repeats a commit after it was applied: never a\n"
	      "#         posting (FIELD list, from, subject, mailer, msgid,\n"
	      "#         patchwork, upstream; the last two take the pattern 1)\n"
	      "#   bot   a robot: never a posting, never review\n"
	      "#   release subject PATTERN: a never-posted commit with such a subject\n"
	      "#         is a release bump (the reason `release`)\n"
	      "#   notice text PATTERN: a line of a reply's own text (quotes,\n"
	      "#         attribution, greeting and signature dropped; lower case,\n"
	      "#         one space between words) that says the patch was applied:\n"
	      "#         with a few short lines around it and nothing that asks or\n"
	      "#         objects, the reply is an applied notice, neither review\n"
	      "#         nor discussion\n"
	      "#   embargo commit SHA TEXT, embargo subject GLOB TEXT: a known\n"
	      "#         embargoed fix (GLOB one word; * and ? special): a\n"
	      "#         never-posted commit it names gets the reason `embargoed`\n"
	      "#         with TEXT\n"
	      "# Give a file with --rules FILE, or name it in git config onlist.rules;\n"
	      "# it adds to the rules below, which are built in.\n\n", f);
	for (size_t i = 0; i < onlist_match_ndefault_rules; i++) {
		const struct onlist_echo_rule *r = &onlist_match_default_rules[i];

		fprintf(f, "%-7s %-9s %s\n", r->kind, r->field, r->pattern);
	}
	fputs("\n# Built in for notices (a robot's notice needs only the line):\n", f);
	for (size_t i = 0; i < onlist_notice_npatterns; i++)
		fprintf(f, "notice  text      %s\n", onlist_notice_patterns[i]);
	fputs("\n# Built in for release, as regular expressions on the subject\n"
	      "# (case ignored), beside onlist.releasePattern (an ERE of the\n"
	      "# project's own): \"Release 1.2\", \"v6.1-rc3\", \"Linux 6.1\",\n"
	      "# \"Update VERSION to 3.4-rc1 for release\", \"foo-utils: release\n"
	      "# 1.8\", \"Bump version to 2.0\", \"Update CHANGELOG for 2.5 release\";\n"
	      "# and a diff of version files and changelogs only.\n", f);
	return fflush(f) || ferror(f) ? ONLIST_EXIT_FAIL : ONLIST_EXIT_OK;
}

static int take_unposted(const struct onlist_unposted_row *r, void *data)
{
	GHashTable *h = data;

	g_hash_table_add(h, g_strdup(r->sha));
	return 0;
}

/* match --remote: the scanned commits (of range) with no posting, asked. */
static int match_remote(struct onlist_cli *cli, struct onlist_cli_remote *ro,
			const char *repo_opt, int yes, const char *range)
{
	struct onlist_store *s;
	GHashTable *unposted = g_hash_table_new_full(g_str_hash, g_str_equal,
						     g_free, NULL);
	GPtrArray *names = g_ptr_array_new();
	char (*shas)[41] = NULL, (*list)[41] = NULL, *repo, *err = NULL;
	size_t n = 0;
	long estimate;
	int ret = ONLIST_EXIT_OK;
	struct onlist_totals t = { 0 };

	if (!(s = onlist_cli_open_store(cli))) {
		g_hash_table_destroy(unposted);
		g_ptr_array_free(names, TRUE);
		return ONLIST_EXIT_FAIL;
	}
	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(s, "repo");
	if (!repo)
		repo = strdup(".");
	ro->repo = repo;
	if (onlist_store_unposted(s, take_unposted, unposted) != ONLIST_OK) {
		onlist_err("match: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (range) {
		if (onlist_repo_scan_rev_list(repo, range, &list, &n, &err) != ONLIST_OK) {
			onlist_err_text("match", err ? err : "git rev-list failed");
			free(err);
			ret = ONLIST_EXIT_FAIL;
			goto out;
		}
		for (size_t i = 0; i < n; i++)
			if (g_hash_table_contains(unposted, list[i]))
				g_ptr_array_add(names, list[i]);
	} else {
		GHashTableIter it;
		gpointer k;

		g_hash_table_iter_init(&it, unposted);
		while (g_hash_table_iter_next(&it, &k, NULL))
			g_ptr_array_add(names, k);
	}
	/* a commit costs a patch-id query or two, the author-date and
	 * subject queries and a thread or two: about 6 */
	estimate = (long)names->len * 6;
	if (estimate > 2000 && !yes && isatty(0) && isatty(2)) {
		char line[16] = "";

		fprintf(stderr, "onlist: match: %u commits without a posting: "
			"about %ld requests to ", names->len, estimate);
		onlist_put_text(stderr, ro->url);
		fputs(". Go on? [y/N] ", stderr);
		yes = fgets(line, sizeof(line), stdin) &&
		      (line[0] == 'y' || line[0] == 'Y');
	}
	if (estimate > 2000 && !yes) {
		onlist_err("match: %u commits without a posting would take about "
			   "%ld requests to %s; give --yes to go on, or a "
			   "smaller RANGE", names->len, estimate, ro->url);
		ret = ONLIST_EXIT_USAGE;
		goto out;
	}
	shas = calloc(names->len ? names->len : 1, sizeof(*shas));
	if (!shas) {
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	/* nothing to look up: the server is not even probed */
	switch (!names->len ? 0 :
		onlist_cli_remote_run(cli, s, ro, (char *const *)names->pdata,
				      (int)names->len, shas)) {
	case -2:	/* no inbox at the URL: nothing judged */
		ret = ONLIST_EXIT_USAGE;
		goto out;
	case -1:
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (onlist_store_count_matched(s, &t) != ONLIST_OK) {
		onlist_err("match: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	printf("%u commits asked about, %ld requests to ", names->len,
	       ro->requests);
	onlist_put_text(stdout, ro->url);
	putchar('\n');
	printf("%ld of %ld commits matched (%.1f%%)\n",
	       (long)t.commits_matched, (long)t.commits, t.commits ?
	       100.0 * t.commits_matched / t.commits : 0.0);
out:
	free(shas);
	free(list);
	free(repo);
	g_ptr_array_free(names, TRUE);
	g_hash_table_destroy(unposted);
	onlist_store_close(s);
	return ret;
}

int cmd_match(struct onlist_cli *cli, int argc, char **argv)
{
	enum {
		OPT_REPO = ONLIST_OPT_FIRST_LONG, OPT_RULES, OPT_ALIASES,
		OPT_EXPLAIN, OPT_THRESHOLD, OPT_NO_FUZZY, OPT_ALL, OPT_RULES_HELP,
		OPT_REMOTE, OPT_YES, OPT_REFRESH, OPT_PACE,
	};
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "rules", required_argument, NULL, OPT_RULES },
		{ "aliases", required_argument, NULL, OPT_ALIASES },
		{ "explain", required_argument, NULL, OPT_EXPLAIN },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "no-fuzzy", no_argument, NULL, OPT_NO_FUZZY },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "rules-help", no_argument, NULL, OPT_RULES_HELP },
		{ "remote", required_argument, NULL, OPT_REMOTE },
		{ "yes", no_argument, NULL, OPT_YES },
		{ "refresh", no_argument, NULL, OPT_REFRESH },
		{ "pace", required_argument, NULL, OPT_PACE },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct onlist_match_opts o;
	struct onlist_match_counts c;
	struct onlist_thread_counts tc;
	struct onlist_progress prog;
	struct onlist_echo_rule *rules = NULL;
	struct onlist_store *s;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	const char *rules_path = NULL, *explain_sha = NULL, *repo_opt = NULL;
	int explain_all = 0;
	char *repo = NULL, *err = NULL, *end, *rules_cfg = NULL;
	size_t nrules = 0;
	struct onlist_totals t = { 0 };
	int opt, ret = ONLIST_EXIT_OK, yes = 0;
	struct onlist_cli_remote ro = { NULL, NULL, -1, 0, 0 };

	memset(&o, 0, sizeof(o));
	onlist_cli_formats(cli, formats, &fmt);
	while ((opt = onlist_cli_getopt(cli, argc, argv, "", opts, help)) != -1) {
		switch (opt) {
		case OPT_REPO:
			repo_opt = optarg;
			break;
		case OPT_RULES:
			rules_path = optarg;
			break;
		case OPT_ALIASES:
			o.aliases = optarg;
			break;
		case OPT_EXPLAIN:
			explain_sha = optarg;
			break;
		case OPT_THRESHOLD:
			o.threshold = strtod(optarg, &end);
			if (*end || end == optarg || !(o.threshold > 0) ||
			    o.threshold > 1) {
				onlist_err("match: --threshold wants a number in (0, 1]");
				return ONLIST_EXIT_USAGE;
			}
			break;
		case OPT_NO_FUZZY:
			o.no_fuzzy = 1;
			break;
		case OPT_ALL:
			explain_all = 1;
			break;
		case OPT_RULES_HELP:
			return rules_help(stdout);
		case OPT_REMOTE:
			if (onlist_cli_url_has_password(optarg)) {
				/* not printed: the password would be on
				 * the screen */
				onlist_err("%s: --remote URL holds a password "
					   "(https://user:password@host/): refused, "
					   "it would be stored and printed", "match");
				return ONLIST_EXIT_USAGE;
			}
			ro.url = optarg;
			break;
		case OPT_YES:
			yes = 1;
			break;
		case OPT_REFRESH:
			ro.refresh = 1;
			break;
		case OPT_PACE:
			if (onlist_cli_pace("match", optarg, &ro.pace) < 0)
				return ONLIST_EXIT_USAGE;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(opt);
		}
	}
	if (onlist_cli_operands(cli, argc, argv, 0, ro.url ? 1 : 0, help))
		return ONLIST_EXIT_USAGE;
	if (ro.url)
		return match_remote(cli, &ro, repo_opt, yes,
				    optind < argc ? argv[optind] : NULL);
	if (explain_sha && fmt == ONLIST_FMT_JSON) {
		/* the candidates are explained in prose, for a person */
		onlist_err("match: --explain has no JSON form");
		return ONLIST_EXIT_USAGE;
	}
	if (!(s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(s, "repo");
	o.repo = repo;
	/* --rules, else the project's own: git config onlist.rules */
	if (!rules_path)
		rules_path = rules_cfg = onlist_git_config(repo, "onlist.rules");
	if (rules_path && onlist_match_read_rules(rules_path, &rules, &nrules,
						  &err) != ONLIST_OK) {
		/* the message quotes the offending line of the file */
		onlist_err_text(rules_cfg ? "match: onlist.rules" : "match",
				err ? err : "bad rules file");
		free(err);
		free(rules_cfg);
		free(repo);
		onlist_store_close(s);
		return ONLIST_EXIT_USAGE;
	}
	o.rules = rules;
	o.nrules = nrules;
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	if (explain_sha) {
		ret = explain(s, &o, explain_sha, explain_all, out.f);
		goto out;
	}
	onlist_progress_init(&prog, cli);
	o.progress = progress;
	o.phase = phase;
	timing_store = s;
	o.warn = warn;
	o.progress_data = &prog;
	if (onlist_thread_update(s, &tc, &err) != ONLIST_OK) {
		onlist_err("match: %s", err);
		free(err);
		err = NULL;
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (getenv("ONLIST_TIMING")) {
		fprintf(stderr, "timing: %ld thread rows written\n", tc.written);
		fprintf(stderr, "timing: threads of %ld of %ld messages computed\n",
			tc.built, tc.messages);
	}
	if (onlist_match_run(s, &o, &c, &err) != ONLIST_OK) {
		onlist_progress_done(&prog);
		fputs("onlist: match: ", stderr);
		onlist_put_text(stderr, err ? err : "failed");
		fputc('\n', stderr);
		free(err);
		err = NULL;
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	onlist_progress_done(&prog);
	if (getenv("ONLIST_TIMING"))
		fprintf(stderr, "timing: patch-id since %lld, fuzzy since "
			"%lld\n", c.exact_since, c.fuzzy_since);
	if (getenv("ONLIST_TIMING"))
		fprintf(stderr, "timing: reviews of %ld of %ld commits "
			"computed\n", c.reviews_computed, c.reviews);
	if (onlist_store_count_matched(s, &t) != ONLIST_OK) {
		onlist_err("match: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	print_counts(out.f, fmt == ONLIST_FMT_JSON, &tc, &c, &t);
	/* every page the run committed included */
	phase("match", NULL);
out:
	timing_store = NULL;
	onlist_store_close(s);
	free(repo);
	free(rules_cfg);
	onlist_match_free_rules(rules, nrules);
	ret = onlist_cli_out_close(cli, &out, ret);
	return ret;
}
