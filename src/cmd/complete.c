/* complete.c - what contrib/completion/onlist.bash asks the binary, so
 * that the commands, their options and formats are written once (the
 * command table, each command's option table):
 *   onlist --list-cmds          the commands
 *   onlist --list-lists         the list names the database holds
 *   onlist [CMD] --list-opts    CMD's options ("--repo=" takes a value)
 *   onlist CMD --list-formats   what CMD's --format takes
 * None of them is in the help: they are for the completion script. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "onlist/store.h"

int onlist_complete_opts(struct onlist_cli *cli, int argc, char **argv,
			 const char *shortopts, const struct option *longopts)
{
	if (argc != 2 || optind > 1 || !argv[1])
		return 0;
	if (!strcmp(argv[1], "--list-formats")) {
		for (const char *const *f = cli->formats; f && *f; f++)
			printf("%s\n", *f);
		return 1;
	}
	if (strcmp(argv[1], "--list-opts"))
		return 0;
	for (const struct option *o = longopts; o && o->name; o++) {
		if (!strncmp(o->name, "list-", 5))
			continue;	/* these very options */
		/* the formats' options only where there are formats */
		if ((o->val == ONLIST_OPT_FORMAT || o->val == ONLIST_OPT_JSON) &&
		    !cli->formats)
			continue;
		printf("--%s%s\n", o->name, o->has_arg == required_argument ? "=" : "");
	}
	for (const char *p = shortopts ? shortopts : ""; *p; p++)
		if (*p != '+' && *p != ':')
			printf("-%c\n", *p);
	printf("-q\n-h\n");
	return 1;
}

static int list_row(const struct onlist_list_row *r, void *data)
{
	(void)data;
	/* a name with a line end would be two words to the shell */
	if (!strpbrk(r->list, "\n\r"))
		printf("%s\n", r->list);
	return 0;
}

int onlist_complete_lists(struct onlist_cli *cli)
{
	struct onlist_store *s;
	int ret = ONLIST_EXIT_OK;

	/* no database yet: nothing to offer, and nothing to say */
	if (!(s = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	if (onlist_store_lists(s, list_row, NULL) != ONLIST_OK)
		ret = ONLIST_EXIT_FAIL;
	onlist_store_close(s);
	return ret;
}
