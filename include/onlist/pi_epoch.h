/* pi_epoch.h - public-inbox epochs: the git repositories a public-inbox
 * archive is made of (one per epoch in v2, one in all for v1), mirrored
 * with git and read back message by message.
 *
 * Every git runs through git.h; errors carry git's own message.
 */
#ifndef ONLIST_PI_EPOCH_H
#define ONLIST_PI_EPOCH_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

/* Make `dir` a mirror of the git repository at `url` (`git clone --mirror`
 * into DIR.tmp, renamed to dir when complete, when dir does not exist; a
 * forced `git fetch` from `url` into it when it does).  `url` may be a
 * local path; one starting with '-' is ONLIST_EUSAGE.  *errmsg (caller
 * frees) holds git's one-line message on failure. */
onlist_status onlist_pi_epoch_mirror(const char *url, const char *dir,
				 char **errmsg);

/* onlist_pi_epoch_mirror() under a deadline (seconds on CLOCK_MONOTONIC, as
 * onlist_http_now(); 0: none): git and everything it started are killed
 * when it passes (onlist_git_run_until), and a clone's DIR.tmp removed. */
onlist_status onlist_pi_epoch_mirror_until(const char *url, const char *dir,
				       double deadline, char **errmsg);

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
	int64_t time;		/* the commit's committer time: when the
				 * archive took the message in, or when it
				 * was built (an upper bound of when the
				 * mail was sent); 0 when missing */
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
onlist_status onlist_pi_epoch_walk(const char *gitdir, const char *branch,
				     const char *since, onlist_epoch_cb cb,
				     void *data, char **last, char **errmsg);

/* The commit the branch (NULL: "master") of the epoch repository gitdir
 * points at, in id (40 hex), or "" when there is none (an empty epoch).
 * ONLIST_EGIT (git's message) when git fails otherwise; ONLIST_ENOMEM. */
onlist_status onlist_pi_epoch_tip(const char *gitdir, const char *branch,
				    char id[41], char **errmsg);

/* How many epochs a public-inbox manifest (manifest.js.gz, as a file at
 * path) lists: its largest "/git/N.git" key, plus one; 0 when it names
 * none; -1 when the file cannot be read as gzip.  Only the epoch names
 * are taken from it, nothing else of the JSON. */
int onlist_pi_manifest_epochs(const char *path);

/* The inboxes a server's manifest.js.gz (a file at path) lists, for a
 * message that names them: each key's first path component ("/NAME/git/
 * 0.git" or v1's "/NAME"), once each, in the order met, separated by
 * ", " (caller frees; "" when it lists none).  NULL when the file cannot
 * be read as gzip.  Names with anything but letters, digits and ".-_+@"
 * are left out: they are shown to the user. */
char *onlist_pi_manifest_inboxes(const char *path);

#endif
