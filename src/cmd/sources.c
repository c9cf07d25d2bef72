/* sources.c - onlist sources: what onlist fetch refreshes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "onlist/store.h"

static const char sources_help[] =
	"usage: onlist [--db PATH] sources\n\n"
	"List the sources `onlist fetch` refreshes, with their list names.\n";

static int print_source(int ncol, const char *const *c, void *data)
{
	time_t t = c[2] ? (time_t)atoll(c[2]) : 0;
	char date[32];
	struct tm tm;

	(void)ncol;
	(void)data;
	if (gmtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	else
		snprintf(date, sizeof(date), "?");
	printf("%-20s %s  (since %s)\n", c[1] ? c[1] : "", c[0], date);
	return 0;
}

int cmd_sources(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_store *s;
	int ret = ONLIST_EXIT_OK;

	if (onlist_cli_help(argc, argv, sources_help))
		return ONLIST_EXIT_OK;
	if (argc > 1) {
		onlist_err("sources: unexpected argument '%s'", argv[1]);
		return ONLIST_EXIT_USAGE;
	}
	if (!(s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	if (onlist_store_query(s, ONLIST_Q_SOURCES, NULL, 0, print_source, NULL)
	    != ONLIST_OK) {
		onlist_err("sources: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
	}
	onlist_store_close(s);
	return ret;
}
