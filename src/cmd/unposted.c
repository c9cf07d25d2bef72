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
	"usage: onlist [--db PATH] unposted [--repo PATH] [--format text|json] [RANGE]\n\n"
	"List the scanned commits that match no posting, oldest first.  With a\n"
	"RANGE, only the commits of that range (asked of git, in the repository\n"
	"last scanned or --repo), in git's order (`git rev-list --reverse`).\n\n"
	"  text: one line per commit: short sha, commit date, author, subject\n"
	"  json: an array of {commit, subject, author, email, date}\n";

struct unposted_out {
	int json;
	long n;
};

static int print_unposted(int ncol, const char *const *c, void *data)
{
	struct unposted_out *o = data;
	char date[32];

	(void)ncol;
	if (o->json) {
		onlist_fmt_date(c[1], date, sizeof(date), 1);
		fputs(o->n ? ",\n  {" : "\n  {", stdout);
		fputs("\"commit\": ", stdout);
		onlist_put_json(stdout, c[0]);
		fputs(", \"subject\": ", stdout);
		onlist_put_json(stdout, c[4]);
		fputs(", \"author\": ", stdout);
		onlist_put_json(stdout, c[2]);
		fputs(", \"email\": ", stdout);
		onlist_put_json(stdout, c[3]);
		fputs(", \"date\": ", stdout);
		onlist_put_json(stdout, date);
		fputs("}", stdout);
	} else {
		onlist_fmt_date(c[1], date, sizeof(date), 0);
		printf("%.12s %s %s: %s\n", c[0], date, c[2] ? c[2] : "?",
		       c[4] ? c[4] : "");
	}
	o->n++;
	return 0;
}

/* For onlist_cli_range(): print the commit when it has no posting. */
static onlist_status unposted_one(struct onlist_store *s, const char *sha,
				  void *data)
{
	const char *p[1] = { sha };

	if (onlist_store_has_commit(s, sha) != 1)
		return ONLIST_ENOTFOUND;
	return onlist_store_query(s, ONLIST_Q_IS_UNPOSTED, p, 1,
				  print_unposted, data);
}

int cmd_unposted(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_store *s;
	struct unposted_out o = { 0, 0 };
	const char *range = NULL, *repo_opt = NULL;
	int ret = ONLIST_EXIT_OK;

	if (onlist_cli_help(argc, argv, unposted_help))
		return ONLIST_EXIT_OK;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			const char *f = argv[++i];
			if (!strcmp(f, "json"))
				o.json = 1;
			else if (strcmp(f, "text")) {
				onlist_err("unposted: --format is text or json, "
					   "not '%s'", f);
				return ONLIST_EXIT_USAGE;
			}
		} else if (!strcmp(argv[i], "--json")) {
			o.json = 1;
		} else if (!strcmp(argv[i], "--repo") && i + 1 < argc) {
			repo_opt = argv[++i];
		} else if (argv[i][0] == '-' || range) {
			onlist_err("unposted: unexpected argument '%s'", argv[i]);
			return ONLIST_EXIT_USAGE;
		} else {
			range = argv[i];
		}
	}
	if (!(s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	if (o.json)
		fputs("[", stdout);
	if (!range) {
		if (onlist_store_query(s, ONLIST_Q_UNPOSTED_ALL, NULL, 0,
				       print_unposted, &o) != ONLIST_OK) {
			onlist_err("unposted: %s", onlist_store_errmsg(s));
			ret = ONLIST_EXIT_FAIL;
		}
	} else {
		ret = onlist_cli_range(cli, s, repo_opt, range, unposted_one, &o);
	}
	if (o.json)
		fputs(o.n ? "\n]\n" : "]\n", stdout);
	onlist_store_close(s);
	return ret;
}

/* ---- lookup ------------------------------------------------------------- */
