/* cmd_common.c - what the subcommands share: opening the store, JSON
 * strings, progress lines. */
#include <stdarg.h>
#include <ctype.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "onlist/verdict.h"
#include "onlist/git.h"
#include "onlist/regex.h"
#include "onlist/store.h"

/* The database when --db did not name one: $ONLIST_DB, else `git config
 * onlist.db` (the repository in the current folder, then the user's and
 * the system's configuration, git's own precedence), else ./onlist.db.
 * Asked only once the command's options are read: --db may follow the
 * command's name. */
static void resolve_db(struct onlist_cli *cli)
{
	static char *owned;
	const char *env = getenv("ONLIST_DB"), *home;
	char *v = NULL;

	if (cli->db_path)
		return;
	if (env && *env) {
		cli->db_path = env;
		return;
	}
	cli->db_path = "onlist.db";
	if (onlist_git_config_get(".", "onlist.db", &v, NULL) != ONLIST_OK || !v)
		return;
	/* git config --type=path would expand ~/; its value as written
	 * does not */
	if (v[0] == '~' && v[1] == '/' && (home = getenv("HOME")) &&
	    asprintf(&owned, "%s%s", home, v + 1) >= 0) {
		free(v);
		v = owned;
	}
	if (*v)
		cli->db_path = owned = v;
	else
		free(v);
}

void onlist_err_text(const char *where, const char *text)
{
	fputs("onlist: ", stderr);
	if (where) {
		onlist_put_text(stderr, where);
		fputs(": ", stderr);
	}
	onlist_put_text(stderr, text);
	fputc('\n', stderr);
	if (strstr(text, "the database is damaged"))
		onlist_err_said_damage = 1;
}

/* A rules-file glob (only * and ? special, any case) as an anchored ERE,
 * letters spelt [xX] so that it ignores case inside a case-sensitive
 * expression, appended to g. */
static void glob_to_ere(GString *g, const char *glob)
{
	g_string_append(g, "(^");
	for (const unsigned char *p = (const unsigned char *)glob; *p; p++) {
		if (*p == '*')
			g_string_append(g, ".*");
		else if (*p == '?')
			g_string_append_c(g, '.');
		else if (isalpha(*p))
			g_string_append_printf(g, "[%c%c]", tolower(*p), toupper(*p));
		else if (*p == '^')
			g_string_append(g, "\\^");
		else if (strchr("\\$.[]|()+{}", *p))
			g_string_append_printf(g, "[%c]", *p);
		else
			g_string_append_c(g, (char)*p);
	}
	g_string_append(g, "$)");
}

void onlist_cli_regex_err(const char *cmd, const char *what,
			  const char *re, onlist_status st)
{
	if (st == ONLIST_EUSAGE)
		onlist_err("%s: %s: refused, it could take unbounded memory to "
			   "compile (allowed: %s): %s", cmd, what,
			   ONLIST_REGEX_LIMITS, re);
	else
		onlist_err("%s: %s: not a regular expression: %s", cmd, what, re);
}

int onlist_cli_release_pattern(const char *cmd, struct onlist_store *s,
			       const char *repo, regex_t *re)
{
	char *pat = onlist_git_config(repo, "onlist.releasePattern");
	char *globs = s ? onlist_store_get_meta(s, "release_rules") : NULL;
	GString *g = g_string_new(NULL);
	onlist_status st;
	int ret = 0;

	if (pat) {
		/* the scanned repository's configuration: input like any */
		if ((st = onlist_regex_compile(re, pat, REG_EXTENDED | REG_NOSUB))
		    != ONLIST_OK) {
			onlist_cli_regex_err(cmd, "onlist.releasePattern", pat, st);
			ret = -1;
			goto out;
		}
		regfree(re);
		g_string_append_printf(g, "(%s)", pat);
	}
	for (char *line = globs, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		if (!*line)
			continue;
		if (g->len)
			g_string_append_c(g, '|');
		glob_to_ere(g, line);
	}
	if (g->len) {
		if (regcomp(re, g->str, REG_EXTENDED | REG_NOSUB)) {
			onlist_err("%s: the release rules do not compile: %s",
				   cmd, g->str);
			ret = -1;
		} else {
			ret = 1;
		}
	}
out:
	g_string_free(g, TRUE);
	free(pat);
	free(globs);
	return ret;
}

int onlist_cli_url_has_password(const char *url)
{
	const char *p = strstr(url, "://"), *at = NULL;
	size_t n;

	if (!p)
		return 0;
	p += 3;
	n = strcspn(p, "/?#");
	for (size_t i = 0; i < n; i++)
		if (p[i] == '@')
			at = p + i;
	return at && memchr(p, ':', (size_t)(at - p)) != NULL;
}

const char *onlist_cli_db(struct onlist_cli *cli)
{
	resolve_db(cli);
	return cli->db_path;
}

/* ONLIST_TIMING: each statement that took more than 50 ms, with its time
 * (a developer's aid, like the timing lines of match and scan). */
static void slow_statement(void *data, double seconds, const char *sql)
{
	(void)data;
	fprintf(stderr, "timing: %.3f s: %.200s\n", seconds, sql);
}

static void trace_if_asked(struct onlist_store *s)
{
	if (getenv("ONLIST_TIMING"))
		onlist_store_trace(s, slow_statement, NULL);
}

struct onlist_store *onlist_cli_open_store(struct onlist_cli *cli)
{
	resolve_db(cli);
	struct onlist_store *s;
	char *err = NULL;

	if (onlist_store_open(&s, cli->db_path, &err) != ONLIST_OK) {
		onlist_err("cannot open database %s", err ? err : cli->db_path);
		free(err);
		return NULL;
	}
	trace_if_asked(s);
	return s;
}

int onlist_cli_out_close(struct onlist_cli *cli, struct onlist_out *out,
			 int ret)
{
	char *err = NULL;

	if (onlist_out_close(out, 1, &err) == ONLIST_OK)
		return ret;
	onlist_err("%s: %s", cli->cmd, err ? err : "write error");
	free(err);
	return ONLIST_EXIT_FAIL;
}

void onlist_cli_rows_open(struct onlist_cli_rows *x, enum onlist_fmt fmt)
{
	x->out = (struct onlist_out)ONLIST_OUT_INIT;
	onlist_out_open(&x->out, NULL, NULL);	/* standard output: cannot fail */
	x->f = x->out.f;
	x->json = fmt == ONLIST_FMT_JSON;
	x->e = NULL;
	x->n = 0;
	if (x->json && (x->e = onlist_emit_new(x->f, fmt)))
		onlist_emit_begin_list(x->e, ONLIST_EMIT_LINES);
}

int onlist_cli_row(struct onlist_cli_rows *x)
{
	if (x->json && !x->e)
		return 1;	/* out of memory at open: stop */
	x->n++;
	return 0;
}

int onlist_cli_rows_close(struct onlist_cli *cli, struct onlist_cli_rows *x,
			  int ret)
{
	if (x->json) {
		if (!x->e) {
			onlist_err("out of memory");
			ret = ONLIST_EXIT_FAIL;
		} else {
			onlist_emit_end(x->e);
		}
		onlist_emit_free(x->e);
		x->e = NULL;
	}
	return onlist_cli_out_close(cli, &x->out, ret);
}

struct onlist_store *onlist_cli_open_store_read(struct onlist_cli *cli)
{
	struct onlist_store *s;
	onlist_status st;
	char *err = NULL;

	resolve_db(cli);
	if ((st = onlist_store_open_read(&s, cli->db_path, &err)) != ONLIST_OK) {
		if (st == ONLIST_ENOTFOUND && err)
			onlist_err("%s", err);	/* says what to do */
		else
			onlist_err("cannot open database %s",
				   err ? err : cli->db_path);
		free(err);
		return NULL;
	}
	if (onlist_store_notice(s))
		onlist_err("warning: %s", onlist_store_notice(s));
	trace_if_asked(s);
	if (onlist_store_begin_read(s) != ONLIST_OK) {
		onlist_err("cannot read database %s: %s", cli->db_path,
			   onlist_store_errmsg(s));
		onlist_store_close(s);
		return NULL;
	}
	return s;
}

void onlist_fmt_date(const char *epoch, char *out, size_t n, int with_time)
{
	time_t t = epoch ? (time_t)atoll(epoch) : 0;
	struct tm tm;

	if (!epoch || !gmtime_r(&t, &tm)) {
		snprintf(out, n, "?");
		return;
	}
	strftime(out, n, with_time ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d", &tm);
}

double onlist_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void onlist_progress_init(struct onlist_progress *p, struct onlist_cli *cli)
{
	p->on = !cli->quiet && isatty(2);
	p->start = p->last = onlist_now();
	p->printed = 0;
}

void onlist_progress(struct onlist_progress *p, const char *fmt, ...)
{
	va_list ap;
	double now;

	if (!p->on)
		return;
	now = onlist_now();
	if (now - p->last < 0.25)
		return;
	p->last = now;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	p->printed = 1;
}

void onlist_progress_done(struct onlist_progress *p)
{
	if (p->on && p->printed)
		fputs("\r\033[K", stderr);
	p->printed = 0;
}

/* "CMD: " for a command's messages; nothing before the command's name */
#define CMD(cli) ((cli)->cmd ? (cli)->cmd : ""), ((cli)->cmd ? ": " : "")

/* Edit distance, capped: enough to rank a few dozen names.  Two adjacent
 * letters swapped count as one edit (optimal string alignment), so that
 * --fromat is nearer --format than --from. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), r0[64], r1[64], r2[64], *pp = r0,
	       *p = r1, *c = r2, *t, best;

	if (la >= 63 || lb >= 63)
		return 64;
	for (size_t j = 0; j <= lb; j++)
		p[j] = j;
	for (size_t i = 1; i <= la; i++) {
		c[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			best = p[j - 1] + (a[i - 1] != b[j - 1]);
			if (p[j] + 1 < best)
				best = p[j] + 1;
			if (c[j - 1] + 1 < best)
				best = c[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			c[j] = best;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[lb];
}

const char *onlist_cli_nearest(const char *w, const char *const *words)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1, d;

	for (; *words; words++) {
		d = distance(w, *words);
		/* a prefix of a longer name is close whatever its length */
		if (*w && !strncmp(*words, w, strlen(w)))
			d = d < 1 ? d : 1;
		if (d < bestd) {
			bestd = d;
			best = *words;
		}
	}
	/* more than a third of the word changed is another word */
	return best && bestd <= 1 + strlen(w) / 3 ? best : NULL;
}

static void unknown_option(struct onlist_cli *cli, const char *arg,
			   const struct option *longopts)
{
	const char *names[128], *near;
	char name[64];
	size_t n = 0;

	if (arg[0] == '-' && arg[1] == '-') {
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg + 2, "="),
			 arg + 2);
		for (; longopts->name && n < 127; longopts++)
			names[n++] = longopts->name;
		names[n] = NULL;
		near = onlist_cli_nearest(name, names);
		if (near) {
			onlist_err("%s%sunknown option '--%s'; did you mean '--%s'?",
				   CMD(cli), name, near);
			return;
		}
		onlist_err("%s%sunknown option '--%s'", CMD(cli), name);
		return;
	}
	onlist_err("%s%sunknown option '-%c'", CMD(cli), optopt ? optopt : '?');
}

int onlist_cli_getopt(struct onlist_cli *cli, int argc, char **argv,
		      const char *shortopts, const struct option *longopts,
		      const char *help)
{
	char so[64];
	int c, at;

	/* ':' first (after a '+'): a missing argument is told apart from an
	 * unknown option */
	if (!shortopts)
		shortopts = "";
	if (onlist_complete_opts(cli, argc, argv, shortopts, longopts))
		return ONLIST_OPT_HELP;
	if (*shortopts == '+')
		snprintf(so, sizeof(so), "+:%sqh", shortopts + 1);
	else
		snprintf(so, sizeof(so), ":%sqh", shortopts);
	for (;;) {
		opterr = 0;
		at = optind;
		c = getopt_long(argc, argv, so, longopts, NULL);
		switch (c) {
		case -1:
			if (cli->cmd)	/* a command's options are all read */
				resolve_db(cli);
			return -1;
		case ONLIST_OPT_DB:
			cli->db_path = optarg;
			continue;
		case 'q':
			cli->quiet = 1;
			continue;
		case ONLIST_OPT_FORMAT:
		case ONLIST_OPT_JSON:
			if (!cli->formats) {
				onlist_err("%s%sprints no data: no --format or --json",
					   CMD(cli));
				return ONLIST_OPT_ERROR;
			}
			if (c == ONLIST_OPT_JSON)
				optarg = "json";
			if (onlist_cli_format(cli, optarg, cli->formats, cli->fmt))
				return ONLIST_OPT_ERROR;
			continue;
		case 'h':
			fputs(help, stdout);
			return ONLIST_OPT_HELP;
		case ':':
			onlist_err("%s%soption '%s' needs a value", CMD(cli),
				   argv[optind - 1] ? argv[optind - 1] : "?");
			return ONLIST_OPT_ERROR;
		case '?':
			unknown_option(cli, at < argc && optind > at ?
					     argv[optind - 1] : argv[at < argc ? at : argc - 1],
				       longopts);
			return ONLIST_OPT_ERROR;
		default:
			return c;
		}
	}
}

int onlist_cli_pace(const char *cmd, const char *arg, double *out)
{
	char *end;

	*out = strtod(arg, &end);
	if (*end || end == arg || !(*out >= 0) || *out > 3600) {
		onlist_err("%s: --pace wants seconds, 0 to 3600", cmd);
		return -1;
	}
	return 0;
}

int onlist_cli_stop(int c)
{
	return c == ONLIST_OPT_HELP ? ONLIST_EXIT_OK : ONLIST_EXIT_USAGE;
}

int onlist_cli_operands(struct onlist_cli *cli, int argc, char **argv,
			int min, int max, const char *help)
{
	int n = argc - optind;

	if (n < min) {
		fputs(help, stderr);
		return -1;
	}
	if (max >= 0 && n > max) {
		onlist_err("%s%sunexpected argument '%s'", CMD(cli), argv[optind + max]);
		return -1;
	}
	return 0;
}

int onlist_cli_operand(struct onlist_cli *cli, int argc, char **argv,
		       const char **out, const char *help)
{
	if (onlist_cli_operands(cli, argc, argv, 0, 1, help))
		return -1;
	if (optind < argc)
		*out = argv[optind];
	return 0;
}

int onlist_cli_parse(struct onlist_cli *cli, int argc, char **argv,
		     const char *help, int min, int max)
{
	static const struct option opts[] = { ONLIST_CLI_GLOBAL_OPTIONS };
	int c;

	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts, help)) != -1)
		return onlist_cli_stop(c);
	if (onlist_cli_operands(cli, argc, argv, min, max, help))
		return ONLIST_EXIT_USAGE;
	return -1;
}

void onlist_cli_formats(struct onlist_cli *cli, const char *const *formats,
			enum onlist_fmt *fmt)
{
	cli->formats = formats;
	cli->fmt = fmt;
}

int onlist_cli_format(struct onlist_cli *cli, const char *arg,
		      const char *const *allowed, enum onlist_fmt *out)
{
	char list[128] = "";

	for (const char *const *a = allowed; *a; a++)
		if (!strcmp(arg, *a) && onlist_fmt_parse(arg, out) == ONLIST_OK)
			return 0;
	for (const char *const *a = allowed; *a; a++) {
		if (a != allowed)
			strncat(list, a[1] ? ", " : " or ", sizeof(list) - strlen(list) - 1);
		strncat(list, *a, sizeof(list) - strlen(list) - 1);
	}
	onlist_err("%s%s--format is %s, not '%s'", CMD(cli), list, arg);
	return -1;
}

/* ---- why a commit was never posted (verdict.h), for lookup and export */


static int why_row(const struct onlist_unposted_row *r, void *data)
{
	struct onlist_cli_why *w = data;

	w->st = onlist_verdict_unposted(w->s, &w->span,
					w->have_rel > 0 ? &w->rel : NULL, r->sha,
					r->subject, r->body, r->files, r->landed,
					&w->v);
	return 1;
}

int onlist_cli_why(struct onlist_cli_why *w, const char *sha)
{
	onlist_verdict_release(&w->v);
	if (!w->ready) {
		w->ready = 1;
		if ((w->have_rel = onlist_cli_release_pattern(w->cmd, w->s,
							     w->repo, &w->rel)) < 0 ||
		    onlist_span_get(w->s, &w->span) != ONLIST_OK)
			w->ready = -1;
	}
	if (w->ready < 0)
		return -1;
	w->st = ONLIST_OK;
	if (onlist_store_unposted_commit(w->s, sha, why_row, w) != ONLIST_OK ||
	    w->st != ONLIST_OK) {
		onlist_err("%s: %s", w->cmd, onlist_store_errmsg(w->s));
		return -1;
	}
	return 0;
}

void onlist_cli_why_release(struct onlist_cli_why *w)
{
	onlist_verdict_release(&w->v);
	if (w->have_rel > 0)
		regfree(&w->rel);
	w->have_rel = 0;
}

int onlist_cli_parse_day(const char *s, int64_t *out)
{
	struct tm tm = { 0 };
	int y, m, d;
	char c;

	if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &c) != 3 || m < 1 ||
	    m > 12 || d < 1 || d > 31)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	*out = (int64_t)timegm(&tm);
	return 0;
}
