/* cmd_import.c - onlist import [--list NAME] FILE... */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/import.h"
#include "onlist/mail.h"
#include "onlist/store.h"

static const char help[] =
	"usage: onlist [--db PATH] import [--list NAME] FILE...\n\n"
	"Read mail archives into the database: mbox (mboxo or mboxrd), mbox.gz,\n"
	"a maildir, or a single message (\"-\" reads standard input).  Each\n"
	"message is stored once, keyed by its Message-ID; importing the same\n"
	"file again adds nothing.  A message that cannot be read is recorded\n"
	"with the reason and skipped (see `onlist status`).\n\n"
	"  --list NAME  the list these messages came from (default: the file\n"
	"               name without directory and extensions)\n\n"
	"Exit status: 0 when every file was read, 1 when a file could not be\n"
	"read (other files are still imported), 2 on usage errors.\n";

/* "lkml.mbox.gz" -> "lkml" */
static char *default_list(const char *path)
{
	size_t len = strlen(path);
	const char *base;
	char *name, *dot;

	if (!strcmp(path, "-"))
		return strdup("stdin");
	while (len > 1 && path[len - 1] == '/')	/* "maildir/" */
		len--;
	base = path + len;
	while (base > path && base[-1] != '/')
		base--;
	name = strndup(base, (size_t)(path + len - base));
	if (name && (dot = strchr(name, '.')) && dot != name)
		*dot = '\0';
	return name;
}

struct progress_ctx {
	struct onlist_progress prog;
	const char *path;
};

static void progress(const struct onlist_import_counts *c, void *data)
{
	struct progress_ctx *p = data;

	onlist_progress(&p->prog, "import: %s: %ld messages, %ld new, %.0f msg/s",
			p->path, c->messages, c->added,
			c->messages / (onlist_now() - p->prog.start + 1e-9));
}

struct reasons {
	int n;
};

static int print_reason(int ncol, const char *const *c, void *data)
{
	struct reasons *r = data;

	(void)ncol;
	if (r->n++ == 10) {
		puts("  ...");
		return 1;
	}
	printf("  %6s  ", c[1] ? c[1] : "0");
	onlist_put_text(stdout, c[0]);
	putchar('\n');
	return 0;
}

/* The skips recorded for this source (a maildir's files are named below
 * it), by reason. */
static void skip_summary(struct onlist_store *s, const char *place)
{
	struct reasons r = { 0 };
	char *glob = malloc(4 * strlen(place) + 2), *g = glob;
	const char *p[1];

	if (!glob)
		return;
	for (const char *q = place; *q; q++) {
		if (*q == '*' || *q == '?' || *q == '[') {
			*g++ = '[';
			*g++ = *q;
			*g++ = ']';
		} else {
			*g++ = *q;
		}
	}
	strcpy(g, "*");
	p[0] = glob;
	puts("  skipped, by reason (all of them: onlist skipped FILE):");
	onlist_store_query(s, ONLIST_Q_SKIPPED_BY_REASON, p, 1, print_reason, &r);
	free(glob);
}

static int import_one(struct onlist_cli *cli, struct onlist_store *s,
		      const char *path, const char *list_opt)
{
	struct onlist_source *src = NULL;
	struct onlist_import_counts c = { 0, 0, 0, 0 };
	struct progress_ctx p;
	char resolved[PATH_MAX], *list, *err = NULL;
	const char *place;
	onlist_status st;

	st = onlist_source_open(&src, path, &err);
	if (st != ONLIST_OK) {
		onlist_err("%s", err ? err : onlist_status_str(st));
		free(err);
		return -1;
	}
	/* Skips are keyed by place: make the place independent of the
	 * directory the command was run from. */
	place = strcmp(path, "-") && realpath(path, resolved) ? resolved : path;
	list = list_opt ? strdup(list_opt) : default_list(path);
	onlist_progress_init(&p.prog, cli);
	p.path = path;
	st = onlist_import_source(s, src, place, list ? list : "", &c, progress,
				  &p, &err);
	onlist_progress_done(&p.prog);
	if (st != ONLIST_OK)
		onlist_err("%s", err ? err : onlist_status_str(st));
	printf("%s: %ld messages, %ld new, %ld with patch, %ld skipped\n",
	       path, c.messages, c.added, c.patches, c.skipped);
	if (c.skipped)
		skip_summary(s, place);
	free(err);
	free(list);
	onlist_source_free(src);
	return st == ONLIST_OK ? 0 : -1;
}

int cmd_import(struct onlist_cli *cli, int argc, char **argv)
{
	struct onlist_store *s;
	const char *list = NULL;
	int i, ret = ONLIST_EXIT_OK;

	if (onlist_cli_help(argc, argv, help))
		return ONLIST_EXIT_OK;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list") && i + 1 < argc)
			list = argv[++i];
		else if (!strncmp(argv[i], "--list=", 7))
			list = argv[i] + 7;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			onlist_err("import: unknown option '%s'", argv[i]);
			return ONLIST_EXIT_USAGE;
		} else
			break;
	}
	if (i >= argc) {
		fputs(help, stderr);
		return ONLIST_EXIT_USAGE;
	}
	if (!(s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	for (; i < argc; i++)
		if (import_one(cli, s, argv[i], list) < 0)
			ret = ONLIST_EXIT_FAIL;
	onlist_store_close(s);
	return ret;
}
