/* repo.h - reading commits out of a git repository.
 *
 * All git access goes through the git binary, run with argument vectors
 * (never a shell).  Commits are diffed with the settings `git format-patch`
 * uses (rename detection on, full blob ids) so that a commit and the mail
 * made from it get the same patch-id.
 */
#ifndef ONLIST_REPO_H
#define ONLIST_REPO_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"
#include "onlist/patchid.h"

/* One trailer line of a commit message, as git parses it. */
struct onlist_trailer {
	char *key;		/* "Signed-off-by" */
	char *value;		/* "A U Thor <a@example.org>" */
};

/* One scanned commit.  Every string is owned by the struct and freed by
 * onlist_commit_release(). */
struct onlist_commit {
	char sha[41];
	char *author_name, *author_email;
	int64_t author_date;		/* seconds since the epoch, UTC */
	char *committer_name, *committer_email;
	int64_t commit_date;
	char *subject;
	char *body;			/* the message after the subject line */
	int body_empty;			/* no explanation beyond the trailers */
	struct onlist_trailer *trailers;
	size_t ntrailers;
	char *files;			/* touched paths, one per line */
	int has_patchid;		/* 0 for an empty diff */
	char patchid[ONLIST_PATCHID_HEXSZ + 1];
};

void onlist_commit_release(struct onlist_commit *c);

/* Receives each commit; the callee may keep nothing past the call (copy what
 * it needs).  Return non-zero to stop the scan. */
typedef int (*onlist_commit_cb)(const struct onlist_commit *c, void *data);

/* Decides which commits are already known: return 1 to skip this sha. */
typedef int (*onlist_known_cb)(const char *sha, void *data);

struct onlist_scan_opts {
	int jobs;		/* git processes diffing in parallel; 0 = 2 */
	size_t batch;		/* commits per round; 0 = 512 */
	onlist_known_cb known;	/* may be NULL */
	void *known_data;
	/* Called on the calling thread, in rev-list order within a round, after
	 * each round completes; used to commit a transaction per round. */
	onlist_commit_cb each;
	void *each_data;
	/* May be NULL; gets each_data.  Non-zero stops the scan. */
	int (*round_done)(size_t done, size_t total, void *data);
};
#define ONLIST_SCAN_OPTS_INIT { 0, 0, NULL, NULL, NULL, NULL, NULL }

/* Scan every non-merge commit in `range` (any git rev-list range; several
 * words separated by spaces are not split: pass one range) of the repository
 * at `repo`.  A range beginning with '-' is refused (ONLIST_EUSAGE).
 * On any error *errmsg may hold a message (caller frees); on ONLIST_EGIT it
 * is git's own ("fatal: bad revision 'v9.9'").  When `each` or
 * `round_done` stops the scan the result is still ONLIST_OK.  SHA-256
 * repositories are refused with ONLIST_EGIT.
 *
 * The diff-tree processes live for the whole scan (a new git per round
 * re-reads the same packs: 3x the work), and rounds overlap: a git that
 * finishes its share early starts on the next round while `each` runs. */
onlist_status onlist_repo_scan(const char *repo, const char *range,
			       const struct onlist_scan_opts *opts,
			       char **errmsg);

/* The full shas of the non-merge commits in `range`, newest first, as a
 * malloc'd array of 41-byte strings (caller frees *out). */
onlist_status onlist_repo_rev_list(const char *repo, const char *range,
				   char (**out)[41], size_t *n, char **errmsg);

/* ---- public-inbox epochs ------------------------------------------------ */

/* Make `dir` a mirror of the git repository at `url` (`git clone --mirror`
 * into DIR.tmp, renamed to dir when complete, when dir does not exist; a
 * forced `git fetch` from `url` into it when it does).  `url` may be a
 * local path; one starting with '-' is ONLIST_EUSAGE.  *errmsg (caller
 * frees) holds git's one-line message on failure. */
onlist_status onlist_repo_mirror(const char *url, const char *dir,
				 char **errmsg);

/* One message of a public-inbox epoch: the blob `m` of a commit (v2) or
 * the blob a commit adds (v1: pass the inbox repository as gitdir). */
struct onlist_epoch_msg {
	const char *commit;	/* 40 hex */
	const char *data;	/* the raw message, valid during the callback */
	size_t len;
	int deleted;		/* the commit removed a message (blob `d`, or a
				 * purge); data is NULL and len 0 */
	const char *missing;	/* non-NULL: the message's blob (40 hex) is
				 * not in the repository (a damaged mirror);
				 * data is NULL, and commit is the commit
				 * before it (git does not say which) */
};
typedef int (*onlist_epoch_cb)(const struct onlist_epoch_msg *m, void *data);

/* Walk the commits of the epoch repository `gitdir` (bare) on `branch`
 * (NULL: "master") after `since` (a commit id, or NULL/"" for all) oldest
 * first, streaming each message to `cb` (non-zero stops; ONLIST_OK is
 * still returned, and *last is the commit it stopped at).  *last gets the
 * last commit walked (caller frees; NULL when there was nothing new, on an
 * empty epoch whose branch does not exist yet, and on error).
 * ONLIST_ENOTFOUND: `since` is not in the history any more (rewritten by
 * public-inbox-purge): walk again from the start. */
onlist_status onlist_repo_epoch_walk(const char *gitdir, const char *branch,
				     const char *since, onlist_epoch_cb cb,
				     void *data, char **last, char **errmsg);

/* ---- landing, identities, files ---------------------------------------- */

/* Where a commit landed on a mainline branch: the first-parent commit of
 * the range's tip that brought it in (the merge, or the commit itself when
 * it was applied directly), and that commit's date. */
struct onlist_landing {
	const char *sha;		/* the commit (never a merge) */
	const char *merge_sha;		/* == sha when applied directly */
	int64_t landed_date;		/* merge_sha's commit date, UTC */
	const char *merge_subject;	/* "Merge tag 'x' of git://..." */
};
/* Strings valid during the call only.  Non-zero stops the walk. */
typedef int (*onlist_landing_cb)(const struct onlist_landing *l, void *data);

/* The landing of every non-merge commit of `range` (one rev-list range;
 * its first positive revision's first-parent line is the mainline).  Two
 * gits: `rev-list --parents` for the graph, `log --first-parent` for the
 * mainline.  Returns ONLIST_OK (also when cb stopped), ONLIST_EUSAGE for a
 * range starting with '-', ONLIST_EGIT with git's message in *errmsg
 * (caller frees), ONLIST_ENOMEM. */
onlist_status onlist_repo_landings(const char *repo, const char *range,
				   onlist_landing_cb cb, void *data,
				   char **errmsg);

/* A person as git prints them; both strings malloc'd. */
struct onlist_ident {
	char *name, *email;
};

/* Replace each identity with what `git check-mailmap` makes of it in
 * `repo` (its .mailmap, mailmap.file and mailmap.blob configuration), with
 * `alias_file` (may be NULL) read as one more mailmap file.  Entries are
 * replaced in place (old strings freed); on error some may be mapped and
 * the others untouched.  Brackets in a name are replaced by spaces before
 * git sees it. */
onlist_status onlist_repo_mailmap(const char *repo, const char *alias_file,
				  struct onlist_ident *ids, size_t n,
				  char **errmsg);

/* The file `path` at revision `rev` (`git cat-file blob REV:PATH`), NUL
 * terminated, in *out (caller frees).  ONLIST_ENOTFOUND when there is no
 * such file; ONLIST_EUSAGE for a rev starting with '-'. */
onlist_status onlist_repo_read_blob(const char *repo, const char *rev,
				    const char *path, char **out, size_t *len,
				    char **errmsg);

#endif
