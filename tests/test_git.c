/* test_git.c - running git (git.c): what a failing git says, where its
 * temporary files go, which descriptors it inherits; `git config --get`
 * through onlist_git_config_get; and the commit-link templates made of
 * remote URLs, as a table.
 *
 * git is the oracle where it has an answer: the configuration is written
 * with `git config` and read back through onlist.  Failing and echoing
 * gits are git aliases ("!sh code"), so no other program is needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "onlist/git.h"

static char tmpdir[] = "/tmp/onlist-test-git-XXXXXX";
static char repo[sizeof tmpdir + 8];

static void sh(const char *fmt, ...)
{
	char *cmd;
	va_list ap;

	va_start(ap, fmt);
	assert_true(vasprintf(&cmd, fmt, ap) > 0);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(repo, sizeof repo, "%s/repo", tmpdir);
	/* the user's configuration is $HOME/.gitconfig, made here */
	setenv("HOME", tmpdir, 1);
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("XDG_CONFIG_HOME");
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("LC_ALL", "C", 1);
	sh("git init -q '%s'", repo);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf '%s'", tmpdir);
	return 0;
}

/* ---- running git ---- */

/* git's own words when it fails; its exit status when it says nothing */
static void test_failing_git_says_why(void **state)
{
	const char *loud[] = {
		"-c", "alias.loud=!echo 'fatal: it broke' >&2; exit 3", "loud",
		NULL
	};
	const char *quiet[] = {
		"-c", "alias.quiet=!exit 4", "quiet", NULL
	};
	char *err = NULL;

	(void)state;
	assert_int_equal(onlist_git_run(repo, loud, 0, &err), ONLIST_EGIT);
	assert_string_equal(err, "fatal: it broke");
	free(err);
	err = NULL;
	assert_int_equal(onlist_git_run(repo, quiet, 0, &err), ONLIST_EGIT);
	assert_string_equal(err, "git quiet exited with status 4");
	free(err);
	err = NULL;
	assert_int_equal(onlist_git_run("/nonexistent/onlist", quiet, 0, &err),
			 ONLIST_EGIT);
	assert_non_null(strstr(err, "cannot change to '/nonexistent/onlist'"));
	free(err);
}

/* posix_spawnp's own error, not a stale errno.  Where posix_spawn is a
 * fork and an exec (under valgrind), the exec's failure shows as the
 * child's exit status 127 instead. */
static void test_no_git_on_path(void **state)
{
	const char *args[] = { "version", NULL };
	char *path = strdup(getenv("PATH")), *err = NULL;
	onlist_status st;

	(void)state;
	setenv("PATH", "/nonexistent/onlist", 1);
	st = onlist_git_run(repo, args, 0, &err);
	setenv("PATH", path, 1);
	free(path);
	assert_int_equal(st, ONLIST_EGIT);
	assert_non_null(err);
	if (strcmp(err, "git version exited with status 127"))
		assert_string_equal(err, "cannot run git: No such file or "
				    "directory");
	free(err);
}

/* The stderr file and the input file are made in $TMPDIR. */
static void test_tmpdir(void **state)
{
	const char *args[] = { "version", NULL };
	char *tmp = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
	char *err = NULL;

	(void)state;
	setenv("TMPDIR", "/nonexistent/onlist", 1);
	assert_int_equal(onlist_git_run(repo, args, 0, &err), ONLIST_EIO);
	assert_string_equal(err, "cannot run git: No such file or directory");
	free(err);
	setenv("TMPDIR", tmpdir, 1);
	assert_int_equal(onlist_git_run(repo, args, 0, NULL), ONLIST_OK);
	if (tmp)
		setenv("TMPDIR", tmp, 1);
	else
		unsetenv("TMPDIR");
	free(tmp);
}

struct lines {
	char v[8][64];
	size_t len[8];
	int n;
};

static onlist_status take_line(char *rec, size_t len, void *data)
{
	struct lines *l = data;

	assert_true(l->n < 8 && len < 64);
	memcpy(l->v[l->n], rec, len + 1);
	l->len[l->n++] = len;
	return ONLIST_OK;
}

/* Input goes in, records come out; the last one may lack its delimiter
 * and hold a NUL. */
static void test_records_and_capture(void **state)
{
	const char *cat[] = { "-c", "alias.c=!cat", "c", NULL };
	const char *nul[] = {
		"-c", "alias.n=!printf 'one\\ntw\\000o'", "n", NULL
	};
	struct lines l = { 0 };
	char *out = NULL, *err = NULL;
	size_t len;
	int status;

	(void)state;
	assert_int_equal(onlist_git_records(repo, cat, 0, "a\nbb\n", 5, '\n',
					    take_line, &l, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0], "a");
	assert_string_equal(l.v[1], "bb");

	memset(&l, 0, sizeof l);
	assert_int_equal(onlist_git_records(repo, nul, 0, NULL, 0, '\n',
					    take_line, &l, &err), ONLIST_OK);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.len[1], 4);
	assert_memory_equal(l.v[1], "tw\0o", 5);

	assert_int_equal(onlist_git_capture(repo, nul, 0, &out, &len, NULL,
					    &err), ONLIST_OK);
	assert_int_equal(len, 8);
	assert_memory_equal(out, "one\ntw\0o", 9);
	free(out);

	/* an exit status that is an answer */
	const char *three[] = { "-c", "alias.t=!echo x; exit 3", "t", NULL };
	assert_int_equal(onlist_git_capture(repo, three, 0, &out, NULL,
					    &status, &err), ONLIST_OK);
	assert_int_equal(status, 3);
	assert_string_equal(out, "x\n");
	free(out);
	free(err);
	err = NULL;
	assert_int_equal(onlist_git_capture(repo, three, 0, &out, NULL, NULL,
					    &err), ONLIST_EGIT);
	assert_null(out);
	free(err);
}

/* A git started while another runs inherits none of the other's pipes:
 * the descriptors a shell alias sees are the same either way. */
static void test_no_inherited_descriptors(void **state)
{
	const char *fds[] = { "-c", "alias.fds=!ls /proc/self/fd", "fds",
			      NULL };
	const char *batch[] = { "cat-file", "--batch", NULL };
	struct onlist_git g = ONLIST_GIT_INIT;
	char *before, *during;

	(void)state;
	if (access("/proc/self/fd", R_OK) != 0)
		skip();
	assert_int_equal(onlist_git_capture(repo, fds, 0, &before, NULL, NULL,
					    NULL), ONLIST_OK);
	assert_int_equal(onlist_git_start(&g, repo, batch, ONLIST_GIT_STDIN,
					  NULL, 0, NULL), ONLIST_OK);
	assert_true(g.in >= 0 && g.out >= 0);
	assert_int_equal(onlist_git_capture(repo, fds, 0, &during, NULL, NULL,
					    NULL), ONLIST_OK);
	assert_string_equal(before, during);
	/* stdin closed: cat-file --batch ends on its own, with status 0 */
	onlist_git_close_in(&g);
	assert_int_equal(onlist_git_wait(&g, NULL), 0);
	assert_int_equal(g.pid, -1);
	free(before);
	free(during);
}

/* ---- configuration ---- */

static void test_config_get(void **state)
{
	char *v = NULL, *err = NULL;

	(void)state;
	sh("git config --global user.name 'From Home' && "
	   "git config --global onlist.only-home yes && "
	   "git -C '%s' config user.name 'In Repo' && "
	   "git -C '%s' config core.quotePath false && "
	   "git -C '%s' config --add onlist.many one && "
	   "git -C '%s' config --add onlist.many two", repo, repo, repo, repo);

	/* the repository's value wins over the user's; the user's counts */
	assert_int_equal(onlist_git_config_get(repo, "user.name", &v, &err),
			 ONLIST_OK);
	assert_string_equal(v, "In Repo");
	free(v);
	assert_int_equal(onlist_git_config_get(repo, "onlist.only-home", &v,
					       &err), ONLIST_OK);
	assert_string_equal(v, "yes");
	free(v);
	/* outside a repository, the user's alone */
	assert_int_equal(onlist_git_config_get(tmpdir, "user.name", &v, &err),
			 ONLIST_OK);
	assert_string_equal(v, "From Home");
	free(v);
	/* the last of several, as git answers */
	assert_int_equal(onlist_git_config_get(repo, "onlist.many", &v, &err),
			 ONLIST_OK);
	assert_string_equal(v, "two");
	free(v);
	/* not hidden behind the settings git.c pins for other gits */
	assert_int_equal(onlist_git_config_get(repo, "core.quotepath", &v,
					       &err), ONLIST_OK);
	assert_string_equal(v, "false");
	free(v);
	/* a GIT_DIR left by a hook does not redirect it */
	setenv("GIT_DIR", "/nonexistent/onlist", 1);
	assert_int_equal(onlist_git_config_get(repo, "user.name", &v, &err),
			 ONLIST_OK);
	unsetenv("GIT_DIR");
	assert_string_equal(v, "In Repo");
	free(v);
	assert_null(err);

	assert_int_equal(onlist_git_config_get(repo, "onlist.unset", &v, &err),
			 ONLIST_ENOTFOUND);
	assert_null(v);
	assert_null(err);
	assert_int_equal(onlist_git_config_get(repo, "nosection", &v, &err),
			 ONLIST_EGIT);
	assert_non_null(strstr(err, "key does not contain a section"));
	free(err);
	err = NULL;
	assert_int_equal(onlist_git_config_get(repo, "--list", &v, &err),
			 ONLIST_EUSAGE);
	free(err);
	err = NULL;
	assert_int_equal(onlist_git_config_get("/nonexistent/onlist",
					       "user.name", &v, &err),
			 ONLIST_EGIT);
	assert_non_null(strstr(err, "cannot change to"));
	free(err);
}

static void test_remote_commit_url(void **state)
{
	char *t = NULL, *err = NULL;

	(void)state;
	assert_int_equal(onlist_git_remote_commit_url(repo, &t, &err),
			 ONLIST_ENOTFOUND);
	assert_null(t);
	sh("git -C '%s' remote add origin git@github.com:curl/curl.git", repo);
	assert_int_equal(onlist_git_remote_commit_url(repo, &t, &err),
			 ONLIST_OK);
	assert_string_equal(t, "https://github.com/curl/curl/commit/%s");
	free(t);
	sh("git -C '%s' remote set-url origin /srv/git/local.git", repo);
	assert_int_equal(onlist_git_remote_commit_url(repo, &t, &err),
			 ONLIST_ENOTFOUND);
	assert_null(t);
	assert_null(err);
}

/* ---- remote URL -> commit link ---- */

static const struct {
	const char *remote, *want;	/* want NULL: ONLIST_ENOTFOUND */
} urls[] = {
	/* forges: https://HOST/OWNER/REPO/commit/%s */
	{ "https://github.com/torvalds/linux.git",
	  "https://github.com/torvalds/linux/commit/%s" },
	{ "https://github.com/torvalds/linux",
	  "https://github.com/torvalds/linux/commit/%s" },
	{ "https://github.com/torvalds/linux/",
	  "https://github.com/torvalds/linux/commit/%s" },
	{ "git@github.com:curl/curl.git",
	  "https://github.com/curl/curl/commit/%s" },
	{ "github.com:curl/curl",
	  "https://github.com/curl/curl/commit/%s" },
	{ "ssh://git@github.com/curl/curl.git",
	  "https://github.com/curl/curl/commit/%s" },
	{ "ssh://git@github.com:22/curl/curl",
	  "https://github.com/curl/curl/commit/%s" },
	{ "git://github.com/git/git.git",
	  "https://github.com/git/git/commit/%s" },
	{ "http://GitHub.COM/Owner/Repo.git",
	  "https://github.com/Owner/Repo/commit/%s" },
	/* a token in the URL stays out of the link */
	{ "https://me:ghp_secret@github.com/o/r.git",
	  "https://github.com/o/r/commit/%s" },
	{ "https://gitlab.com/gitlab-org/gitlab.git",
	  "https://gitlab.com/gitlab-org/gitlab/commit/%s" },
	{ "git@gitlab.com:group/sub/project.git",
	  "https://gitlab.com/group/sub/project/commit/%s" },
	{ "https://codeberg.org/forgejo/forgejo.git",
	  "https://codeberg.org/forgejo/forgejo/commit/%s" },
	{ "https://github.com/only-owner", NULL },
	{ "https://github.com/o/r/tree", NULL },
	{ "https://github.com/o//r", NULL },
	{ "git@github.com:o/../r.git", NULL },
	{ "https://github.com", NULL },
	/* cgit: https://HOST/PATH/commit/?id=%s */
	{ "git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git",
	  "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git"
	  "/commit/?id=%s" },
	{ "https://git.kernel.org/pub/scm/git/git.git",
	  "https://git.kernel.org/pub/scm/git/git.git/commit/?id=%s" },
	{ "ssh://git@gitolite.kernel.org/pub/scm/linux/kernel/git/netdev/net",
	  "https://git.kernel.org/pub/scm/linux/kernel/git/netdev/net"
	  "/commit/?id=%s" },
	{ "https://git.example.org/cgit/tools.git",
	  "https://git.example.org/cgit/tools.git/commit/?id=%s" },
	{ "https://git.example.org:8443/cgit/tools.git",
	  "https://git.example.org:8443/cgit/tools.git/commit/?id=%s" },
	{ "ssh://git.example.org:2222/pub/scm/tools.git",
	  "https://git.example.org/pub/scm/tools.git/commit/?id=%s" },
	/* gitweb: https://HOST/git/?p=REPO.git;a=commit;h=%s */
	{ "git://sourceware.org/git/glibc.git",
	  "https://sourceware.org/git/?p=glibc.git;a=commit;h=%s" },
	{ "ssh://sourceware.org/git/binutils-gdb.git",
	  "https://sourceware.org/git/?p=binutils-gdb.git;a=commit;h=%s" },
	{ "https://sourceware.org/git/?p=elfutils.git",
	  "https://sourceware.org/git/?p=elfutils.git;a=commit;h=%s" },
	{ "https://git.example.net/git/?p=tools/x.git;a=summary",
	  "https://git.example.net/git/?p=tools/x.git;a=commit;h=%s" },
	{ "https://sourceware.org/git/", NULL },
	/* unknown hosts, local paths, what a link must not carry */
	{ "https://example.org/o/r.git", NULL },
	{ "/srv/git/repo.git", NULL },
	{ "../repo", NULL },
	{ "repo", NULL },
	{ "file:///srv/git/repo.git", NULL },
	{ "ext::sh -c false", NULL },
	{ "https://github.com/o/r%25s", NULL },
	{ "https://github.com/o/r\"x", NULL },
	{ "https://github.com/o/r x", NULL },
	{ "https://github.com/o/r\n", NULL },
	{ "https://github.com/o/r\xc3\xa9", NULL },
	{ "", NULL },
};

static void test_commit_url_from_remote(void **state)
{
	char *t;

	(void)state;
	for (size_t i = 0; i < sizeof urls / sizeof *urls; i++) {
		onlist_status st = onlist_git_commit_url_from_remote(
			urls[i].remote, &t);

		if (!urls[i].want) {
			if (st != ONLIST_ENOTFOUND || t)
				fail_msg("%s: got %s", urls[i].remote, t);
			continue;
		}
		if (st != ONLIST_OK || strcmp(t, urls[i].want))
			fail_msg("%s: got %s, want %s", urls[i].remote,
				 t ? t : onlist_status_str(st), urls[i].want);
		/* exactly one conversion, and it is %s */
		assert_non_null(strstr(t, "%s"));
		assert_ptr_equal(strchr(t, '%'), strrchr(t, '%'));
		free(t);
	}
	assert_int_equal(onlist_git_commit_url_from_remote(NULL, &t),
			 ONLIST_ENOTFOUND);
	assert_null(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failing_git_says_why),
		cmocka_unit_test(test_no_git_on_path),
		cmocka_unit_test(test_tmpdir),
		cmocka_unit_test(test_records_and_capture),
		cmocka_unit_test(test_no_inherited_descriptors),
		cmocka_unit_test(test_config_get),
		cmocka_unit_test(test_remote_commit_url),
		cmocka_unit_test(test_commit_url_from_remote),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
