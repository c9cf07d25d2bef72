/* lookup.c - onlist lookup: where a commit was posted, or that it never was. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>

#include "cli.h"
#include "onlist/repo.h"
#include "onlist/store.h"
#include "onlist/patchfp.h"
#include "onlist/patchid.h"
#include "onlist/mail.h"
#include "onlist/store_thread.h"

static const char lookup_help[] =
	"usage: onlist [--db PATH] lookup [--format text|json | --json] COMMIT...\n"
	"       onlist [--db PATH] lookup [--json] --patch FILE\n\n"
	"For each commit (a full or abbreviated sha, or any name git resolves\n"
	"in the scanned repository), show every posting that matches it: list,\n"
	"Message-ID, date, subject and how it matched, or \"never posted\";\n"
	"with the version and part of the series it was, the replies from\n"
	"people other than its author, and the Reviewed-by, Acked-by,\n"
	"Tested-by and Nacked-by lines given in them.\n\n"
	"A fuzzy match shows its score (\"modified before merge\"); when several\n"
	"versions were posted, the latest is marked as the version applied.\n"
	"Echoes (commit notices, stable backports) and postings sent more\n"
	"than a day after the commit landed are shown but do not count.\n\n"
	"--patch FILE (a diff, or a mail carrying one; - for standard input)\n"
	"looks up a patch that is not in git yet, by its patch-id and by the\n"
	"repaired patch-id of the mails.\n\n"
	"Exit status: 0 when every commit was posted, 1 when one was never\n"
	"posted or is not in the database, 2 on usage errors.\n";

struct found {
	char sha[41];
	char *date, *author, *subject;
	int n;
};

static int take_commit(int ncol, const char *const *c, void *data)
{
	struct found *f = data;

	(void)ncol;
	if (f->n++ == 0) {
		snprintf(f->sha, sizeof(f->sha), "%s", c[0]);
		f->date = strdup(c[1] ? c[1] : "0");
		f->author = strdup(c[2] ? c[2] : "");
		f->subject = strdup(c[4] ? c[4] : "");
	}
	return 0;
}

struct postings {
	int json;
	int n;
	struct onlist_store *s;
	int nrev;
};

static int print_review(int ncol, const char *const *c, void *data)
{
	struct postings *p = data;

	(void)ncol;
	if (p->json) {
		fputs(p->nrev ? ", {" : "{", stdout);
		fputs("\"key\": ", stdout);
		onlist_put_json(stdout, c[0]);
		fputs(", \"name\": ", stdout);
		onlist_put_json(stdout, c[1]);
		fputs(", \"addr\": ", stdout);
		onlist_put_json(stdout, c[2]);
		fputs(", \"in\": ", stdout);
		onlist_put_json(stdout, c[3]);
		fputs(", \"replier\": ", stdout);
		onlist_put_json(stdout, c[5]);
		fputs("}", stdout);
	} else {
		printf("      %s: %s%s%s%s\n", c[0] ? c[0] : "", c[1] ? c[1] : "",
		       c[2] && *c[2] ? " <" : "", c[2] && *c[2] ? c[2] : "",
		       c[2] && *c[2] ? ">" : "");
		if (c[2] && c[5] && strcmp(c[2], c[5]))
			printf("        (given by %s)\n", c[5]);
	}
	p->nrev++;
	return 0;
}

/* One posting row of ONLIST_Q_POSTINGS, kept until all are read: the
 * latest one that counts is the version applied. */
struct prow {
	char *col[9];
};

static int take_posting(int ncol, const char *const *c, void *data)
{
	GPtrArray *rows = data;
	struct prow *r = g_new0(struct prow, 1);

	for (int i = 0; i < 9 && i < ncol; i++)
		r->col[i] = g_strdup(c[i]);
	g_ptr_array_add(rows, r);
	return 0;
}

static void free_prow(gpointer p)
{
	struct prow *r = p;

	for (int i = 0; i < 9; i++)
		g_free(r->col[i]);
	g_free(r);
}

/* echo and late rows name a mail but are not postings */
static int counts(const struct prow *r)
{
	return r->col[4] && strcmp(r->col[4], "echo") && strcmp(r->col[4], "late");
}

static void print_posting(struct postings *p, const struct prow *r, int applied)
{
	const char *const *c = (const char *const *)r->col;
	struct onlist_posting_detail d;
	int have = p->s && onlist_store_posting_detail(p->s, c[1], &d) == ONLIST_OK;
	char date[32];
	double score = c[7] ? atof(c[7]) : 1.0;

	onlist_fmt_date(c[2], date, sizeof(date), 1);
	if (p->json) {
		fputs(p->n ? ", {" : "{", stdout);
		fputs("\"list\": ", stdout);
		onlist_put_json(stdout, c[0]);
		fputs(", \"message_id\": ", stdout);
		onlist_put_json(stdout, c[1]);
		fputs(", \"date\": ", stdout);
		onlist_put_json(stdout, date);
		fputs(", \"subject\": ", stdout);
		onlist_put_json(stdout, c[3]);
		fputs(", \"method\": ", stdout);
		onlist_put_json(stdout, c[4]);
		printf(", \"score\": %.2f, \"counts\": %s, \"applied\": %s",
		       score, counts(r) ? "true" : "false",
		       applied ? "true" : "false");
		fputs(", \"echo_rule\": ", stdout);
		onlist_put_json(stdout, c[8]);
		fputs(", \"from\": ", stdout);
		onlist_put_json(stdout, c[5]);
		if (have) {
			printf(", \"class\": \"%s\", \"version\": %d", d.cls,
			       d.version);
			if (d.part >= 0)
				printf(", \"part\": %d, \"total\": %d", d.part,
				       d.total);
			printf(", \"replies\": %d, \"repliers\": %d", d.replies,
			       d.repliers);
		}
		fputs(", \"reviews\": [", stdout);
		p->nrev = 0;
		if (p->s)
			onlist_store_reviews(p->s, c[1], print_review, p);
		fputs("]}", stdout);
		p->n++;
		return;
	}
	if (!strcmp(c[4], "echo"))
		printf("  echoed on %s on %s by %s <%s> (%s): not a posting\n",
		       c[0] ? c[0] : "?", date, c[5] ? c[5] : "",
		       c[6] ? c[6] : "", c[8] ? c[8] : "echo");
	else if (!strcmp(c[4], "late"))
		printf("  posted to %s on %s by %s <%s>, more than a day after "
		       "the commit landed: not counted\n", c[0] ? c[0] : "?",
		       date, c[5] ? c[5] : "", c[6] ? c[6] : "");
	else
		printf("  posted to %s on %s by %s <%s>\n", c[0] ? c[0] : "?",
		       date, c[5] ? c[5] : "", c[6] ? c[6] : "");
	printf("    %s\n    <%s> (%s", c[3] ? c[3] : "", c[1], c[4]);
	if (!strcmp(c[4], "fuzzy"))
		printf(", score %.2f: modified before merge", score);
	printf(")%s\n", applied ? ", the version applied" : "");
	if (have && counts(r)) {
		printf("    version %d", d.version);
		if (d.part >= 0)
			printf(", patch %d of %d", d.part, d.total);
		printf("; %d %s from %d other %s\n", d.replies,
		       d.replies == 1 ? "reply" : "replies", d.repliers,
		       d.repliers == 1 ? "person" : "people");
		p->nrev = 0;
		onlist_store_reviews(p->s, c[1], print_review, p);
		if (!p->nrev)
			puts("      no review trailers given on the list");
	}
	p->n++;
}

/* Print every posting of sha (or, sha NULL, of the patch with the ids
 * in by_patch); returns how many count as postings. */
static int print_postings(struct postings *p, const char *sha,
			  const char *const *by_patch)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(free_prow);
	const char *param[1] = { sha };
	int last = -1, n = 0;

	if (sha)
		onlist_store_query(p->s, ONLIST_Q_POSTINGS, param, 1,
				   take_posting, rows);
	else
		onlist_store_query(p->s, ONLIST_Q_POSTINGS_BY_PATCH, by_patch, 2,
				   take_posting, rows);
	for (guint i = 0; i < rows->len; i++)
		if (counts(g_ptr_array_index(rows, i))) {
			last = (int)i;
			n++;
		}
	for (guint i = 0; i < rows->len; i++)
		print_posting(p, g_ptr_array_index(rows, i), (int)i == last && n > 1);
	g_ptr_array_free(rows, TRUE);
	return n;
}

static int is_hex(const char *s)
{
	size_t n = strlen(s);

	if (n < 4 || n > 40)
		return 0;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* lookup --patch FILE: a diff, or a mail carrying one, not (yet) in git:
 * the postings with its patch-id, or whose repaired diff has it. */
static int lookup_patch(struct onlist_cli *cli, const char *path, int json)
{
	struct onlist_store *s;
	struct onlist_mail *m = NULL;
	char *data = NULL, *err = NULL, pid[ONLIST_PATCHID_HEXSZ + 1] = "",
	     rid[ONLIST_PATCHID_HEXSZ + 1] = "";
	const char *diff;
	size_t len = 0, dlen;
	int n;
	unsigned char raw[ONLIST_PATCHID_RAWSZ];
	GError *gerr = NULL;

	if (!g_file_get_contents(strcmp(path, "-") ? path : "/dev/stdin",
				 &data, &len, &gerr)) {
		onlist_err("lookup: %s: %s", path, gerr->message);
		g_error_free(gerr);
		return ONLIST_EXIT_FAIL;
	}
	diff = data;
	dlen = len;
	/* a mail: its patch, as git am would take it */
	if (onlist_mail_parse(&m, data, len, &err) == ONLIST_OK &&
	    onlist_mail_patch(m, NULL))
		diff = onlist_mail_patch(m, &dlen);
	free(err);
	if (onlist_patchid_buf(diff, dlen, raw))
		onlist_patchid_hex(raw, pid);
	onlist_patch_repaired_id(diff, dlen, rid);
	if (!pid[0] && !rid[0]) {
		onlist_err("lookup: %s: no diff in it", path);
		onlist_mail_free(m);
		g_free(data);
		return ONLIST_EXIT_FAIL;
	}
	if (!(s = onlist_cli_open_store(cli))) {
		onlist_mail_free(m);
		g_free(data);
		return ONLIST_EXIT_FAIL;
	}
	{
		struct postings po = { json, 0, s, 0 };
		const char *ids[2] = { pid[0] ? pid : rid, rid[0] ? rid : pid };

		if (json) {
			fputs("{\"patch\": ", stdout);
			onlist_put_json(stdout, path);
			fputs(", \"patch_id\": ", stdout);
			onlist_put_json(stdout, pid[0] ? pid : NULL);
			fputs(", \"postings\": [", stdout);
		} else {
			printf("%s: patch-id %s\n", path, pid[0] ? pid : "(none)");
		}
		n = print_postings(&po, NULL, ids);
		if (json)
			printf("], \"posted\": %s}\n", n ? "true" : "false");
		else if (!n)
			puts("  never posted");
	}
	onlist_store_close(s);
	onlist_mail_free(m);
	g_free(data);
	return n ? ONLIST_EXIT_OK : ONLIST_EXIT_FAIL;
}

int cmd_lookup(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_store *s;
	int json = 0, ret = ONLIST_EXIT_OK, first = 1, i, any = 0;
	const char *patch_file = NULL;
	char *repo;

	if (onlist_cli_help(argc, argv, lookup_help))
		return ONLIST_EXIT_OK;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc &&
		    (!strcmp(argv[i + 1], "json") || !strcmp(argv[i + 1], "text"))) {
			json = !strcmp(argv[++i], "json");
		} else if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--patch") && i + 1 < argc) {
			patch_file = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			onlist_err("lookup: unexpected argument '%s'", argv[i]);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (patch_file) {
		if (i < argc) {
			onlist_err("lookup: --patch takes no commits as well");
			return ONLIST_EXIT_USAGE;
		}
		return lookup_patch(cli, patch_file, json);
	}
	if (i >= argc) {
		fputs(lookup_help, stderr);
		return ONLIST_EXIT_USAGE;
	}
	if (!(s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	repo = onlist_store_get_meta(s, "repo");
	if (json)
		fputs("[", stdout);
	for (; i < argc; i++) {
		struct found f = { "", NULL, NULL, NULL, 0 };
		char lower[41];
		const char *p[1];

		snprintf(lower, sizeof(lower), "%s", argv[i]);
		for (char *q = lower; *q; q++)
			*q = (char)tolower((unsigned char)*q);
		if (is_hex(lower)) {
			p[0] = lower;
			onlist_store_query(s, ONLIST_Q_COMMIT_BY_PREFIX, p, 1,
					   take_commit, &f);
		}
		if (f.n == 0 && repo && argv[i][0] != '-') {
			/* Not a known sha: let git resolve the name. */
			char (*shas)[41] = NULL, *err = NULL, *spec;
			size_t n = 0;
			if (asprintf(&spec, "%s^!", argv[i]) >= 0) {
				if (onlist_repo_rev_list(repo, spec, &shas, &n,
							 &err) == ONLIST_OK && n == 1) {
					p[0] = shas[0];
					onlist_store_query(s, ONLIST_Q_COMMIT_BY_PREFIX,
							   p, 1, take_commit, &f);
				}
				free(spec);
			}
			free(shas);
			free(err);
		}
		if (f.n != 1) {
			onlist_err(f.n ? "lookup: %s is ambiguous" :
				   "lookup: %s: no such commit in the database "
				   "(scan its range first)", argv[i]);
			ret = ONLIST_EXIT_FAIL;
		} else {
			struct postings po = { json, 0, s, 0 };
			int nposted;
			char date[32];

			any = 1;
			onlist_fmt_date(f.date, date, sizeof(date), 0);
			p[0] = f.sha;
			if (json) {
				fputs(first ? "\n  {" : ",\n  {", stdout);
				fputs("\"commit\": ", stdout);
				onlist_put_json(stdout, f.sha);
				fputs(", \"subject\": ", stdout);
				onlist_put_json(stdout, f.subject);
				fputs(", \"author\": ", stdout);
				onlist_put_json(stdout, f.author);
				fputs(", \"postings\": [", stdout);
			} else {
				printf("%s%.12s %s\n  committed %s, author %s\n",
				       first ? "" : "\n", f.sha, f.subject, date,
				       f.author);
			}
			first = 0;
			nposted = print_postings(&po, f.sha, NULL);
			if (json)
				printf("], \"posted\": %s}", nposted ? "true" : "false");
			else if (!nposted)
				puts(po.n ? "  never posted (only the mails above "
					    "carried it)" : "  never posted");
			if (!nposted && ret == ONLIST_EXIT_OK)
				ret = ONLIST_EXIT_FAIL;
		}
		free(f.date);
		free(f.author);
		free(f.subject);
	}
	if (json)
		fputs(any ? "\n]\n" : "]\n", stdout);
	free(repo);
	onlist_store_close(s);
	return ret;
}

/* ---- status ------------------------------------------------------------- */
