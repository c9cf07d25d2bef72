/* repo_scan.c - the commits of a range, with their patch-ids, read out of
 * git (see repo_scan.h); git.c starts the gits, as every git onlist runs,
 * and repo_commit.c reads the text of each commit they print.
 *
 * A scan is `git rev-list` (shas kept as 20-byte values, nothing else),
 * then `jobs` long-lived `git diff-tree --stdin -p` children.  Each round's
 * shas are split across them; per child a writer thread feeds shas and a
 * reader thread parses the output, computing the patch-id line by line, so
 * no diff is ever held whole and at most two rounds of parsed commits are
 * in memory.  The caller's callbacks run on its own thread, round by round.
 *
 * A git that cannot read a blob (a snapshot or partial clone without it)
 * prints "fatal: unable to read <blob>" and exits half-way through its
 * share.  Its reader then diffs the commit it was on by itself, once, to
 * learn whether that commit is the culprit and why (the commit before the
 * first incomplete one may be the one that failed without a word), keeps
 * it without a patch-id when it is, and starts a new git on the rest of
 * the share: the writer, parked meanwhile, feeds it from there.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "onlist/buf.h"
#include "onlist/git.h"
#include "onlist/repo_scan.h"
#include "repo_scan_int.h"

#define MAX_DEFAULT_JOBS	16	/* more gits than this only contend for I/O */
#define MAX_JOBS	64
#define DEFAULT_BATCH	512

/* Each commit starts with a \001 byte, which no diff line can start with
 * (they start with ' ', '+', '-', '@', '\\' or a header word); the fields
 * are NUL-separated because a message may hold any other byte.  The first
 * %(trailers) is git's own parse of the trailers, the second the trailer
 * block as written, used to tell whether the body says anything else. */
#define DIFF_TREE_FORMAT "--format=%x01%H%x00%an%x00%ae%x00%at%x00" \
	"%cn%x00%ce%x00%ct%x00%s%x00%b%x00" \
	"%(trailers:only,unfold)%x00%(trailers)%x00"

enum {
	F_SHA, F_AN, F_AE, F_AT, F_CN, F_CE, F_CT, F_SUBJECT, F_BODY,
	F_TRAILERS, F_RAWTRAILERS, NFIELDS
};

/* The diff format-patch writes: rename detection on (diff.renames defaults
 * to true for porcelain), blob ids in full (format-patch's --binary implies
 * them, and patch-id hashes a binary file's ids as written), default
 * algorithm, indent heuristic, context and prefixes.  `git patch-id` reads
 * "Binary files ... differ" and "GIT binary patch" alike, so the literal
 * binary data format-patch adds is not needed. */
static const char *const diff_tree_args[] = {
	"diff-tree", "--stdin", "-r", "-p", "-M", "--full-index", "--root",
	"--always", "--no-color", "--no-ext-diff", "--no-textconv",
	"--indent-heuristic", "--diff-algorithm=myers", "-U3",
	"--src-prefix=a/", "--dst-prefix=b/", DIFF_TREE_FORMAT, NULL
};
/* A diff may make git fetch a blob from a promisor remote: it must fail
 * rather than wait for a password on a terminal. */
#define DIFF_TREE_FLAGS (ONLIST_GIT_STDIN | ONLIST_GIT_TUNED | ONLIST_GIT_NET)

/* ---- rev-list ---- */

/* Run rev-list over `range` and hand every sha to fn, which returns
 * ONLIST_OK to go on. */
static onlist_status rev_list_each(const char *repo, const char *range,
				   onlist_status (*fn)(const char *hex, void *),
				   void *data, char **errmsg)
{
	/* "--" after the range: an unknown revision is then reported as
	 * "bad revision 'X'" rather than taken for a path */
	const char *args[] = {
		"rev-list", "--no-merges", "--end-of-options", range, "--", NULL
	};
	struct onlist_git ch;
	struct onlist_git_reader r = { 0 };
	onlist_status st;
	char *line, *msg = NULL;
	size_t len;
	int rc, ret;

	if ((st = onlist_git_check_range(repo, range, errmsg)) != ONLIST_OK)
		return st;
	st = onlist_git_start(&ch, repo, args, 0, NULL, 0, errmsg);
	if (st != ONLIST_OK)
		return st;
	if (onlist_git_reader_init(&r, ch.out) < 0) {
		st = ONLIST_ENOMEM;
		goto out;
	}
	while ((rc = onlist_git_reader_next(&r, '\n', &line, &len)) == 1) {
		if (len != ONLIST_PATCHID_HEXSZ + 1 || line[len - 1] != '\n' ||
		    !onlist_git_is_hex(line, len - 1)) {
			st = ONLIST_EGIT;
			onlist_set_err(&msg, len == 65 ?
				"SHA-256 repositories are not supported" :
				"unexpected output from git rev-list: %.*s",
				(int)(len > 80 ? 80 : len), line);
			break;
		}
		line[len - 1] = '\0';
		if ((st = fn(line, data)) != ONLIST_OK)
			break;
	}
	if (rc < 0 && st == ONLIST_OK) {
		st = ONLIST_EIO;
		onlist_set_err(&msg, "reading from git rev-list: %s",
			       strerror(errno));
	}
out:
	/* on an early stop, closing our end makes git exit */
	ret = onlist_git_wait(&ch, st == ONLIST_OK ? errmsg : NULL);
	if (st == ONLIST_OK && ret)
		st = ONLIST_EGIT;
	if (msg) {
		if (errmsg && !*errmsg)
			*errmsg = msg;
		else
			free(msg);
	}
	onlist_git_reader_release(&r);
	return st;
}

struct hexlist {
	char (*v)[41];
	size_t n, alloc;
};

static onlist_status add_hex(const char *hex, void *data)
{
	struct hexlist *l = data;

	if (l->n == l->alloc) {
		char (*nv)[41] = onlist_grow(l->v, &l->alloc, sizeof *nv, 1024);
		if (!nv)
			return ONLIST_ENOMEM;
		l->v = nv;
	}
	memcpy(l->v[l->n++], hex, 41);
	return ONLIST_OK;
}

onlist_status onlist_repo_scan_rev_list(const char *repo, const char *range,
				   char (**out)[41], size_t *n, char **errmsg)
{
	struct hexlist l = { 0 };
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	*out = NULL;
	*n = 0;
	st = rev_list_each(repo, range, add_hex, &l, errmsg);
	if (st != ONLIST_OK) {
		free(l.v);
		return st;
	}
	*out = l.v;
	*n = l.n;
	return ONLIST_OK;
}

/* ---- a public-inbox epoch is mail, not a project ---- */

/* How many of a range's newest commits are looked at. */
#define EPOCH_PROBE 20

struct epoch_probe {
	int commits;		/* seen */
	int mail;		/* of them, touching only mail files */
	int cur;		/* the current commit: -1 none yet, 0 no, 1 so
				 * far only mail files */
};

/* A file of a public-inbox repository: v2's "m" (the message) or "d" (a
 * deleted one); v1's "xx/<38 hex>" (the SHA-1 of the Message-ID). */
static int mail_file(const char *p, size_t n)
{
	if (n == 1)
		return *p == 'm' || *p == 'd';
	return n == 41 && p[2] == '/' && onlist_git_is_hex(p, 2) &&
	       onlist_git_is_hex(p + 3, 38);
}

static void probe_end(struct epoch_probe *e)
{
	if (e->cur >= 0) {
		e->commits++;
		e->mail += e->cur == 1;
	}
}

static onlist_status probe_line(char *rec, size_t len, void *data)
{
	struct epoch_probe *e = data;

	if (len && rec[len - 1] == '\n')
		rec[--len] = '\0';
	if (len == 1 && rec[0] == '\001') {	/* a commit begins */
		probe_end(e);
		e->cur = 2;	/* no file yet */
		return ONLIST_OK;
	}
	if (!len || e->cur < 0)
		return ONLIST_OK;
	if (!mail_file(rec, len))
		e->cur = 0;
	else if (e->cur == 2)
		e->cur = 1;
	return ONLIST_OK;
}

onlist_status onlist_repo_scan_looks_like_inbox(const char *repo, const char *range,
					   int *yes, char **errmsg)
{
	char n[16];
	const char *args[] = {
		"log", n, "--no-merges", "--no-renames", "--format=%x01",
		"--name-only", "--end-of-options", range, "--", NULL
	};
	struct epoch_probe e = { 0, 0, -1 };
	onlist_status st;

	*yes = 0;
	if ((st = onlist_git_check_range(repo, range, errmsg)) != ONLIST_OK)
		return st;
	snprintf(n, sizeof(n), "-n%d", EPOCH_PROBE);
	st = onlist_git_records(repo, args, 0, NULL, 0, '\n', probe_line, &e,
				errmsg);
	if (st != ONLIST_OK)
		return st;
	probe_end(&e);
	/* every one of them (a project with a file named "m" has others) */
	*yes = e.commits > 0 && e.mail == e.commits;
	return ONLIST_OK;
}


struct scan;

/* One git diff-tree process, alive for the whole scan, with a writer thread
 * feeding it shas and a reader thread parsing its output.  A process per
 * round would spend most of its time warming up (measured on curl.git with
 * 512-commit rounds: 3 times the work of one long process, as every new
 * process re-inflates the same delta chains and re-faults the pack). */
struct job {
	struct scan *sc;
	int idx;
	struct onlist_git ch;
	struct onlist_git_reader r;
	int live;
	pthread_t wt, rt;
	int wok, rok;
	size_t rounds_done;	/* guarded by sc->mu */
	int failed;		/* guarded by sc->mu; then st and err say why */
	onlist_status st;
	char *err;
	int ended;		/* reader: git's output ended before its time */
	/* Guarded by sc->mu.  While the writer is parked the reader owns ch
	 * and may replace a git that died; gen counts the replacements, and
	 * the writer goes on at resume_at in round resume_round. */
	int parked, rdone;
	unsigned gen;
	size_t resume_round, resume_at;
};

/* The job's first error, its status and message (onlist_vfail()). */
static onlist_status fail(struct job *j, onlist_status st, const char *fmt,
			  ...)
{
	va_list ap;

	if (j->st == ONLIST_OK) {
		j->st = st;
		va_start(ap, fmt);
		onlist_vfail(&j->err, st, fmt, ap);
		va_end(ap);
	}
	return st;
}

/* Read one commit's header: NFIELDS NUL-terminated fields, then the end of
 * the line. */
static onlist_status read_header(struct job *j, struct onlist_git_reader *r,
				 struct onlist_commit *c, const char *want)
{
	char *f[NFIELDS] = { 0 };
	char *rec;
	size_t len;
	int i, rc;
	onlist_status st = ONLIST_OK;

	for (i = 0; i < NFIELDS; i++) {
		if ((rc = onlist_git_reader_next(r, '\0', &rec, &len)) < 0) {
			st = fail(j, ONLIST_EIO, "reading from git diff-tree: %s",
				  strerror(errno));
			goto out;
		}
		if (rc == 0 || rec[len - 1] != '\0') {
			/* git died here: the caller decides (no fail()) */
			j->ended = 1;
			st = ONLIST_EGIT;
			goto out;
		}
		if (!(f[i] = malloc(len))) {
			st = fail(j, ONLIST_ENOMEM, "out of memory");
			goto out;
		}
		memcpy(f[i], rec, len);
	}
	if (f[F_SHA][0] != '\001' || strlen(f[F_SHA]) != 41 ||
	    memcmp(f[F_SHA] + 1, want, 40)) {
		st = fail(j, ONLIST_EGIT, "git diff-tree gave %.41s for %s",
			  f[F_SHA] + (f[F_SHA][0] == '\001'), want);
		goto out;
	}
	/* the rest of the header line: just its newline */
	if ((rc = onlist_git_reader_next(r, '\n', &rec, &len)) < 0) {
		st = fail(j, ONLIST_EIO, "reading from git diff-tree: %s",
			  strerror(errno));
		goto out;
	}
	memcpy(c->sha, want, 41);
	c->author_date = strtoll(f[F_AT], NULL, 10);
	c->commit_date = strtoll(f[F_CT], NULL, 10);
	c->author_name = f[F_AN];
	c->author_email = f[F_AE];
	c->committer_name = f[F_CN];
	c->committer_email = f[F_CE];
	c->subject = f[F_SUBJECT];
	c->body = f[F_BODY];
	f[F_AN] = f[F_AE] = f[F_CN] = f[F_CE] = f[F_SUBJECT] = f[F_BODY] = NULL;
	if (onlist__commit_trailers(c, f[F_TRAILERS], f[F_RAWTRAILERS]) < 0)
		st = fail(j, ONLIST_ENOMEM, "out of memory");
out:
	for (i = 0; i < NFIELDS; i++)
		free(f[i]);
	return st;
}

/* One commit: its header, then its diff (or with `names`, the paths of
 * `--name-only`) up to the next commit, the end of the round or the end
 * of git's output; at that end j->ended is set. */
static onlist_status read_commit(struct job *j, struct onlist_git_reader *r,
				 struct onlist__commit_parse *ps, struct onlist_commit *c,
				 const char *want, int names)
{
	onlist_status st;
	char *line;
	size_t len;
	int ch;

	if ((st = read_header(j, r, c, want)) != ONLIST_OK)
		return st;
	onlist__commit_start(ps);
	/* up to the next commit, or the end of the round */
	while ((ch = onlist_git_reader_peek(r)) >= 0 && ch != '\001' &&
	       ch != '\002') {
		if (onlist_git_reader_next(r, '\n', &line, &len) != 1) {
			ch = -1;
			break;
		}
		if ((names ? onlist__commit_name_line(ps, line, len) :
			     onlist__commit_diff_line(ps, line, len)) < 0)
			return fail(j, ONLIST_ENOMEM, "out of memory");
	}
	if (ch < 0 && !r->eof)
		return fail(j, ONLIST_EIO, "reading from git diff-tree: %s",
			    strerror(errno));
	if (ch < 0)
		j->ended = 1;
	if (onlist__commit_finish(ps, c) < 0)
		return fail(j, ONLIST_ENOMEM, "out of memory");
	return ONLIST_OK;
}

/* Ends each round's input: diff-tree echoes a line that names no object
 * and flushes, so the round's end shows in its output (it flushes after
 * each commit too).  Like \001, no diff line can start with \002. */
#define ROUND_END "\002\n"

/* A scan in flight.  Rounds are consumed in order on the calling thread;
 * each job fills its share of a round into one of two slots, so a job that
 * finished its share may start on the next round while the other job is
 * still busy and the caller's callback runs. */
struct scan {
	unsigned char (*v)[20];	/* every sha to diff, in rev-list order */
	size_t total, batch, nrounds;
	int njobs;
	struct onlist_commit *slot[2];	/* batch commits each */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t open_rounds;	/* jobs may fill rounds below this */
	int cancel;
	const char *repo;	/* for the gits started mid-scan */
	struct job job[MAX_JOBS];
};

static void hex_of(const unsigned char raw[20], char hex[41])
{
	static const char xd[] = "0123456789abcdef";
	int k;

	for (k = 0; k < 20; k++) {
		hex[2 * k] = xd[raw[k] >> 4];
		hex[2 * k + 1] = xd[raw[k] & 15];
	}
	hex[40] = '\0';
}

/* Where job i's share of round r lies in sc->v: [*from, *to).  Contiguous
 * shares: neighbouring commits share trees, which git then finds in its
 * caches.  The last round may have fewer commits than jobs: a job without a
 * share gets nothing, not even the round's end. */
static void share(const struct scan *sc, int i, size_t r, size_t *from,
		  size_t *to)
{
	size_t start = r * sc->batch;
	size_t m = sc->total - start < sc->batch ? sc->total - start : sc->batch;
	size_t nj = (size_t)sc->njobs < m ? (size_t)sc->njobs : m;

	*from = *to = start;
	if ((size_t)i >= nj)
		return;
	*from = start + m * (size_t)i / nj;
	*to = start + m * (size_t)(i + 1) / nj;
}

/* ---- a commit git cannot diff ---- */

/* The first object id in git's message other than the commit's own:
 * "fatal: unable to read <blob>", "fatal: could not fetch <blob> from
 * promisor remote".  "" when it names none. */
static void named_object(const char *msg, const char *sha, char out[41])
{
	const char *p;

	out[0] = '\0';
	for (p = msg; *p; p++) {
		if (p > msg && onlist_git_is_hex(p - 1, 1))
			continue;	/* inside a longer word */
		/* stops at the NUL, which is no hex digit */
		if (onlist_git_is_hex(p, 40) && !onlist_git_is_hex(p + 40, 1) &&
		    memcmp(p, sha, 40)) {
			memcpy(out, p, 40);
			out[40] = '\0';
			return;
		}
	}
}

/* What a git of its own diffs of one commit: from the most to the least
 * it has to read. */
enum one {
	ONE_PATCH,	/* as the scan's gits do: needs every blob */
	ONE_NAMES,	/* the paths: trees only (no renames: they need blobs) */
	ONE_HEADER,	/* the commit alone: rev-list, as diff-tree reads the
			 * trees even when told to print no diff */
};

/* Run `git diff-tree` on commit `sha` alone and parse its output into *c.
 * *ret gets what onlist_git_wait() returned: 0 with *c filled, else *c
 * released and *gitmsg (caller frees) git's message.  Returns ONLIST_OK,
 * or the job's failure (git cannot be started, or said 0 without
 * printing the commit). */
static onlist_status diff_one(struct job *j, struct onlist__commit_parse *ps, enum one how,
			      struct onlist_commit *c, const char *sha,
			      int *ret, char **gitmsg)
{
	static const char *const names_args[] = {
		"diff-tree", "-r", "--name-only", "--no-renames", "--root",
		"--always", "--no-color", DIFF_TREE_FORMAT
	};
	static const char *const header_args[] = {
		"rev-list", "--no-walk", DIFF_TREE_FORMAT
	};
	const char *args[sizeof diff_tree_args / sizeof *diff_tree_args + 1];
	struct onlist_git g;
	struct onlist_git_reader r = { 0 };
	onlist_status st = ONLIST_OK;
	size_t i, n = 0, len;
	char *msg = NULL, *line;
	int complete = 0;

	*ret = 0;
	*gitmsg = NULL;
	onlist_commit_release(c);
	if (how == ONE_PATCH) {
		for (i = 0; diff_tree_args[i]; i++)
			if (strcmp(diff_tree_args[i], "--stdin"))
				args[n++] = diff_tree_args[i];
	} else if (how == ONE_NAMES) {
		for (i = 0; i < sizeof names_args / sizeof *names_args; i++)
			args[n++] = names_args[i];
	} else {
		for (i = 0; i < sizeof header_args / sizeof *header_args; i++)
			args[n++] = header_args[i];
	}
	args[n++] = sha;
	args[n] = NULL;
	st = onlist_git_start(&g, j->sc->repo, args, ONLIST_GIT_NET, NULL, 0,
			      &msg);
	if (st != ONLIST_OK) {
		fail(j, st, "%s", msg ? msg : "cannot run git diff-tree");
		free(msg);
		return st;
	}
	if (onlist_git_reader_init(&r, g.out) < 0)
		st = fail(j, ONLIST_ENOMEM, "out of memory");
	else if (how == ONE_HEADER &&
		 (onlist_git_reader_next(&r, '\n', &line, &len) != 1 ||
		  len < 7 || memcmp(line, "commit ", 7)))
		;	/* rev-list's own "commit <sha>" line is missing */
	else if (onlist_git_reader_peek(&r) == '\001') {
		j->ended = 0;
		/* its output ends after the commit: that end is no error */
		complete = read_commit(j, &r, ps, c, sha,
				       how == ONE_NAMES) == ONLIST_OK;
		st = j->st;
	}
	/* after a failure of ours, closing its stdout ends git */
	*ret = onlist_git_wait(&g, gitmsg);
	onlist_git_reader_release(&r);
	if (st == ONLIST_OK && !*ret && !complete)
		st = fail(j, ONLIST_EGIT, "git diff-tree printed nothing for "
			  "commit %s", sha);
	if (st != ONLIST_OK || *ret)
		onlist_commit_release(c);
	if (st != ONLIST_OK) {
		free(*gitmsg);
		*gitmsg = NULL;
	}
	return st;
}

/* The git of job j ended inside commit k of round r (its output stopped
 * short): it died on k, or on k + 1 before printing anything of it.
 * Diff k alone into *c, with the reason git gives when it cannot; then
 * start a new git and have the writer feed it from k + 1.  Only a failure
 * that names an object (other than the commit) skips the commit: any
 * other (an option this git does not know, a git killed) would fail every
 * commit alike, and fails the scan as it always did.  Returns 0 to go on
 * (reading k + 1 from the new git), 1 when the scan is being stopped
 * (nothing is wrong), -1 on a failure of the job (j->st). */
static int restart(struct job *j, struct onlist__commit_parse *ps, size_t r, size_t k,
		   struct onlist_commit *c, const char *sha)
{
	struct scan *sc = j->sc;
	char *reason = NULL, *msg = NULL, object[41];
	int ret, cancel;
	enum one how;

	/* the writer stops writing to a git that is gone: wait for that,
	 * as j->ch is then ours to replace */
	pthread_mutex_lock(&sc->mu);
	while (!j->parked && !sc->cancel)
		pthread_cond_wait(&sc->cv, &sc->mu);
	cancel = sc->cancel;
	pthread_mutex_unlock(&sc->mu);
	if (cancel)
		return 1;
	if (!onlist_git_wait(&j->ch, NULL)) {
		fail(j, ONLIST_EGIT, "git diff-tree output ended inside "
		     "commit %s", sha);
		return -1;
	}
	for (how = ONE_PATCH; how <= ONE_HEADER; how++) {
		if (diff_one(j, ps, how, c, sha, &ret, &msg) != ONLIST_OK)
			goto fail;
		if (!ret)
			break;
		if (how == ONE_PATCH) {
			named_object(msg, sha, object);
			if (!object[0]) {
				fail(j, ONLIST_EGIT, "%s", msg);
				goto fail;
			}
			reason = msg;	/* the diff's failure: why it is skipped */
			msg = NULL;
		} else if (how == ONE_HEADER) {
			/* not even the commit: nothing to store */
			fail(j, ONLIST_EGIT, "%s", msg);
			goto fail;
		}
		free(msg);
		msg = NULL;
	}
	if (reason) {
		c->skip_reason = reason;
		reason = NULL;
		memcpy(c->skip_object, object, sizeof object);
		c->has_patchid = 0;
		c->patchid[0] = '\0';
	}
	if (onlist_git_start(&j->ch, sc->repo, diff_tree_args, DIFF_TREE_FLAGS,
			     NULL, 0, &msg) != ONLIST_OK) {
		fail(j, ONLIST_EGIT, "%s", msg ? msg : "cannot run git");
		goto fail;
	}
	onlist_git_reader_release(&j->r);
	if (onlist_git_reader_init(&j->r, j->ch.out) < 0) {
		fail(j, ONLIST_ENOMEM, "out of memory");
		goto fail;	/* stop_jobs() ends the new git */
	}
	pthread_mutex_lock(&sc->mu);
	cancel = sc->cancel;
	if (!cancel) {
		j->resume_round = r;
		j->resume_at = k + 1;
		j->gen++;
		j->parked = 0;
		pthread_cond_broadcast(&sc->cv);
	}
	pthread_mutex_unlock(&sc->mu);
	if (cancel)
		onlist_git_close_in(&j->ch);	/* nobody will feed it */
	return cancel;
fail:
	free(reason);
	free(msg);
	return -1;
}

static void *read_job(void *arg)
{
	struct job *j = arg;
	struct scan *sc = j->sc;
	struct onlist__commit_parse ps = { 0 };
	struct onlist_commit *slot, *c;
	char want[41], *line;
	size_t r, k, from, to, len;
	int ch, cancel, quit = 0;

	for (r = 0; r < sc->nrounds; r++) {
		pthread_mutex_lock(&sc->mu);
		while (!sc->cancel && r >= sc->open_rounds)
			pthread_cond_wait(&sc->cv, &sc->mu);
		cancel = sc->cancel;
		pthread_mutex_unlock(&sc->mu);
		if (cancel)
			break;
		share(sc, j->idx, r, &from, &to);
		slot = sc->slot[r % 2];
		for (k = from; k < to; k++) {
			hex_of(sc->v[k], want);
			c = &slot[k - r * sc->batch];
			j->ended = 0;
			ch = onlist_git_reader_peek(&j->r);
			if (ch < 0 && j->r.eof) {
				j->ended = 1;	/* git died before k */
			} else if (ch != '\001') {
				if (ch < 0)
					fail(j, ONLIST_EIO,
					     "reading from git diff-tree: %s",
					     strerror(errno));
				else
					fail(j, ONLIST_EGIT,
					     "unexpected output from git "
					     "diff-tree before commit %s", want);
				break;
			} else if (read_commit(j, &j->r, &ps, c, want, 0) &&
				   j->st != ONLIST_OK) {
				break;
			}
			/* every commit is followed by the next or the
			 * round's end: git died inside this one */
			if (j->ended && (quit = restart(j, &ps, r, k, c, want)))
				break;
		}
		if (quit > 0)
			break;	/* the scan is being stopped */
		if (j->st == ONLIST_OK && from < to &&
		    (onlist_git_reader_next(&j->r, '\n', &line, &len) != 1 ||
		     len != sizeof ROUND_END - 1 ||
		     memcmp(line, ROUND_END, len)))
			fail(j, ONLIST_EGIT, "unexpected output from git "
			     "diff-tree after commit %s", want);
		pthread_mutex_lock(&sc->mu);
		if (j->st != ONLIST_OK)
			j->failed = 1;
		else
			j->rounds_done = r + 1;
		pthread_cond_broadcast(&sc->cv);
		pthread_mutex_unlock(&sc->mu);
		if (j->st != ONLIST_OK)
			break;
	}
	pthread_mutex_lock(&sc->mu);
	j->rdone = 1;		/* the writer waits for no more restarts */
	pthread_cond_broadcast(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
	onlist__commit_parse_release(&ps);
	return NULL;
}

/* Write job j's shas from index `at` of round r on (an `at` before the
 * share: all of it), each round's followed by its end.  0 when all is
 * written, -1 when git is gone. */
static int feed(struct job *j, char *buf, size_t r, size_t at)
{
	struct scan *sc = j->sc;
	size_t k, from, to, len;

	for (; r < sc->nrounds; r++, at = 0) {
		share(sc, j->idx, r, &from, &to);
		if (from == to)
			continue;
		if (at < from)
			at = from;
		for (k = at; k < to; k++) {
			hex_of(sc->v[k], buf + (k - at) * 41);
			buf[(k - at) * 41 + 40] = '\n';
		}
		len = (to - at) * 41;
		memcpy(buf + len, ROUND_END, sizeof ROUND_END - 1);
		len += sizeof ROUND_END - 1;
		if (onlist_git_write_all(j->ch.in, buf, len) < 0)
			return -1;	/* git is gone */
	}
	return 0;
}

/* Feeds every round's shas at once: the pipes hold git back until the
 * reader asks for more, so nothing piles up.  A thread of its own, since
 * git writes its diffs while reading shas and both pipes could fill up.
 * Then it parks, and feeds the git that replaces one that died from where
 * the reader says, until the reader is done or the scan stops. */
static void *write_job(void *arg)
{
	struct job *j = arg;
	struct scan *sc = j->sc;
	sigset_t set;
	char *buf;
	size_t r = 0, at = 0;
	unsigned gen = 0;
	int again;

	/* a git that died early must not take the process down with
	 * SIGPIPE: the reader sees its output end, onlist_git_wait() why */
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	buf = malloc(sc->batch * 41 + sizeof ROUND_END);
	do {
		/* without buf git exits at once; the reader notices */
		if (!buf || !feed(j, buf, r, at))
			onlist_git_close_in(&j->ch);	/* EOF: git exits
							 * after the last round */
		/* a git that is gone is the reader's to wait for and
		 * replace; once a new one is there it must be fed, or
		 * at least see EOF, stopped scan or not */
		pthread_mutex_lock(&sc->mu);
		j->parked = 1;
		pthread_cond_broadcast(&sc->cv);
		while (!sc->cancel && !j->rdone && j->gen == gen)
			pthread_cond_wait(&sc->cv, &sc->mu);
		again = j->gen != gen;
		gen = j->gen;
		r = j->resume_round;
		at = j->resume_at;
		pthread_mutex_unlock(&sc->mu);
	} while (again);
	free(buf);
	return NULL;
}

static onlist_status start_jobs(struct scan *sc, const char *repo,
				char **errmsg)
{
	struct job *j;
	onlist_status st;
	int i;

	for (i = 0; i < sc->njobs; i++) {
		j = &sc->job[i];
		j->sc = sc;
		j->idx = i;
		st = onlist_git_start(&j->ch, repo, diff_tree_args,
				      DIFF_TREE_FLAGS, NULL, 0, errmsg);
		if (st != ONLIST_OK)
			return st;
		j->live = 1;
		if (onlist_git_reader_init(&j->r, j->ch.out) < 0)
			return ONLIST_ENOMEM;
		j->rok = pthread_create(&j->rt, NULL, read_job, j) == 0;
		j->wok = j->rok &&
			 pthread_create(&j->wt, NULL, write_job, j) == 0;
		if (!j->wok) {
			onlist_set_err(errmsg, "cannot start a thread");
			return ONLIST_ENOMEM;
		}
	}
	return ONLIST_OK;
}

/* Stop the threads and every git, and settle the scan's status.  git's own
 * complaint (an exit status) explains more than the short read it caused;
 * a git that died of the SIGPIPE we caused by closing its pipe has nothing
 * to say, and after the caller stopped the scan nothing matters. */
static onlist_status stop_jobs(struct scan *sc, onlist_status st, int stopped,
			       char **errmsg)
{
	char *gitmsg[MAX_JOBS] = { 0 };
	int ret[MAX_JOBS] = { 0 };
	struct job *j;
	int i;

	pthread_mutex_lock(&sc->mu);
	sc->cancel = 1;
	pthread_cond_broadcast(&sc->cv);
	pthread_mutex_unlock(&sc->mu);
	/* a git nobody writes to must see EOF, or its reader waits forever */
	for (i = 0; i < sc->njobs; i++)
		if (!sc->job[i].wok)
			onlist_git_close_in(&sc->job[i].ch);
	for (i = 0; i < sc->njobs; i++) {
		j = &sc->job[i];
		if (j->rok)
			pthread_join(j->rt, NULL);
		/* a writer blocked on a full pipe gets EPIPE once git dies
		 * of its closed stdout */
		onlist_git_close_out(&j->ch);
	}
	for (i = 0; i < sc->njobs; i++) {
		j = &sc->job[i];
		if (j->wok)
			pthread_join(j->wt, NULL);
		if (j->live)
			ret[i] = onlist_git_wait(&j->ch, &gitmsg[i]);
		onlist_git_reader_release(&j->r);
	}
	for (i = 0; i < sc->njobs && !stopped; i++)
		if (ret[i] > 0 && (st == ONLIST_OK || st == ONLIST_EGIT ||
				   st == ONLIST_EIO)) {
			st = ONLIST_EGIT;
			onlist_set_err(errmsg, "%s", gitmsg[i]);
		}
	for (i = 0; i < sc->njobs; i++)
		if (sc->job[i].st != ONLIST_OK) {
			if (st == ONLIST_OK)
				st = sc->job[i].st;
			onlist_set_err(errmsg, "%s",
				       sc->job[i].err ? sc->job[i].err : "");
		}
	for (i = 0; i < sc->njobs; i++) {
		if (ret[i] && st == ONLIST_OK && !stopped) {
			st = ONLIST_EGIT;
			onlist_set_err(errmsg, "%s", gitmsg[i]);
		}
		free(gitmsg[i]);
		free(sc->job[i].err);
	}
	return st;
}

/* Wait until every job has filled round r; ONLIST_OK, or the failure of a
 * job (stop_jobs() then finds the best explanation). */
static onlist_status wait_round(struct scan *sc, size_t r)
{
	onlist_status st = ONLIST_OK;
	int i, ready;

	pthread_mutex_lock(&sc->mu);
	for (;;) {
		/* a job that failed on a later round still delivers this one */
		ready = 1;
		for (i = 0; i < sc->njobs; i++)
			if (sc->job[i].rounds_done <= r)
				ready = 0;
		for (i = 0; i < sc->njobs && !ready; i++)
			if (sc->job[i].failed && st == ONLIST_OK)
				st = sc->job[i].st;
		if (st != ONLIST_OK || ready)
			break;
		pthread_cond_wait(&sc->cv, &sc->mu);
	}
	pthread_mutex_unlock(&sc->mu);
	return st;
}

static int unhex(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

static void raw_of(const char *hex, unsigned char raw[20])
{
	size_t i;

	for (i = 0; i < 20; i++)
		raw[i] = (unsigned char)(unhex(hex[2 * i]) << 4 |
					 unhex(hex[2 * i + 1]));
}

/* ---- the list of a range ---- */

struct onlist_scan_list {
	unsigned char (*v)[20];	/* every non-merge commit, rev-list order */
	size_t n, alloc;
	unsigned char (*sorted)[20];	/* the same, sorted: for _has() */
};

/* Keep every sha as 20 bytes: the list of a big history is all a scan
 * holds of it at once. */
static onlist_status keep_sha(const char *hex, void *data)
{
	struct onlist_scan_list *l = data;

	if (l->n == l->alloc) {
		unsigned char (*nv)[20] = onlist_grow(l->v, &l->alloc,
						      sizeof *nv, 4096);
		if (!nv)
			return ONLIST_ENOMEM;
		l->v = nv;
	}
	raw_of(hex, l->v[l->n++]);
	return ONLIST_OK;
}

onlist_status onlist_repo_scan_list(struct onlist_scan_list **out,
				    const char *repo, const char *range,
				    char **errmsg)
{
	struct onlist_scan_list *l;
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	*out = NULL;
	if (!(l = calloc(1, sizeof *l)))
		return ONLIST_ENOMEM;
	st = rev_list_each(repo, range, keep_sha, l, errmsg);
	if (st != ONLIST_OK) {
		onlist_repo_scan_list_free(l);
		return st;
	}
	*out = l;
	return ONLIST_OK;
}

size_t onlist_repo_scan_list_count(const struct onlist_scan_list *l)
{
	return l ? l->n : 0;
}

static int cmp_raw(const void *a, const void *b)
{
	return memcmp(a, b, 20);
}

int onlist_repo_scan_list_has(struct onlist_scan_list *l, const char *sha)
{
	unsigned char key[20];

	if (!l || strlen(sha) != 40 || !onlist_git_is_hex(sha, 40))
		return 0;
	if (!l->sorted && l->n) {
		if (!(l->sorted = malloc(l->n * sizeof *l->sorted)))
			return -1;
		memcpy(l->sorted, l->v, l->n * sizeof *l->sorted);
		qsort(l->sorted, l->n, sizeof *l->sorted, cmp_raw);
	}
	raw_of(sha, key);
	return l->n && bsearch(key, l->sorted, l->n, sizeof *l->sorted,
			       cmp_raw) != NULL;
}

void onlist_repo_scan_list_free(struct onlist_scan_list *l)
{
	if (!l)
		return;
	free(l->v);
	free(l->sorted);
	free(l);
}

/* The probe of onlist_repo_scan_looks_like_inbox() on the newest
 * EPOCH_PROBE commits of the list: one diff-tree of those, not a walk of
 * the whole range of its own.  --always: an empty commit shows as one,
 * as `git log` shows it. */
onlist_status onlist_repo_scan_list_inbox(const struct onlist_scan_list *l,
					  const char *repo, int *yes,
					  char **errmsg)
{
	const char *args[] = {
		"diff-tree", "--stdin", "-r", "--root", "--always",
		"--no-renames", "--no-color", "--name-only", "--format=%x01",
		NULL
	};
	char input[EPOCH_PROBE * 41];
	struct epoch_probe e = { 0, 0, -1 };
	size_t i, n = l->n < EPOCH_PROBE ? l->n : EPOCH_PROBE;
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	*yes = 0;
	if (!n)
		return ONLIST_OK;
	for (i = 0; i < n; i++) {
		hex_of(l->v[i], input + i * 41);
		input[i * 41 + 40] = '\n';
	}
	st = onlist_git_records(repo, args, 0, input, n * 41, '\n',
				probe_line, &e, errmsg);
	if (st != ONLIST_OK)
		return st;
	probe_end(&e);
	*yes = e.commits > 0 && e.mail == e.commits;
	return ONLIST_OK;
}

/* ---- the scan ---- */

/* Diff the n commits at v (rev-list order; v is the scan's, freed by the
 * caller) and hand them to opts->each round by round. */
static onlist_status scan_shas(const char *repo, unsigned char (*v)[20],
			       size_t n, const struct onlist_scan_opts *opts,
			       char **errmsg)
{
	struct scan *sc = NULL;
	struct onlist_commit *c;
	size_t r, i, m, done = 0;
	int jobs, stop = 0;
	onlist_status st;

	if (!(sc = calloc(1, sizeof *sc)))
		return ONLIST_ENOMEM;
	sc->v = v;
	sc->repo = repo;
	sc->total = n;
	sc->batch = opts->batch ? opts->batch : DEFAULT_BATCH;
	if (sc->batch > n)
		sc->batch = n;
	sc->nrounds = (n + sc->batch - 1) / sc->batch;
	if (opts->jobs > 0) {
		jobs = opts->jobs;
	} else {
		/* one git per CPU: the diffs are the scan's cost */
		long np = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = np < 1 ? 1 : np > MAX_DEFAULT_JOBS ? MAX_DEFAULT_JOBS
							  : (int)np;
	}
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	sc->njobs = (size_t)jobs > sc->batch ? (int)sc->batch : jobs;
	sc->open_rounds = 2;
	for (i = 0; i < MAX_JOBS; i++)
		sc->job[i].ch = (struct onlist_git)ONLIST_GIT_INIT;
	pthread_mutex_init(&sc->mu, NULL);
	pthread_cond_init(&sc->cv, NULL);
	sc->slot[0] = calloc(sc->batch, sizeof **sc->slot);
	sc->slot[1] = calloc(sc->batch, sizeof **sc->slot);
	if (!sc->slot[0] || !sc->slot[1])
		st = ONLIST_ENOMEM;
	else
		st = start_jobs(sc, repo, errmsg);

	for (r = 0; r < sc->nrounds && st == ONLIST_OK && !stop; r++) {
		if ((st = wait_round(sc, r)) != ONLIST_OK)
			break;
		c = sc->slot[r % 2];
		m = n - r * sc->batch < sc->batch ? n - r * sc->batch
						  : sc->batch;
		for (i = 0; i < m; i++) {
			if (!stop && opts->each &&
			    opts->each(&c[i], opts->each_data))
				stop = 1;
			onlist_commit_release(&c[i]);
		}
		/* this slot may take round r + 2 now */
		pthread_mutex_lock(&sc->mu);
		sc->open_rounds = r + 3;
		pthread_cond_broadcast(&sc->cv);
		pthread_mutex_unlock(&sc->mu);
		done += m;
		if (!stop && opts->round_done &&
		    opts->round_done(done, n, opts->each_data))
			stop = 1;
	}
	st = stop_jobs(sc, st, stop, errmsg);
	for (i = 0; i < sc->batch; i++) {
		if (sc->slot[0])
			onlist_commit_release(&sc->slot[0][i]);
		if (sc->slot[1])
			onlist_commit_release(&sc->slot[1][i]);
	}
	free(sc->slot[0]);
	free(sc->slot[1]);
	pthread_cond_destroy(&sc->cv);
	pthread_mutex_destroy(&sc->mu);
	free(sc);
	return st;
}

onlist_status onlist_repo_scan_listed(const char *repo,
				      const struct onlist_scan_list *l,
				      const struct onlist_scan_opts *opts,
				      size_t *diffed, char **errmsg)
{
	static const struct onlist_scan_opts defaults = ONLIST_SCAN_OPTS_INIT;
	unsigned char (*v)[20] = NULL, *known = NULL;
	char hex[41];
	size_t i, n = 0;
	onlist_status st = ONLIST_OK;

	if (errmsg)
		*errmsg = NULL;
	if (diffed)
		*diffed = 0;
	if (!opts)
		opts = &defaults;
	/* the commits the caller does not know yet, in the list's order: the
	 * list itself when it knows none (a first scan of a long history
	 * holds one list, not two) */
	if (l->n && !(known = calloc(l->n, 1)))
		return ONLIST_ENOMEM;
	for (i = 0; i < l->n; i++) {
		hex_of(l->v[i], hex);
		known[i] = opts->known && opts->known(hex, opts->known_data);
		n += !known[i];
	}
	if (n && n < l->n) {
		if (!(v = malloc(n * sizeof *v))) {
			free(known);
			return ONLIST_ENOMEM;
		}
		for (i = 0, n = 0; i < l->n; i++)
			if (!known[i])
				memcpy(v[n++], l->v[i], 20);
	}
	free(known);
	if (n)
		st = scan_shas(repo, v ? v : l->v, n, opts, errmsg);
	if (diffed)
		*diffed = n;
	free(v);
	return st;
}

onlist_status onlist_repo_scan(const char *repo, const char *range,
			       const struct onlist_scan_opts *opts,
			       char **errmsg)
{
	struct onlist_scan_list *l;
	onlist_status st;

	if ((st = onlist_repo_scan_list(&l, repo, range, errmsg)) != ONLIST_OK)
		return st;
	st = onlist_repo_scan_listed(repo, l, opts, NULL, errmsg);
	onlist_repo_scan_list_free(l);
	return st;
}

/* ---- what a range is: has it changed since the last scan? ---- */

onlist_status onlist_repo_scan_resolve(const char *repo, const char *range,
				       char **out, char **errmsg)
{
	/* "--": a name that is no revision is an error, not a path */
	const char *args[] = { "rev-parse", "--revs-only", range, "--", NULL };
	struct onlist_buf b = ONLIST_BUF_INIT;
	char *text = NULL, *p, *nl;
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	*out = NULL;
	if ((st = onlist_git_check_range(repo, range, errmsg)) != ONLIST_OK)
		return st;
	st = onlist_git_capture(repo, args, 0, &text, NULL, NULL, errmsg);
	if (st != ONLIST_OK)
		return st;
	if (onlist_buf_add(&b, repo, strlen(repo)) < 0)
		goto nomem;
	/* every line an object id, "^" before an excluded one */
	for (p = text; *p; p = nl + 1) {
		size_t neg = *p == '^';

		if (!(nl = strchr(p, '\n')) || nl - p != 40 + (long)neg ||
		    !onlist_git_is_hex(p + neg, 40)) {
			st = onlist_fail(errmsg, ONLIST_EGIT, "unexpected output "
					 "from git rev-parse of %s", range);
			goto out;
		}
		if (onlist_buf_add(&b, "\n", 1) < 0 ||
		    onlist_buf_add(&b, p, (size_t)(nl - p)) < 0)
			goto nomem;
	}
	if (onlist_buf_add(&b, "", 1) < 0)
		goto nomem;
	*out = b.data;
	b.data = NULL;
	goto out;
nomem:
	st = ONLIST_ENOMEM;
out:
	onlist_buf_release(&b);
	free(text);
	return st;
}

/* The one positive revision of a resolved range ("REPO\nTIP\n^X..."),
 * where its negative part starts, and whether it is the only one. */
static int one_tip(const char *r, char tip[41], const char **neg)
{
	const char *p = strchr(r, '\n');

	if (!p || p[1] == '^' || !p[1])
		return 0;
	memcpy(tip, p + 1, 40);
	tip[40] = '\0';
	*neg = p + 41;		/* "" or "\n^X..." */
	for (p = *neg; *p; p = strchr(p + 1, '\n') ? strchr(p + 1, '\n') : "")
		if (p[1] != '^')
			return 0;
	return 1;
}

struct first_parent {
	char commit[41];	/* the old tip's commit */
	int found;
};

static onlist_status on_line(char *rec, size_t len, void *data)
{
	struct first_parent *fp = data;

	/* "C P1 P2...": P1 is C's first parent */
	if (len >= 81 && rec[40] == ' ' && !memcmp(rec + 41, fp->commit, 40) &&
	    (len == 81 || rec[81] == ' '))
		fp->found = 1;
	return ONLIST_OK;
}

/* Is old on the first-parent line of tip?  Then `old..tip` walks the new
 * mainline commits only, and the oldest of them has old as its first
 * parent. */
static onlist_status on_first_parent_line(const char *repo, const char *old,
					  const char *tip, int *yes,
					  char **errmsg)
{
	char peel[64], range[96], *text = NULL;
	const char *rp[] = { "rev-parse", "--verify", "-q", peel, NULL };
	const char *rl[] = {
		"rev-list", "--first-parent", "--parents", range, "--", NULL
	};
	struct first_parent fp = { "", 0 };
	onlist_status st;

	*yes = 0;
	/* a tag's id names its commit only once peeled */
	snprintf(peel, sizeof peel, "%s^{commit}", old);
	st = onlist_git_capture(repo, rp, 0, &text, NULL, NULL, errmsg);
	if (st != ONLIST_OK)
		return st;
	if (strlen(text) < 40 || !onlist_git_is_hex(text, 40)) {
		free(text);
		return ONLIST_OK;
	}
	memcpy(fp.commit, text, 40);
	free(text);
	snprintf(range, sizeof range, "%s..%s", old, tip);
	st = onlist_git_records(repo, rl, 0, NULL, 0, '\n', on_line, &fp,
				errmsg);
	*yes = st == ONLIST_OK && fp.found;
	return st;
}

onlist_status onlist_repo_scan_landing_plan(const char *repo, const char *last,
					    const char *now, size_t listed,
					    enum onlist_scan_landing *plan,
					    char **range, size_t *before,
					    char **errmsg)
{
	char old[41], tip[41], *end;
	const char *oneg, *nneg, *onl, *nnl;
	int yes;
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	*plan = ONLIST_SCAN_LANDING_WHOLE;
	*range = NULL;
	*before = 0;
	if (!now || !last)
		return ONLIST_OK;
	/* "N\nREPO\n...": N commits, the range */
	*before = strtoul(last, &end, 10);
	if (end == last || *end != '\n')
		return ONLIST_OK;
	last = end + 1;
	if (!strcmp(last, now)) {
		/* the same tips, and as many commits (a shallow clone made
		 * deeper has more behind the same tip) */
		if (*before == listed)
			*plan = ONLIST_SCAN_LANDING_KEPT;
		return ONLIST_OK;
	}
	/* the same repository and the same excluded commits, one tip that
	 * moved: what it brought is what is new */
	onl = strchr(last, '\n');
	nnl = strchr(now, '\n');
	if (!onl || !nnl || onl - last != nnl - now ||
	    memcmp(last, now, (size_t)(onl - last)) ||
	    !one_tip(last, old, &oneg) || !one_tip(now, tip, &nneg) ||
	    strcmp(oneg, nneg))
		return ONLIST_OK;
	if ((st = on_first_parent_line(repo, old, tip, &yes, errmsg)) !=
	    ONLIST_OK || !yes)
		return st;
	if (asprintf(range, "%s..%s", old, tip) < 0) {
		*range = NULL;
		return ONLIST_ENOMEM;
	}
	*plan = ONLIST_SCAN_LANDING_NEW;
	return ONLIST_OK;
}

char *onlist_repo_scan_landing_record(const char *now, size_t listed)
{
	char *r;

	if (asprintf(&r, "%zu\n%s", listed, now ? now : "") < 0)
		return NULL;
	return r;
}
