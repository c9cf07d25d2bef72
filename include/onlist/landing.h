/* landing.h - where the commits of a range landed on the mainline, the
 * identities of their people as the repository's mailmap has them, and
 * files at a revision.
 *
 * Every git runs through git.h; errors carry git's own message.
 */
#ifndef ONLIST_LANDING_H
#define ONLIST_LANDING_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

/* Where a commit landed on a mainline branch: the first-parent commit of
 * the range's tip that brought it in (the merge, or the commit itself when
 * it was applied directly), and that commit's date. */
struct onlist_landing {
	const char *sha;		/* the commit (never a merge) */
	const char *merge_sha;		/* == sha when applied directly */
	int64_t landed_date;		/* merge_sha's commit date, UTC */
	const char *merge_subject;	/* "Merge tag 'x' of git://..." */
	const char *merge_tip;		/* merge_sha's second parent, or NULL
					 * when applied directly */
	const char *merge_request;	/* "g/p!N" of a GitLab "See merge
					 * request g/p!N" line in merge_sha's
					 * message, or NULL (paths.h) */
};
/* Strings valid during the call only.  Non-zero stops the walk. */
typedef int (*onlist_landing_cb)(const struct onlist_landing *l, void *data);

/* The landing of every non-merge commit of `range` (one rev-list range;
 * its first positive revision's first-parent line is the mainline).  Two
 * gits: `rev-list --parents` for the graph, `log --first-parent` for the
 * mainline.  Returns ONLIST_OK (also when cb stopped), ONLIST_EUSAGE for a
 * range starting with '-', ONLIST_EGIT with git's message in *errmsg
 * (caller frees), ONLIST_ENOMEM. */
onlist_status onlist_landing_walk(const char *repo, const char *range,
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
onlist_status onlist_landing_mailmap(const char *repo, const char *alias_file,
				  struct onlist_ident *ids, size_t n,
				  char **errmsg);

/* The file `path` at revision `rev` (`git cat-file blob REV:PATH`), NUL
 * terminated, in *out (caller frees).  ONLIST_ENOTFOUND when there is no
 * such file; ONLIST_EUSAGE for a rev starting with '-'. */
onlist_status onlist_landing_read_blob(const char *repo, const char *rev,
				    const char *path, char **out, size_t *len,
				    char **errmsg);

#endif
