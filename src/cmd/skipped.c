/* skipped.c - onlist skipped: the messages that could not be read, and why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>

#include "cli.h"
#include "onlist/store.h"
#include "onlist/store_thread.h"

static const char skipped_help[] =
	"usage: onlist [--db PATH] skipped [--by-reason] [SOURCE]\n\n"
	"List the messages that could not be read, with where they were\n"
	"(file and byte offset, or maildir file) and why.  SOURCE limits the\n"
	"list to one file or directory (a glob pattern may be given);\n"
	"--by-reason counts them per reason instead.\n";

static int print_skip(int ncol, const char *const *c, void *data)
{
	long *n = data;

	(void)ncol;
	onlist_put_text(stdout, c[0] ? c[0] : "");
	printf(":%s: ", c[1] ? c[1] : "0");
	onlist_put_text(stdout, c[2] ? c[2] : "");
	putchar('\n');
	(*n)++;
	return 0;
}

static int print_reason(int ncol, const char *const *c, void *data)
{
	long *n = data;

	(void)ncol;
	printf("%7s  ", c[1] ? c[1] : "0");
	onlist_put_text(stdout, c[0] ? c[0] : "");
	putchar('\n');
	(*n)++;
	return 0;
}

int cmd_skipped(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_store *s;
	int i, by_reason = 0;
	const char *p[1] = { NULL };
	char *glob = NULL;
	long n = 0;

	if (onlist_cli_help(argc, argv, skipped_help))
		return ONLIST_EXIT_OK;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--by-reason")) {
			by_reason = 1;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			onlist_err("skipped: unexpected argument '%s'", argv[i]);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (i < argc - 1) {
		fputs(skipped_help, stderr);
		return ONLIST_EXIT_USAGE;
	}
	if (i == argc - 1) {
		/* A directory names the maildir files below it too. */
		glob = strpbrk(argv[i], "*?[") ? g_strdup(argv[i]) :
		       g_strdup_printf("%s*", argv[i]);
		p[0] = glob;
	}
	if (!(s = onlist_cli_open_store(cli))) {
		g_free(glob);
		return ONLIST_EXIT_FAIL;
	}
	if (onlist_store_query(s, by_reason ? ONLIST_Q_SKIPPED_BY_REASON :
			       ONLIST_Q_SKIPPED, p, 1,
			       by_reason ? print_reason : print_skip, &n)
	    != ONLIST_OK) {
		onlist_err("skipped: %s", onlist_store_errmsg(s));
		onlist_store_close(s);
		g_free(glob);
		return ONLIST_EXIT_FAIL;
	}
	if (!n && !cli->quiet)
		fputs("no skipped messages\n", stderr);
	onlist_store_close(s);
	g_free(glob);
	return ONLIST_EXIT_OK;
}
