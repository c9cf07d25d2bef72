/* store_match.c - the SQL of onlist match's tiers (see store_match.h);
 * store_fuzzy.c holds the patch fingerprint rows the fuzzy tier reads. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "onlist/buf.h"
#include "onlist/msgid.h"
#include "onlist/store_fuzzy.h"
#include "onlist/store_match.h"
#include "store_int.h"

#define fail onlist__store_fail
#define bind_text onlist__bind_text
#define prepare onlist__store_prepare
#define step onlist__store_step

/* A landing bounds the postings when the commit came in by a merge, or
 * when the history has merges at all (then a commit applied directly to
 * the mainline landed when it was made).  In a linear history it does
 * not: there the commit date is when the maintainer committed locally,
 * which may be before the patch was posted; the tags' dates bound it
 * instead (match.c, tag_bounds(), into temp.tag_bound).  temp.bound is a
 * view of the two, not a copy: copying every landing row each run cost
 * as much as the rest of the setup (0.16 s on 100,000 commits).  %d: 1
 * when the history has merges (every landing row bounds), else 0 (only
 * a landing by a merge would, and there is none).  cdate: the landed
 * commit's commit date where a landing row keeps it (schema 26), else
 * NULL (store_fuzzy.c, sql_todo_recent_sha): tag_bound's cdate, never
 * written; a constant NULL in the view kept SQLite from flattening it,
 * and each look-up of one commit's bound built the whole view (1M:
 * 2.2 s after new mail, against 0.09 s). */
static const char sql_bound_view[] =
	"CREATE TEMP TABLE IF NOT EXISTS tag_bound("
	" sha TEXT PRIMARY KEY, bound INTEGER NOT NULL, cdate INTEGER);"
	"DELETE FROM temp.tag_bound;"
	"DROP VIEW IF EXISTS temp.bound;"
	"CREATE TEMP VIEW bound(sha, bound, cdate) AS"
	" SELECT sha, landed_date, commit_date FROM main.landing WHERE %d"
	" UNION ALL SELECT sha, bound, cdate FROM temp.tag_bound;";
static const char sql_bounds[] =
	/* The mails an archive received more than a day after their Date:
	 * the time it received them bounds them as their Date would: a
	 * mail dated before a landing but archived after it is late (a
	 * Date is the sender's word; received, an archive's).  Only for
	 * mail dated after its list's archive received its first mail:
	 * an archive built late took in the older mail on the days it was
	 * built (an epoch's commit times, a From_ line written by a copy),
	 * which says nothing of when that mail was sent. */
	/* when each list's archive began: kept, the tier stamps count it
	 * (onlist_store_match_tier_stamp()) without reading every message
	 * again */
	"CREATE TEMP TABLE IF NOT EXISTS list_start(list TEXT, t INTEGER);"
	"DELETE FROM temp.list_start;"
	/* by the index messages_list_received (schema 18): each list's
	 * first received time, the lists walked one by one */
	"INSERT INTO temp.list_start(list, t)"
	" WITH RECURSIVE l(list) AS (SELECT (SELECT min(list) FROM messages)"
	"  UNION ALL SELECT (SELECT min(list) FROM messages m"
	"  WHERE m.list > l.list) FROM l WHERE l.list IS NOT NULL)"
	" SELECT list, t FROM (SELECT NULL AS list, (SELECT min(received)"
	"  FROM messages WHERE list IS NULL) AS t"
	"  UNION ALL SELECT l.list, (SELECT min(received) FROM messages m"
	"  WHERE m.list = l.list) FROM l WHERE l.list IS NOT NULL)"
	" WHERE t IS NOT NULL;"
	"CREATE TEMP TABLE IF NOT EXISTS arrived("
	" msgid TEXT PRIMARY KEY, t INTEGER NOT NULL);"
	"DELETE FROM temp.arrived;"
	/* by the partial index messages_late (schema 18) */
	"INSERT INTO temp.arrived(msgid, t)"
	" SELECT m.msgid, m.received FROM messages m"
	" JOIN temp.list_start a ON a.list IS m.list"
	" WHERE m.received > m.date + 86400 AND m.date >= a.t;"
	/* A commit git am made from a list's DMARC rewrite has the author
	 * "Name via LIST <list@host>", while the mail now names its writer
	 * (mail.c, undo_list_from): the writer's address for such a commit
	 * is the one mail from "Name" carries most often, so that the tiers
	 * that key on the author still find its posting.  Unmatched commits
	 * only (each costs a pass over the messages). */
	"CREATE TEMP TABLE IF NOT EXISTS via_commits(sha TEXT PRIMARY KEY)"
	" WITHOUT ROWID;"
	"DELETE FROM temp.via_commits;"
	"INSERT INTO temp.via_commits %s;"
	"CREATE TEMP TABLE IF NOT EXISTS via_author("
	" sha TEXT PRIMARY KEY, email TEXT NOT NULL);"
	"DELETE FROM temp.via_author;"
	"INSERT INTO temp.via_author(sha, email)"
	" SELECT sha, email FROM (SELECT c.sha AS sha,"
	"  lower(m.from_addr) AS email, row_number() OVER (PARTITION BY c.sha"
	"  ORDER BY count(*) DESC, lower(m.from_addr)) AS rn"
	"  FROM temp.via_commits w CROSS JOIN commits c ON c.sha = w.sha"
	"  JOIN messages m ON m.from_name <> ''"
	"  AND substr(c.author_name, 1, length(m.from_name) + 5)"
	"   = m.from_name || ' via '"
	"  WHERE c.author_name LIKE '%% via %%'"
	"  AND length(c.author_name) > length(m.from_name) + 5"
	"  AND instr(substr(c.author_name, length(m.from_name) + 6), ' ') = 0"
	"  AND lower(m.from_addr) <> lower(c.author_email)"
	"  AND %s GROUP BY c.sha, lower(m.from_addr)) WHERE rn = 1;";
/* the commits of such an author: looked for in every commit, or (a match
 * run) kept in commit_via (schema 20) and looked for in the commits after
 * the last one it saw, unless a commit was rewritten or deleted since
 * (meta edits, store_schema.c) */
static const char sql_via_all[] =
	"SELECT sha FROM commits WHERE author_name LIKE '% via %'";
static const char sql_via_kept[] = "SELECT sha FROM commit_via";
static const char sql_via_now[] =
	"SELECT (SELECT coalesce(max(rowid), 0) FROM commits),"
	" coalesce((SELECT CAST(value AS INTEGER) FROM meta"
	"  WHERE key = 'edits'), -1)";
static const char sql_via_new[] =
	"INSERT OR IGNORE INTO commit_via SELECT sha FROM commits"
	" WHERE rowid > ?1 AND author_name LIKE '% via %'";

static onlist_status keep_via(struct onlist_store *s)
{
	char *was = onlist_store_get_meta(s, "commit_via");
	int64_t now[2], last = 0, edits = -2;
	char stamp[48];
	onlist_status st;

	if (!onlist__store_int64s(s, sql_via_now, -1, now, 2)) {
		free(was);
		return fail(s, "DMARC-rewritten authors");
	}
	if (!was || sscanf(was, "%" SCNd64 ":%" SCNd64, &last, &edits) != 2 ||
	    edits != now[1] || now[1] < 0 || last > now[0]) {
		last = 0;
		if (sqlite3_exec(s->db, "DELETE FROM commit_via", NULL, NULL,
				 NULL) != SQLITE_OK) {
			free(was);
			return fail(s, "DMARC-rewritten authors");
		}
	}
	free(was);
	if ((st = step(s, prepare(s, sql_via_new), "DMARC-rewritten authors",
		       "I", last)) != ONLIST_OK)
		return st;
	snprintf(stamp, sizeof(stamp), "%" PRId64 ":%" PRId64, now[0], now[1]);
	return onlist_store_set_meta(s, "commit_via", stamp);
}

/* the unmatched commits only: --explain (a match run computes the bounds
 * before its tiers, when every commit counts as unmatched) */
static const char sql_via_unmatched[] =
	"NOT EXISTS (SELECT 1 FROM matches x WHERE x.commit_sha = c.sha)";

static onlist_status compute_bounds(struct onlist_store *s, int all)
{
	int linear = onlist_store_match_history_linear(s);
	char view[sizeof(sql_bound_view) + 8];
	char *bounds;
	int rc;

	if (linear < 0)
		return fail(s, "landing bounds");
	snprintf(view, sizeof(view), sql_bound_view, !linear);
	if (all && keep_via(s) != ONLIST_OK)
		return ONLIST_EDB;
	bounds = g_strdup_printf(sql_bounds, all ? sql_via_kept : sql_via_all,
				 all ? "1" : sql_via_unmatched);
	rc = sqlite3_exec(s->db, view, NULL, NULL, NULL) != SQLITE_OK ||
	     sqlite3_exec(s->db, bounds, NULL, NULL, NULL) != SQLITE_OK;
	g_free(bounds);
	return rc ? fail(s, "landing bounds") : ONLIST_OK;
}

onlist_status onlist_store_match_compute_bounds(struct onlist_store *s)
{
	return compute_bounds(s, 0);
}

onlist_status onlist_store_match_clear_echoes(struct onlist_store *s)
{
	if (sqlite3_exec(s->db, "DELETE FROM echoes", NULL, NULL, NULL)
	    != SQLITE_OK)
		return fail(s, "clear echoes");
	return ONLIST_OK;
}

/* After new mail the tiers change the matches in place: each deletes the
 * rows of its method for the commits it computes again and for those an
 * earlier tier matches now, and writes the new ones; the rest stay.  What
 * changed (every row written or deleted, op 1 or -1) is logged by
 * triggers in temp.match_log: the tiers' questions about the last run's
 * rows (which commits an earlier tier gave back, which mails changed
 * hands) are asked of it, not of every match. */
static const char sql_log_begin[] =
	"CREATE TEMP TABLE IF NOT EXISTS match_log(commit_sha TEXT NOT NULL,"
	" message_id TEXT NOT NULL, method TEXT NOT NULL, op INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS temp.match_log_message"
	" ON match_log(message_id);"
	"DELETE FROM temp.match_log;"
	"CREATE TEMP TRIGGER IF NOT EXISTS match_log_ins AFTER INSERT"
	" ON main.matches BEGIN INSERT INTO match_log VALUES(new.commit_sha,"
	" new.message_id, new.method, 1); END;"
	"CREATE TEMP TRIGGER IF NOT EXISTS match_log_del AFTER DELETE"
	" ON main.matches BEGIN INSERT INTO match_log VALUES(old.commit_sha,"
	" old.message_id, old.method, -1); END;";
static const char sql_log_end[] =
	"DROP TRIGGER IF EXISTS temp.match_log_ins;"
	"DROP TRIGGER IF EXISTS temp.match_log_del;"
	/* the tiers are done: the pairs a whole patch-id tier kept for
	 * the late and echo tiers go too */
	"DROP TABLE IF EXISTS temp.exact_pairs;";

/* A whole run empties matches: the ignored topics compare the last
 * run's (temp.old_matches, copied first) with the new, there being no
 * log (store_ignored.c). */
static const char sql_reset_whole[] =
	"DROP TABLE IF EXISTS temp.match_log;"
	"DROP TABLE IF EXISTS temp.old_matches;"
	"CREATE TEMP TABLE old_matches(method TEXT NOT NULL,"
	" commit_sha TEXT NOT NULL, message_id TEXT NOT NULL,"
	" score REAL NOT NULL, PRIMARY KEY(method, commit_sha,"
	" message_id)) WITHOUT ROWID;"
	"INSERT INTO temp.old_matches SELECT method, commit_sha,"
	" message_id, score FROM matches;"
	/* the counts the triggers keep (store_schema.c step 23: 30 us
	 * a row written, as much as the rest of a whole run's writes) are
	 * taken once at the end (onlist_store_match_log_end()) */
	"INSERT OR REPLACE INTO meta(key, value)"
	" VALUES('match_counts_paused', 'whole');"
	/* without its index on message_id (a delete at a random place in
	 * it per row: 5.8 s of 765,000 rows at 5,000,000 mails), made
	 * again once the patch-id tier wrote its rows (sql_exact_keep) */
	"DROP INDEX IF EXISTS matches_message;"
	"DELETE FROM matches;";
/* After new mail the triggers' counts are those before the run plus the
 * log's; the link tier, which runs whole, drops its rows (when it has
 * some: finding them reads every match, 0.1 s at 5M). */
static const char sql_reset_incr[] =
	"DROP TABLE IF EXISTS temp.old_matches;"
	"INSERT OR REPLACE INTO meta(key, value)"
	" VALUES('match_counts_paused', 'log');";

onlist_status onlist_store_match_reset(struct onlist_store *s, int64_t since)
{
	long links = 0;

	if (sqlite3_exec(s->db, since < 0 ? sql_reset_whole : sql_log_begin,
			 NULL, NULL, NULL) != SQLITE_OK ||
	    (since >= 0 &&
	     (sqlite3_exec(s->db, sql_reset_incr, NULL, NULL, NULL)
	      != SQLITE_OK ||
	      (links = onlist_store_match_count(s, "link", 1)) < 0 ||
	      (links && sqlite3_exec(s->db, "DELETE FROM matches WHERE"
				     " method = 'link'", NULL, NULL, NULL)
	       != SQLITE_OK))))
		return fail(s, "clear matches");
	return ONLIST_OK;
}

/* The counts the triggers keep (store_schema.c step 23), paused by the
 * run: after a whole run counted, after new mail the last run's plus
 * what the log says; the count of posted commits also counted when a
 * changed commit or method of a row dropped it (onlist_store_count_
 * matched() counts until then). */
static const char sql_counts_paused[] =
	"SELECT coalesce((SELECT value FROM meta"
	" WHERE key = 'match_counts_paused'), '')";
static const char sql_counts_whole[] =
	"DELETE FROM match_counts;"
	"INSERT INTO match_counts SELECT method, count(*) FROM matches"
	" GROUP BY method;"
	"DELETE FROM meta WHERE key = 'matched_commits';";
/* a commit of the log was posted before the run when its posted rows
 * now, less those the log wrote, plus those it deleted, were some */
static const char sql_counts_log[] =
	"INSERT INTO match_counts SELECT method, sum(op) FROM temp.match_log"
	" WHERE 1 GROUP BY method ON CONFLICT(method) DO UPDATE"
	" SET n = n + excluded.n;"
	"UPDATE meta SET value = value + (SELECT coalesce(sum((now > 0)"
	" - (now - d > 0)), 0) FROM (SELECT sum(l.op) AS d,"
	"  (SELECT count(*) FROM matches x WHERE x.commit_sha = l.commit_sha"
	"   AND" ONLIST__POSTED("x.method") ") AS now"
	"  FROM temp.match_log l WHERE" ONLIST__POSTED("l.method")
	"  GROUP BY l.commit_sha))"
	" WHERE key = 'matched_commits';";
static const char sql_keep_matched[] =
	"DELETE FROM meta WHERE key = 'match_counts_paused';"
	"INSERT INTO meta(key, value) SELECT 'matched_commits',"
	" (SELECT count(DISTINCT commit_sha) FROM matches"
	"  WHERE" ONLIST__POSTED("method") ")"
	" WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key = 'matched_commits')";

onlist_status onlist_store_match_log_end(struct onlist_store *s)
{
	char *paused = NULL;
	const char *counts;
	int bad;

	if (sqlite3_exec(s->db, sql_log_end, NULL, NULL, NULL) != SQLITE_OK ||
	    onlist__store_first_text(s, sql_counts_paused, NULL, "match log",
				     &paused) != ONLIST_OK)
		return fail(s, "match log");
	counts = !paused ? NULL : !strcmp(paused, "whole") ? sql_counts_whole :
		 !strcmp(paused, "log") ? sql_counts_log : NULL;
	bad = (counts && sqlite3_exec(s->db, counts, NULL, NULL, NULL)
	       != SQLITE_OK) ||
	      sqlite3_exec(s->db, sql_keep_matched, NULL, NULL, NULL)
	      != SQLITE_OK;
	free(paused);
	return bad ? fail(s, "match log") : ONLIST_OK;
}

/* How many rows of method there are: counted in a whole run, or after
 * new mail the last run's (match_counts, kept by triggers, store_schema.c
 * step 23) plus what the log says. */
static const char sql_count_method[] =
	"SELECT count(*) FROM matches WHERE method = ?1";
static const char sql_count_method_log[] =
	"SELECT coalesce((SELECT n FROM match_counts WHERE method = ?1), 0)"
	" + (SELECT coalesce(sum(op), 0) FROM temp.match_log WHERE method = ?1)";

long onlist_store_match_count(struct onlist_store *s, const char *method,
			       int in_place)
{
	sqlite3_stmt *st = prepare(s, in_place ? sql_count_method_log :
				   sql_count_method);
	long n = -1;

	if (!st)
		return -1;
	bind_text(st, 1, method);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return n;
}

/* The rows of method of the commits in temp.dirty and of those an
 * earlier tier (before) wrote a row for this run: the first are computed
 * again, the others are matched by an earlier tier or computed again. */
#define CLEAR(method, before) \
	"DELETE FROM matches WHERE method = '" method "' AND commit_sha IN" \
	" (SELECT sha FROM temp.dirty UNION SELECT commit_sha" \
	" FROM temp.match_log WHERE method IN (" before ") AND op > 0)"

onlist_status onlist_store_match_begin(struct onlist_store *s)
{
	onlist_status st = onlist_store_begin(s);

	if (st != ONLIST_OK)
		return st;
	/* an earlier run's log goes: the review asks it which postings
	 * changed (store_review.c), after an incremental run only */
	if (sqlite3_exec(s->db, sql_log_end, NULL, NULL, NULL) != SQLITE_OK) {
		st = fail(s, "clear matches");
		onlist_store_rollback(s);
		return st;
	}
	if (sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.match_log;",
			 NULL, NULL, NULL) != SQLITE_OK ||
	    compute_bounds(s, 1) != ONLIST_OK) {
		st = fail(s, "clear matches");
		onlist_store_rollback(s);
	}
	return st;
}

static onlist_status exec_count(struct onlist_store *s, const char *sql,
				const char *const *params, int np, long *added,
				const char *what)
{
	sqlite3_stmt *st = prepare(s, sql);

	if (!st)
		return fail(s, "prepare");
	for (int i = 0; i < np; i++)
		bind_text(st, i + 1, params[i]);
	if (sqlite3_step(st) != SQLITE_DONE)
		return fail(s, what);
	if (added)
		*added += sqlite3_changes(s->db);
	return ONLIST_OK;
}

/* Every message with what the echo and bot rules look at, lower-cased:
 * one pass, the rules are matched by the caller. */
static const char sql_cls_rows[] =
	"SELECT m.msgid, lower(m.from_addr), lower(m.subject), lower(i.mailer),"
	" i.patchwork, i.upstream,"
	" (SELECT group_concat(lower(list), char(10)) FROM message_lists l"
	"  WHERE l.msgid = m.msgid)"
	" FROM messages m LEFT JOIN message_info i ON i.msgid = m.msgid"
	" WHERE m.id > ?1";
/* The same over all the messages after id ?1 in msgid order, merged in
 * C with message_lists read in its key order (cls_merge()): one pass
 * over each table instead of a list look-up per message.  The last
 * column says the message has an info row, for the count the stamp
 * checks. */
static const char sql_cls_sorted[] =
	"SELECT m.msgid, lower(m.from_addr), lower(m.subject), lower(i.mailer),"
	" i.patchwork, i.upstream, i.msgid IS NOT NULL"
	" FROM messages m LEFT JOIN message_info i ON i.msgid = m.msgid"
	" WHERE m.id > ?1 ORDER BY m.msgid";
static const char sql_cls_lists[] =
	"SELECT msgid, lower(list) FROM message_lists";
#define ROWS ONLIST__ROWS
/* What the classes were last computed from: the rules, the last message,
 * and how many list and info rows there were (an old message gains a
 * list when it is imported from another list, and its class may change
 * with it). */
static const char sql_cls_now[] =
	"SELECT (SELECT coalesce(max(id), 0) FROM messages),"
	ROWS("message_lists") "," ROWS("message_info");
/* the list and info rows of the messages after id ?1 */
static const char sql_cls_new[] =
	"SELECT (SELECT count(*) FROM message_lists l JOIN messages m"
	"  ON m.msgid = l.msgid WHERE m.id > ?1),"
	" (SELECT count(*) FROM message_info i JOIN messages m"
	"  ON m.msgid = i.msgid WHERE m.id > ?1)";
static const char sql_cls_count[] = "SELECT" ROWS("echoes");
#undef ROWS
#define CLS(type, field) { type, offsetof(struct onlist_classify_row, field) }
static const struct onlist__column cls_cols[] = {
	CLS('t', msgid), CLS('t', from), CLS('t', subject), CLS('t', mailer),
	CLS('i', patchwork), CLS('i', upstream), CLS('t', lists), { 0, 0 }
};
#undef CLS
static const char sql_put_echo[] =
	"INSERT OR IGNORE INTO echoes(msgid, kind, rule) VALUES(?1, ?2, ?3)";

/* The messages whose class may differ from the one stored: those after
 * the last one classified with these rules, or all of them (-1: the
 * table is to be emptied first).  now[] gets what the stamp keeps.  When
 * none was classified yet (0), the count of the list and info rows of
 * the messages after it is left to the pass over all of them: want[]
 * gets what it must find, else want[0] is -1. */
static int64_t classify_from(struct onlist_store *s, const char *rules_key,
			     int64_t now[3], int64_t want[2])
{
	int64_t added[3], old[4], echoes[3];
	char *was = onlist_store_get_meta(s, "echoes_stamp");
	int n = 0, since = 0;

	want[0] = want[1] = -1;
	if (!onlist__store_int64s(s, sql_cls_now, -1, now, 3))
		goto out;
	/* the table as this stamp left it (no other program emptied it) */
	if (!was || sscanf(was, "%" SCNd64 ":%" SCNd64 ":%" SCNd64 ":%"
			   SCNd64 ":%n", &old[0], &old[1], &old[2], &old[3],
			   &n) != 4 || !n ||
	    strcmp(was + n, rules_key) ||
	    !onlist__store_int64s(s, sql_cls_count, -1, echoes, 3) || echoes[0] != old[3])
		goto out;
	if (old[0] == 0) {
		want[0] = now[1] - old[1];
		want[1] = now[2] - old[2];
		since = 1;
		goto out;
	}
	if (!onlist__store_int64s(s, sql_cls_new, old[0], added, 3))
		goto out;
	since = now[1] - old[1] == added[0] && now[2] - old[2] == added[1];
out:
	free(was);
	return since ? old[0] : -1;
}

/* Every row cb flags goes into the echoes table. */
static onlist_status put_echo(struct onlist_store *s,
			      const struct onlist_classify_row *r,
			      onlist_classify_cb cb, void *data)
{
	const char *kind = NULL, *rule = NULL;

	if (!cb(r, &kind, &rule, data))
		return ONLIST_OK;
	return step(s, prepare(s, sql_put_echo), "insert echo", "ttt",
		    r->msgid, kind, rule);
}

/* SQLite's BINARY order of two texts. */
static int cmp_text(const unsigned char *a, int na, const unsigned char *b,
		    int nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

/* The pass over the messages after id from in msgid order, their lists
 * merged in from message_lists' key order (in it, as group_concat() of
 * the look-up joined them); got[] counts the list and info rows of
 * these messages. */
static onlist_status cls_merge(struct onlist_store *s, int64_t from,
			       onlist_classify_cb cb, void *data,
			       int64_t got[2])
{
	sqlite3_stmt *m = prepare(s, sql_cls_sorted), *l;
	GString *lists = g_string_new(NULL);
	onlist_status st = ONLIST_OK;
	int rm, rl = SQLITE_DONE;

	got[0] = got[1] = 0;
	if (!m || !(l = prepare(s, sql_cls_lists))) {
		g_string_free(lists, TRUE);
		return fail(s, "prepare");
	}
	sqlite3_bind_int64(m, 1, from);
	rl = sqlite3_step(l);
	while (st == ONLIST_OK && (rm = sqlite3_step(m)) == SQLITE_ROW) {
		struct onlist_classify_row r;
		const unsigned char *id = sqlite3_column_text(m, 0);
		int nid = sqlite3_column_bytes(m, 0), any = 0;

		onlist__store_columns(m, &r, cls_cols);
		got[1] += sqlite3_column_int(m, 6);
		g_string_truncate(lists, 0);
		for (; rl == SQLITE_ROW; rl = sqlite3_step(l)) {
			int c = cmp_text(sqlite3_column_text(l, 0),
					 sqlite3_column_bytes(l, 0), id, nid);
			if (c > 0)
				break;
			if (c < 0)
				continue;
			if (any++)
				g_string_append_c(lists, '\n');
			g_string_append_len(lists,
				(const char *)sqlite3_column_text(l, 1),
				sqlite3_column_bytes(l, 1));
			got[0]++;
		}
		r.lists = any ? lists->str : NULL;
		st = put_echo(s, &r, cb, data);
	}
	if (st == ONLIST_OK && rm != SQLITE_DONE)
		st = fail(s, "classify");
	if (st == ONLIST_OK && rl != SQLITE_ROW && rl != SQLITE_DONE)
		st = fail(s, "classify lists");
	sqlite3_reset(m);
	sqlite3_reset(l);
	g_string_free(lists, TRUE);
	return st;
}

static onlist_status put_stamp(struct onlist_store *s, const int64_t now[3],
			       int64_t echoes, const char *rules_key)
{
	size_t len = strlen(rules_key) + 4 * 24;
	char *stamp = malloc(len);
	onlist_status st;

	if (!stamp)
		return ONLIST_ENOMEM;
	snprintf(stamp, len, "%" PRId64 ":%" PRId64 ":%" PRId64 ":%" PRId64
		 ":%s", now[0], now[1], now[2], echoes, rules_key);
	st = onlist_store_set_meta(s, "echoes_stamp", stamp);
	free(stamp);
	return st;
}

onlist_status onlist_store_match_classify(struct onlist_store *s,
				    const char *rules_key,
				    onlist_classify_cb cb, void *data,
				    long *count)
{
	sqlite3_stmt *st;
	int64_t now[3] = { 0, 0, 0 }, n[3], want[2], got[2];
	int64_t from = classify_from(s, rules_key, now, want);
	onlist_status ok;
	int rc;

	*count = 0;
again:
	/* other classes: any commit's review may change (bots) */
	if (from < 0 && (onlist_store_match_clear_echoes(s) != ONLIST_OK ||
			 onlist_store_set_meta(s, "review_dirty", "*") != ONLIST_OK))
		return ONLIST_EDB;
	if (from <= 0) {
		/* all of them: one merged pass */
		if ((ok = cls_merge(s, from, cb, data, got)) != ONLIST_OK)
			return ok;
		if (from == 0 && (got[0] != want[0] || got[1] != want[1])) {
			/* an old message gained a list or its info */
			from = -1;
			goto again;
		}
		goto done;
	}
	if (!(st = prepare(s, sql_cls_rows)))
		return fail(s, "prepare");
	sqlite3_bind_int64(st, 1, from);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_classify_row r;

		onlist__store_columns(st, &r, cls_cols);
		if (put_echo(s, &r, cb, data) != ONLIST_OK) {
			sqlite3_reset(st);
			return ONLIST_EDB;
		}
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return fail(s, "classify");
done:
	if (!onlist__store_int64s(s, sql_cls_count, -1, n, 3))
		return fail(s, "count echoes");
	*count = (long)n[0];
	return put_stamp(s, now, n[0], rules_key);
}

/* Sent no later than a day after the commit landed (temp.bound). */
/* A mail with no usable Date (none, unparsable, 1970) is never sent in
 * time: a posting of unknown date is listed like a late one. */
/* A mail in temp.arrived is bounded by when it was received instead
 * (SENT, store_int.h). */
#define IN_TIME(c, m) " coalesce(" m ".date, 0) > 0 AND" \
	" NOT EXISTS (SELECT 1 FROM temp.bound b WHERE b.sha = " c \
	" AND" SENT(m) " > b.bound + 86400)"
#define LATE(c, m) " (coalesce(" m ".date, 0) <= 0 OR" \
	" EXISTS (SELECT 1 FROM temp.bound b WHERE b.sha = " c \
	" AND" SENT(m) " > b.bound + 86400))"

/* ---- link ---- */

static const char sql_link_trailers[] =
	"SELECT sha, value FROM trailers"
	" WHERE lower(key) IN ('link', 'message-id')";
/* Only a patch or a cover letter counts: a Link: to a bug report or to a
 * discussion names where the change was talked about, not a posting of
 * it (on io-uring/liburing 7 of 554 links were such).  What the caller's
 * rule needs to tell a posting of this commit from another project's
 * patch on the same list comes along. */
static const char sql_link_mail[] =
	"SELECT m.msgid, i.class = 'cover', c.subject, c.files, i.stripped,"
	" p.files FROM messages m"
	" JOIN message_info i ON i.msgid = m.msgid"
	" JOIN commits c ON c.sha = ?1"
	" LEFT JOIN message_patch p ON p.msgid = m.msgid"
	" WHERE m.msgid = ?2 AND i.class IN ('patch', 'cover') AND"
	NOT_ECHO("m.msgid") " AND" IN_TIME("?1", "m");
static const char sql_put_link[] =
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)"
	" VALUES(?1, ?2, 'link', 1.0)";

static const char sql_link_trailers_of[] =
	"SELECT sha, value FROM trailers"
	" WHERE sha = ?1 AND lower(key) IN ('link', 'message-id')";

onlist_status onlist_store_match_link_mail(struct onlist_store *s, const char *sha,
				     const char *msgid, onlist_link_cb fits,
				     void *data, int *taken)
{
	sqlite3_stmt *st = prepare(s, sql_link_mail);
	struct onlist_link_row r;
	int rc;

	*taken = -1;
	if (!st)
		return fail(s, "prepare");
	bind_text(st, 1, sha);
	bind_text(st, 2, msgid);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.sha = sha;
		r.msgid = (const char *)sqlite3_column_text(st, 0);
		r.cover = sqlite3_column_int(st, 1);
		r.commit_subject = (const char *)sqlite3_column_text(st, 2);
		r.commit_files = (const char *)sqlite3_column_text(st, 3);
		r.mail_stripped = (const char *)sqlite3_column_text(st, 4);
		r.mail_files = (const char *)sqlite3_column_text(st, 5);
		*taken = !fits || fits(&r, data);
	}
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(s, "read a linked mail");
	return ONLIST_OK;
}

/* Every linked mail of sha (NULL: of every commit) to fits(); a `link`
 * match of each it takes unless added is NULL. */
static onlist_status walk_links(struct onlist_store *s, const char *only,
				onlist_link_cb fits, void *data, long *added)
{
	sqlite3_stmt *st = prepare(s, only ? sql_link_trailers_of :
				   sql_link_trailers);
	int rc;

	if (!st)
		return fail(s, "prepare");
	if (only)
		bind_text(st, 1, only);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sha = (const char *)sqlite3_column_text(st, 0);
		const char *v = (const char *)sqlite3_column_text(st, 1);
		char *id = NULL;
		onlist_status r = ONLIST_OK;
		int take;

		if (!sha || !v)
			continue;
		switch (onlist_msgid_parse(v, &id)) {
		case ONLIST_OK: {
			const char *p[2] = { sha, id };

			r = onlist_store_match_link_mail(s, sha, id, fits, data, &take);
			if (r == ONLIST_OK && take > 0 && added)
				r = exec_count(s, sql_put_link, p, 2, added,
					       "insert link match");
			break;
		}
		case ONLIST_ENOMEM:
			r = ONLIST_ENOMEM;
			break;
		default:
			break;	/* a link to something else than a mail */
		}
		free(id);
		if (r != ONLIST_OK) {
			sqlite3_reset(st);
			return r;
		}
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "read trailers");
}

onlist_status onlist_store_match_links(struct onlist_store *s,
				       onlist_link_cb fits, void *data,
				       long *added)
{
	return walk_links(s, NULL, fits, data, added);
}

onlist_status onlist_store_match_links_of(struct onlist_store *s, const char *sha,
				    onlist_link_cb each, void *data)
{
	return walk_links(s, sha, each, data, NULL);
}

/* ---- patch-id tiers ---- */

/* A whole run: the pairs of the two patch_id indexes first (no row
 * read), then the mails read in rowid order, the commits in rowid order,
 * and the rows written in the key order of matches.  Joined row by row,
 * each pair read a mail, a commit and wrote a match at a random place:
 * at 5,000,000 mails and 1,000,000 commits 18 s, most of it reading
 * pages.  Each step is MATERIALIZED in its ORDER BY; the LIMIT -1 (no
 * limit) keeps SQLite from dropping an ORDER BY it deems useless.
 * The pairs the tier does not take are the candidates of two later
 * tiers, kept in temp.exact_pairs: a mail too late (kind 1, the late
 * tier) and an echo (kind 2, the echo tier), which joined the same
 * tables again (8 s and 4 s at that size).  A commit row without a sha
 * (the column allows NULL; only a hand could write one) is left out, as
 * INSERT OR IGNORE into matches left it out before. */
static const char sql_exact_pairs[] =
	"CREATE TEMP TABLE IF NOT EXISTS exact_pairs(sha TEXT NOT NULL,"
	" msgid TEXT NOT NULL, kind INTEGER NOT NULL);"
	"DELETE FROM temp.exact_pairs;"
	"INSERT INTO temp.exact_pairs(sha, msgid, kind)"
	" WITH p AS MATERIALIZED (SELECT c.rowid AS cr, m.rowid AS mr"
	"  FROM commits c CROSS JOIN messages m ON m.patch_id = c.patch_id"
	"  WHERE c.patch_id IS NOT NULL ORDER BY 2 LIMIT -1),"
	" x AS MATERIALIZED (SELECT p.cr AS cr, m.msgid AS msgid, m.date AS date,"
	"  NOT" NOT_ECHO("m.msgid") " AS echo"
	"  FROM p CROSS JOIN messages m ON m.rowid = p.mr ORDER BY 1 LIMIT -1),"
	" y AS MATERIALIZED (SELECT c.sha AS sha, x.msgid AS msgid, x.date AS date,"
	"  x.echo AS echo FROM x CROSS JOIN commits c ON c.rowid = x.cr"
	"  WHERE c.sha IS NOT NULL ORDER BY 1, 2 LIMIT -1)"
	" SELECT y.sha, y.msgid, CASE WHEN y.echo THEN 2"
	"  WHEN" IN_TIME("y.sha", "y") " THEN 0 ELSE 1 END FROM y;";
static const char sql_exact[] =
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)"
	" SELECT sha, msgid, 'patch-id', 1.0 FROM temp.exact_pairs"
	" WHERE kind = 0";
/* matches_message as store_schema.c makes it: built from the sorted
 * rows, not a row at a time (sql_reset_whole dropped it) */
static const char sql_exact_keep[] =
	"DELETE FROM temp.exact_pairs WHERE kind = 0;"
	"CREATE INDEX IF NOT EXISTS matches_message ON matches(message_id);";

/* A commit's patch-id matches depend on its patch-id, the mails with it,
 * their class and its bound, not on any other match: after new mail
 * (since >= 0, see onlist_store_match_tier_stamp()) the last run's stay and
 * only the new mails are looked at. */
static const char sql_exact_new[] =
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)"
	" SELECT c.sha, m.msgid, 'patch-id', 1.0 FROM messages m"
	/* the new mails first, not every commit probed */
	" CROSS JOIN commits c ON c.patch_id = m.patch_id"
	" WHERE m.id > CAST(?1 AS INTEGER) AND m.patch_id IS NOT NULL AND"
	NOT_ECHO("m.msgid") " AND" IN_TIME("c.sha", "m");

onlist_status onlist_store_match_exact(struct onlist_store *s, int64_t since,
				       long *added)
{
	char arg[24];
	const char *p[1] = { arg };
	onlist_status st;
	long n;

	if (since < 0) {
		if (sqlite3_exec(s->db, sql_exact_pairs, NULL, NULL, NULL)
		    != SQLITE_OK)
			return fail(s, "match patch-id");
		if ((st = exec_count(s, sql_exact, NULL, 0, added,
				     "match patch-id")) != ONLIST_OK)
			return st;
		if (sqlite3_exec(s->db, sql_exact_keep, NULL, NULL, NULL)
		    != SQLITE_OK)
			return fail(s, "match patch-id");
		return ONLIST_OK;
	}
	snprintf(arg, sizeof(arg), "%" PRId64, since);
	if ((st = exec_count(s, sql_exact_new, p, 1, NULL,
			     "match patch-id")) != ONLIST_OK)
		return st;
	if ((n = onlist_store_match_count(s, "patch-id", 1)) < 0)
		return fail(s, "match patch-id");
	*added += n;
	return ONLIST_OK;
}

/* ---- after new mail: the tiers keep what new mail cannot change ---- */

/* The tiers in the order they run: a commit one of them matched is not
 * looked at by the later ones (UNMATCHED). */
#define BEFORE_ALT "'link', 'patch-id'"
#define BEFORE_REPAIRED BEFORE_ALT ", 'patch-id-alg'"
#define BEFORE_QUOTED BEFORE_REPAIRED ", 'repaired'"
#define BEFORE_AUTHOR_DATE BEFORE_QUOTED ", 'quoted'"
#define BEFORE_SUBJECT BEFORE_AUTHOR_DATE ", 'author-date'"
#define BEFORE_LATE BEFORE_SUBJECT ", 'subject', 'fuzzy'"
#define BEFORE_ECHO BEFORE_LATE ", 'late'"

/* After new mail only (since >= 0: the same commits, bounds and classes
 * of the old mails, onlist_store_match_tier_stamp()), a tier's rows for a
 * commit are the last run's (kept in place) unless
 * - an earlier tier matched the commit last run and none has now: the
 *   last run never got to this tier for it;
 * - a new mail is one of its candidates: one that carries its patch-id or
 *   one of its other ids, repaired or not, or quotes it
 *   (temp.dirty_new, the same for every tier: computed once);
 * - for the tiers that key on the author (author-date, subject), a mail
 *   of its key was taken by an earlier tier last run and is not now, or
 *   the other way round, and every commit of a DMARC-rewritten author
 *   (whose address comes from the mail, temp.via_author).
 * Those are computed again (temp.dirty); for every other commit still
 * unmatched the last run's rows are kept. */
static const char sql_dirty_create[] =
	"CREATE TEMP TABLE IF NOT EXISTS dirty(sha TEXT PRIMARY KEY) WITHOUT ROWID;"
	"CREATE TEMP TABLE IF NOT EXISTS dirty_new(sha TEXT PRIMARY KEY) WITHOUT ROWID;"
	"CREATE TEMP TABLE IF NOT EXISTS new_ids(id TEXT PRIMARY KEY) WITHOUT ROWID;"
	"DELETE FROM temp.dirty; DELETE FROM temp.dirty_new; DELETE FROM temp.new_ids;";
/* ?1: the last message the last run saw */
static const char *const sql_dirty_new[] = {
	"INSERT OR IGNORE INTO temp.new_ids SELECT patch_id FROM messages"
	" WHERE id > ?1 AND patch_id IS NOT NULL",
	"INSERT OR IGNORE INTO temp.new_ids SELECT p.repaired_id FROM messages m"
	" JOIN message_patch p ON p.msgid = m.msgid"
	" WHERE m.id > ?1 AND p.repaired_id IS NOT NULL",
	"INSERT OR IGNORE INTO temp.new_ids SELECT r.quoted_id FROM messages m"
	" JOIN message_reply r ON r.msgid = m.msgid"
	" WHERE m.id > ?1 AND r.quoted_id IS NOT NULL",
	"INSERT OR IGNORE INTO temp.new_ids SELECT r.quoted_repaired FROM messages m"
	" JOIN message_reply r ON r.msgid = m.msgid"
	" WHERE m.id > ?1 AND r.quoted_repaired IS NOT NULL",
};
/* the commits of those ids, and those whose quoted match is gone: the
 * mail its reply answers arrived */
static const char sql_dirty_commits[] =
	"INSERT OR IGNORE INTO temp.dirty_new SELECT c.sha FROM temp.new_ids n"
	" CROSS JOIN commits c ON c.patch_id = n.id WHERE c.patch_id IS NOT NULL;"
	/* by the indexes of schema 19, one column at a time */
	"INSERT OR IGNORE INTO temp.dirty_new SELECT c.sha FROM temp.new_ids n"
	" CROSS JOIN commit_patch c ON c.alt_histogram = n.id;"
	"INSERT OR IGNORE INTO temp.dirty_new SELECT c.sha FROM temp.new_ids n"
	" CROSS JOIN commit_patch c ON c.alt_patience = n.id;"
	"INSERT OR IGNORE INTO temp.dirty_new SELECT c.sha FROM temp.new_ids n"
	" CROSS JOIN commit_patch c ON c.alt_minimal = n.id;";
/* the quoted tier has not run: its rows are the last run's (read when
 * there are some: finding them reads every match, 0.1 s at 5M) */
static const char sql_dirty_quoted[] =
	"INSERT OR IGNORE INTO temp.dirty_new SELECT o.commit_sha"
	" FROM matches o JOIN messages m ON m.msgid = o.message_id"
	" WHERE o.method = 'quoted'"
	" AND EXISTS (SELECT 1 FROM messages p WHERE p.msgid = m.in_reply_to);";

onlist_status onlist_store_match_since(struct onlist_store *s, int64_t since)
{
	onlist_status st = ONLIST_OK;
	long quoted;

	if (sqlite3_exec(s->db, sql_dirty_create, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "create temporary tables");
	if (since < 0)
		return ONLIST_OK;
	for (size_t i = 0; st == ONLIST_OK &&
	     i < sizeof(sql_dirty_new) / sizeof(*sql_dirty_new); i++)
		st = step(s, prepare(s, sql_dirty_new[i]), "find what new mail changes",
			  "I", since);
	if (st == ONLIST_OK &&
	    (sqlite3_exec(s->db, sql_dirty_commits, NULL, NULL, NULL)
	     != SQLITE_OK ||
	     (quoted = onlist_store_match_count(s, "quoted", 1)) < 0 ||
	     (quoted && sqlite3_exec(s->db, sql_dirty_quoted, NULL, NULL, NULL)
	      != SQLITE_OK)))
		st = fail(s, "find what new mail changes");
	return st;
}

/* Unmatched by the tiers before (their methods: the rows of the later
 * ones are the last run's, still in place). */
#define UNMATCHED_BY(c, before) " NOT EXISTS (SELECT 1 FROM matches x" \
	" WHERE x.commit_sha = " c " AND x.method IN (" before "))"
/* a row of the last run, by its key: there now, but for what the log
 * says was written and deleted since */
#define WAS(r) ONLIST_SQL_MATCH_WAS(r)
/* temp.dirty for a tier: temp.dirty_new and the commits an earlier tier
 * (before) matched last run that none has now (one of those rows was
 * deleted: it is in the log) */
#define DIRTY_OF(before) \
	"DELETE FROM temp.dirty;" \
	"INSERT OR IGNORE INTO temp.dirty SELECT sha FROM temp.dirty_new;" \
	"INSERT OR IGNORE INTO temp.dirty SELECT DISTINCT l.commit_sha" \
	" FROM temp.match_log l WHERE l.method IN (" before ") AND l.op < 0" \
	" AND" WAS("l") " AND" UNMATCHED_BY("l.commit_sha", before) ";"
/* the mails an earlier tier (before) took last run and not now, or now
 * and not last run: a row of such a mail was written or deleted (it is
 * in the log); whether it had one last run: a row there now that was
 * there, or one deleted */
#define CHANGED_MAILS(before) \
	" SELECT l.message_id FROM temp.match_log l WHERE l.method IN (" before ")" \
	" AND EXISTS (SELECT 1 FROM matches x WHERE x.message_id = l.message_id" \
	"  AND x.method IN (" before "))" \
	" IS NOT (EXISTS (SELECT 1 FROM matches x WHERE x.message_id = l.message_id" \
	"  AND x.method IN (" before ") AND" WAS("x") ")" \
	"  OR EXISTS (SELECT 1 FROM temp.match_log k WHERE k.message_id = l.message_id" \
	"  AND k.method IN (" before ") AND k.op < 0 AND" WAS("k") "))"
#define IN_DIRTY(c) " " c " IN (SELECT sha FROM temp.dirty) AND"

struct tier {
	const char *method;
	const char *dirty;	/* fills temp.dirty */
	const char *clear;	/* deletes the rows to compute again */
	const char *all, *some;	/* the tier for every commit, and for those
				 * in temp.dirty */
	const char *what;
};

/* A tier: the matches of method that sql(filter, unmatched) makes,
 * computed again for the commits in temp.dirty, whose earlier tiers'
 * methods are before. */
#define TIER(before, method, sql, what) \
	{ method, DIRTY_OF(before), CLEAR(method, before), \
	  sql("", UNMATCHED("c.sha")), \
	  sql(IN_DIRTY("c.sha"), UNMATCHED_BY("c.sha", before ", '" method "'")), \
	  what }

static onlist_status run_tier(struct onlist_store *s, const struct tier *t,
			      int64_t since, long *added)
{
	onlist_status st;
	long n;

	if (since < 0)
		return exec_count(s, t->all, NULL, 0, added, t->what);
	if (sqlite3_exec(s->db, t->dirty, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(s->db, t->clear, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, t->what);
	if ((st = exec_count(s, t->some, NULL, 0, NULL, t->what)) != ONLIST_OK)
		return st;
	if ((n = onlist_store_match_count(s, t->method, 1)) < 0)
		return fail(s, t->what);
	*added += n;
	return ONLIST_OK;
}

/* The commits drive (CROSS JOIN keeps the order): only those whose diff
 * gave another id have one, a search of the sender's patch_id index
 * each, where driven by the messages every mail with a patch-id was
 * probed three times (2 s at 1M mails; the UNION sorts the rows, so the
 * order is the same). */
#define ALT_JOIN(col, f, u) \
	" SELECT c.sha, m.msgid, 'patch-id-alg', 1.0 FROM commit_patch c" \
	" CROSS JOIN messages m ON m.patch_id = c." col \
	" WHERE c." col " IS NOT NULL AND" f u " AND" NOT_ECHO("m.msgid") \
	" AND" IN_TIME("c.sha", "m")
#define ALT(f, u) \
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)" \
	ALT_JOIN("alt_histogram", f, u) " UNION" ALT_JOIN("alt_patience", f, u) \
	" UNION" ALT_JOIN("alt_minimal", f, u)

static const struct tier tier_alt =
	TIER(BEFORE_ALT, "patch-id-alg", ALT, "match other algorithms");

#define REP_JOIN(tab, col, f, u) \
	" SELECT c.sha, p.msgid, 'repaired', 1.0 FROM " tab " c" \
	" JOIN message_patch p ON p.repaired_id = c." col \
	" JOIN messages m ON m.msgid = p.msgid" \
	" WHERE" f u " AND" NOT_ECHO("p.msgid") " AND" IN_TIME("c.sha", "m")
#define REPAIRED(f, u) \
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)" \
	REP_JOIN("commits", "patch_id", f, u) \
	" UNION" REP_JOIN("commit_patch", "alt_histogram", f, u) \
	" UNION" REP_JOIN("commit_patch", "alt_patience", f, u) \
	" UNION" REP_JOIN("commit_patch", "alt_minimal", f, u)

static const struct tier tier_repaired =
	TIER(BEFORE_REPAIRED, "repaired", REPAIRED, "match repaired");

/* ---- the quoted tier: mail the archive lost ---- */

/* A reply that answers a Message-ID the database does not have, and
 * quotes a diff whose patch-id (or repaired id) is a commit's: the mail
 * it answers was that commit's posting, lost from the archive (issue
 * 27).  The match names the quoting reply; unmatched commits only. */
#define QUOTED_JOIN(col, f, u) \
	" SELECT c.sha, r.msgid, 'quoted', 1.0 FROM commits c" \
	" JOIN message_reply r ON r." col " = c.patch_id" \
	" JOIN messages m ON m.msgid = r.msgid" \
	" WHERE" f " c.patch_id IS NOT NULL AND" u \
	" AND coalesce(m.in_reply_to, '') <> ''" \
	" AND NOT EXISTS (SELECT 1 FROM messages p WHERE p.msgid = m.in_reply_to)" \
	" AND" NOT_ECHO("r.msgid") " AND" IN_TIME("c.sha", "m")
#define QUOTED(f, u) \
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)" \
	QUOTED_JOIN("quoted_id", f, u) " UNION" QUOTED_JOIN("quoted_repaired", f, u)

static const struct tier tier_quoted =
	TIER(BEFORE_QUOTED, "quoted", QUOTED, "match quoted");

/* ---- author-date and subject tiers ---- */

/* git am copies a mail's From: and Date: into the commit's author and
 * author date: a mail with a diff from the commit's author, dated the
 * commit's author date to the second, is its posting however the diff
 * and the subject were rewritten on the way in (GitGitGadget links
 * git.git's commits to their mails by this key).  A mail another commit
 * already has is not taken. */
/* What the mail must be: a patch not an echo, in time, not taken. */
#define AUTHOR_DATE_MAIL(taken) \
	" i.class = 'patch' AND m.has_patch" \
	" AND" NOT_ECHO("m.msgid") " AND" IN_TIME("c.sha", "m") \
	" AND NOT EXISTS (SELECT 1 FROM matches x WHERE x.message_id = m.msgid" \
	taken ")"
#define AUTHOR_DATE(f, u, taken) \
	"SELECT c.sha, m.msgid, c.subject, c.files, i.stripped, p.files" \
	" FROM commits c" \
	/* commit first (CROSS JOIN keeps the order): a search of the \
	 * sender index per commit, not a scan of every message */ \
	" CROSS JOIN messages m ON lower(m.from_addr) =" AUTHOR_EMAIL("c") \
	"  AND m.date = c.author_date" \
	" JOIN message_info i ON i.msgid = m.msgid" \
	" LEFT JOIN message_patch p ON p.msgid = m.msgid" \
	" WHERE" f u " AND" AUTHOR_DATE_MAIL(taken)
/* A whole run: the unmatched commits found in matches' key order (the
 * commits' sha index), read in rowid order, and their sender index
 * searched in its order (address, date).  A commit at a time in the
 * author date index's order, each read its row, its matches and the
 * sender index at random places: 6.6 s -> 1.7 s CPU at 5,000,000 mails
 * and 1,000,000 commits.  The commit's row is read again by sha only
 * for the few whose mail fits. */
#define AUTHOR_DATE_WHOLE \
	"WITH u AS MATERIALIZED (SELECT cr FROM (SELECT c.rowid AS cr" \
	"  FROM commits c WHERE" UNMATCHED("c.sha") \
	"  ORDER BY c.sha LIMIT -1) ORDER BY 1 LIMIT -1)," \
	" k AS MATERIALIZED (SELECT c.sha AS sha," AUTHOR_EMAIL("c") " AS email," \
	"  c.author_date AS ad FROM u CROSS JOIN commits c ON c.rowid = u.cr" \
	"  WHERE c.author_date IS NOT NULL ORDER BY 2, 3 LIMIT -1)" \
	" SELECT c.sha, m.msgid, c.subject, c.files, i.stripped, p.files" \
	" FROM k CROSS JOIN messages m ON lower(m.from_addr) = k.email" \
	"  AND m.date = k.ad" \
	" CROSS JOIN message_info i ON i.msgid = m.msgid" \
	" CROSS JOIN commits c ON c.sha = k.sha" \
	" LEFT JOIN message_patch p ON p.msgid = m.msgid" \
	" WHERE" AUTHOR_DATE_MAIL("")
/* after new mail the rows of the later tiers are the last run's: only
 * the earlier tiers' count (as when the table was rebuilt) */
static const char *const sql_author_date[] = {
	AUTHOR_DATE_WHOLE,
	AUTHOR_DATE(IN_DIRTY("c.sha"), UNMATCHED_BY("c.sha", BEFORE_AUTHOR_DATE),
		    " AND x.method IN (" BEFORE_AUTHOR_DATE ")")
};
/* After new mail: the commits of the author date of a new mail, or of a
 * mail an earlier tier took or gave back (?1: the last message the last
 * run saw). */
static const char sql_author_date_dirty[] =
	/* by the index of schema 19 on the author date */
	"INSERT OR IGNORE INTO temp.dirty SELECT c.sha FROM commits c"
	" WHERE c.author_date IN (SELECT date FROM messages"
	"  WHERE id > ?1 AND date IS NOT NULL"
	"  UNION SELECT m.date FROM messages m WHERE m.msgid IN ("
	CHANGED_MAILS(BEFORE_AUTHOR_DATE) "))"
	/* the commits whose author name is '% via %' */
	" UNION SELECT sha FROM temp.via_commits";
static const char sql_author_date_dirty_of[] = DIRTY_OF(BEFORE_AUTHOR_DATE);
static const char sql_author_date_clear[] =
	CLEAR("author-date", BEFORE_AUTHOR_DATE);
static const char sql_put_author_date[] =
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)"
	" VALUES(?1, ?2, 'author-date', 1.0)";

onlist_status onlist_store_match_author_date(struct onlist_store *s,
					     int64_t since,
					     onlist_link_cb fits, void *data,
					     long *added)
{
	sqlite3_stmt *st;
	GPtrArray *take;
	onlist_status r = ONLIST_OK;
	int rc;

	if (since >= 0 &&
	    (sqlite3_exec(s->db, sql_author_date_dirty_of, NULL, NULL, NULL)
	     != SQLITE_OK ||
	     step(s, prepare(s, sql_author_date_dirty), "match author date",
		  "I", since) != ONLIST_OK))
		return fail(s, "match author date");
	if (!(st = prepare(s, sql_author_date[since >= 0])))
		return fail(s, "prepare");
	take = g_ptr_array_new_with_free_func(g_free);
	/* all read before any is written: as one INSERT ... SELECT did, a
	 * mail one commit takes here is not kept from another */
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_link_row row = {
			(const char *)sqlite3_column_text(st, 0),
			(const char *)sqlite3_column_text(st, 1), 0,
			(const char *)sqlite3_column_text(st, 2),
			(const char *)sqlite3_column_text(st, 3),
			(const char *)sqlite3_column_text(st, 4),
			(const char *)sqlite3_column_text(st, 5),
		};

		if (!row.sha || !row.msgid || (fits && !fits(&row, data)))
			continue;
		g_ptr_array_add(take, g_strdup(row.sha));
		g_ptr_array_add(take, g_strdup(row.msgid));
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		r = fail(s, "match author date");
	if (r == ONLIST_OK && since >= 0 &&
	    sqlite3_exec(s->db, sql_author_date_clear, NULL, NULL, NULL)
	    != SQLITE_OK)
		r = fail(s, "match author date");
	for (guint i = 0; r == ONLIST_OK && i + 1 < take->len; i += 2) {
		const char *p[2] = { take->pdata[i], take->pdata[i + 1] };

		r = exec_count(s, sql_put_author_date, p, 2,
			       since >= 0 ? NULL : added, "match author date");
	}
	g_ptr_array_free(take, TRUE);
	if (r == ONLIST_OK && since >= 0) {
		long n = onlist_store_match_count(s, "author-date", 1);

		if (n < 0)
			return fail(s, "match author date");
		*added += n;
	}
	return r;
}

#define SUBJECT_COLS \
	"SELECT c.sha, c.subject," AUTHOR_EMAIL("c") ", c.author_date," \
	" (SELECT b.bound FROM temp.bound b WHERE b.sha = c.sha)," \
	" c.sha IN (SELECT sha FROM temp.dirty) OR c.author_name LIKE '% via %'"
#define SUBJECT_COMMITS(u) \
	SUBJECT_COLS " FROM commits c WHERE c.author_email IS NOT NULL AND" u
/* one commit (--explain) */
static const char sql_subject_commits[] =
	SUBJECT_COMMITS(UNMATCHED("c.sha")) " AND c.sha = ?1";
/* A whole run: the unmatched commits found in matches' key order (the
 * commits' sha index), then read in rowid order, as the author-date
 * tier finds them (AUTHOR_DATE_WHOLE).  Asked of each commit in rowid
 * order, its matches were a look-up at a random place: 5M x 1M, 2.4
 * million page reads for the statement (830,000 against 74,000 in the
 * sqlite3 shell, on the matched database). */
static const char sql_subject_commits_whole[] =
	"WITH u AS MATERIALIZED (SELECT cr FROM (SELECT c.rowid AS cr"
	"  FROM commits c WHERE" UNMATCHED("c.sha")
	"  ORDER BY c.sha LIMIT -1) ORDER BY 1 LIMIT -1)"
	SUBJECT_COLS " FROM u CROSS JOIN commits c ON c.rowid = u.cr"
	" WHERE c.author_email IS NOT NULL";
/* After new mail: the commits the tier computes again (temp.dirty), those
 * of a DMARC-rewritten author (temp.via_commits: their address comes from
 * the mail), and those of the given senders (temp.subject_from, filled by
 * the author index one address at a time: in one join the planner, with
 * no statistics for a temporary table, reads every commit instead). */
static const char sql_subject_from_create[] =
	"CREATE TEMP TABLE IF NOT EXISTS subject_from(sha TEXT PRIMARY KEY)"
	" WITHOUT ROWID; DELETE FROM temp.subject_from;";
static const char sql_subject_from_add[] =
	"INSERT OR IGNORE INTO temp.subject_from(sha)"
	" SELECT sha FROM commits WHERE lower(author_email) = ?1";
static const char sql_subject_from_key[] =
	"INSERT OR IGNORE INTO temp.subject_from(sha)"
	" SELECT sha FROM commit_subject WHERE author = ?1 AND skey = ?2";
static const char sql_subject_commits_of[] =
	SUBJECT_COMMITS(UNMATCHED_BY("c.sha", BEFORE_SUBJECT))
	" AND c.sha IN (SELECT sha FROM temp.dirty"
	" UNION SELECT sha FROM temp.via_commits"
	" UNION SELECT sha FROM temp.subject_from)";
/* Patch mails no commit has yet, not echoes, not replies: the subject
 * tier's side.  A "Re:" that carries a diff is a suggestion in a
 * discussion more often than a version of the patch (on bluez the one
 * such match was a reviewer's sketch, while the real posting came
 * through b4's web relay under another address). */
#define SUBJECT_MAILS(taken) \
	"SELECT m.msgid, i.stripped, lower(m.from_addr)," SENT("m") "," \
	" coalesce(m.patch_id, m.msgid)" \
	" FROM messages m JOIN message_info i ON i.msgid = m.msgid" \
	" WHERE i.class = 'patch' AND m.has_patch AND m.from_addr IS NOT NULL" \
	" AND NOT coalesce(i.reply, 0) AND" NOT_ECHO("m.msgid") \
	" AND NOT EXISTS (SELECT 1 FROM matches x WHERE x.message_id = m.msgid" \
	taken ")"
static const char sql_subject_mails[] = SUBJECT_MAILS("");
/* after new mail: the rows of the later tiers are the last run's */
static const char sql_subject_mails_from[] =
	SUBJECT_MAILS(" AND x.method IN (" BEFORE_SUBJECT ")")
	" AND lower(m.from_addr) = ?1";
/* after new mail: the mails of one sender and subject key, by the stored
 * keys (schema 19) */
static const char sql_subject_mails_key[] =
	"SELECT m.msgid, i.stripped, lower(m.from_addr)," SENT("m") ","
	" coalesce(m.patch_id, m.msgid)"
	" FROM mail_subject k CROSS JOIN messages m ON m.msgid = k.msgid"
	" JOIN message_info i ON i.msgid = m.msgid"
	" WHERE k.addr = ?1 AND k.skey = ?2"
	" AND i.class = 'patch' AND m.has_patch AND m.from_addr IS NOT NULL"
	" AND NOT coalesce(i.reply, 0) AND" NOT_ECHO("m.msgid")
	" AND NOT EXISTS (SELECT 1 FROM matches x WHERE x.message_id = m.msgid"
	" AND x.method IN (" BEFORE_SUBJECT "))";
/* After new mail: the sender and subject of the new patch mails and of
 * those an earlier tier took or gave back (?1: the last message the last
 * run saw). */
static const char sql_subject_dirty_of[] = DIRTY_OF(BEFORE_SUBJECT);
static const char sql_subject_changed[] =
	"SELECT lower(m.from_addr), i.stripped FROM messages m"
	" JOIN message_info i ON i.msgid = m.msgid"
	" WHERE m.id > CAST(?1 AS INTEGER) AND i.class = 'patch'"
	" UNION SELECT lower(m.from_addr), i.stripped FROM messages m"
	" JOIN message_info i ON i.msgid = m.msgid WHERE m.msgid IN ("
	CHANGED_MAILS(BEFORE_SUBJECT) ")";
static const char sql_subject_clear[] = CLEAR("subject", BEFORE_SUBJECT);
static const char sql_dirty_add[] =
	"INSERT OR IGNORE INTO temp.dirty(sha) VALUES(?1)";

/* The columns of sql_subject_commits and SUBJECT_MAILS, named once. */
struct subject_rows {
	onlist_subject_commit_cb commit;
	onlist_subject_mail_cb mail;
	void *data;
};

static int subject_commit_row(int ncol, const char *const *c, void *data)
{
	const struct subject_rows *x = data;
	struct onlist_subject_commit_row r = {
		.sha = c[0], .subject = c[1], .author = c[2],
		.author_date = c[3] ? g_ascii_strtoll(c[3], NULL, 10) : 0,
		.bound = c[4] ? g_ascii_strtoll(c[4], NULL, 10) : 0,
		.dirty = c[5] && strcmp(c[5], "0"),
	};

	(void)ncol;
	return x->commit(&r, x->data);
}

static int subject_mail_row(int ncol, const char *const *c, void *data)
{
	const struct subject_rows *x = data;
	struct onlist_subject_mail_row r = {
		.msgid = c[0], .stripped = c[1], .from = c[2],
		.date = c[3] ? g_ascii_strtoll(c[3], NULL, 10) : 0,
		.diff = c[4],
	};

	(void)ncol;
	return x->mail(&r, x->data);
}

/* sql_subject_changed: sender, stripped subject. */
static int subject_changed_row(int ncol, const char *const *c, void *data)
{
	const struct subject_rows *x = data;
	struct onlist_subject_mail_row r = { .from = c[0], .stripped = c[1] };

	(void)ncol;
	return x->mail(&r, x->data);
}

onlist_status onlist_store_match_subject_commits(struct onlist_store *s,
					   const char *sha,
					   onlist_subject_commit_cb cb,
					   void *data)
{
	struct subject_rows x = { .commit = cb, .data = data };
	sqlite3_stmt *st;
	const char *p[1] = { sha };

	/* --explain reads it without a match run */
	if (sqlite3_exec(s->db, "CREATE TEMP TABLE IF NOT EXISTS dirty(sha TEXT"
			 " PRIMARY KEY) WITHOUT ROWID", NULL, NULL, NULL)
	    != SQLITE_OK)
		return fail(s, "create a temporary table");
	if (!(st = onlist__store_prepare(s, sha ? sql_subject_commits :
					 sql_subject_commits_whole)))
		return fail(s, "prepare");
	return onlist__store_rows(s, st, p, sha ? 1 : 0, subject_commit_row,
				  &x, NULL);
}

onlist_status onlist_store_match_subject_commits_of(struct onlist_store *s,
						   const char *const *addrs,
						   const char *const *keys,
						   size_t n,
						   onlist_subject_commit_cb cb,
						   void *data)
{
	struct subject_rows x = { .commit = cb, .data = data };
	sqlite3_stmt *st;

	if (sqlite3_exec(s->db, sql_subject_from_create, NULL, NULL, NULL)
	    != SQLITE_OK)
		return fail(s, "create a temporary table");
	for (size_t i = 0; i < n; i++)
		if ((keys ? step(s, prepare(s, sql_subject_from_key),
				 "match subjects", "tt", addrs[i], keys[i]) :
		     step(s, prepare(s, sql_subject_from_add), "match subjects",
			  "t", addrs[i])) != ONLIST_OK)
			return ONLIST_EDB;
	if (!(st = onlist__store_prepare(s, sql_subject_commits_of)))
		return fail(s, "prepare");
	return onlist__store_rows(s, st, NULL, 0, subject_commit_row, &x, NULL);
}

onlist_status onlist_store_match_subject_mails(struct onlist_store *s,
					 const char *addr,
					 onlist_subject_mail_cb cb, void *data)
{
	struct subject_rows x = { .mail = cb, .data = data };
	sqlite3_stmt *st = onlist__store_prepare(s, addr ? sql_subject_mails_from :
						 sql_subject_mails);
	const char *p[1] = { addr };

	if (!st)
		return fail(s, "prepare");
	return onlist__store_rows(s, st, p, addr ? 1 : 0, subject_mail_row,
				  &x, NULL);
}

onlist_status onlist_store_match_subject_mails_key(struct onlist_store *s,
						  const char *addr,
						  const char *key,
						  onlist_subject_mail_cb cb,
						  void *data)
{
	struct subject_rows x = { .mail = cb, .data = data };
	sqlite3_stmt *st = onlist__store_prepare(s, sql_subject_mails_key);
	const char *p[2] = { addr, key };

	if (!st)
		return fail(s, "prepare");
	return onlist__store_rows(s, st, p, 2, subject_mail_row, &x, NULL);
}

/* ---- the stored subject keys (schema 19) ---- */

/* Made whole: the rows go to temporary tables first and into the stored
 * ones in key order, the indexes built after (row by row into indexed
 * tables, 2.5 million rows took 45 s CPU, most of it waiting on pages). */
static const char sql_keys_clear[] =
	"DELETE FROM commit_subject; DELETE FROM mail_subject;"
	"DROP INDEX IF EXISTS commit_subject_stripped;"
	"DROP INDEX IF EXISTS commit_subject_key;"
	"DROP INDEX IF EXISTS mail_subject_key;"
	"CREATE TEMP TABLE IF NOT EXISTS new_commit_subject(sha TEXT NOT NULL,"
	" author TEXT NOT NULL, stripped TEXT NOT NULL, skey TEXT NOT NULL);"
	"CREATE TEMP TABLE IF NOT EXISTS new_mail_subject(msgid TEXT NOT NULL,"
	" addr TEXT NOT NULL, skey TEXT NOT NULL);"
	"DELETE FROM temp.new_commit_subject; DELETE FROM temp.new_mail_subject;";
static const char sql_keys_whole_end[] =
	"INSERT OR REPLACE INTO commit_subject(sha, author, stripped, skey)"
	" SELECT sha, author, stripped, skey FROM temp.new_commit_subject"
	" ORDER BY sha;"
	"INSERT OR REPLACE INTO mail_subject(msgid, addr, skey)"
	" SELECT msgid, addr, skey FROM temp.new_mail_subject ORDER BY msgid;"
	"DELETE FROM temp.new_commit_subject; DELETE FROM temp.new_mail_subject;"
	/* as schema 19 makes them */
	"CREATE INDEX IF NOT EXISTS commit_subject_stripped"
	" ON commit_subject(stripped);"
	"CREATE INDEX IF NOT EXISTS commit_subject_key"
	" ON commit_subject(author, skey);"
	"CREATE INDEX IF NOT EXISTS mail_subject_key ON mail_subject(addr, skey);";
static const char sql_keys_now[] =
	"SELECT (SELECT coalesce(max(id), 0) FROM messages),"
	" (SELECT coalesce(max(rowid), 0) FROM commits)";
static const char sql_keys_commits[] =
	"SELECT sha, subject, coalesce(lower(author_email), '') FROM commits"
	" WHERE rowid > ?1 AND rowid <= ?2";
static const char sql_keys_mails[] =
	"SELECT m.msgid, i.stripped, lower(m.from_addr) FROM messages m"
	" JOIN message_info i ON i.msgid = m.msgid"
	" WHERE m.id > ?1 AND m.id <= ?2 AND i.class = 'patch'"
	" AND m.from_addr IS NOT NULL AND i.stripped IS NOT NULL";
/* The same when made whole: the patch mails' info in its key order, their
 * rowids found in that order by the Message-ID index, then the messages
 * read in rowid order; driven by the messages, each of them searched
 * the info rows at a random place (at 5,000,000 mails 3.1 s -> 2.6 s). */
static const char sql_keys_mails_whole[] =
	"WITH r AS MATERIALIZED (SELECT m.rowid AS mr, i.stripped AS stripped"
	"  FROM message_info i CROSS JOIN messages m ON m.msgid = i.msgid"
	"  WHERE i.class = 'patch' AND i.stripped IS NOT NULL"
	"  ORDER BY 1 LIMIT -1)"
	" SELECT m.msgid, r.stripped, lower(m.from_addr)"
	" FROM r CROSS JOIN messages m ON m.rowid = r.mr"
	" WHERE m.id > ?1 AND m.id <= ?2 AND m.from_addr IS NOT NULL";
static const char *const sql_put_commit_key[] = {
	"INSERT OR REPLACE INTO commit_subject(sha, author, stripped, skey)"
	" VALUES(?1, ?2, ?3, ?4)",
	"INSERT INTO temp.new_commit_subject(sha, author, stripped, skey)"
	" VALUES(?1, ?2, ?3, ?4)"
};
static const char *const sql_put_mail_key[] = {
	"INSERT OR REPLACE INTO mail_subject(msgid, addr, skey) VALUES(?1, ?2, ?3)",
	"INSERT INTO temp.new_mail_subject(msgid, addr, skey) VALUES(?1, ?2, ?3)"
};


static onlist_status key_rows(struct onlist_store *s, const char *sql,
			      int64_t from, int64_t to,
			      int (*cb)(const char *a, const char *b,
					const char *c, void *data),
			      void *data)
{
	sqlite3_stmt *st = prepare(s, sql);
	int rc;

	if (!st)
		return fail(s, "prepare");
	onlist__store_bind(st, "II", from, to);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (cb((const char *)sqlite3_column_text(st, 0),
		       (const char *)sqlite3_column_text(st, 1),
		       (const char *)sqlite3_column_text(st, 2), data)) {
			sqlite3_reset(st);
			return ONLIST_ENOMEM;
		}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "read subjects");
}

onlist_status onlist_store_match_keys_update(struct onlist_store *s, int *whole,
					     const struct onlist_subject_key_cbs *cb,
					     void *data)
{
	char *was = *whole ? NULL : onlist_store_get_meta(s, "subject_keys");
	int64_t last[2] = { 0, 0 }, now[2];
	char stamp[48];
	onlist_status st;

	if (!was || sscanf(was, "%" SCNd64 ":%" SCNd64, &last[0], &last[1]) != 2) {
		last[0] = last[1] = 0;
		if (sqlite3_exec(s->db, sql_keys_clear, NULL, NULL, NULL)
		    != SQLITE_OK) {
			free(was);
			return fail(s, "clear subject keys");
		}
		*whole = 1;
	}
	free(was);
	if (!onlist__store_int64s(s, sql_keys_now, -1, now, 2))
		st = fail(s, "subject keys");
	else if ((st = key_rows(s, sql_keys_commits, last[1], now[1],
				cb->commit, data)) == ONLIST_OK)
		st = key_rows(s, *whole ? sql_keys_mails_whole : sql_keys_mails,
			      last[0], now[0], cb->mail, data);
	if (st == ONLIST_OK && *whole &&
	    sqlite3_exec(s->db, sql_keys_whole_end, NULL, NULL, NULL) != SQLITE_OK)
		st = fail(s, "subject keys");
	if (st != ONLIST_OK)
		return st;
	snprintf(stamp, sizeof(stamp), "%" PRId64 ":%" PRId64, now[0], now[1]);
	return onlist_store_set_meta(s, "subject_keys", stamp);
}

onlist_status onlist_store_match_put_commit_key(struct onlist_store *s,
						int whole, const char *sha,
						const char *author,
						const char *stripped,
						const char *key)
{
	return step(s, prepare(s, sql_put_commit_key[whole != 0]), "subject keys",
		    "tttt", sha, author, stripped, key);
}

onlist_status onlist_store_match_put_mail_key(struct onlist_store *s,
					      int whole, const char *msgid,
					      const char *addr, const char *key)
{
	return step(s, prepare(s, sql_put_mail_key[whole != 0]), "subject keys",
		    "ttt", msgid, addr, key);
}

onlist_status onlist_store_match_subject_changed(struct onlist_store *s,
					   int64_t since,
					   onlist_subject_mail_cb cb,
					   void *data)
{
	struct subject_rows x = { .mail = cb, .data = data };
	sqlite3_stmt *st;
	char arg[24];
	const char *p[1] = { arg };

	if (sqlite3_exec(s->db, sql_subject_dirty_of, NULL, NULL, NULL)
	    != SQLITE_OK)
		return fail(s, "match subjects");
	snprintf(arg, sizeof(arg), "%" PRId64, since);
	if (!(st = onlist__store_prepare(s, sql_subject_changed)))
		return fail(s, "prepare");
	return onlist__store_rows(s, st, p, 1, subject_changed_row, &x, NULL);
}

onlist_status onlist_store_match_dirty_add(struct onlist_store *s, const char *sha)
{
	return step(s, prepare(s, sql_dirty_add), "match subjects", "t", sha);
}

onlist_status onlist_store_match_subject_clear(struct onlist_store *s)
{
	if (sqlite3_exec(s->db, sql_subject_clear, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "match subjects");
	return ONLIST_OK;
}

/* A tier whose whole run takes the pairs of kind the patch-id tier kept
 * (temp.exact_pairs) and the repaired ids (repaired(filter, unmatched)),
 * and after new mail sql(filter, unmatched) for the commits in temp.dirty. */
#define TIER_KEPT(before, method, kind, sql, repaired, what) \
	{ method, DIRTY_OF(before), CLEAR(method, before), \
	  "INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)" \
	  " SELECT l.sha, l.msgid, '" method "', 1.0 FROM temp.exact_pairs l" \
	  " WHERE l.kind = " kind " AND" UNMATCHED("l.sha") \
	  repaired("", UNMATCHED("c.sha")), \
	  sql(IN_DIRTY("c.sha"), UNMATCHED_BY("c.sha", before ", '" method "'")), \
	  what }

/* Commits nothing else matched, whose patch reached a list only as an
 * echo (the same patch-id, repaired or not, in an echo or bot mail). */
#define ECHO_REPAIRED(f, u) \
	" UNION SELECT c.sha, p.msgid, 'echo', 1.0 FROM commits c" \
	" JOIN message_patch p ON p.repaired_id = c.patch_id" \
	" JOIN echoes e ON e.msgid = p.msgid WHERE" f u
/* For the commits in temp.dirty the commits drive; a whole run takes
 * the echo pairs the patch-id tier kept (temp.exact_pairs, kind 2,
 * dropped by onlist_store_match_log_end()).
 * The UNION sorts the rows: what is inserted is the same. */
#define ECHO(f, u) \
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)" \
	" SELECT c.sha, m.msgid, 'echo', 1.0 FROM commits c" \
	" JOIN messages m ON m.patch_id = c.patch_id" \
	" JOIN echoes e ON e.msgid = m.msgid WHERE" f u ECHO_REPAIRED(f, u)

static const struct tier tier_echo = TIER_KEPT(BEFORE_ECHO, "echo", "2", ECHO,
						ECHO_REPAIRED, "match echoes");

/* Commits nothing else matched whose patch was posted, but only more than
 * a day after the commit landed: a backport or a resend, not a posting
 * before merge. */
#define LATE_REPAIRED(f, u) \
	" UNION SELECT c.sha, m.msgid, 'late', 1.0 FROM commits c" \
	" JOIN message_patch p ON p.repaired_id = c.patch_id" \
	" JOIN messages m ON m.msgid = p.msgid" \
	" WHERE" f u " AND" NOT_ECHO("m.msgid") " AND" LATE("c.sha", "m")
#define LATE_SQL(f, u) \
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)" \
	" SELECT c.sha, m.msgid, 'late', 1.0 FROM commits c" \
	" JOIN messages m ON m.patch_id = c.patch_id" \
	" WHERE" f u " AND" NOT_ECHO("m.msgid") " AND" LATE("c.sha", "m") \
	LATE_REPAIRED(f, u)

/* a whole run: the pairs kept are not echoes, not in time (kind 1) */
static const struct tier tier_late = TIER_KEPT(BEFORE_LATE, "late", "1", LATE_SQL,
						LATE_REPAIRED,
						"match late postings");

/* The tiers that are one statement, by enum onlist_sql_tier. */
static const struct tier *const sql_tiers[] = {
	[ONLIST_TIER_ALT] = &tier_alt,
	[ONLIST_TIER_REPAIRED] = &tier_repaired,
	[ONLIST_TIER_QUOTED] = &tier_quoted,
	[ONLIST_TIER_LATE] = &tier_late,
	[ONLIST_TIER_ECHO] = &tier_echo,
};

onlist_status onlist_store_match_tier(struct onlist_store *s,
				      enum onlist_sql_tier t, int64_t since,
				      long *added)
{
	return run_tier(s, sql_tiers[t], since, added);
}

static const char sql_put_match[] =
	"INSERT OR IGNORE INTO matches(commit_sha, message_id, method, score)"
	" VALUES(?1, ?2, ?3, ?4)";

onlist_status onlist_store_match_put(struct onlist_store *s, const char *sha,
				     const char *msgid, const char *method,
				     double score)
{
	return step(s, prepare(s, sql_put_match), "insert match", "tttf", sha,
		    msgid, method, score);
}

/* ---- what the fuzzy tier reads ---- */

/* Not the commits scan could not diff: git would fail on them again (and
 * take the whole batch down with it). */
static const char sql_need_patch[] =
	"SELECT c.sha FROM commits c"
	" WHERE NOT EXISTS (SELECT 1 FROM commit_patch p WHERE p.sha = c.sha)"
	" AND NOT EXISTS (SELECT 1 FROM commit_skipped k WHERE k.sha = c.sha)"
	" AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.patch_id = c.patch_id"
	"  AND" NOT_ECHO("m.msgid") ")"
	" ORDER BY c.sha";

/* The first column of every row of sql: a malloc'd array of shas. */
static onlist_status read_shas(struct onlist_store *s, const char *sql,
			       char (**shas)[41], size_t *n)
{
	sqlite3_stmt *st = prepare(s, sql);
	size_t cap = 0;
	int rc;

	*shas = NULL;
	*n = 0;
	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sha = (const char *)sqlite3_column_text(st, 0);

		if (*n == cap) {
			char (*p)[41] = onlist_grow(*shas, &cap, sizeof *p, 256);

			if (!p) {
				sqlite3_reset(st);
				return ONLIST_ENOMEM;
			}
			*shas = p;
		}
		snprintf((*shas)[(*n)++], 41, "%s", sha ? sha : "");
	}
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? ONLIST_OK : fail(s, "read commits");
}

onlist_status onlist_store_match_commits_needing_patch(struct onlist_store *s,
						 char (**shas)[41], size_t *n)
{
	return read_shas(s, sql_need_patch, shas, n);
}

static const char sql_identities[] =
	"SELECT DISTINCT m.from_name, lower(m.from_addr) FROM messages m"
	" JOIN message_info i ON i.msgid = m.msgid WHERE i.class = 'patch'"
	" UNION SELECT DISTINCT c.author_name, lower(c.author_email)"
	" FROM commits c WHERE" UNMATCHED("c.sha");

onlist_status onlist_store_match_identities(struct onlist_store *s,
				      int (*cb)(const char *name,
						const char *addr, void *data),
				      void *data)
{
	sqlite3_stmt *st = prepare(s, sql_identities);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *n = (const char *)sqlite3_column_text(st, 0);
		const char *a = (const char *)sqlite3_column_text(st, 1);

		if (a && *a && cb(n ? n : "", a, data))
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read identities");
}

/* No landing came by a merge: a linear history (or one scanned before
 * landings were recorded). */
static const char sql_linear[] =
	"SELECT NOT EXISTS (SELECT 1 FROM landing WHERE merge_sha <> sha)";
static const char sql_unbounded[] =
	"SELECT c.sha FROM commits c WHERE NOT EXISTS"
	" (SELECT 1 FROM temp.bound b WHERE b.sha = c.sha) ORDER BY c.sha";
static const char sql_put_bound[] =
	"INSERT OR REPLACE INTO temp.tag_bound(sha, bound) VALUES(?1, ?2)";

int onlist_store_match_history_linear(struct onlist_store *s)
{
	sqlite3_stmt *st = prepare(s, sql_linear);
	int r = -1;

	if (st && sqlite3_step(st) == SQLITE_ROW)
		r = sqlite3_column_int(st, 0);
	if (st)
		sqlite3_reset(st);
	return r;
}

onlist_status onlist_store_match_commits_unbounded(struct onlist_store *s,
					     char (**shas)[41], size_t *n)
{
	return read_shas(s, sql_unbounded, shas, n);
}

onlist_status onlist_store_match_put_bound(struct onlist_store *s, const char *sha,
				     int64_t bound)
{
	return step(s, prepare(s, sql_put_bound), "insert bound", "tI", sha,
		    bound);
}

/* ---- what the fuzzy tier can keep from the last run ---- */

/* The last message, and the edits of what the tiers read (meta edits,
 * counted by triggers, store_schema.c step 20: a row of the messages,
 * their patch, info and echo rows, the commits or their diffs rewritten
 * or deleted), then what else the fuzzy tier reads: the last commit, the
 * time bounds.  Each an index's end, but for the bounds. */
static const char sql_fz_now[] =
	"SELECT coalesce((SELECT max(id) FROM messages), 0),"
	" coalesce((SELECT CAST(value AS INTEGER) FROM meta"
	"  WHERE key = 'edits'), -1)";
/* The sums of the bounds (temp.bound) without reading them: the landing
 * rows' kept by triggers (landing_sum, store_schema.c step 23), counted
 * when the history has merges (?1), and the tag bounds' (a linear history
 * only). */
static const char sql_fz_fixed[] =
	"SELECT (SELECT coalesce(max(rowid), 0) FROM commits),"
	" b.n + ?1 * l.n, b.s + ?1 * l.s, b.k + ?1 * l.k"
	/* when each list's archive began (temp.arrived): an earlier start
	 * makes an old mail's received time count */
	" + (SELECT coalesce(sum(t), 0) FROM temp.list_start)"
	" FROM (SELECT count(*) AS n, coalesce(sum(bound), 0) AS s,"
	" coalesce(sum(bound * length(sha) + unicode(sha)), 0) AS k"
	" FROM temp.tag_bound) b,"
	" (SELECT coalesce(sum(n), 0) AS n, coalesce(sum(s), 0) AS s,"
	" coalesce(sum(k), 0) AS k FROM landing_sum) l";

char *onlist_store_match_tier_stamp(struct onlist_store *s, const char *name,
				    const char *key,
				    struct onlist_match_tier_counts *counts,
				    int64_t *since)
{
	struct onlist_match_tier_counts mine = ONLIST_MATCH_TIER_COUNTS_INIT;
	struct onlist_match_tier_counts *k = counts ? counts : &mine;
	int64_t *now = k->now, *fx = k->fixed, old;
	char *was = onlist_store_get_meta(s, name), *stamp = NULL;
	char *fixed;
	int n = 0, linear;

	*since = -1;
	if (!k->known &&
	    ((linear = onlist_store_match_history_linear(s)) < 0 ||
	     !onlist__store_int64s(s, sql_fz_now, -1, now, 2) ||
	     !onlist__store_int64s(s, sql_fz_fixed, !linear, fx, 4))) {
		free(was);
		return NULL;
	}
	k->known = 1;
	fixed = g_strdup_printf("e%" PRId64 ":%" PRId64 ":%" PRId64 ":%" PRId64
				":%" PRId64 ":%s", now[1], fx[0], fx[1], fx[2],
				fx[3], key);
	/* the same edits, commits, bounds and key: the messages only added
	 * to (an edit count of -1: no triggers count them) */
	if (was && now[1] >= 0 &&
	    sscanf(was, "%" SCNd64 ":%n", &old, &n) == 1 && n &&
	    !strcmp(was + n, fixed) && old <= now[0])
		*since = old;
	stamp = g_strdup_printf("%" PRId64 ":%s", now[0], fixed);
	g_free(fixed);
	free(was);
	return stamp;
}
