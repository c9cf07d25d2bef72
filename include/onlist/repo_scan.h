/* repo_scan.h - reading commits out of a git repository.
 *
 * All git access goes through the git binary (git.h).  Commits are diffed
 * with the settings `git format-patch` uses (rename detection on, full
 * blob ids) so that a commit and the mail made from it get the same
 * patch-id.
 */
#ifndef ONLIST_REPO_SCAN_H
#define ONLIST_REPO_SCAN_H

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
	int has_patchid;		/* 0 for an empty diff, or a skipped one */
	char patchid[ONLIST_PATCHID_HEXSZ + 1];
	/* NULL, or why git could not diff this commit: its own message,
	 * "fatal: unable to read <blob>" (an object missing from a snapshot
	 * or partial clone).  Then has_patchid is 0 and files comes from
	 * the trees alone: a rename lists both names, or nothing at all
	 * when a tree is missing too. */
	char *skip_reason;
	char skip_object[41];		/* the object git named ("" unless
					 * skip_reason is set) */
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
 * A commit git cannot diff for want of an object (a blob or tree missing,
 * and no promisor remote that can send it: git fetches lazily as it always
 * does) does not end the scan: it reaches `each` in its place with
 * skip_reason set, and the scan goes on.  git's other failures still fail
 * the scan (ONLIST_EGIT with git's message): one whose message names no
 * object other than the commit (an option this git does not know, a git
 * killed by a signal), and a commit git cannot read at all.
 *
 * The diff-tree processes live for the whole scan (a new git per round
 * re-reads the same packs: 3x the work), and rounds overlap: a git that
 * finishes its share early starts on the next round while `each` runs.
 * A git that dies on a commit is replaced by a new one for the rest of
 * its share, after that commit alone has been diffed once more (by a git
 * of its own) to learn whether it is the one that fails, and why. */
onlist_status onlist_repo_scan(const char *repo, const char *range,
			       const struct onlist_scan_opts *opts,
			       char **errmsg);

/* ---- a scan in steps: list, probe, diff ---- */

/* The non-merge commits of a range, as one `git rev-list` lists them:
 * the probe, the scan and the landings of `onlist scan` read this one
 * list (on a long history each walk of it costs as much as the first). */
struct onlist_scan_list;

/* Run rev-list over `range` (as onlist_repo_scan() does) and keep every
 * sha, 20 bytes each.  *out is the caller's (onlist_repo_scan_list_free).
 * ONLIST_OK; ONLIST_EUSAGE, ONLIST_EGIT (git's message), ONLIST_ENOMEM
 * as onlist_repo_scan(). */
onlist_status onlist_repo_scan_list(struct onlist_scan_list **out,
				    const char *repo, const char *range,
				    char **errmsg);
size_t onlist_repo_scan_list_count(const struct onlist_scan_list *l);
/* 1 when the 40-hex sha is on the list, 0 when not, -1 when out of
 * memory (the first call sorts a copy of the list). */
int onlist_repo_scan_list_has(struct onlist_scan_list *l, const char *sha);
void onlist_repo_scan_list_free(struct onlist_scan_list *l);

/* onlist_repo_scan_looks_like_inbox() of the list's range, from the list:
 * one `git diff-tree` of its newest 20 commits. */
onlist_status onlist_repo_scan_list_inbox(const struct onlist_scan_list *l,
					  const char *repo, int *yes,
					  char **errmsg);

/* onlist_repo_scan() of the commits of a list: those opts->known does not
 * know are diffed (their number in *diffed, which may be NULL) and handed
 * to opts->each, round by round.  Returns what onlist_repo_scan() does. */
onlist_status onlist_repo_scan_listed(const char *repo,
				      const struct onlist_scan_list *l,
				      const struct onlist_scan_opts *opts,
				      size_t *diffed, char **errmsg);

/* ---- has a range changed since it was scanned? ---- */

/* What `range` is now: "REPO\n" and the object ids `git rev-parse
 * --revs-only` makes of it, one a line, "^" before an excluded one.
 * Two scans of the same text (a "v6.6..master" whose master has not
 * moved) give the same, so it can be kept and compared.  *out is the
 * caller's.  ONLIST_OK; ONLIST_EUSAGE for a range starting with '-';
 * ONLIST_EGIT with git's message; ONLIST_ENOMEM. */
onlist_status onlist_repo_scan_resolve(const char *repo, const char *range,
				       char **out, char **errmsg);

/* How a scan brings the landings of its range up to date. */
enum onlist_scan_landing {
	ONLIST_SCAN_LANDING_WHOLE,	/* walk the whole range */
	ONLIST_SCAN_LANDING_NEW,	/* walk *range only: what the tip
					 * brought since the last scan */
	ONLIST_SCAN_LANDING_KEPT,	/* the range has not changed: the
					 * stored landings are its own */
};

/* What a scan keeps of the range whose landings it stored: "N\nNOW", N
 * the commits listed, NOW its resolved range (NULL: unknown, which no
 * later range matches).  Caller frees; NULL when out of memory. */
char *onlist_repo_scan_landing_record(const char *now, size_t listed);

/* Given `last`, the record (onlist_repo_scan_landing_record) of the range
 * whose landings were stored last (NULL: none), and `now`, this scan's
 * resolved range (NULL: unknown) with `listed` commits: KEPT when they
 * are the same range with as many commits; NEW when only the tip moved
 * along its first-parent line (the same repository, one tip, the same
 * excluded commits), with *range (caller frees) "OLD..TIP" to walk, whose
 * landings are those a walk of the whole range gives its commits, and
 * *before the commits the last range had: a walk that does not find
 * listed - *before new ones has met a history that changed behind the old
 * tip (a shallow clone made deeper), and the whole must be walked; else
 * WHOLE.  One `git rev-parse` and one `git rev-list --first-parent` of
 * the new part decide NEW.  ONLIST_OK; git's failure (ONLIST_EGIT with
 * its message), ONLIST_ENOMEM; *plan is then WHOLE. */
onlist_status onlist_repo_scan_landing_plan(const char *repo, const char *last,
					    const char *now, size_t listed,
					    enum onlist_scan_landing *plan,
					    char **range, size_t *before,
					    char **errmsg);

/* Does `range` of repo look like a public-inbox archive (mail, not a
 * project's history)?  *yes is 1 when each of its newest 20 non-merge
 * commits touches only public-inbox's message files: "m" or "d" (v2
 * epochs), "xx/<38 hex>" (v1).  ONLIST_OK, or git's error
 * (ONLIST_EGIT, with *errmsg) as onlist_repo_scan_rev_list() gives it. */
onlist_status onlist_repo_scan_looks_like_inbox(const char *repo, const char *range,
					   int *yes, char **errmsg);

/* The full shas of the non-merge commits in `range`, newest first, as a
 * malloc'd array of 41-byte strings (caller frees *out). */
onlist_status onlist_repo_scan_rev_list(const char *repo, const char *range,
				   char (**out)[41], size_t *n, char **errmsg);

#endif
