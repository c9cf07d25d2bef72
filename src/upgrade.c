/* upgrade.c - opening a database, older ones brought up to date.
 *
 * onlist_store_open() (store.h) is here, not in store.c: an old database
 * is filled from the mail it was imported from (import.c, mail.c), and the
 * store depends on neither.  This file ties the two and holds no SQL. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "onlist/import.h"
#include "onlist/store.h"
#include "onlist/store_schema.h"

onlist_status onlist_store_open(struct onlist_store **out, const char *path,
				char **errmsg)
{
	struct onlist_backfill_counts c;
	onlist_status st;
	char *err = NULL;

	*errmsg = NULL;
	if ((st = onlist_store_open_schema(out, path, errmsg)) != ONLIST_OK)
		return st;
	if (!onlist_store_schema_backfill_pending(*out))
		return ONLIST_OK;
	if ((st = onlist_import_backfill(*out, &c, &err)) != ONLIST_OK) {
		onlist_set_err(errmsg, "%s: filling in what an older onlist "
			       "did not keep: %s", path,
			       err ? err : onlist_status_str(st));
		free(err);
		onlist_store_close(*out);
		*out = NULL;
	}
	return st;
}

onlist_status onlist_store_open_read(struct onlist_store **out,
				     const char *path, char **errmsg)
{
	struct stat sb;
	onlist_status st;
	int stale = 0;
	char *err = NULL;

	*out = NULL;
	*errmsg = NULL;
	/* no file: a reading command that made an empty database would
	 * answer "0 messages" (or "never posted") for a mistyped --db, and
	 * leave the file behind */
	if (stat(path, &sb) != 0 && errno == ENOENT) {
		onlist_set_err(errmsg, "no database at %s: run `onlist import` "
			       "or `onlist fetch` first, or give --db", path);
		return ONLIST_ENOTFOUND;
	}
	st = onlist_store_open_readonly(out, path, &stale, errmsg);
	if (st != ONLIST_OK || !stale)
		return st;
	onlist_store_close(*out);
	*out = NULL;
	st = onlist_store_open(out, path, &err);
	if (st != ONLIST_OK && err && strstr(err, "readonly")) {
		onlist_set_err(errmsg, "%s was made by an older onlist and "
			       "needs an upgrade, which needs write access: run "
			       "`onlist --db %s status` once as a user who may "
			       "write it", path, path);
		free(err);
		return st;
	}
	*errmsg = err;
	return st;
}
