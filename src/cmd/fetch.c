/* fetch.c - onlist fetch [SOURCE...]: the options, the sources to
 * fetch, progress and what is printed; the stage itself is the library's
 * (src/fetch.c, fetch.h). */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "onlist/fetch.h"
#include "onlist/git.h"
#include "onlist/store.h"

static const char help[] =
	"usage: onlist [--db PATH] fetch [OPTIONS] [--format text|json | --json]\n"
	"                                [SOURCE...]\n\n"
	"Bring mail archives up to date, incrementally.  SOURCE is one of\n"
	"  https://lore.kernel.org/LIST/   a public-inbox inbox: its epoch git\n"
	"                  repositories are mirrored under the data directory\n"
	"                  (git clone, then git fetch) and the new messages of\n"
	"                  each epoch imported; with --since/--until/--query\n"
	"                  only that window is downloaded, as mbox.gz\n"
	"  URL of an mbox, mbox.gz or a public-inbox /raw or /t.mbox.gz\n"
	"                  downloaded (conditionally: ETag/Last-Modified)\n"
	"  PATH            an mbox, mbox.gz, maildir, or a public-inbox\n"
	"                  directory (v2: PATH/git/N.git; v1: a bare repository)\n"
	"                  read in place\n"
	"Sources are remembered; with no SOURCE every remembered one is\n"
	"refreshed (windows are not remembered).\n\n"
	"  --list NAME       the list name (default: from the URL or file name)\n"
	"  --data DIR        mirrors and downloads (default: onlist-data/ next\n"
	"                    to the database)\n"
	"  --since DATE      window start, YYYY-MM-DD (public-inbox URLs)\n"
	"  --until DATE      window end, YYYY-MM-DD\n"
	"  --query Q         a public-inbox search query (e.g. 's:O_TMPFILE')\n"
	"  --retries N       attempts after the first on network errors (5)\n"
	"  --pace SECONDS    minimum gap between requests to one host (1)\n"
	"  --insecure        do not verify TLS certificates\n"
	"  --timeout SECONDS the most one source may take, transfers and git\n"
	"                    clones together (21600: 6 hours, for a whole\n"
	"                    mirror); a stall (under 1 KiB/s for 60 s) is cut\n"
	"                    and retried before that\n"
	"  --max-epochs N    epochs to clone at most, whatever the inbox's\n"
	"                    manifest.js.gz says (64); an epoch that repeats\n"
	"                    an earlier one (the same last commit, or only\n"
	"                    its messages) ends the walk too\n"
	"  --format json     print the counts as one JSON object: {sources:\n"
	"                    [{source, list, ok, messages, new, patches,\n"
	"                    skipped}], messages, new, patches, skipped}\n\n"
	"Only one fetch runs on a database at a time.  Exit status: 0 when\n"
	"every source was brought up to date, 1 when one failed (the others\n"
	"are still fetched), 2 on usage errors.\n";

/* What fetch prints on standard output: a line per source, or one JSON
 * object with an element per source and the totals:
 *   {"sources": [
 *     {"source": ..., "list": ..., "ok": true, "messages": N, ...}
 *   ], "messages": N, "new": N, "patches": N, "skipped": N}
 */
struct fetch_report {
	FILE *f;
	struct onlist_emit *e;	/* JSON: the map, its "sources" list open */
	struct onlist_import_counts total;
};

static void report_source(struct fetch_report *r, const char *what,
			  const char *list, int ok,
			  const struct onlist_import_counts *c)
{
	r->total.messages += c->messages;
	r->total.added += c->added;
	r->total.patches += c->patches;
	r->total.skipped += c->skipped;
	if (!r->e) {
		onlist_put_text(r->f, what);
		fprintf(r->f, ": %ld messages, %ld new, %ld with patch, "
			"%ld skipped\n", c->messages, c->added, c->patches,
			c->skipped);
		return;
	}
	onlist_emit_begin_map(r->e, 0);
	onlist_emit_kstrs(r->e, "source", what,
			  "list", list, NULL);
	onlist_emit_kbool(r->e, "ok", ok);
	onlist_emit_kint(r->e, "messages", c->messages);
	onlist_emit_kint(r->e, "new", c->added);
	onlist_emit_kint(r->e, "patches", c->patches);
	onlist_emit_kint(r->e, "skipped", c->skipped);
	onlist_emit_end(r->e);
}

/* The totals after the last source, and the object closed. */
static void report_end(struct fetch_report *r)
{
	if (!r->e)
		return;
	onlist_emit_end(r->e);
	onlist_emit_kint(r->e, "messages", r->total.messages);
	onlist_emit_kint(r->e, "new", r->total.added);
	onlist_emit_kint(r->e, "patches", r->total.patches);
	onlist_emit_kint(r->e, "skipped", r->total.skipped);
	onlist_emit_end(r->e);
	onlist_emit_free(r->e);
}
static void human(char *buf, size_t sz, double bytes)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, sz, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

/* A download's progress line: "all.mbox.gz: 3.1 MiB of 9.0 MiB, 1.2 MiB/s,
 * ETA 0:05"; the library calls it (http.h), have < 0 clears it. */
static void http_progress(const char *label, double have, double total,
			  double rate, void *data)
{
	struct onlist_progress *p = data;
	char h[32], t[48] = "", r[32], eta[32] = "";

	if (have < 0) {
		onlist_progress_done(p);
		return;
	}
	human(h, sizeof(h), have);
	human(r, sizeof(r), rate);
	if (total > 0) {
		char tt[32];

		human(tt, sizeof(tt), total);
		snprintf(t, sizeof(t), " of %s", tt);
		if (rate > 0 && total >= have) {
			long sec = (long)((total - have) / rate);

			snprintf(eta, sizeof(eta), ", ETA %ld:%02ld",
				 sec / 60, sec % 60);
		}
	}
	onlist_progress(p, "%s: %s%s, %s/s%s", label, h, t, r, eta);
}

/* The epoch walk's progress line (fetch.h): "fetch: URL epoch:N: 2000
 * messages, 1990 new" */
struct walk_progress {
	struct onlist_cli *cli;
	struct onlist_progress p;
};

static void walk_progress(enum onlist_fetch_step step, const char *url,
			  const char *key, const struct onlist_import_counts *c,
			  void *data)
{
	struct walk_progress *w = data;

	if (step == ONLIST_FETCH_WALK_START)
		onlist_progress_init(&w->p, w->cli);
	else if (step == ONLIST_FETCH_WALK_BATCH)
		onlist_progress(&w->p, "fetch: %s %s: %ld messages, %ld new",
				url, key, c->messages, c->added);
	else
		onlist_progress_done(&w->p);
}

/* One source: 0, -1 when it failed, -2 when it was a usage error (a
 * window on a local path); said, and reported on standard output. */
static int fetch_one(struct onlist_store *s, const char *arg,
		     const char *list_opt, const struct onlist_fetch_opts *o,
		     int explicit, struct fetch_report *r)
{
	struct onlist_import_counts c = { 0, 0, 0, 0 };
	char *list = list_opt ? strdup(list_opt) : onlist_fetch_list_name(arg),
	     *err = NULL;
	onlist_status st;

	if (onlist_cli_url_has_password(arg)) {
		/* a source remembered by an older onlist */
		onlist_err("fetch: a remembered source holds a password: "
			   "skipped (remove it from the sources table)");
		free(list);
		return -1;
	}
	if (!list)
		return -1;
	st = onlist_fetch_source(s, arg, list, o, explicit, &c, &err);
	if (err)
		onlist_err_text(NULL, err);
	free(err);
	if (st == ONLIST_EUSAGE) {
		free(list);
		return -2;
	}
	report_source(r, arg, list, st == ONLIST_OK, &c);
	free(list);
	return st == ONLIST_OK ? 0 : -1;
}
struct source_list {
	char **url, **list;
	size_t n;
};

static int collect_source(const struct onlist_source_row *r, void *data)
{
	struct source_list *l = data;
	char **u, **li;

	u = realloc(l->url, (l->n + 1) * sizeof(*u));
	if (u)
		l->url = u;
	li = realloc(l->list, (l->n + 1) * sizeof(*li));
	if (li)
		l->list = li;
	if (!u || !li)
		return 1;
	l->url[l->n] = strdup(r->url);
	l->list[l->n] = strdup(r->list);
	l->n++;
	return 0;
}

/* A clone runs in a process group of its own (so that a deadline can
 * end it with its helpers): it gets no signal from the terminal, and
 * would outlive an onlist that is killed.  Pass the signal on to it, then
 * end as the signal says. */
static void on_fatal_signal(int sig)
{
	onlist_git_signal_groups(SIGTERM);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void pass_signals_to_git(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++) {
		struct sigaction old;

		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

/* --since and --until: a real date, YYYY-MM-DD (it goes into a query). */
static int is_date(const char *s)
{
	struct tm tm;
	int y, m, d;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return 0;
	if (sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3)
		return 0;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	tm.tm_hour = 12;
	tm.tm_isdst = -1;
	/* mktime() normalises 2024-02-30 to March: not the date given */
	return mktime(&tm) != (time_t)-1 && tm.tm_year == y - 1900 &&
	       tm.tm_mon == m - 1 && tm.tm_mday == d;
}

/* A number from 0 to max for --retries and --pace: 0, or -1 after
 * saying why. */
static int number(const char *opt, const char *arg, double max, double *out)
{
	char *end;

	*out = strtod(arg, &end);
	if (end == arg || *end || !(*out >= 0 && *out <= max)) {
		onlist_err("fetch: %s takes a number from 0 to %g, not '%s'",
			   opt, max, arg);
		return -1;
	}
	return 0;
}

int cmd_fetch(struct onlist_cli *cli, int argc, char **argv)
{
	enum {
		OPT_LIST = ONLIST_OPT_FIRST_LONG, OPT_DATA, OPT_SINCE, OPT_UNTIL,
		OPT_QUERY, OPT_RETRIES, OPT_PACE, OPT_INSECURE, OPT_TIMEOUT, OPT_MAX_EPOCHS,
	};
	static const struct option opts[] = {
		{ "list", required_argument, NULL, OPT_LIST },
		{ "data", required_argument, NULL, OPT_DATA },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "query", required_argument, NULL, OPT_QUERY },
		{ "retries", required_argument, NULL, OPT_RETRIES },
		{ "pace", required_argument, NULL, OPT_PACE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "max-epochs", required_argument, NULL, OPT_MAX_EPOCHS },
		{ "insecure", no_argument, NULL, OPT_INSECURE },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct fetch_report r = { NULL, NULL, { 0, 0, 0, 0 } };
	struct onlist_fetch_opts o = ONLIST_FETCH_OPTS_INIT;
	struct onlist_fetch_lock *lock = NULL;
	struct onlist_store *s;
	struct onlist_progress http_prog;
	struct walk_progress walk = { cli, { 0, 0, 0, 0 } };
	struct source_list l = { NULL, NULL, 0 };
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	const char *data_opt = NULL, *list = NULL;
	char *data = NULL, *err = NULL;
	double x;
	int c, ret = ONLIST_EXIT_OK;

	o.progress = walk_progress;
	o.progress_data = &walk;
	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts, help)) != -1) {
		switch (c) {
		case OPT_LIST:
			list = optarg;
			break;
		case OPT_DATA:
			data_opt = optarg;
			break;
		case OPT_SINCE:
			o.since = optarg;
			break;
		case OPT_UNTIL:
			o.until = optarg;
			break;
		case OPT_QUERY:
			o.query = optarg;
			break;
		case OPT_RETRIES:
			if (number("--retries", optarg, 1000, &x) < 0)
				return ONLIST_EXIT_USAGE;
			o.http.retries = (int)x;
			break;
		case OPT_PACE:
			/* an hour: usleep() counts in 32 bits */
			if (number("--pace", optarg, 3600, &x) < 0)
				return ONLIST_EXIT_USAGE;
			o.http.pace = x;
			break;
		case OPT_INSECURE:
			o.http.insecure = 1;
			break;
		case OPT_TIMEOUT:
			/* a week; 0 is no limit */
			if (number("--timeout", optarg, 7 * 86400, &x) < 0)
				return ONLIST_EXIT_USAGE;
			o.timeout = x;
			break;
		case OPT_MAX_EPOCHS:
			if (number("--max-epochs", optarg, 1000000, &x) < 0 || x < 1) {
				if (x < 1)
					onlist_err("fetch: --max-epochs takes 1 or more");
				return ONLIST_EXIT_USAGE;
			}
			o.max_epochs = (int)x;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	/* after the loop: -q may follow the command's name */
	if (!cli->quiet && isatty(STDERR_FILENO)) {
		onlist_progress_init(&http_prog, cli);
		o.http.progress = http_progress;
		o.http.progress_data = &http_prog;
	}
	if ((o.since && !is_date(o.since)) || (o.until && !is_date(o.until))) {
		onlist_err("fetch: --since and --until take a date, YYYY-MM-DD");
		return ONLIST_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
		if (onlist_cli_url_has_password(argv[i])) {
			/* not printed: the password would be on the screen */
			onlist_err("fetch: source %d holds a password "
				   "(https://user:password@host/): refused, it "
				   "would be stored in the database and named in "
				   "folders; give the URL without it", i - optind + 1);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (optind == argc && (o.since || o.until || o.query)) {
		onlist_err("fetch: a window needs a SOURCE");
		return ONLIST_EXIT_USAGE;
	}
	if (data_opt) {
		data = strdup(data_opt);
	} else {
		/* Beside the database, so one database keeps one data dir. */
		char *slash = strrchr(cli->db_path, '/');
		if (asprintf(&data, "%.*sonlist-data",
			     slash ? (int)(slash - cli->db_path + 1) : 0,
			     cli->db_path) < 0)
			data = NULL;
	}
	if (!(o.data = data))
		return ONLIST_EXIT_FAIL;
	if (onlist_fetch_lock(&lock, cli->db_path, &err) != ONLIST_OK) {
		if (err)
			onlist_err_text(NULL, err);
		free(err);
		free(data);
		return ONLIST_EXIT_FAIL;
	}
	if (!(s = onlist_cli_open_store(cli))) {
		free(data);
		onlist_fetch_unlock(lock);
		return ONLIST_EXIT_FAIL;
	}
	onlist_store_stream_mode(s);
	pass_signals_to_git();
	/* The epoch mirrors are git's downloads: --insecure goes to git
	 * through its environment, which every git child inherits. */
	if (o.http.insecure)
		setenv("GIT_SSL_NO_VERIFY", "1", 1);
	onlist_http_init();
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	r.f = out.f;
	if (fmt == ONLIST_FMT_JSON && (r.e = onlist_emit_new(r.f, fmt))) {
		onlist_emit_begin_map(r.e, 0);
		onlist_emit_key(r.e, "sources");
		onlist_emit_begin_list(r.e, ONLIST_EMIT_LINES);
	}
	if (optind == argc) {
		if (onlist_store_sources(s, collect_source, &l) != ONLIST_OK) {
			onlist_err("fetch: %s", onlist_store_errmsg(s));
			ret = ONLIST_EXIT_FAIL;
		} else if (l.n == 0) {
			onlist_err("fetch: no sources yet; give one, e.g. "
				   "onlist fetch https://lore.kernel.org/linux-fsdevel/");
			ret = ONLIST_EXIT_USAGE;
		}
		for (size_t k = 0; k < l.n; k++) {
			if (fetch_one(s, l.url[k], list ? list : l.list[k],
				      &o, 0, &r) != 0)
				ret = ONLIST_EXIT_FAIL;
			free(l.url[k]);
			free(l.list[k]);
		}
		free(l.url);
		free(l.list);
	} else {
		for (int i = optind; i < argc; i++) {
			int rc = fetch_one(s, argv[i], list, &o, 1, &r);
			if (rc == -2)
				ret = ONLIST_EXIT_USAGE;
			else if (rc != 0 && ret == ONLIST_EXIT_OK)
				ret = ONLIST_EXIT_FAIL;
		}
	}
	report_end(&r);
	onlist_http_cleanup();
	onlist_store_close(s);
	free(data);
	onlist_fetch_unlock(lock);
	ret = onlist_cli_out_close(cli, &out, ret);
	return ret;
}
