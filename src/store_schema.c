/* store_schema.c - every table and index of the database, and the steps
 * that bring an older database up to date.  No other file creates, drops
 * or alters a table (temporary working tables of one query excepted).
 *
 * `PRAGMA user_version` is the schema version.  Step N takes a database
 * of version N-1 to version N; a new onlist runs every step above the
 * version it finds, in one transaction.  Steps only add: a table, an
 * index or a column (added_columns), never a change to an existing one,
 * so an older onlist's queries
 * still run against a newer database (it refuses to open one, though,
 * since it would not keep the new tables filled).  Every statement says
 * IF NOT EXISTS, so a step may meet what it creates already (version 4
 * databases made before step 5 existed have some of its tables).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

#include "onlist/store_schema.h"
#include "store_int.h"

#define fail onlist__store_fail

/* ---- version 1: messages, commits, the matches between them ------------- */

static const char v1_sql[] =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);\n"
	/* One row per Message-ID; `list` is the first list it was seen on,
	 * message_lists has them all (cross-posting is common).  source and
	 * offset say where the message was read: an upgrade reads it again
	 * there for what an older onlist did not keep. */
	"CREATE TABLE IF NOT EXISTS messages(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  msgid TEXT NOT NULL UNIQUE,\n"
	"  synthetic_id INTEGER NOT NULL DEFAULT 0,\n"
	"  list TEXT,\n"
	"  date INTEGER,\n"
	"  from_name TEXT, from_addr TEXT, subject TEXT,\n"
	"  in_reply_to TEXT, refs TEXT,\n"
	"  has_patch INTEGER NOT NULL DEFAULT 0,\n"
	"  patch_id TEXT,\n"
	"  patch_source TEXT,\n"
	"  source TEXT, offset INTEGER);\n"
	"CREATE INDEX IF NOT EXISTS messages_patch_id ON messages(patch_id)"
	" WHERE patch_id IS NOT NULL;\n"
	"CREATE TABLE IF NOT EXISTS message_lists(\n"
	"  msgid TEXT NOT NULL, list TEXT NOT NULL,\n"
	"  PRIMARY KEY(msgid, list)) WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS skipped(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  source TEXT NOT NULL, offset INTEGER NOT NULL, reason TEXT NOT NULL,\n"
	"  UNIQUE(source, offset));\n"
	"CREATE TABLE IF NOT EXISTS commits(\n"
	"  sha TEXT PRIMARY KEY,\n"
	"  author_name TEXT, author_email TEXT, author_date INTEGER,\n"
	"  committer_name TEXT, committer_email TEXT, commit_date INTEGER,\n"
	"  subject TEXT, body TEXT, body_empty INTEGER NOT NULL,\n"
	"  files TEXT, patch_id TEXT);\n"
	"CREATE INDEX IF NOT EXISTS commits_patch_id ON commits(patch_id)"
	" WHERE patch_id IS NOT NULL;\n"
	"CREATE TABLE IF NOT EXISTS trailers(\n"
	"  sha TEXT NOT NULL, seq INTEGER NOT NULL,\n"
	"  key TEXT NOT NULL, value TEXT NOT NULL,\n"
	"  PRIMARY KEY(sha, seq)) WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS matches(\n"
	"  commit_sha TEXT NOT NULL, message_id TEXT NOT NULL,\n"
	"  method TEXT NOT NULL, score REAL NOT NULL DEFAULT 1.0,\n"
	"  PRIMARY KEY(commit_sha, message_id, method)) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS matches_message ON matches(message_id);\n";

/* ---- version 2: what `onlist fetch` refreshes, and how far it got -------- */

static const char v2_sql[] =
	"CREATE TABLE IF NOT EXISTS sources(\n"
	"  url TEXT PRIMARY KEY, list TEXT NOT NULL, added INTEGER NOT NULL);\n"
	"CREATE TABLE IF NOT EXISTS source_state(\n"
	"  url TEXT NOT NULL, key TEXT NOT NULL, value TEXT,\n"
	"  PRIMARY KEY(url, key)) WITHOUT ROWID;\n";

/* ---- version 3: where each commit landed ---------------------------------- */

static const char v3_sql[] =
	/* The first-parent commit that brought it in (itself when applied
	 * directly).  `onlist scan` fills it; a database scanned before
	 * version 3 gets it at its next scan. */
	"CREATE TABLE IF NOT EXISTS landing(\n"
	"  sha TEXT PRIMARY KEY,\n"
	"  landed_date INTEGER NOT NULL,\n"
	"  merge_sha TEXT NOT NULL,\n"
	"  merge_subject TEXT);\n"
	"CREATE INDEX IF NOT EXISTS landing_date ON landing(landed_date);\n";

/* ---- version 4: what each message is; threads, series, replies ---------- */

/* The secondary indexes of the tables onlist_store_build_threads()
 * rebuilds whole: it drops them first and creates them again after,
 * since building an index once from sorted data is several times cheaper
 * than keeping it up to date through a million inserts in random order. */
const char onlist__thread_index_drop[] =
	"DROP INDEX IF EXISTS thread_root; DROP INDEX IF EXISTS thread_answers;"
	"DROP INDEX IF EXISTS series_series; DROP INDEX IF EXISTS series_topic;"
	"DROP INDEX IF EXISTS replies_reply;";
/* Only the messages that answer (about 70% of the rows on LKML): every
 * query that reads it asks for "answers = ...", which says NOT NULL, and
 * a third fewer entries to sort at each whole rebuild. */
#define THREAD_ANSWERS \
	"CREATE INDEX IF NOT EXISTS thread_answers ON thread(answers)" \
	" WHERE answers IS NOT NULL;\n"
const char onlist__thread_index_create[] =
	"CREATE INDEX IF NOT EXISTS thread_root ON thread(root);\n"
	THREAD_ANSWERS
	"CREATE INDEX IF NOT EXISTS series_series ON series(series);\n"
	"CREATE INDEX IF NOT EXISTS series_topic ON series(topic);\n"
	"CREATE INDEX IF NOT EXISTS replies_reply ON replies(reply);\n";

static const char v4_sql[] =
	/* Written at import, from the mail (onlist_store_thread_put_message_info). */
	"CREATE TABLE IF NOT EXISTS message_info(\n"
	"  msgid TEXT PRIMARY KEY, class TEXT NOT NULL, reply INTEGER,\n"
	"  version INTEGER, part INTEGER, total INTEGER, prefix TEXT,\n"
	"  stripped TEXT, change_id TEXT, mailer TEXT, patchwork INTEGER,\n"
	"  upstream INTEGER) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS message_info_stripped"
	" ON message_info(stripped);\n"
	"CREATE TABLE IF NOT EXISTS message_trailers(\n"
	"  msgid TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL,\n"
	"  name TEXT, addr TEXT, value TEXT,\n"
	"  PRIMARY KEY(msgid, seq)) WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS pulls(\n"
	"  msgid TEXT PRIMARY KEY, url TEXT, ref TEXT, tip TEXT) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS pulls_tip ON pulls(tip);\n"
	/* Derived from all messages by onlist_store_build_threads(). */
	"CREATE TABLE IF NOT EXISTS thread(\n"
	"  msgid TEXT PRIMARY KEY, parent TEXT, root TEXT NOT NULL,\n"
	"  depth INTEGER NOT NULL, answers TEXT) WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS series(\n"
	"  msgid TEXT PRIMARY KEY, series TEXT NOT NULL, topic TEXT NOT NULL)\n"
	"  WITHOUT ROWID;\n"
	"CREATE TABLE IF NOT EXISTS replies(\n"
	"  patch TEXT NOT NULL, reply TEXT NOT NULL, by_author INTEGER NOT NULL,\n"
	"  PRIMARY KEY(patch, reply)) WITHOUT ROWID;\n";

/* ---- version 5: what the tiers of `onlist match` compare ----------------- */

static const char v5_sql[] =
	/* Written at import for each patch mail (store_match.h). */
	"CREATE TABLE IF NOT EXISTS message_patch(\n"
	"  msgid TEXT PRIMARY KEY, repaired_id TEXT, fp BLOB, words BLOB,\n"
	"  files TEXT, added INTEGER, removed INTEGER) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS message_patch_repaired"
	" ON message_patch(repaired_id) WHERE repaired_id IS NOT NULL;\n"
	/* Written by match for commits exact patch-id leaves unmatched, and
	 * kept: commits do not change. */
	"CREATE TABLE IF NOT EXISTS commit_patch(\n"
	"  sha TEXT PRIMARY KEY, alt_histogram TEXT, alt_patience TEXT,\n"
	"  alt_minimal TEXT, fp BLOB, words BLOB, files TEXT,\n"
	"  added INTEGER, removed INTEGER) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS messages_from_lower"
	" ON messages(lower(from_addr), date);\n"
	"CREATE INDEX IF NOT EXISTS message_info_stripped_lower"
	" ON message_info(lower(stripped));\n"
	/* Rebuilt by every match. */
	"CREATE TABLE IF NOT EXISTS echoes(\n"
	"  msgid TEXT PRIMARY KEY, kind TEXT NOT NULL, rule TEXT NOT NULL)\n"
	"  WITHOUT ROWID;\n";

/* ---- version 6: the commits a scan could not diff ------------------------ */

static const char v6_sql[] =
	/* Written by scan for a commit git could not diff (a blob missing
	 * from a snapshot or a partial clone): the commit is in `commits`
	 * without a patch-id, and this says why, in git's words, and which
	 * object git named (NULL when it named none). */
	"CREATE TABLE IF NOT EXISTS commit_skipped(\n"
	"  sha TEXT PRIMARY KEY, reason TEXT NOT NULL, object TEXT)\n"
	"  WITHOUT ROWID;\n";

/* ---- version 7: the review given on the list ---------------------------- */

static const char v7_sql[] =
	/* Rebuilt by every match (store_review.h): one row per review
	 * trailer (Reviewed-, Acked-, Tested-, Nacked-by, or a NAK line) in
	 * a reply, with the patch or cover letter it answers and that
	 * one's series and topic.  why_not is NULL for review by someone
	 * else, else why it is none: 'bot', 'sender' (the target's sender
	 * gave or sent it), 'co-developer'. */
	"CREATE TABLE IF NOT EXISTS review_tags(\n"
	"  msgid TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL,\n"
	"  name TEXT, addr TEXT, value TEXT, sender TEXT, date INTEGER,\n"
	"  target TEXT NOT NULL, target_class TEXT NOT NULL, series TEXT,\n"
	"  topic TEXT, version INTEGER, part INTEGER, total INTEGER,\n"
	"  why_not TEXT,\n"
	"  PRIMARY KEY(msgid, seq)) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS review_tags_series ON review_tags(series);\n"
	"CREATE INDEX IF NOT EXISTS review_tags_topic ON review_tags(topic);\n"
	/* Rebuilt by every match: the state of each posted commit over
	 * every version of its topic, and the tag that decided it. */
	"CREATE TABLE IF NOT EXISTS commit_review(\n"
	"  sha TEXT PRIMARY KEY, state TEXT NOT NULL,\n"
	"  evidence_msgid TEXT, evidence_seq INTEGER,\n"
	"  naks INTEGER NOT NULL DEFAULT 0, off_list_tags TEXT)\n"
	"  WITHOUT ROWID;\n";

/* ---- version 8: the archive's span; the commits of one merge ------------- */

static const char v8_sql[] =
	/* The archive's span (verdict.h): the first and last message date,
	 * asked by every command that explains a never-posted commit; without
	 * it that was a scan of every message (0.3 s on a million). */
	"CREATE INDEX IF NOT EXISTS messages_date ON messages(date);\n"
	/* the commits one merge brought in (a near miss by series) */
	"CREATE INDEX IF NOT EXISTS landing_merge ON landing(merge_sha);\n";

/* ---- version 9: threads built again only around new mail --------------- */

static const char v9_sql[] =
	/* Written with the thread table (store_thread.c): each reference a
	 * message makes that no stored message answered, up to its parent.
	 * A new message whose id is here may become that message's parent;
	 * it is the one link from new mail to old that no id of the new
	 * mail names. */
	"CREATE TABLE IF NOT EXISTS thread_pending(\n"
	"  ref TEXT NOT NULL, msgid TEXT NOT NULL,\n"
	"  PRIMARY KEY(ref, msgid)) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS thread_pending_msgid"
	" ON thread_pending(msgid);\n"
	/* series of one change-id are one topic */
	"CREATE INDEX IF NOT EXISTS message_info_change_id"
	" ON message_info(change_id) WHERE change_id IS NOT NULL;\n"
	/* what the last build was made from is not known: build whole */
	"DELETE FROM meta WHERE key = 'threads_base';\n";

/* ---- version 10: who wrote a patch posted by someone else ------------- */

static const char v10_sql[] =
	/* Written at import (onlist_store_thread_put_message_info): the in-body
	 * "From:" at the top of a mail's body, the author git am records
	 * when someone posts another's patch.  Versions of a patch are
	 * linked by it as by the sender (thread.h).  A message stored
	 * before gets its row only when it is imported again. */
	"CREATE TABLE IF NOT EXISTS message_author(\n"
	"  msgid TEXT PRIMARY KEY, name TEXT, addr TEXT) WITHOUT ROWID;\n"
	/* topics are linked by new rules: build whole */
	"DELETE FROM meta WHERE key = 'threads_base';\n";

/* ---- version 11: what a reply says; the notice a commit got -------------- */

static const char v11_sql[] =
	/* Written at import (onlist_store_thread_put_message_info) for each reply:
	 * kind is 'tag' (an unquoted review trailer), 'series-tag' (one the
	 * reply gives to the whole series, msgmeta.h), 'nak', 'notice' (an
	 * applied notice by the built-in patterns, msgmeta.h) or
	 * 'discussion'; text is the writer's own text (msgmeta.h) when it is
	 * a few short lines, for the notice patterns of a rules file, else
	 * NULL.  Bodies are not kept.  A reply stored before gets its row
	 * when it is imported again; until then it is discussion. */
	"CREATE TABLE IF NOT EXISTS message_reply(\n"
	"  msgid TEXT PRIMARY KEY, kind TEXT NOT NULL, text TEXT,\n"
	"  quoted_id TEXT, quoted_repaired TEXT) WITHOUT ROWID;\n"
	/* the patch-id (and repaired id) of the diff a reply quotes, one
	 * level of "> " taken off: the posting of a mail the archive lost */
	"CREATE INDEX IF NOT EXISTS message_reply_quoted ON message_reply(quoted_id)"
	" WHERE quoted_id IS NOT NULL;\n"
	"CREATE INDEX IF NOT EXISTS message_reply_quoted_repaired"
	" ON message_reply(quoted_repaired) WHERE quoted_repaired IS NOT NULL;\n"
	/* Rebuilt with commit_review: the first applied notice that answers
	 * a version of the commit's patch, or its cover letter. */
	"CREATE TABLE IF NOT EXISTS commit_notice(\n"
	"  sha TEXT PRIMARY KEY, msgid TEXT NOT NULL) WITHOUT ROWID;\n"
	/* Rebuilt with commit_review: each posting's replies and repliers
	 * by the rule of the review state (review.h), for lookup. */
	"CREATE TABLE IF NOT EXISTS posting_replies(\n"
	"  sha TEXT NOT NULL, msgid TEXT NOT NULL, replies INTEGER NOT NULL,\n"
	"  repliers INTEGER NOT NULL, PRIMARY KEY(sha, msgid)) WITHOUT ROWID;\n"
	/* and the replies to each series of the commit's topic (lookup's
	 * versions), by the same rule */
	"CREATE TABLE IF NOT EXISTS series_replies(\n"
	"  sha TEXT NOT NULL, series TEXT NOT NULL, replies INTEGER NOT NULL,\n"
	"  PRIMARY KEY(sha, series)) WITHOUT ROWID;\n"
	/* cover letters are found by structure (thread.h): build whole */
	"DELETE FROM meta WHERE key = 'threads_base';\n";

/* ---- version 12: when the archive received a mail; mails of one id ---- */

/* Columns a step adds to a table an earlier step made.  SQLite has no
 * ADD COLUMN IF NOT EXISTS: a column already there (a database set back
 * to an older version by hand, as the tests do) is left as it is. */
static const struct {
	int version;
	const char *table, *column, *type;
} added_columns[] = {
	/* received: when a server or archive had the mail, the upper bound
	 * of when it was sent that a sender cannot move earlier (UTC, NULL:
	 * unknown); received_how says whose word it is: 'epoch' (a
	 * public-inbox commit's time), 'mbox' (the From_ line), 'header'
	 * (the newest Received: field).  content_hash tells two mails of
	 * one Message-ID apart (import.c); the second is kept under the key
	 * "ID dup:HASH".  Rows stored before have NULL in all three. */
	{ 12, "messages", "received", "INTEGER" },
	{ 12, "messages", "received_how", "TEXT" },
	{ 12, "messages", "content_hash", "TEXT" },
	/* merge_tip: the landing merge's second parent (what a pull
	 * request's tip is compared with); merge_request: the "g/p!N" of a
	 * GitLab "See merge request" line in its message (paths.h).  NULL
	 * for a direct landing, and for rows scanned before: the next scan
	 * fills them. */
	{ 13, "landing", "merge_tip", "TEXT" },
	{ 13, "landing", "merge_request", "TEXT" },
	/* why: why a posted commit's review is `unknown` (review.h), NULL
	 * for the other states */
	{ 16, "commit_review", "why", "TEXT" },
	/* the landed commit's commit date, a copy (v26_sql) */
	{ 26, "landing", "commit_date", "INTEGER" },
};

static const char v12_sql[] =
	/* mails of one Message-ID: a new rule, build threads whole */
	"DELETE FROM meta WHERE key = 'threads_base';\n";

/* ---- version 13: the path a merge took ------------------------------- */

static const char v13_sql[] =
	/* pull requests by the tag or branch they name: a merge's title
	 * names them when its second parent is not the mail's tip */
	"CREATE INDEX IF NOT EXISTS pulls_ref ON pulls(ref);\n";

/* ---- version 14: review tags quoted from mail the archive lost ---------- */

static const char v14_sql[] =
	/* Written at import for each reply (message_info class reply or
	 * other): the review trailers it quotes one level deep ("> Acked-by:
	 * ..."), none when its quote holds a diff (msgmeta.h); attrib: the
	 * address its attribution line names ("On ..., Ann <ann@x> wrote:"),
	 * or ''.  The review counts one when the mail quoted is not in the
	 * database (review.h).  A reply stored before gets its rows when it
	 * is imported again. */
	"CREATE TABLE IF NOT EXISTS quoted_tags(\n"
	"  msgid TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL,\n"
	"  name TEXT, addr TEXT, value TEXT, attrib TEXT NOT NULL,\n"
	"  PRIMARY KEY(msgid, seq)) WITHOUT ROWID;\n";

/* ---- version 15: each topic as onlist ignored judges it --------------- */

static const char v15_sql[] =
	/* Written by `onlist match` (ignored.h, onlist_ignored_update()),
	 * again only for the topics the thread build or the matches changed:
	 * each patch and cover letter of a topic as ignored.h reads it (no
	 * pull request, echo, backport or reviewer's diff), with the commit
	 * that matches it ('' none; the least sha of its matches) ... */
	"CREATE TABLE IF NOT EXISTS ignored_msgs(\n"
	"  topic TEXT NOT NULL, msgid TEXT NOT NULL, series TEXT NOT NULL,\n"
	"  date INTEGER NOT NULL, list TEXT NOT NULL, from_addr TEXT NOT NULL,\n"
	"  from_name TEXT NOT NULL, subject TEXT NOT NULL, author TEXT NOT NULL,\n"
	"  codev TEXT NOT NULL, version INTEGER NOT NULL, cover INTEGER NOT NULL,\n"
	"  files TEXT NOT NULL, commit_sha TEXT NOT NULL,\n"
	"  PRIMARY KEY(topic, msgid)) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS ignored_msgs_msgid ON ignored_msgs(msgid);\n"
	/* lookup: the later patches of a sender or in-body author, which
	 * may supersede the topic looked up */
	"CREATE INDEX IF NOT EXISTS ignored_msgs_from"
	" ON ignored_msgs(from_addr, date);\n"
	"CREATE INDEX IF NOT EXISTS ignored_msgs_author"
	" ON ignored_msgs(author, date) WHERE author <> '';\n"
	/* ... and what the replies decided: answer 0 (nobody but its authors
	 * and bots), 1 (answered) or 2 (only an applied notice), by which
	 * reply; for a topic a commit has, not read (0) */
	"CREATE TABLE IF NOT EXISTS ignored_topics(\n"
	"  topic TEXT PRIMARY KEY, answer INTEGER NOT NULL, reply TEXT,\n"
	"  reply_date INTEGER, reply_from TEXT, reply_name TEXT) WITHOUT ROWID;\n"
	/* the next match fills them whole */
	"DELETE FROM meta WHERE key = 'ignored_stamp';\n";

/* ---- version 16: a review the archive cannot decide -------------------- */

static const char v16_sql[] =
	/* commit_review.why is new (added_columns): every state is computed
	 * again by the next match */
	"DELETE FROM meta WHERE key = 'review_canon';\n";

/* ---- version 17: the review's version links, kept -------------------- */

static const char v17_sql[] =
	/* Written by `onlist match` (store_review.c), again only for the
	 * commits new mail or new matches can change: each posted commit's
	 * postings (posted 1) and the earlier versions of it sent under
	 * another subject (posted 0), with the topic each was in. */
	"CREATE TABLE IF NOT EXISTS review_links(\n"
	"  sha TEXT NOT NULL, msgid TEXT NOT NULL, topic TEXT NOT NULL,\n"
	"  posted INTEGER NOT NULL, PRIMARY KEY(sha, msgid)) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS review_links_topic ON review_links(topic);\n"
	/* the commits a new patch can be an earlier version of: by its
	 * subject, by its author */
	"CREATE INDEX IF NOT EXISTS commits_subject_lower"
	" ON commits(lower(subject));\n"
	"CREATE INDEX IF NOT EXISTS commits_author_lower"
	" ON commits(lower(author_email));\n"
	/* the next match computes every review (and link) again */
	"DELETE FROM meta WHERE key = 'review_rows';\n";

/* ---- version 18: the received times, indexed ------------------------- */

static const char v18_sql[] =
	/* what `onlist match` asks of the received times each run
	 * (store_match.c, sql_bounds): when each list's archive began (the
	 * first of its list, by the index) and the mails received more than
	 * a day after their Date (few: a partial index), instead of reading
	 * every message twice */
	"CREATE INDEX IF NOT EXISTS messages_list_received"
	" ON messages(list, received);\n"
	"CREATE INDEX IF NOT EXISTS messages_late ON messages(list, date)"
	" WHERE received > date + 86400;\n";

/* ---- version 19: the subject keys, stored ---------------------------- */

static const char v19_sql[] =
	/* what the subject and fuzzy tiers of `onlist match` compare
	 * (subject.c): a commit's stripped subject (lower case) and its
	 * subject key with its author's address, a patch mail's subject key
	 * with its sender's, so that after new mail the commits and mails
	 * of a key are looked up, not every commit's subject parsed again.
	 * Made whole by a match that runs every tier, then added to (meta
	 * subject_keys: the last message and commit row they hold). */
	"CREATE TABLE IF NOT EXISTS commit_subject(\n"
	"  sha TEXT PRIMARY KEY, author TEXT NOT NULL, stripped TEXT NOT NULL,\n"
	"  skey TEXT NOT NULL) WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS commit_subject_stripped"
	" ON commit_subject(stripped);\n"
	"CREATE INDEX IF NOT EXISTS commit_subject_key"
	" ON commit_subject(author, skey);\n"
	"CREATE TABLE IF NOT EXISTS mail_subject(\n"
	"  msgid TEXT PRIMARY KEY, addr TEXT NOT NULL, skey TEXT NOT NULL)\n"
	"  WITHOUT ROWID;\n"
	"CREATE INDEX IF NOT EXISTS mail_subject_key ON mail_subject(addr, skey);\n"
	/* after new mail, the commits of a new mail's author date (the
	 * author-date tier) and of its patch-id under another diff
	 * algorithm (the tiers after patch-id) */
	/* partial: count(*) of commits does not take it for the smallest */
	"CREATE INDEX IF NOT EXISTS commits_author_date ON commits(author_date)"
	" WHERE author_date IS NOT NULL;\n"
	"CREATE INDEX IF NOT EXISTS commit_patch_histogram"
	" ON commit_patch(alt_histogram) WHERE alt_histogram IS NOT NULL;\n"
	"CREATE INDEX IF NOT EXISTS commit_patch_patience"
	" ON commit_patch(alt_patience) WHERE alt_patience IS NOT NULL;\n"
	"CREATE INDEX IF NOT EXISTS commit_patch_minimal"
	" ON commit_patch(alt_minimal) WHERE alt_minimal IS NOT NULL;\n"
	"DELETE FROM meta WHERE key = 'subject_keys';\n";

/* ---- version 20: edits of what the tiers read, counted --------------- */

/* One more in meta edits, by a trigger. */
#define EDIT "BEGIN INSERT INTO meta(key, value) VALUES('edits', 1)" \
	" ON CONFLICT(key) DO UPDATE SET value = value + 1; END;\n"

static const char v20_sql[] =
	/* A rewritten or deleted row of what the tiers of `onlist match`
	 * read, by onlist or by hand (new rows come with new messages and
	 * commits, told by their ids): the tiers' stamps keep this count
	 * (onlist_store_match_tier_stamp()), and a new one makes them run
	 * whole, without counting every table at each run.  A copy of a
	 * message (its hash, when it was received) is no edit: the late
	 * tier's stamp is dropped by the import that makes it earlier. */
	"CREATE TRIGGER IF NOT EXISTS messages_del AFTER DELETE ON messages "
	EDIT
	"CREATE TRIGGER IF NOT EXISTS messages_upd AFTER UPDATE OF msgid,"
	" synthetic_id, list, date, from_name, from_addr, subject, in_reply_to,"
	" refs, has_patch, patch_id, patch_source ON messages " EDIT
	"CREATE TRIGGER IF NOT EXISTS message_patch_del AFTER DELETE"
	" ON message_patch " EDIT
	"CREATE TRIGGER IF NOT EXISTS message_patch_upd AFTER UPDATE"
	" ON message_patch " EDIT
	"CREATE TRIGGER IF NOT EXISTS message_info_del AFTER DELETE"
	" ON message_info " EDIT
	"CREATE TRIGGER IF NOT EXISTS message_info_upd AFTER UPDATE"
	" ON message_info " EDIT
	"CREATE TRIGGER IF NOT EXISTS echoes_del AFTER DELETE ON echoes " EDIT
	"CREATE TRIGGER IF NOT EXISTS echoes_upd AFTER UPDATE ON echoes " EDIT
	"CREATE TRIGGER IF NOT EXISTS commits_del AFTER DELETE ON commits " EDIT
	"CREATE TRIGGER IF NOT EXISTS commits_upd AFTER UPDATE ON commits " EDIT
	"CREATE TRIGGER IF NOT EXISTS commit_patch_del AFTER DELETE"
	" ON commit_patch " EDIT
	"CREATE TRIGGER IF NOT EXISTS commit_patch_upd AFTER UPDATE"
	" ON commit_patch " EDIT
	"INSERT OR IGNORE INTO meta(key, value) VALUES('edits', 0);\n"
	/* the commits whose author is a list's DMARC rewrite ("Name via
	 * LIST"), kept by `onlist match` (meta commit_via: the last commit
	 * row looked at, and the edits then) */
	"CREATE TABLE IF NOT EXISTS commit_via(sha TEXT PRIMARY KEY)"
	" WITHOUT ROWID;\n"
	"DELETE FROM meta WHERE key IN ('exact_stamp', 'fuzzy_stamp');\n";
#undef EDIT

/* ---- version 21: the saved topics by date ---------------------------- */

static const char v21_sql[] =
	/* the report's "still unanswered" of a period: the topics with a
	 * saved message dated in it, without reading the others (ignored.c
	 * load_window()); it holds the key (topic, msgid) too */
	"CREATE INDEX IF NOT EXISTS ignored_msgs_date ON ignored_msgs(date);\n";

/* ---- version 22: commits by author and files ------------------------- */

static const char v22_sql[] =
	/* the review after new mail: the commits a new patch can be an
	 * earlier version of, by its sender and its files (store_review.c
	 * sql_links_some), looked up instead of read among every commit of
	 * the sender (31,000 for the most prolific of 5,000,000 x 1,000,000
	 * LKML shape) */
	"CREATE INDEX IF NOT EXISTS commits_author_files"
	" ON commits(lower(author_email), files);\n";

/* ---- version 23: the matches and landings counted as they change ------ */

/* Whether a match row makes its commit posted (vocab.h), of row r. */
#define POSTED_ROW(r) ONLIST__POSTED(r ".method")
/* Whether commit r.commit_sha has a posted row other than r (in an AFTER
 * trigger: the table holds r). */
#define OTHER_POSTED(r) \
	" EXISTS (SELECT 1 FROM matches x WHERE x.commit_sha = " r \
	".commit_sha AND" ONLIST__POSTED("x.method") " AND NOT (x.message_id" \
	" = " r ".message_id AND x.method = " r ".method))"
/* Unless a match run paused the counting: it counts what it wrote at
 * its end, the whole table or the log of its changes (store_match.c,
 * onlist_store_match_log_end()); each trigger asks whether the commit has
 * another posted row, 30 us a row while the statement writing it reads
 * the same table. */
#define COUNTING " WHEN NOT EXISTS (SELECT 1 FROM meta" \
	" WHERE key = 'match_counts_paused')"
/* What one landing row adds to landing_sum (the sums the match tiers'
 * stamps took of every landing row, onlist_store_match_tier_stamp()). */
#define LANDING_ADD(r, op) \
	"UPDATE landing_sum SET n = n " op " 1, s = s " op " " r ".landed_date," \
	" k = k " op " (" r ".landed_date * length(" r ".sha) + unicode(" r \
	".sha));"
/* Triggers counting table t's rows in row_counts. */
#define ROW_COUNT(t) \
	"CREATE TRIGGER IF NOT EXISTS " t "_count_ins AFTER INSERT ON " t \
	" BEGIN UPDATE row_counts SET n = n + 1 WHERE name = '" t "'; END;\n" \
	"CREATE TRIGGER IF NOT EXISTS " t "_count_del AFTER DELETE ON " t \
	" BEGIN UPDATE row_counts SET n = n - 1 WHERE name = '" t "'; END;\n"

static const char v23_sql[] =
	/* The rows of each method, and how many commits have a posted
	 * row (meta matched_commits): what `onlist match` prints after
	 * each run, kept by triggers as the rows change (by onlist or by
	 * hand) instead of read from every match.  A row written over by
	 * INSERT OR REPLACE would not be counted out: no onlist statement
	 * does.  Changing a row's commit or method forgets the count of
	 * commits (read whole until the next match run keeps it again). */
	"CREATE TABLE IF NOT EXISTS match_counts(method TEXT PRIMARY KEY,"
	" n INTEGER NOT NULL) WITHOUT ROWID;\n"
	"DELETE FROM match_counts;\n"
	"INSERT INTO match_counts SELECT method, count(*) FROM matches"
	" GROUP BY method;\n"
	"INSERT OR REPLACE INTO meta(key, value) SELECT 'matched_commits',"
	" count(DISTINCT commit_sha) FROM matches WHERE" POSTED_ROW("matches")
	";\n"
	"CREATE TRIGGER IF NOT EXISTS matches_count_ins AFTER INSERT ON matches"
	COUNTING " BEGIN INSERT INTO match_counts VALUES(new.method, 1)"
	" ON CONFLICT(method) DO UPDATE SET n = n + 1;"
	" UPDATE meta SET value = value + 1 WHERE key = 'matched_commits'"
	" AND" POSTED_ROW("new") " AND NOT" OTHER_POSTED("new") "; END;\n"
	"CREATE TRIGGER IF NOT EXISTS matches_count_del AFTER DELETE ON matches"
	COUNTING " BEGIN UPDATE match_counts SET n = n - 1 WHERE method = old.method;"
	" UPDATE meta SET value = value - 1 WHERE key = 'matched_commits'"
	" AND" POSTED_ROW("old") " AND NOT EXISTS (SELECT 1 FROM matches x"
	" WHERE x.commit_sha = old.commit_sha AND" ONLIST__POSTED("x.method")
	"); END;\n"
	"CREATE TRIGGER IF NOT EXISTS matches_count_upd AFTER UPDATE OF"
	" commit_sha, method ON matches"
	" BEGIN UPDATE match_counts SET n = n - 1 WHERE method = old.method;"
	" INSERT INTO match_counts VALUES(new.method, 1)"
	" ON CONFLICT(method) DO UPDATE SET n = n + 1;"
	" DELETE FROM meta WHERE key = 'matched_commits'; END;\n"
	/* The count, sum and keyed sum of the landing dates: the match
	 * tiers' stamps compared them, read from every landing row at each
	 * run.  INSERT OR REPLACE (scan) deletes the row it replaces
	 * without a delete trigger: the insert takes it out first. */
	"CREATE TABLE IF NOT EXISTS landing_sum(n INTEGER NOT NULL,"
	" s INTEGER NOT NULL, k INTEGER NOT NULL);\n"
	"DELETE FROM landing_sum;\n"
	"INSERT INTO landing_sum SELECT count(*), coalesce(sum(landed_date), 0),"
	" coalesce(sum(landed_date * length(sha) + unicode(sha)), 0)"
	" FROM landing;\n"
	"CREATE TRIGGER IF NOT EXISTS landing_sum_replace BEFORE INSERT"
	" ON landing BEGIN UPDATE landing_sum SET n = n - 1, s = s - o.landed_date,"
	" k = k - (o.landed_date * length(o.sha) + unicode(o.sha))"
	" FROM (SELECT sha, landed_date FROM landing WHERE sha = new.sha) o;"
	" END;\n"
	"CREATE TRIGGER IF NOT EXISTS landing_sum_ins AFTER INSERT ON landing"
	" BEGIN " LANDING_ADD("new", "+") " END;\n"
	"CREATE TRIGGER IF NOT EXISTS landing_sum_del AFTER DELETE ON landing"
	" BEGIN " LANDING_ADD("old", "-") " END;\n"
	"CREATE TRIGGER IF NOT EXISTS landing_sum_upd AFTER UPDATE OF sha,"
	" landed_date ON landing BEGIN " LANDING_ADD("old", "-")
	LANDING_ADD("new", "+") " END;\n"
	/* The rows of the tables whose count the stamps of match take
	 * (ONLIST__ROWS: the classes' message_lists, message_info and
	 * echoes; the threads' messages and message_author; the ignored
	 * topics' and the review's message_reply, message_trailers and
	 * message_patch), each a scan of millions of rows at 5,000,000
	 * messages.  Their rows are written by INSERT OR IGNORE, so each
	 * insert trigger counts a row that is there. */
	"CREATE TABLE IF NOT EXISTS row_counts(name TEXT PRIMARY KEY,"
	" n INTEGER NOT NULL) WITHOUT ROWID;\n"
	"INSERT OR REPLACE INTO row_counts"
	" SELECT 'messages', count(*) FROM messages"
	" UNION ALL SELECT 'message_lists', count(*) FROM message_lists"
	" UNION ALL SELECT 'message_info', count(*) FROM message_info"
	" UNION ALL SELECT 'echoes', count(*) FROM echoes"
	" UNION ALL SELECT 'message_author', count(*) FROM message_author"
	" UNION ALL SELECT 'message_reply', count(*) FROM message_reply"
	" UNION ALL SELECT 'message_trailers', count(*) FROM message_trailers"
	" UNION ALL SELECT 'message_patch', count(*) FROM message_patch;\n"
	ROW_COUNT("messages") ROW_COUNT("message_lists")
	ROW_COUNT("message_info") ROW_COUNT("echoes")
	ROW_COUNT("message_author") ROW_COUNT("message_reply")
	ROW_COUNT("message_trailers") ROW_COUNT("message_patch");
#undef ROW_COUNT
#undef LANDING_ADD
#undef COUNTING
#undef OTHER_POSTED
#undef POSTED_ROW

/* ---- version 24: commits by author and commit date ------------------- */

static const char v24_sql[] =
	/* the fuzzy tier after new mail: the commits of a new mail's
	 * sender committed in its window (store_fuzzy.c sql_todo_author),
	 * a range of this index, and the older ones' bounds asked from the
	 * index alone, instead of every commit of the sender read whole */
	"CREATE INDEX IF NOT EXISTS commits_author_cdate"
	" ON commits(lower(author_email), commit_date);\n";

/* ---- version 25: thread_answers, only the rows that answer ---------- */

static const char v25_sql[] =
	"DROP INDEX IF EXISTS thread_answers;\n" THREAD_ANSWERS;
#undef THREAD_ANSWERS

/* ---- version 26: the landed commit's own commit date, beside its landing - */

/* The fuzzy tier after new mail (store_fuzzy.c, sql_todo_recent_sha) asks
 * for the commits committed more than a year before a new mail that
 * landed within the year before it: from the landing's dates alone it
 * read every landing of that year (5M x 1M: 75,000, each looked up by
 * sha in commits) to keep a few hundred.  The commit date beside the
 * landing date in one index answers it from the index.  A copy, kept by
 * triggers whichever of the two rows is written first: NULL when the
 * commit has no row (the tier then takes the landing, as before). */
#define LANDING_CDATE(sha) \
	" UPDATE landing SET commit_date = (SELECT c.commit_date FROM commits c" \
	" WHERE c.sha = landing.sha) WHERE sha = " sha ";"
static const char v26_sql[] =
	/* after added_columns' landing.commit_date */
	"UPDATE landing SET commit_date = (SELECT c.commit_date FROM commits c"
	" WHERE c.sha = landing.sha);\n"
	/* landing_date's uses, and the commit date from the index: one
	 * index, not two the planner would choose between */
	"DROP INDEX IF EXISTS landing_date;\n"
	"CREATE INDEX IF NOT EXISTS landing_late"
	" ON landing(landed_date, commit_date);\n"
	"CREATE TRIGGER IF NOT EXISTS landing_cdate AFTER INSERT ON landing"
	" BEGIN" LANDING_CDATE("new.sha") " END;\n"
	"CREATE TRIGGER IF NOT EXISTS landing_cdate_upd AFTER UPDATE OF sha"
	" ON landing BEGIN" LANDING_CDATE("new.sha") " END;\n"
	"CREATE TRIGGER IF NOT EXISTS commits_cdate_ins AFTER INSERT ON commits"
	" BEGIN" LANDING_CDATE("new.sha") " END;\n"
	"CREATE TRIGGER IF NOT EXISTS commits_cdate_upd AFTER UPDATE OF sha,"
	" commit_date ON commits BEGIN" LANDING_CDATE("old.sha")
	LANDING_CDATE("new.sha") " END;\n"
	"CREATE TRIGGER IF NOT EXISTS commits_cdate_del AFTER DELETE ON commits"
	" BEGIN" LANDING_CDATE("old.sha") " END;\n"
	/* the review after new mail computes the unknown commits again
	 * (store_review.c, SOME_UNKNOWN): it read every row for them (5M
	 * x 1M: 650,000 rows, 29 ms, none unknown) */
	"CREATE INDEX IF NOT EXISTS commit_review_unknown ON commit_review(state)"
	" WHERE state = 'unknown';\n"
	/* the commits, counted as schema 23 counts the message tables
	 * (row_counts): the closing "N of M commits matched" of every
	 * match read a whole index for M (5M x 1M: 7,500 pages, a tenth
	 * of a run's reads after 1,000 new messages).  Written by INSERT OR
	 * IGNORE (store.c), so each insert trigger counts a row that is
	 * there. */
	"INSERT OR REPLACE INTO row_counts SELECT 'commits', count(*)"
	" FROM commits;\n"
	"CREATE TRIGGER IF NOT EXISTS commits_count_ins AFTER INSERT ON commits"
	" BEGIN UPDATE row_counts SET n = n + 1 WHERE name = 'commits'; END;\n"
	"CREATE TRIGGER IF NOT EXISTS commits_count_del AFTER DELETE ON commits"
	" BEGIN UPDATE row_counts SET n = n - 1 WHERE name = 'commits'; END;\n";
#undef LANDING_CDATE

/* Step N (index N - 1) brings a database to version N: its first part,
 * the columns added_columns gives for N, then its second part. */
static const char *const steps[][2] = {
	{ v1_sql },
	{ v2_sql },
	{ v3_sql },
	{ v4_sql, onlist__thread_index_create },
	{ v5_sql },
	{ v6_sql },
	{ v7_sql },
	{ v8_sql },
	{ v9_sql },
	{ v10_sql },
	{ v11_sql },
	{ v12_sql },
	{ v13_sql },
	{ v14_sql },
	{ v15_sql },
	{ v16_sql },
	{ v17_sql },
	{ v18_sql },
	{ v19_sql },
	{ v20_sql },
	{ v21_sql },
	{ v22_sql },
	{ v23_sql },
	{ v24_sql },
	{ v25_sql },
	{ "", v26_sql },
};
#define SCHEMA_VERSION ((int)(sizeof(steps) / sizeof(*steps)))

/* Set by an upgrade from a version before 5 (store_schema.h). */
static const char backfill_key[] = "upgrade_backfill";

static int user_version(struct onlist_store *s, int *version)
{
	sqlite3_stmt *st;
	int rc;

	*version = 0;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL)
	    != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*version = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static onlist_status too_new(struct onlist_store *s, int version)
{
	free(s->errmsg);
	if (asprintf(&s->errmsg, "made by a newer onlist (schema %d, this "
		     "one knows %d)", version, SCHEMA_VERSION) < 0)
		s->errmsg = NULL;
	return ONLIST_EDB;
}

int onlist__store_schema_check(struct onlist_store *s)
{
	int version;

	if (user_version(s, &version) < 0) {
		fail(s, "read the schema version");
		return -1;
	}
	if (version > SCHEMA_VERSION) {
		too_new(s, version);
		return -1;
	}
	return version == SCHEMA_VERSION;
}

static onlist_status add_columns(struct onlist_store *s, int version)
{
	for (size_t i = 0; i < sizeof(added_columns) / sizeof(*added_columns);
	     i++) {
		char *sql;
		sqlite3_stmt *st;
		int rc, have;

		if (added_columns[i].version != version)
			continue;
		if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM pragma_table_info(?1)"
				       " WHERE name = ?2", -1, &st, NULL)
		    != SQLITE_OK)
			return fail(s, "read the schema");
		sqlite3_bind_text(st, 1, added_columns[i].table, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, added_columns[i].column, -1,
				  SQLITE_STATIC);
		rc = sqlite3_step(st);
		have = rc == SQLITE_ROW;
		sqlite3_finalize(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return fail(s, "read the schema");
		if (have)
			continue;
		/* names from the table above, never from outside */
		if (asprintf(&sql, "ALTER TABLE %s ADD COLUMN %s %s",
			     added_columns[i].table, added_columns[i].column,
			     added_columns[i].type) < 0)
			return ONLIST_ENOMEM;
		rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
		free(sql);
		if (rc != SQLITE_OK)
			return fail(s, "upgrade the schema");
	}
	return ONLIST_OK;
}

onlist_status onlist__store_migrate(struct onlist_store *s)
{
	onlist_status ret;
	char *sql = NULL;
	int version;

	if (user_version(s, &version) < 0)
		return fail(s, "read the schema version");
	if (version > SCHEMA_VERSION)
		return too_new(s, version);
	if (version == SCHEMA_VERSION)
		return ONLIST_OK;
	if ((ret = onlist_store_begin(s)) != ONLIST_OK)
		return ret;
	/* Again, under the write lock: another onlist may have upgraded it
	 * while this one waited. */
	if (user_version(s, &version) < 0) {
		ret = fail(s, "read the schema version");
		goto rollback;
	}
	if (version > SCHEMA_VERSION) {
		ret = too_new(s, version);
		goto rollback;
	}
	if (version == SCHEMA_VERSION)
		return onlist_store_commit(s);
	for (int v = version; v < SCHEMA_VERSION; v++) {
		/* a step's first part, its added columns, its second part
		 * (which may use them) */
		if (sqlite3_exec(s->db, steps[v][0], NULL, NULL, NULL)
		    != SQLITE_OK) {
			ret = fail(s, "upgrade the schema");
			goto rollback;
		}
		if ((ret = add_columns(s, v + 1)) != ONLIST_OK)
			goto rollback;
		if (steps[v][1] && sqlite3_exec(s->db, steps[v][1], NULL, NULL,
						NULL) != SQLITE_OK) {
			ret = fail(s, "upgrade the schema");
			goto rollback;
		}
	}
	/* Version 0 is a new, empty database: it owes nothing.  One older
	 * than 5 may lack rows of versions 4 and 5 (store_schema.h); version
	 * 6 owes nothing (a commit scanned before it was diffed whole), nor
	 * does 7 (the next match fills its tables). */
	if (version > 0 && version < 5 &&
	    (ret = onlist_store_set_meta(s, backfill_key, "1")) != ONLIST_OK)
		goto rollback;
	if (asprintf(&sql, "PRAGMA user_version=%d", SCHEMA_VERSION) < 0) {
		ret = ONLIST_ENOMEM;
		goto rollback;
	}
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		ret = fail(s, "set the schema version");
		goto rollback;
	}
	free(sql);
	return onlist_store_commit(s);
rollback:
	free(sql);
	onlist_store_rollback(s);
	return ret;
}

/* ---- what an upgrade owes ---------------------------------------------- */

int onlist_store_schema_backfill_pending(struct onlist_store *s)
{
	char *v = onlist_store_get_meta(s, backfill_key);
	int pending = v != NULL;

	free(v);
	return pending;
}

onlist_status onlist_store_schema_backfill_done(struct onlist_store *s)
{
	static const char sql[] = "DELETE FROM meta WHERE key = ?1";
	sqlite3_stmt *st = onlist__store_prepare(s, sql);

	if (!st)
		return fail(s, "prepare");
	onlist__bind_text(st, 1, backfill_key);
	if (sqlite3_step(st) != SQLITE_DONE)
		return fail(s, "clear the upgrade mark");
	return ONLIST_OK;
}

#define NO_INFO(m) \
	" NOT EXISTS (SELECT 1 FROM message_info i WHERE i.msgid = " m ".msgid)"
#define OWED(m) " (" NO_INFO(m) " OR (" m ".has_patch AND NOT EXISTS" \
	" (SELECT 1 FROM message_patch p WHERE p.msgid = " m ".msgid)))"

static const char sql_backfill_sources[] =
	"SELECT DISTINCT m.source FROM messages m"
	" WHERE m.source IS NOT NULL AND" OWED("m") " ORDER BY m.source";
static const char sql_backfill_owed[] =
	"SELECT m.msgid, " NO_INFO("m") " FROM messages m"
	" WHERE m.source = ?1 AND" OWED("m");
static const char sql_backfill_without_info[] =
	"SELECT m.id, m.msgid, m.subject, m.in_reply_to, m.refs, m.has_patch"
	" FROM messages m WHERE m.id > ?1 AND" NO_INFO("m")
	" ORDER BY m.id LIMIT ?2";

/* The columns of the three statements above, named once. */
struct backfill_rows {
	int (*source)(const char *source, void *data);
	int (*owed)(const char *msgid, int needs_info, void *data);
	int (*headers)(const struct onlist_stored_headers *h, void *data);
	void *data;
};

static int source_row(int ncol, const char *const *c, void *data)
{
	const struct backfill_rows *x = data;

	(void)ncol;
	return c[0] ? x->source(c[0], x->data) : 0;
}

static int owed_row(int ncol, const char *const *c, void *data)
{
	const struct backfill_rows *x = data;

	(void)ncol;
	return c[0] ? x->owed(c[0], c[1] && atoi(c[1]), x->data) : 0;
}

static int headers_row(int ncol, const char *const *c, void *data)
{
	const struct backfill_rows *x = data;
	struct onlist_stored_headers h = {
		.id = c[0] ? strtoll(c[0], NULL, 10) : 0,
		.msgid = c[1], .subject = c[2],
		.in_reply_to = c[3] ? c[3] : "", .refs = c[4] ? c[4] : "",
		.has_patch = c[5] && atoi(c[5]),
	};

	(void)ncol;
	return x->headers(&h, x->data);
}

static onlist_status backfill_rows(struct onlist_store *s, const char *sql,
				   const char *const *params, int nparams,
				   onlist_row_cb row, struct backfill_rows *x)
{
	sqlite3_stmt *st = onlist__store_prepare(s, sql);

	if (!st)
		return fail(s, "prepare");
	return onlist__store_rows(s, st, params, nparams, row, x, NULL);
}

onlist_status onlist_store_schema_backfill_sources(struct onlist_store *s,
		int (*cb)(const char *source, void *data), void *data)
{
	struct backfill_rows x = { .source = cb, .data = data };

	return backfill_rows(s, sql_backfill_sources, NULL, 0, source_row, &x);
}

onlist_status onlist_store_schema_backfill_owed(struct onlist_store *s,
		const char *source,
		int (*cb)(const char *msgid, int needs_info, void *data),
		void *data)
{
	struct backfill_rows x = { .owed = cb, .data = data };

	return backfill_rows(s, sql_backfill_owed, &source, 1, owed_row, &x);
}

onlist_status onlist_store_schema_backfill_without_info(struct onlist_store *s,
		int64_t after, int limit,
		int (*cb)(const struct onlist_stored_headers *h, void *data),
		void *data)
{
	struct backfill_rows x = { .headers = cb, .data = data };
	char a[24], l[24];
	const char *p[2] = { a, l };

	snprintf(a, sizeof(a), "%" PRId64, after);
	snprintf(l, sizeof(l), "%d", limit);
	return backfill_rows(s, sql_backfill_without_info, p, 2, headers_row,
			     &x);
}

onlist_status onlist_store_schema_set_message_patch(struct onlist_store *s,
					     const char *msgid, int has_patch,
					     const char *patch_id,
					     const char *patch_source)
{
	static const char sql[] =
		"UPDATE messages SET has_patch = ?2, patch_id = ?3,"
		" patch_source = ?4 WHERE msgid = ?1";

	return onlist__store_step(s, onlist__store_prepare(s, sql),
				  "update message", "titt", msgid, has_patch,
				  patch_id, patch_source);
}
