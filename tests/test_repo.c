/* test_repo.c - reading commits out of git: onlist_repo_scan and rev_list.
 *
 * The setup builds a small repository with git itself; wherever git has an
 * answer (the patch-id of a commit's own format-patch mail, the rev-list
 * order) the test asks git rather than pasting its output.
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

#include "onlist/repo.h"

static char tmpdir[] = "/tmp/onlist-test-repo-XXXXXX";
static char repo[sizeof tmpdir + 8];

/* Commits by subject; every one gets its own date so rev-list's order is
 * fixed.  "side" is on a branch merged with --no-ff: the merge commit
 * must not be scanned. */
static const char build[] =
	"set -e\n"
	"cd \"$REPO\"\n"
	"git init -q -b main .\n"
	"n=0\n"
	"c() { n=$((n+1)); d=\"@$((1700000000 + n * 60)) +0000\";"
	" GIT_AUTHOR_DATE=\"$d\" GIT_COMMITTER_DATE=\"$d\" git commit -q \"$@\"; }\n"
	"printf 'int main(void)\\n{\\n\\treturn 0;\\n}\\n' > hello.c\n"
	"git add hello.c\n"
	"c -m 'Add hello'\n"
	"c --allow-empty -m 'Change nothing' -m 'Nothing in the tree changes here.'\n"
	"printf 'GIF\\000\\001\\002binary\\377' > logo.bin\n"
	"git add logo.bin\n"
	"c -m 'Add a binary logo'\n"
	"git mv hello.c greet.c\n"
	"printf 'int main(void)\\n{\\n\\treturn 1;\\n}\\n' > greet.c\n"
	"git add greet.c\n"
	"c -m 'Rename hello.c to greet.c'\n"
	"printf '/* greet */\\nint main(void)\\n{\\n\\treturn 1;\\n}\\n' > greet.c\n"
	"c -a -m 'Explain greet.c' -m 'The file needs a comment saying what it is for.' "
	"-m 'Signed-off-by: A U Thor <author@example.org>\n"
	"Acked-by: B Acker <acker@example.org>\n"
	"Reviewed-by: C Reviewer\n  <reviewer@example.org>'\n"
	"echo 'no final newline' | tr -d '\\n' > 'with space.txt'\n"
	"printf 'caf\\303\\251\\n' > \"$(printf 'caf\\303\\251.txt')\"\n"
	"git add .\n"
	"c -m 'Add oddly named files' -m 'Signed-off-by: A U Thor <author@example.org>'\n"
	"git checkout -q -b side\n"
	"echo side > side.txt && git add side.txt && c -m 'Add side.txt'\n"
	"git checkout -q main\n"
	"echo main > main.txt && git add main.txt && c -m 'Add main.txt'\n"
	"n=$((n+1)); d=\"@$((1700000000 + n * 60)) +0000\"\n"
	"GIT_AUTHOR_DATE=\"$d\" GIT_COMMITTER_DATE=\"$d\" "
	"git merge -q --no-ff -m 'Merge branch side' side\n";

static int setup(void **state)
{
	char *cmd;
	int rc;

	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(repo, sizeof repo, "%s/repo", tmpdir);
	setenv("REPO", repo, 1);
	setenv("HOME", tmpdir, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	setenv("GIT_AUTHOR_NAME", "A U Thor", 1);
	setenv("GIT_AUTHOR_EMAIL", "author@example.org", 1);
	setenv("GIT_COMMITTER_NAME", "C O Mitter", 1);
	setenv("GIT_COMMITTER_EMAIL", "committer@example.org", 1);
	setenv("LC_ALL", "C", 1);
	if (asprintf(&cmd, "mkdir '%s' && sh -c \"$BUILD\" >&2", repo) < 0)
		return -1;
	setenv("BUILD", build, 1);
	rc = system(cmd);
	free(cmd);
	return rc == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd;

	(void)state;
	if (asprintf(&cmd, "rm -rf '%s'", tmpdir) > 0) {
		if (system(cmd) != 0)
			fprintf(stderr, "cannot remove %s\n", tmpdir);
		free(cmd);
	}
	return 0;
}

/* The first line git prints for a shell command run in the repository,
 * without its newline ("" when it prints nothing). */
static char *git_line(const char *fmt, ...)
{
	char *cmd, *full, buf[4096] = "";
	va_list ap;
	FILE *p;

	va_start(ap, fmt);
	assert_true(vasprintf(&cmd, fmt, ap) > 0);
	va_end(ap);
	assert_true(asprintf(&full, "cd '%s' && %s", repo, cmd) > 0);
	p = popen(full, "r");
	assert_non_null(p);
	if (!fgets(buf, sizeof buf, p))
		buf[0] = '\0';
	pclose(p);
	free(cmd);
	free(full);
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

/* What a scan delivered, copied out of the callback. */
struct seen {
	char sha[41];
	char *subject, *trailers, *files;
	char *author, *committer;
	int64_t author_date;
	int body_empty, has_patchid;
	char patchid[ONLIST_PATCHID_HEXSZ + 1];
};

struct collect {
	struct seen v[64];
	size_t n;
	int stop_after;		/* 0: never stop */
	size_t rounds, last_done, last_total;
	char **known;		/* NULL-terminated shas to skip */
	size_t known_asked;
};

static int collect(const struct onlist_commit *c, void *data)
{
	struct collect *col = data;
	struct seen *s;
	char *t = strdup(""), *n;
	size_t i;

	assert_true(col->n < 64);
	s = &col->v[col->n++];
	memcpy(s->sha, c->sha, 41);
	s->subject = strdup(c->subject);
	s->files = strdup(c->files);
	assert_true(asprintf(&s->author, "%s <%s>", c->author_name,
			     c->author_email) > 0);
	assert_true(asprintf(&s->committer, "%s <%s>", c->committer_name,
			     c->committer_email) > 0);
	s->author_date = c->author_date;
	for (i = 0; i < c->ntrailers; i++) {
		assert_true(asprintf(&n, "%s%s=%s\n", t, c->trailers[i].key,
				     c->trailers[i].value) > 0);
		free(t);
		t = n;
	}
	s->trailers = t;
	s->body_empty = c->body_empty;
	s->has_patchid = c->has_patchid;
	memcpy(s->patchid, c->patchid, sizeof s->patchid);
	return col->stop_after && col->n >= (size_t)col->stop_after;
}

static int count_round(size_t done, size_t total, void *data)
{
	struct collect *col = data;

	assert_true(done > col->last_done);
	assert_true(done <= total);
	col->rounds++;
	col->last_done = done;
	col->last_total = total;
	return 0;
}

static int is_known(const char *sha, void *data)
{
	struct collect *col = data;
	char **k;

	col->known_asked++;
	for (k = col->known; k && *k; k++)
		if (!strcmp(*k, sha))
			return 1;
	return 0;
}

static void collect_release(struct collect *col)
{
	size_t i;

	for (i = 0; i < col->n; i++) {
		free(col->v[i].subject);
		free(col->v[i].trailers);
		free(col->v[i].files);
		free(col->v[i].author);
		free(col->v[i].committer);
	}
	col->n = 0;
}

static onlist_status scan(struct collect *col, const char *range, int jobs,
			  size_t batch, char **err)
{
	struct onlist_scan_opts o = ONLIST_SCAN_OPTS_INIT;

	o.jobs = jobs;
	o.batch = batch;
	o.each = collect;
	o.each_data = col;
	o.round_done = count_round;
	if (col->known) {
		o.known = is_known;
		o.known_data = col;
	}
	return onlist_repo_scan(repo, range, &o, err);
}

static const struct seen *by_subject(const struct collect *col,
				     const char *subject)
{
	size_t i;

	for (i = 0; i < col->n; i++)
		if (!strcmp(col->v[i].subject, subject))
			return &col->v[i];
	fail_msg("no commit \"%s\" scanned", subject);
	return NULL;
}

/* ---- tests ---- */

static void test_scan_excludes_merges_keeps_order(void **state)
{
	struct collect col = { 0 };
	char *err = NULL, *merge, *want, *got = strdup(""), *n;
	size_t i;

	(void)state;
	assert_int_equal(scan(&col, "HEAD", 0, 0, &err), ONLIST_OK);
	assert_null(err);
	/* 8 commits, 1 merge */
	assert_int_equal(col.n, 8);
	merge = git_line("git rev-parse HEAD");
	for (i = 0; i < col.n; i++) {
		assert_string_not_equal(col.v[i].sha, merge);
		assert_true(asprintf(&n, "%s%s ", got, col.v[i].sha) > 0);
		free(got);
		got = n;
	}
	want = git_line("git rev-list --no-merges HEAD | tr '\\n' ' '");
	assert_string_equal(got, want);
	assert_int_equal(col.rounds, 1);
	assert_int_equal(col.last_done, 8);
	assert_int_equal(col.last_total, 8);
	by_subject(&col, "Add side.txt");	/* the merged branch's commit */
	free(merge);
	free(want);
	free(got);
	collect_release(&col);
}

static void test_scan_header_fields(void **state)
{
	struct collect col = { 0 };
	const struct seen *s;
	char *err = NULL, *want;

	(void)state;
	assert_int_equal(scan(&col, "HEAD", 0, 0, &err), ONLIST_OK);
	s = by_subject(&col, "Add hello");
	assert_string_equal(s->author, "A U Thor <author@example.org>");
	assert_string_equal(s->committer, "C O Mitter <committer@example.org>");
	assert_int_equal(s->author_date, 1700000060);
	want = git_line("git rev-list --max-parents=0 HEAD");
	assert_string_equal(s->sha, want);
	free(want);
	collect_release(&col);
}

static void test_scan_trailers_and_body_empty(void **state)
{
	static const struct {
		const char *subject, *trailers;
		int body_empty;
	} cases[] = {
		/* in message order; a folded trailer is unfolded by git */
		{ "Explain greet.c",
		  "Signed-off-by=A U Thor <author@example.org>\n"
		  "Acked-by=B Acker <acker@example.org>\n"
		  "Reviewed-by=C Reviewer <reviewer@example.org>\n", 0 },
		/* a body of trailers only explains nothing */
		{ "Add oddly named files",
		  "Signed-off-by=A U Thor <author@example.org>\n", 1 },
		{ "Add hello", "", 1 },
		{ "Change nothing", "", 0 },
	};
	struct collect col = { 0 };
	const struct seen *s;
	char *err = NULL;
	size_t i;

	(void)state;
	assert_int_equal(scan(&col, "HEAD", 0, 0, &err), ONLIST_OK);
	for (i = 0; i < sizeof cases / sizeof *cases; i++) {
		s = by_subject(&col, cases[i].subject);
		assert_string_equal(s->trailers, cases[i].trailers);
		assert_int_equal(s->body_empty, cases[i].body_empty);
	}
	collect_release(&col);
}

static void test_scan_files(void **state)
{
	static const struct {
		const char *subject, *files;
	} cases[] = {
		{ "Add hello", "hello.c\n" },
		{ "Change nothing", "" },
		{ "Add a binary logo", "logo.bin\n" },
		/* a rename counts as its new name */
		{ "Rename hello.c to greet.c", "greet.c\n" },
		/* git quotes a name with non-ASCII bytes, and we keep that */
		{ "Add oddly named files",
		  "\"caf\\303\\251.txt\"\nwith space.txt\n" },
	};
	struct collect col = { 0 };
	char *err = NULL;
	size_t i;

	(void)state;
	assert_int_equal(scan(&col, "HEAD", 0, 0, &err), ONLIST_OK);
	for (i = 0; i < sizeof cases / sizeof *cases; i++)
		assert_string_equal(by_subject(&col, cases[i].subject)->files,
				    cases[i].files);
	collect_release(&col);
}

/* The point of the whole module: a commit and its own format-patch mail
 * hash alike, binary files and renames included. */
static void test_scan_patchid_matches_format_patch(void **state)
{
	struct collect col = { 0 };
	char *err = NULL, *want;
	size_t i;

	(void)state;
	assert_int_equal(scan(&col, "HEAD", 0, 0, &err), ONLIST_OK);
	for (i = 0; i < col.n; i++) {
		want = git_line("git format-patch -1 --stdout %s | "
				"git patch-id --stable | cut -c1-40",
				col.v[i].sha);
		if (!*want) {
			assert_false(col.v[i].has_patchid);
			assert_string_equal(col.v[i].subject, "Change nothing");
		} else {
			assert_true(col.v[i].has_patchid);
			assert_string_equal(col.v[i].patchid, want);
		}
		free(want);
	}
	collect_release(&col);
}

/* Rounds of one commit and more jobs than commits change nothing. */
static void test_scan_rounds_and_jobs(void **state)
{
	struct collect a = { 0 }, b = { 0 };
	char *err = NULL;
	size_t i;

	(void)state;
	assert_int_equal(scan(&a, "HEAD", 0, 0, &err), ONLIST_OK);
	assert_int_equal(scan(&b, "HEAD", 5, 3, &err), ONLIST_OK);
	assert_int_equal(b.n, a.n);
	assert_int_equal(b.rounds, 3);
	assert_int_equal(b.last_done, a.n);
	for (i = 0; i < a.n; i++) {
		assert_string_equal(b.v[i].sha, a.v[i].sha);
		assert_string_equal(b.v[i].patchid, a.v[i].patchid);
		assert_string_equal(b.v[i].files, a.v[i].files);
	}
	collect_release(&a);
	collect_release(&b);
}

static void test_scan_known_are_skipped(void **state)
{
	struct collect col = { 0 };
	char *err = NULL, *k[3];
	size_t i;

	(void)state;
	k[0] = git_line("git rev-parse HEAD^1");	/* "Add main.txt" */
	k[1] = git_line("git rev-list --max-parents=0 HEAD");
	k[2] = NULL;
	col.known = k;
	assert_int_equal(scan(&col, "HEAD", 0, 0, &err), ONLIST_OK);
	assert_int_equal(col.known_asked, 8);
	assert_int_equal(col.n, 6);
	assert_int_equal(col.last_total, 6);
	for (i = 0; i < col.n; i++) {
		assert_string_not_equal(col.v[i].sha, k[0]);
		assert_string_not_equal(col.v[i].sha, k[1]);
	}
	free(k[0]);
	free(k[1]);
	collect_release(&col);
}

static void test_scan_stop_and_empty_range(void **state)
{
	struct collect col = { 0 };
	char *err = NULL;

	(void)state;
	col.stop_after = 2;
	assert_int_equal(scan(&col, "HEAD", 0, 0, &err), ONLIST_OK);
	assert_int_equal(col.n, 2);
	assert_int_equal(col.rounds, 0);
	collect_release(&col);

	memset(&col, 0, sizeof col);
	assert_int_equal(scan(&col, "HEAD..HEAD", 0, 0, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(col.n, 0);
	/* a range of one commit */
	assert_int_equal(scan(&col, "HEAD^2^..HEAD^2", 0, 0, &err), ONLIST_OK);
	assert_int_equal(col.n, 1);
	assert_string_equal(col.v[0].subject, "Add side.txt");
	collect_release(&col);
}

/* Stopping with rounds still in flight (one commit per round, two gits
 * running ahead) ends cleanly. */
static void test_scan_stop_mid_way(void **state)
{
	struct collect col = { 0 };
	char *err = NULL;

	(void)state;
	col.stop_after = 3;
	assert_int_equal(scan(&col, "HEAD", 2, 1, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(col.n, 3);
	assert_int_equal(col.rounds, 2);
	collect_release(&col);
}

/* rev-list needs no blobs but the diff does: git fails half-way, says
 * why, and the rounds before the broken commit have still arrived. */
static void test_scan_git_fails_mid_way(void **state)
{
	struct collect col = { 0 };
	struct onlist_scan_opts o = ONLIST_SCAN_OPTS_INIT;
	char *err = NULL, *blob, *broken;

	(void)state;
	blob = git_line("git rev-parse 'HEAD^1:logo.bin'");
	assert_int_equal(strlen(blob), 40);
	assert_true(asprintf(&broken, "%s/broken", tmpdir) > 0);
	free(git_line("cp -r . '%s' && rm '%s/.git/objects/%.2s/%s'",
		      broken, broken, blob, blob + 2));
	o.batch = 1;
	o.each = collect;
	o.each_data = &col;
	assert_int_equal(onlist_repo_scan(broken, "HEAD", &o, &err),
			 ONLIST_EGIT);
	assert_non_null(err);
	assert_non_null(strstr(err, blob));
	/* newest first: main, side, oddly named, explain, rename */
	assert_int_equal(col.n, 5);
	free(err);
	free(blob);
	free(broken);
	collect_release(&col);
}

static void test_scan_errors(void **state)
{
	struct collect col = { 0 };
	char *err = NULL;

	(void)state;
	assert_int_equal(scan(&col, "v9.9", 0, 0, &err), ONLIST_EGIT);
	assert_non_null(err);
	assert_non_null(strstr(err, "bad revision 'v9.9'"));
	free(err);
	err = NULL;

	/* never handed to git, which would read an option */
	assert_int_equal(scan(&col, "-x", 0, 0, &err), ONLIST_EUSAGE);
	free(err);
	err = NULL;
	assert_int_equal(scan(&col, "--all", 0, 0, &err), ONLIST_EUSAGE);
	free(err);
	err = NULL;

	/* two words are one (bad) revision, not two arguments */
	assert_int_equal(scan(&col, "HEAD HEAD^", 0, 0, &err), ONLIST_EGIT);
	assert_non_null(err);
	free(err);
	err = NULL;
	assert_int_equal(col.n, 0);

	assert_int_equal(onlist_repo_scan("/nonexistent/onlist", "HEAD", NULL,
					  &err), ONLIST_EGIT);
	assert_non_null(err);
	assert_non_null(strstr(err, "/nonexistent/onlist"));
	free(err);
}

static void test_rev_list(void **state)
{
	char (*v)[41] = NULL, *err = NULL, *want, *got = strdup(""), *n;
	size_t len, i;

	(void)state;
	assert_int_equal(onlist_repo_rev_list(repo, "HEAD", &v, &len, &err),
			 ONLIST_OK);
	assert_null(err);
	assert_int_equal(len, 8);
	for (i = 0; i < len; i++) {
		assert_int_equal(strlen(v[i]), 40);
		assert_true(asprintf(&n, "%s%s ", got, v[i]) > 0);
		free(got);
		got = n;
	}
	want = git_line("git rev-list --no-merges HEAD | tr '\\n' ' '");
	assert_string_equal(got, want);
	free(v);
	free(got);
	free(want);

	assert_int_equal(onlist_repo_rev_list(repo, "-n1", &v, &len, &err),
			 ONLIST_EUSAGE);
	free(err);
	err = NULL;
	assert_int_equal(onlist_repo_rev_list(repo, "nosuchbranch", &v, &len,
					      &err), ONLIST_EGIT);
	assert_non_null(strstr(err, "bad revision 'nosuchbranch'"));
	assert_null(v);
	assert_int_equal(len, 0);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_excludes_merges_keeps_order),
		cmocka_unit_test(test_scan_header_fields),
		cmocka_unit_test(test_scan_trailers_and_body_empty),
		cmocka_unit_test(test_scan_files),
		cmocka_unit_test(test_scan_patchid_matches_format_patch),
		cmocka_unit_test(test_scan_rounds_and_jobs),
		cmocka_unit_test(test_scan_known_are_skipped),
		cmocka_unit_test(test_scan_stop_and_empty_range),
		cmocka_unit_test(test_scan_stop_mid_way),
		cmocka_unit_test(test_scan_git_fails_mid_way),
		cmocka_unit_test(test_scan_errors),
		cmocka_unit_test(test_rev_list),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
