/* remote_int.h - what the files of the remote lookup share; private to
 * src/remote*.c.  remote.c: the handle, requests and their cache, the
 * probe; remote_query.c: a commit and the tiers of queries about it;
 * remote_run.c: lookup/match --remote's whole run. */
#ifndef ONLIST_REMOTE_INT_H
#define ONLIST_REMOTE_INT_H

#include <stdint.h>
#include <glib.h>
#include "onlist/remote.h"

struct onlist_remote {
	struct onlist_store *s;
	char *url;		/* ends with '/' */
	char *list;
	char *repo;
	char *tmpdir;
	struct onlist_remote_opts o;
	long requests;
	long started;		/* time(NULL) at open: answers cached since
				 * are this run's, even with refresh */
	/* what the server's search can do (onlist_remote_probe): 1 yes,
	 * 0 no, -1 not known (nothing to test it with) */
	int search, phrase, words, patchid;
	int probed;
	int marked;		/* the partial source is recorded */
};

/* One message of a downloaded mbox: its id, and whether it has a patch */
struct hit {
	char *msgid;
	int patch;
};

/* The cached answer to key: 1 and *val (the lines after the time; caller
 * frees) when usable, else 0. */
int onlist__remote_cached(struct onlist_remote *r, const char *key,
			  char **val);
/* GET or POST url, import what it answers and remember it under key.
 * *hits (struct hit) gets the messages.  ONLIST_ENOTFOUND when the server
 * cannot search (501). */
onlist_status onlist__remote_ask(struct onlist_remote *r, const char *key,
				 const char *url, int post, GArray *hits,
				 char **errmsg);
/* The messages' ids freed, hits emptied. */
void onlist__remote_hits_clear(GArray *hits);
/* The thread of msgid, unless a thread fetched before held it. */
onlist_status onlist__remote_thread(struct onlist_remote *r,
				    const char *msgid, char **errmsg);
/* One search; the threads of the mails with a patch it found, unless
 * nothreads.  *any: one such mail.  *refused: the server answered 4xx
 * other than 404: not answered, not an error.  A 501 (no search at all)
 * is said once and sets r->search to 0. */
onlist_status onlist__remote_query(struct onlist_remote *r, const char *query,
				   int nothreads, int *any, int *refused,
				   char **errmsg);
/* One line for the user, "URL what", through r->o.note. */
void onlist__remote_note(struct onlist_remote *r, const char *line);
/* What the server can do, kept (source_state "caps"). */
void onlist__remote_caps_keep(struct onlist_remote *r);

/* public-inbox's escaping of a Message-ID in a URL path (g_free). */
char *onlist__remote_mid_path(const char *mid);
/* t (Unix time, UTC) through strftime's fmt into buf. */
void onlist__remote_fmt_time(char *buf, size_t n, int64_t t, const char *fmt);
/* A subject as a phrase for s:"..." (remote.c says how), or as
 * "s:W1 AND s:W2 ..." for a server without phrase search; g_free; NULL
 * when nothing is left. */
char *onlist__remote_phrase(const char *subject);
char *onlist__remote_words(const char *subject);
/* An address that is safe in a query: no spaces, quotes or brackets. */
int onlist__remote_plain_addr(const char *a);

#endif
