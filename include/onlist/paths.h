/* paths.h - the path a commit took to the mainline: applied directly, or
 * in a merge, and what that merge answers: a pull request posted to a list
 * (`[GIT PULL]`), a forge's pull or merge request (GitHub, GitLab), a
 * contributor's fork, or nothing posted at all; and the marks that make an
 * off-list commit matter (Fixes:, a CVE id, a fuzzing bot's report, a
 * stable Cc).
 *
 * The text functions read a merge's subject, a commit's message; the
 * database side (onlist_path_of) reads the landing `onlist scan` recorded
 * (store_paths.h) and the `pulls` every import fills.
 */
#ifndef ONLIST_PATHS_H
#define ONLIST_PATHS_H

#include <stdint.h>
#include "onlist/status.h"

struct onlist_store;

/* What a merge's title says it merged. */
enum onlist_merge_kind {
	ONLIST_MERGE_OTHER,	/* no title git or a forge writes */
	ONLIST_MERGE_LOCAL,	/* "Merge branch 'x'" of this repository */
	ONLIST_MERGE_TREE,	/* "Merge tag 'x' of URL", "Merge branch 'x'
				 * of URL", "Merge remote-tracking branch" */
	ONLIST_MERGE_FORGE,	/* "Merge pull request #N from owner/branch",
				 * a GitLab "See merge request g/p!N" */
};

struct onlist_merge_title {
	enum onlist_merge_kind kind;
	char *url;		/* TREE: the repository named, or NULL */
	char *ref;		/* TREE: the first tag or branch named */
	char *request;		/* FORGE: "pull request #N from o/b",
				 * "merge request g/p!N" */
	int forge_host;		/* TREE: url is on a forge (github.com,
				 * gitlab.*, codeberg.org, bitbucket.org) */
};

/* Read a merge's subject and, when given, its GitLab request reference
 * (`request`: the "g/p!N" of a "See merge request g/p!N" line, or NULL).
 * *out is cleared first; its strings are the caller's
 * (onlist_merge_title_release).  ONLIST_ENOMEM. */
onlist_status onlist_merge_parse(const char *subject, const char *request,
				 struct onlist_merge_title *out);
void onlist_merge_title_release(struct onlist_merge_title *t);

/* The "g/p!N" of a "See merge request g/p!N" line in a merge's message,
 * malloc'd in *out, or NULL when there is none.  0, or -1 when out of
 * memory. */
int onlist_merge_request_line(const char *body, char **out);

/* Non-zero when two repository URLs name one repository: scheme, user,
 * a trailing ".git" or "/" and the host's case do not count, and
 * "git@host:path" is "host/path". */
int onlist_tree_same(const char *a, const char *b);
/* Non-zero when two refs name one tag or branch: "refs/", "tags/" and
 * "heads/" in front do not count. */
int onlist_ref_same(const char *a, const char *b);

/* The first pull or merge request URL a commit message names on a line of
 * its own trailer shape ("Link: https://github.com/o/r/pull/12",
 * "Closes: https://gitlab.com/g/p/-/merge_requests/3"), malloc'd in *out,
 * or NULL.  0, or -1 when out of memory. */
int onlist_forge_request_url(const char *body, char **out);

/* What makes an off-list commit matter, from its message: a CVE id
 * ("CVE-2024-1234"), a "Reported-by:" a fuzzing bot (syzbot, syzkaller,
 * OSS-Fuzz, ClusterFuzz, Hulk Robot), a "Fixes: <sha>" trailer (a commit, not a
 * forge's "Fixes: #12"), a "Cc: stable@...", in that order of
 * precedence; the mark as written ("Fixes: 1234abcd (\"x\")", at most 200
 * bytes), malloc'd in *out, or NULL.  0, or -1 when out of memory. */
int onlist_security_mark(const char *body, char **out);

/* The path, as lookup and the verdicts name it. */
enum onlist_path_kind {
	ONLIST_PATH_UNKNOWN,	/* no landing recorded (scan first) */
	ONLIST_PATH_DIRECT,	/* applied on the mainline itself */
	ONLIST_PATH_LOCAL,	/* merged from a branch of this repository */
	ONLIST_PATH_PULL,	/* in a merge answering a posted pull request */
	ONLIST_PATH_UNANNOUNCED,/* in a merge of another tree, no pull request
				 * posted before it */
	ONLIST_PATH_FORGE,	/* through a forge's request or fork */
};
/* "unknown", "direct", "local_merge", "pull", "unannounced", "forge". */
const char *onlist_path_kind_name(enum onlist_path_kind k);

struct onlist_path {
	enum onlist_path_kind kind;
	char *merge_sha, *merge_subject;	/* the landing merge, or NULL */
	int64_t landed_date;
	char *pull_msgid, *pull_list;	/* PULL: the request and its list */
	int64_t pull_date;
	char *url;		/* PULL, UNANNOUNCED, FORGE: the tree or fork
				 * named, or the request URL in a trailer */
	char *request;		/* FORGE: "pull request #N from o/b", ... */
};

/* The path of the commit `sha` whose message is `body` (may be NULL).  A
 * pull request counts when its tip is the merge's second parent or its URL
 * and ref are the ones the merge's title names, and it was sent no later
 * than the merge was committed; of several, the tip's, then the latest.
 * *out is cleared first (onlist_path_release).  ONLIST_EDB, ONLIST_ENOMEM. */
onlist_status onlist_path_of(struct onlist_store *s, const char *sha,
			     const char *body, struct onlist_path *out);
void onlist_path_release(struct onlist_path *p);

#endif
