/* fetch.h - the fetch stage: mail archives brought up to date,
 * incrementally (`onlist fetch`).
 *
 * A source is one of
 *   https://HOST/LIST/  a public-inbox inbox: its epoch repositories are
 *                       mirrored under DATA/mirrors/ (git clone, then git
 *                       fetch) and each epoch's new messages imported; with
 *                       a window (since/until/query) only that window is
 *                       downloaded, as the server's search export (mbox.gz)
 *   URL of an mbox, mbox.gz or a public-inbox /raw or /t.mbox.gz
 *                       downloaded under DATA/downloads/, conditionally
 *                       (ETag / Last-Modified kept in the store)
 *   PATH                an mbox, mbox.gz, maildir, or a public-inbox
 *                       directory (v2: PATH/git/N.git; v1: a bare
 *                       repository) read in place.
 * An epoch's position is saved in the same transaction as its messages:
 * a killed fetch resumes where its last batch ended.  Downloads go
 * through http.h; git through pi_epoch.h.
 *
 * Nothing here prints: a source's failure comes back as a status and one
 * message (status.h's rule: the first, most specific, wins), progress
 * through a callback.
 */
#ifndef ONLIST_FETCH_H
#define ONLIST_FETCH_H

#include "onlist/http.h"
#include "onlist/import.h"
#include "onlist/status.h"

struct onlist_store;

/* The epochs a server may make onlist clone, whatever its manifest says:
 * lore's largest inbox (LKML) has about 20, and grows by about one a
 * year; a server answering every git/N.git must not get the rest of the
 * disk, nor keep fetch busy for long (64 tiny epochs at the default pace
 * are about a minute). */
#define ONLIST_FETCH_MAX_EPOCHS 64

/* Where a walk over an epoch repository is (progress). */
enum onlist_fetch_step {
	ONLIST_FETCH_WALK_START,	/* before its first message */
	ONLIST_FETCH_WALK_BATCH,	/* a batch of messages committed */
	ONLIST_FETCH_WALK_END,		/* done, or given up */
};

struct onlist_fetch_opts {
	const char *data;	/* mirrors and downloads: created (with its
				 * parents) when missing; it and every folder
				 * onlist makes in it must be the user's */
	const char *since, *until;	/* a window, YYYY-MM-DD (checked by
					 * the caller), or NULL */
	const char *query;	/* a public-inbox search query, or NULL */
	struct onlist_http_opts http;	/* its deadline is set per source
					 * from timeout */
	double timeout;		/* seconds one source may take, transfers and
				 * git clones together; 0: no limit */
	int max_epochs;		/* clone no more, whatever a manifest says */
	/* Called while an epoch is walked: url is the source, key its
	 * "epoch:N", c the source's counts so far.  NULL: none. */
	void (*progress)(enum onlist_fetch_step step, const char *url,
			 const char *key, const struct onlist_import_counts *c,
			 void *data);
	void *progress_data;
};
/* http is ONLIST_HTTP_OPTS_INIT's, the timeout 6 hours (a whole mirror of
 * a large list over a slow link). */
#define ONLIST_FETCH_OPTS_INIT {					\
	.http = ONLIST_HTTP_OPTS_INIT, .timeout = 6 * 3600,		\
	.max_epochs = ONLIST_FETCH_MAX_EPOCHS }

/* The list a source's mail is stored under when none is given:
 * "https://lore.kernel.org/linux-fsdevel/" -> "linux-fsdevel",
 * "/srv/lkml.mbox.gz" -> "lkml"; an epoch's path names its list, not the
 * epoch ("NAME/git/0.git", "NAME-0.git" -> "NAME"); a local path is
 * resolved first ("git/0.git" from inside NAME).  malloc'd; NULL when
 * memory is short. */
char *onlist_fetch_list_name(const char *source);

/* Bring one source (above) up to date in s, its mail under `list`, adding
 * to *c what was read, new, with a patch and skipped (also when it fails
 * half-way: what was imported stays).  A source that worked is
 * remembered as brought up to date (source_state "fetched"; with
 * `remember`, also as a `sources` row), except a window and a one-off
 * message or thread (/raw, /t.mbox.gz).  A public-inbox search that
 * matches nothing (404) is an empty window, not an error.
 *
 * ONLIST_OK; ONLIST_EUSAGE when a window is asked of a source that is not
 * a public-inbox URL; else ONLIST_EHTTP, ONLIST_EGIT, ONLIST_EIO,
 * ONLIST_EDB, ONLIST_EPARSE or ONLIST_ENOMEM, with *errmsg (the caller
 * frees; may stay NULL when memory ran short) saying where and why, on
 * one line: "URL: HTTP 404 Not Found". */
onlist_status onlist_fetch_source(struct onlist_store *s, const char *source,
				  const char *list,
				  const struct onlist_fetch_opts *o,
				  int remember, struct onlist_import_counts *c,
				  char **errmsg);

/* One fetch per database at a time: an advisory lock on DB.fetch-lock,
 * held until onlist_fetch_unlock() or until the process ends (also when
 * it is killed).  The file is never opened through a link (in a folder
 * others can write to, it could point anywhere) and must be a regular
 * file of the user's.  ONLIST_OK with *out, or ONLIST_EIO with *errmsg
 * (another fetch holds it, or the file is not fit to be the lock). */
struct onlist_fetch_lock;
onlist_status onlist_fetch_lock(struct onlist_fetch_lock **out,
				const char *db, char **errmsg);
/* Remove the lock file, then let it go; accepts NULL. */
void onlist_fetch_unlock(struct onlist_fetch_lock *l);

#endif
