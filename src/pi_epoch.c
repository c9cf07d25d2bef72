/* pi_epoch.c - public-inbox epochs: mirroring them, and walking their
 * commits for the messages they add and remove (see pi_epoch.h).  Every
 * git is started by git.c. */
#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>
#include <glib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "onlist/git.h"
#include "onlist/pi_epoch.h"

/* Remove a directory tree left by a clone that was killed: nothing under
 * it is followed out of it (FTW_PHYS). */
static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static int rm_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* git's stderr on one line: its "fatal:" line when it wrote one (after
 * "remote: Not Found", say), else every line joined with "; ". */
static void one_line(char **errmsg)
{
	char *s, *p, *fatal = NULL;

	if (!errmsg || !(s = *errmsg) || !strchr(s, '\n'))
		return;
	for (p = s; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, "fatal: ", 7))
			fatal = p;
	if (fatal) {
		memmove(s, fatal, strcspn(fatal, "\n"));
		s[strcspn(fatal, "\n")] = '\0';
		return;
	}
	for (p = s; (p = strchr(p, '\n'));) {
		/* "\n" -> "; ": one byte more, so shift the rest */
		size_t rest = strlen(p + 1);
		char *n = realloc(s, (size_t)(p - s) + 2 + rest + 1);
		if (!n)
			return;
		p = n + (p - s);
		s = n;
		memmove(p + 2, p + 1, rest + 1);
		p[0] = ';';
		p[1] = ' ';
		p += 2;
	}
	*errmsg = s;
}

/* For a mirror, whatever the configuration says: the transports it may
 * use (the URL may come from a server's listing, and git's "user" class,
 * file:// and local paths since git 2.38.1, would otherwise depend on
 * GIT_PROTOCOL_FROM_USER), and an end to a transfer that stalls (under 1
 * byte/s for a minute, as onlist's own downloads). */
#define MIRROR_CONFIG "-c", "protocol.allow=never", \
	"-c", "protocol.https.allow=always", "-c", http_allow, \
	"-c", "protocol.file.allow=always", "-c", "protocol.git.allow=always", \
	"-c", "protocol.ssh.allow=always", \
	"-c", "http.lowSpeedLimit=1024", "-c", "http.lowSpeedTime=60"

onlist_status onlist_pi_epoch_mirror(const char *url, const char *dir,
				 char **errmsg)
{
	return onlist_pi_epoch_mirror_until(url, dir, 0, errmsg);
}

onlist_status onlist_pi_epoch_mirror_until(const char *url, const char *dir,
				       double deadline, char **errmsg)
{
	struct stat sb;
	char *tmp = NULL;
	onlist_status st;
	/* git follows redirects to the transports it allows: one asked for
	 * over https must not be downgraded to plain http */
	const char *http_allow = url && !strncasecmp(url, "https:", 6) ?
		"protocol.http.allow=never" : "protocol.http.allow=always";

	if (errmsg)
		*errmsg = NULL;
	if (!url || !*url || !dir || !*dir) {
		onlist_set_err(errmsg, "mirror: no %s given",
			       url && *url ? "directory" : "URL");
		return ONLIST_EUSAGE;
	}
	/* git would take it for an option */
	if (url[0] == '-') {
		onlist_set_err(errmsg,
			"repository URL must not begin with '-': %s", url);
		return ONLIST_EUSAGE;
	}
	if (stat(dir, &sb) == 0) {
		/* the URL as given, not the one cloned from: the source may
		 * have moved.  --git-dir: a directory that is no repository
		 * must not be taken for a work tree of one above it (and
		 * git's complaint then names it).  '+': public-inbox rewrites
		 * an epoch's history when it purges a message. */
		const char *args[] = {
			NULL, MIRROR_CONFIG, "fetch", "--quiet", "--prune",
			"--no-write-fetch-head", "--", url, "+refs/*:refs/*",
			NULL
		};
		char *gd;
		if (asprintf(&gd, "--git-dir=%s", dir) < 0) {
			onlist_set_err(errmsg, "out of memory");
			return ONLIST_ENOMEM;
		}
		args[0] = gd;
		st = onlist_git_run_until(".", args, ONLIST_GIT_NET |
					  ONLIST_GIT_CLEAN, deadline, errmsg);
		free(gd);
		one_line(errmsg);
		return st;
	}
	if (errno != ENOENT) {
		onlist_set_err(errmsg, "%s: %s", dir, strerror(errno));
		return ONLIST_EIO;
	}
	/* Clone beside it and rename when complete: a clone that was killed
	 * leaves DIR.tmp, never a DIR that looks done. */
	if (asprintf(&tmp, "%s.tmp", dir) < 0) {
		onlist_set_err(errmsg, "out of memory");
		return ONLIST_ENOMEM;
	}
	if (rm_tree(tmp) < 0) {
		onlist_set_err(errmsg, "cannot remove %s: %s", tmp,
			       strerror(errno));
		st = ONLIST_EIO;
		goto out;
	}
	{
		const char *args[] = {
			MIRROR_CONFIG, "clone", "--mirror", "--quiet", "--", url,
			tmp, NULL
		};
		st = onlist_git_run_until(".", args, ONLIST_GIT_NET |
					  ONLIST_GIT_CLEAN, deadline, errmsg);
		one_line(errmsg);
	}
	if (st == ONLIST_OK && rename(tmp, dir) < 0) {
		onlist_set_err(errmsg, "cannot rename %s to %s: %s", tmp, dir,
			strerror(errno));
		st = ONLIST_EIO;
	}
	if (st != ONLIST_OK)
		rm_tree(tmp);
out:
	free(tmp);
	return st;
}

/* An epoch walk is three things running at once:
 *
 *   git log --reverse --raw RANGE  ->  writer thread  ->  git cat-file --batch
 *                                                              |
 *                          the caller's callback  <-  this thread
 *
 * `git log --raw` names, per commit, the blob each message is in, so both
 * public-inbox layouts read alike: v2 (one file, `m` for a message, `d`
 * for a removal) and v1 (a message at xx/yyyy... derived from the SHA-1 of
 * its Message-ID, removed by deleting that path).  The writer turns every
 * message-bearing line into a cat-file request carrying its commit and
 * kind ("%(rest)"); cat-file then answers in order, one message at a time.
 * public-inbox-purge rewrites the history from the purged message on and
 * leaves an empty blob `m` in its place: that is a removal too.
 * Measured on a 100k-message epoch (git 2.39): cat-file of blob ids 5.4 s,
 * of "<commit>:m" paths 6.8 s (a tree lookup each); the log runs alongside
 * in 1.5 s. */

#define CAT_FORMAT "--batch=%(objectname) %(objecttype) %(objectsize) %(rest)"

struct walk {
	struct onlist_git log, cat;
	struct onlist_git_reader lr;	/* the log's output, for the writer */
	size_t requests;		/* lines written to cat-file */
	char last[41];			/* the last commit the log named */
	onlist_status st;		/* the writer's failure, and why */
	char *err;
};

/* One line of `git log --raw --no-abbrev`:
 * ":100644 100644 <old> <new> M\tpath".  Returns 'm' (a message in blob
 * *oid), 'd' (a removal: the removed message is in blob *oid), or 0 for a
 * line that is neither (v2's `D m` beside `A d`, or `D d` beside `A m`). */
static int raw_kind(const char *line, size_t len, const char **oid)
{
	const char *path, *st;
	size_t plen;

	/* ':' 6 ' ' 6 ' ' 40 ' ' 40 ' ' status '\t' */
	if (len < 99 || line[0] != ':' || line[7] != ' ' || line[14] != ' ' ||
	    line[55] != ' ' || line[96] != ' ')
		return -1;
	st = line + 97;
	path = memchr(st, '\t', len - 97);
	if (!path)
		return -1;
	path++;
	plen = len - (size_t)(path - line);
	if (plen && path[plen - 1] == '\n')
		plen--;
	if (plen == 1 && (*path == 'm' || *path == 'd')) {	/* v2 */
		if (*st == 'D')
			return 0;
		*oid = line + 56;
		return *path;
	}
	if (plen != 41 || path[2] != '/' || !onlist_git_is_hex(path, 2) ||
	    !onlist_git_is_hex(path + 3, 38))
		return 0;					/* v1 */
	if (*st == 'D') {
		*oid = line + 15;
		return 'd';
	}
	/* a blob, not a submodule or a symbolic link */
	if (memcmp(line + 8, "100644", 6) && memcmp(line + 8, "100755", 6))
		return 0;
	*oid = line + 56;
	return 'm';
}

static void walk_fail(struct walk *w, onlist_status st, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (w->st != ONLIST_OK)
		return;
	w->st = st;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		w->err = s;
	va_end(ap);
}

/* Reads the log, writes "<blob> <commit> <kind>\n" requests to cat-file,
 * 64 KiB at a time; closing cat-file's stdin at the end lets it finish. */
static void *walk_writer(void *arg)
{
	struct walk *w = arg;
	char buf[65536], commit[41] = "", when[21] = "0", *line;
	const char *oid;
	size_t len, used = 0;
	sigset_t set;
	int rc, kind;

	/* a cat-file that went away (the callback stopped the walk) must
	 * not take the process down: the write fails with EPIPE instead */
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	while ((rc = onlist_git_reader_next(&w->lr, '\n', &line, &len)) == 1) {
		if (line[0] == '\001') {
			/* "\001<commit> <committer time>\n" */
			size_t tl = len > 43 ? len - 43 : 0;

			if (len < 44 || len > 43 + 20 || line[41] != ' ' ||
			    line[len - 1] != '\n' ||
			    !onlist_git_is_hex(line + 1, 40) ||
			    strspn(line + 42, "0123456789") != tl) {
				walk_fail(w, ONLIST_EGIT, "unexpected output "
					  "from git log: %.*s",
					  (int)(len > 80 ? 80 : len), line);
				break;
			}
			memcpy(commit, line + 1, 40);
			commit[40] = '\0';
			memcpy(when, line + 42, tl);
			when[tl] = '\0';
			continue;
		}
		if (line[0] == '\n')
			continue;
		if (!*commit || (kind = raw_kind(line, len, &oid)) < 0) {
			walk_fail(w, ONLIST_EGIT, "unexpected output from "
				  "git log: %.*s", (int)(len > 80 ? 80 : len),
				  line);
			break;
		}
		if (!kind)
			continue;
		if (used + 85 + 21 > sizeof buf) {
			if (onlist_git_write_all(w->cat.in, buf, used) < 0)
				break;		/* cat-file is gone */
			used = 0;
		}
		memcpy(buf + used, oid, 40);
		buf[used + 40] = ' ';
		memcpy(buf + used + 41, commit, 40);
		buf[used + 81] = ' ';
		buf[used + 82] = (char)kind;
		buf[used + 83] = ' ';
		memcpy(buf + used + 84, when, strlen(when));
		used += 84 + strlen(when);
		buf[used++] = '\n';
		w->requests++;
	}
	if (rc < 0)
		walk_fail(w, ONLIST_EIO, "reading from git log: %s",
			  strerror(errno));
	if (used && w->st == ONLIST_OK)
		onlist_git_write_all(w->cat.in, buf, used);
	memcpy(w->last, commit, 41);
	onlist_git_close_in(&w->cat);
	/* a log we stopped reading ends with SIGPIPE */
	onlist_git_close_out(&w->log);
	return NULL;
}

/* The full id of the commit `rev` names in *id, or "" when it names none.
 * ONLIST_EGIT (git's message) when git fails otherwise: no repository. */
static onlist_status resolve_commit(const char *gitdir, const char *rev,
				    char id[41], char **errmsg)
{
	const char *args[] = {
		NULL, "rev-parse", "--verify", "--quiet", NULL, NULL
	};
	struct onlist_git ch;
	struct onlist_git_reader r = { 0 };
	onlist_status st;
	char *gd, *arg, *line, *msg = NULL;
	size_t len;
	int ret;

	id[0] = '\0';
	if (asprintf(&gd, "--git-dir=%s", gitdir) < 0)
		return ONLIST_ENOMEM;
	if (asprintf(&arg, "%s^{commit}", rev) < 0) {
		free(gd);
		return ONLIST_ENOMEM;
	}
	args[0] = gd;
	args[4] = arg;
	st = onlist_git_start(&ch, ".", args, ONLIST_GIT_CLEAN, NULL, 0,
			      errmsg);
	free(gd);
	free(arg);
	if (st != ONLIST_OK)
		return st;
	if (onlist_git_reader_init(&r, ch.out) < 0)
		st = ONLIST_ENOMEM;
	else if (onlist_git_reader_next(&r, '\n', &line, &len) == 1 &&
		 len == 41 && onlist_git_is_hex(line, 40) && line[40] == '\n') {
		memcpy(id, line, 40);
		id[40] = '\0';
	}
	onlist_git_reader_release(&r);
	/* --quiet: status 1 and nothing said for a rev that names no
	 * commit; anything else is git's complaint (no repository...) */
	ret = onlist_git_wait(&ch, &msg);
	if (ret && !(ret == 1 && !id[0])) {
		id[0] = '\0';
		if (st == ONLIST_OK)
			st = ONLIST_EGIT;
		onlist_set_err(errmsg, "%s",
			       msg ? msg : "git rev-parse failed");
	}
	free(msg);
	return st;
}

onlist_status onlist_pi_epoch_tip(const char *gitdir, const char *branch,
				    char id[41], char **errmsg)
{
	return resolve_commit(gitdir, branch ? branch : "master", id, errmsg);
}

/* Read one cat-file answer and hand it to the callback.  Returns
 * ONLIST_OK, with *stop set when the callback said so and *done at the end
 * of the output; on failure *msg says what went wrong. */
static onlist_status walk_one(struct onlist_git_reader *r, onlist_epoch_cb cb,
			      void *data, char *commit, int *stop, int *done,
			      size_t *answers, char **msg)
{
	struct onlist_epoch_msg m = { 0 };
	char *line, *p, kind;
	size_t len, size;
	int rc;

	if ((rc = onlist_git_reader_next(r, '\n', &line, &len)) <= 0) {
		*done = 1;
		if (rc < 0)
			onlist_set_err(msg, "reading from git cat-file: %s",
				strerror(errno));
		return rc < 0 ? ONLIST_EIO : ONLIST_OK;
	}
	/* "<oid> blob <size> <commit> <kind>\n", or "<oid> missing\n" */
	if (len == 49 && onlist_git_is_hex(line, 40) &&
	    !memcmp(line + 40, " missing\n", 9)) {
		/* One lost message of a damaged mirror: report it and go on,
		 * as an import does with a message it cannot read. */
		char blob[41];

		memcpy(blob, line, 40);
		blob[40] = '\0';
		if (!*commit)
			memset(commit, '0', 40), commit[40] = '\0';
		m.commit = commit;
		m.missing = blob;
		(*answers)++;
		if (cb && cb(&m, data))
			*stop = 1;
		return ONLIST_OK;
	}
	if (len < 41 + 5 + 1 + 1 + 43 || line[len - 1] != '\n' ||
	    !onlist_git_is_hex(line, 40) || memcmp(line + 40, " blob ", 6))
		goto bad;
	size = 0;
	for (p = line + 46; *p >= '0' && *p <= '9'; p++) {
		if (size > (SIZE_MAX - 10) / 10)
			goto bad;
		size = size * 10 + (size_t)(*p - '0');
	}
	/* "<commit> <kind> <committer time>\n" follow */
	if (p == line + 46 || *p != ' ' || line + len - (p + 1) < 45 ||
	    !onlist_git_is_hex(p + 1, 40) || p[41] != ' ' ||
	    (p[42] != 'm' && p[42] != 'd') || p[43] != ' ' ||
	    strspn(p + 44, "0123456789") != (size_t)(line + len - 1 - (p + 44)) ||
	    line + len - 1 - (p + 44) > 18)
		goto bad;
	m.time = strtoll(p + 44, NULL, 10);
	memcpy(commit, p + 1, 40);
	commit[40] = '\0';
	kind = p[42];
	/* the buffer may move: nothing above points into it from here */
	if (size == SIZE_MAX ||
	    (rc = onlist_git_reader_need(r, size + 1)) < 0) {
		onlist_set_err(msg, "reading from git cat-file: %s",
			size == SIZE_MAX ? "message too large" : strerror(errno));
		return errno == ENOMEM ? ONLIST_ENOMEM : ONLIST_EIO;
	}
	if (!rc || r->buf[r->pos + size] != '\n') {
		onlist_set_err(msg, "git cat-file output ended inside the "
			       "message of commit %s", commit);
		return ONLIST_EGIT;
	}
	m.commit = commit;
	/* public-inbox-purge leaves an empty `m` where the message was */
	if (kind == 'm' && size) {
		m.data = r->buf + r->pos;
		m.len = size;
	} else {
		m.deleted = 1;
	}
	(*answers)++;
	if (cb && cb(&m, data))
		*stop = 1;
	r->pos += size + 1;
	return ONLIST_OK;
bad:
	onlist_set_err(msg, "unexpected output from git cat-file: %.*s",
		(int)(len > 100 ? 100 : len - 1), line);
	return ONLIST_EGIT;
}

onlist_status onlist_pi_epoch_walk(const char *gitdir, const char *branch,
				     const char *since, onlist_epoch_cb cb,
				     void *data, char **last, char **errmsg)
{
	struct walk w = { 0 };
	struct onlist_git_reader cr = { 0 };
	char ids[2][41], range[2 * 41 + 2], commit[41] = "";
	pthread_t wt;
	int wok = 0, stop = 0, done = 0, lrc = 0, crc = 0;
	size_t answers = 0;
	onlist_status st;
	char *gd = NULL, *catmsg = NULL, *logmsg = NULL, *gitmsg = NULL;

	if (errmsg)
		*errmsg = NULL;
	if (last)
		*last = NULL;
	w.log = w.cat = (struct onlist_git)ONLIST_GIT_INIT;
	if (!branch || !*branch)
		branch = "master";
	if (since && !*since)
		since = NULL;
	if (!gitdir || !*gitdir) {
		onlist_set_err(errmsg, "no repository given");
		return ONLIST_EUSAGE;
	}
	if (branch[0] == '-' || (since && since[0] == '-')) {
		onlist_set_err(errmsg, "revision must not begin with '-': %s",
			branch[0] == '-' ? branch : since);
		return ONLIST_EUSAGE;
	}

	/* Resolve both first: an epoch nobody has written to yet has no
	 * branch (nothing to walk), while a `since` that is gone means the
	 * history was rewritten (public-inbox-purge) and the caller must
	 * walk it all again. */
	if ((st = resolve_commit(gitdir, branch, ids[0], errmsg)) != ONLIST_OK)
		return st;
	if (!ids[0][0])
		return ONLIST_OK;
	if (since) {
		if ((st = resolve_commit(gitdir, since, ids[1], errmsg)) !=
		    ONLIST_OK)
			return st;
		if (!ids[1][0]) {
			onlist_set_err(errmsg, "no commit %s (was the history "
				"rewritten?)", since);
			return ONLIST_ENOTFOUND;
		}
	}
	if (since)
		snprintf(range, sizeof range, "%s..%s", ids[1], ids[0]);
	else
		snprintf(range, sizeof range, "%s", ids[0]);

	if (asprintf(&gd, "--git-dir=%s", gitdir) < 0) {
		st = ONLIST_ENOMEM;
		goto out;
	}
	{
		/* plumbing's settings for porcelain's log: nothing from the
		 * user's configuration changes what it prints */
		const char *log_args[] = {
			gd, "log", "--reverse", "--raw", "--no-abbrev",
			"--no-renames", "--root", "--no-color", "--no-relative",
			"--no-show-signature", "--no-notes", "--format=%x01%H %ct",
			range, "--", NULL
		};
		const char *cat_args[] = {
			gd, "cat-file", CAT_FORMAT, "--buffer", NULL
		};
		if ((st = onlist_git_start(&w.log, ".", log_args,
					   ONLIST_GIT_CLEAN, NULL, 0,
					   errmsg)) != ONLIST_OK)
			goto out;
		if ((st = onlist_git_start(&w.cat, ".", cat_args,
					   ONLIST_GIT_STDIN | ONLIST_GIT_CLEAN,
					   NULL, 0, errmsg)) != ONLIST_OK)
			goto out;
	}
	if (onlist_git_reader_init(&w.lr, w.log.out) < 0 ||
	    onlist_git_reader_init(&cr, w.cat.out) < 0) {
		st = ONLIST_ENOMEM;
		goto out;
	}
	if (pthread_create(&wt, NULL, walk_writer, &w) != 0) {
		onlist_set_err(errmsg, "cannot start a thread");
		st = ONLIST_ENOMEM;
		goto out;
	}
	wok = 1;
	while (!stop && !done && st == ONLIST_OK)
		st = walk_one(&cr, cb, data, commit, &stop, &done, &answers,
			      &catmsg);
out:
	/* on an early stop, closing cat-file's output ends it (SIGPIPE),
	 * which ends the writer, which ends the log */
	onlist_git_close_out(&w.cat);
	if (wok)
		pthread_join(wt, NULL);
	else
		onlist_git_close_in(&w.cat);
	if (w.log.pid > 0)
		lrc = onlist_git_wait(&w.log, &logmsg);
	else
		onlist_git_close_out(&w.log);
	if (w.cat.pid > 0)
		crc = onlist_git_wait(&w.cat, &gitmsg);
	/* Who failed first?  A git that exited on its own said why; the
	 * others then died of the pipes we closed (a signal), or stopped. */
	if (!stop) {
		if (lrc > 0 || crc > 0) {
			st = ONLIST_EGIT;
			onlist_set_err(errmsg, "%s", lrc > 0 ? logmsg : gitmsg);
		} else if (w.st != ONLIST_OK) {
			st = w.st;
			onlist_set_err(errmsg, "%s", w.err ? w.err : "");
		} else if (st != ONLIST_OK) {
			onlist_set_err(errmsg, "%s", catmsg ? catmsg
						     : onlist_status_str(st));
		} else if (lrc || crc) {
			st = ONLIST_EGIT;
			onlist_set_err(errmsg, "%s", lrc ? logmsg : gitmsg);
		} else if (answers != w.requests) {
			st = ONLIST_EGIT;
			onlist_set_err(errmsg, "git cat-file answered %zu of "
				       "%zu requests", answers, w.requests);
		}
	} else {
		st = ONLIST_OK;
	}
	if (st != ONLIST_OK) {
		onlist_set_err(errmsg, "%s", onlist_status_str(st));
	} else if (last) {
		const char *l = stop ? commit : w.last;
		if (*l && !(*last = strdup(l)))
			st = ONLIST_ENOMEM;
	}
	free(gd);
	free(w.err);
	free(catmsg);
	free(logmsg);
	free(gitmsg);
	onlist_git_reader_release(&w.lr);
	onlist_git_reader_release(&cr);
	return st;
}

int onlist_pi_manifest_epochs(const char *path)
{
	/* a window of the text at a time; the last bytes are carried over
	 * so that a key cut at the window's edge is still seen */
	enum { WINDOW = 65536, CARRY = 32 };
	char *buf = malloc(WINDOW + CARRY + 1);
	size_t keep = 0;
	int n = 0, got;
	gzFile gz;

	if (!buf)
		return -1;
	if (!(gz = gzopen(path, "rb"))) {
		free(buf);
		return -1;
	}
	while ((got = gzread(gz, buf + keep, WINDOW)) > 0) {
		size_t len = keep + (size_t)got;
		char *p = buf;

		buf[len] = '\0';
		while ((p = memmem(p, len - (size_t)(p - buf), "/git/", 5))) {
			char *end;
			long v = strtol(p + 5, &end, 10);

			if (end > p + 5 && !strncmp(end, ".git\"", 5) &&
			    v >= 0 && v < 1000000 && v + 1 > n)
				n = (int)v + 1;
			p += 5;
		}
		keep = len < CARRY ? len : CARRY;
		memmove(buf, buf + len - keep, keep);
	}
	if (got < 0)
		n = -1;		/* not gzip, or cut short */
	gzclose(gz);
	free(buf);
	return n;
}

char *onlist_pi_manifest_inboxes(const char *path)
{
	GString *all = g_string_new(""), *out = g_string_new("");
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal,
						 g_free, NULL);
	char buf[65536];
	int got;
	gzFile gz;

	if (!(gz = gzopen(path, "rb"))) {
		got = -1;
		goto out;
	}
	/* a manifest is a few hundred bytes per epoch: a bound keeps a
	 * hostile one from filling memory */
	while ((got = gzread(gz, buf, sizeof(buf))) > 0 && all->len < (64u << 20))
		g_string_append_len(all, buf, got);
	gzclose(gz);
	for (const char *p = all->str; got >= 0 && (p = strstr(p, "\"/"));) {
		const char *n = p + 2, *e = n, *q;
		char *name;

		while (*e && (g_ascii_isalnum(*e) || strchr(".-_+@", *e)))
			e++;
		p = e;
		if (e == n || (*e != '/' && *e != '"'))
			continue;
		/* a key, not a value: its closing quote is followed by ':' */
		if (!(q = strchr(e, '"')) || q[1] != ':')
			continue;
		name = g_strndup(n, (size_t)(e - n));
		if (g_hash_table_add(seen, name))
			g_string_append_printf(out, "%s%s", out->len ? ", " : "", name);
	}
out:
	g_hash_table_destroy(seen);
	g_string_free(all, TRUE);
	if (got < 0) {
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
}
