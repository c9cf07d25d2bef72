/* cli.h - the subcommands and what they share.  Only cmd_*.c print to the
 * user or choose exit codes. */
#ifndef ONLIST_CLI_H
#define ONLIST_CLI_H

#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include "onlist/emit.h"
#include "onlist/print.h"
#include "onlist/verdict.h"

/* Exit codes. */
#define ONLIST_EXIT_OK 0
#define ONLIST_EXIT_FAIL 1	/* the command ran and failed, or found an unknown commit */
#define ONLIST_EXIT_USAGE 2	/* bad arguments */
#define ONLIST_EXIT_UNKNOWN 3	/* lookup: a commit the archive does not cover */

struct onlist_cli {
	const char *db_path;	/* --db; else $ONLIST_DB, `git config onlist.db`
				 * or ./onlist.db, set once the command's
				 * options are read (onlist_cli_db()) */
	int quiet;		/* -q */
	const char *cmd;	/* the command's name, for messages */
	/* set by onlist_cli_formats(): what --format takes, and where the
	 * choice goes; NULL: the command has no --format */
	const char *const *formats;
	enum onlist_fmt *fmt;
};

/* ---- options -------------------------------------------------------------
 * Every command parses its arguments with onlist_cli_getopt(), a wrapper
 * of getopt_long(3): `--opt=value` and `--opt value` both work, options
 * may follow the operands, `--` ends them, and the global options (--db,
 * -q/--quiet, -h/--help) are accepted after the command's name too.  The
 * command's long options end with ONLIST_CLI_GLOBAL_OPTIONS:
 *
 *   static const struct option opts[] = {
 *   	{ "repo", required_argument, NULL, 'r' },
 *   	ONLIST_CLI_GLOBAL_OPTIONS
 *   };
 *   while ((c = onlist_cli_getopt(cli, argc, argv, "r:", opts, help)) != -1)
 *   	switch (c) {
 *   	case 'r': repo = optarg; break;
 *   	case ONLIST_OPT_HELP: return ONLIST_EXIT_OK;
 *   	default: return ONLIST_EXIT_USAGE;
 *   	}
 *   ... operands are argv[optind..argc-1]
 */
enum {
	ONLIST_OPT_HELP = -2,	/* --help: the help text was printed */
	ONLIST_OPT_ERROR = -3,	/* a usage error was printed */
	ONLIST_OPT_DB = 0x1000,	/* values past any character, for options */
	ONLIST_OPT_FORMAT,
	ONLIST_OPT_JSON,
	ONLIST_OPT_FIRST_LONG,	/* a command's own, with no short form */
};
#define ONLIST_CLI_GLOBAL_OPTIONS \
	{ "db", required_argument, NULL, ONLIST_OPT_DB }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "help", no_argument, NULL, 'h' }, \
	{ "format", required_argument, NULL, ONLIST_OPT_FORMAT }, \
	{ "json", no_argument, NULL, ONLIST_OPT_JSON }, \
	{ NULL, 0, NULL, 0 }

/* The exit code for what onlist_cli_getopt() returned that is none of
 * the command's options: 0 after --help, 2 after a usage error. */
int onlist_cli_stop(int c);
/* --pace's argument (seconds between requests, 0 to 3600) into *out: 0,
 * or -1 after saying why, the message starting "CMD: ". */
int onlist_cli_pace(const char *cmd, const char *arg, double *out);

/* After the options: are there between min and max operands (max -1: no
 * limit)?  0, or -1 after printing `help` (too few) or the first one too
 * many. */
int onlist_cli_operands(struct onlist_cli *cli, int argc, char **argv,
			int min, int max, const char *help);

/* At most one operand, optional: into *out (left as it is without one).
 * 0, or -1 after naming a second one. */
int onlist_cli_operand(struct onlist_cli *cli, int argc, char **argv,
		       const char **out, const char *help);

/* The whole parse of a command with no options of its own (but the global
 * ones, and --format when registered): -1 to go on, with the operands at
 * argv[optind..]; else the exit code to return at once (0 after --help). */
int onlist_cli_parse(struct onlist_cli *cli, int argc, char **argv,
		     const char *help, int min, int max);

/* Give the command --format (one of `formats`, a NULL-ended list of
 * names) and --json (the same as --format json), both written to *fmt by
 * onlist_cli_getopt().  A command that does not call this refuses both. */
void onlist_cli_formats(struct onlist_cli *cli, const char *const *formats,
			enum onlist_fmt *fmt);

/* The next option of argv (argv[0] is the command's name): its `val`, -1
 * after the last one (operands then start at optind), ONLIST_OPT_HELP
 * after printing `help` to stdout, or ONLIST_OPT_ERROR after printing what
 * was wrong, with the nearest option's name ("did you mean --json?").
 * The global options are handled here and never returned. */
int onlist_cli_getopt(struct onlist_cli *cli, int argc, char **argv,
		      const char *shortopts, const struct option *longopts,
		      const char *help);

/* Parse a --format value: 0 with *out set, or -1 after printing an error
 * naming the formats in `allowed` (a NULL-ended list of names). */
int onlist_cli_format(struct onlist_cli *cli, const char *arg,
		      const char *const *allowed, enum onlist_fmt *out);

/* The word of `words` (NULL-ended) nearest to `w` by edit distance, or
 * NULL when none is close enough to be what was meant. */
const char *onlist_cli_nearest(const char *w, const char *const *words);

/* Each command gets argv after its own name (argv[0] is the command name). */
int cmd_import(struct onlist_cli *cli, int argc, char **argv);
int cmd_scan(struct onlist_cli *cli, int argc, char **argv);
int cmd_match(struct onlist_cli *cli, int argc, char **argv);
int cmd_unposted(struct onlist_cli *cli, int argc, char **argv);
int cmd_ignored(struct onlist_cli *cli, int argc, char **argv);
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
int cmd_update(struct onlist_cli *cli, int argc, char **argv);

/* complete.c: for contrib/completion/onlist.bash.  When argv is the
 * command's name and --list-opts (or --list-formats), print its options
 * (or formats) and return 1; else 0. */
int onlist_complete_opts(struct onlist_cli *cli, int argc, char **argv,
			 const char *shortopts, const struct option *longopts);
/* The list names of the database, one a line: an exit code. */
int onlist_complete_lists(struct onlist_cli *cli);

/* lookup MESSAGE-ID (ignored.c): whether an argument names a posting
 * (<id>, id@host, a public-inbox URL) rather than a commit */
int onlist_cli_is_posting_arg(const char *arg);
/* Say whether the posting was applied (which commit), answered, or
 * ignored (ignored.h), as text or one JSON object (after a "," unless
 * first).  The exit code lookup gives it: 0 applied, answered, another
 * project's; 1 ignored or not in the database; 3 not judged yet
 * (outside the scanned history, too recent); -1 when the database
 * failed (said). */
int onlist_cli_lookup_posting(struct onlist_cli *cli, struct onlist_store *s,
			      FILE *f, const char *arg, struct onlist_emit *e);

/* status (ignored.c): what onlist ignored judges against, a line of
 * text to f, or the member "ignored_scope" through e (JSON) when e is
 * not NULL.  0, or -1 after saying why. */
int onlist_cli_ignored_status(struct onlist_store *s, FILE *f,
			      struct onlist_emit *e);

/* The report's "Posted N weeks ago, still unanswered" (ignored.c): the
 * series ignored.h calls ignored whose age line falls in [since, until)
 * (0: open), read once (NULL after saying why it failed); then, for a
 * period [since, until), those whose age line fell in it: counted,
 * written as a section in fmt (text, md, html) or as the line under the
 * chart, or (_emit) as the member "still_unanswered": {count, age_days,
 * series} of the map e is in.  url: the posting link's template, or
 * NULL.  Free accepts NULL; the others do nothing for NULL. */
struct onlist_cli_unanswered;
struct onlist_cli_unanswered *onlist_cli_unanswered_load(struct onlist_store *s,
							 const char *repo,
							 int64_t since,
							 int64_t until);
void onlist_cli_unanswered_free(struct onlist_cli_unanswered *u);
long onlist_cli_unanswered_count(const struct onlist_cli_unanswered *u,
				 int64_t since, int64_t until);
void onlist_cli_unanswered_emit(const struct onlist_cli_unanswered *u,
				 struct onlist_emit *e, int64_t since,
				 int64_t until, const char *url);
int onlist_cli_unanswered_put(const struct onlist_cli_unanswered *u, FILE *f,
			      enum onlist_fmt fmt, int64_t since, int64_t until,
			      const char *url);
void onlist_cli_unanswered_chart_line(const struct onlist_cli_unanswered *u,
				      FILE *f, int64_t since, int64_t until);

/* Print "onlist: <fmt>\n" to stderr, the message through the terminal
 * escaper (line ends kept). */
void onlist_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An error whose text came from elsewhere (git, a server, a mail, a
 * path), on one line of stderr: "onlist: WHERE: TEXT", both escaped,
 * line ends too.  where may be NULL. */
void onlist_err_text(const char *where, const char *text);
/* Set once either printed "the database is damaged" (onlist.c) */
extern int onlist_err_said_damage;

struct onlist_store;

/* The project's own release subjects, compiled into *re: onlist.releasePattern
 * in repo's git config (an ERE) and the `release subject GLOB` lines of the
 * rules the last match ran with (meta release_rules).  1 when there is one
 * (regfree it), 0 when there is none, -1 when it does not compile (said, as
 * CMD's error). */
int onlist_cli_release_pattern(const char *cmd, struct onlist_store *s,
			       const char *repo, regex_t *re);
/* Say why onlist_regex_compile() (regex.h) refused `re`, given as `what`
 * (an option or a configuration key), as CMD's error. */
void onlist_cli_regex_err(const char *cmd, const char *what,
			  const char *re, onlist_status st);

/* The verdict on one commit no posting matched (verdict.h), for commands
 * that meet such commits one by one.  Fill s, repo and cmd (for messages);
 * the archive's span and the release pattern are read at the first call.
 * onlist_cli_why() leaves the verdict in w->v and returns 0, or -1 after
 * saying why it failed; release with onlist_cli_why_release(). */
struct onlist_cli_why {
	struct onlist_store *s;
	const char *repo, *cmd;
	int ready;		/* 0: not read yet, 1: read, -1: failed */
	int remote;		/* lookup --remote: the server was asked (the
				 * verdict reads what it could answer) */
	struct onlist_span span;
	regex_t rel;
	int have_rel;
	struct onlist_verdict v;
	onlist_status st;
};
int onlist_cli_why(struct onlist_cli_why *w, const char *sha);

/* lookup/match --remote (lookup.c): ask the public-inbox inbox `url`
 * about each of the n commits names[] (git names in repo), import what
 * it answers into s, and match again.  shas[i] gets each one's full id
 * ("" when git knows no such commit: said already).  Prints one line per
 * problem; returns 0, -1 when a request or the database failed, -2 when
 * the URL names no inbox (said, with the inboxes the server lists; nothing
 * was asked about a commit).  The server is probed first (remote.h). */
struct onlist_cli_remote {
	const char *url, *repo;
	double pace;		/* < 0: the default */
	int refresh;
	long requests;		/* out: how many were made */
};
/* 1 when the URL's authority holds a password (scheme://user:pw@host):
 * it would be stored with the source, printed, and named in folders, so
 * fetch, lookup --remote and match --remote refuse it. */
int onlist_cli_url_has_password(const char *url);

int onlist_cli_remote_run(struct onlist_cli *cli, struct onlist_store *s,
			  struct onlist_cli_remote *ro, char *const *names,
			  int n, char (*shas)[41]);
void onlist_cli_why_release(struct onlist_cli_why *w);

/* path_show.c: the path a commit took (paths.h), as the commands show it.
 * The tree, fork or request a path went through (NULL: none named). */
const char *onlist_cli_path_via(const struct onlist_path *p);
/* The words after a reason: an embargo's text, a forge request, the tree
 * of an unannounced merge; NULL when the reason has none (a message-id is
 * v->msgid). */
const char *onlist_cli_reason_detail(const struct onlist_verdict *v);
/* JSON keys path, merge, pull_request, pull_list, via (null when none). */
void onlist_cli_emit_path(struct onlist_emit *e, const struct onlist_path *p);
/* "INDENTpath: pulled in <id> on LIST (DAY) from URL, then merged DAY in
 * SHA SUBJECT" and the like, one line; nothing when no landing is
 * known. */
void onlist_cli_put_path(FILE *f, const struct onlist_path *p,
			 const char *indent);
/* lookup's path and security lines (text) or members (JSON: path, merge,
 * pull_request, pull_list, via, security_relevant, security) for one
 * commit; v is its verdict when it was not posted.  -1 after saying why
 * it failed. */
int onlist_cli_lookup_path(FILE *out, struct onlist_emit *e,
			   struct onlist_store *s, const char *sha, int posted,
			   const struct onlist_verdict *v);
/* report: the section "Fixes that bypassed review" (text, md or html),
 * before every other: item(i, 0, data) says whether row i of n belongs
 * there, item(i, 1, data) prints it.  Nothing when no row does.  0 (a
 * write error is found when f is closed). */
int onlist_cli_report_security(FILE *f, enum onlist_fmt fmt, size_t n,
			       int (*item)(size_t i, int print, void *data),
			       void *data);

/* The database's path (see struct onlist_cli); never NULL. */
const char *onlist_cli_db(struct onlist_cli *cli);

/* Close `out` (opened on standard output) and return `ret`; or, when a
 * write failed (a full disk, a closed pipe), say so as "CMD: why" and
 * return ONLIST_EXIT_FAIL. */
int onlist_cli_out_close(struct onlist_cli *cli, struct onlist_out *out,
			 int ret);

/* Open the database named by --db; prints the error and returns NULL. */
struct onlist_store *onlist_cli_open_store(struct onlist_cli *cli);
/* The same for a command that only reads: nothing is written (a database
 * the user may not write can be read), unless it needs an upgrade. */
struct onlist_store *onlist_cli_open_store_read(struct onlist_cli *cli);


/* ---- listings ------------------------------------------------------------
 * A listing command prints the rows of a store reader on standard output,
 * a line of text each, or as one JSON array of objects:
 *
 *   static int print_row(const struct onlist_X_row *r, void *data)
 *   {
 *   	struct onlist_cli_rows *x = data;
 *
 *   	if (onlist_cli_row(x))
 *   		return 1;
 *   	...one map through the emitter x->e when x->json, else a line to x->f
 *   }
 *
 *   struct onlist_cli_rows x;
 *   onlist_cli_rows_open(&x, fmt);
 *   if (onlist_store_X(s, print_row, &x) != ONLIST_OK)
 *   	...say so, ret = ONLIST_EXIT_FAIL;
 *   return onlist_cli_rows_close(cli, &x, ret);
 *
 * The array and its separators are the emitter's.
 */
struct onlist_cli_rows {
	FILE *f;
	int json;
	struct onlist_emit *e;	/* JSON only: the array the rows go in */
	long n;			/* the rows printed so far */
	struct onlist_out out;
};
/* Standard output, and for JSON an emitter with the array open. */
void onlist_cli_rows_open(struct onlist_cli_rows *x, enum onlist_fmt fmt);
/* Before a row is printed: 0 (print it; counted), or 1 (stop: JSON was
 * asked for and the emitter could not be made). */
int onlist_cli_row(struct onlist_cli_rows *x);
/* The JSON array closed, then onlist_cli_out_close(): `ret`, or
 * ONLIST_EXIT_FAIL after a write error (said). */
int onlist_cli_rows_close(struct onlist_cli *cli, struct onlist_cli_rows *x,
			  int ret);

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

/* ---- RANGE -------------------------------------------------------------
 * For each commit of `range` (git's revision syntax, asked of the
 * repository `repo_opt`, else the one last scanned), oldest first, call
 * cb(s, sha, data).  cb returns ONLIST_OK, ONLIST_ENOTFOUND for a commit
 * the database does not hold (counted, and said once at the end), or
 * another status to stop (the store's error message is printed).
 * Returns an exit code: ONLIST_EXIT_OK, _FAIL, or _USAGE for a range git
 * refuses. */
struct onlist_store;
typedef onlist_status (*onlist_cli_range_cb)(struct onlist_store *s,
					     const char *sha, void *data);
int onlist_cli_range(struct onlist_cli *cli, struct onlist_store *s,
		     const char *repo_opt, const char *range,
		     onlist_cli_range_cb cb, void *data);

/* The same, handing each stored commit to a report callback as
 * onlist_store_report_commit() reads it (store_report.h); cb returning
 * non-zero (it could not keep the row) ends the walk with
 * ONLIST_EXIT_FAIL. */
struct onlist_report_commit;
typedef int (*onlist_report_cb)(const struct onlist_report_commit *c,
				void *data);
int onlist_cli_range_report(struct onlist_cli *cli, struct onlist_store *s,
			    const char *repo_opt, const char *range,
			    onlist_report_cb cb, void *data);


/* A date YYYY-MM-DD (nothing after it) as the Unix time of its 00:00
 * UTC in *out: 0, or -1 when s is not one. */
int onlist_cli_parse_day(const char *s, int64_t *out);

#endif
