/* store_fuzzy.c - the patch fingerprint rows (message_patch, written by
 * import; commit_patch, by match) and what the fuzzy tier reads of them
 * (see store_fuzzy.h).  The other tiers' SQL is in store_match.c. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "onlist/store_fuzzy.h"
#include "onlist/store_match.h"
#include "onlist/subject.h"
#include "store_int.h"

#define fail onlist__store_fail
#define bind_text onlist__bind_text
#define prepare onlist__store_prepare
#define step onlist__store_step

static const char sql_put_mpatch[] =
	"INSERT OR IGNORE INTO message_patch(msgid, repaired_id, fp, words,"
	" files, added, removed) VALUES(?1,?2,?3,?4,?5,?6,?7)";
static const char sql_put_cpatch[] =
	"INSERT OR REPLACE INTO commit_patch(sha, alt_histogram, alt_patience,"
	" alt_minimal, fp, words, files, added, removed)"
	" VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9)";

onlist_status onlist_store_fuzzy_put_message_patch(struct onlist_store *s,
					     const struct onlist_patch_row *r)
{
	return step(s, prepare(s, sql_put_mpatch), "insert message patch",
		    "ttuutII", r->key, r->repaired_id, r->fp, r->nfp, r->words,
		    r->nwords, r->files, (int64_t)r->added, (int64_t)r->removed);
}

/* a commit's diff changes what the tiers read of an old commit: an edit
 * (meta edits, store_schema.c step 20), as its count of rows was */
static const char sql_edit[] =
	"INSERT INTO meta(key, value) VALUES('edits', 1)"
	" ON CONFLICT(key) DO UPDATE SET value = value + 1";

onlist_status onlist_store_fuzzy_put_commit_patch(struct onlist_store *s,
					    const struct onlist_patch_row *r)
{
	onlist_status st = step(s, prepare(s, sql_put_cpatch),
				"insert commit patch", "ttttuutII", r->key,
				r->alt[0], r->alt[1], r->alt[2], r->fp, r->nfp,
				r->words, r->nwords, r->files,
				(int64_t)r->added, (int64_t)r->removed);

	if (st != ONLIST_OK)
		return st;
	return step(s, prepare(s, sql_edit), "count an edit", "");
}

/* The methods of the tiers before fuzzy (store_match.c, BEFORE_LATE but
 * fuzzy): a commit one of them matched is not scored.  After new mail
 * the rows of the later tiers (late, echo) are the last run's, in place:
 * only these count. */
#define BEFORE_FUZZY "'link', 'patch-id', 'patch-id-alg', 'repaired'," \
	" 'quoted', 'author-date', 'subject'"
#define UNTIERED(c) " NOT EXISTS (SELECT 1 FROM matches x" \
	" WHERE x.commit_sha = " c " AND x.method IN (" BEFORE_FUZZY "))"

#define BOUND(c) \
	" coalesce((SELECT bound FROM temp.bound b WHERE b.sha = " c ".sha), 0)"
#define COMMIT_COLS \
	"SELECT c.sha," AUTHOR_EMAIL("c") ", c.author_name, c.subject, c.body," \
	" c.author_date, c.commit_date," BOUND("c") "," \
	" p.fp, p.words FROM commits c JOIN commit_patch p ON p.sha = c.sha"
/* The order first, on the few columns skip() needs; each commit whole
 * after (sorting whole rows, bodies and blobs, cost more than reading
 * them again by key, and a commit skipped is not read at all).  The
 * commits to score are gathered first (onlist_store_fuzzy_commits():
 * their authors' mails are read before the walk) in commit_patch's key
 * order, which matches shares: only a commit to score has its row read. */
static const char sql_fuzzy_commits[] =
	"SELECT sha, author, subject, author_date, commit_date, bound, rid"
	" FROM temp.fz_commits ORDER BY 2, commit_date, sha";
/* its columns, what skip() is given */
#define FC(type, field) { type, offsetof(struct onlist_fuzzy_commit, field) }
static const struct onlist__column skip_cols[] = {
	FC('t', sha), FC('t', author_email), FC('t', subject),
	FC('I', author_date), FC('I', commit_date), FC('I', bound), { 0, 0 }
};
#undef FC
static const char sql_fuzzy_commit[] = COMMIT_COLS " WHERE c.sha = ?1";
/* The rest of a commit of a whole walk (rest_of_commit()).  Asked again
 * by sha, each commit cost two more reads at random places (the
 * sha index, the landing for its bound): at 5M x 1M, with the 16 MB
 * cache, most of them a page the system copies in (pread). */
static const char sql_fuzzy_rest[] =
	"SELECT c.author_name, c.body, p.fp, p.words FROM commits c"
	" JOIN commit_patch p ON p.sha = ?2 WHERE c.rowid = ?1";
/* COMMIT_COLS but the two blobs (8, 9) */
#define FC(type, field) { type, offsetof(struct onlist_fuzzy_commit, field) }
static const struct onlist__column commit_cols[] = {
	FC('t', sha), FC('e', author_email), FC('e', author_name),
	FC('e', subject), FC('e', body), FC('I', author_date),
	FC('I', commit_date), FC('I', bound), { 0, 0 }
};
#undef FC

static const uint32_t *blob_u32(sqlite3_stmt *st, int col, size_t *n)
{
	const void *b = sqlite3_column_blob(st, col);

	*n = (size_t)sqlite3_column_bytes(st, col) / sizeof(uint32_t);
	return b;
}

static onlist_status one_fuzzy_commit(struct onlist_store *s, const char *sha,
				      onlist_fuzzy_commit_cb cb, void *data,
				      int *stop)
{
	sqlite3_stmt *st = prepare(s, sql_fuzzy_commit);
	int rc;

	if (!st)
		return fail(s, "prepare");
	bind_text(st, 1, sha);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_fuzzy_commit c;

		onlist__store_columns(st, &c, commit_cols);
		c.fp = blob_u32(st, 8, &c.nfp);
		c.words = blob_u32(st, 9, &c.nwords);
		*stop = cb(&c, data);
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read a commit");
}

/* The rest of a whole walk's commit (sql_fuzzy_rest): c has the
 * columns of its row in temp.fz_commits (skip_cols, as COMMIT_COLS
 * computes them), rid the commit's rowid; the same values to cb as
 * one_fuzzy_commit() gives (NULL text as ""). */
static onlist_status rest_of_commit(struct onlist_store *s,
				    struct onlist_fuzzy_commit c, int64_t rid,
				    const char *sha, onlist_fuzzy_commit_cb cb,
				    void *data, int *stop)
{
	sqlite3_stmt *st = prepare(s, sql_fuzzy_rest);
	char *author, *subject;
	int rc;

	if (!st)
		return fail(s, "prepare");
	/* copied, as the sha: the statement below may move their buffers */
	author = g_strdup(c.author_email ? c.author_email : "");
	subject = g_strdup(c.subject ? c.subject : "");
	sqlite3_bind_int64(st, 1, rid);
	bind_text(st, 2, sha);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t;

		c.sha = sha;
		c.author_email = author;
		c.subject = subject;
		t = (const char *)sqlite3_column_text(st, 0);
		c.author_name = t ? t : "";
		t = (const char *)sqlite3_column_text(st, 1);
		c.body = t ? t : "";
		c.fp = blob_u32(st, 2, &c.nfp);
		c.words = blob_u32(st, 3, &c.nwords);
		*stop = cb(&c, data);
	}
	sqlite3_reset(st);
	g_free(author);
	g_free(subject);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read a commit");
}

/* whole: sql is sql_fuzzy_commits, each commit's rest read by its rowid */
static onlist_status walk_commits(struct onlist_store *s, const char *sql,
				   int whole, const int64_t *arg,
				   onlist_fuzzy_skip_cb skip,
				   onlist_fuzzy_commit_cb cb, void *data)
{
	sqlite3_stmt *st;
	onlist_status ret = ONLIST_OK;
	int rc, stop = 0;

	if (!(st = prepare(s, sql)))
		return fail(s, "prepare");
	if (arg)
		sqlite3_bind_int64(st, 1, *arg);
	while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		/* copied: the statement below may move this one's buffers */
		char *x = g_strdup((const char *)sqlite3_column_text(st, 0));
		struct onlist_fuzzy_commit c = { 0 };

		/* a whole walk's commit keeps them (rest_of_commit()) */
		if (skip || whole)
			onlist__store_columns(st, &c, skip_cols);
		/* valid until the step below: skip() only */
		if (skip && !whole && sqlite3_column_count(st) > 6)
			c.fp = blob_u32(st, 6, &c.nfp);
		if (x && !(skip && skip(&c, data)))
			ret = whole ? rest_of_commit(s, c, sqlite3_column_int64(st, 6),
						     x, cb, data, &stop) :
			      one_fuzzy_commit(s, x, cb, data, &stop);
		g_free(x);
		if (ret != ONLIST_OK) {
			sqlite3_reset(st);
			return ret;
		}
	}
	if (!stop && rc != SQLITE_DONE) {
		sqlite3_reset(st);
		return fail(s, "read commits");
	}
	sqlite3_reset(st);
	return ONLIST_OK;
}

/* A whole walk reads the patch mails of nearly every author with a
 * commit to score (1M x 100k: 243,000 of 312,000), each by four look-ups
 * at random places (messages by its address index, message_info,
 * message_patch, echoes): 6 of the tier's 8.5 s CPU, most of it the
 * system copying pages the 16 MB cache had let go.  Read once instead,
 * in message_patch's order (message_info and the Message-ID index follow
 * the same keys: one random look-up a mail), into a temporary table in
 * the order the address index gives them (onlist_store_fuzzy_candidates()
 * reads them from there: the same rows, the same order).  Only the
 * authors of the commits to score (temp.fz_authors); another address (an
 * alias) is asked of the messages as before.  The From and Subject as
 * written are left out (a third of a row): only --explain shows them, and
 * it asks the messages; the walk compares the address lower-cased.
 *
 * The same pass keeps the mails a walked commit asks for by subject
 * (others' mails with its stripped subject, sql_cand_subject): those
 * whose subject is one of the walked commits' (temp.fz_subjects, stripped
 * as the walk strips them: onlist_fz_stripped()), with their From and
 * Subject as written (skey set).  Asked of the messages, each commit cost
 * a look-up of the subject index and of every mail found, at random
 * places (5M x 1M: 2.9 million page reads with the commits' own, for
 * 378,000 commits and 96,000 such mails). */
static const char sql_prefetch[] =
	"DROP TABLE IF EXISTS temp.fz_mail;"
	"DROP TABLE IF EXISTS temp.fz_authors;"
	"DROP TABLE IF EXISTS temp.fz_subjects;"
	"DROP TABLE IF EXISTS temp.fz_commits;"
	/* the commits to score found in commit_patch's key order, which
	 * matches and the commits' sha index share (no row read), then
	 * read in rowid order: read by sha, each commit's row was a page
	 * at a random place (5M x 1M: 1.1 million page reads) */
	"CREATE TEMP TABLE fz_commits AS"
	" WITH u AS MATERIALIZED (SELECT cr FROM (SELECT c.rowid AS cr"
	"  FROM commit_patch p CROSS JOIN commits c ON c.sha = p.sha"
	"  WHERE" UNTIERED("p.sha") " ORDER BY p.sha LIMIT -1)"
	"  ORDER BY 1 LIMIT -1)"
	" SELECT c.sha AS sha," AUTHOR_EMAIL("c")
	" AS author, c.subject AS subject, c.author_date AS author_date,"
	" c.commit_date AS commit_date," BOUND("c") " AS bound, c.rowid AS rid"
	" FROM u CROSS JOIN commits c ON c.rowid = u.cr;"
	"CREATE TEMP TABLE fz_authors(addr TEXT PRIMARY KEY) WITHOUT ROWID;"
	"INSERT OR IGNORE INTO temp.fz_authors SELECT author"
	" FROM temp.fz_commits WHERE author IS NOT NULL;"
	"CREATE TEMP TABLE fz_subjects(s TEXT PRIMARY KEY) WITHOUT ROWID;"
	"INSERT OR IGNORE INTO temp.fz_subjects"
	" SELECT onlist_fz_stripped(subject) FROM temp.fz_commits;"
	"DELETE FROM temp.fz_subjects WHERE s = '';"
	"CREATE TEMP TABLE fz_mail(addr, date, id, msgid, stripped, sent,"
	" version, echo, fp, words, by_author, skey, from_raw, subject_raw);"
	"INSERT INTO temp.fz_mail SELECT lower(m.from_addr), m.date, m.id,"
	" m.msgid, i.stripped," SENT("m") ","
	" i.version, EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = m.msgid),"
	" p.fp, p.words, a.addr IS NOT NULL, j.s,"
	" CASE WHEN j.s IS NOT NULL THEN m.from_addr END,"
	" CASE WHEN j.s IS NOT NULL THEN m.subject END FROM message_patch p"
	" CROSS JOIN message_info i ON i.msgid = p.msgid"
	" CROSS JOIN messages m ON m.msgid = p.msgid"
	" LEFT JOIN temp.fz_authors a ON a.addr = lower(m.from_addr)"
	" LEFT JOIN temp.fz_subjects j ON j.s = lower(i.stripped)"
	" WHERE i.class = 'patch' AND m.date IS NOT NULL"
	" AND (a.addr IS NOT NULL OR j.s IS NOT NULL);"
	/* after, not a key: rows in the order they come, then the index
	 * sorted once (1.2 s CPU, against 1.9 s into a keyed table) */
	"CREATE INDEX temp.fz_mail_addr ON fz_mail(addr, date, id)"
	" WHERE by_author;"
	"CREATE INDEX temp.fz_mail_skey ON fz_mail(skey, msgid)"
	" WHERE skey IS NOT NULL;";
static const char sql_prefetch_end[] =
	"DROP TABLE IF EXISTS temp.fz_mail;"
	"DROP TABLE IF EXISTS temp.fz_authors;"
	"DROP TABLE IF EXISTS temp.fz_subjects;"
	"DROP TABLE IF EXISTS temp.fz_commits;";

/* onlist_fz_stripped(subject): the stripped subject lower-cased, as the
 * walk makes it of a commit's (match.c, addr_and_subject()); NULL as "" */
static void fz_stripped(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *subject = (const char *)sqlite3_value_text(argv[0]);
	struct onlist_subject sj;
	char *low;

	(void)argc;
	if (onlist_subject_parse(&sj, subject ? subject : "")) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	low = g_ascii_strdown(sj.stripped, -1);
	onlist_subject_release(&sj);
	sqlite3_result_text(ctx, low, -1, g_free);
}

onlist_status onlist_store_fuzzy_commits(struct onlist_store *s,
					 const char *sha,
					 onlist_fuzzy_skip_cb skip,
					 onlist_fuzzy_commit_cb cb, void *data)
{
	onlist_status st;
	int stop = 0;

	if (sha)
		return one_fuzzy_commit(s, sha, cb, data, &stop);
	if (sqlite3_create_function(s->db, "onlist_fz_stripped", 1,
				    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				    fz_stripped, NULL, NULL) != SQLITE_OK)
		return fail(s, "register onlist_fz_stripped");
	if (sqlite3_exec(s->db, sql_prefetch, NULL, NULL, NULL) != SQLITE_OK) {
		st = fail(s, "read the patch mails");
	} else {
		s->fuzzy_walk = 1;
		st = walk_commits(s, sql_fuzzy_commits, 1, NULL, skip, cb, data);
		s->fuzzy_walk = 0;
	}
	if (sqlite3_exec(s->db, sql_prefetch_end, NULL, NULL, NULL) != SQLITE_OK
	    && st == ONLIST_OK)
		st = fail(s, "drop the patch mails read");
	sqlite3_create_function(s->db, "onlist_fz_stripped", 1, SQLITE_UTF8,
				NULL, NULL, NULL, NULL);
	return st;
}

/* ---- after new mail: the commits to score again, the rest kept ---- */

static const char sql_todo_begin[] =
	"CREATE TEMP TABLE IF NOT EXISTS fuzzy_todo(sha TEXT PRIMARY KEY)"
	" WITHOUT ROWID;"
	"DELETE FROM temp.fuzzy_todo;"
	/* an earlier tier matched it last run and none has now */
	"INSERT OR IGNORE INTO temp.fuzzy_todo SELECT sha FROM temp.fuzzy_tiered;"
	/* a DMARC-rewritten author's address comes from the mail */
	"INSERT OR IGNORE INTO temp.fuzzy_todo SELECT sha FROM temp.via_author;"
	/* the others a new mail may be a candidate of: only the new mails
	 * are scored for them, their other matches are kept */
	"CREATE TEMP TABLE IF NOT EXISTS fuzzy_pairs(sha TEXT PRIMARY KEY,"
	" email TEXT, subject TEXT, author_date INTEGER, commit_date INTEGER)"
	" WITHOUT ROWID;"
	"DELETE FROM temp.fuzzy_pairs;";
/* What the walk (sql_fuzzy_pairs) asks of a commit before skip(), kept
 * from the row these statements read anyway: read again by sha after
 * thousands of others, each was a page the 16 MB cache had let go (5M x
 * 1M after 1,000 new messages: 14,000 commits). */
#define PAIR_COLS " c.sha, lower(c.author_email), c.subject, c.author_date," \
	" c.commit_date"
/* the commits of an address whose window (match.c, window(): from a year
 * before the earlier of the author and commit dates to a year after the
 * commit date or the bound) can hold a date between ?2 and ?3: those of
 * its new mails (a superset: the caller tests each) */
#define YEAR "31536000"
/* The bound of a commit: most of a prolific author's commits are old, and
 * asking each one's bound (a look-up of the landing by sha, then its row)
 * cost two reads at random places a commit (5M x 1M: 0.8 s for the most
 * prolific author).  The bounds recent enough for any new mail, read once
 * by the landing's date index, answer instead: the first of temp.bound's
 * rows for a commit (the one BOUND() takes) is there when that is at
 * least ?1 (the earliest new mail's date less a year), by the commit's
 * rowid (its sha index gives it without reading the row).  A bound at or
 * below 0 (none) counts only when ?2 - YEAR is too, as it would. */
static const char sql_todo_recent[] =
	"CREATE TEMP TABLE IF NOT EXISTS fz_recent(rid INTEGER PRIMARY KEY,"
	" bound INTEGER);"
	"DELETE FROM temp.fz_recent;"
	"CREATE TEMP TABLE IF NOT EXISTS fz_recent_sha(sha TEXT PRIMARY KEY,"
	" bound INTEGER) WITHOUT ROWID;"
	"DELETE FROM temp.fz_recent_sha;";
/* The bounds first by sha, then the rowids asked in sha order: in the
 * landing's date order each look-up of the sha index was a page at a
 * random place (5M x 1M: 75,000 bounds, 0.33 s CPU, against 0.24 s).
 * Only a commit committed before ?2 (the latest new mail's date less a
 * year) is asked its bound (sql_todo_author's last part): a landing's
 * copy of the commit date (schema 26) leaves out the others from the
 * index landing_late (5M x 1M: 198 of 75,000 landings of the year; the
 * two statements took 0.15 s of a 0.8 s run).  Were a commit left out
 * whose row the view gives first, a later row could take its place in
 * fz_recent_sha; that commit is committed since ?2, so fz_recent is
 * never asked for it. */
static const char sql_todo_recent_sha[] =
	"INSERT OR IGNORE INTO temp.fz_recent_sha"
	" SELECT sha, bound FROM temp.bound WHERE bound >= ?1"
	" AND (cdate IS NULL OR cdate < ?2)";
static const char sql_todo_recent_fill[] =
	"INSERT OR IGNORE INTO temp.fz_recent"
	" SELECT c.rowid, r.bound FROM temp.fz_recent_sha r"
	" CROSS JOIN commits c ON c.sha = r.sha";
/* what each part below asks of a commit: its window can hold a date
 * between ?2 and ?3 */
#define TODO_AUTHOR_WHERE \
	" lower(c.author_email) = ?1" \
	" AND (coalesce(c.commit_date, 0) <= ?3 + " YEAR \
	"  OR (coalesce(c.author_date, 0) <> 0 AND c.author_date <= ?3 + " YEAR "))"
/* The window ends after ?2 - YEAR when the commit has no date, was
 * committed since, or its bound is recent.  Each case in its own part,
 * by the author and commit date index (schema 24): only the commits
 * committed in the window are read whole (5M x 1M: a prolific author's
 * 18,000 commits cost 50 ms read whole, where 1,300 are in the window);
 * those with a recent bound are sql_todo_landed's. */
static const char sql_todo_author[] =
	"INSERT OR IGNORE INTO temp.fuzzy_pairs"
	" SELECT" PAIR_COLS " FROM commits c WHERE" TODO_AUTHOR_WHERE
	" AND c.commit_date >= ?2 - " YEAR
	" UNION ALL SELECT" PAIR_COLS " FROM commits c WHERE" TODO_AUTHOR_WHERE
	" AND c.commit_date IS NULL"
	" UNION ALL SELECT" PAIR_COLS " FROM commits c WHERE" TODO_AUTHOR_WHERE
	" AND c.commit_date = 0"
	" UNION ALL SELECT" PAIR_COLS " FROM commits c WHERE ?2 - " YEAR " <= 0 AND"
	TODO_AUTHOR_WHERE;
#undef TODO_AUTHOR_WHERE
/* The last case, committed before the window but landed in it: from
 * temp.fz_recent, once for every address (temp.fz_addrs: each address
 * with its span, ?2 and ?3 above).  Asked of each address by its index,
 * it read the index entries of all the address's older commits to find
 * the few of fz_recent (5M x 1M: a prolific author has 30,000 commits
 * over 14 years, most of them older than the window). */
static const char sql_todo_addrs[] =
	"CREATE TEMP TABLE IF NOT EXISTS fz_addrs(addr TEXT NOT NULL,"
	" lo INTEGER NOT NULL, hi INTEGER NOT NULL);"
	"CREATE INDEX IF NOT EXISTS temp.fz_addrs_addr ON fz_addrs(addr);"
	"DELETE FROM temp.fz_addrs;";
static const char sql_todo_addr[] =
	"INSERT INTO temp.fz_addrs(addr, lo, hi) VALUES(?1, ?2, ?3)";
static const char sql_todo_landed[] =
	"INSERT OR IGNORE INTO temp.fuzzy_pairs SELECT" PAIR_COLS
	" FROM temp.fz_recent r CROSS JOIN commits c ON c.rowid = r.rid"
	" CROSS JOIN temp.fz_addrs a ON a.addr = lower(c.author_email)"
	" WHERE (coalesce(c.commit_date, 0) <= a.hi + " YEAR
	"  OR (coalesce(c.author_date, 0) <> 0 AND c.author_date <= a.hi + " YEAR "))"
	" AND c.commit_date < a.lo - " YEAR " AND r.bound >= a.lo - " YEAR;
/* by the stored stripped subjects (schema 19) */
static const char sql_todo_subject[] =
	"INSERT OR IGNORE INTO temp.fuzzy_pairs SELECT" PAIR_COLS
	" FROM commit_subject s CROSS JOIN commits c ON c.sha = s.sha"
	" WHERE s.stripped = ?1";
#undef PAIR_COLS
/* The commits not to score again keep the last run's matches, in place:
 * the rows of those to score again go, and those of the commits an
 * earlier tier matches now (it wrote a row for them this run). */
static const char sql_keep_rest[] =
	"DELETE FROM matches WHERE method = 'fuzzy' AND commit_sha IN"
	" (SELECT sha FROM temp.fuzzy_todo UNION SELECT commit_sha"
	" FROM temp.match_log WHERE method IN (" BEFORE_FUZZY ") AND op > 0)";
static const char sql_fuzzy_todo[] =
	"SELECT c.sha," AUTHOR_EMAIL("c") ", c.subject, c.author_date,"
	" c.commit_date," BOUND("c") " FROM temp.fuzzy_todo t"
	" CROSS JOIN commits c ON c.sha = t.sha"
	" JOIN commit_patch p ON p.sha = c.sha WHERE" UNTIERED("t.sha")
	" ORDER BY 2, c.commit_date, c.sha";

/* The last run's callbacks, for the rows of onlist_store_fuzzy_old()
 * and of sql_fz_old. */
struct old_rows {
	const struct onlist_fuzzy_old_cbs *cb;
	void *data;
};
static onlist_status old_fuzzy_rows(struct onlist_store *s,
				    const struct old_rows *x);

/* t - YEAR, as the statements compute ?2 - YEAR (no overflow below) */
static int64_t year_before(int64_t t)
{
	return t < INT64_MIN + 31536000 ? INT64_MIN : t - 31536000;
}

onlist_status onlist_store_fuzzy_todo(struct onlist_store *s,
				      const char *const *addrs,
				      const int64_t (*spans)[2], size_t naddrs,
				      const char *const *subjects,
				      size_t nsubjects,
				      const struct onlist_fuzzy_old_cbs *cb,
				      void *data)
{
	struct old_rows x = { cb, data };

	if (sqlite3_exec(s->db, sql_todo_begin, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "commits to score again");
	if (old_fuzzy_rows(s, &x) != ONLIST_OK)
		return ONLIST_EDB;
	if (naddrs) {
		int64_t lo = spans[0][0], hi = spans[0][0];

		for (size_t i = 1; i < naddrs; i++) {
			if (spans[i][0] < lo)
				lo = spans[i][0];
			if (spans[i][0] > hi)
				hi = spans[i][0];
		}
		if (sqlite3_exec(s->db, sql_todo_recent, NULL, NULL, NULL)
		    != SQLITE_OK ||
		    sqlite3_exec(s->db, sql_todo_addrs, NULL, NULL, NULL)
		    != SQLITE_OK)
			return fail(s, "recent bounds");
		if (step(s, prepare(s, sql_todo_recent_sha), "recent bounds",
			 "II", year_before(lo), year_before(hi)) != ONLIST_OK ||
		    step(s, prepare(s, sql_todo_recent_fill), "recent bounds",
			 "") != ONLIST_OK)
			return ONLIST_EDB;
	}
	for (size_t i = 0; i < naddrs; i++)
		if (step(s, prepare(s, sql_todo_author), "commits to score again",
			 "tII", addrs[i], spans[i][0], spans[i][1]) != ONLIST_OK ||
		    step(s, prepare(s, sql_todo_addr), "commits to score again",
			 "tII", addrs[i], spans[i][0], spans[i][1]) != ONLIST_OK)
			return ONLIST_EDB;
	if (naddrs && step(s, prepare(s, sql_todo_landed),
			   "commits to score again", "") != ONLIST_OK)
		return ONLIST_EDB;
	for (size_t i = 0; i < nsubjects; i++)
		if (step(s, prepare(s, sql_todo_subject), "commits to score again",
			 "t", subjects[i]) != ONLIST_OK)
			return ONLIST_EDB;
	if (sqlite3_exec(s->db, sql_keep_rest, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "keep fuzzy matches");
	return ONLIST_OK;
}

/* temp.fuzzy_pairs but temp.fuzzy_todo: matched by no earlier tier (their
 * kept fuzzy matches are there already); with the changed lines, for
 * skip() (walk_commits()).  The earlier tiers' matches are asked by the
 * pair's sha, before anything else is read: most pairs are matched
 * already (5M x 1M after 1,000 new messages: 8,900 of 23,500 are not),
 * and their commit rows were read for nothing (the statement: 0.16 ->
 * 0.12 s in the sqlite3 shell).  The bound only of a commit whose window
 * it can widen to a new mail (?1: store_fuzzy.h): a look-up of its
 * landing by sha, then the row, each a page of its own (the same run:
 * 5,600 pairs to skip, 51 kept). */
static const char sql_fuzzy_pairs[] =
	"SELECT t.sha, coalesce((SELECT v.email FROM temp.via_author v"
	" WHERE v.sha = t.sha), t.email), t.subject, t.author_date,"
	" t.commit_date, CASE WHEN typeof(t.commit_date) = 'integer'"
	" AND t.commit_date <> 0 AND t.commit_date >= ?1 THEN 0 ELSE"
	BOUND("t") " END, p.fp FROM temp.fuzzy_pairs t"
	" CROSS JOIN commit_patch p ON p.sha = t.sha"
	" WHERE t.sha NOT IN (SELECT sha FROM temp.fuzzy_todo)"
	" AND" UNTIERED("t.sha")
	" ORDER BY 2, t.commit_date, t.sha";

onlist_status onlist_store_fuzzy_commits_todo(struct onlist_store *s,
					      onlist_fuzzy_skip_cb skip,
					      onlist_fuzzy_commit_cb cb,
					      void *data)
{
	return walk_commits(s, sql_fuzzy_todo, 0, NULL, skip, cb, data);
}

onlist_status onlist_store_fuzzy_commits_pairs(struct onlist_store *s,
					       int64_t recent,
					       onlist_fuzzy_skip_cb skip,
					       onlist_fuzzy_commit_cb cb,
					       void *data)
{
	return walk_commits(s, sql_fuzzy_pairs, 0, &recent, skip, cb, data);
}

/* Two statements, not one with OR: SQLite cannot answer an OR across two
 * tables from their two indexes, and scans every patch mail instead. */
#define CANDIDATE_COLS \
	"SELECT m.msgid, m.from_addr, m.subject, i.stripped," SENT("m") "," \
	" i.version," \
	" EXISTS (SELECT 1 FROM echoes e WHERE e.msgid = m.msgid), p.fp, p.words," \
	" m.date FROM messages m JOIN message_info i ON i.msgid = m.msgid" \
	" JOIN message_patch p ON p.msgid = m.msgid"
/* CANDIDATE_COLS but the two blobs (7, 8) and the Date (9) */
#define CAND(type, field) \
	{ type, offsetof(struct onlist_fuzzy_candidate, field) }
static const struct onlist__column cand_cols[] = {
	CAND('t', msgid), CAND('e', from_addr), CAND('e', subject),
	CAND('e', stripped), CAND('I', date), CAND('i', version),
	CAND('i', echo), { 0, 0 }
};
#undef CAND
static const char sql_cand_author[] = CANDIDATE_COLS
	" WHERE lower(m.from_addr) = ?1 AND m.date BETWEEN ?3 AND ?4"
	" AND i.class = 'patch'";
static const char sql_cand_subject[] = CANDIDATE_COLS
	" WHERE lower(i.stripped) = ?1 AND i.class = 'patch'"
	" AND lower(m.from_addr) <> ?2 AND m.date BETWEEN ?3 AND ?4";
/* sql_cand_author of the mails a whole walk read (temp.fz_mail) */
static const char sql_cand_prefetched[] =
	"SELECT msgid, addr, NULL, stripped, sent, version, echo, fp,"
	" words, date FROM temp.fz_mail WHERE by_author AND addr = ?1"
	" AND date BETWEEN ?3 AND ?4 ORDER BY addr, date, id";
/* sql_cand_subject of them: the same rows in the same order (the subject
 * index's, by Message-ID within a subject) */
static const char sql_cand_subject_prefetched[] =
	"SELECT msgid, from_raw, subject_raw, stripped, sent, version, echo,"
	" fp, words, date FROM temp.fz_mail WHERE skey = ?1 AND addr <> ?2"
	" AND date BETWEEN ?3 AND ?4 ORDER BY skey, msgid";
/* the patch mails after id ?1 (?2, ?3, ?4 unused) */
static const char sql_cand_new[] = CANDIDATE_COLS
	" WHERE m.id > CAST(?1 AS INTEGER) AND i.class = 'patch'";

static onlist_status candidates(struct onlist_store *s, const char *sql,
				const char *p1, const char *p2, int64_t lo,
				int64_t hi, onlist_fuzzy_cand_cb cb, void *data)
{
	sqlite3_stmt *st = prepare(s, sql);
	int rc;

	if (!st)
		return fail(s, "prepare");
	onlist__store_bind(st, "ttII", p1, p2, lo, hi);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct onlist_fuzzy_candidate m;

		onlist__store_columns(st, &m, cand_cols);
		m.fp = blob_u32(st, 7, &m.nfp);
		m.words = blob_u32(st, 8, &m.nwords);
		m.dated = sqlite3_column_type(st, 9) != SQLITE_NULL;
		m.raw_date = sqlite3_column_int64(st, 9);
		if (cb(&m, data))
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return fail(s, "read candidates");
	sqlite3_reset(st);
	return ONLIST_OK;
}

/* Whether the whole walk under way (s->fuzzy_walk) read the mails of
 * address or stripped subject key (temp.fz_mail): sql asks its table of
 * them, fz_authors or fz_subjects.  Outside a walk those tables are not
 * there, and no statement is run (this is asked for every commit). */
static const char sql_prefetched[] =
	"SELECT 1 FROM temp.fz_authors WHERE addr = ?1";
static const char sql_prefetched_subject[] =
	"SELECT 1 FROM temp.fz_subjects WHERE s = ?1";

static int prefetched(struct onlist_store *s, const char *sql,
		      const char *key)
{
	sqlite3_stmt *st;
	int yes;

	if (!s->fuzzy_walk || !(st = prepare(s, sql)))
		return 0;
	bind_text(st, 1, key);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_reset(st);
	return yes;
}

onlist_status onlist_store_fuzzy_candidates(struct onlist_store *s,
					    const char *addr,
					    const char *stripped_lower,
					    int64_t lo, int64_t hi, int by_author,
					    onlist_fuzzy_cand_cb cb, void *data)
{
	onlist_status st = ONLIST_OK;

	if (by_author)
		st = candidates(s, prefetched(s, sql_prefetched, addr) ?
				sql_cand_prefetched : sql_cand_author, addr,
				NULL, lo, hi, cb, data);

	/* by subject: only the ones the author query did not give */
	if (st == ONLIST_OK && stripped_lower && *stripped_lower)
		st = candidates(s, prefetched(s, sql_prefetched_subject,
					      stripped_lower) ?
				sql_cand_subject_prefetched : sql_cand_subject,
				stripped_lower, addr, lo, hi, cb, data);
	return st;
}

onlist_status onlist_store_fuzzy_new_mails(struct onlist_store *s,
					   int64_t since,
					   onlist_fuzzy_cand_cb cb, void *data)
{
	char arg[24];

	snprintf(arg, sizeof(arg), "%" PRId64, since);
	return candidates(s, sql_cand_new, arg, NULL, 0, 0, cb, data);
}

/* the commits an earlier tier matched last run and none has now: only
 * those are asked about (the others are matched), kept for
 * onlist_store_fuzzy_todo() */
static const char sql_fz_tiered[] =
	"DROP TABLE IF EXISTS temp.fuzzy_tiered;"
	"CREATE TEMP TABLE fuzzy_tiered AS SELECT DISTINCT l.commit_sha AS sha"
	" FROM temp.match_log l WHERE l.method IN (" BEFORE_FUZZY ")"
	" AND l.op < 0 AND" ONLIST_SQL_MATCH_WAS("l")
	" AND" UNTIERED("l.commit_sha") ";";
static const char sql_fz_old_tiered[] = "SELECT sha FROM temp.fuzzy_tiered";
/* the fuzzy tier has not run: its rows are the last run's; only those
 * of the commits to score again are asked for (onlist_store_fuzzy_todo():
 * the others' stay in place), by key, not by a pass over every match */
static const char sql_fz_old[] =
	"SELECT m.commit_sha, m.message_id, m.score FROM temp.fuzzy_todo t"
	" CROSS JOIN matches m ON m.commit_sha = t.sha WHERE m.method = 'fuzzy'";
/* the patch mails after id ?1: whose they are, what they are about */
static const char sql_fz_mail[] =
	"SELECT lower(m.from_addr), lower(i.stripped), coalesce(m.date, 0),"
	" coalesce(" SENT("m") ", 0) FROM messages m"
	" JOIN message_info i ON i.msgid = m.msgid"
	" WHERE m.id > CAST(?1 AS INTEGER) AND i.class = 'patch'";


static int old_tiered_row(int ncol, const char *const *c, void *data)
{
	const struct old_rows *x = data;

	(void)ncol;
	return c[0] ? x->cb->tiered(c[0], x->data) : 0;
}

/* sql_fz_old, the score read as a double: as text it would come back
 * rounded to 15 digits, and a kept match would not score what the same
 * match computed again does. */
static onlist_status old_fuzzy_rows(struct onlist_store *s,
				    const struct old_rows *x)
{
	sqlite3_stmt *st = prepare(s, sql_fz_old);
	int rc;

	if (!st)
		return fail(s, "prepare");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *sha = (const char *)sqlite3_column_text(st, 0);
		const char *msgid = (const char *)sqlite3_column_text(st, 1);

		if (sha && msgid &&
		    x->cb->fuzzy(sha, msgid, sqlite3_column_double(st, 2), x->data))
			break;
	}
	sqlite3_reset(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? ONLIST_OK :
	       fail(s, "read the last fuzzy matches");
}

static int old_mail_row(int ncol, const char *const *c, void *data)
{
	const struct old_rows *x = data;

	(void)ncol;
	return x->cb->mail(c[0], c[1], c[2] ? g_ascii_strtoll(c[2], NULL, 10) : 0,
			   c[3] ? g_ascii_strtoll(c[3], NULL, 10) : 0, x->data);
}

onlist_status onlist_store_fuzzy_old(struct onlist_store *s, int64_t since,
				     const struct onlist_fuzzy_old_cbs *cb,
				     void *data)
{
	struct old_rows x = { cb, data };
	sqlite3_stmt *st;
	onlist_status r;
	char arg[24];
	const char *p[1] = { arg };

	snprintf(arg, sizeof(arg), "%" PRId64, since);
	if (sqlite3_exec(s->db, sql_fz_tiered, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "the commits no tier matches now");
	if (!(st = prepare(s, sql_fz_old_tiered)))
		return fail(s, "prepare");
	if ((r = onlist__store_rows(s, st, NULL, 0, old_tiered_row, &x,
				    NULL)) != ONLIST_OK)
		return r;
	if (!(st = prepare(s, sql_fz_mail)))
		return fail(s, "prepare");
	return onlist__store_rows(s, st, p, 1, old_mail_row, &x, NULL);
}

/* The last run's fuzzy rows, when the tier runs whole after new mail
 * (another threshold) or not at all: the other tiers' rows are in place. */
static const char sql_fz_clear[] =
	"DELETE FROM matches WHERE method = 'fuzzy'";

onlist_status onlist_store_fuzzy_clear(struct onlist_store *s)
{
	if (sqlite3_exec(s->db, sql_fz_clear, NULL, NULL, NULL) != SQLITE_OK)
		return fail(s, "clear fuzzy matches");
	return ONLIST_OK;
}
