/* cli.h - the subcommands and what they share.  Only cmd_*.c print to the
 * user or choose exit codes. */
#ifndef ONLIST_CLI_H
#define ONLIST_CLI_H

#include <stdio.h>

/* Exit codes. */
#define ONLIST_EXIT_OK 0
#define ONLIST_EXIT_FAIL 1	/* the command ran and failed, or found an unknown commit */
#define ONLIST_EXIT_USAGE 2	/* bad arguments */

struct onlist_cli {
	const char *db_path;	/* --db, default ./onlist.db */
	int quiet;		/* -q */
};

/* Each command gets argv after its own name (argv[0] is the command name). */
int cmd_import(struct onlist_cli *cli, int argc, char **argv);
int cmd_scan(struct onlist_cli *cli, int argc, char **argv);
int cmd_match(struct onlist_cli *cli, int argc, char **argv);
int cmd_unposted(struct onlist_cli *cli, int argc, char **argv);
int cmd_lookup(struct onlist_cli *cli, int argc, char **argv);
int cmd_status(struct onlist_cli *cli, int argc, char **argv);
int cmd_patch_id(struct onlist_cli *cli, int argc, char **argv);
int cmd_fetch(struct onlist_cli *cli, int argc, char **argv);
int cmd_sources(struct onlist_cli *cli, int argc, char **argv);
int cmd_thread(struct onlist_cli *cli, int argc, char **argv);
int cmd_skipped(struct onlist_cli *cli, int argc, char **argv);
int cmd_report(struct onlist_cli *cli, int argc, char **argv);
int cmd_stats(struct onlist_cli *cli, int argc, char **argv);
int cmd_export(struct onlist_cli *cli, int argc, char **argv);

/* Print "onlist: <fmt>\n" to stderr. */
void onlist_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct onlist_store;

/* Open the database named by --db; prints the error and returns NULL. */
struct onlist_store *onlist_cli_open_store(struct onlist_cli *cli);

/* Write s as a JSON string literal (with quotes); NULL writes null. */
void onlist_json_str(FILE *f, const char *s);

/* Write s (NULL: nothing) with control characters as '?': what a header
 * holds must not drive the terminal. */
void onlist_put_clean(FILE *f, const char *s);

/* Progress on stderr when it is a terminal and -q was not given: at most a
 * few updates a second; onlist_progress_done() ends the line. */
struct onlist_progress {
	int on;
	double start, last;
	int printed;
};
void onlist_progress_init(struct onlist_progress *p, struct onlist_cli *cli);
void onlist_progress(struct onlist_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void onlist_progress_done(struct onlist_progress *p);
double onlist_now(void);

/* Format a decimal epoch string (NULL: "?") as YYYY-MM-DD, or with
 * with_time as YYYY-MM-DDTHH:MM:SSZ, into out. */
void onlist_fmt_date(const char *epoch, char *out, size_t n, int with_time);

/* Is `arg` a command's --help / -h?  Then print `text` and return 1. */
int onlist_cli_help(int argc, char **argv, const char *text);

#endif
