/* repo_scan_int.h - what the files of the scan share; private to
 * src/repo_*.c.  repo_scan.c: rev-list, the diff-tree processes and their
 * threads, rounds; repo_commit.c: the text of one commit in their output.
 */
#ifndef ONLIST_REPO_SCAN_INT_H
#define ONLIST_REPO_SCAN_INT_H

#include <stddef.h>
#include "onlist/buf.h"
#include "onlist/patchid.h"
#include "onlist/repo_scan.h"

/* One commit's diff being read: reused from commit to commit, its buffers
 * freed by onlist__commit_parse_release().  Zero-initialised is ready. */
struct onlist__commit_parse {
	struct onlist_patchid pid;
	int hashing;		/* patch-id still taking lines */
	struct onlist_buf files;
	struct onlist_buf path;	/* the current file's path, not yet added */
};

/* c->trailers from %(trailers:only,unfold) output, and c->body_empty from
 * c->body and the trailer block as written.  -1 when out of memory. */
int onlist__commit_trailers(struct onlist_commit *c, const char *trailers,
			    const char *block);

/* Before a commit's first diff line. */
void onlist__commit_start(struct onlist__commit_parse *ps);
/* One line of `diff-tree -p` output (with its '\n', if any), or one of
 * `--name-only`.  -1 when out of memory. */
int onlist__commit_diff_line(struct onlist__commit_parse *ps,
			     const char *line, size_t len);
int onlist__commit_name_line(struct onlist__commit_parse *ps,
			     const char *line, size_t len);
/* After its last line: c->files (owned by c), c->has_patchid and
 * c->patchid.  -1 when out of memory. */
int onlist__commit_finish(struct onlist__commit_parse *ps,
			  struct onlist_commit *c);
void onlist__commit_parse_release(struct onlist__commit_parse *ps);

#endif
