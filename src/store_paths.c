/* store_paths.c - the SQL behind the path a commit took (store_paths.h). */
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "onlist/store_paths.h"
#include "store_int.h"

static int dup_col(sqlite3_stmt *st, int i, char **out)
{
	const char *v = (const char *)sqlite3_column_text(st, i);

	*out = NULL;
	return v && !(*out = strdup(v)) ? -1 : 0;
}

static const char landing_sql[] =
	"SELECT landed_date, merge_sha, merge_subject, merge_tip, merge_request"
	" FROM landing WHERE sha = ?1";

void onlist_landing_row_release(struct onlist_landing_row *r)
{
	free(r->merge_sha);
	free(r->merge_subject);
	free(r->merge_tip);
	free(r->merge_request);
	memset(r, 0, sizeof(*r));
}

onlist_status onlist_store_paths_landing_of(struct onlist_store *s, const char *sha,
				      struct onlist_landing_row *out)
{
	sqlite3_stmt *st = onlist__store_prepare(s, landing_sql);
	onlist_status ret = ONLIST_OK;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!st)
		return ONLIST_EDB;
	onlist__bind_text(st, 1, sha);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->known = 1;
		out->landed_date = sqlite3_column_int64(st, 0);
		if (dup_col(st, 1, &out->merge_sha) ||
		    dup_col(st, 2, &out->merge_subject) ||
		    dup_col(st, 3, &out->merge_tip) ||
		    dup_col(st, 4, &out->merge_request))
			ret = ONLIST_ENOMEM;
	} else if (rc != SQLITE_DONE) {
		ret = onlist__store_fail(s, "landing of a commit");
	}
	sqlite3_reset(st);
	if (ret != ONLIST_OK)
		onlist_landing_row_release(out);
	return ret;
}

/* CROSS JOIN: the few pull requests first, then their messages; left to
 * itself SQLite walks every message before the merge by date. */
#define PULL_COLS \
	"SELECT p.msgid, m.list, m.date, p.url, p.ref, p.tip FROM pulls p" \
	" CROSS JOIN messages m ON m.msgid = p.msgid "

/* Any abbreviation of ?1 sorts between its first 7 digits and itself:
 * the index on tip answers the range, the test keeps the prefixes. */
static const char by_tip_sql[] = PULL_COLS
	" WHERE p.tip >= substr(?1, 1, 7) AND p.tip <= ?1"
	" AND length(p.tip) >= 7 AND substr(?1, 1, length(p.tip)) = p.tip"
	" AND m.date IS NOT NULL AND m.date > 0 AND m.date <= ?2"
	" ORDER BY m.date DESC, p.msgid";

static const char by_ref_sql[] = PULL_COLS
	" WHERE p.ref IN (?1, 'tags/' || ?1, 'refs/tags/' || ?1,"
	"  'heads/' || ?1, 'refs/heads/' || ?1)"
	" AND m.date IS NOT NULL AND m.date > 0 AND m.date <= ?2"
	" ORDER BY m.date DESC, p.msgid";

static onlist_status pull_rows(struct onlist_store *s, const char *sql,
			       const char *key, int64_t before,
			       onlist_pull_cb cb, void *data)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql);
	int rc;

	if (!st)
		return ONLIST_EDB;
	onlist__store_bind(st, "tI", key, before);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_pull_row p = {
			(const char *)sqlite3_column_text(st, 0),
			(const char *)sqlite3_column_text(st, 1),
			(const char *)sqlite3_column_text(st, 3),
			(const char *)sqlite3_column_text(st, 4),
			(const char *)sqlite3_column_text(st, 5),
			sqlite3_column_int64(st, 2),
		};
		if (cb(&p, data))
			break;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return onlist__store_fail(s, "pull requests");
	return ONLIST_OK;
}

onlist_status onlist_store_paths_pulls_by_tip(struct onlist_store *s,
					const char *tip, int64_t before,
					onlist_pull_cb cb, void *data)
{
	return pull_rows(s, by_tip_sql, tip, before, cb, data);
}

onlist_status onlist_store_paths_pulls_by_ref(struct onlist_store *s,
					const char *ref, int64_t before,
					onlist_pull_cb cb, void *data)
{
	return pull_rows(s, by_ref_sql, ref, before, cb, data);
}

static const char embargo_sql[] =
	"SELECT value FROM meta WHERE key = 'embargo_rules'";

onlist_status onlist_store_paths_embargo_rules(struct onlist_store *s, char **out)
{
	onlist_status st = onlist__store_first_text(s, embargo_sql, NULL,
						    "embargo rules", out);

	if (st == ONLIST_OK && *out && !**out) {
		free(*out);
		*out = NULL;
	}
	return st;
}

static const char body_sql[] = "SELECT body FROM commits WHERE sha = ?1";

onlist_status onlist_store_paths_commit_body(struct onlist_store *s, const char *sha,
				       char **out)
{
	return onlist__store_first_text(s, body_sql, sha, "commit message", out);
}
