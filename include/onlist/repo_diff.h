/* repo_diff.h - the diffs of chosen commits, with a chosen diff algorithm.
 *
 * Matching needs, for the commits exact patch-id left unmatched, the diff
 * under git's other algorithms (a patch made with --histogram or
 * --patience hashes differently) and the changed lines themselves.  One
 * `git diff-tree --stdin` per algorithm, argv only, fed from a temporary
 * file so that reading and writing cannot deadlock.
 */
#ifndef ONLIST_REPO_DIFF_H
#define ONLIST_REPO_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

/* Called once per commit with its diff (format-patch's diff options,
 * algorithm as asked); return non-zero to stop. */
typedef int (*onlist_diff_cb)(const char *sha, const char *diff, size_t len,
			      void *data);

/* algorithm: "myers", "minimal", "patience" or "histogram".  shas: n full
 * ids.  ONLIST_EGIT with *errmsg (caller frees) when git fails. */
onlist_status onlist_repo_diff_each(const char *repo, const char *algorithm,
				const char (*shas)[41], size_t n,
				onlist_diff_cb cb, void *data, char **errmsg);

/* For each commit, the date of the first tag that contains it, in a
 * history without merges (`git name-rev --tags`: the nearest tag after the
 * commit; the tag's date, or its commit's for a lightweight tag).  cb is
 * called for the commits that have one. */
typedef void (*onlist_tag_date_cb)(const char *sha, int64_t date, void *data);
onlist_status onlist_repo_diff_tag_dates(const char *repo, const char (*shas)[41],
				    size_t n, onlist_tag_date_cb cb, void *data,
				    char **errmsg);

#endif
