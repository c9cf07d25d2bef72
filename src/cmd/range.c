/* range.c - RANGE -> the stored commits of it, oldest first: the loop that
 * unposted, report and stats share. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/repo.h"
#include "onlist/store_report.h"
#include "onlist/store.h"

int onlist_cli_range(struct onlist_cli *cli, struct onlist_store *s,
		     const char *repo_opt, const char *range,
		     onlist_cli_range_cb cb, void *data)
{
	char *repo, (*shas)[41] = NULL, *err = NULL;
	size_t n = 0;
	long unknown = 0;
	int ret = ONLIST_EXIT_OK;
	onlist_status st;

	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(s, "repo");
	if (!repo) {
		onlist_err("%s: no repository scanned yet; give --repo PATH",
			   cli->cmd);
		return ONLIST_EXIT_FAIL;
	}
	if ((st = onlist_repo_scan_rev_list(repo, range, &shas, &n, &err)) != ONLIST_OK) {
		onlist_err("%s: %s", cli->cmd, err ? err : onlist_status_str(st));
		ret = st == ONLIST_EUSAGE ? ONLIST_EXIT_USAGE : ONLIST_EXIT_FAIL;
		goto out;
	}
	/* rev-list gives newest first; people read oldest first */
	for (size_t i = n; i-- > 0;) {
		st = cb(s, shas[i], data);
		if (st == ONLIST_ENOTFOUND) {
			unknown++;
		} else if (st != ONLIST_OK) {
			onlist_err("%s: %s", cli->cmd, onlist_store_errmsg(s));
			ret = ONLIST_EXIT_FAIL;
			break;
		}
	}
	if (unknown)
		onlist_err("%s: %ld commits of %s are not scanned yet "
			   "(run onlist scan %s)", cli->cmd, unknown, range, range);
out:
	free(shas);
	free(err);
	free(repo);
	return ret;
}

/* onlist_cli_range_report(): the report callback, and whether it stopped
 * (it does when it cannot keep a row: out of memory) */
struct report_wrap {
	onlist_report_cb cb;
	void *data;
	int stopped;
};

static int report_row(const struct onlist_report_commit *c, void *data)
{
	struct report_wrap *w = data;

	return (w->stopped = w->cb(c, w->data) != 0);
}

static onlist_status report_one(struct onlist_store *s, const char *sha,
				void *data)
{
	struct report_wrap *w = data;
	onlist_status st = onlist_store_report_commit(s, sha, report_row, w);

	return st == ONLIST_OK && w->stopped ? ONLIST_ENOMEM : st;
}

int onlist_cli_range_report(struct onlist_cli *cli, struct onlist_store *s,
			    const char *repo_opt, const char *range,
			    onlist_report_cb cb, void *data)
{
	struct report_wrap w = { cb, data, 0 };

	return onlist_cli_range(cli, s, repo_opt, range, report_one, &w);
}
