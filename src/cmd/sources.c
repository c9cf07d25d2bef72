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
static int print_source(const struct onlist_source_row *r, void *data)
{
	struct onlist_cli_rows *x = data;
	char date[32];

	if (onlist_cli_row(x))
		return 1;
	onlist_fmt_date(r->added, date, sizeof(date), 0);
	if (x->json) {
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kstrs(x->e, "source", r->url,
				  "list", r->list,
				  "since", date, NULL);
		if (r->partial) {
			onlist_emit_kbool(x->e, "partial", 1);
			onlist_emit_kint(x->e, "answers", r->answers);
		}
		onlist_emit_end(x->e);
		return 0;
	}
	put_list(x->f, r->list);
	onlist_put_text(x->f, r->url);
	if (r->partial)
		fprintf(x->f, "  (partial: %ld answers of lookup --remote kept, "
			"since %s)\n", (long)r->answers, date);
	else
		fprintf(x->f, "  (since %s)\n", date);
	return 0;
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
	onlist_cli_rows_open(&x, fmt);
	if (onlist_store_sources(s, print_source, &x) != ONLIST_OK ||
	    onlist_store_partial_sources(s, print_source, &x) != ONLIST_OK) {
		onlist_err("sources: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
	}
	onlist_store_close(s);
	return onlist_cli_rows_close(cli, &x, ret);
}
