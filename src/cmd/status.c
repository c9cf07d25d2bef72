/* status.c - onlist status: what the database holds. */
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

static const char status_help[] =
	"usage: onlist [--db PATH] status [--json]\n\n"
	"What the database holds: messages per list and how many carry a\n"
	"patch, messages skipped by reason, commits, and matches.\n";

struct status_ctx {
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

static int list_row(int ncol, const char *const *c, void *data)
{
	struct status_ctx *x = data;

	(void)ncol;
	if (x->json) {
		fputs(x->n ? ", " : "", stdout);
		onlist_put_json(stdout, c[0]);
		printf(": {\"messages\": %s, \"patches\": %s}", c[1],
		       c[2] ? c[2] : "0");
	} else {
		printf("  %-24s %8s messages, %8s with a patch\n", c[0], c[1],
		       c[2] ? c[2] : "0");
	}
	x->n++;
	return 0;
}

static int skip_row(int ncol, const char *const *c, void *data)
{
	struct status_ctx *x = data;

	(void)ncol;
	if (x->json) {
		fputs(x->n ? ", " : "", stdout);
		onlist_put_json(stdout, c[0]);
		printf(": %s", c[1]);
	} else {
		printf("  %8s  %s\n", c[1], c[0]);
	}
	x->n++;
	return 0;
}

int cmd_status(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_store *s;
	struct status_ctx x = { 0, 0, { 0 } };
	onlist_status st;

	if (onlist_cli_help(argc, argv, status_help))
		return ONLIST_EXIT_OK;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			x.json = 1;
		} else {
			onlist_err("status: unexpected argument '%s'", argv[i]);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (!(s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	st = onlist_store_query(s, ONLIST_Q_COUNT_TOTALS, NULL, 0, totals_row, &x);
	if (st != ONLIST_OK) {
		onlist_err("status: %s", onlist_store_errmsg(s));
		onlist_store_close(s);
		return ONLIST_EXIT_FAIL;
	}
	if (x.json) {
		printf("{\"database\": ");
		onlist_put_json(stdout, cli->db_path);
		printf(", \"messages\": %ld, \"patches\": %ld, \"skipped\": %ld, "
		       "\"commits\": %ld, \"matches\": %ld, "
		       "\"commits_matched\": %ld, \"lists\": {",
		       x.t[0], x.t[1], x.t[2], x.t[3], x.t[4], x.t[5]);
		onlist_store_query(s, ONLIST_Q_COUNT_MESSAGES, NULL, 0, list_row, &x);
		printf("}, \"skipped_by_reason\": {");
		x.n = 0;
		onlist_store_query(s, ONLIST_Q_COUNT_SKIPPED, NULL, 0, skip_row, &x);
		printf("}}\n");
	} else {
		printf("database %s\n", cli->db_path);
		printf("messages: %ld (%ld carry a patch)\n", x.t[0], x.t[1]);
		onlist_store_query(s, ONLIST_Q_COUNT_MESSAGES, NULL, 0, list_row, &x);
		printf("skipped:  %ld\n", x.t[2]);
		x.n = 0;
		onlist_store_query(s, ONLIST_Q_COUNT_SKIPPED, NULL, 0, skip_row, &x);
		printf("commits:  %ld\n", x.t[3]);
		printf("matches:  %ld (%ld commits matched, %ld never posted)\n",
		       x.t[4], x.t[5], x.t[3] - x.t[5]);
	}
	onlist_store_close(s);
	return ONLIST_EXIT_OK;
}
