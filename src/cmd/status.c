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
};

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
static int list_row(const struct onlist_list_row *r, void *data)
{
	struct status_ctx *x = data;
	const char *name = r->list;
	char first[32], last[32], fetched[32];

	onlist_fmt_date(r->first, first, sizeof(first), x->json);
	onlist_fmt_date(r->last, last, sizeof(last), x->json);
	onlist_fmt_date(r->fetched, fetched, sizeof(fetched), x->json);
	if (x->json) {
		onlist_emit_key(x->e, name);
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kint(x->e, "messages", r->messages);
		onlist_emit_kint(x->e, "patches", r->patches);
		onlist_emit_kstrs(x->e, "first", r->first ? first : NULL,
				  "last", r->last ? last : NULL,
				  "fetched", r->fetched ? fetched : NULL, NULL);
		onlist_emit_end(x->e);
	} else {
		fputs("  ", x->f);
		onlist_put_text(x->f, name);
		fprintf(x->f, "%*s %8ld messages, %8ld with a patch, %s..%s",
			width(name) < 24 ? 24 - width(name) : 0, "",
			(long)r->messages, (long)r->patches, first, last);
		if (r->fetched)
			fprintf(x->f, ", fetched %s", fetched);
		fputc('\n', x->f);
	}
	x->n++;
	return 0;
}

static int skip_row(const struct onlist_reason_row *r, void *data)
{
	struct status_ctx *x = data;

	if (x->json) {
		onlist_emit_kint(x->e, r->reason, r->count);
	} else {
		fprintf(x->f, "  %8ld  ", (long)r->count);
		onlist_put_text(x->f, r->reason);
		fputc('\n', x->f);
	}
	x->n++;
	return 0;
}

/* A read that failed half way: said, and the exit status is failure (a
 * database error is never an empty list). */
static int read_failed(struct onlist_store *s)
{
	onlist_err("status: %s", onlist_store_errmsg(s));
	return ONLIST_EXIT_FAIL;
}

int cmd_status(struct onlist_cli *cli, int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct onlist_store *s;
	struct status_ctx x = { NULL, NULL, 0, 0 };
	struct onlist_totals t;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	int c, ret = ONLIST_EXIT_OK;

	onlist_cli_formats(cli, formats, &fmt);
	if ((c = onlist_cli_parse(cli, argc, argv, status_help, 0, 0)) >= 0)
		return c;
	if (!(s = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	if (onlist_store_count_totals(s, &t) != ONLIST_OK) {
		onlist_err("status: %s", onlist_store_errmsg(s));
		onlist_store_close(s);
		return ONLIST_EXIT_FAIL;
	}
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	x.f = out.f;
	x.json = fmt == ONLIST_FMT_JSON;
	if (x.json) {
		if (!(x.e = onlist_emit_new(x.f, fmt))) {
			onlist_err("status: out of memory");
			onlist_store_close(s);
			onlist_out_close(&out, 0, NULL);
			return ONLIST_EXIT_FAIL;
		}
		onlist_emit_begin_map(x.e, 0);
		onlist_emit_kstr(x.e, "database", cli->db_path);
		onlist_emit_kint(x.e, "messages", t.messages);
		onlist_emit_kint(x.e, "patches", t.patches);
		onlist_emit_kint(x.e, "skipped", t.skipped);
		onlist_emit_kint(x.e, "commits", t.commits);
		onlist_emit_kint(x.e, "matches", t.matches);
		onlist_emit_kint(x.e, "commits_matched", t.commits_matched);
		onlist_emit_key(x.e, "lists");
		onlist_emit_begin_map(x.e, 0);
		if (onlist_store_lists(s, list_row, &x) != ONLIST_OK)
			ret = read_failed(s);
		onlist_emit_end(x.e);
		onlist_emit_key(x.e, "skipped_by_reason");
		onlist_emit_begin_map(x.e, 0);
		if (onlist_store_skipped_by_reason(s, NULL, skip_row, &x) != ONLIST_OK)
			ret = read_failed(s);
		onlist_emit_end(x.e);
		if (onlist_cli_ignored_status(s, x.f, x.e))
			ret = ONLIST_EXIT_FAIL;
		onlist_emit_end(x.e);
		onlist_emit_free(x.e);
	} else {
		fputs("database ", x.f);
		onlist_put_text(x.f, cli->db_path);
		fprintf(x.f, "\nmessages: %ld (%ld carry a patch)\n",
			(long)t.messages, (long)t.patches);
		if (onlist_store_lists(s, list_row, &x) != ONLIST_OK)
			ret = read_failed(s);
		fprintf(x.f, "skipped:  %ld\n", (long)t.skipped);
		x.n = 0;
		if (onlist_store_skipped_by_reason(s, NULL, skip_row, &x) != ONLIST_OK)
			ret = read_failed(s);
		fprintf(x.f, "commits:  %ld\n", (long)t.commits);
		fprintf(x.f, "matches:  %ld (%ld commits matched, %ld never posted)\n",
			(long)t.matches, (long)t.commits_matched,
			(long)(t.commits - t.commits_matched));
		if (onlist_cli_ignored_status(s, x.f, NULL))
			ret = ONLIST_EXIT_FAIL;
	}
	onlist_store_close(s);
	ret = onlist_cli_out_close(cli, &out, ret);
	return ret;
}
