/* unposted.c - onlist unposted: the scanned commits that match no posting. */
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

static const char unposted_help[] =
	"usage: onlist [--db PATH] unposted [--repo PATH] [--format text|json | --json]\n"
	"                                   [RANGE]\n\n"
	"List the scanned commits that match no posting, oldest first.  With a\n"
	"RANGE, only the commits of that range (asked of git, in the repository\n"
	"last scanned or --repo), in git's order (`git rev-list --reverse`).\n"
	"A commit the scan could not diff (an object missing from the\n"
	"repository) has no patch-id, so only the other tiers can match it: it\n"
	"is marked [not diffed] (`onlist skipped --commits` says why).\n\n"
	"  text: one line per commit: short sha, commit date, author, subject,\n"
	"        and [not diffed]\n"
	"  json: an array of {commit, subject, author, email, date, not_diffed}\n"
	"        (not_diffed: git's reason, or null)\n";

static void print_unposted(struct onlist_cli_rows *o, int ncol,
			   const char *const *c)
{
	char date[32], short_sha[13];

	if (o->json) {
		onlist_fmt_date(c[1], date, sizeof(date), 1);
		onlist_put_json_object(o->f, "commit", c[0], "subject", c[4],
				       "author", c[2], "email", c[3],
				       "date", date,
				       "not_diffed", ncol > 5 ? c[5] : NULL,
				       (char *)NULL);
	} else {
		onlist_fmt_date(c[1], date, sizeof(date), 0);
		snprintf(short_sha, sizeof(short_sha), "%s", c[0] ? c[0] : "");
		onlist_put_text(o->f, short_sha);
		fprintf(o->f, " %s ", date);
		onlist_put_text(o->f, c[2] ? c[2] : "?");
		fputs(": ", o->f);
		onlist_put_text(o->f, c[4]);
		if (ncol > 5 && c[5])
			fputs(" [not diffed]", o->f);
		fputc('\n', o->f);
	}
}

/* For onlist_cli_range(): print the commit when it has no posting. */
static onlist_status unposted_one(struct onlist_store *s, const char *sha,
				  void *data)
{
	const char *p[1] = { sha };

	if (onlist_store_has_commit(s, sha) != 1)
		return ONLIST_ENOTFOUND;
	return onlist_store_query(s, ONLIST_Q_IS_UNPOSTED, p, 1,
				  onlist_cli_row, data);
}

int cmd_unposted(struct onlist_cli *cli, int argc, char **argv)
{
	enum { OPT_REPO = ONLIST_OPT_FIRST_LONG };
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, OPT_REPO },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_store *s;
	struct onlist_cli_rows o;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	const char *range = NULL, *repo_opt = NULL;
	int c, ret = ONLIST_EXIT_OK;

	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts,
				      unposted_help)) != -1) {
		switch (c) {
		case OPT_REPO:
			repo_opt = optarg;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	if (optind < argc)
		range = argv[optind++];
	if (optind < argc) {
		onlist_err("unposted: one range only ('%s' and '%s')", range,
			   argv[optind]);
		return ONLIST_EXIT_USAGE;
	}
	if (!(s = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	onlist_cli_rows_open(&o, fmt, print_unposted);
	if (!range) {
		if (onlist_store_query(s, ONLIST_Q_UNPOSTED_ALL, NULL, 0,
				       onlist_cli_row, &o) != ONLIST_OK) {
			onlist_err("unposted: %s", onlist_store_errmsg(s));
			ret = ONLIST_EXIT_FAIL;
		}
	} else {
		ret = onlist_cli_range(cli, s, repo_opt, range, unposted_one, &o);
	}
	onlist_store_close(s);
	return onlist_cli_rows_close(cli, &o, ret);
}
