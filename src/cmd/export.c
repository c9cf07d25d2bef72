/* cmd_export.c - onlist export: the database's tables as CSV or JSON lines
 * in the column order docs/schema.md documents, for other tools. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/paths.h"
#include "onlist/report.h"
#include "onlist/store.h"
#include "onlist/store_paths.h"

/* Bump with any change to a column list in store_report.c, and say what
 * changed in docs/schema.md. */
#define EXPORT_SCHEMA 3

static const char help[] =
	"usage: onlist [--db PATH] export [--format csv|jsonl|json] [--json] [-o FILE]\n"
	"                     [TABLE]\n"
	"       onlist export --schema-version\n\n"
	"Write one table for a statistics tool: commits (default, with each\n"
	"one's review state on the list and its off-list review tags),\n"
	"postings, matches, reviews (one row per review tag given on the\n"
	"list), replies (replies to matched postings) or trailers.  The\n"
	"columns and their meaning are in docs/schema.md (export schema 3).\n\n"
	"  csv    a header line, then one line per row (RFC 4180: text quoted,\n"
	"         \"\" inside; NULL is an empty unquoted field).  Text that a\n"
	"         spreadsheet would run as a formula (starting with = + - @,\n"
	"         TAB or CR) gets a leading '; controls other than TAB, CR and\n"
	"         LF are written U+XXXX; jsonl keeps them (JSON-escaped).\n"
	"  jsonl  one JSON object per line; NULL is null\n"
	"  json   the same objects as one JSON array, one object a line\n"
	"         (one document for tools that read JSON, not JSON lines);\n"
	"         --json is --format json\n"
	"  -o FILE  write FILE, replaced only when every row is written: a\n"
	"         failed run leaves the previous one (\"-\": standard output)\n\n"
	"In every format a byte that is not UTF-8 (an old commit in Latin-1)\n"
	"is written as U+FFFD, so the output is always valid UTF-8.\n";

static const struct {
	const char *name;
	enum onlist_export what;
} tables[] = {
	{ "commits", ONLIST_EXPORT_COMMITS },
	{ "postings", ONLIST_EXPORT_POSTINGS },
	{ "matches", ONLIST_EXPORT_MATCHES },
	{ "reviews", ONLIST_EXPORT_REVIEWS },
	{ "trailers", ONLIST_EXPORT_TRAILERS },
	{ "replies", ONLIST_EXPORT_REPLIES },
};

/* A value of a numeric column that is not a number (SQLite stores what it
 * is given) is written as text rather than breaking the line. */
static int is_number(const char *s)
{
	char *end;

	if (!*s)
		return 0;
	strtod(s, &end);
	return !*end;
}

/* commits: review_state "never_posted" becomes "unknown" for a commit
 * outside the archive's span; else `reason` says why (verdict.h); a
 * posted commit's `unknown` review has its why there already (review.h);
 * every commit gets its path and security mark (paths.h).  A posted
 * commit is security relevant only without review on the list
 * (no_reply, discussed). */
enum { COL_SHA, COL_STATE, COL_REASON, COL_PATH, COL_PULL, COL_VIA,
       COL_SECURE, COL_SECURITY, NCOLS };
/* The columns are found by name in the header row the store gives first
 * (store_report.c names them), not by position. */
static const char *const col_names[NCOLS] = {
	"sha", "review_state", "reason", "path", "pull_request", "via",
	"security_relevant", "security",
};

struct exp {
	FILE *f;
	enum onlist_fmt fmt;	/* CSV, JSONL, or JSON: one array of the objects */
	const char *types;
	long rows;
	struct onlist_cli_why *why;	/* commits: never posted, and why */
	int failed;			/* ... could not be told (said) */
	struct onlist_path path;	/* of the posted row being written */
	char *mark;			/* ... its security mark */
	struct onlist_emit *em;		/* JSON and JSONL */
	int at[NCOLS];			/* commits: where col_names[] are */
	int all_cols;			/* ... all of them are there */
};

static void path_cols(const int *at, const struct onlist_path *p,
		      const char **out)
{
	out[at[COL_PATH]] = p->kind == ONLIST_PATH_UNKNOWN ? NULL :
			    onlist_path_kind_name(p->kind);
	out[at[COL_PULL]] = p->pull_msgid;
	out[at[COL_VIA]] = p->kind == ONLIST_PATH_PULL ? p->url :
			   onlist_cli_path_via(p);
}

static int with_reason(struct exp *e, int ncol, const char *const *vals,
		       const char **out)
{
	const int *at = e->at;
	const char *st;
	char *body = NULL;

	for (int i = 0; i < ncol; i++)
		out[i] = vals[i];
	if (!e->all_cols)
		return 0;
	st = vals[at[COL_STATE]];
	onlist_path_release(&e->path);
	free(e->mark);
	e->mark = NULL;
	if (st && !strcmp(st, "never_posted")) {
		if (onlist_cli_why(e->why, vals[at[COL_SHA]]) < 0)
			return -1;
		if (e->why->v.unknown) {
			out[at[COL_STATE]] = "unknown";
		} else {
			out[at[COL_REASON]] = onlist_reason_name(e->why->v.reason);
			out[at[COL_SECURE]] = e->why->v.security ? "1" : "0";
			out[at[COL_SECURITY]] = e->why->v.security;
		}
		path_cols(at, &e->why->v.path, out);
		return 0;
	}
	if (onlist_store_paths_commit_body(e->why->s, vals[at[COL_SHA]], &body) != ONLIST_OK ||
	    onlist_path_of(e->why->s, vals[at[COL_SHA]], body, &e->path) != ONLIST_OK) {
		free(body);
		onlist_err("export: %s", onlist_store_errmsg(e->why->s));
		return -1;
	}
	path_cols(at, &e->path, out);
	/* no review state: match has not run since the upgrade */
	if (st) {
		int reviewed = strcmp(st, "no_reply") && strcmp(st, "discussed");

		if (onlist_verdict_security_posted(body, reviewed, &e->mark) < 0) {
			free(body);
			onlist_err("export: out of memory");
			return -1;
		}
		out[at[COL_SECURE]] = e->mark ? "1" : "0";
		out[at[COL_SECURITY]] = e->mark;
	}
	free(body);
	return 0;
}

static int put_row(struct exp *e, int ncol, const char *const *names,
		   const char *const *vals);

static int row(int ncol, const char *const *names, const char *const *vals,
	       void *data)
{
	struct exp *e = data;
	int csv = e->fmt == ONLIST_FMT_CSV;

	if (!vals) {
		e->all_cols = 1;
		for (int k = 0; k < NCOLS; k++) {
			e->at[k] = -1;
			for (int i = 0; i < ncol && e->at[k] < 0; i++)
				if (!strcmp(names[i], col_names[k]))
					e->at[k] = i;
			e->all_cols &= e->at[k] >= 0;
		}
		if (e->fmt == ONLIST_FMT_JSON)
			onlist_emit_begin_list(e->em, ONLIST_EMIT_LINES);
		if (!csv)
			return 0;
		for (int i = 0; i < ncol; i++)
			fprintf(e->f, "%s%s", i ? "," : "", names[i]);
		fputs("\r\n", e->f);
		return 0;
	}
	if (e->why) {
		const char *v[32];

		if (ncol > 32 || with_reason(e, ncol, vals, v) < 0) {
			e->failed = 1;
			return 1;
		}
		return put_row(e, ncol, names, v);
	}
	return put_row(e, ncol, names, vals);
}

static int put_row(struct exp *e, int ncol, const char *const *names,
		   const char *const *vals)
{
	if (e->em) {
		onlist_emit_begin_map(e->em, 0);
		for (int i = 0; i < ncol; i++) {
			onlist_emit_key(e->em, names[i]);
			if (e->types[i] == 't')
				onlist_emit_str(e->em, vals[i]);
			else	/* a number, else (a tampered row) a string */
				onlist_emit_number(e->em, vals[i]);
		}
		onlist_emit_end(e->em);
		e->rows++;
		return ferror(e->f) != 0;
	}
	for (int i = 0; i < ncol; i++) {
		char t = e->types[i];
		if (vals[i] && t != 't' && !is_number(vals[i]))
			t = 't';
		if (i)
			fputc(',', e->f);
		if (vals[i] && t == 't')
			onlist_put_csv(e->f, vals[i]);
		else if (vals[i])
			fputs(vals[i], e->f);
	}
	fputs("\r\n", e->f);
	e->rows++;
	return ferror(e->f) != 0;
}

enum { OPT_SCHEMA = ONLIST_OPT_FIRST_LONG };

int cmd_export(struct onlist_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "schema-version", no_argument, NULL, OPT_SCHEMA },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "csv", "jsonl", "json", NULL };
	struct exp e = { .f = stdout, .fmt = ONLIST_FMT_CSV };
	struct onlist_cli_why why = { 0 };
	char *repo = NULL;
	struct onlist_out out = ONLIST_OUT_INIT;
	char *oerr = NULL;
	const char *table = NULL, *ofile = NULL;
	struct onlist_store *db;
	enum onlist_export what = ONLIST_EXPORT_COMMITS;
	int ret = ONLIST_EXIT_OK, c;
	size_t k;

	onlist_cli_formats(cli, formats, &e.fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "o:", opts, help)) != -1) {
		switch (c) {
		case OPT_SCHEMA:
			printf("%d\n", EXPORT_SCHEMA);
			return ONLIST_EXIT_OK;
		case 'o':
			ofile = optarg;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	if (onlist_cli_operand(cli, argc, argv, &table, help))
		return ONLIST_EXIT_USAGE;
	if (table) {
		for (k = 0; k < sizeof tables / sizeof *tables; k++)
			if (!strcmp(tables[k].name, table))
				break;
		if (k == sizeof tables / sizeof *tables) {
			onlist_err("export: no table '%s' (commits, postings, "
				   "matches, reviews, trailers, replies)", table);
			return ONLIST_EXIT_USAGE;
		}
		what = tables[k].what;
	}
	e.types = onlist_export_types(what);
	if (!(db = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	if (onlist_out_open(&out, ofile, &oerr) != ONLIST_OK) {
		onlist_err("export: %s", oerr ? oerr : "out of memory");
		free(oerr);
		onlist_store_close(db);
		return ONLIST_EXIT_FAIL;
	}
	e.f = out.f;
	if (e.fmt != ONLIST_FMT_CSV && !(e.em = onlist_emit_new(e.f, e.fmt))) {
		onlist_err("export: out of memory");
		ret = ONLIST_EXIT_FAIL;
		goto done;
	}
	if (what == ONLIST_EXPORT_COMMITS) {
		why.s = db;
		why.cmd = "export";
		why.repo = repo = onlist_store_get_meta(db, "repo");
		e.why = &why;
	}
	if (onlist_store_report_export(db, what, row, &e) != ONLIST_OK) {
		onlist_err("export: %s", onlist_store_errmsg(db));
		ret = ONLIST_EXIT_FAIL;
	} else if (e.failed) {
		ret = ONLIST_EXIT_FAIL;
	} else if (e.fmt == ONLIST_FMT_JSON) {
		onlist_emit_end(e.em);
	}
	if (onlist_emit_free(e.em) != ONLIST_OK && ret == ONLIST_EXIT_OK) {
		onlist_err("export: the JSON did not nest");
		ret = ONLIST_EXIT_FAIL;
	}
done:
	/* half a table is worse than the previous export: keep the file
	 * only when every row was written */
	if (onlist_out_close(&out, ret == ONLIST_EXIT_OK, &oerr) != ONLIST_OK) {
		onlist_err("export: %s", oerr ? oerr : "cannot write");
		ret = ONLIST_EXIT_FAIL;
	}
	free(oerr);
	onlist_cli_why_release(&why);
	onlist_path_release(&e.path);
	free(e.mark);
	free(repo);
	onlist_store_close(db);
	return ret;
}
