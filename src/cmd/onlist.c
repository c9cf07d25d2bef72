/* onlist.c - main: global options, then one subcommand from the table. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cli.h"
#include "onlist/store.h"

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
	{ "ignored", cmd_ignored, "list patch series nobody answered and nobody applied" },
	{ "lookup", cmd_lookup, "show where a commit was posted, or that it never was" },
	{ "thread", cmd_thread, "show the thread of a message, with the review given" },
	{ "skipped", cmd_skipped, "list the messages that could not be read, and why" },
	{ "status", cmd_status, "what the database holds" },
	{ "export", cmd_export, "write a table as CSV or JSON lines (docs/schema.md)" },
	{ "report", cmd_report, "what landed in a week that bypassed the lists (md, html, json)" },
	{ "stats", cmd_stats, "changelog statistics: empty explanations, signoffs, tags" },
	{ "patch-id", cmd_patch_id, "a drop-in for `git patch-id --stable`, mail-aware" },
	{ "update", cmd_update, "fetch every source, scan the configured branches, match" },
};

/* Whether a message said the database is damaged (main() says it once
 * when none did) */
int onlist_err_said_damage;

void onlist_err(const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	/* Messages carry paths, Message-IDs, git's and servers' words: all
	 * of it through the terminal escaper (line ends kept). */
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	fputs("onlist: ", stderr);
	if (n < 0)
		fputs("(out of memory formatting a message)", stderr);
	else
		onlist_put_text_lines(stderr, msg);
	fputc('\n', stderr);
	if (n >= 0 && strstr(msg, "the database is damaged"))
		onlist_err_said_damage = 1;
	if (n >= 0)
		free(msg);
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

/* `ret`, unless standard output could not be written (a full disk,
 * /dev/full): then, if nothing said so yet, say so and exit 1.  Also
 * after --help and --version. */
static int flushed(int ret)
{
	errno = 0;
	if ((fflush(stdout) == 0 && !ferror(stdout)) || ret != ONLIST_EXIT_OK)
		return ret;
	onlist_err("cannot write to standard output: %s",
		   strerror(errno ? errno : EIO));
	return ONLIST_EXIT_FAIL;
}

/* The command's exit code `ret`, unless SQLite met a damaged page on the
 * way, even where the command took the failed step for "no row" (an
 * empty list, "no such commit"): then that is the answer, and exit 1. */
static int done(struct onlist_cli *cli, int ret)
{
	char *m;

	if (!onlist_store_damaged())
		return flushed(ret);
	if (!onlist_err_said_damage) {
		m = onlist_store_damage_msg(onlist_cli_db(cli));
		onlist_err("%s", m ? m : "the database is damaged");
		g_free(m);
	}
	flushed(ONLIST_EXIT_FAIL);
	return ONLIST_EXIT_FAIL;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "version", no_argument, NULL, 'V' },
		/* for the completion script (complete.c), not in the help */
		{ "list-cmds", no_argument, NULL, 'C' },
		{ "list-lists", no_argument, NULL, 'L' },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	enum { NCMD = sizeof(commands) / sizeof(commands[0]) };
	struct onlist_cli cli = { .db_path = NULL, .cmd = NULL };
	const char *names[NCMD + 1], *near;
	int c, list_lists = 0;

	/* Past a file size limit (ulimit -f) the kernel's default is to kill
	 * the process without a word; ignored, the write fails with EFBIG,
	 * which the store reports as "File too large". */
	signal(SIGXFSZ, SIG_IGN);
	/* '+': stop at the command's name; what follows is the command's */
	while ((c = onlist_cli_getopt(&cli, argc, argv, "+V", opts, "")) != -1) {
		switch (c) {
		case 'V':
			printf("onlist %s\n", ONLIST_VERSION);
			return flushed(ONLIST_EXIT_OK);
		case 'C':
			for (size_t i = 0; i < NCMD; i++)
				printf("%s\n", commands[i].name);
			return flushed(ONLIST_EXIT_OK);
		case 'L':
			list_lists = 1;	/* once --db is known */
			break;
		case ONLIST_OPT_HELP:
			if (argc == 2 && !strcmp(argv[1], "--list-opts"))
				return flushed(ONLIST_EXIT_OK);
			usage(stdout);
			return flushed(ONLIST_EXIT_OK);
		default:
			usage(stderr);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (list_lists)
		return done(&cli, onlist_complete_lists(&cli));
	if (optind >= argc) {
		usage(stderr);
		return ONLIST_EXIT_USAGE;
	}
	argc -= optind;
	argv += optind;
	for (size_t i = 0; i < NCMD; i++) {
		if (!strcmp(argv[0], commands[i].name)) {
			cli.cmd = commands[i].name;
			optind = 0;	/* glibc: start afresh on the command's argv */
			return done(&cli, commands[i].fn(&cli, argc, argv));
		}
		names[i] = commands[i].name;
	}
	names[NCMD] = NULL;
	if ((near = onlist_cli_nearest(argv[0], names)))
		onlist_err("'%s' is not a command; did you mean '%s'?", argv[0], near);
	else
		onlist_err("'%s' is not a command; see 'onlist --help'", argv[0]);
	return ONLIST_EXIT_USAGE;
}
