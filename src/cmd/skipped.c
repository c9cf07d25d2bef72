/* skipped.c - onlist skipped: the messages that could not be read, and the
 * commits that could not be diffed, and why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>

#include "cli.h"
#include "onlist/store.h"
#include "onlist/store_thread.h"

static const char skipped_help[] =
	"usage: onlist [--db PATH] skipped [--by-reason] [--format text|json | --json]\n"
	"                                  [SOURCE]\n"
	"       onlist [--db PATH] skipped --commits [--format text|json | --json]\n\n"
	"List the messages that could not be read, with where they were\n"
	"(file and byte offset, or maildir file) and why.  SOURCE limits the\n"
	"list to one file or directory (a glob pattern may be given);\n"
	"--by-reason counts them per reason instead.  --commits lists the\n"
	"commits `onlist scan` could not diff (an object missing from the\n"
	"repository): stored without a patch-id, with git's message.\n\n"
	"  text: SOURCE:OFFSET: REASON per line, or COUNT REASON,\n"
	"        or COMMIT: REASON (its lines joined with \"; \")\n"
	"  json: an array of {source, offset, reason}, or of {reason, count},\n"
	"        or of {commit, object, subject, reason}\n";

static void print_skip(struct onlist_cli_rows *x, int ncol,
		       const char *const *c)
{
	long offset = c[1] ? atol(c[1]) : 0;

	(void)ncol;
	if (x->json) {
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kstr(x->e, "source", c[0] ? c[0] : "");
		onlist_emit_kint(x->e, "offset", offset);
		onlist_emit_kstr(x->e, "reason", c[2] ? c[2] : "");
		onlist_emit_end(x->e);
	} else {
		onlist_put_text(x->f, c[0] ? c[0] : "");
		fprintf(x->f, ":%ld: ", offset);
		onlist_put_text(x->f, c[2] ? c[2] : "");
		fputc('\n', x->f);
	}
}

static void print_reason(struct onlist_cli_rows *x, int ncol,
			 const char *const *c)
{
	long count = c[1] ? atol(c[1]) : 0;

	(void)ncol;
	if (x->json) {
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kstr(x->e, "reason", c[0] ? c[0] : "");
		onlist_emit_kint(x->e, "count", count);
		onlist_emit_end(x->e);
	} else {
		fprintf(x->f, "%7ld  ", count);
		onlist_put_text(x->f, c[0] ? c[0] : "");
		fputc('\n', x->f);
	}
}

/* A commit scan could not diff: sha, object, reason, subject. */
static void print_commit(struct onlist_cli_rows *x, int ncol,
			 const char *const *c)
{
	const char *p, *nl;
	int first = 1;

	(void)ncol;
	if (x->json) {
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kstr(x->e, "commit", c[0]);
		onlist_emit_kstr(x->e, "object", c[1]);
		onlist_emit_kstr(x->e, "subject", c[3]);
		onlist_emit_kstr(x->e, "reason", c[2]);
		onlist_emit_end(x->e);
	} else {
		onlist_put_text(x->f, c[0] ? c[0] : "");
		fputs(":", x->f);
		/* git's message may take several lines ("could not read from
		 * remote repository" and the rest): one line per commit */
		for (p = c[2] ? c[2] : ""; *p; p = *nl ? nl + 1 : nl) {
			char *line;

			nl = p + strcspn(p, "\n");
			if (nl == p)
				continue;
			line = g_strndup(p, (gsize)(nl - p));
			fputs(first ? " " : "; ", x->f);
			onlist_put_text(x->f, line);
			g_free(line);
			first = 0;
		}
		fputc('\n', x->f);
	}
}

int cmd_skipped(struct onlist_cli *cli, int argc, char **argv)
{
	enum { OPT_BY_REASON = ONLIST_OPT_FIRST_LONG, OPT_COMMITS };
	static const struct option opts[] = {
		{ "by-reason", no_argument, NULL, OPT_BY_REASON },
		{ "commits", no_argument, NULL, OPT_COMMITS },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_store *s;
	struct onlist_cli_rows x;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	int c, by_reason = 0, commits = 0, ret = ONLIST_EXIT_OK;
	const char *p[1] = { NULL };
	char *glob = NULL;

	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts,
				      skipped_help)) != -1) {
		switch (c) {
		case OPT_BY_REASON:
			by_reason = 1;
			break;
		case OPT_COMMITS:
			commits = 1;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	if (optind < argc - 1 || (commits && (by_reason || optind < argc))) {
		fputs(skipped_help, stderr);
		return ONLIST_EXIT_USAGE;
	}
	if (optind == argc - 1) {
		/* A directory names the maildir files below it too. */
		glob = strpbrk(argv[optind], "*?[") ? g_strdup(argv[optind]) :
		       g_strdup_printf("%s*", argv[optind]);
		p[0] = glob;
	}
	if (!(s = onlist_cli_open_store_read(cli))) {
		g_free(glob);
		return ONLIST_EXIT_FAIL;
	}
	onlist_cli_rows_open(&x, fmt, commits ? print_commit :
			     by_reason ? print_reason : print_skip);
	if (commits ? onlist_store_query(s, ONLIST_Q_SKIPPED_COMMITS, NULL, 0,
					 onlist_cli_row, &x) != ONLIST_OK :
	    onlist_store_query(s, by_reason ? ONLIST_Q_SKIPPED_BY_REASON :
			       ONLIST_Q_SKIPPED, p, 1, onlist_cli_row, &x)
	    != ONLIST_OK) {
		onlist_err("skipped: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
	}
	if (!x.json && !x.n && ret == ONLIST_EXIT_OK && !cli->quiet)
		fputs(commits ? "no skipped commits\n" :
		      "no skipped messages\n", stderr);
	onlist_store_close(s);
	g_free(glob);
	return onlist_cli_rows_close(cli, &x, ret);
}
