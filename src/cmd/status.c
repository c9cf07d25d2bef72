/* status.c - onlist status: what the database holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/store.h"

static const char status_help[] =
	"usage: onlist [--db PATH] status [--format text|json | --json]\n\n"
	"What the database holds: messages per list, how many carry a patch,\n"
	"the dates of the first and last message and when a fetch last\n"
	"brought the list up to date (\"?\" when it never did: an import);\n"
	"messages skipped by reason, commits, and matches.  A commit that\n"
	"landed after the last message of every list was not looked for.\n"
	"Then what `onlist ignored` judges against: the repository, the dates\n"
	"of its commits, the last mail, and the series posted when.\n";

struct status_ctx {
	FILE *f;
	struct onlist_emit *e;	/* JSON */
	int json;
	int n;
	long t[6];
};

static int totals_row(int ncol, const char *const *c, void *data)
{
	struct status_ctx *x = data;

	for (int i = 0; i < ncol && i < 6; i++)
		x->t[i] = c[i] ? atol(c[i]) : 0;
	return 0;
}

/* Characters, not bytes, so that a UTF-8 list name keeps the columns. */
static int width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* A list's messages, its span (first and last message date) and when a
 * fetch last brought it up to date: how far its answers reach. */
static int list_row(int ncol, const char *const *c, void *data)
{
	struct status_ctx *x = data;
	const char *name = c[0] ? c[0] : "";
	char first[32], last[32], fetched[32];

	onlist_fmt_date(ncol > 3 ? c[3] : NULL, first, sizeof(first), x->json);
	onlist_fmt_date(ncol > 4 ? c[4] : NULL, last, sizeof(last), x->json);
	onlist_fmt_date(ncol > 5 ? c[5] : NULL, fetched, sizeof(fetched), x->json);
	if (x->json) {
		onlist_emit_key(x->e, name);
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kint(x->e, "messages", c[1] ? atol(c[1]) : 0);
		onlist_emit_kint(x->e, "patches", c[2] ? atol(c[2]) : 0);
		onlist_emit_kstr(x->e, "first", c[3] ? first : NULL);
		onlist_emit_kstr(x->e, "last", c[4] ? last : NULL);
		onlist_emit_kstr(x->e, "fetched", c[5] ? fetched : NULL);
		onlist_emit_end(x->e);
	} else {
		fputs("  ", x->f);
		onlist_put_text(x->f, name);
		fprintf(x->f, "%*s %8ld messages, %8ld with a patch, %s..%s",
			width(name) < 24 ? 24 - width(name) : 0, "",
			c[1] ? atol(c[1]) : 0, c[2] ? atol(c[2]) : 0,
			first, last);
		if (c[5])
			fprintf(x->f, ", fetched %s", fetched);
		fputc('\n', x->f);
	}
	x->n++;
	return 0;
}

static int skip_row(int ncol, const char *const *c, void *data)
{
	struct status_ctx *x = data;

	(void)ncol;
	if (x->json) {
		onlist_emit_kint(x->e, c[0] ? c[0] : "", c[1] ? atol(c[1]) : 0);
	} else {
		fprintf(x->f, "  %8ld  ", c[1] ? atol(c[1]) : 0);
		onlist_put_text(x->f, c[0]);
		fputc('\n', x->f);
	}
	x->n++;
	return 0;
}

int cmd_status(struct onlist_cli *cli, int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct onlist_store *s;
	struct status_ctx x = { NULL, NULL, 0, 0, { 0 } };
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	int c, ret = ONLIST_EXIT_OK;

	onlist_cli_formats(cli, formats, &fmt);
	if ((c = onlist_cli_parse(cli, argc, argv, status_help, 0, 0)) >= 0)
		return c;
	if (!(s = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	if (onlist_store_query(s, ONLIST_Q_COUNT_TOTALS, NULL, 0, totals_row,
			       &x) != ONLIST_OK) {
		onlist_err("status: %s", onlist_store_errmsg(s));
		onlist_store_close(s);
		return ONLIST_EXIT_FAIL;
	}
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	x.f = out.f;
	x.json = fmt == ONLIST_FMT_JSON;
	if (x.json) {
		static const char *const total[] = { "messages", "patches",
			"skipped", "commits", "matches", "commits_matched" };

		if (!(x.e = onlist_emit_new(x.f, fmt))) {
			onlist_err("status: out of memory");
			onlist_store_close(s);
			onlist_out_close(&out, 0, NULL);
			return ONLIST_EXIT_FAIL;
		}
		onlist_emit_begin_map(x.e, 0);
		onlist_emit_kstr(x.e, "database", cli->db_path);
		for (int i = 0; i < 6; i++)
			onlist_emit_kint(x.e, total[i], x.t[i]);
		onlist_emit_key(x.e, "lists");
		onlist_emit_begin_map(x.e, 0);
		onlist_store_query(s, ONLIST_Q_COUNT_MESSAGES, NULL, 0, list_row, &x);
		onlist_emit_end(x.e);
		onlist_emit_key(x.e, "skipped_by_reason");
		onlist_emit_begin_map(x.e, 0);
		onlist_store_query(s, ONLIST_Q_COUNT_SKIPPED, NULL, 0, skip_row, &x);
		onlist_emit_end(x.e);
		if (onlist_cli_ignored_status(s, x.f, x.e))
			ret = ONLIST_EXIT_FAIL;
		onlist_emit_end(x.e);
		onlist_emit_free(x.e);
	} else {
		fputs("database ", x.f);
		onlist_put_text(x.f, cli->db_path);
		fprintf(x.f, "\nmessages: %ld (%ld carry a patch)\n", x.t[0], x.t[1]);
		onlist_store_query(s, ONLIST_Q_COUNT_MESSAGES, NULL, 0, list_row, &x);
		fprintf(x.f, "skipped:  %ld\n", x.t[2]);
		x.n = 0;
		onlist_store_query(s, ONLIST_Q_COUNT_SKIPPED, NULL, 0, skip_row, &x);
		fprintf(x.f, "commits:  %ld\n", x.t[3]);
		fprintf(x.f, "matches:  %ld (%ld commits matched, %ld never posted)\n",
			x.t[4], x.t[5], x.t[3] - x.t[5]);
		if (onlist_cli_ignored_status(s, x.f, NULL))
			ret = ONLIST_EXIT_FAIL;
	}
	onlist_store_close(s);
	ret = onlist_cli_out_close(cli, &out, ret);
	return ret;
}
