/* fetch.c - the fetch stage (fetch.h): public-inbox mirrors walked epoch
 * by epoch, downloads, local archives, and the lock that keeps one fetch
 * per database.  Says nothing itself: errors go back in *errmsg. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "onlist/fetch.h"
#include "onlist/pi_epoch.h"
#include "onlist/print.h"
#include "onlist/source.h"
#include "onlist/store.h"

/* ---- small helpers ------------------------------------------------------ */

static int is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int mkdirs(const char *path)
{
	char buf[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return -1;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) < 0 && errno != EEXIST ? -1 : 0;
}

/* Whoever can write in the data directory can plant a mirror (with its
 * config) or a download there: a directory of onlist's must be its
 * user's.  dir is checked with stat() (it may be a link the user made). */
static onlist_status owned(const char *path, const struct stat *st,
			   char **errmsg)
{
	if (st->st_uid == geteuid())
		return ONLIST_OK;
	return onlist_fail(errmsg, ONLIST_EIO, "fetch: %s belongs to user %ld, "
			   "not to you (%ld): refusing to use it (another user "
			   "could have planted a repository or a file there); "
			   "remove it or give another --data", path,
			   (long)st->st_uid, (long)geteuid());
}

/* Make DATA/REL (each component of REL a real directory, never a link,
 * owned by the user running onlist; DATA itself created with its parents
 * and owned too) and put its path in out. */
static onlist_status data_dir(const char *data, const char *rel, char *out,
			      size_t outsz, char **errmsg)
{
	struct stat st;
	size_t n;

	if (mkdirs(data) < 0 || stat(data, &st) < 0)
		return onlist_fail(errmsg, ONLIST_EIO, "%s: %s", data,
				   strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return onlist_fail(errmsg, ONLIST_EIO, "%s: not a directory",
				   data);
	if (owned(data, &st, errmsg) != ONLIST_OK)
		return ONLIST_EIO;
	if ((size_t)snprintf(out, outsz, "%s/%s", data, rel) >= outsz)
		return onlist_fail(errmsg, ONLIST_EIO, "%s: path too long", data);
	n = strlen(data) + 1;
	for (char *p = out + n;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if ((mkdir(out, 0777) < 0 && errno != EEXIST) ||
		    lstat(out, &st) < 0)
			return onlist_fail(errmsg, ONLIST_EIO, "%s: %s", out,
					   strerror(errno));
		if (!S_ISDIR(st.st_mode))
			return onlist_fail(errmsg, ONLIST_EIO, "%s: not a "
					   "directory (a link?): refusing to "
					   "use it", out);
		if (owned(out, &st, errmsg) != ONLIST_OK)
			return ONLIST_EIO;
		*p = c;
		if (!c)
			break;
	}
	return ONLIST_OK;
}

/* A mirror that exists must be the user's, and so must its config (what
 * git reads there could otherwise name programs to run).  1 when it
 * exists and is fine, 0 when it does not exist, -1 with *errmsg. */
static int owned_mirror(const char *mirror, char **errmsg)
{
	char cfg[PATH_MAX + 16];
	struct stat st;

	if (lstat(mirror, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		onlist_fail(errmsg, ONLIST_EIO, "%s: %s", mirror,
			    strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		onlist_fail(errmsg, ONLIST_EIO, "%s: not a directory (a link?): "
			    "refusing to use it", mirror);
		return -1;
	}
	if (owned(mirror, &st, errmsg) != ONLIST_OK)
		return -1;
	snprintf(cfg, sizeof(cfg), "%s/config", mirror);
	if (lstat(cfg, &st) == 0 && owned(cfg, &st, errmsg) != ONLIST_OK)
		return -1;
	return 1;
}

/* A file-system-safe name for a URL: host/path with odd bytes as '_'. */
static char *url_dir(const char *url)
{
	const char *p = strstr(url, "://");
	char *out = strdup(p ? p + 3 : url);

	if (!out)
		return NULL;
	for (char *q = out; *q; q++)
		if (!isalnum((unsigned char)*q) && !strchr("-._/", *q))
			*q = '_';
	/* No "..", no empty components, no trailing slash. */
	for (char *q = out; (q = strstr(q, "..")); )
		q[0] = q[1] = '_';
	while (*out && out[strlen(out) - 1] == '/')
		out[strlen(out) - 1] = '\0';
	return out;
}

/* 1 when the n bytes at s are "N.git" (an epoch's name). */
static int is_epoch_name(const char *s, size_t n)
{
	size_t d = 0;

	while (d < n && isdigit((unsigned char)s[d]))
		d++;
	return d > 0 && n - d == 4 && !memcmp(s + d, ".git", 4);
}

static char *default_list(const char *src)
{
	size_t n = strlen(src);
	const char *end, *start;
	char *name, *dot;

	while (n > 1 && src[n - 1] == '/')
		n--;
	end = src + n;
	start = end;
	while (start > src && start[-1] != '/')
		start--;
	if (is_epoch_name(start, (size_t)(end - start)) && start - src >= 5 &&
	    !memcmp(start - 5, "/git/", 5)) {
		/* NAME/git/N.git: the component before "git" */
		end = start - 5;
		while (end > src + 1 && end[-1] == '/')
			end--;
		start = end;
		while (start > src && start[-1] != '/')
			start--;
	} else if (end - start > 4 && !memcmp(end - 4, ".git", 4)) {
		/* NAME-N.git */
		const char *p = end - 4;

		while (p > start && isdigit((unsigned char)p[-1]))
			p--;
		if (p < end - 4 && p - start > 1 && p[-1] == '-')
			end = p - 1;
	}
	name = strndup(start, (size_t)(end - start));
	if (name && (dot = strchr(name, '.')) && dot != name)
		*dot = '\0';
	return name;
}

char *onlist_fetch_list_name(const char *source)
{
	char where[PATH_MAX];

	/* a local path named as it is, "git/0.git" from inside NAME too */
	return default_list(!is_url(source) && realpath(source, where) ?
			    where : source);
}

/* ---- importing ---------------------------------------------------------- */

/* Import a downloaded or local mbox/maildir file. */
static onlist_status import_file(struct onlist_store *s, const char *path,
				 const char *place, const char *list,
				 struct onlist_import_counts *c, char **errmsg)
{
	struct onlist_source *src;
	char *err = NULL;
	onlist_status st;

	if ((st = onlist_source_open(&src, path, &err)) != ONLIST_OK) {
		onlist_fail(errmsg, st, "%s", err ? err : onlist_status_str(st));
		free(err);
		return st;
	}
	st = onlist_import_source(s, src, place, list, c, NULL, NULL, &err);
	onlist_source_free(src);
	if (st != ONLIST_OK)
		onlist_fail(errmsg, st, "%s: %s", place,
			    err ? err : onlist_status_str(st));
	free(err);
	return st;
}

struct epoch_ctx {
	struct onlist_store *s;
	const char *url;	/* the source, for the state table */
	const char *key;	/* "epoch:N" */
	const char *list;
	const char *place;
	struct onlist_import_counts *c;
	const struct onlist_fetch_opts *o;
	char **errmsg;
	long in_batch;
	onlist_status failed;	/* ONLIST_OK while it goes on */
};

static void progress(const struct epoch_ctx *e, enum onlist_fetch_step step)
{
	if (e->o->progress)
		e->o->progress(step, e->url, e->key, e->c,
			       e->o->progress_data);
}

/* One message of an epoch.  The epoch's position is saved in the same
 * transaction as the messages, so a killed fetch resumes where its last
 * batch ended and never skips one. */
static int epoch_msg(const struct onlist_epoch_msg *m, void *data)
{
	struct epoch_ctx *e = data;
	char *err = NULL;

	if (!e->in_batch && onlist_store_begin(e->s) != ONLIST_OK)
		goto db;
	e->in_batch++;
	if (m->missing) {
		/* a damaged mirror: record the lost message and go on */
		char *place = NULL, *why = NULL;
		int added = 0;

		if (asprintf(&place, "%s#%s", e->place, m->missing) < 0 ||
		    asprintf(&why, "message blob %s is missing from the "
			     "repository (after commit %s)", m->missing,
			     m->commit) < 0) {
			free(place);
			e->failed = ONLIST_ENOMEM;
			return 1;
		}
		if (onlist_store_put_skip(e->s, place, 0, why, &added) != ONLIST_OK) {
			free(place);
			free(why);
			goto db;
		}
		free(place);
		free(why);
		e->c->messages++;
		e->c->skipped++;
	} else if (!m->deleted) {
		/* Where it came from, for the skipped table: one commit of
		 * one epoch. */
		char *place = NULL;
		onlist_status st;

		if (asprintf(&place, "%s#%s", e->place, m->commit) < 0) {
			e->failed = ONLIST_ENOMEM;
			return 1;
		}
		if (m->len > ONLIST_MESSAGE_MAX) {
			/* The same cap as for mbox and maildir sources (git
			 * has already read it, but it goes no further). */
			char why[80];

			snprintf(why, sizeof(why), "message larger than %u "
				 "bytes (%zu), not read", ONLIST_MESSAGE_MAX,
				 m->len);
			e->c->messages++;
			st = onlist_store_put_skip(e->s, place, 0, why, NULL);
			free(place);
			if (st != ONLIST_OK)
				goto db;
			e->c->skipped++;
			goto batch;
		}
		st = onlist_import_message_at(e->s, m->data, m->len, e->list,
					      place, 0, m->time, "epoch", e->c,
					      &err);
		free(place);
		if (st != ONLIST_OK) {
			e->failed = onlist_fail(e->errmsg, st, "%s",
						err ? err : "import failed");
			free(err);
			return 1;
		}
	}
batch:
	if (e->in_batch >= ONLIST_IMPORT_BATCH) {
		if (onlist_store_set_state(e->s, e->url, e->key, m->commit)
		    != ONLIST_OK || onlist_store_commit(e->s) != ONLIST_OK)
			goto db;
		e->in_batch = 0;
		progress(e, ONLIST_FETCH_WALK_BATCH);
	}
	return 0;
db:
	e->failed = onlist_fail(e->errmsg, ONLIST_EDB, "%s",
				onlist_store_errmsg(e->s));
	return 1;
}

/* Import the new commits of one epoch repository. */
static onlist_status walk_epoch(struct onlist_store *s,
				const struct onlist_fetch_opts *o,
				const char *url, const char *key,
				const char *gitdir, const char *list,
				struct onlist_import_counts *c, char **errmsg)
{
	struct epoch_ctx e = { s, url, key, list, gitdir, c, o, errmsg, 0,
			       ONLIST_OK };
	char *since = onlist_store_get_state(s, url, key), *last = NULL,
	     *err = NULL;
	onlist_status st;

	progress(&e, ONLIST_FETCH_WALK_START);
	st = onlist_pi_epoch_walk(gitdir, NULL, since, epoch_msg, &e, &last,
				    &err);
	if (st == ONLIST_ENOTFOUND && !e.failed) {
		/* The commit we stopped at is gone: the history was rewritten
		 * (public-inbox-purge).  Walk it all again; what we have is
		 * skipped by Message-ID. */
		free(err);
		err = NULL;
		st = onlist_pi_epoch_walk(gitdir, NULL, NULL, epoch_msg, &e,
					    &last, &err);
	}
	progress(&e, ONLIST_FETCH_WALK_END);
	free(since);
	if (e.failed || st != ONLIST_OK) {
		if (e.in_batch)
			onlist_store_rollback(s);
		if (st != ONLIST_OK)
			onlist_fail(errmsg, st, "%s",
				    err ? err : onlist_status_str(st));
		free(err);
		free(last);
		return st != ONLIST_OK ? st : e.failed;
	}
	if (last) {
		if (!e.in_batch && onlist_store_begin(s) != ONLIST_OK)
			goto db;
		e.in_batch = 1;
		if (onlist_store_set_state(s, url, key, last) != ONLIST_OK)
			goto db;
	}
	if (e.in_batch && onlist_store_commit(s) != ONLIST_OK)
		goto db;
	free(last);
	return ONLIST_OK;
db:
	st = onlist_fail(errmsg, ONLIST_EDB, "%s", onlist_store_errmsg(s));
	if (e.in_batch)
		onlist_store_rollback(s);
	free(last);
	return st;
}

/* A public-inbox directory on disk: PATH/git/N.git (v2) or a bare
 * repository (v1).  Returns the number of epochs, 0 when it is neither. */
static int local_epochs(const char *path, int *v1)
{
	char p[PATH_MAX + 32];
	int n = 0;

	*v1 = 0;
	for (;; n++) {
		snprintf(p, sizeof(p), "%s/git/%d.git", path, n);
		if (!is_dir(p))
			break;
	}
	if (n)
		return n;
	snprintf(p, sizeof(p), "%s/objects", path);
	if (is_dir(p)) {
		snprintf(p, sizeof(p), "%s/HEAD", path);
		if (access(p, R_OK) == 0) {
			*v1 = 1;
			return 1;
		}
	}
	return 0;
}

static onlist_status fetch_local(struct onlist_store *s,
				 const struct onlist_fetch_opts *o,
				 const char *arg, const char *list,
				 struct onlist_import_counts *c, char **errmsg)
{
	char path[PATH_MAX];
	int v1, n;

	if (!realpath(arg, path))
		return onlist_fail(errmsg, ONLIST_EIO, "%s: %s", arg,
				   strerror(errno));
	if (!is_dir(path))
		return import_file(s, path, path, list, c, errmsg);
	n = local_epochs(path, &v1);
	if (n == 0) {
		char p[PATH_MAX + 32];
		snprintf(p, sizeof(p), "%s/cur", path);
		if (!is_dir(p)) {
			snprintf(p, sizeof(p), "%s/new", path);
			if (!is_dir(p))
				return onlist_fail(errmsg, ONLIST_EPARSE, "%s: "
						   "neither a maildir nor a "
						   "public-inbox directory (no "
						   "cur/, new/, git/0.git or "
						   "objects/)", arg);
		}
		return import_file(s, path, path, list, c, errmsg);
	}
	for (int i = 0; i < n; i++) {
		char key[32], gitdir[PATH_MAX + 32];
		onlist_status st;

		snprintf(key, sizeof(key), "epoch:%d", i);
		if (v1)
			snprintf(gitdir, sizeof(gitdir), "%s", path);
		else
			snprintf(gitdir, sizeof(gitdir), "%s/git/%d.git", path, i);
		st = walk_epoch(s, o, path, key, gitdir, list, c, errmsg);
		if (st != ONLIST_OK)
			return st;
	}
	return ONLIST_OK;
}

/* How many epochs the inbox at base lists in its manifest.js.gz, or 0
 * when it has no manifest or names none.  The file is kept under the data
 * directory. */
static int manifest_epochs(const char *base, const char *dir,
			   const struct onlist_fetch_opts *o)
{
	enum onlist_http_result res;
	char url[PATH_MAX], dest[PATH_MAX], *err = NULL;
	int n;

	snprintf(url, sizeof(url), "%smanifest.js.gz", base);
	snprintf(dest, sizeof(dest), "%s/mirrors/%s", o->data, dir);
	if (mkdirs(dest) < 0)
		return 0;
	strncat(dest, "/manifest.js.gz", sizeof(dest) - strlen(dest) - 1);
	if (onlist_http_get(url, dest, 0, &o->http, NULL, &res, &err) != ONLIST_OK ||
	    res == ONLIST_HTTP_NOT_FOUND) {
		free(err);
		return 0;
	}
	n = onlist_pi_manifest_epochs(dest);
	return n > 0 ? n : 0;
}

/* A whole public-inbox over the network: mirror each epoch, then walk it.
 * Epochs are found by trying 0.git, 1.git, ... until one is missing; an
 * inbox without git/0.git is tried as a v1 repository at the URL. */
static onlist_status fetch_inbox(struct onlist_store *s, const char *base,
				 const struct onlist_fetch_opts *o,
				 const char *list,
				 struct onlist_import_counts *c, char **errmsg)
{
	char *dir = url_dir(base), *err = NULL;
	char url[PATH_MAX], mirror[PATH_MAX], key[32], (*tips)[41], *since;
	int n = 0, nlisted, fresh, added_in_walk = 0;
	onlist_status ret = ONLIST_OK;
	long read0, added0;

	if (!dir)
		return ONLIST_ENOMEM;
	if (asprintf(&err, "mirrors/%s/git", dir) < 0) {
		free(dir);
		return ONLIST_ENOMEM;
	}
	ret = data_dir(o->data, err, mirror, sizeof(mirror), errmsg);
	free(err);
	err = NULL;
	if (ret != ONLIST_OK) {
		free(dir);
		return ret;
	}
	/* The manifest says how many epochs there are; without one, epochs
	 * are cloned until the first missing one, and never more than
	 * --max-epochs. */
	nlisted = manifest_epochs(base, dir, o);
	if (!(tips = calloc((size_t)o->max_epochs, sizeof(*tips)))) {
		free(dir);
		return ONLIST_ENOMEM;
	}
	for (;; n++) {
		/* the manifest is the server's word: it ends the walk early,
		 * but never lets it go past --max-epochs */
		if (nlisted && n >= nlisted && nlisted <= o->max_epochs)
			break;
		if (n >= o->max_epochs) {
			if (nlisted)
				ret = onlist_fail(errmsg, ONLIST_EHTTP, "fetch: "
						  "%s: its manifest.js.gz lists "
						  "%d epochs, more than %d: "
						  "stopped (--max-epochs)", base,
						  nlisted, o->max_epochs);
			else
				ret = onlist_fail(errmsg, ONLIST_EHTTP, "fetch: "
						  "%s: more than %d epochs and no "
						  "manifest.js.gz listing them: "
						  "stopped (--max-epochs)", base,
						  o->max_epochs);
			break;
		}
		if (o->http.deadline > 0 && onlist_http_now() > o->http.deadline) {
			ret = onlist_fail(errmsg, ONLIST_EHTTP, "fetch: %s: gave "
					  "up after epoch %d: the time allowed "
					  "(--timeout) ran out", base, n - 1);
			break;
		}
		/* git talks to the same host for every epoch: keep the pace
		 * onlist's own downloads keep. */
		if (n > 0 && o->http.pace > 0)
			usleep((useconds_t)(o->http.pace * 1e6));
		snprintf(url, sizeof(url), "%sgit/%d.git", base, n);
		snprintf(mirror, sizeof(mirror), "%s/mirrors/%s/git/%d.git",
			 o->data, dir, n);
		if (owned_mirror(mirror, errmsg) < 0) {
			ret = ONLIST_EIO;
			break;
		}
		if (onlist_pi_epoch_mirror_until(url, mirror, o->http.deadline, &err) != ONLIST_OK) {
			/* Past the last epoch git says "not found"; an epoch
			 * we already have that fails is a real error. */
			int known = is_dir(mirror);
			if (n > 0 && !known && err &&
			    (strstr(err, "not found") || strstr(err, "404") ||
			     strstr(err, "does not appear to be a git"))) {
				/* Past the last epoch. */
				free(err);
				err = NULL;
				break;
			}
			if (o->http.deadline > 0 &&
			    onlist_http_now() > o->http.deadline) {
				ret = onlist_fail(errmsg, ONLIST_EGIT, "%s: %s",
						  url, err ? err : "git failed");
				break;
			}
			if (n == 0 && !known) {
				char *err1 = err;
				/* v1: the inbox itself is the repository. */
				snprintf(mirror, sizeof(mirror),
					 "%s/mirrors/%s/v1.git", o->data, dir);
				err = NULL;
				if (owned_mirror(mirror, errmsg) < 0) {
					free(err1);
					ret = ONLIST_EIO;
					break;
				}
				if (onlist_pi_epoch_mirror_until(base, mirror,
							     o->http.deadline, &err) == ONLIST_OK) {
					free(err1);
					snprintf(key, sizeof(key), "epoch:0");
					ret = walk_epoch(s, o, base, key, mirror,
							 list, c, errmsg);
					break;
				}
				ret = onlist_fail(errmsg, ONLIST_EGIT, "%s: not a "
						  "public-inbox (no git/0.git and "
						  "no v1 repository): %s", base,
						  err1 ? err1 : "git failed");
				free(err1);
				break;
			}
			ret = onlist_fail(errmsg, ONLIST_EGIT, "%s: %s", url,
					  err ? err : "git failed");
			break;
		}
		/* A server that serves one epoch under every number would
		 * keep fetch cloning until --max-epochs: an epoch whose tip
		 * is an earlier one's ends the walk.  (public-inbox starts
		 * every epoch with a commit of its own.) */
		if (onlist_pi_epoch_tip(mirror, NULL, tips[n], &err) != ONLIST_OK) {
			ret = onlist_fail(errmsg, ONLIST_EGIT, "%s: %s", mirror,
					  err ? err : "git failed");
			break;
		}
		for (int k = 0; tips[n][0] && k < n; k++) {
			if (strcmp(tips[k], tips[n]))
				continue;
			ret = onlist_fail(errmsg, ONLIST_EHTTP, "fetch: %s: epoch "
					  "%d is a copy of epoch %d (the same "
					  "last commit): the server repeats "
					  "itself; stopped", base, n, k);
			break;
		}
		if (ret != ONLIST_OK)
			break;
		snprintf(key, sizeof(key), "epoch:%d", n);
		fresh = !(since = onlist_store_get_state(s, base, key));
		free(since);
		read0 = c->messages;
		added0 = c->added;
		if ((ret = walk_epoch(s, o, base, key, mirror, list, c,
				      errmsg)) != ONLIST_OK)
			break;
		/* The same messages re-committed under another tip get past
		 * the check above: an epoch new to this database that adds
		 * nothing, after epochs of this walk that did, holds only
		 * what the server already sent, and ends the walk too.  (A
		 * real epoch holds mail no earlier one has.) */
		if (n > 0 && fresh && added_in_walk && c->messages > read0 &&
		    c->added == added0) {
			ret = onlist_fail(errmsg, ONLIST_EHTTP, "fetch: %s: epoch "
					  "%d holds only messages of earlier "
					  "epochs (under another last commit): "
					  "the server repeats itself; stopped",
					  base, n);
			break;
		}
		added_in_walk |= c->added > added0;
	}
	free(tips);
	free(err);
	free(dir);
	return ret;
}

/* Download one URL into the data directory and import it. */
static onlist_status fetch_download(struct onlist_store *s, const char *url,
				    int post, int remember_cache,
				    const struct onlist_fetch_opts *o,
				    const char *list,
				    struct onlist_import_counts *c,
				    char **errmsg)
{
	struct onlist_http_cache cache = { NULL, NULL };
	enum onlist_http_result res;
	char *dir = url_dir(url), *err = NULL, path[PATH_MAX], parent[PATH_MAX];
	const char *name;
	onlist_status st;

	if (!dir)
		return ONLIST_ENOMEM;
	/* DATA/downloads/HOST/.../NAME: the directories checked as ours */
	name = strrchr(dir, '/');
	snprintf(path, sizeof(path), "downloads%s%.*s", name ? "/" : "",
		 name ? (int)(name - dir) : 0, dir);
	if ((st = data_dir(o->data, path, parent, sizeof(parent),
			   errmsg)) != ONLIST_OK) {
		free(dir);
		return st;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s%s", parent,
			     name ? name + 1 : dir,
			     ends_with(dir, ".gz") ? "" : ".data") >= sizeof(path)) {
		free(dir);
		return onlist_fail(errmsg, ONLIST_EIO, "%s: path too long",
				   parent);
	}
	free(dir);
	if (remember_cache) {
		cache.etag = onlist_store_get_state(s, url, "etag");
		cache.last_modified = onlist_store_get_state(s, url, "last-modified");
	}
	st = onlist_http_get(url, path, post, &o->http,
			     remember_cache ? &cache : NULL, &res, &err);
	if (st != ONLIST_OK) {
		onlist_fail(errmsg, st, "%s", err ? err : onlist_status_str(st));
		free(err);
		onlist_http_cache_release(&cache);
		return st;
	}
	if (res == ONLIST_HTTP_NOT_FOUND) {
		onlist_http_cache_release(&cache);
		/* public-inbox answers 404 to a search that matches
		 * nothing: an empty window, not an error. */
		if (post)
			return ONLIST_OK;
		return onlist_fail(errmsg, ONLIST_EHTTP, "%s: HTTP 404 Not Found",
				   url);
	}
	if (res == ONLIST_HTTP_NEW) {
		st = import_file(s, path, url, list, c, errmsg);
		/* Remember the validators only once the body is imported, so
		 * a failed import is downloaded again next time. */
		if (st == ONLIST_OK && remember_cache &&
		    (onlist_store_set_state(s, url, "etag", cache.etag) != ONLIST_OK ||
		     onlist_store_set_state(s, url, "last-modified",
					    cache.last_modified) != ONLIST_OK))
			st = onlist_fail(errmsg, ONLIST_EDB, "%s",
					 onlist_store_errmsg(s));
		if (st == ONLIST_OK)
			unlink(path);
	}
	onlist_http_cache_release(&cache);
	return st;
}

/* An mbox to download rather than an inbox to mirror?  Judged by the
 * path, without any query string. */
static int is_mbox_url(const char *url)
{
	size_t n = strcspn(url, "?#");
	char *path = strndup(url, n);
	int r;

	if (!path)
		return 0;
	r = ends_with(path, ".gz") || ends_with(path, ".mbox") ||
	    ends_with(path, ".txt") || ends_with(path, "/raw") ||
	    ends_with(path, "/raw/") || strstr(url + n, "x=m") != NULL;
	free(path);
	return r;
}

static int is_one_off(const char *url)
{
	size_t n = strcspn(url, "?#");
	char *path = strndup(url, n);
	int r;

	if (!path)
		return 0;
	r = is_url(url) && (ends_with(path, "/raw") || ends_with(path, "/raw/") ||
			    ends_with(path, "/t.mbox.gz"));
	free(path);
	return r;
}

/* The window's search URL: SOURCE/?q=d:SINCE..UNTIL QUERY&x=m. */
static char *window_url(const char *arg, const struct onlist_fetch_opts *o)
{
	char q[1024], *enc, *url;
	size_t n = strlen(arg);

	snprintf(q, sizeof(q), "%s%s%s%s%s",
		 o->since || o->until ? "d:" : "",
		 o->since ? o->since : "",
		 o->since || o->until ? ".." : "",
		 o->until ? o->until : "",
		 o->query ? (o->since || o->until ? " " : "") : "");
	if (o->query)
		strncat(q, o->query, sizeof(q) - strlen(q) - 1);
	enc = onlist_url_escape(q, ":");
	if (!enc || asprintf(&url, "%s%s?q=%s&x=m", arg,
			     n && arg[n - 1] == '/' ? "" : "/", enc) < 0)
		url = NULL;
	free(enc);
	return url;
}

onlist_status onlist_fetch_source(struct onlist_store *s, const char *arg,
				  const char *list,
				  const struct onlist_fetch_opts *all,
				  int remember, struct onlist_import_counts *c,
				  char **errmsg)
{
	/* the timeout is per source: one stuck server leaves time for the
	 * rest */
	struct onlist_fetch_opts src = *all, *o = &src;
	int window = o->since || o->until || o->query;
	char *base = NULL;
	onlist_status st;

	if (o->timeout > 0)
		o->http.deadline = onlist_http_now() + o->timeout;
	if (is_url(arg)) {
		if (window) {
			char *url = window_url(arg, o);

			if (!url)
				return ONLIST_ENOMEM;
			st = fetch_download(s, url, 1, 0, o, list, c, errmsg);
			free(url);
		} else if (is_mbox_url(arg)) {
			st = fetch_download(s, arg, 0, 1, o, list, c, errmsg);
		} else {
			size_t n = strlen(arg);
			if (asprintf(&base, "%s%s", arg,
				     n && arg[n - 1] == '/' ? "" : "/") < 0)
				return ONLIST_ENOMEM;
			st = fetch_inbox(s, base, o, list, c, errmsg);
		}
	} else {
		if (window)
			return onlist_fail(errmsg, ONLIST_EUSAGE, "%s: --since, "
					   "--until and --query need a "
					   "public-inbox URL", arg);
		st = fetch_local(s, o, arg, list, c, errmsg);
	}
	/* Remember what worked, except one-off windows, messages and
	 * threads (public-inbox's /raw and /t.mbox.gz). */
	if (st == ONLIST_OK && !window && !is_one_off(arg)) {
		char resolved[PATH_MAX], now[32];
		const char *key = base ? base : is_url(arg) ? arg :
				  realpath(arg, resolved) ? resolved : arg;

		/* when it was last brought up to date: `status` shows it
		 * beside the list's span */
		snprintf(now, sizeof(now), "%lld", (long long)time(NULL));
		if ((remember && onlist_store_add_source(s, key, list) != ONLIST_OK) ||
		    onlist_store_set_state(s, key, "fetched", now) != ONLIST_OK)
			st = onlist_fail(errmsg, ONLIST_EDB, "%s",
					 onlist_store_errmsg(s));
	}
	free(base);
	return st;
}

/* ---- the lock ------------------------------------------------------------ */

struct onlist_fetch_lock {
	int fd;
	char *path;
};

/* A lock taken on a file that was removed meanwhile (by the fetch that
 * held it, as it ended) does not count: taken again on the new one. */
onlist_status onlist_fetch_lock(struct onlist_fetch_lock **out,
				const char *db, char **errmsg)
{
	struct stat st, now;
	char *path = NULL;
	int fd = -1, tries;

	*out = NULL;
	if (asprintf(&path, "%s.fetch-lock", db) < 0)
		return ONLIST_ENOMEM;
	for (tries = 0; tries < 10; tries++) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue;	/* removed between the two opens */
		if (fd < 0) {
			onlist_fail(errmsg, ONLIST_EIO, "fetch: cannot open %s: "
				    "%s%s", path, strerror(errno),
				    errno == ELOOP ?
				    " (a symbolic link: remove it)" : "");
			goto fail;
		}
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid()) {
			onlist_fail(errmsg, ONLIST_EIO, "fetch: %s is not a "
				    "regular file of yours: refusing to use it "
				    "as the lock (remove it)", path);
			goto fail;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			onlist_fail(errmsg, ONLIST_EIO, "fetch: another onlist "
				    "fetch is running on %s (lock %s held); try "
				    "again when it is done", db, path);
			goto fail;
		}
		if (stat(path, &now) == 0 && now.st_dev == st.st_dev &&
		    now.st_ino == st.st_ino) {
			if (!(*out = malloc(sizeof(**out))))
				goto fail;
			(*out)->fd = fd;
			(*out)->path = path;
			return ONLIST_OK;
		}
		close(fd);	/* the file we locked is gone: again */
		fd = -1;
	}
	onlist_fail(errmsg, ONLIST_EIO, "fetch: cannot take the lock %s: it "
		    "keeps changing", path);
fail:
	if (fd >= 0)
		close(fd);
	free(path);
	return ONLIST_EIO;
}

/* Removed first, so no other fetch can take this file once we are done
 * (onlist_fetch_lock() checks it is still there). */
void onlist_fetch_unlock(struct onlist_fetch_lock *l)
{
	if (!l)
		return;
	unlink(l->path);
	close(l->fd);
	free(l->path);
	free(l);
}
