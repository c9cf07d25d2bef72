/* cmd_stats.c - onlist stats: the changelog statistics of LWN's "What's
 * missing from our changelogs" (2013) over any range, plus whether the
 * commits without review tags were posted and answered on a list. */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "onlist/buf.h"
#include "onlist/git.h"
#include "onlist/regex.h"
#include "onlist/report.h"
#include "onlist/store.h"
#include "onlist/store_review.h"
#include "onlist/paths.h"
#include "onlist/store_paths.h"

#define STATS_SCHEMA 1

static const char help[] =
	"usage: onlist [--db PATH] stats [--repo PATH] [--mailmap FILE]\n"
	"                    [--format text|md|csv|json] [--json] [--top N] [-o FILE]\n"
	"                    [--release-subject REGEX] [--release-author NAME] [RANGE]\n\n"
	"Changelog statistics of the scanned commits of RANGE (all scanned\n"
	"commits without one); merges are never counted.\n\n"
	"  empty explanation   no body beyond the subject and the trailer block\n"
	"  no signoff          no Signed-off-by trailer at all; version bumps by\n"
	"                      the release maintainer are listed apart\n"
	"  single signoff      exactly one Signed-off-by and no other *-by trailer;\n"
	"                      of those, how many were posted to a list and how\n"
	"                      many got a reply there from someone else\n"
	"  tags                how many commits carry each trailer key\n\n"
	"Names go through the repository's .mailmap (git check-mailmap) and\n"
	"--mailmap FILE, an extra file in .mailmap format.\n\n"
	"  --format F           text (default), md, csv or json (schema 1,\n"
	"                       docs/schema.md); --json is --format json.  In\n"
	"                       csv, a name a spreadsheet would run as a formula\n"
	"                       (= + - @ first) gets a leading '\n"
	"  --top N              rows in the per-person tables (default 20, 0: all)\n"
	"  -o FILE              write FILE, replaced only when complete: a failed\n"
	"                       run leaves the previous one (\"-\": standard output)\n"
	"  --release-subject RE version bumps: subjects matching this POSIX ERE\n"
	"                       (default '^Linux [0-9]+\\.[0-9]+(\\.[0-9]+)?(-rc[0-9]+)?$')\n"
	"  --release-author NAME ... by this author after .mailmap (default\n"
	"                       'Linus Torvalds'; '' for anyone)\n";

struct srow {
	char sha[41];
	char *subject;
	char *an, *ae, *cn, *ce;
	char *tags;		/* lower-cased keys, one per line */
	int empty, signoffs, otherby, posted, replied, bump;
	int review_tags;	/* -1: unknown */
};

struct stats {
	struct srow *v;
	size_t n, alloc;
	int failed;
};

static int keep_row(const struct onlist_report_commit *c, void *data)
{
	struct stats *s = data;
	struct srow *r;
	const char *p, *nl;
	size_t tl = 0;

	if (s->n == s->alloc) {
		struct srow *nv = onlist_grow(s->v, &s->alloc, sizeof *nv, 1024);

		if (!nv)
			goto nomem;
		s->v = nv;
	}
	r = &s->v[s->n];
	memset(r, 0, sizeof *r);
	memcpy(r->sha, c->sha, 40);
	s->n++;
	if (onlist_report_dup_names(c, &r->subject, &r->an, &r->ae, &r->cn,
				    &r->ce) ||
	    !(r->tags = malloc(strlen(c->trailers) + 2)))
		goto nomem;
	r->empty = c->body_empty;
	r->posted = c->postings > 0;
	r->replied = c->replies > 0;
	r->review_tags = c->review_tags;
	for (p = c->trailers; *p; p = *nl ? nl + 1 : nl) {
		const char *colon;
		size_t k, kl;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		colon = memchr(p, ':', (size_t)(nl - p));
		kl = (size_t)((colon ? colon : nl) - p);
		for (k = 0; k < kl; k++)
			r->tags[tl + k] = (char)(p[k] >= 'A' && p[k] <= 'Z'
						 ? p[k] + 32 : p[k]);
		r->tags[tl + kl] = '\n';
		if (kl == 13 && !strncmp(r->tags + tl, "signed-off-by", 13))
			r->signoffs++;
		else if (kl >= 3 && !strncmp(r->tags + tl + kl - 3, "-by", 3))
			r->otherby++;
		tl += kl + 1;
	}
	r->tags[tl] = '\0';
	return 0;
nomem:
	onlist_err("stats: out of memory");
	s->failed = 1;
	return 1;
}

static void free_rows(struct stats *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].subject);
		free(s->v[i].an);
		free(s->v[i].ae);
		free(s->v[i].cn);
		free(s->v[i].ce);
		free(s->v[i].tags);
	}
	free(s->v);
}

/* Canonical spellings for the usual keys; others print lower-cased. */
static const char *const known_tags[] = {
	"Signed-off-by", "Reviewed-by", "Acked-by", "Tested-by", "Reported-by",
	"Suggested-by", "Co-developed-by", "Cc", "Fixes", "Link", "Closes",
	NULL
};

static const char *tag_name(const char *lower)
{
	for (size_t i = 0; known_tags[i]; i++)
		if (!strcasecmp(known_tags[i], lower))
			return known_tags[i];
	return lower;
}

static double share(long k, long n)
{
	return n ? 100.0 * (double)k / (double)n : 0.0;
}

/* s as terminal text, then spaces up to `cols` columns: the width is the
 * escaped text's, since that is what the terminal shows. */
static void padded(FILE *f, const char *s, int cols)
{
	char *t = onlist_text_dup(s);

	if (!t) {
		onlist_put_text(f, s);
		return;
	}
	fputs(t, f);
	for (int w = (int)onlist_text_width(t, strlen(t)); w < cols; w++)
		fputc(' ', f);
	free(t);
}

struct out {
	FILE *f;
	enum onlist_fmt fmt;
	long top;
	struct onlist_emit *e;	/* JSON */
};

static void person_table(struct out *o, const char *section,
			 const char *title, const char *who,
			 struct onlist_tally *t, int extras)
{
	size_t n = o->top && (size_t)o->top < t->n ? (size_t)o->top : t->n;
	FILE *f = o->f;

	if (o->e) {
		onlist_emit_key(o->e, section);
		onlist_emit_begin_list(o->e, ONLIST_EMIT_LINES);
		for (size_t i = 0; i < n; i++) {
			onlist_emit_begin_map(o->e, 0);
			onlist_emit_kstr(o->e, "name", t->v[i].name);
			onlist_emit_kint(o->e, "count", t->v[i].count);
			if (extras)
				onlist_emit_kint(o->e, "posted", t->v[i].extra);
			onlist_emit_end(o->e);
		}
		onlist_emit_end(o->e);
		return;
	}
	if (o->fmt == ONLIST_FMT_CSV) {
		for (size_t i = 0; i < n; i++) {
			fprintf(f, "%s,", section);
			onlist_put_csv(f, t->v[i].name);
			fprintf(f, ",%ld,", t->v[i].count);
			if (extras)
				fprintf(f, "%ld", t->v[i].extra);
			fputc('\n', f);
		}
		return;
	}
	if (o->fmt == ONLIST_FMT_MD) {
		fprintf(f, "\n%s\n\n| %s | Commits |%s\n|---|---:|%s\n", title,
			who, extras ? " Posted |" : "", extras ? "---:|" : "");
		for (size_t i = 0; i < n; i++) {
			fputs("| ", f);
			onlist_put_md(f, t->v[i].name);
			fprintf(f, " | %ld |", t->v[i].count);
			if (extras)
				fprintf(f, " %ld |", t->v[i].extra);
			fputc('\n', f);
		}
		return;
	}
	fprintf(f, "\n  %s\n  %-40s %7s%s\n", title, who, "Commits",
		extras ? "  Posted" : "");
	for (size_t i = 0; i < n; i++) {
		fputs("  ", f);
		padded(f, t->v[i].name, 40);
		fprintf(f, " %7ld", t->v[i].count);
		if (extras)
			fprintf(f, " %7ld", t->v[i].extra);
		fputc('\n', f);
	}
	if (n < t->n)
		fprintf(f, "  (%zu more)\n", t->n - n);
}

/* The commits whose pick[] is `want` (1: no signoff, 2: version bump),
 * or any non-zero one when want is 0. */
static void sha_list(struct out *o, const char *key, struct stats *s,
		     const int *pick, int want)
{
	FILE *f = o->f;

	if (o->e) {
		onlist_emit_key(o->e, key);
		onlist_emit_begin_list(o->e, 0);
	}
	for (size_t i = 0; i < s->n; i++) {
		if (want ? pick[i] != want : !pick[i])
			continue;
		switch (o->fmt) {
		case ONLIST_FMT_JSON:
			onlist_emit_str(o->e, s->v[i].sha);
			break;
		case ONLIST_FMT_CSV:
			fprintf(f, "%s,%s,,\n", key, s->v[i].sha);
			break;
		case ONLIST_FMT_MD:
			fprintf(f, "- `%.12s` ", s->v[i].sha);
			onlist_put_md(f, s->v[i].subject);
			fputs(" (", f);
			onlist_put_md(f, s->v[i].an);
			fputs(")\n", f);
			break;
		default:
			fprintf(f, "  %.12s ", s->v[i].sha);
			onlist_put_text(f, s->v[i].subject);
			fputs(" (", f);
			onlist_put_text(f, s->v[i].an);
			fputs(")\n", f);
		}
	}
	if (o->e)
		onlist_emit_end(o->e);
}

enum {
	OPT_REPO = ONLIST_OPT_FIRST_LONG, OPT_MAILMAP, OPT_TOP, OPT_REL_SUBJECT,
	OPT_REL_AUTHOR,
};

/* The review states of issue 12, never posted first (review.h).  Counted
 * for commits whose only trailer is a Signed-off-by: never `unknown`,
 * which needs a review trailer in git. */
enum { NSTATE = 5 };
static const char *const state_name[NSTATE] = {
	"never_posted", "no_reply", "discussed", "reviewed_series", "reviewed",
};

/* Count r's review state on the list into n[]; a posted commit that
 * match has not judged (a database upgraded since) is not counted.
 * -1 after saying why on a database error. */
static int count_state(struct onlist_store *db, const struct srow *r, long *n)
{
	struct onlist_commit_review rv;

	if (!r->posted) {
		n[0]++;
		return 0;
	}
	if (onlist_store_review_commit(db, r->sha, &rv) != ONLIST_OK) {
		onlist_err("stats: %s", onlist_store_errmsg(db));
		return -1;
	}
	for (int k = 1; rv.state && k < NSTATE; k++)
		if (!strcmp(rv.state, state_name[k]))
			n[k]++;
	onlist_commit_review_release(&rv);
	return 0;
}

/* The path a commit took (paths.h), counted by kind in n[]. */
static int count_path(struct onlist_store *db, const struct srow *r, long *n)
{
	struct onlist_path p;
	char *body = NULL;

	if (onlist_store_paths_commit_body(db, r->sha, &body) != ONLIST_OK ||
	    onlist_path_of(db, r->sha, body, &p) != ONLIST_OK) {
		free(body);
		onlist_err("stats: %s", onlist_store_errmsg(db));
		return -1;
	}
	n[p.kind]++;
	onlist_path_release(&p);
	free(body);
	return 0;
}

/* The kinds of paths.h in the order stats prints them. */
static const enum onlist_path_kind path_order[] = {
	ONLIST_PATH_DIRECT, ONLIST_PATH_LOCAL, ONLIST_PATH_PULL,
	ONLIST_PATH_UNANNOUNCED, ONLIST_PATH_FORGE, ONLIST_PATH_UNKNOWN,
};
#define NPATH (sizeof path_order / sizeof *path_order)

int cmd_stats(struct onlist_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "mailmap", required_argument, NULL, OPT_MAILMAP },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "release-subject", required_argument, NULL, OPT_REL_SUBJECT },
		{ "release-author", required_argument, NULL, OPT_REL_AUTHOR },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "md", "csv", "json", NULL };
	const char *repo_opt = NULL, *alias = NULL, *range = NULL, *ofile = NULL;
	const char *rel_subject =
		"^Linux [0-9]+\\.[0-9]+(\\.[0-9]+)?(-rc[0-9]+)?$";
	const char *rel_author = "Linus Torvalds", *rel_subject_opt = NULL;
	char *rel_cfg = NULL;
	struct stats s = { 0 };
	struct out o = { stdout, ONLIST_FMT_TEXT, 20, NULL };
	struct onlist_store *db = NULL;
	struct onlist_people *people = NULL;
	struct onlist_tally empty = ONLIST_TALLY_INIT, single = ONLIST_TALLY_INIT,
			    tags = ONLIST_TALLY_INIT;
	long nempty = 0, nnosob = 0, nbump = 0, nsingle = 0, nposted = 0,
	     nreplied = 0, nreviewed = 0, nstate[NSTATE] = { 0 },
	     npath[NPATH] = { 0 };
	int reviews_known = 0;
	int *nosob = NULL, ret = ONLIST_EXIT_FAIL;
	struct onlist_out out = ONLIST_OUT_INIT;
	char *repo = NULL, *err = NULL, *oerr = NULL;
	regex_t rel;
	onlist_status st;
	int rel_ok = 0, c;
	char *end;

	onlist_cli_formats(cli, formats, &o.fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "o:", opts, help)) != -1) {
		switch (c) {
		case OPT_REPO:
			repo_opt = optarg;
			break;
		case OPT_MAILMAP:
			alias = optarg;
			break;
		case OPT_TOP:
			errno = 0;
			o.top = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || o.top < 0) {
				onlist_err("stats: --top wants a number, 0 for all, "
					   "not '%s'", optarg);
				return ONLIST_EXIT_USAGE;
			}
			break;
		case 'o':
			ofile = optarg;
			break;
		case OPT_REL_SUBJECT:
			rel_subject = rel_subject_opt = optarg;
			break;
		case OPT_REL_AUTHOR:
			rel_author = optarg;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	if (onlist_cli_operand(cli, argc, argv, &range, help))
		return ONLIST_EXIT_USAGE;
	if (!(db = onlist_cli_open_store_read(cli)))
		goto out;
	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(db, "repo");
	/* the project's own release subjects, from its configuration */
	if (!rel_subject_opt && (rel_cfg = onlist_git_config(repo, "onlist.releasePattern")))
		rel_subject = rel_cfg;
	if ((st = onlist_regex_compile(&rel, rel_subject,
				       REG_EXTENDED | REG_NOSUB)) != ONLIST_OK) {
		onlist_cli_regex_err("stats", rel_subject_opt ?
				     "--release-subject" : "onlist.releasePattern",
				     rel_subject, st);
		ret = ONLIST_EXIT_USAGE;
		goto out;
	}
	rel_ok = 1;
	if (range) {
		if ((ret = onlist_cli_range_report(cli, db, repo, range, keep_row, &s))
		    != ONLIST_EXIT_OK || s.failed) {
			if (ret == ONLIST_EXIT_OK)
				ret = ONLIST_EXIT_FAIL;
			goto out;
		}
		ret = ONLIST_EXIT_FAIL;
	} else if (onlist_store_report_all(db, keep_row, &s) != ONLIST_OK) {
		onlist_err("stats: %s", onlist_store_errmsg(db));
		goto out;
	}
	if (s.failed)
		goto out;

	if (onlist_people_new(&people) != ONLIST_OK)
		goto nomem;
	for (size_t i = 0; i < s.n; i++)
		if (onlist_people_add(people, s.v[i].an, s.v[i].ae) ||
		    onlist_people_add(people, s.v[i].cn, s.v[i].ce))
			goto nomem;
	/* names would silently stay unmapped: say so */
	if (!repo)
		onlist_err("%s: no repository known (give --repo): names are "
			   "not mapped through .mailmap", "stats");
	if (onlist_people_resolve(people, repo, alias, &err) != ONLIST_OK) {
		onlist_err("stats: .mailmap: %s", err ? err : "failed");
		goto out;
	}
	if (!(nosob = calloc(s.n + 1, sizeof *nosob)))
		goto nomem;
	for (size_t i = 0; i < s.n; i++) {
		struct srow *r = &s.v[i];
		const char *author = onlist_people_name(people, r->an, r->ae);
		const char *committer = onlist_people_name(people, r->cn, r->ce);
		char *seen = NULL, *p, *nl;

		if (r->review_tags >= 0)
			reviews_known = 1;
		if (r->empty) {
			nempty++;
			if (onlist_tally_add(&empty, author))
				goto nomem;
		}
		if (!r->signoffs) {
			nnosob++;
			nosob[i] = 1;
			if (!regexec(&rel, r->subject, 0, NULL, 0) &&
			    (!*rel_author || !strcmp(author, rel_author))) {
				nosob[i] = 2;
				nbump++;
			}
		}
		if (r->signoffs == 1 && !r->otherby) {
			nsingle++;
			nposted += r->posted;
			nreplied += r->replied;
			nreviewed += r->review_tags > 0;
			if (count_state(db, r, nstate) || count_path(db, r, npath))
				goto out;
			if (onlist_tally_add(&single, committer))
				goto nomem;
			if (r->posted)
				onlist_tally_extra(&single, committer);
		}
		/* each key once per commit */
		if (!(seen = strdup("\n")))
			goto nomem;
		for (p = r->tags; *p; p = nl + 1) {
			char key[128];
			nl = strchr(p, '\n');
			snprintf(key, sizeof key, "\n%.*s\n",
				 (int)(nl - p < 120 ? nl - p : 120), p);
			if (strstr(seen, key))
				continue;
			char *ns = realloc(seen, strlen(seen) + strlen(key) + 1);
			if (!ns) {
				free(seen);
				goto nomem;
			}
			seen = ns;
			strcat(seen, key + 1);
			key[strlen(key) - 1] = '\0';
			if (onlist_tally_add(&tags, tag_name(key + 1))) {
				free(seen);
				goto nomem;
			}
		}
		free(seen);
	}
	onlist_tally_sort(&empty);
	onlist_tally_sort(&single);
	onlist_tally_sort(&tags);

	if (onlist_out_open(&out, ofile, &oerr) != ONLIST_OK) {
		onlist_err("stats: %s", oerr ? oerr : "out of memory");
		goto out;
	}
	o.f = out.f;
	switch (o.fmt) {
	case ONLIST_FMT_JSON:
		if (!(o.e = onlist_emit_new(o.f, o.fmt)))
			goto nomem;
		onlist_emit_begin_map(o.e, ONLIST_EMIT_LINES);
		onlist_emit_kint(o.e, "schema", STATS_SCHEMA);
		onlist_emit_kstr(o.e, "range", range);
		onlist_emit_kint(o.e, "commits", (int64_t)s.n);
		onlist_emit_key(o.e, "empty_explanation");
		onlist_emit_begin_map(o.e, 0);
		onlist_emit_kint(o.e, "count", nempty);
		onlist_emit_key(o.e, "share");
		onlist_emit_fixed(o.e, share(nempty, (long)s.n), 2);
		person_table(&o, "by_author", NULL, NULL, &empty, 0);
		onlist_emit_end(o.e);
		onlist_emit_key(o.e, "no_signoff");
		onlist_emit_begin_map(o.e, 0);
		onlist_emit_kint(o.e, "count", nnosob);
		sha_list(&o, "commits", &s, nosob, 0);
		onlist_emit_key(o.e, "version_bumps");
		onlist_emit_begin_map(o.e, 0);
		onlist_emit_kint(o.e, "count", nbump);
		sha_list(&o, "commits", &s, nosob, 2);
		onlist_emit_end(o.e);
		onlist_emit_end(o.e);
		onlist_emit_key(o.e, "single_signoff_no_tags");
		onlist_emit_begin_map(o.e, 0);
		onlist_emit_kint(o.e, "count", nsingle);
		onlist_emit_key(o.e, "share");
		onlist_emit_fixed(o.e, share(nsingle, (long)s.n), 2);
		onlist_emit_kint(o.e, "posted", nposted);
		onlist_emit_kint(o.e, "replied_on_list", nreplied);
		onlist_emit_key(o.e, "review_tags_on_list");
		if (reviews_known)
			onlist_emit_int(o.e, nreviewed);
		else
			onlist_emit_null(o.e);
		onlist_emit_key(o.e, "review_states");
		onlist_emit_begin_map(o.e, 0);
		for (int k = 0; k < NSTATE; k++)
			onlist_emit_kint(o.e, state_name[k], nstate[k]);
		onlist_emit_end(o.e);
		onlist_emit_key(o.e, "paths");
		onlist_emit_begin_map(o.e, 0);
		for (size_t k = 0; k < NPATH; k++)
			onlist_emit_kint(o.e, onlist_path_kind_name(path_order[k]),
					 npath[path_order[k]]);
		onlist_emit_end(o.e);
		person_table(&o, "by_committer", NULL, NULL, &single, 1);
		onlist_emit_end(o.e);
		onlist_emit_key(o.e, "tags");
		onlist_emit_begin_list(o.e, ONLIST_EMIT_LINES);
		for (size_t i = 0; i < tags.n; i++) {
			onlist_emit_begin_map(o.e, 0);
			onlist_emit_kstr(o.e, "tag", tags.v[i].name);
			onlist_emit_kint(o.e, "commits", tags.v[i].count);
			onlist_emit_key(o.e, "share");
			onlist_emit_fixed(o.e, share(tags.v[i].count, (long)s.n), 2);
			onlist_emit_end(o.e);
		}
		onlist_emit_end(o.e);
		onlist_emit_end(o.e);
		if (onlist_emit_free(o.e) != ONLIST_OK) {
			o.e = NULL;
			onlist_err("stats: the JSON did not nest");
			goto out;
		}
		o.e = NULL;
		break;
	case ONLIST_FMT_CSV:
		fputs("section,name,count,extra\n", o.f);
		fprintf(o.f, "commits,,%zu,\n", s.n);
		fprintf(o.f, "empty_explanation,,%ld,\n", nempty);
		person_table(&o, "empty_explanation_author", NULL, NULL, &empty, 0);
		fprintf(o.f, "no_signoff,,%ld,\n", nnosob);
		sha_list(&o, "no_signoff_commit", &s, nosob, 0);
		fprintf(o.f, "version_bump,,%ld,\n", nbump);
		sha_list(&o, "version_bump_commit", &s, nosob, 2);
		fprintf(o.f, "single_signoff_no_tags,,%ld,\n", nsingle);
		fprintf(o.f, "single_signoff_no_tags_posted,,%ld,\n", nposted);
		fprintf(o.f, "single_signoff_no_tags_replied,,%ld,\n", nreplied);
		if (reviews_known)
			fprintf(o.f, "single_signoff_no_tags_review_tags,,%ld,\n",
				nreviewed);
		for (int k = 0; k < NSTATE; k++)
			fprintf(o.f, "single_signoff_no_tags_review_state,%s,%ld,\n",
				state_name[k], nstate[k]);
		for (size_t k = 0; k < NPATH; k++)
			fprintf(o.f, "single_signoff_no_tags_path,%s,%ld,\n",
				onlist_path_kind_name(path_order[k]),
				npath[path_order[k]]);
		person_table(&o, "single_signoff_no_tags_committer", NULL, NULL,
			     &single, 1);
		for (size_t i = 0; i < tags.n; i++) {
			fputs("tag,", o.f);
			onlist_put_csv(o.f, tags.v[i].name);
			fprintf(o.f, ",%ld,\n", tags.v[i].count);
		}
		break;
	default: {
		int md = o.fmt == ONLIST_FMT_MD;
		const char *h = md ? "### " : "";
		fprintf(o.f, "%sChangelog statistics%s", md ? "## " : "",
			range ? " for " : "");
		if (md)
			onlist_put_md(o.f, range);
		else
			onlist_put_text(o.f, range);
		fputc('\n', o.f);
		if (!md) {
			char *t = range ? onlist_text_dup(range) : NULL;
			int w = 20 + (t ? 5 + (int)onlist_text_width(t, strlen(t)) : 0);

			free(t);
			while (w--)
				fputc('=', o.f);
			fputc('\n', o.f);
		}
		fprintf(o.f, "\n%zu commits (merges excluded)\n", s.n);
		fprintf(o.f, "\n%sEmpty explanation: %ld commits (%.1f%%)\n", h,
			nempty, share(nempty, (long)s.n));
		person_table(&o, NULL, md ? "Most frequent authors:" :
			     "Most frequent authors", "Author", &empty, 0);
		fprintf(o.f, "\n%sNo Signed-off-by: %ld commits (%.1f%%), of which "
			"%ld version bumps\n%s", h, nnosob,
			share(nnosob, (long)s.n), nbump, md ? "\n" : "");
		sha_list(&o, NULL, &s, nosob, 1);
		if (nbump) {
			fprintf(o.f, "\n%sVersion bumps by the release maintainer:\n%s",
				md ? "" : "  ", md ? "\n" : "");
			sha_list(&o, NULL, &s, nosob, 2);
		}
		char rv[32];
		if (reviews_known)
			snprintf(rv, sizeof rv, "%ld", nreviewed);
		else
			snprintf(rv, sizeof rv, "n/a");
		fprintf(o.f, "\n%sOne Signed-off-by and no other tags: %ld commits "
			"(%.1f%%)\n%s%ld of them were posted to a list (%.1f%%); "
			"%ld got a reply there from someone else; with review "
			"tags in replies: %s\n", h, nsingle,
			share(nsingle, (long)s.n), md ? "\n" : "  ", nposted,
			share(nposted, nsingle), nreplied, rv);
		fprintf(o.f, "%sreview on the list, over every version: %ld no reply, "
			"%ld discussed without a review tag, %ld reviewed only on "
			"the series, %ld reviewed\n", md ? "\n" : "  ",
			nstate[1], nstate[2], nstate[3], nstate[4]);
		fprintf(o.f, "%spath to the mainline: %ld applied directly, %ld "
			"merged from a local branch, %ld in a pull request posted "
			"to a list, %ld in a merge nobody announced, %ld through "
			"a forge, %ld unknown\n", md ? "\n" : "  ",
			npath[ONLIST_PATH_DIRECT], npath[ONLIST_PATH_LOCAL],
			npath[ONLIST_PATH_PULL], npath[ONLIST_PATH_UNANNOUNCED],
			npath[ONLIST_PATH_FORGE], npath[ONLIST_PATH_UNKNOWN]);
		person_table(&o, NULL, md ? "Most frequent committers:" :
			     "Most frequent committers", "Committer", &single, 1);
		fprintf(o.f, "\n%sTags\n", h);
		if (md)
			fputs("\n| Tag | Commits | Share |\n|---|---:|---:|\n", o.f);
		for (size_t i = 0; i < tags.n; i++) {
			if (md) {
				fputs("| ", o.f);
				onlist_put_md(o.f, tags.v[i].name);
				fprintf(o.f, " | %ld | %.1f%% |\n", tags.v[i].count,
					share(tags.v[i].count, (long)s.n));
			} else {
				fputs("  ", o.f);
				padded(o.f, tags.v[i].name, 40);
				fprintf(o.f, " %7ld %6.1f%%\n", tags.v[i].count,
					share(tags.v[i].count, (long)s.n));
			}
		}
	}
	}
	if (onlist_out_close(&out, 1, &oerr) != ONLIST_OK) {
		onlist_err("stats: %s", oerr ? oerr : "cannot write");
		goto out;
	}
	ret = ONLIST_EXIT_OK;
	goto out;
nomem:
	onlist_err("stats: out of memory");
out:
	/* a failed run never replaces the previous file */
	onlist_out_close(&out, 0, NULL);
	free(oerr);
	if (rel_ok)
		regfree(&rel);
	free(nosob);
	free(rel_cfg);
	onlist_tally_release(&empty);
	onlist_tally_release(&single);
	onlist_tally_release(&tags);
	onlist_people_free(people);
	free_rows(&s);
	free(repo);
	free(err);
	onlist_store_close(db);
	return ret;
}
