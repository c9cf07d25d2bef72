/* git.h - running git: the one place onlist starts a process.
 *
 * git runs as `git -C REPO <pinned config> ARGS...`, started with an
 * argument vector (posix_spawnp, never a shell).  Every descriptor onlist
 * opens here is close-on-exec, so no git holds another git's pipe open; git
 * gets SIGPIPE at its default and no signal blocked, so a git whose reader
 * went away ends; its stderr goes to an unlinked temporary file (in $TMPDIR,
 * else P_tmpdir), so a chatty git never blocks on a full pipe, and that
 * file is read back only when git fails: its text becomes the error
 * message.
 *
 * The pinned settings (core.quotePath=true, diff.suppressBlankEmpty=false,
 * i18n.logOutputEncoding=UTF-8) are git's defaults; a `-c` in ARGS comes
 * after them and wins.  Every git, onlist_git_config_get()'s included,
 * also gets core.hooksPath=/dev/null and core.fsmonitor=false: no
 * repository's configuration (a planted mirror's, a scanned repository's
 * include.path) makes git start a program of its choosing.
 *
 * Error messages: every function taking `char **errmsg` sets *errmsg only
 * when it is NULL (the first, most specific message wins), and only on
 * failure; the caller frees it.  errmsg may be NULL.
 */
#ifndef ONLIST_GIT_H
#define ONLIST_GIT_H

#include <stddef.h>
#include <sys/types.h>
#include "onlist/status.h"

/* What onlist_git_start() changes about the git it starts (or-ed). */
enum {
	ONLIST_GIT_STDIN = 1,	/* a pipe to git's stdin in g->in; without
				 * it (and without input) stdin is /dev/null */
	ONLIST_GIT_TUNED = 2,	/* glibc malloc tuning, for gits that diff
				 * many commits (a GLIBC_TUNABLES the user
				 * set wins) */
	ONLIST_GIT_NET = 4,	/* GIT_TERMINAL_PROMPT=0: fail rather than
				 * wait for a password nobody will type */
	ONLIST_GIT_CLEAN = 8,	/* drop GIT_DIR, GIT_WORK_TREE & co. (set
				 * inside a git hook) so that REPO is the
				 * repository git reads */
	ONLIST_GIT_GROUP = 16,	/* a process group of git's own (its pid),
				 * so that everything it starts (a clone's
				 * git-remote-http, index-pack) can be ended
				 * together: see onlist_git_run_until() and
				 * onlist_git_signal_groups() */
};

/* A running git.  The descriptors are the caller's to read, write and
 * close (onlist_git_close_in/_out); onlist_git_wait() closes whatever is
 * left.  `err` and `what` are private. */
struct onlist_git {
	pid_t pid;		/* -1 when no git is running */
	int in;			/* our end of git's stdin, or -1 */
	int out;		/* our end of git's stdout, or -1 */
	int err;		/* the file holding git's stderr */
	char what[24];		/* the subcommand, for messages */
};
#define ONLIST_GIT_INIT { -1, -1, -1, -1, "" }

/* Start git in the directory `repo` with `args` (NULL-terminated, without
 * "git"; the first word not an option nor the value of "-c" names the
 * subcommand in messages).  `input` (may be NULL) is fed to git's stdin
 * from an unlinked temporary file holding its `input_len` bytes, so that
 * writing it cannot deadlock against git's output; it cannot be combined
 * with ONLIST_GIT_STDIN.  On success g->out is git's stdout (and g->in its
 * stdin with ONLIST_GIT_STDIN); on failure nothing is left open or
 * running, and g->pid is -1.
 * Returns ONLIST_OK; ONLIST_EGIT when git cannot be started ("cannot run
 * git: No such file or directory"); ONLIST_EIO when a pipe or the
 * temporary file cannot be made; ONLIST_ENOMEM; ONLIST_EUSAGE for input
 * with ONLIST_GIT_STDIN. */
onlist_status onlist_git_start(struct onlist_git *g, const char *repo,
			       const char *const *args, unsigned flags,
			       const char *input, size_t input_len,
			       char **errmsg);

/* Close our end of git's stdin (git then sees EOF), or of its stdout (git
 * then dies of SIGPIPE at its next write).  Either may be called twice. */
void onlist_git_close_in(struct onlist_git *g);
void onlist_git_close_out(struct onlist_git *g);

/* Write all `len` bytes at buf to fd (g->in, say), going on after a
 * signal interrupts write().  Returns 0; -1 when write() fails (errno
 * says why: EPIPE when git has gone and SIGPIPE is blocked or ignored) or
 * writes nothing. */
int onlist_git_write_all(int fd, const char *buf, size_t len);

/* Close what is left open and wait for git to end.  Returns 0 when it
 * exited with status 0, its exit status when it failed on its own, minus
 * the signal that killed it, or 255 when it cannot be waited for.  When it
 * did not return 0 and errmsg is non-NULL, *errmsg gets git's stderr,
 * trailing blanks trimmed ("fatal: bad revision 'v9.9'"), or when git said
 * nothing "git log exited with status 3" or "git log killed by signal 13".
 * Does nothing and returns 0 for a git never started (g->pid -1). */
int onlist_git_wait(struct onlist_git *g, char **errmsg);

/* ---- reading git's output -------------------------------------------- */

/* A buffered reader of one descriptor.  The unread bytes are
 * buf[pos, end); a caller may consume them by advancing pos.  eof is set
 * once read() returned 0. */
struct onlist_git_reader {
	int fd;			/* not owned: closing it is the caller's */
	char *buf;
	size_t cap, pos, end;
	int eof;
};

/* 0, or -1 when out of memory.  release() frees the buffer; it may be
 * called on a zeroed reader. */
int onlist_git_reader_init(struct onlist_git_reader *r, int fd);
void onlist_git_reader_release(struct onlist_git_reader *r);

/* The next byte without consuming it, or -1 at EOF or on error (errno is
 * then set and r->eof is not). */
int onlist_git_reader_peek(struct onlist_git_reader *r);

/* The next record: the bytes up to and including `delim`, or up to EOF
 * for a last record without one.  Returns 1 with *rec (not terminated)
 * and *len, valid until the next call; 0 at EOF; -1 on error with errno
 * set. */
int onlist_git_reader_next(struct onlist_git_reader *r, int delim,
			   char **rec, size_t *len);

/* Make the next n bytes readable at buf + pos, growing the buffer to hold
 * them (it then stays that large).  Returns 1; 0 when the stream ends
 * first; -1 on error with errno set (ENOMEM for a size the buffer cannot
 * grow to).  Pointers into buf are invalid after a call. */
int onlist_git_reader_need(struct onlist_git_reader *r, size_t n);

/* ---- running git to its end ------------------------------------------ */

/* Run git (see onlist_git_start for repo, args and flags; no input) to
 * its end, its output read and dropped.  ONLIST_OK when it exits with
 * status 0; ONLIST_EGIT with git's stderr otherwise; what
 * onlist_git_start() returns when git cannot be started. */
onlist_status onlist_git_run(const char *repo, const char *const *args,
			     unsigned flags, char **errmsg);

/* onlist_git_run() with a deadline: git runs in a process group of its
 * own, and when `deadline` (seconds on CLOCK_MONOTONIC, the clock of
 * onlist_http_now(); 0 or less: none) passes before it ends, the whole
 * group is killed (SIGKILL), so no clone's helper outlives it.  Without
 * a deadline git still runs in its own group, for
 * onlist_git_signal_groups().  Returns
 * what onlist_git_run() does, and ONLIST_EGIT with "git clone: gave up:
 * the time allowed (--timeout) ran out" when the deadline ended it. */
onlist_status onlist_git_run_until(const char *repo, const char *const *args,
				   unsigned flags, double deadline,
				   char **errmsg);

/* Send sig to the process group of the git running with ONLIST_GIT_GROUP,
 * if one is running.  Async-signal-safe: for a command's SIGTERM/SIGINT
 * handler (a git in a group of its own gets no signal from the terminal
 * and outlives a killed onlist otherwise). */
void onlist_git_signal_groups(int sig);

/* Receives one record of git's output: `len` bytes at rec, the delimiter
 * replaced by a NUL (the record may hold other NULs when the delimiter is
 * not one).  rec may be modified; it is valid during the call only.
 * Return ONLIST_OK to go on; any other status stops git and is what
 * onlist_git_records() returns. */
typedef onlist_status (*onlist_git_record_cb)(char *rec, size_t len,
					      void *data);

/* Run git (see onlist_git_start) and hand each record of its stdout, up
 * to `delim`, to fn.  ONLIST_GIT_STDIN is ignored here and in
 * onlist_git_run and _capture: git's stdin is the input, or /dev/null.
 * Returns ONLIST_OK when git exited with status 0 and fn always returned
 * ONLIST_OK; fn's status when it stopped (then nothing is said in
 * *errmsg); ONLIST_EGIT with git's stderr when git failed; ONLIST_EIO when
 * reading failed; ONLIST_ENOMEM. */
onlist_status onlist_git_records(const char *repo, const char *const *args,
				 unsigned flags, const char *input,
				 size_t input_len, int delim,
				 onlist_git_record_cb fn, void *data,
				 char **errmsg);

/* Run git (see onlist_git_start; no input) and return its whole stdout in
 * *out, NUL-terminated (it may hold other NULs: *len is its length; len
 * may be NULL).  *out is the caller's to free, and NULL on an error
 * return.  With status NULL: ONLIST_EGIT with git's stderr when git does
 * not exit with 0.  With status non-NULL, *status gets what
 * onlist_git_wait() returned and ONLIST_OK is returned whatever it is;
 * when it is not 0, *errmsg gets git's stderr if git wrote any (and stays
 * NULL if it did not): for the gits whose exit status is an answer (`git
 * config --get`).  ONLIST_EIO, ONLIST_ENOMEM,
 * or what onlist_git_start() returns, on failures of onlist's own. */
onlist_status onlist_git_capture(const char *repo, const char *const *args,
				 unsigned flags, char **out, size_t *len,
				 int *status, char **errmsg);

/* 1 when the n bytes at s are lower-case hex digits, as git prints
 * object ids; else 0. */
int onlist_git_is_hex(const char *s, size_t n);

/* ONLIST_EUSAGE with a message when repo or range is missing or empty, or
 * range begins with '-' (git would take it for an option); else
 * ONLIST_OK. */
onlist_status onlist_git_check_range(const char *repo, const char *range,
				     char **errmsg);

/* ---- configuration and remotes --------------------------------------- */

/* The value of `key` ("remote.origin.url") as `git config --get KEY` run
 * in repo_dir finds it: the repository's configuration, the user's and the
 * system's, with git's own precedence (its last value for a key set more
 * than once); none of onlist's pinned settings is in the way, and neither
 * is a GIT_DIR inherited from a hook.  repo_dir need not be a repository
 * (then only the user's and the system's configuration count).  *out
 * (caller frees) gets the value without its newline; NULL on error.
 * ONLIST_ENOTFOUND when the key is not set; ONLIST_EUSAGE for a missing
 * repo_dir, or a key that is empty or begins with '-'; ONLIST_EGIT with
 * git's stderr when git fails ("fatal: cannot change to 'x': No such file
 * or directory", "error: key does not contain a section: foo");
 * ONLIST_ENOMEM. */
onlist_status onlist_git_config_get(const char *repo_dir, const char *key,
				    char **out, char **errmsg);
/* The value of key as onlist_git_config_get() finds it in repo (NULL:
 * the current folder), or NULL when it is not set or git fails: for a
 * setting whose absence means its default.  The caller frees it.  Keys
 * onlist reads: onlist.db, onlist.commitUrl, onlist.postingUrl,
 * onlist.releasePattern, onlist.rules, onlist.scanFrom, onlist.reportTo,
 * onlist.reportCc, onlist.sendmail, sendemail.from, user.name,
 * user.email. */
char *onlist_git_config(const char *repo, const char *key);
/* The same with all != 0: every value of a key set more than once
 * (`git config --get-all`), in git's order, one a line (the last newline
 * dropped). */
onlist_status onlist_git_config_get_all(const char *repo_dir, const char *key,
					int all, char **out, char **errmsg);

/* A link template for a commit of the repository cloned from remote_url:
 * an https URL with exactly one "%s" where the full commit id goes, and no
 * other '%'.  *out is the caller's to free (NULL on error).
 *
 *   github.com, gitlab.com, codeberg.org
 *       https://HOST/OWNER/REPO/commit/%s     (".git" dropped; gitlab.com
 *                                             may have subgroups)
 *   git.kernel.org (and gitolite.kernel.org, its push side), or any host
 *   with /pub/scm/ or /cgit/ in the path: cgit
 *       https://HOST/PATH/commit/?id=%s       (PATH as in the URL)
 *   sourceware.org, or any host with /git/ in the path and "?p=": gitweb
 *       https://HOST/git/?p=REPO.git;a=commit;h=%s
 *
 * Accepted forms: https://, http://, git://, ssh:// (a user name and a
 * port are dropped, except an http(s) port on a cgit or gitweb host), and
 * scp-like [user@]host:path.  Host names compare without case.
 * ONLIST_ENOTFOUND for any other host, a local path or file:// URL, or a
 * URL with characters a link should not carry (blanks, quotes, '%',
 * controls, non-ASCII); ONLIST_ENOMEM.  Runs nothing: the template comes
 * from the string alone. */
onlist_status onlist_git_commit_url_from_remote(const char *remote_url,
						char **out);

/* The template above for the `remote.origin.url` of repo_dir (read with
 * onlist_git_config_get).  *out_template is the caller's to free.
 * ONLIST_ENOTFOUND when there is no such remote or its URL is none of the
 * above; otherwise what onlist_git_config_get() returns. */
onlist_status onlist_git_remote_commit_url(const char *repo_dir,
					   char **out_template, char **errmsg);

#endif
