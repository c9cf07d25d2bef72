/* sources.c - onlist sources: what onlist fetch refreshes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/store.h"

static const char sources_help[] =
	"usage: onlist [--db PATH] sources [--format text|json | --json]\n\n"
	"List the sources `onlist fetch` refreshes, with their list names.\n\n"
	"  text: LIST SOURCE (since DATE) per line\n"
	"  json: an array of {source, list, since}\n\n"
	"The inboxes `lookup --remote` asked follow, marked partial: only the\n"
	"threads it looked up were fetched, fetch does not refresh them and\n"
	"the archive's span leaves them out (json: partial true, answers).\n";

/* The list name, padded to 20 characters (not bytes) and a space. */
static void put_list(FILE *f, const char *list)
{
	int w = 0;

	onlist_put_text(f, list);
	for (const char *p = list; *p; p++)
		w += ((unsigned char)*p & 0xc0) != 0x80;
	fprintf(f, "%*s ", w < 20 ? 20 - w : 0, "");
}

/* A source: source, list, since and, for a partial one (lookup --remote's
 * inbox), the answers kept. */
static void print_row(struct onlist_cli_rows *x, const char *const *c,
		      int partial)
{
	const char *list = c[1] ? c[1] : "";
	char date[32];

	onlist_fmt_date(c[2], date, sizeof(date), 0);
	if (x->json) {
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kstr(x->e, "source", c[0]);
		onlist_emit_kstr(x->e, "list", list);
		onlist_emit_kstr(x->e, "since", date);
		if (partial) {
			onlist_emit_kbool(x->e, "partial", 1);
			onlist_emit_kint(x->e, "answers", c[3] ? atol(c[3]) : 0L);
		}
		onlist_emit_end(x->e);
		return;
	}
	put_list(x->f, list);
	onlist_put_text(x->f, c[0]);
	if (partial)
		fprintf(x->f, "  (partial: %s answers of lookup --remote kept, "
			"since %s)\n", c[3] ? c[3] : "0", date);
	else
		fprintf(x->f, "  (since %s)\n", date);
}

static void print_source(struct onlist_cli_rows *x, int ncol,
			 const char *const *c)
{
	(void)ncol;
	print_row(x, c, 0);
}

static void print_partial(struct onlist_cli_rows *x, int ncol,
			  const char *const *c)
{
	(void)ncol;
	print_row(x, c, 1);
}

int cmd_sources(struct onlist_cli *cli, int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_store *s;
	struct onlist_cli_rows x;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	int c, ret = ONLIST_EXIT_OK;

	onlist_cli_formats(cli, formats, &fmt);
	if ((c = onlist_cli_parse(cli, argc, argv, sources_help, 0, 0)) >= 0)
		return c;
	if (!(s = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	onlist_cli_rows_open(&x, fmt, print_source);
	if (onlist_store_query(s, ONLIST_Q_SOURCES, NULL, 0, onlist_cli_row, &x)
	    != ONLIST_OK ||
	    (x.print = print_partial,
	     onlist_store_query(s, ONLIST_Q_PARTIAL_SOURCES, NULL, 0,
				onlist_cli_row, &x)) != ONLIST_OK) {
		onlist_err("sources: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
	}
	onlist_store_close(s);
	return onlist_cli_rows_close(cli, &x, ret);
}
