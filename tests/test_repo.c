/* test_repo.c - reading commits out of git: onlist_repo_scan and rev_list,
 * and public-inbox epochs: onlist_pi_epoch_walk and onlist_pi_epoch_mirror.
 *
 * The setup builds a small repository with git itself; wherever git has an
 * answer (the patch-id of a commit's own format-patch mail, the rev-list
 * order) the test asks git rather than pasting its output.  The epochs are
 * built with plain git plumbing in public-inbox's layouts (see FACTS.md and
 * what public-inbox 1.9 writes): v2, one blob `m` per commit or `d` for a
 * removal; v1, a message at aa/bbbb... added, or deleted for a removal.
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
#include "onlist/repo_diff.h"

static char tmpdir[] = "/tmp/onlist-test-repo-XXXXXX";
static char repo[sizeof tmpdir + 8];
static char epoch[sizeof tmpdir + 16], v1[sizeof tmpdir + 16];

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

/* $TMP/msg/1..4: the messages; $TMP/epoch.git (v2): commits 1-3 add
 * messages 1-3, commit 4 removes message 2 (tree {d}), commit 5 adds
 * message 4.  Message 2 has CRLF, a NUL, a bare "From " line and no final
 * newline; message 3 is larger than one read of the pipe.  $TMP/v1.git:
 * message 1 at its v1 path, message 2, a README (not a message), then the
 * removal of message 1.  $TMP/purged.git (v2): message 1, an empty m (what
 * public-inbox-purge leaves), message 4.  The commit ids are in
 * $TMP/<name>.commits, oldest first. */
static const char build_epochs[] =
	"set -e\n"
	"cd \"$TMP\"\n"
	"mkdir msg\n"
	"printf 'Message-ID: <1@example.org>\\nSubject: one\\n\\nbody\\n'"
	" > msg/1\n"
	"printf 'Message-ID: <2@example.org>\\r\\nSubject: two\\r\\n\\r\\n"
	"From me\\r\\nnul \\000 here \\377' > msg/2\n"
	"{ printf 'Message-ID: <3@example.org>\\nSubject: big\\n\\n';"
	" yes 'a long line of a large message, repeated many times' |"
	" head -n 20000; } > msg/3\n"
	"printf 'Message-ID: <4@example.org>\\nSubject: four\\n\\n4\\n' > msg/4\n"
	"n=0\n"
	"commit() {\n"
	"  n=$((n+1)); d=\"@$((1700000000 + n * 60)) +0000\"\n"
	"  t=$(GIT_INDEX_FILE=\"$1.index\" git -C \"$1\" write-tree)\n"
	"  tip=$(GIT_AUTHOR_DATE=\"$d\" GIT_COMMITTER_DATE=\"$d\""
	" git -C \"$1\" commit-tree ${tip:+-p $tip} -m \"$2\" $t)\n"
	"  git -C \"$1\" update-ref refs/heads/master $tip\n"
	"  echo $tip >> \"$1\"/../$(basename \"$1\" .git).commits\n"
	"}\n"
	"put() {\n"
	"  b=$(git -C \"$1\" hash-object -w --stdin < \"$3\")\n"
	"  GIT_INDEX_FILE=\"$1.index\" git --git-dir=\"$1\" --work-tree=\"$TMP\" update-index --add"
	" --cacheinfo 100644,$b,$2\n"
	"}\n"
	"rm_() { GIT_INDEX_FILE=\"$1.index\" git --git-dir=\"$1\" --work-tree=\"$TMP\" update-index"
	" --force-remove \"$2\"; }\n"
	"E=$TMP/epoch.git; git init -q --bare $E\n"
	"put $E m msg/1; commit $E one\n"
	"put $E m msg/2; commit $E two\n"
	"put $E m msg/3; commit $E big\n"
	"rm_ $E m; put $E d msg/2; commit $E rm\n"
	"rm_ $E d; put $E m msg/4; commit $E four\n"
	"V=$TMP/v1.git; git init -q --bare $V; tip=\n"
	"p1=$(printf '<1@example.org>' | sha1sum | sed 's,^\\(..\\)\\([^ ]*\\).*,\\1/\\2,')\n"
	"p2=$(printf '<2@example.org>' | sha1sum | sed 's,^\\(..\\)\\([^ ]*\\).*,\\1/\\2,')\n"
	"put $V $p1 msg/1; commit $V one\n"
	"put $V $p2 msg/2; commit $V two\n"
	"put $V README msg/4; commit $V readme\n"
	"rm_ $V $p1; commit $V rm\n"
	/* public-inbox-purge: the message replaced by an empty m */
	"P=$TMP/purged.git; git init -q --bare $P; tip=\n"
	": > msg/empty\n"
	"put $P m msg/1; commit $P one\n"
	"put $P m msg/empty; commit $P purged\n"
	"put $P m msg/4; commit $P four\n";

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
	if (rc != 0)
		return -1;
	snprintf(epoch, sizeof epoch, "%s/epoch.git", tmpdir);
	snprintf(v1, sizeof v1, "%s/v1.git", tmpdir);
	setenv("TMP", tmpdir, 1);
	setenv("BUILD", build_epochs, 1);
	return system("sh -c \"$BUILD\" >&2") == 0 ? 0 : -1;
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
	char *skip_reason;		/* NULL when diffed */
	char skip_object[41];
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
	s->skip_reason = c->skip_reason ? strdup(c->skip_reason) : NULL;
	memcpy(s->skip_object, c->skip_object, sizeof s->skip_object);
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
		free(col->v[i].skip_reason);
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

/* Scan `dir` with every shape of rounds and jobs: a git dying on the first,
 * a middle or the last commit of its share, or alone in its round.  The
 * commits named in `skipped` (subject, then the object git must name)
 * arrive in their place with skip_reason set, no patch-id and `files`
 * (NULL: as in the intact repository); every other commit as in `intact`. */
static void scan_broken(const struct collect *intact, const char *dir,
			const char *const (*skipped)[3], size_t nskipped)
{
	static const struct {
		int jobs;
		size_t batch;
	} runs[] = {
		{ 1, 0 }, { 2, 0 }, { 1, 1 }, { 2, 1 }, { 2, 3 }, { 3, 2 },
		{ 5, 8 },
	};
	struct collect col;
	struct onlist_scan_opts o = ONLIST_SCAN_OPTS_INIT;
	char *err = NULL;
	size_t i, k, n;

	for (i = 0; i < sizeof runs / sizeof *runs; i++) {
		memset(&col, 0, sizeof col);
		o.jobs = runs[i].jobs;
		o.batch = runs[i].batch;
		o.each = collect;
		o.each_data = &col;
		if (onlist_repo_scan(dir, "HEAD", &o, &err) != ONLIST_OK)
			fail_msg("%s, %d jobs, batch %zu: %s", dir, o.jobs,
				 o.batch, err ? err : "no message");
		assert_int_equal(col.n, intact->n);
		for (k = n = 0; k < col.n; k++) {
			const struct seen *s = &col.v[k], *w = &intact->v[k];
			const char *const *skip = NULL;
			size_t m;

			assert_string_equal(s->sha, w->sha);
			assert_string_equal(s->subject, w->subject);
			assert_string_equal(s->author, w->author);
			for (m = 0; m < nskipped; m++)
				if (!strcmp(skipped[m][0], s->subject))
					skip = skipped[m];
			if (!skip) {
				assert_null(s->skip_reason);
				assert_string_equal(s->skip_object, "");
				assert_int_equal(s->has_patchid, w->has_patchid);
				assert_string_equal(s->patchid, w->patchid);
				assert_string_equal(s->files, w->files);
				continue;
			}
			n++;
			assert_non_null(s->skip_reason);
			assert_non_null(strstr(s->skip_reason, skip[1]));
			assert_string_equal(s->skip_object, skip[1]);
			assert_false(s->has_patchid);
			assert_string_equal(s->patchid, "");
			assert_string_equal(s->files, skip[2] ? skip[2] : w->files);
		}
		assert_int_equal(n, nskipped);
		collect_release(&col);
	}
}

/* rev-list needs no blobs but the diff does: a commit whose blob or tree
 * is gone is delivered all the same, with git's reason, and the scan goes
 * on past it. */
static void test_scan_missing_objects(void **state)
{
	struct collect intact = { 0 };
	char *err = NULL, *logo, *space, *tree, *blobs, *trees;

	(void)state;
	assert_int_equal(scan(&intact, "HEAD", 1, 0, &err), ONLIST_OK);
	logo = git_line("git rev-parse 'HEAD^1:logo.bin'");
	space = git_line("git rev-parse 'HEAD^1:with space.txt'");
	tree = git_line("git rev-parse \"$(git rev-list --max-parents=0 "
			"HEAD)^{tree}\"");	/* of "Add hello" */
	assert_int_equal(strlen(logo), 40);
	assert_int_equal(strlen(space), 40);
	assert_int_equal(strlen(tree), 40);
	assert_true(asprintf(&blobs, "%s/blobs", tmpdir) > 0);
	assert_true(asprintf(&trees, "%s/trees", tmpdir) > 0);
	/* a copy: the files of the work tree are not what git reads then */
	free(git_line("cp -r . '%s' && rm '%s/.git/objects/%.2s/%s' "
		      "'%s/.git/objects/%.2s/%s'", blobs, blobs, logo,
		      logo + 2, blobs, space, space + 2));
	free(git_line("cp -r . '%s' && rm '%s/.git/objects/%.2s/%s'",
		      trees, trees, tree, tree + 2));

	/* positions 2 and 5 of 8, newest first; the paths come from the
	 * trees, which are there */
	{
		const char *const skipped[][3] = {
			{ "Add oddly named files", space, NULL },
			{ "Add a binary logo", logo, NULL },
		};
		scan_broken(&intact, blobs, skipped, 2);
	}
	/* the tree of the root commit, which "Change nothing" has too and
	 * "Add a binary logo" diffs against: no paths at all */
	{
		const char *const skipped[][3] = {
			{ "Add hello", tree, "" },
			{ "Change nothing", tree, "" },
			{ "Add a binary logo", tree, "" },
		};
		scan_broken(&intact, trees, skipped, 3);
	}
	/* a failure that names no object is not the commit's: it would be
	 * every commit's, and fails the scan with git's message */
	{
		struct collect col = { 0 };
		struct onlist_scan_opts o = ONLIST_SCAN_OPTS_INIT;
		char *bad;

		assert_true(asprintf(&bad, "%s/badconfig", tmpdir) > 0);
		free(git_line("cp -r '%s' '%s' && git -C '%s' config "
			      "diff.renameLimit notanumber", blobs, bad, bad));
		o.jobs = 2;
		o.each = collect;
		o.each_data = &col;
		assert_int_equal(onlist_repo_scan(bad, "HEAD", &o, &err),
				 ONLIST_EGIT);
		assert_non_null(err);
		assert_non_null(strstr(err, "diff.renamelimit"));
		assert_int_equal(col.n, 0);
		free(err);
		err = NULL;
		free(bad);
	}
	/* stopped by the caller with gits dying and being replaced around
	 * it: no hang, no error */
	for (size_t stop = 1; stop <= intact.n; stop++) {
		struct collect col = { 0 };
		struct onlist_scan_opts o = ONLIST_SCAN_OPTS_INIT;

		col.stop_after = (int)stop;
		o.jobs = 2;
		o.batch = 1 + stop % 3;
		o.each = collect;
		o.each_data = &col;
		assert_int_equal(onlist_repo_scan(blobs, "HEAD", &o, &err),
				 ONLIST_OK);
		assert_null(err);
		assert_int_equal(col.n, stop);
		collect_release(&col);
	}
	free(logo);
	free(space);
	free(tree);
	free(blobs);
	free(trees);
	collect_release(&intact);
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
	assert_int_equal(onlist_repo_scan_rev_list(repo, "HEAD", &v, &len, &err),
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

	assert_int_equal(onlist_repo_scan_rev_list(repo, "-n1", &v, &len, &err),
			 ONLIST_EUSAGE);
	free(err);
	err = NULL;
	assert_int_equal(onlist_repo_scan_rev_list(repo, "nosuchbranch", &v, &len,
					      &err), ONLIST_EGIT);
	assert_non_null(strstr(err, "bad revision 'nosuchbranch'"));
	assert_null(v);
	assert_int_equal(len, 0);
	free(err);
}

/* ---- public-inbox epochs ---- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* Line i (from 1) of $TMP/<name>.commits. */
static char *commit_no(const char *name, int i)
{
	return git_line("sed -n %dp '%s/%s.commits'", i, tmpdir, name);
}

struct event {
	char commit[41];
	int deleted;
	char missing[41];	/* the blob, or "" */
	char *data;		/* a copy, or NULL */
	size_t len;
	int64_t time;		/* the commit's committer time */
};

struct events {
	struct event v[16];
	size_t n;
	size_t stop_after;	/* 0: never */
};

static int on_msg(const struct onlist_epoch_msg *m, void *data)
{
	struct events *ev = data;
	struct event *e;

	assert_true(ev->n < 16);
	e = &ev->v[ev->n++];
	assert_int_equal(strlen(m->commit), 40);
	memcpy(e->commit, m->commit, 41);
	e->deleted = m->deleted;
	e->time = m->time;
	e->len = m->len;
	e->data = NULL;
	snprintf(e->missing, sizeof(e->missing), "%s", m->missing ? m->missing : "");
	if (m->deleted || m->missing) {
		assert_null(m->data);
		assert_int_equal(m->len, 0);
	} else {
		assert_non_null(m->data);
		e->data = malloc(m->len + 1);
		assert_non_null(e->data);
		memcpy(e->data, m->data, m->len);
	}
	return ev->stop_after && ev->n >= ev->stop_after;
}

static void events_release(struct events *ev)
{
	size_t i;

	for (i = 0; i < ev->n; i++)
		free(ev->v[i].data);
	ev->n = 0;
}

/* Event i is message `msg` (1-4, byte for byte) of commit `commit_i`
 * (1-based) of the named repository; msg 0: a removal. */
static void assert_event(const struct events *ev, size_t i, const char *name,
			 int commit_i, int msg)
{
	char *want = commit_no(name, commit_i), *path, *data, *when;
	size_t len;

	assert_true(i < ev->n);
	assert_string_equal(ev->v[i].commit, want);
	/* when the archive took the message in: git says */
	when = git_line("git --git-dir='%s/%s.git' log -1 --format=%%ct %s",
			tmpdir, name, want);
	assert_true(ev->v[i].time > 0);
	assert_int_equal(ev->v[i].time, strtoll(when, NULL, 10));
	free(when);
	assert_int_equal(ev->v[i].deleted, msg == 0);
	if (msg) {
		assert_true(asprintf(&path, "%s/msg/%d", tmpdir, msg) > 0);
		data = slurp(path, &len);
		assert_int_equal(ev->v[i].len, len);
		assert_memory_equal(ev->v[i].data, data, len);
		free(data);
		free(path);
	}
	free(want);
}

static void test_epoch_walk_all(void **state)
{
	struct events ev = { 0 };
	char *last = NULL, *err = NULL, *tip;

	(void)state;
	assert_int_equal(onlist_pi_epoch_walk(epoch, NULL, NULL, on_msg, &ev,
						&last, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(ev.n, 5);
	assert_event(&ev, 0, "epoch", 1, 1);
	assert_event(&ev, 1, "epoch", 2, 2);
	assert_event(&ev, 2, "epoch", 3, 3);	/* larger than a pipe read */
	assert_event(&ev, 3, "epoch", 4, 0);	/* tree {d}: a removal */
	assert_event(&ev, 4, "epoch", 5, 4);
	tip = commit_no("epoch", 5);
	assert_non_null(last);
	assert_string_equal(last, tip);
	free(tip);
	free(last);
	events_release(&ev);

	/* "" is "from the start" too, and "master" the default branch */
	assert_int_equal(onlist_pi_epoch_walk(epoch, "master", "", on_msg,
						&ev, NULL, &err), ONLIST_OK);
	assert_int_equal(ev.n, 5);
	events_release(&ev);
}

static void test_epoch_walk_since(void **state)
{
	struct events ev = { 0 };
	char *last = NULL, *err = NULL, *second, *tip;

	(void)state;
	second = commit_no("epoch", 2);
	tip = commit_no("epoch", 5);
	assert_int_equal(onlist_pi_epoch_walk(epoch, NULL, second, on_msg,
						&ev, &last, &err), ONLIST_OK);
	assert_int_equal(ev.n, 3);
	assert_event(&ev, 0, "epoch", 3, 3);
	assert_event(&ev, 1, "epoch", 4, 0);
	assert_event(&ev, 2, "epoch", 5, 4);
	assert_string_equal(last, tip);
	free(last);
	events_release(&ev);

	/* nothing new since the tip: no call, and *last is set to NULL */
	last = second;
	assert_int_equal(onlist_pi_epoch_walk(epoch, NULL, tip, on_msg, &ev,
						&last, &err), ONLIST_OK);
	assert_int_equal(ev.n, 0);
	assert_null(last);
	assert_null(err);
	free(second);
	free(tip);
}

/* A callback that stops: ONLIST_OK, and *last is the commit it stopped
 * at, so that the next walk starts right after it. */
static void test_epoch_walk_stop(void **state)
{
	struct events ev = { 0 };
	char *last = NULL, *err = NULL, *second;

	(void)state;
	ev.stop_after = 2;
	assert_int_equal(onlist_pi_epoch_walk(epoch, NULL, NULL, on_msg, &ev,
						&last, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(ev.n, 2);
	second = commit_no("epoch", 2);
	assert_string_equal(last, second);
	events_release(&ev);
	ev.stop_after = 0;
	assert_int_equal(onlist_pi_epoch_walk(epoch, NULL, last, on_msg, &ev,
						NULL, &err), ONLIST_OK);
	assert_int_equal(ev.n, 3);
	assert_event(&ev, 0, "epoch", 3, 3);
	events_release(&ev);
	free(last);
	free(second);
}

/* v1: one repository, a message at the path its Message-ID hashes to;
 * other paths are no messages, a deleted path is a removal. */
static void test_epoch_walk_v1(void **state)
{
	struct events ev = { 0 };
	char *last = NULL, *err = NULL, *tip;

	(void)state;
	assert_int_equal(onlist_pi_epoch_walk(v1, NULL, NULL, on_msg, &ev,
						&last, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(ev.n, 3);
	assert_event(&ev, 0, "v1", 1, 1);
	assert_event(&ev, 1, "v1", 2, 2);
	assert_event(&ev, 2, "v1", 4, 0);
	/* the README commit is walked too: *last is the tip */
	tip = commit_no("v1", 4);
	assert_string_equal(last, tip);
	free(tip);
	free(last);
	events_release(&ev);
}

/* public-inbox-purge rewrites the history and leaves an empty `m` where the
 * message was: a removal, not an (unreadable) empty message. */
static void test_epoch_walk_purged(void **state)
{
	struct events ev = { 0 };
	char *err = NULL, *dir;

	(void)state;
	assert_true(asprintf(&dir, "%s/purged.git", tmpdir) > 0);
	assert_int_equal(onlist_pi_epoch_walk(dir, NULL, NULL, on_msg, &ev,
						NULL, &err), ONLIST_OK);
	assert_int_equal(ev.n, 3);
	assert_event(&ev, 0, "purged", 1, 1);
	assert_event(&ev, 1, "purged", 2, 0);
	assert_event(&ev, 2, "purged", 3, 4);
	events_release(&ev);
	free(dir);
}

static void test_epoch_walk_errors(void **state)
{
	struct events ev = { 0 };
	char *last = NULL, *err = NULL, *empty;

	(void)state;
	/* a since that is gone: the history was rewritten */
	assert_int_equal(onlist_pi_epoch_walk(epoch, NULL,
			 "0123456789012345678901234567890123456789", on_msg,
			 &ev, &last, &err), ONLIST_ENOTFOUND);
	assert_non_null(err);
	assert_null(last);
	free(err);
	err = NULL;

	/* never handed to git, which would read an option */
	assert_int_equal(onlist_pi_epoch_walk(epoch, "--all", NULL, on_msg,
						&ev, &last, &err),
			 ONLIST_EUSAGE);
	free(err);
	err = NULL;
	assert_int_equal(onlist_pi_epoch_walk(epoch, NULL, "-n1", on_msg,
						&ev, &last, &err),
			 ONLIST_EUSAGE);
	free(err);
	err = NULL;

	/* no repository: git's message, naming the directory */
	assert_int_equal(onlist_pi_epoch_walk(tmpdir, NULL, NULL, on_msg,
						&ev, &last, &err), ONLIST_EGIT);
	assert_non_null(err);
	assert_non_null(strstr(err, "not a git repository"));
	assert_non_null(strstr(err, tmpdir));
	free(err);
	err = NULL;
	assert_int_equal(ev.n, 0);

	/* an epoch nothing was written to yet has no branch: nothing new */
	assert_true(asprintf(&empty, "%s/empty.git", tmpdir) > 0);
	free(git_line("git init -q --bare '%s'", empty));
	assert_int_equal(onlist_pi_epoch_walk(empty, NULL, NULL, on_msg, &ev,
						&last, &err), ONLIST_OK);
	assert_int_equal(ev.n, 0);
	assert_null(last);
	assert_null(err);
	free(empty);
}

/* A corrupt epoch (a message blob lost): the loss is reported to the
 * callback and the walk goes on to the end. */
static void test_epoch_walk_missing_blob(void **state)
{
	struct events ev = { 0 };
	char *err = NULL, *last = NULL, *blob, *broken;

	(void)state;
	blob = git_line("git -C '%s' rev-parse \"$(sed -n 3p '%s/epoch.commits')\":m",
			epoch, tmpdir);
	assert_int_equal(strlen(blob), 40);
	assert_true(asprintf(&broken, "%s/broken.git", tmpdir) > 0);
	free(git_line("cp -r '%s' '%s' && rm '%s/objects/%.2s/%s'", epoch,
		      broken, broken, blob, blob + 2));
	/* the walk goes on: the lost message is reported, not fatal */
	assert_int_equal(onlist_pi_epoch_walk(broken, NULL, NULL, on_msg,
						&ev, &last, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(ev.n, 5);
	assert_event(&ev, 0, "epoch", 1, 1);
	assert_event(&ev, 1, "epoch", 2, 2);
	assert_string_equal(ev.v[2].missing, blob);
	assert_string_equal(ev.v[2].commit, ev.v[1].commit);	/* the one before */
	assert_null(ev.v[2].data);
	assert_event(&ev, 3, "epoch", 4, 0);
	assert_event(&ev, 4, "epoch", 5, 4);
	{
		char *tip = commit_no("epoch", 5);
		assert_non_null(last);
		assert_string_equal(last, tip);
		free(tip);
		free(last);
	}
	events_release(&ev);
	free(err);
	free(blob);
	free(broken);
}

/* check-mailmap in one git: names and addresses both come back mapped,
 * in order; an unmapped contact comes back as it went. */
static void test_mailmap(void **state)
{
	struct onlist_ident ids[3] = {
		{ strdup("Old Name"), strdup("ann@old.example.net") },
		{ strdup("Bob"), strdup("bob@example.org") },
		{ strdup(""), strdup("ann@old.example.net") },
	};
	char *dir, *err = NULL;

	(void)state;
	assert_true(asprintf(&dir, "%s/mm", tmpdir) > 0);
	free(git_line("git init -q '%s' && printf 'Ann New <ann@new.example.org> "
		      "<ann@old.example.net>\\n' > '%s/.mailmap' && echo ok",
		      dir, dir));
	assert_int_equal(onlist_landing_mailmap(dir, NULL, ids, 3, &err), ONLIST_OK);
	assert_null(err);
	assert_string_equal(ids[0].name, "Ann New");
	assert_string_equal(ids[0].email, "ann@new.example.org");
	assert_string_equal(ids[1].name, "Bob");
	assert_string_equal(ids[1].email, "bob@example.org");
	assert_string_equal(ids[2].email, "ann@new.example.org");
	for (int i = 0; i < 3; i++) {
		free(ids[i].name);
		free(ids[i].email);
	}
	/* a path that git would take as an option is refused */
	struct onlist_ident one = { strdup("A"), strdup("a@example.org") };
	assert_int_equal(onlist_landing_mailmap("-x", NULL, &one, 1, &err),
			 ONLIST_EUSAGE);
	free(err);
	/* an alias file is one more mailmap */
	char *alias;
	assert_true(asprintf(&alias, "%s/aliases", tmpdir) > 0);
	free(git_line("printf 'A Person <a@example.org>\\n' > '%s' && echo ok",
		      alias));
	err = NULL;
	assert_int_equal(onlist_landing_mailmap(dir, alias, &one, 1, &err),
			 ONLIST_OK);
	assert_null(err);
	assert_string_equal(one.name, "A Person");
	free(alias);
	/* when git fails, its own words, and the identity left alone */
	assert_int_equal(onlist_landing_mailmap("/nonexistent/onlist", NULL, &one,
					     1, &err), ONLIST_EGIT);
	assert_non_null(err);
	assert_non_null(strstr(err, "cannot change to '/nonexistent/onlist'"));
	assert_string_equal(one.name, "A Person");
	free(err);
	free(one.name);
	free(one.email);
	free(dir);
}

static void test_mirror(void **state)
{
	char *src, *dir, *tmp, *err = NULL, *a, *b;

	(void)state;
	assert_true(asprintf(&src, "%s/src.git", tmpdir) > 0);
	assert_true(asprintf(&dir, "%s/mirrors/sub/0.git", tmpdir) > 0);
	assert_true(asprintf(&tmp, "%s.tmp", dir) > 0);
	free(git_line("git clone -q --bare '%s' '%s'", epoch, src));
	/* a killed clone left this behind */
	free(git_line("mkdir -p '%s' && echo junk > '%s/junk'", tmp, tmp));

	assert_int_equal(onlist_pi_epoch_mirror(src, dir, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(access(tmp, F_OK), -1);
	a = git_line("git -C '%s' rev-parse master", src);
	b = git_line("git -C '%s' rev-parse master", dir);
	assert_int_equal(strlen(a), 40);
	assert_string_equal(a, b);
	free(a);
	free(b);

	/* a new message in the source: fetched into the existing mirror */
	free(git_line("cd '%s' && t=$(git mktree </dev/null) && "
		      "c=$(git commit-tree -p master -m new $t) && "
		      "git update-ref refs/heads/master $c", src));
	assert_int_equal(onlist_pi_epoch_mirror(src, dir, &err), ONLIST_OK);
	assert_null(err);
	a = git_line("git -C '%s' rev-parse master", src);
	b = git_line("git -C '%s' rev-parse master", dir);
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(b = git_line("git -C '%s' rev-list --count master", dir));
	free(tmp);
	free(dir);

	/* a source that is not there: git's message, and nothing left */
	assert_true(asprintf(&dir, "%s/mirrors/none.git", tmpdir) > 0);
	assert_true(asprintf(&tmp, "%s.tmp", dir) > 0);
	assert_int_equal(onlist_pi_epoch_mirror("/nonexistent/onlist.git", dir,
					    &err), ONLIST_EGIT);
	assert_non_null(err);
	assert_non_null(strstr(err, "/nonexistent/onlist.git"));
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(access(tmp, F_OK), -1);
	free(err);
	err = NULL;

	/* never handed to git, which would read an option */
	assert_int_equal(onlist_pi_epoch_mirror("--upload-pack=touch x", dir, &err),
			 ONLIST_EUSAGE);
	assert_non_null(err);
	free(err);
	err = NULL;
	/* a transport that runs a command */
	assert_int_equal(onlist_pi_epoch_mirror("ext::sh -c false", dir, &err),
			 ONLIST_EGIT);
	free(err);
	err = NULL;

	/* a directory that is no repository is not fetched into */
	free(git_line("mkdir -p '%s'", dir));
	assert_int_equal(onlist_pi_epoch_mirror(src, dir, &err), ONLIST_EGIT);
	assert_non_null(err);
	assert_non_null(strstr(err, dir));
	free(err);
	free(tmp);
	free(dir);
	free(src);
}

struct diffs {
	char sha[8][41];
	int n, stop_after;
	int has_diff;
};

static int on_diff(const char *sha, const char *diff, size_t len, void *data)
{
	struct diffs *d = data;

	assert_true(d->n < 8);
	memcpy(d->sha[d->n++], sha, 41);
	d->has_diff += len > 0 && strstr(diff, "\ndiff --git ") != NULL;
	return d->n == d->stop_after;
}

/* The diffs of chosen commits come in the order asked, whole; a callback
 * may stop them; a failing git says why. */
static void test_repo_diffs(void **state)
{
	char (*v)[41] = NULL, *err = NULL;
	struct diffs d = { 0 };
	size_t n;

	(void)state;
	assert_int_equal(onlist_repo_scan_rev_list(repo, "HEAD", &v, &n, &err),
			 ONLIST_OK);
	assert_true(n >= 3);
	assert_int_equal(onlist_repo_diff_each(repo, "histogram",
					   (const char (*)[41])v, 3, on_diff,
					   &d, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(d.n, 3);
	for (int i = 0; i < 3; i++)
		assert_string_equal(d.sha[i], v[i]);
	assert_int_equal(d.has_diff, 3);

	memset(&d, 0, sizeof d);
	d.stop_after = 1;
	assert_int_equal(onlist_repo_diff_each(repo, "myers", (const char (*)[41])v,
					   n, on_diff, &d, &err), ONLIST_OK);
	assert_null(err);
	assert_int_equal(d.n, 1);

	memset(&d, 0, sizeof d);
	assert_int_equal(onlist_repo_diff_each("/nonexistent/onlist", "myers",
					   (const char (*)[41])v, 1, on_diff,
					   &d, &err), ONLIST_EGIT);
	assert_non_null(err);
	assert_non_null(strstr(err, "cannot change to '/nonexistent/onlist'"));
	assert_int_equal(d.n, 0);
	free(err);
	free(v);
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
		cmocka_unit_test(test_scan_missing_objects),
		cmocka_unit_test(test_scan_errors),
		cmocka_unit_test(test_rev_list),
		cmocka_unit_test(test_epoch_walk_all),
		cmocka_unit_test(test_epoch_walk_since),
		cmocka_unit_test(test_epoch_walk_stop),
		cmocka_unit_test(test_epoch_walk_v1),
		cmocka_unit_test(test_epoch_walk_purged),
		cmocka_unit_test(test_epoch_walk_errors),
		cmocka_unit_test(test_epoch_walk_missing_blob),
		cmocka_unit_test(test_mirror),
		cmocka_unit_test(test_mailmap),
		cmocka_unit_test(test_repo_diffs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
