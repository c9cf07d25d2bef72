/* test_fetch.c - the fetch stage as a library (fetch.h): the list a source
 * is stored under, the one-fetch-per-database lock, and local sources
 * into a real store.  Every failure must come back as a status and one
 * message, never as output: standard output and standard error are
 * redirected to a file while the stage runs, and the file must stay
 * empty.  (Sources over HTTP are t030-t032's, against real servers.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "onlist/fetch.h"
#include "onlist/store.h"

static char tmpdir[] = "/tmp/onlist-test-fetch-XXXXXX";
static int saved_out = -1, saved_err = -1;
static char *quiet_file;

static char *path_in(const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", tmpdir, name) > 0);
	return p;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* stdout and stderr into a file until heard() says what reached it */
static void hush(void)
{
	int fd = open(quiet_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(1);
	saved_err = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	close(fd);
}

static long heard(void)
{
	struct stat st;

	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	assert_int_equal(stat(quiet_file, &st), 0);
	return (long)st.st_size;
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	quiet_file = path_in("heard");
	return 0;
}

static int teardown(void **state)
{
	char *cmd;

	(void)state;
	free(quiet_file);
	if (asprintf(&cmd, "rm -rf '%s'", tmpdir) > 0) {
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", tmpdir);
		free(cmd);
	}
	return 0;
}

/* ---- the list a source is stored under ----------------------------------- */

static void test_list_name(void **state)
{
	static const struct { const char *source, *want; } cases[] = {
		{ "https://lore.kernel.org/linux-fsdevel/", "linux-fsdevel" },
		{ "https://lore.kernel.org/linux-fsdevel", "linux-fsdevel" },
		{ "https://lore.kernel.org/all/", "all" },
		{ "https://example.org/lists/lkml.mbox.gz", "lkml" },
		{ "/nonexistent/srv/lkml.mbox.gz", "lkml" },
		{ "/nonexistent/NAME/git/0.git", "NAME" },
		{ "/nonexistent/NAME/git/12.git/", "NAME" },
		{ "/nonexistent/NAME-3.git", "NAME" },
		{ "/nonexistent/selinux.vger.kernel.org.0", "selinux" },
		{ "/nonexistent/.hidden", ".hidden" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = onlist_fetch_list_name(cases[i].source);

		assert_non_null(got);
		if (strcmp(got, cases[i].want))
			fail_msg("%s: '%s', want '%s'", cases[i].source, got,
				 cases[i].want);
		free(got);
	}
}

/* A relative path is resolved first: "git/0.git" from inside NAME. */
static void test_list_name_relative(void **state)
{
	char *inbox = path_in("myinbox"), *epoch = path_in("myinbox/git/0.git"),
	     *git = path_in("myinbox/git"), cwd[4096], *got;

	(void)state;
	assert_int_equal(mkdir(inbox, 0700), 0);
	assert_int_equal(mkdir(git, 0700), 0);
	assert_int_equal(mkdir(epoch, 0700), 0);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(inbox), 0);
	got = onlist_fetch_list_name("git/0.git");
	assert_int_equal(chdir(cwd), 0);
	assert_string_equal(got, "myinbox");
	free(got);
	free(inbox);
	free(epoch);
	free(git);
}

/* ---- the lock ----------------------------------------------------------- */

static void test_lock(void **state)
{
	struct onlist_fetch_lock *a = NULL, *b = NULL;
	char *db = path_in("lock.db"), *lock = path_in("lock.db.fetch-lock"),
	     *err = NULL;
	struct stat st;

	(void)state;
	hush();
	assert_int_equal(onlist_fetch_lock(&a, db, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(stat(lock, &st), 0);
	/* a second fetch on the same database: refused, and why */
	assert_int_equal(onlist_fetch_lock(&b, db, &err), ONLIST_EIO);
	assert_null(b);
	assert_int_equal(heard(), 0);
	assert_non_null(err);
	assert_non_null(strstr(err, "another onlist fetch is running on"));
	assert_non_null(strstr(err, lock));
	free(err);
	err = NULL;
	/* let go: the file is gone, and the lock can be taken again */
	onlist_fetch_unlock(a);
	assert_int_equal(stat(lock, &st), -1);
	assert_int_equal(onlist_fetch_lock(&b, db, &err), ONLIST_OK);
	onlist_fetch_unlock(b);
	onlist_fetch_unlock(NULL);
	free(db);
	free(lock);
}

/* A lock file that is a link (it could point anywhere) is refused. */
static void test_lock_link(void **state)
{
	struct onlist_fetch_lock *a = NULL;
	char *db = path_in("link.db"), *lock = path_in("link.db.fetch-lock"),
	     *err = NULL;

	(void)state;
	assert_int_equal(symlink("/nonexistent/elsewhere", lock), 0);
	hush();
	assert_int_equal(onlist_fetch_lock(&a, db, &err), ONLIST_EIO);
	assert_int_equal(heard(), 0);
	assert_null(a);
	assert_non_null(err);
	assert_non_null(strstr(err, "(a symbolic link: remove it)"));
	free(err);
	free(db);
	free(lock);
}

/* ---- local sources ------------------------------------------------------- */

static const char mbox[] =
	"From a@example.org Mon Jan  1 00:00:00 2024\n"
	"From: A <a@example.org>\n"
	"Subject: [PATCH] one\n"
	"Message-ID: <1@example.org>\n"
	"Date: Mon, 1 Jan 2024 00:00:00 +0000\n"
	"\n"
	"text\n"
	"\n"
	"From b@example.org Mon Jan  1 00:00:00 2024\n"
	"From: B <b@example.org>\n"
	"Subject: two\n"
	"Message-ID: <2@example.org>\n"
	"Date: Mon, 1 Jan 2024 00:00:01 +0000\n"
	"\n"
	"text\n";

static void test_local(void **state)
{
	struct onlist_fetch_opts o = ONLIST_FETCH_OPTS_INIT;
	struct onlist_import_counts c = { 0, 0, 0, 0 };
	struct onlist_store *s = NULL;
	char *db = path_in("local.db"), *file = path_in("two.mbox"),
	     *nowhere = path_in("missing.mbox"), *plain = path_in("plain"),
	     *data = path_in("data"), *err = NULL, *v;

	(void)state;
	o.data = data;
	write_file(file, mbox);
	assert_int_equal(mkdir(plain, 0700), 0);
	assert_int_equal(onlist_store_open(&s, db, &err), ONLIST_OK);
	hush();
	/* read, then remembered as a source */
	assert_int_equal(onlist_fetch_source(s, file, "two", &o, 1, &c, &err),
			 ONLIST_OK);
	assert_int_equal(heard(), 0);
	assert_null(err);
	assert_int_equal(c.messages, 2);
	assert_int_equal(c.added, 2);
	v = onlist_store_get_state(s, file, "fetched");
	assert_non_null(v);
	free(v);
	/* again: nothing new */
	memset(&c, 0, sizeof(c));
	assert_int_equal(onlist_fetch_source(s, file, "two", &o, 0, &c, &err),
			 ONLIST_OK);
	assert_int_equal(c.messages, 2);
	assert_int_equal(c.added, 0);

	/* failures: a status and one line naming the source, said nowhere */
	hush();
	o.since = "2024-01-01";
	assert_int_equal(onlist_fetch_source(s, file, "two", &o, 1, &c, &err),
			 ONLIST_EUSAGE);
	o.since = NULL;
	assert_int_equal(heard(), 0);
	assert_non_null(err);
	assert_non_null(strstr(err, ": --since, --until and --query need a "
			       "public-inbox URL"));
	assert_ptr_equal(strstr(err, file), err);
	free(err);
	err = NULL;

	hush();
	assert_int_equal(onlist_fetch_source(s, nowhere, "x", &o, 1, &c, &err),
			 ONLIST_EIO);
	assert_int_equal(heard(), 0);
	assert_non_null(err);
	assert_ptr_equal(strstr(err, nowhere), err);
	assert_non_null(strstr(err, strerror(ENOENT)));
	free(err);
	err = NULL;

	hush();
	assert_int_equal(onlist_fetch_source(s, plain, "x", &o, 1, &c, &err),
			 ONLIST_EPARSE);
	assert_int_equal(heard(), 0);
	assert_non_null(err);
	assert_non_null(strstr(err, "neither a maildir nor a public-inbox "
			       "directory"));
	assert_null(strchr(err, '\n'));
	free(err);

	onlist_store_close(s);
	free(db);
	free(file);
	free(nowhere);
	free(plain);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_name),
		cmocka_unit_test(test_list_name_relative),
		cmocka_unit_test(test_lock),
		cmocka_unit_test(test_lock_link),
		cmocka_unit_test(test_local),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
