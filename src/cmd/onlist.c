/* onlist.c - main: global options, then one subcommand from the table. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define ONLIST_VERSION "0.1"

static const struct {
	const char *name;
	int (*fn)(struct onlist_cli *, int, char **);
	const char *summary;
} commands[] = {
	{ "fetch", cmd_fetch, "bring public-inbox and mbox archives up to date" },
	{ "sources", cmd_sources, "list the sources fetch refreshes" },
	{ "import", cmd_import, "read mbox, mbox.gz or maildir archives into the database" },
	{ "scan", cmd_scan, "read the commits of a git range into the database" },
	{ "match", cmd_match, "join commits to postings by patch-id" },
	{ "unposted", cmd_unposted, "list commits that match no posting" },
	{ "lookup", cmd_lookup, "show where a commit was posted, or that it never was" },
	{ "thread", cmd_thread, "show the thread of a message, with the review given" },
	{ "skipped", cmd_skipped, "list the messages that could not be read, and why" },
	{ "status", cmd_status, "what the database holds" },
	{ "export", cmd_export, "write a table as CSV or JSON lines (docs/schema.md)" },
	{ "report", cmd_report, "what landed in a week that bypassed the lists (md, html, json)" },
	{ "stats", cmd_stats, "changelog statistics: empty explanations, signoffs, tags" },
	{ "patch-id", cmd_patch_id, "a drop-in for `git patch-id --stable`, mail-aware" },
};

void onlist_err(const char *fmt, ...)
{
	va_list ap;

	fputs("onlist: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fputs("usage: onlist [--db PATH] [-q] COMMAND [ARGS]\n\n"
	      "Which commits reached a branch without ever being posted to a "
	      "mailing list?\n\nCommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\nOptions:\n"
	      "  --db PATH   the database (default ./onlist.db, or $ONLIST_DB)\n"
	      "  -q          no progress output\n"
	      "  --help      this text; `onlist COMMAND --help` for a command\n"
	      "  --version   print the version\n\n"
	      "A typical run:\n"
	      "  onlist import --list lkml lkml.mbox.gz\n"
	      "  onlist scan --repo ~/linux v3.5..v3.11\n"
	      "  onlist match\n"
	      "  onlist unposted v3.5..v3.11\n", f);
}

int main(int argc, char **argv)
{
	struct onlist_cli cli = { NULL, 0 };
	int i;

	cli.db_path = getenv("ONLIST_DB");
	if (!cli.db_path || !*cli.db_path)
		cli.db_path = "onlist.db";
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc) {
			cli.db_path = argv[++i];
		} else if (!strncmp(argv[i], "--db=", 5)) {
			cli.db_path = argv[i] + 5;
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			cli.quiet = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return ONLIST_EXIT_OK;
		} else if (!strcmp(argv[i], "--version")) {
			printf("onlist %s\n", ONLIST_VERSION);
			return ONLIST_EXIT_OK;
		} else {
			onlist_err("unknown option '%s'", argv[i]);
			usage(stderr);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return ONLIST_EXIT_USAGE;
	}
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (!strcmp(argv[i], commands[c].name))
			return commands[c].fn(&cli, argc - i, argv + i);
	onlist_err("'%s' is not a command; see 'onlist --help'", argv[i]);
	return ONLIST_EXIT_USAGE;
}
