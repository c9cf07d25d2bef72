/* cmd_import.c - onlist import [--list NAME] FILE... */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/emit.h"
#include "onlist/import.h"
#include "onlist/mail.h"
#include "onlist/store.h"

static const char help[] =
	"usage: onlist [--db PATH] import [--list NAME] [--format text|json | --json]\n"
	"                                 FILE...\n\n"
	"Read mail archives into the database: mbox (mboxo or mboxrd), mbox.gz,\n"
	"a maildir, or a single message (\"-\" reads standard input).  Each\n"
	"message is stored once, keyed by its Message-ID; importing the same\n"
	"file again adds nothing.  A message that cannot be read is recorded\n"
	"with the reason and skipped (see `onlist status`).\n\n"
	"  --list NAME  the list these messages came from (default: the file\n"
	"               name without directory and extensions)\n"
	"  --format json  print the counts as one JSON object: {files: [{path,\n"
	"               list, ok, messages, new, patches, skipped,\n"
	"               skipped_by_reason: [{reason, count}]}], messages, new,\n"
	"               patches, skipped}\n\n"
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
	FILE *f;
	struct onlist_emit *e;	/* JSON: the emitter, else NULL */
	int n;
};

static int print_reason(const struct onlist_reason_row *row, void *data)
{
	struct reasons *r = data;

	if (r->e) {
		onlist_emit_begin_map(r->e, 0);
		onlist_emit_kstr(r->e, "reason", row->reason);
		onlist_emit_kint(r->e, "count", row->count);
		onlist_emit_end(r->e);
		return 0;
	}
	if (r->n++ == 10) {
		fputs("  ...\n", r->f);
		return 1;
	}
	fprintf(r->f, "  %6ld  ", (long)row->count);
	onlist_put_text(r->f, row->reason);
	fputc('\n', r->f);
	return 0;
}

/* The skips recorded for this source (a maildir's files are named below
 * it), by reason: the first ten in text, all of them in JSON. */
static void skip_summary(struct onlist_store *s, const char *place, FILE *f,
			 struct onlist_emit *e)
{
	struct reasons r = { f, e, 0 };
	char *glob = malloc(4 * strlen(place) + 2), *g = glob;

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
	if (!e)
		fputs("  skipped, by reason (all of them: onlist skipped FILE):\n", f);
	onlist_store_skipped_by_reason(s, glob, print_reason, &r);
	free(glob);
}

struct import_out {
	FILE *f;
	struct onlist_emit *e;	/* --format json, else NULL */
	struct onlist_import_counts total;
};

static int import_one(struct onlist_cli *cli, struct onlist_store *s,
		      const char *path, const char *list_opt,
		      struct import_out *o)
{
	struct onlist_source *src = NULL;
	struct onlist_import_counts c = { 0, 0, 0, 0 };
	struct progress_ctx p;
	char resolved[PATH_MAX], *list, *err = NULL;
	const char *place = path;
	onlist_status st;
	FILE *f = o->f;

	list = list_opt ? strdup(list_opt) : default_list(path);
	st = onlist_source_open(&src, path, &err);
	if (st == ONLIST_OK) {
		/* Skips are keyed by place: make the place independent of
		 * the directory the command was run from. */
		place = strcmp(path, "-") && realpath(path, resolved) ?
			resolved : path;
		onlist_progress_init(&p.prog, cli);
		p.path = path;
		st = onlist_import_source(s, src, place, list ? list : "", &c,
					  progress, &p, &err);
		onlist_progress_done(&p.prog);
	}
	if (st != ONLIST_OK)
		onlist_err_text(NULL, err ? err : onlist_status_str(st));
	o->total.messages += c.messages;
	o->total.added += c.added;
	o->total.patches += c.patches;
	o->total.skipped += c.skipped;
	if (o->e) {
		onlist_emit_begin_map(o->e, 0);
		onlist_emit_kstrs(o->e, "path", path,
				  "list", list, NULL);
		onlist_emit_kbool(o->e, "ok", st == ONLIST_OK);
		onlist_emit_kint(o->e, "messages", c.messages);
		onlist_emit_kint(o->e, "new", c.added);
		onlist_emit_kint(o->e, "patches", c.patches);
		onlist_emit_kint(o->e, "skipped", c.skipped);
		onlist_emit_key(o->e, "skipped_by_reason");
		onlist_emit_begin_list(o->e, 0);
		if (c.skipped)
			skip_summary(s, place, f, o->e);
		onlist_emit_end(o->e);
		onlist_emit_end(o->e);
	} else if (src) {
		onlist_put_text(f, path);
		fprintf(f, ": %ld messages, %ld new, %ld with patch, %ld skipped\n",
			c.messages, c.added, c.patches, c.skipped);
		if (c.skipped)
			skip_summary(s, place, f, NULL);
	}
	free(err);
	free(list);
	onlist_source_free(src);
	return st == ONLIST_OK ? 0 : -1;
}

int cmd_import(struct onlist_cli *cli, int argc, char **argv)
{
	enum { OPT_LIST = ONLIST_OPT_FIRST_LONG };
	static const struct option opts[] = {
		{ "list", required_argument, NULL, OPT_LIST },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct import_out o = { NULL, NULL, { 0, 0, 0, 0 } };
	struct onlist_store *s;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	const char *list = NULL;
	int c, ret = ONLIST_EXIT_OK;

	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts, help)) != -1) {
		switch (c) {
		case OPT_LIST:
			list = optarg;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	if (onlist_cli_operands(cli, argc, argv, 1, -1, help))
		return ONLIST_EXIT_USAGE;
	if (!(s = onlist_cli_open_store(cli)))
		return ONLIST_EXIT_FAIL;
	onlist_store_stream_mode(s);
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	o.f = out.f;
	if (fmt == ONLIST_FMT_JSON) {
		if (!(o.e = onlist_emit_new(o.f, fmt))) {
			onlist_err("import: out of memory");
			onlist_store_close(s);
			return onlist_cli_out_close(cli, &out, ONLIST_EXIT_FAIL);
		}
		onlist_emit_begin_map(o.e, 0);
		onlist_emit_key(o.e, "files");
		onlist_emit_begin_list(o.e, ONLIST_EMIT_LINES);
	}
	for (int i = optind; i < argc; i++)
		if (import_one(cli, s, argv[i], list, &o) < 0)
			ret = ONLIST_EXIT_FAIL;
	if (o.e) {
		onlist_emit_end(o.e);
		onlist_emit_kint(o.e, "messages", o.total.messages);
		onlist_emit_kint(o.e, "new", o.total.added);
		onlist_emit_kint(o.e, "patches", o.total.patches);
		onlist_emit_kint(o.e, "skipped", o.total.skipped);
		onlist_emit_end(o.e);
		if (onlist_emit_free(o.e) != ONLIST_OK)
			ret = ONLIST_EXIT_FAIL;
	}
	onlist_store_close(s);
	ret = onlist_cli_out_close(cli, &out, ret);
	return ret;
}
