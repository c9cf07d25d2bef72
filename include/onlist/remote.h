/* remote.h - looking a commit up on a public-inbox server (lore) instead of
 * in a mirrored archive: `lookup --remote` and `match --remote`.
 *
 * For one commit, queries in tiers, stopping at the first that finds a
 * mail carrying a patch:
 *   1 link        GET URL<msgid>/raw for each Message-ID the commit's
 *                 Link:, Message-Id: (and patch.msgid.link) trailers name,
 *                 unless the link tier's rule (onlist_match_link_taken)
 *                 refuses the patch as another project's: then the next
 *                 tiers are asked
 *   2 patch-id    POST URL?q=patchid:ID&x=m for the commit's patch-id under
 *                 myers, histogram, patience and minimal (each distinct id
 *                 once)
 *   3 author-date POST URL?q=f:ADDR AND dt:T..T&x=m, T the author date
 *   4 subject     POST URL?q=s:"SUBJECT" AND f:ADDR AND d:..LANDED+1&x=m;
 *                 also run after an earlier tier found the posting, so that
 *                 the other versions of the topic are there.  The subject
 *                 is kept as written ([PATCH] tags stripped, '"' made a
 *                 space): public-inbox's parser splits it as its indexer
 *                 did ("don't" is one term).  A server without phrase
 *                 search (index level medium) gets s:WORD AND s:WORD...
 *   5 fuzzy       when 1-4 found nothing: POST URL?q=f:ADDR AND
 *                 d:AUTHORED-180d..LANDED+1 AND (dfn:FILE OR ...)&x=m, the
 *                 author's patches to the commit's files (at most 4) in
 *                 the window; they are imported, and the fuzzy tier of
 *                 onlist_match_run() scores them; the thread of one it
 *                 takes is fetched after (onlist_remote_fuzzy_threads)
 * and every mail found with a patch brings its whole thread
 * (URL<msgid>/t.mbox.gz), imported into the store under the inbox's name,
 * so replies, versions and review tags are there for `onlist match`.
 *
 * What was fetched is a *partial source*: source_state rows under the
 * inbox URL ("partial" = the list name), never a `sources` row (fetch
 * would try to mirror it), and its messages are left out of the archive's
 * span.  Every answer is kept there too with the time it was asked
 * ("q:QUERY", "raw:MSGID", "t:MSGID"): asking again costs nothing unless
 * refresh is set.  One request at a time, through http.h (pace, 429 and
 * Retry-After, gzip, User-Agent).
 */
#ifndef ONLIST_REMOTE_H
#define ONLIST_REMOTE_H

#include "onlist/http.h"
#include "onlist/status.h"

struct onlist_store;
struct onlist_remote;

/* The source_state "url" under which each commit a server was searched
 * about is kept (key: its sha, value: the inbox URL): the verdict
 * (verdict.h) takes such a commit as looked for even outside the span of
 * the archive.  Not set when the server could not search. */
#define ONLIST_REMOTE_ASKED "remote:asked"
/* ... and under this one (value: why, one line) each commit some tier of
 * which could not be asked or answered ("the server has no phrase
 * search: subject tier not asked"): when nothing was found, the verdict
 * is unknown, for that reason, never never_posted.  An empty value is no
 * reason (the commit was asked again, fully). */
#define ONLIST_REMOTE_UNASKED "remote:unasked"

struct onlist_remote_opts {
	const char *url;	/* the inbox: http(s)://HOST/NAME/ */
	const char *repo;	/* the git repository the commits are in */
	struct onlist_http_opts http;
	int refresh;		/* ask again what is cached */
	/* one line for the user, at most once per kind: the server cannot
	 * search (index level basic), or not by phrase */
	void (*note)(const char *line, void *data);
	void *data;
};

/* The tiers above; ONLIST_REMOTE_NONE when nothing carrying a patch was
 * found. */
enum onlist_remote_tier {
	ONLIST_REMOTE_NONE = 0, ONLIST_REMOTE_LINK, ONLIST_REMOTE_PATCHID,
	ONLIST_REMOTE_AUTHOR_DATE, ONLIST_REMOTE_SUBJECT, ONLIST_REMOTE_FUZZY,
};
const char *onlist_remote_tier_name(enum onlist_remote_tier t);

/* A handle on the store `s` (the caller keeps it open) for inbox o->url
 * (the strings are copied).  ONLIST_EPARSE with *errmsg when the URL is
 * not http(s), ONLIST_EIO when no temporary directory can be made. */
onlist_status onlist_remote_open(struct onlist_remote **out,
				 struct onlist_store *s,
				 const struct onlist_remote_opts *o,
				 char **errmsg);
void onlist_remote_free(struct onlist_remote *r);

/* Before any commit is judged: the inbox must answer (GET URL/new.atom),
 * and what its search can do is asked once, with queries whose answer is
 * known (the newest subject new.atom lists: by phrase, else word by word;
 * the patch-id of the newest patch it lists, its raw mail fetched).  The
 * answer is kept per inbox (source_state "caps"): a repeat asks nothing
 * unless refresh is set.  What it cannot do is said through o->note.
 * ONLIST_ENOTFOUND with *errmsg when there is no inbox at the URL (404):
 * the message names the inboxes the server's manifest.js.gz lists;
 * ONLIST_EHTTP when a request fails for good. */
onlist_status onlist_remote_probe(struct onlist_remote *r, char **errmsg);

/* The commit `name` (anything git resolves to one commit in o->repo),
 * its full id in sha; stored (scanned, and its landing recorded) unless
 * the store has it.  ONLIST_ENOTFOUND when git names no single commit,
 * ONLIST_EGIT / ONLIST_EDB with *errmsg. */
onlist_status onlist_remote_add_commit(struct onlist_remote *r,
				       const char *name, char sha[41],
				       char **errmsg);

/* Ask the server about the stored commit sha (tiers above) and import
 * what it answers.  *tier says which tier found a mail with a patch.  A
 * server that cannot search is not an error (the note says so);
 * ONLIST_EHTTP with *errmsg when a request fails for good, ONLIST_EDB. */
onlist_status onlist_remote_search(struct onlist_remote *r, const char *sha,
				   enum onlist_remote_tier *tier,
				   char **errmsg);

/* After onlist_match_run(): the thread of each mail the fuzzy tier took
 * as a posting of sha (a candidate tier 5 brought in without its
 * thread), unless fetched before.  *fetched: how many were (0: nothing
 * new to match).  ONLIST_EHTTP or ONLIST_EDB with *errmsg. */
onlist_status onlist_remote_fuzzy_threads(struct onlist_remote *r,
					  const char *sha, int *fetched,
					  char **errmsg);

/* Requests made through this handle so far. */
long onlist_remote_requests(const struct onlist_remote *r);

/* The list name the inbox's mails are stored under: its last path
 * component ("linux-fsdevel", "all"); valid while r lives. */
const char *onlist_remote_list(const struct onlist_remote *r);

/* ---- the whole run ---------------------------------------------------------
 * lookup --remote and match --remote: open, probe, ask about each commit,
 * then match what was stored, as a local run would. */
struct onlist_remote_run_opts {
	struct onlist_remote_opts remote;	/* its note also gets, a line
						 * each, the names that name
						 * no commit (skipped) */
	const char *who;	/* the command, at the head of each message
				 * ("lookup: ..."); NULL: none */
	/* after each commit asked about, with the tier that found its
	 * posting and the requests made so far (a trace); NULL: none */
	void (*asked)(const char *sha, enum onlist_remote_tier tier,
		      long requests, void *data);	/* remote.data */
};

struct onlist_remote_run_result {
	long requests;		/* made to the server */
	int probe_failed;	/* the inbox did not answer the probe (no
				 * inbox at the URL, or its requests failed):
				 * nothing was asked about a commit */
};

/* Probe the inbox o->remote.url, ask it about each of the n commits
 * names[] (git names in o->remote.repo; onlist_remote_add_commit, then
 * onlist_remote_search), import what it answers into s, then build the
 * threads and run onlist_match_run() over the store (with the rules
 * `git config onlist.rules` names in the repository), and once more
 * after fetching the threads of the fuzzy tier's picks.  shas[i] gets
 * each one's full id ("" when git knows no such commit: said through
 * o->remote.note, and the others still asked).  *res is filled in every
 * case.  ONLIST_OK; else the status of what failed first with *errmsg
 * (the caller frees; "WHO: why", or "onlist.rules: why"): the probe
 * (res->probe_failed), a request, the store, git, the rules file or the
 * match. */
onlist_status onlist_remote_run(struct onlist_store *s,
				const struct onlist_remote_run_opts *o,
				char *const *names, int n, char (*shas)[41],
				struct onlist_remote_run_result *res,
				char **errmsg);

#endif
