/* cmd_import.c - onlist import [--list NAME] FILE... */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/cli.h"
#include "onlist/mail.h"
#include "onlist/store.h"

#define BATCH 2000	/* messages per transaction */

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

struct counts {
	long messages, added, patches, skipped;
};

/* "lkml.mbox.gz" -> "lkml" */
static char *default_list(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name, *dot;
	size_t len;

	if (!strcmp(path, "-"))
		return strdup("stdin");
	base = base ? base + 1 : path;
	len = strlen(base);
	while (len && base[len - 1] == '/')	/* "maildir/" */
		len--;
	name = strndup(base, len);
	if (name && (dot = strchr(name, '.')) && dot != name)
		*dot = '\0';
	return name;
}

static int record_skip(struct onlist_store *s, const char *source,
		       uint64_t offset, const char *reason, struct counts *c)
{
	int added = 0;

	if (onlist_store_put_skip(s, source, offset, reason, &added) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(s));
		return -1;
	}
	c->skipped++;
	return 0;
}

static int import_one(struct onlist_cli *cli, struct onlist_store *s,
		      const char *path, const char *list_opt)
{
	struct onlist_source *src = NULL;
	struct onlist_progress prog;
	struct counts c = { 0, 0, 0, 0 };
	char resolved[PATH_MAX], *list = NULL, *err = NULL;
	const char *source;
	onlist_status st;
	int ret = 0, in_batch = 0;
	uint64_t last_offset = 0;

	st = onlist_source_open(&src, path, &err);
	if (st != ONLIST_OK) {
		onlist_err("%s", err ? err : onlist_status_str(st));
		free(err);
		return -1;
	}
	/* Skips are keyed by place: make the place independent of the
	 * directory the command was run from. */
	source = strcmp(path, "-") && realpath(path, resolved) ? resolved : path;
	list = list_opt ? strdup(list_opt) : default_list(path);
	onlist_progress_init(&prog, cli);

	for (;;) {
		struct onlist_raw raw;
		struct onlist_mail *m = NULL;
		struct onlist_message_row row;
		char pid[ONLIST_PATCHID_HEXSZ + 1];
		int added;

		if (!in_batch) {
			if (onlist_store_begin(s) != ONLIST_OK) {
				onlist_err("%s", onlist_store_errmsg(s));
				ret = -1;
				break;
			}
			in_batch = 1;
		}
		st = onlist_source_next(src, &raw, &err);
		if (st == ONLIST_ENOTFOUND)
			break;
		if (st != ONLIST_OK) {
			/* The input itself broke (a truncated gzip stream): keep
			 * what was read, say where it broke, fail the file. */
			onlist_err("%s", err ? err : onlist_status_str(st));
			if (record_skip(s, source, last_offset + 1,
					err ? err : onlist_status_str(st), &c) < 0) {
				free(err);
				ret = -1;
				break;
			}
			free(err);
			err = NULL;
			ret = -1;
			if (st == ONLIST_EIO)	/* maildir: one file failed */
				continue;
			break;
		}
		c.messages++;
		last_offset = raw.offset;
		st = onlist_mail_parse(&m, raw.data, raw.len, &err);
		if (st != ONLIST_OK) {
			char *reason = NULL;
			if (asprintf(&reason, "unreadable message: %s",
				     err ? err : onlist_status_str(st)) < 0)
				reason = NULL;
			free(err);
			err = NULL;
			if (record_skip(s, raw.file ? raw.file : source, raw.offset,
					reason ? reason : "unreadable message", &c) < 0) {
				free(reason);
				ret = -1;
				break;
			}
			free(reason);
			continue;
		}
		memset(&row, 0, sizeof(row));
		row.list = list;
		row.msgid = onlist_mail_message_id(m);
		row.synthetic_id = onlist_mail_id_is_synthetic(m);
		row.date = onlist_mail_date(m);
		row.from_name = onlist_mail_from_name(m);
		row.from_addr = onlist_mail_from_addr(m);
		row.subject = onlist_mail_subject(m);
		row.in_reply_to = onlist_mail_in_reply_to(m);
		row.refs = onlist_mail_references(m);
		row.has_patch = onlist_mail_patch(m, NULL) != NULL;
		row.patch_source = onlist_mail_patch_source(m);
		row.patch_id = onlist_mail_patchid(m, pid) ? pid : NULL;
		row.source = raw.file ? raw.file : source;
		row.offset = raw.offset;
		if (onlist_store_put_message(s, &row, &added) != ONLIST_OK) {
			onlist_err("%s", onlist_store_errmsg(s));
			onlist_mail_free(m);
			ret = -1;
			break;
		}
		c.added += added;
		c.patches += row.has_patch;
		onlist_mail_free(m);
		if (c.messages % BATCH == 0) {
			if (onlist_store_commit(s) != ONLIST_OK) {
				onlist_err("%s", onlist_store_errmsg(s));
				ret = -1;
				in_batch = 0;
				break;
			}
			in_batch = 0;
		}
		onlist_progress(&prog, "import: %s: %ld messages, %ld new, "
				"%.0f msg/s", path, c.messages, c.added,
				c.messages / (onlist_now() - prog.start + 1e-9));
	}
	if (in_batch && onlist_store_commit(s) != ONLIST_OK) {
		onlist_err("%s", onlist_store_errmsg(s));
		ret = -1;
	}
	onlist_progress_done(&prog);
	printf("%s: %ld messages, %ld new, %ld with patch, %ld skipped\n",
	       path, c.messages, c.added, c.patches, c.skipped);
	onlist_source_free(src);
	free(list);
	return ret;
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
