/* cmd_match.c - onlist match */
#include <stdio.h>
#include <stdlib.h>

#include "onlist/cli.h"
#include "onlist/store.h"
#include "onlist/store_thread.h"

static const char help[] =
	"usage: onlist [--db PATH] match\n\n"
	"Join the scanned commits to the imported postings: a commit matches\n"
	"every message whose patch has the same `git patch-id --stable`.\n"
	"Running it again adds only what new imports or scans made possible.\n\n"
	"It also rebuilds the threads (Message-ID, In-Reply-To, References),\n"
	"the replies each patch received and the series and versions the\n"
	"patches form, which `lookup` and `thread` show.\n";

static int totals(int ncol, const char *const *cols, void *data)
{
	long *t = data;

	for (int i = 0; i < ncol && i < 6; i++)
		t[i] = cols[i] ? atol(cols[i]) : 0;
	return 0;
}

int cmd_match(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_store *s;
	long added = 0, t[6] = { 0 };
	struct onlist_thread_counts tc;

	if (onlist_cli_help(argc, argv, help))
		return ONLIST_EXIT_OK;
	if (argc > 1) {
		onlist_err("match: unexpected argument '%s'", argv[1]);
		return ONLIST_EXIT_USAGE;
	}
	if (!(s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	if (onlist_store_build_threads(s, &tc) != ONLIST_OK ||
	    onlist_store_match_patchid(s, &added) != ONLIST_OK ||
	    onlist_store_query(s, ONLIST_Q_COUNT_TOTALS, NULL, 0, totals, t)
	    != ONLIST_OK) {
		onlist_err("match: %s", onlist_store_errmsg(s));
		onlist_store_close(s);
		return ONLIST_EXIT_FAIL;
	}
	onlist_store_close(s);
	printf("%ld threads, %ld series in %ld topics, %ld replies to patches\n",
	       tc.threads, tc.series, tc.topics, tc.replies);
	printf("%ld new matches; %ld of %ld commits matched (%.1f%%)\n",
	       added, t[5], t[3], t[3] ? 100.0 * t[5] / t[3] : 0.0);
	return ONLIST_EXIT_OK;
}
