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

static int print_skip(const struct onlist_skip_row *r, void *data)
{
	struct onlist_cli_rows *x = data;

	if (onlist_cli_row(x))
		return 1;
	if (x->json) {
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kstr(x->e, "source", r->source);
		onlist_emit_kint(x->e, "offset", r->offset);
		onlist_emit_kstr(x->e, "reason", r->reason);
		onlist_emit_end(x->e);
	} else {
		onlist_put_text(x->f, r->source);
		fprintf(x->f, ":%ld: ", (long)r->offset);
		onlist_put_text(x->f, r->reason);
		fputc('\n', x->f);
	}
	return 0;
}

static int print_reason(const struct onlist_reason_row *r, void *data)
{
	struct onlist_cli_rows *x = data;

	if (onlist_cli_row(x))
		return 1;
	if (x->json) {
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kstr(x->e, "reason", r->reason);
		onlist_emit_kint(x->e, "count", r->count);
		onlist_emit_end(x->e);
	} else {
		fprintf(x->f, "%7ld  ", (long)r->count);
		onlist_put_text(x->f, r->reason);
		fputc('\n', x->f);
	}
	return 0;
}

/* A commit scan could not diff. */
static int print_commit(const struct onlist_skipped_commit_row *r, void *data)
{
	struct onlist_cli_rows *x = data;
	const char *p, *nl;
	int first = 1;

	if (onlist_cli_row(x))
		return 1;
	if (x->json) {
		onlist_emit_begin_map(x->e, 0);
		onlist_emit_kstrs(x->e, "commit", r->sha,
				  "object", r->object,
				  "subject", r->subject,
				  "reason", r->reason, NULL);
		onlist_emit_end(x->e);
	} else {
		onlist_put_text(x->f, r->sha ? r->sha : "");
		fputs(":", x->f);
		/* git's message may take several lines ("could not read from
		 * remote repository" and the rest): one line per commit */
		for (p = r->reason ? r->reason : ""; *p; p = *nl ? nl + 1 : nl) {
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
	return 0;
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
	}
	if (!(s = onlist_cli_open_store_read(cli))) {
		g_free(glob);
		return ONLIST_EXIT_FAIL;
	}
	onlist_cli_rows_open(&x, fmt);
	if ((commits ? onlist_store_skipped_commits(s, print_commit, &x) :
	     by_reason ? onlist_store_skipped_by_reason(s, glob, print_reason, &x) :
	     onlist_store_skipped(s, glob, print_skip, &x)) != ONLIST_OK) {
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
