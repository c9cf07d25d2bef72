/* cmd_fetch.c - onlist fetch [SOURCE...] and onlist sources */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "onlist/http.h"
#include "onlist/git.h"
#include "onlist/import.h"
#include "onlist/mail.h"
#include "onlist/repo.h"
#include "onlist/store.h"

static const char help[] =
	"usage: onlist [--db PATH] fetch [OPTIONS] [--format text|json | --json]\n"
	"                                [SOURCE...]\n\n"
	"Bring mail archives up to date, incrementally.  SOURCE is one of\n"
	"  https://lore.kernel.org/LIST/   a public-inbox inbox: its epoch git\n"
	"                  repositories are mirrored under the data directory\n"
	"                  (git clone, then git fetch) and the new messages of\n"
	"                  each epoch imported; with --since/--until/--query\n"
	"                  only that window is downloaded, as mbox.gz\n"
	"  URL of an mbox, mbox.gz or a public-inbox /raw or /t.mbox.gz\n"
	"                  downloaded (conditionally: ETag/Last-Modified)\n"
	"  PATH            an mbox, mbox.gz, maildir, or a public-inbox\n"
	"                  directory (v2: PATH/git/N.git; v1: a bare repository)\n"
	"                  read in place\n"
	"Sources are remembered; with no SOURCE every remembered one is\n"
	"refreshed (windows are not remembered).\n\n"
	"  --list NAME       the list name (default: from the URL or file name)\n"
	"  --data DIR        mirrors and downloads (default: onlist-data/ next\n"
	"                    to the database)\n"
	"  --since DATE      window start, YYYY-MM-DD (public-inbox URLs)\n"
	"  --until DATE      window end, YYYY-MM-DD\n"
	"  --query Q         a public-inbox search query (e.g. 's:O_TMPFILE')\n"
	"  --retries N       attempts after the first on network errors (5)\n"
	"  --pace SECONDS    minimum gap between requests to one host (1)\n"
	"  --insecure        do not verify TLS certificates\n"
	"  --timeout SECONDS the most one source may take, transfers and git\n"
	"                    clones together (21600: 6 hours, for a whole\n"
	"                    mirror); a stall (under 1 KiB/s for 60 s) is cut\n"
	"                    and retried before that\n"
	"  --max-epochs N    epochs to clone at most, whatever the inbox's\n"
	"                    manifest.js.gz says (64); an epoch that repeats\n"
	"                    an earlier one (the same last commit, or only\n"
	"                    its messages) ends the walk too\n"
	"  --format json     print the counts as one JSON object: {sources:\n"
	"                    [{source, list, ok, messages, new, patches,\n"
	"                    skipped}], messages, new, patches, skipped}\n\n"
	"Only one fetch runs on a database at a time.  Exit status: 0 when\n"
	"every source was brought up to date, 1 when one failed (the others\n"
	"are still fetched), 2 on usage errors.\n";

struct fetch_opts {
	const char *list;
	char *data;
	const char *since, *until, *query;
	struct onlist_http_opts http;
	double timeout;		/* seconds a source may take; 0: no limit */
	int max_epochs;		/* without a manifest, clone no more */
};

/* The epochs a server may make onlist clone, whatever its manifest says:
 * lore's largest inbox (LKML) has about 20, and grows by about one a
 * year; a server answering every git/N.git must not get the rest of the
 * disk, nor keep fetch busy for long (64 tiny epochs at the default pace
 * are about a minute). */
#define MAX_EPOCHS_DEFAULT 64

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
 * user's.  dir is checked with stat() (it may be a link the user made),
 * `what` says what it is in the message.  0, or -1 after saying why. */
static int owned(const char *path, const struct stat *st)
{
	if (st->st_uid == geteuid())
		return 0;
	fputs("onlist: fetch: ", stderr);
	onlist_put_text(stderr, path);
	fprintf(stderr, " belongs to user %ld, not to you (%ld): refusing to "
		"use it (another user could have planted a repository or a "
		"file there); remove it or give another --data\n",
		(long)st->st_uid, (long)geteuid());
	return -1;
}

/* Make DATA/REL (each component of REL a real directory, never a link,
 * owned by the user running onlist; DATA itself created with its parents
 * and owned too) and put its path in out.  0, or -1 after saying why. */
static int data_dir(const char *data, const char *rel, char *out,
		    size_t outsz)
{
	struct stat st;
	size_t n;

	if (mkdirs(data) < 0 || stat(data, &st) < 0) {
		onlist_err_text(data, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		onlist_err_text(data, "not a directory");
		return -1;
	}
	if (owned(data, &st) < 0)
		return -1;
	if ((size_t)snprintf(out, outsz, "%s/%s", data, rel) >= outsz) {
		onlist_err_text(data, "path too long");
		return -1;
	}
	n = strlen(data) + 1;
	for (char *p = out + n;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if ((mkdir(out, 0777) < 0 && errno != EEXIST) ||
		    lstat(out, &st) < 0) {
			onlist_err_text(out, strerror(errno));
			return -1;
		}
		if (!S_ISDIR(st.st_mode)) {
			onlist_err_text(out, "not a directory (a link?): "
					"refusing to use it");
			return -1;
		}
		if (owned(out, &st) < 0)
			return -1;
		*p = c;
		if (!c)
			break;
	}
	return 0;
}

/* A mirror that exists must be the user's, and so must its config (what
 * git reads there could otherwise name programs to run).  1 when it
 * exists and is fine, 0 when it does not exist, -1 after saying why. */
static int owned_mirror(const char *mirror)
{
	char cfg[PATH_MAX + 16];
	struct stat st;

	if (lstat(mirror, &st) < 0)
		return errno == ENOENT ? 0 : (onlist_err_text(mirror,
			strerror(errno)), -1);
	if (!S_ISDIR(st.st_mode)) {
		onlist_err_text(mirror, "not a directory (a link?): refusing "
				"to use it");
		return -1;
	}
	if (owned(mirror, &st) < 0)
		return -1;
	snprintf(cfg, sizeof(cfg), "%s/config", mirror);
	if (lstat(cfg, &st) == 0 && owned(cfg, &st) < 0)
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

/* "https://lore.kernel.org/linux-fsdevel/" -> "linux-fsdevel";
 * "/srv/lkml.mbox.gz" -> "lkml".  An epoch's path names its list, not
 * the epoch: "NAME/git/0.git" and "NAME-0.git" -> "NAME", as an import
 * of the same mail from NAME.mbox would. */
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

/* ---- importing ---------------------------------------------------------- */

/* What fetch prints on standard output: a line per source, or one JSON
 * object with an element per source and the totals. */
struct fetch_report {
	FILE *f;
	int json;
	int n;
	struct onlist_import_counts total;
};

static void report_source(struct fetch_report *r, const char *what,
			  const char *list, int ok,
			  const struct onlist_import_counts *c)
{
	r->total.messages += c->messages;
	r->total.added += c->added;
	r->total.patches += c->patches;
	r->total.skipped += c->skipped;
	if (!r->json) {
		onlist_put_text(r->f, what);
		fprintf(r->f, ": %ld messages, %ld new, %ld with patch, "
			"%ld skipped\n", c->messages, c->added, c->patches,
			c->skipped);
		return;
	}
	fputs(r->n++ ? ",\n  {\"source\": " : "\n  {\"source\": ", r->f);
	onlist_put_json(r->f, what);
	onlist_put_json_field(r->f, 0, "list", list);
	fprintf(r->f, ", \"ok\": %s, \"messages\": %ld, \"new\": %ld, "
		"\"patches\": %ld, \"skipped\": %ld}", ok ? "true" : "false",
		c->messages, c->added, c->patches, c->skipped);
}

/* Import a downloaded or local mbox/maildir file. */
static int import_file(struct onlist_store *s, const char *path,
		       const char *place, const char *list,
		       struct onlist_import_counts *c)
{
	struct onlist_source *src;
	char *err = NULL;
	onlist_status st;

	if ((st = onlist_source_open(&src, path, &err)) != ONLIST_OK) {
		onlist_err_text(NULL, err ? err : onlist_status_str(st));
		free(err);
		return -1;
	}
	st = onlist_import_source(s, src, place, list, c, NULL, NULL, &err);
	onlist_source_free(src);
	if (st != ONLIST_OK) {
		onlist_err_text(place, err ? err : onlist_status_str(st));
		free(err);
		return -1;
	}
	return 0;
}

static void human(char *buf, size_t sz, double bytes)
{
	static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, sz, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

/* A download's progress line: "all.mbox.gz: 3.1 MiB of 9.0 MiB, 1.2 MiB/s,
 * ETA 0:05"; the library calls it (http.h), have < 0 clears it. */
static void http_progress(const char *label, double have, double total,
			  double rate, void *data)
{
	struct onlist_progress *p = data;
	char h[32], t[48] = "", r[32], eta[32] = "";

	if (have < 0) {
		onlist_progress_done(p);
		return;
	}
	human(h, sizeof(h), have);
	human(r, sizeof(r), rate);
	if (total > 0) {
		char tt[32];

		human(tt, sizeof(tt), total);
		snprintf(t, sizeof(t), " of %s", tt);
		if (rate > 0 && total >= have) {
			long sec = (long)((total - have) / rate);

			snprintf(eta, sizeof(eta), ", ETA %ld:%02ld",
				 sec / 60, sec % 60);
		}
	}
	onlist_progress(p, "%s: %s%s, %s/s%s", label, h, t, r, eta);
}

struct epoch_ctx {
	struct onlist_store *s;
	const char *url;	/* the source, for the state table */
	const char *key;	/* "epoch:N" */
	const char *list;
	const char *place;
	struct onlist_import_counts *c;
	struct onlist_progress *prog;
	long in_batch;
	int failed;
};

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
			e->failed = 1;
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
			e->failed = 1;
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
			onlist_err_text(NULL, err ? err : "import failed");
			free(err);
			e->failed = 1;
			return 1;
		}
	}
batch:
	if (e->in_batch >= ONLIST_IMPORT_BATCH) {
		if (onlist_store_set_state(e->s, e->url, e->key, m->commit)
		    != ONLIST_OK || onlist_store_commit(e->s) != ONLIST_OK)
			goto db;
		e->in_batch = 0;
		onlist_progress(e->prog, "fetch: %s %s: %ld messages, %ld new",
				e->url, e->key, e->c->messages, e->c->added);
	}
	return 0;
db:
	onlist_err("%s", onlist_store_errmsg(e->s));
	e->failed = 1;
	return 1;
}

/* Import the new commits of one epoch repository. */
static int walk_epoch(struct onlist_cli *cli, struct onlist_store *s,
		      const char *url, const char *key, const char *gitdir,
		      const char *list, struct onlist_import_counts *c)
{
	struct onlist_progress prog;
	struct epoch_ctx e = { s, url, key, list, gitdir, c, &prog, 0, 0 };
	char *since = onlist_store_get_state(s, url, key), *last = NULL,
	     *err = NULL;
	onlist_status st;

	onlist_progress_init(&prog, cli);
	st = onlist_repo_epoch_walk(gitdir, NULL, since, epoch_msg, &e, &last,
				    &err);
	if (st == ONLIST_ENOTFOUND && !e.failed) {
		/* The commit we stopped at is gone: the history was rewritten
		 * (public-inbox-purge).  Walk it all again; what we have is
		 * skipped by Message-ID. */
		free(err);
		err = NULL;
		st = onlist_repo_epoch_walk(gitdir, NULL, NULL, epoch_msg, &e,
					    &last, &err);
	}
	onlist_progress_done(&prog);
	free(since);
	if (e.failed || st != ONLIST_OK) {
		if (e.in_batch)
			onlist_store_rollback(s);
		if (st != ONLIST_OK)
			onlist_err_text(NULL, err ? err : onlist_status_str(st));
		free(err);
		free(last);
		return -1;
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
	return 0;
db:
	onlist_err("%s", onlist_store_errmsg(s));
	if (e.in_batch)
		onlist_store_rollback(s);
	free(last);
	return -1;
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

static int fetch_local(struct onlist_cli *cli, struct onlist_store *s,
		       const char *arg, const char *list,
		       struct onlist_import_counts *c)
{
	char path[PATH_MAX];
	int v1, n;

	if (!realpath(arg, path)) {
		onlist_err_text(arg, strerror(errno));
		return -1;
	}
	if (!is_dir(path))
		return import_file(s, path, path, list, c);
	n = local_epochs(path, &v1);
	if (n == 0) {
		char p[PATH_MAX + 32];
		snprintf(p, sizeof(p), "%s/cur", path);
		if (!is_dir(p)) {
			snprintf(p, sizeof(p), "%s/new", path);
			if (!is_dir(p)) {
				onlist_err_text(arg, "neither a maildir nor a "
					   "public-inbox directory (no cur/, "
					   "new/, git/0.git or objects/)");
				return -1;
			}
		}
		return import_file(s, path, path, list, c);
	}
	for (int i = 0; i < n; i++) {
		char key[32], gitdir[PATH_MAX + 32];

		snprintf(key, sizeof(key), "epoch:%d", i);
		if (v1)
			snprintf(gitdir, sizeof(gitdir), "%s", path);
		else
			snprintf(gitdir, sizeof(gitdir), "%s/git/%d.git", path, i);
		if (walk_epoch(cli, s, path, key, gitdir, list, c) < 0)
			return -1;
	}
	return 0;
}

/* A whole public-inbox over the network: mirror each epoch, then walk it.
 * Epochs are found by trying 0.git, 1.git, ... until one is missing; an
 * inbox without git/0.git is tried as a v1 repository at the URL. */
/* How many epochs the inbox at base lists in its manifest.js.gz, or 0
 * when it has no manifest or names none.  The file is kept under the data
 * directory. */
static int manifest_epochs(const char *base, const char *dir,
			   const struct fetch_opts *o)
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

static int fetch_inbox(struct onlist_cli *cli, struct onlist_store *s,
		       const char *base, const struct fetch_opts *o,
		       const char *list, struct onlist_import_counts *c)
{
	char *dir = url_dir(base), *err = NULL;
	char url[PATH_MAX], mirror[PATH_MAX], key[32], (*tips)[41], *since;
	int n = 0, ret = 0, nlisted, fresh, added_in_walk = 0;
	long read0, added0;

	if (!dir)
		return -1;
	if (asprintf(&err, "mirrors/%s/git", dir) < 0 ||
	    data_dir(o->data, err, mirror, sizeof(mirror)) < 0) {
		free(err);
		free(dir);
		return -1;
	}
	free(err);
	err = NULL;
	/* The manifest says how many epochs there are; without one, epochs
	 * are cloned until the first missing one, and never more than
	 * --max-epochs. */
	nlisted = manifest_epochs(base, dir, o);
	if (!(tips = calloc((size_t)o->max_epochs, sizeof(*tips)))) {
		free(dir);
		return -1;
	}
	for (;; n++) {
		/* the manifest is the server's word: it ends the walk early,
		 * but never lets it go past --max-epochs */
		if (nlisted && n >= nlisted && nlisted <= o->max_epochs)
			break;
		if (n >= o->max_epochs) {
			if (nlisted)
				onlist_err("fetch: %s: its manifest.js.gz lists %d "
					   "epochs, more than %d: stopped "
					   "(--max-epochs)", base, nlisted,
					   o->max_epochs);
			else
				onlist_err("fetch: %s: more than %d epochs and no "
					   "manifest.js.gz listing them: stopped "
					   "(--max-epochs)", base, o->max_epochs);
			ret = -1;
			break;
		}
		if (o->http.deadline > 0 && onlist_http_now() > o->http.deadline) {
			onlist_err("fetch: %s: gave up after epoch %d: the time "
				   "allowed (--timeout) ran out", base, n - 1);
			ret = -1;
			break;
		}
		/* git talks to the same host for every epoch: keep the pace
		 * onlist's own downloads keep. */
		if (n > 0 && o->http.pace > 0)
			usleep((useconds_t)(o->http.pace * 1e6));
		snprintf(url, sizeof(url), "%sgit/%d.git", base, n);
		snprintf(mirror, sizeof(mirror), "%s/mirrors/%s/git/%d.git",
			 o->data, dir, n);
		if (owned_mirror(mirror) < 0) {
			ret = -1;
			break;
		}
		if (onlist_repo_mirror_until(url, mirror, o->http.deadline, &err) != ONLIST_OK) {
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
				onlist_err_text(url, err ? err : "git failed");
				ret = -1;
				break;
			}
			if (n == 0 && !known) {
				char *err1 = err;
				/* v1: the inbox itself is the repository. */
				snprintf(mirror, sizeof(mirror),
					 "%s/mirrors/%s/v1.git", o->data, dir);
				err = NULL;
				if (owned_mirror(mirror) < 0) {
					free(err1);
					ret = -1;
					break;
				}
				if (onlist_repo_mirror_until(base, mirror,
							     o->http.deadline, &err) == ONLIST_OK) {
					free(err1);
					snprintf(key, sizeof(key), "epoch:0");
					ret = walk_epoch(cli, s, base, key, mirror,
							 list, c);
					break;
				}
				fputs("onlist: ", stderr);
				onlist_put_text(stderr, base);
				fputs(": not a public-inbox (no git/0.git and "
				      "no v1 repository): ", stderr);
				onlist_put_text(stderr, err1 ? err1 : "git failed");
				fputc('\n', stderr);
				free(err1);
				ret = -1;
				break;
			}
			onlist_err_text(url, err ? err : "git failed");
			ret = -1;
			break;
		}
		/* A server that serves one epoch under every number would
		 * keep fetch cloning until --max-epochs: an epoch whose tip
		 * is an earlier one's ends the walk.  (public-inbox starts
		 * every epoch with a commit of its own.) */
		if (onlist_repo_epoch_tip(mirror, NULL, tips[n], &err) != ONLIST_OK) {
			onlist_err_text(mirror, err ? err : "git failed");
			ret = -1;
			break;
		}
		for (int k = 0; tips[n][0] && k < n; k++) {
			if (strcmp(tips[k], tips[n]))
				continue;
			onlist_err("fetch: %s: epoch %d is a copy of epoch %d (the "
				   "same last commit): the server repeats "
				   "itself; stopped", base, n, k);
			ret = -1;
			break;
		}
		if (ret < 0)
			break;
		snprintf(key, sizeof(key), "epoch:%d", n);
		fresh = !(since = onlist_store_get_state(s, base, key));
		free(since);
		read0 = c->messages;
		added0 = c->added;
		if (walk_epoch(cli, s, base, key, mirror, list, c) < 0) {
			ret = -1;
			break;
		}
		/* The same messages re-committed under another tip get past
		 * the check above: an epoch new to this database that adds
		 * nothing, after epochs of this walk that did, holds only
		 * what the server already sent, and ends the walk too.  (A
		 * real epoch holds mail no earlier one has.) */
		if (n > 0 && fresh && added_in_walk && c->messages > read0 &&
		    c->added == added0) {
			onlist_err("fetch: %s: epoch %d holds only messages of "
				   "earlier epochs (under another last commit): "
				   "the server repeats itself; stopped", base, n);
			ret = -1;
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
static int fetch_download(struct onlist_store *s, const char *url,
			  int post, int remember_cache,
			  const struct fetch_opts *o, const char *list,
			  struct onlist_import_counts *c)
{
	struct onlist_http_cache cache = { NULL, NULL };
	enum onlist_http_result res;
	char *dir = url_dir(url), *err = NULL, path[PATH_MAX], parent[PATH_MAX];
	const char *name;
	onlist_status st;
	int ret = 0;

	if (!dir)
		return -1;
	/* DATA/downloads/HOST/.../NAME: the directories checked as ours */
	name = strrchr(dir, '/');
	snprintf(path, sizeof(path), "downloads%s%.*s", name ? "/" : "",
		 name ? (int)(name - dir) : 0, dir);
	if (data_dir(o->data, path, parent, sizeof(parent)) < 0) {
		free(dir);
		return -1;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s%s", parent,
			     name ? name + 1 : dir,
			     ends_with(dir, ".gz") ? "" : ".data") >= sizeof(path)) {
		onlist_err_text(parent, "path too long");
		free(dir);
		return -1;
	}
	free(dir);
	if (remember_cache) {
		cache.etag = onlist_store_get_state(s, url, "etag");
		cache.last_modified = onlist_store_get_state(s, url, "last-modified");
	}
	st = onlist_http_get(url, path, post, &o->http,
			     remember_cache ? &cache : NULL, &res, &err);
	if (st != ONLIST_OK) {
		onlist_err_text(NULL, err ? err : onlist_status_str(st));
		free(err);
		onlist_http_cache_release(&cache);
		return -1;
	}
	if (res == ONLIST_HTTP_NOT_FOUND) {
		if (post) {
			/* public-inbox answers 404 to a search that matches
			 * nothing: an empty window, not an error. */
			onlist_http_cache_release(&cache);
			return 0;
		}
		onlist_err_text(url, "HTTP 404 Not Found");
		onlist_http_cache_release(&cache);
		return -1;
	}
	if (res == ONLIST_HTTP_NEW) {
		ret = import_file(s, path, url, list, c);
		/* Remember the validators only once the body is imported, so
		 * a failed import is downloaded again next time. */
		if (ret == 0 && remember_cache &&
		    (onlist_store_set_state(s, url, "etag", cache.etag) != ONLIST_OK ||
		     onlist_store_set_state(s, url, "last-modified",
					    cache.last_modified) != ONLIST_OK)) {
			onlist_err("%s", onlist_store_errmsg(s));
			ret = -1;
		}
		if (ret == 0)
			unlink(path);
	}
	onlist_http_cache_release(&cache);
	return ret;
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

static int fetch_one(struct onlist_cli *cli, struct onlist_store *s,
		     const char *arg, const char *list_opt,
		     const struct fetch_opts *all, int explicit,
		     struct fetch_report *r)
{
	/* --timeout is per source: one stuck server leaves time for the rest */
	struct fetch_opts src = *all, *o = &src;
	struct onlist_import_counts c = { 0, 0, 0, 0 };
	int window = o->since || o->until || o->query;
	char *base = NULL, where[PATH_MAX];
	/* a local path named as it is, "git/0.git" from inside NAME too */
	char *list = list_opt ? strdup(list_opt) : default_list(
		!is_url(arg) && realpath(arg, where) ? where : arg);
	int ret;

	if (o->timeout > 0)
		o->http.deadline = onlist_http_now() + o->timeout;
	if (onlist_cli_url_has_password(arg)) {
		/* a source remembered by an older onlist */
		onlist_err("fetch: a remembered source holds a password: "
			   "skipped (remove it from the sources table)");
		free(list);
		return -1;
	}
	if (!list)
		return -1;
	if (is_url(arg)) {
		if (window) {
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
					     n && arg[n - 1] == '/' ? "" : "/",
					     enc) < 0) {
				free(enc);
				free(list);
				return -1;
			}
			free(enc);
			ret = fetch_download(s, url, 1, 0, o, list, &c);
			free(url);
		} else if (is_mbox_url(arg)) {
			ret = fetch_download(s, arg, 0, 1, o, list, &c);
		} else {
			size_t n = strlen(arg);
			if (asprintf(&base, "%s%s", arg,
				     n && arg[n - 1] == '/' ? "" : "/") < 0) {
				free(list);
				return -1;
			}
			ret = fetch_inbox(cli, s, base, o, list, &c);
		}
	} else {
		if (window) {
			onlist_err_text(arg, "--since, --until and --query need a "
				   "public-inbox URL");
			free(list);
			return -2;
		}
		ret = fetch_local(cli, s, arg, list, &c);
	}
	/* Remember what worked, except one-off windows, messages and
	 * threads (public-inbox's /raw and /t.mbox.gz). */
	if (ret == 0 && !window && !is_one_off(arg)) {
		char resolved[PATH_MAX], now[32];
		const char *key = base ? base : is_url(arg) ? arg :
				  realpath(arg, resolved) ? resolved : arg;

		/* when it was last brought up to date: `status` shows it
		 * beside the list's span */
		snprintf(now, sizeof(now), "%lld", (long long)time(NULL));
		if ((explicit && onlist_store_add_source(s, key, list) != ONLIST_OK) ||
		    onlist_store_set_state(s, key, "fetched", now) != ONLIST_OK) {
			onlist_err("%s", onlist_store_errmsg(s));
			ret = -1;
		}
	}
	report_source(r, arg, list, ret == 0, &c);
	free(base);
	free(list);
	return ret;
}

struct source_list {
	char **url, **list;
	size_t n;
};

static int collect_source(int ncol, const char *const *c, void *data)
{
	struct source_list *l = data;
	char **u, **li;

	(void)ncol;
	u = realloc(l->url, (l->n + 1) * sizeof(*u));
	if (u)
		l->url = u;
	li = realloc(l->list, (l->n + 1) * sizeof(*li));
	if (li)
		l->list = li;
	if (!u || !li)
		return 1;
	l->url[l->n] = strdup(c[0]);
	l->list[l->n] = strdup(c[1] ? c[1] : "");
	l->n++;
	return 0;
}

/* One fetch per database at a time: an advisory lock on DB.fetch-lock,
 * held until the process ends (also when it is killed) and removed when
 * fetch is done.  The file is never opened through a link (in a folder
 * others can write to, it could point anywhere) and must be a regular
 * file of the user's.  A lock taken on a file that was removed meanwhile
 * (by the fetch that held it, as it ended) does not count: taken again on
 * the new one.  The descriptor and *path (caller frees), or -1 after
 * saying why. */
static int take_lock(const char *db, char **path)
{
	struct stat st, now;
	int fd = -1, tries;

	if (asprintf(path, "%s.fetch-lock", db) < 0) {
		*path = NULL;
		return -1;
	}
	for (tries = 0; tries < 10; tries++) {
		fd = open(*path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			fd = open(*path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue;	/* removed between the two opens */
		if (fd < 0) {
			onlist_err("fetch: cannot open %s: %s%s", *path,
				   strerror(errno), errno == ELOOP ?
				   " (a symbolic link: remove it)" : "");
			goto fail;
		}
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid()) {
			onlist_err("fetch: %s is not a regular file of yours: "
				   "refusing to use it as the lock (remove it)",
				   *path);
			goto fail;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			onlist_err("fetch: another onlist fetch is running on %s "
				   "(lock %s held); try again when it is done",
				   db, *path);
			goto fail;
		}
		if (stat(*path, &now) == 0 && now.st_dev == st.st_dev &&
		    now.st_ino == st.st_ino)
			return fd;
		close(fd);	/* the file we locked is gone: again */
		fd = -1;
	}
	onlist_err("fetch: cannot take the lock %s: it keeps changing", *path);
fail:
	if (fd >= 0)
		close(fd);
	free(*path);
	*path = NULL;
	return -1;
}

/* Remove the lock, then let it go: removed first, so no other fetch can
 * take this file once we are done (take_lock() checks it is still there). */
static void drop_lock(int fd, char *path)
{
	unlink(path);
	close(fd);
	free(path);
}

/* A clone runs in a process group of its own (so that a deadline can
 * end it with its helpers): it gets no signal from the terminal, and
 * would outlive an onlist that is killed.  Pass the signal on to it, then
 * end as the signal says. */
static void on_fatal_signal(int sig)
{
	onlist_git_signal_groups(SIGTERM);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void pass_signals_to_git(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++) {
		struct sigaction old;

		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
}

/* --since and --until: a real date, YYYY-MM-DD (it goes into a query). */
static int is_date(const char *s)
{
	struct tm tm;
	int y, m, d;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return 0;
	if (sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3)
		return 0;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	tm.tm_hour = 12;
	tm.tm_isdst = -1;
	/* mktime() normalises 2024-02-30 to March: not the date given */
	return mktime(&tm) != (time_t)-1 && tm.tm_year == y - 1900 &&
	       tm.tm_mon == m - 1 && tm.tm_mday == d;
}

/* A number from 0 to max for --retries and --pace: 0, or -1 after
 * saying why. */
static int number(const char *opt, const char *arg, double max, double *out)
{
	char *end;

	*out = strtod(arg, &end);
	if (end == arg || *end || !(*out >= 0 && *out <= max)) {
		onlist_err("fetch: %s takes a number from 0 to %g, not '%s'",
			   opt, max, arg);
		return -1;
	}
	return 0;
}

int cmd_fetch(struct onlist_cli *cli, int argc, char **argv)
{
	enum {
		OPT_LIST = ONLIST_OPT_FIRST_LONG, OPT_DATA, OPT_SINCE, OPT_UNTIL,
		OPT_QUERY, OPT_RETRIES, OPT_PACE, OPT_INSECURE, OPT_TIMEOUT, OPT_MAX_EPOCHS,
	};
	static const struct option opts[] = {
		{ "list", required_argument, NULL, OPT_LIST },
		{ "data", required_argument, NULL, OPT_DATA },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "query", required_argument, NULL, OPT_QUERY },
		{ "retries", required_argument, NULL, OPT_RETRIES },
		{ "pace", required_argument, NULL, OPT_PACE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "max-epochs", required_argument, NULL, OPT_MAX_EPOCHS },
		{ "insecure", no_argument, NULL, OPT_INSECURE },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct fetch_report r = { NULL, 0, 0, { 0, 0, 0, 0 } };
	struct fetch_opts o;
	struct onlist_store *s;
	struct onlist_http_opts http = ONLIST_HTTP_OPTS_INIT;
	struct onlist_progress http_prog;
	struct source_list l = { NULL, NULL, 0 };
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	const char *data_opt = NULL;
	char *lock_path = NULL;
	double x;
	int c, ret = ONLIST_EXIT_OK, lock;

	memset(&o, 0, sizeof(o));
	o.http = http;
	o.timeout = 6 * 3600;	/* a whole mirror of a large list over a slow link */
	o.max_epochs = MAX_EPOCHS_DEFAULT;
	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts, help)) != -1) {
		switch (c) {
		case OPT_LIST:
			o.list = optarg;
			break;
		case OPT_DATA:
			data_opt = optarg;
			break;
		case OPT_SINCE:
			o.since = optarg;
			break;
		case OPT_UNTIL:
			o.until = optarg;
			break;
		case OPT_QUERY:
			o.query = optarg;
			break;
		case OPT_RETRIES:
			if (number("--retries", optarg, 1000, &x) < 0)
				return ONLIST_EXIT_USAGE;
			o.http.retries = (int)x;
			break;
		case OPT_PACE:
			/* an hour: usleep() counts in 32 bits */
			if (number("--pace", optarg, 3600, &x) < 0)
				return ONLIST_EXIT_USAGE;
			o.http.pace = x;
			break;
		case OPT_INSECURE:
			o.http.insecure = 1;
			break;
		case OPT_TIMEOUT:
			/* a week; 0 is no limit */
			if (number("--timeout", optarg, 7 * 86400, &x) < 0)
				return ONLIST_EXIT_USAGE;
			o.timeout = x;
			break;
		case OPT_MAX_EPOCHS:
			if (number("--max-epochs", optarg, 1000000, &x) < 0 || x < 1) {
				if (x < 1)
					onlist_err("fetch: --max-epochs takes 1 or more");
				return ONLIST_EXIT_USAGE;
			}
			o.max_epochs = (int)x;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	/* after the loop: -q may follow the command's name */
	if (!cli->quiet && isatty(STDERR_FILENO)) {
		onlist_progress_init(&http_prog, cli);
		o.http.progress = http_progress;
		o.http.progress_data = &http_prog;
	}
	if ((o.since && !is_date(o.since)) || (o.until && !is_date(o.until))) {
		onlist_err("fetch: --since and --until take a date, YYYY-MM-DD");
		return ONLIST_EXIT_USAGE;
	}
	for (int i = optind; i < argc; i++) {
		if (onlist_cli_url_has_password(argv[i])) {
			/* not printed: the password would be on the screen */
			onlist_err("fetch: source %d holds a password "
				   "(https://user:password@host/): refused, it "
				   "would be stored in the database and named in "
				   "folders; give the URL without it", i - optind + 1);
			return ONLIST_EXIT_USAGE;
		}
	}
	if (optind == argc && (o.since || o.until || o.query)) {
		onlist_err("fetch: a window needs a SOURCE");
		return ONLIST_EXIT_USAGE;
	}
	if (data_opt) {
		o.data = strdup(data_opt);
	} else {
		/* Beside the database, so one database keeps one data dir. */
		char *slash = strrchr(cli->db_path, '/');
		if (asprintf(&o.data, "%.*sonlist-data",
			     slash ? (int)(slash - cli->db_path + 1) : 0,
			     cli->db_path) < 0)
			o.data = NULL;
	}
	if (!o.data)
		return ONLIST_EXIT_FAIL;
	if ((lock = take_lock(cli->db_path, &lock_path)) < 0) {
		free(o.data);
		return ONLIST_EXIT_FAIL;
	}
	if (!(s = onlist_cli_open_store(cli))) {
		free(o.data);
		drop_lock(lock, lock_path);
		return ONLIST_EXIT_FAIL;
	}
	onlist_store_stream_mode(s);
	pass_signals_to_git();
	/* The epoch mirrors are git's downloads: --insecure goes to git
	 * through its environment, which every git child inherits. */
	if (o.http.insecure)
		setenv("GIT_SSL_NO_VERIFY", "1", 1);
	onlist_http_init();
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	r.f = out.f;
	r.json = fmt == ONLIST_FMT_JSON;
	if (r.json)
		fputs("{\"sources\": [", r.f);
	if (optind == argc) {
		if (onlist_store_query(s, ONLIST_Q_SOURCES, NULL, 0,
					      collect_source, &l) != ONLIST_OK) {
			onlist_err("fetch: %s", onlist_store_errmsg(s));
			ret = ONLIST_EXIT_FAIL;
		} else if (l.n == 0) {
			onlist_err("fetch: no sources yet; give one, e.g. "
				   "onlist fetch https://lore.kernel.org/linux-fsdevel/");
			ret = ONLIST_EXIT_USAGE;
		}
		for (size_t k = 0; k < l.n; k++) {
			if (fetch_one(cli, s, l.url[k], o.list ? o.list : l.list[k],
				      &o, 0, &r) != 0)
				ret = ONLIST_EXIT_FAIL;
			free(l.url[k]);
			free(l.list[k]);
		}
		free(l.url);
		free(l.list);
	} else {
		for (int i = optind; i < argc; i++) {
			int rc = fetch_one(cli, s, argv[i], o.list, &o, 1, &r);
			if (rc == -2)
				ret = ONLIST_EXIT_USAGE;
			else if (rc != 0 && ret == ONLIST_EXIT_OK)
				ret = ONLIST_EXIT_FAIL;
		}
	}
	if (r.json)
		fprintf(r.f, "%s], \"messages\": %ld, \"new\": %ld, \"patches\": "
			"%ld, \"skipped\": %ld}\n", r.n ? "\n" : "",
			r.total.messages, r.total.added, r.total.patches,
			r.total.skipped);
	onlist_http_cleanup();
	onlist_store_close(s);
	free(o.data);
	drop_lock(lock, lock_path);
	ret = onlist_cli_out_close(cli, &out, ret);
	return ret;
}
