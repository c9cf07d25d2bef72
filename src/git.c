/* git.c - running git (see git.h): the only place onlist starts a process.
 *
 * Everything that starts git goes through start() below, so that every
 * git gets the same treatment: pinned configuration, an environment
 * without surprises, SIGPIPE at its default, nothing inherited but its
 * three standard descriptors, and its stderr kept for the error message.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "onlist/git.h"

#ifndef P_tmpdir
#define P_tmpdir "/tmp"
#endif

extern char **environ;

#define READ_CHUNK	(256 * 1024)
#define MAX_ERRMSG	(16 * 1024)

/* Settings that change a diff or a message, pinned to git's defaults: they
 * are what the format-patch of whoever mailed a patch most likely used, and
 * plumbing still reads some of them from the user's configuration (measured
 * with git 2.39: diff.indentHeuristic=false, diff.suppressBlankEmpty=true
 * and core.quotePath=false each change `git diff-tree -p`, and patch-ids
 * with it).  The indent heuristic and the algorithm are pinned by the
 * diffing callers' options. */
static const char *const pinned_config[] = {
	"-c", "core.quotePath=true",
	"-c", "diff.suppressBlankEmpty=false",
	"-c", "i18n.logOutputEncoding=UTF-8",
};
#define NPINNED (sizeof pinned_config / sizeof *pinned_config)

/* What a repository must not make git run, whoever wrote its
 * configuration (a mirror another user planted, a scanned repository whose
 * config pulls in a file through include.path): no hooks (git does not
 * apply its "dubious ownership" check to an explicit --git-dir), no
 * file-system monitor (a command git would start when it reads the index).
 * Given on every git's command line, which outranks every file. */
static const char *const safe_config[] = {
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.fsmonitor=false",
};
#define NSAFE (sizeof safe_config / sizeof *safe_config)

/* Not in git.h: only onlist_git_config_get() wants git's view of the
 * configuration unpinned (a pinned key would read back as our value). */
#define GIT_UNPINNED 0x100u

/* The process group of the git started with ONLIST_GIT_GROUP that is
 * running (0: none), for onlist_git_signal_groups() in a signal handler. */
static volatile sig_atomic_t running_group;

void onlist_git_signal_groups(int sig)
{
	pid_t pg = (pid_t)running_group;

	if (pg > 0)
		kill(-pg, sig);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* An unlinked temporary file, close-on-exec: $TMPDIR as POSIX says, else
 * the C library's P_tmpdir. */
static int tmpfile_fd(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (!dir || !*dir)
		dir = P_tmpdir;
	if (asprintf(&path, "%s/onlist-git-XXXXXX", dir) < 0)
		return -1;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}

int onlist_git_write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* For the diffing gits: glibc's malloc otherwise hands memory back to the
 * kernel after each big blob and faults it in again for the next (measured
 * on curl.git with git 2.39: 206k page faults and ~20% more CPU for
 * diff-tree over 11k commits without this, 37k with; same peak RSS).  Only
 * glibc reads it; a GLIBC_TUNABLES the user set wins. */
static const char malloc_tuning[] = "GLIBC_TUNABLES=glibc.malloc.trim_threshold="
	"268435456:glibc.malloc.mmap_threshold=33554432";

/* Variables that would point git at another repository than the one we
 * name: set when onlist runs from inside a git hook, for instance. */
static const char *const repo_vars[] = {
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
	"GIT_NAMESPACE", NULL
};

/* A network git must fail rather than wait for a password nobody will
 * type (stdin is /dev/null, but git asks on the terminal). */
static const char *const net_vars[] = { "GIT_TERMINAL_PROMPT=0", NULL };

static int env_is(const char *entry, const char *name)
{
	size_t n = strcspn(name, "=");

	return !strncmp(entry, name, n) && entry[n] == '=';
}

/* environ with the changes `flags` asks for in *out, or NULL there (then
 * use environ as it is).  A variable we set replaces the caller's: getenv()
 * takes the first of two entries.  Returns -1 when out of memory. */
static int make_environ(unsigned flags, char ***out)
{
	size_t n = 0, k = 0, i, j;
	char **env;
	int drop;

	*out = NULL;
	flags &= ONLIST_GIT_TUNED | ONLIST_GIT_NET | ONLIST_GIT_CLEAN;
	if (flags & ONLIST_GIT_TUNED && getenv("GLIBC_TUNABLES"))
		flags &= ~(unsigned)ONLIST_GIT_TUNED;	/* the user's wins */
	if (!flags)
		return 0;
	while (environ[n])
		n++;
	if (!(env = malloc((n + 8) * sizeof *env)))
		return -1;
	for (j = 0; j < n; j++) {
		drop = 0;
		for (i = 0; flags & ONLIST_GIT_CLEAN && repo_vars[i]; i++)
			drop |= env_is(environ[j], repo_vars[i]);
		for (i = 0; flags & ONLIST_GIT_NET && net_vars[i]; i++)
			drop |= env_is(environ[j], net_vars[i]);
		if (!drop)
			env[k++] = environ[j];
	}
	for (i = 0; flags & ONLIST_GIT_NET && net_vars[i]; i++)
		env[k++] = (char *)net_vars[i];
	if (flags & ONLIST_GIT_TUNED)
		env[k++] = (char *)malloc_tuning;
	env[k] = NULL;
	*out = env;
	return 0;
}

/* The subcommand in args, for messages: the first word that is neither an
 * option nor the value of -c/-C. */
static void name_subcommand(char what[24], const char *const *args)
{
	size_t i;

	for (i = 0; args[i]; i++) {
		if (!strcmp(args[i], "-c") || !strcmp(args[i], "-C")) {
			if (!args[++i])
				break;
			continue;
		}
		if (args[i][0] != '-')
			break;
	}
	snprintf(what, 24, "%s", args[i] ? args[i] : "");
}

/* The file git reads as its stdin: `len` bytes of input, rewound. */
static int input_file(const char *input, size_t len)
{
	int fd = tmpfile_fd();

	if (fd < 0)
		return -1;
	if (onlist_git_write_all(fd, input, len) < 0 ||
	    lseek(fd, 0, SEEK_SET) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

onlist_status onlist_git_start(struct onlist_git *g, const char *repo,
			       const char *const *args, unsigned flags,
			       const char *input, size_t input_len,
			       char **errmsg)
{
	const char **argv = NULL;
	size_t nargs = 0, n = 0, i;
	int inp[2] = { -1, -1 }, outp[2] = { -1, -1 }, infile = -1;
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, pipe_sig;
	char **env = NULL;
	int fa_ok = 0, attr_ok = 0, rc;
	onlist_status st = ONLIST_EIO;

	g->pid = -1;
	g->in = g->out = g->err = -1;
	name_subcommand(g->what, args);
	if (input && flags & ONLIST_GIT_STDIN) {
		onlist_set_err(errmsg, "git %s: input and a pipe to stdin "
			       "both asked for", g->what);
		return ONLIST_EUSAGE;
	}
	while (args[nargs])
		nargs++;
	if (!(argv = malloc((nargs + NPINNED + NSAFE + 4) * sizeof *argv)) ||
	    make_environ(flags, &env) < 0) {
		st = ONLIST_ENOMEM;
		onlist_set_err(errmsg, "cannot run git: out of memory");
		goto out;
	}
	argv[n++] = "git";
	argv[n++] = "-C";
	argv[n++] = repo;
	for (i = 0; i < NSAFE; i++)
		argv[n++] = safe_config[i];
	for (i = 0; !(flags & GIT_UNPINNED) && i < NPINNED; i++)
		argv[n++] = pinned_config[i];
	for (i = 0; i < nargs; i++)
		argv[n++] = args[i];
	argv[n] = NULL;

	/* All our descriptors are close-on-exec, so a child never holds
	 * another child's pipe open (which would keep that child from ever
	 * seeing EOF on its stdin). */
	if (pipe2(outp, O_CLOEXEC) < 0 ||
	    (flags & ONLIST_GIT_STDIN && pipe2(inp, O_CLOEXEC) < 0) ||
	    (input && (infile = input_file(input, input_len)) < 0) ||
	    (g->err = tmpfile_fd()) < 0) {
		onlist_set_err(errmsg, "cannot run git: %s", strerror(errno));
		goto out;
	}
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		goto spawn_failed;
	fa_ok = 1;
	if ((rc = posix_spawnattr_init(&attr)) != 0)
		goto spawn_failed;
	attr_ok = 1;
	/* git gets SIGPIPE back at its default and nothing blocked, whatever
	 * the caller did with them: a git whose reader went away must end */
	sigemptyset(&none);
	sigemptyset(&pipe_sig);
	sigaddset(&pipe_sig, SIGPIPE);
	rc = posix_spawnattr_setsigmask(&attr, &none);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&attr, &pipe_sig);
	if (!rc && flags & ONLIST_GIT_GROUP)
		rc = posix_spawnattr_setpgroup(&attr, 0);
	if (!rc)
		rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
			POSIX_SPAWN_SETSIGDEF |
			(flags & ONLIST_GIT_GROUP ? POSIX_SPAWN_SETPGROUP : 0));
	if (!rc && flags & ONLIST_GIT_STDIN)
		rc = posix_spawn_file_actions_adddup2(&fa, inp[0], 0);
	else if (!rc && infile >= 0)
		rc = posix_spawn_file_actions_adddup2(&fa, infile, 0);
	else if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						      O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, g->err, 2);
	/* posix_spawnp returns its error; errno is not set */
	if (!rc)
		rc = posix_spawnp(&g->pid, "git", &fa, &attr,
				  (char *const *)argv, env ? env : environ);
	if (rc) {
spawn_failed:
		st = rc == ENOMEM ? ONLIST_ENOMEM : ONLIST_EGIT;
		onlist_set_err(errmsg, "cannot run git: %s", strerror(rc));
		g->pid = -1;
		goto out;
	}
	if (flags & ONLIST_GIT_GROUP)
		running_group = (sig_atomic_t)g->pid;
	g->out = outp[0];
	outp[0] = -1;
	if (flags & ONLIST_GIT_STDIN) {
		g->in = inp[1];
		inp[1] = -1;
	}
	st = ONLIST_OK;
out:
	if (fa_ok)
		posix_spawn_file_actions_destroy(&fa);
	if (attr_ok)
		posix_spawnattr_destroy(&attr);
	free(env);
	free(argv);
	close_fd(&infile);
	close_fd(&inp[0]);
	close_fd(&inp[1]);
	close_fd(&outp[0]);
	close_fd(&outp[1]);
	if (st != ONLIST_OK)
		close_fd(&g->err);
	return st;
}

void onlist_git_close_in(struct onlist_git *g)
{
	close_fd(&g->in);
}

void onlist_git_close_out(struct onlist_git *g)
{
	close_fd(&g->out);
}

/* git's stderr, trimmed; NULL when it wrote nothing. */
static char *read_stderr(int fd)
{
	char *s;
	ssize_t n;
	size_t len = 0;

	if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0 || !(s = malloc(MAX_ERRMSG)))
		return NULL;
	while (len < MAX_ERRMSG - 1 &&
	       ((n = read(fd, s + len, MAX_ERRMSG - 1 - len)) > 0 ||
		(n < 0 && errno == EINTR)))
		if (n > 0)
			len += (size_t)n;
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' ' ||
		       s[len - 1] == '\r' || s[len - 1] == '\t'))
		len--;
	if (!len) {
		free(s);
		return NULL;
	}
	s[len] = '\0';
	return s;
}

/* onlist_git_wait(); `say` 0: *errmsg gets git's stderr only, never a
 * message of ours for a git that said nothing. */
static int wait_git(struct onlist_git *g, char **errmsg, int say)
{
	int status, ret = 0;
	char *msg;

	close_fd(&g->in);
	close_fd(&g->out);
	if (g->pid > 0) {
		while (waitpid(g->pid, &status, 0) < 0) {
			if (errno != EINTR) {
				onlist_set_err(errmsg, "git %s: %s", g->what,
					strerror(errno));
				ret = 255;
				goto out;
			}
		}
		if (running_group == (sig_atomic_t)g->pid)
			running_group = 0;
		g->pid = -1;
		if (WIFEXITED(status))
			ret = WEXITSTATUS(status);
		else
			ret = -(WIFSIGNALED(status) ? WTERMSIG(status) : 255);
		if (ret && errmsg && !*errmsg) {
			if ((msg = read_stderr(g->err)))
				*errmsg = msg;
			else if (!say)
				;
			else if (ret > 0)
				onlist_set_err(errmsg,
					"git %s exited with status %d",
					g->what, ret);
			else
				onlist_set_err(errmsg,
					"git %s killed by signal %d",
					g->what, -ret);
		}
	}
out:
	close_fd(&g->err);
	return ret;
}

int onlist_git_wait(struct onlist_git *g, char **errmsg)
{
	return wait_git(g, errmsg, 1);
}

/* ---- reading git's output: records ending in a delimiter ---- */

int onlist_git_reader_init(struct onlist_git_reader *r, int fd)
{
	r->fd = fd;
	r->cap = READ_CHUNK;
	r->pos = r->end = 0;
	r->eof = 0;
	r->buf = malloc(r->cap);
	return r->buf ? 0 : -1;
}

void onlist_git_reader_release(struct onlist_git_reader *r)
{
	free(r->buf);
	r->buf = NULL;
}

/* Read more; returns 0, or -1 with errno set. */
static int reader_fill(struct onlist_git_reader *r)
{
	ssize_t n;

	if (r->pos) {
		memmove(r->buf, r->buf + r->pos, r->end - r->pos);
		r->end -= r->pos;
		r->pos = 0;
	}
	if (r->end == r->cap) {
		char *nb = realloc(r->buf, r->cap * 2);
		if (!nb)
			return -1;
		r->buf = nb;
		r->cap *= 2;
	}
	do
		n = read(r->fd, r->buf + r->end, r->cap - r->end);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if (n == 0)
		r->eof = 1;
	r->end += (size_t)n;
	return 0;
}

int onlist_git_reader_peek(struct onlist_git_reader *r)
{
	while (r->pos == r->end) {
		if (r->eof || reader_fill(r) < 0)
			return -1;
	}
	return (unsigned char)r->buf[r->pos];
}

int onlist_git_reader_next(struct onlist_git_reader *r, int delim,
			   char **rec, size_t *len)
{
	size_t seen = 0;	/* bytes after pos already searched */
	char *p;

	for (;;) {
		size_t avail = r->end - r->pos;
		p = avail > seen ?
			memchr(r->buf + r->pos + seen, delim, avail - seen) : NULL;
		if (p) {
			*rec = r->buf + r->pos;
			*len = (size_t)(p - *rec) + 1;
			r->pos += *len;
			return 1;
		}
		seen = avail;
		if (r->eof) {
			if (!avail)
				return 0;
			*rec = r->buf + r->pos;
			*len = avail;
			r->pos = r->end;
			return 1;
		}
		if (reader_fill(r) < 0)
			return -1;
	}
}

int onlist_git_reader_need(struct onlist_git_reader *r, size_t n)
{
	ssize_t got;

	while (r->end - r->pos < n) {
		if (r->eof)
			return 0;
		if (r->cap - r->pos < n) {
			memmove(r->buf, r->buf + r->pos, r->end - r->pos);
			r->end -= r->pos;
			r->pos = 0;
		}
		if (r->cap < n) {
			size_t nc = r->cap;
			char *nb;
			while (nc < n) {
				if (nc > SIZE_MAX / 2) {
					errno = ENOMEM;
					return -1;
				}
				nc *= 2;
			}
			if (!(nb = realloc(r->buf, nc)))
				return -1;
			r->buf = nb;
			r->cap = nc;
		}
		do
			got = read(r->fd, r->buf + r->end, r->cap - r->end);
		while (got < 0 && errno == EINTR);
		if (got < 0)
			return -1;
		if (got == 0)
			r->eof = 1;
		r->end += (size_t)got;
	}
	return 1;
}

/* ---- running git to its end ---- */

onlist_status onlist_git_run(const char *repo, const char *const *args,
			     unsigned flags, char **errmsg)
{
	struct onlist_git g;
	char buf[4096];
	onlist_status st;
	ssize_t n;

	/* nobody would write to a pipe to its stdin */
	flags &= ~(unsigned)ONLIST_GIT_STDIN;
	st = onlist_git_start(&g, repo, args, flags, NULL, 0, errmsg);
	if (st != ONLIST_OK)
		return st;
	do
		n = read(g.out, buf, sizeof buf);
	while (n > 0 || (n < 0 && errno == EINTR));
	return onlist_git_wait(&g, errmsg) ? ONLIST_EGIT : ONLIST_OK;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

onlist_status onlist_git_run_until(const char *repo, const char *const *args,
				   unsigned flags, double deadline,
				   char **errmsg)
{
	struct onlist_git g;
	struct pollfd pfd;
	char buf[4096];
	onlist_status st;
	ssize_t n;
	int late = 0;

	flags &= ~(unsigned)ONLIST_GIT_STDIN;
	st = onlist_git_start(&g, repo, args, flags | ONLIST_GIT_GROUP, NULL,
			      0, errmsg);
	if (st != ONLIST_OK)
		return st;
	pfd.fd = g.out;
	pfd.events = POLLIN;
	for (;;) {
		double left = deadline > 0 ? deadline - mono_now() : 1e9;
		int rc;

		if (left <= 0) {
			/* the whole group: a clone's git-remote-http and
			 * index-pack too, or they go on writing into the
			 * directory the next run cleans up */
			kill(-g.pid, SIGKILL);
			late = 1;
			break;
		}
		rc = poll(&pfd, 1, deadline <= 0 ? -1 : left > 1e6 ?
			  1000000000 : (int)(left * 1000) + 1);
		if (rc < 0 && errno != EINTR)
			break;
		if (rc <= 0)
			continue;
		n = read(g.out, buf, sizeof buf);
		if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
			break;
	}
	if (late) {
		char *ignored = NULL;

		onlist_git_wait(&g, &ignored);
		free(ignored);
		onlist_set_err(errmsg, "git %s: gave up: the time allowed "
			       "(--timeout) ran out", g.what);
		return ONLIST_EGIT;
	}
	/* git closed its stdout (or reading failed): it is ending */
	n = onlist_git_wait(&g, errmsg);
	return n ? ONLIST_EGIT : ONLIST_OK;
}

onlist_status onlist_git_records(const char *repo, const char *const *args,
				 unsigned flags, const char *input,
				 size_t input_len, int delim,
				 onlist_git_record_cb fn, void *data,
				 char **errmsg)
{
	struct onlist_git g;
	struct onlist_git_reader r = { 0 };
	onlist_status st;
	char *rec;
	size_t len;
	int rc, ret;

	flags &= ~(unsigned)ONLIST_GIT_STDIN;
	st = onlist_git_start(&g, repo, args, flags, input, input_len, errmsg);
	if (st != ONLIST_OK)
		return st;
	if (onlist_git_reader_init(&r, g.out) < 0) {
		st = ONLIST_ENOMEM;
		goto out;
	}
	while ((rc = onlist_git_reader_next(&r, delim, &rec, &len)) == 1) {
		if (rec[len - 1] == delim) {
			rec[--len] = '\0';
			st = fn(rec, len, data);
		} else {
			/* the last record, without its delimiter: no room
			 * to terminate it in place */
			char *copy = malloc(len + 1);
			if (copy) {
				memcpy(copy, rec, len);
				copy[len] = '\0';
			}
			st = copy ? fn(copy, len, data) : ONLIST_ENOMEM;
			free(copy);
		}
		if (st != ONLIST_OK)
			break;
	}
	if (rc < 0 && st == ONLIST_OK) {
		st = ONLIST_EIO;
		onlist_set_err(errmsg, "reading from git %s: %s", g.what,
			strerror(errno));
	}
out:
	/* on an early stop, closing our end makes git exit */
	ret = onlist_git_wait(&g, st == ONLIST_OK ? errmsg : NULL);
	if (st == ONLIST_OK && ret)
		st = ONLIST_EGIT;
	onlist_git_reader_release(&r);
	return st;
}

onlist_status onlist_git_capture(const char *repo, const char *const *args,
				 unsigned flags, char **out, size_t *len,
				 int *status, char **errmsg)
{
	struct onlist_git g;
	char *buf = NULL, *nb;
	size_t n = 0, cap = 0;
	ssize_t got;
	onlist_status st;
	int ret;

	*out = NULL;
	if (len)
		*len = 0;
	if (status)
		*status = 0;
	flags &= ~(unsigned)ONLIST_GIT_STDIN;
	st = onlist_git_start(&g, repo, args, flags, NULL, 0, errmsg);
	if (st != ONLIST_OK)
		return st;
	for (;;) {
		if (cap - n < 4096) {
			if (!(nb = realloc(buf, cap ? cap * 2 : 8192))) {
				st = ONLIST_ENOMEM;
				break;
			}
			buf = nb;
			cap = cap ? cap * 2 : 8192;
		}
		got = read(g.out, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			st = ONLIST_EIO;
			onlist_set_err(errmsg, "reading from git %s: %s",
				       g.what, strerror(errno));
			break;
		}
		if (!got)
			break;
		n += (size_t)got;
	}
	ret = wait_git(&g, st == ONLIST_OK ? errmsg : NULL, !status);
	if (st == ONLIST_OK && ret && !status)
		st = ONLIST_EGIT;
	if (st != ONLIST_OK) {
		free(buf);
		return st;
	}
	if (status)
		*status = ret;
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return ONLIST_OK;
}

int onlist_git_is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

onlist_status onlist_git_check_range(const char *repo, const char *range,
				     char **errmsg)
{
	if (!repo || !*repo) {
		onlist_set_err(errmsg, "no repository given");
		return ONLIST_EUSAGE;
	}
	if (!range || !*range) {
		onlist_set_err(errmsg, "no revision range given");
		return ONLIST_EUSAGE;
	}
	/* git would take it for an option */
	if (range[0] == '-') {
		onlist_set_err(errmsg,
			"revision range must not begin with '-': %s", range);
		return ONLIST_EUSAGE;
	}
	return ONLIST_OK;
}

/* ---- configuration and remotes ---- */

onlist_status onlist_git_config_get(const char *repo_dir, const char *key,
				    char **out, char **errmsg)
{
	return onlist_git_config_get_all(repo_dir, key, 0, out, errmsg);
}

char *onlist_git_config(const char *repo, const char *key)
{
	char *v = NULL;

	if (onlist_git_config_get(repo ? repo : ".", key, &v, NULL) != ONLIST_OK) {
		free(v);
		return NULL;
	}
	return v;
}

onlist_status onlist_git_config_get_all(const char *repo_dir, const char *key,
					int all, char **out, char **errmsg)
{
	const char *args[] = { "config", all ? "--get-all" : "--get", key, NULL };
	char *val = NULL, *msg = NULL;
	size_t len;
	int status;
	onlist_status st;

	*out = NULL;
	if (!repo_dir || !*repo_dir) {
		onlist_set_err(errmsg, "no directory given");
		return ONLIST_EUSAGE;
	}
	/* git would take it for an option */
	if (!key || !*key || key[0] == '-') {
		onlist_set_err(errmsg, "bad configuration key '%s'",
			       key ? key : "");
		return ONLIST_EUSAGE;
	}
	/* Unpinned: `git -c core.quotePath=true config --get
	 * core.quotePath` answers with our value, not the user's. */
	st = onlist_git_capture(repo_dir, args, ONLIST_GIT_CLEAN | GIT_UNPINNED,
				&val, &len, &status, &msg);
	if (st == ONLIST_OK && status) {
		/* 1 and nothing said: not set; 1 with a message: a key git
		 * cannot parse */
		st = status == 1 && !msg ? ONLIST_ENOTFOUND : ONLIST_EGIT;
		free(val);
		val = NULL;
	}
	if (st == ONLIST_EGIT)
		onlist_set_err(errmsg, "%s", msg ? msg : "git config failed");
	free(msg);
	if (st != ONLIST_OK)
		return st;
	if (len && val[len - 1] == '\n')
		val[len - 1] = '\0';
	*out = val;
	return ONLIST_OK;
}

/* A remote URL taken apart; every part points into a copy the caller
 * frees, NUL-terminated, host lower-cased. */
struct remote {
	char *host;
	char *port;	/* NULL: none */
	char *path;	/* begins with '/', no trailing '/' */
	char *query;	/* after '?', or NULL */
	int web;	/* http or https: a port there is the web server's */
};

/* What may stand in a link we print: no '%' (the template has one %s),
 * nothing a terminal, a shell or HTML would read differently. */
static int link_safe(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._~/+-", *s) ||
		      strchr(extra, *s)))
			return 0;
	return 1;
}

/* Split url (copied into *buf) into r; 0, or -1 for a URL that is not a
 * network one we understand (or when out of memory: *buf is then NULL). */
static int parse_remote(const char *url, char **buf, struct remote *r)
{
	size_t len = strlen(url);
	char *s, *p, *at, *colon;

	memset(r, 0, sizeof *r);
	/* one byte spare: the path moves one on, to begin with its own '/'
	 * after the host's terminating NUL */
	if (!(s = *buf = malloc(len + 2)))
		return -1;
	memcpy(s, url, len + 1);
	if ((p = strstr(s, "://"))) {
		*p = '\0';
		if (!strcmp(s, "https") || !strcmp(s, "http"))
			r->web = 1;
		else if (strcmp(s, "git") && strcmp(s, "ssh") &&
			 strcmp(s, "git+ssh") && strcmp(s, "ssh+git"))
			return -1;	/* file://, and what we do not know */
		s = p + 3;
		if (!(p = strchr(s, '/')))
			return -1;
		memmove(p + 1, p, strlen(p) + 1);
		*p = '\0';
		r->path = p + 1;
		if ((at = strrchr(s, '@')))
			s = at + 1;
		if ((colon = strchr(s, ':'))) {
			*colon = '\0';
			r->port = colon + 1;
			if (!*r->port ||
			    strspn(r->port, "0123456789") != strlen(r->port))
				return -1;
		}
	} else {
		/* scp-like [user@]host:path: a colon before any slash (git's
		 * own rule); anything else is a local path */
		colon = strchr(s, ':');
		p = strchr(s, '/');
		if (!colon || (p && p < colon))
			return -1;
		if ((at = strrchr(s, '@')) && at < colon)
			s = at + 1;
		p = colon + 1;
		if (*p == '/') {
			*colon = '\0';
			r->path = p;
		} else {
			memmove(p + 1, p, strlen(p) + 1);
			*colon = '\0';
			*p = '/';
			r->path = p;
		}
	}
	r->host = s;
	for (p = s; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	if (!*r->host || !link_safe(r->host, "") ||
	    strcspn(r->host, "/~+") != strlen(r->host))
		return -1;
	if ((p = strchr(r->path, '?'))) {
		*p = '\0';
		r->query = p + 1;
	}
	for (p = r->path + strlen(r->path); p > r->path + 1 && p[-1] == '/';)
		*--p = '\0';
	if (!link_safe(r->path, "") ||
	    (r->query && !link_safe(r->query, "=;&")))
		return -1;
	return 0;
}

static int is_host(const struct remote *r, const char *name)
{
	return !strcmp(r->host, name);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* A repository path of min to max parts (max 0: no limit), none empty,
 * "." or "..": "owner/repo" on a forge. */
static int repo_path(const char *p, int min, int max)
{
	int parts = 0;
	size_t n;

	while (*p) {
		n = strcspn(p, "/");
		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return 0;
		parts++;
		p += n;
		if (*p && !*++p)
			return 0;	/* a trailing slash: an empty part */
	}
	return parts >= min && (!max || parts <= max);
}

onlist_status onlist_git_commit_url_from_remote(const char *remote_url,
						char **out)
{
	struct remote r;
	char *buf = NULL, *path, *repo, *p, *port = NULL;
	const char *host;
	onlist_status st = ONLIST_ENOTFOUND;
	int n = 0;

	*out = NULL;
	if (!remote_url)
		return ONLIST_ENOTFOUND;
	if (parse_remote(remote_url, &buf, &r) < 0) {
		st = buf ? ONLIST_ENOTFOUND : ONLIST_ENOMEM;
		goto out;
	}
	path = r.path + 1;	/* without its leading '/' */
	host = r.host;
	/* a web server's port; an ssh or git port says nothing of it */
	if (r.web && r.port && asprintf(&port, ":%s", r.port) < 0) {
		port = NULL;
		st = ONLIST_ENOMEM;
		goto out;
	}
	if (is_host(&r, "github.com") || is_host(&r, "gitlab.com") ||
	    is_host(&r, "codeberg.org")) {
		if (ends_with(path, ".git"))
			path[strlen(path) - 4] = '\0';
		/* gitlab.com nests groups; the others are owner/repo */
		if (!r.query &&
		    repo_path(path, 2, is_host(&r, "gitlab.com") ? 0 : 2))
			n = asprintf(out, "https://%s/%s/commit/%%s", host,
				     path);
	} else if (is_host(&r, "git.kernel.org") ||
		   is_host(&r, "gitolite.kernel.org") ||
		   strstr(r.path, "/pub/scm/") || strstr(r.path, "/cgit/")) {
		/* kernel.org takes pushes at gitolite and shows them at
		 * git.kernel.org, under the same path */
		if (is_host(&r, "gitolite.kernel.org"))
			host = "git.kernel.org";
		if (!r.query && repo_path(path, 1, 0))
			n = asprintf(out, "https://%s%s/%s/commit/?id=%%s",
				     host, port ? port : "", path);
	} else if (is_host(&r, "sourceware.org") ||
		   (r.query && !strncmp(r.query, "p=", 2) &&
		    (ends_with(r.path, "/git") || strstr(r.path, "/git/")))) {
		/* the repository: gitweb's p= parameter, else the path
		 * after /git/ (git://sourceware.org/git/glibc.git) */
		if (r.query && !strncmp(r.query, "p=", 2)) {
			repo = r.query + 2;
			repo[strcspn(repo, ";&")] = '\0';
		} else {
			/* "/git" alone names no repository */
			repo = (p = strstr(r.path, "/git/")) ? p + 5 :
			       strcmp(r.path, "/git") ? path : path + 3;
		}
		if (ends_with(repo, ".git"))
			repo[strlen(repo) - 4] = '\0';
		if ((!r.query || !strncmp(r.query, "p=", 2)) &&
		    repo_path(repo, 1, 0))
			n = asprintf(out, "https://%s%s/git/?p=%s.git;"
				     "a=commit;h=%%s", host, port ? port : "",
				     repo);
	}
	if (n < 0) {
		*out = NULL;
		st = ONLIST_ENOMEM;
	} else if (*out) {
		st = ONLIST_OK;
	}
out:
	free(port);
	free(buf);
	return st;
}

onlist_status onlist_git_remote_commit_url(const char *repo_dir,
					   char **out_template, char **errmsg)
{
	char *url = NULL;
	onlist_status st;

	*out_template = NULL;
	st = onlist_git_config_get(repo_dir, "remote.origin.url", &url,
				   errmsg);
	if (st == ONLIST_OK)
		st = onlist_git_commit_url_from_remote(url, out_template);
	free(url);
	return st;
}
