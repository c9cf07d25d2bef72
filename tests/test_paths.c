/* test_paths.c - what a merge's title says it merged, when two trees are
 * one, which marks make an off-list commit matter, and which embargo rule
 * names a commit.  The titles are the shapes git, GitHub and GitLab write
 * (kernel, liburing, GitLab projects); each expected value is written by
 * hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/paths.h"
#include "onlist/verdict.h"

static const struct {
	const char *subject, *request;
	enum onlist_merge_kind kind;
	const char *url, *ref, *req;
	int forge;
} titles[] = {
	{ "Merge tag 'io_uring-6.1' of git://git.kernel.dk/linux", NULL,
	  ONLIST_MERGE_TREE, "git://git.kernel.dk/linux", "io_uring-6.1", NULL, 0 },
	{ "Merge branch 'for-next' of https://git.example.org/pub/sub2.git into main",
	  NULL, ONLIST_MERGE_TREE, "https://git.example.org/pub/sub2.git",
	  "for-next", NULL, 0 },
	{ "Merge tags 'a' and 'b' of git://h/r", NULL, ONLIST_MERGE_TREE,
	  "git://h/r", "a", NULL, 0 },
	{ "Merge branch 'master' of https://github.com/bob/liburing", NULL,
	  ONLIST_MERGE_TREE, "https://github.com/bob/liburing", "master", NULL, 1 },
	{ "Merge branch 'x' of github.com:carol/project into next", NULL,
	  ONLIST_MERGE_TREE, "github.com:carol/project", "x", NULL, 1 },
	{ "Merge branch 'fix' of https://gitlab.freedesktop.org/a/b", NULL,
	  ONLIST_MERGE_TREE, "https://gitlab.freedesktop.org/a/b", "fix", NULL, 1 },
	{ "Merge remote-tracking branch 'asoc/for-5.10' into asoc-next", NULL,
	  ONLIST_MERGE_TREE, NULL, "asoc/for-5.10", NULL, 0 },
	{ "Merge pull request #123 from isilence/fix-cqe", NULL,
	  ONLIST_MERGE_FORGE, NULL, NULL, "pull request #123 from isilence/fix-cqe", 0 },
	{ "Merge branch 'feature' into 'main'", "group/proj!7",
	  ONLIST_MERGE_FORGE, NULL, NULL, "merge request group/proj!7", 0 },
	{ "Merge branch 'topic'", NULL, ONLIST_MERGE_LOCAL, NULL, "topic", NULL, 0 },
	{ "Merge branch 'topic' into next", NULL, ONLIST_MERGE_LOCAL, NULL,
	  "topic", NULL, 0 },
	{ "Merge commit 'v6.1-rc3' into for-next", NULL, ONLIST_MERGE_LOCAL,
	  NULL, "v6.1-rc3", NULL, 0 },
	/* not git's words */
	{ "Merge the io_uring fixes", NULL, ONLIST_MERGE_OTHER, NULL, NULL, NULL, 0 },
	{ "Merge pull request from nobody", NULL, ONLIST_MERGE_OTHER, NULL, NULL, NULL, 0 },
	{ "Merge branch unquoted", NULL, ONLIST_MERGE_OTHER, NULL, NULL, NULL, 0 },
	{ "Merge tag 'unterminated of git://h/r", NULL, ONLIST_MERGE_OTHER, NULL,
	  NULL, NULL, 0 },
	{ "net: fix", NULL, ONLIST_MERGE_OTHER, NULL, NULL, NULL, 0 },
};

static void same_or_null(const char *got, const char *want)
{
	if (want)
		assert_non_null(got), assert_string_equal(got, want);
	else
		assert_null(got);
}

static void test_titles(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof titles / sizeof *titles; i++) {
		struct onlist_merge_title t;

		print_message("%s\n", titles[i].subject);
		assert_int_equal(onlist_merge_parse(titles[i].subject,
						    titles[i].request, &t), ONLIST_OK);
		assert_int_equal(t.kind, titles[i].kind);
		same_or_null(t.url, titles[i].url);
		if (t.kind != ONLIST_MERGE_OTHER && t.kind != ONLIST_MERGE_FORGE)
			same_or_null(t.ref, titles[i].ref);
		same_or_null(t.request, titles[i].req);
		assert_int_equal(t.forge_host, titles[i].forge);
		onlist_merge_title_release(&t);
	}
}

static void test_request_line(void **state)
{
	char *r;

	(void)state;
	assert_int_equal(onlist_merge_request_line(
		"Add the feature\n\nSee merge request group/proj!7\n", &r), 0);
	assert_string_equal(r, "group/proj!7");
	free(r);
	assert_int_equal(onlist_merge_request_line("See merge request soon\n", &r), 0);
	assert_null(r);
	assert_int_equal(onlist_merge_request_line(NULL, &r), 0);
	assert_null(r);
}

static void test_trees(void **state)
{
	(void)state;
	assert_true(onlist_tree_same("git://git.example.org/sub.git",
				     "git://git.example.org/sub"));
	assert_true(onlist_tree_same("https://Git.Example.org/pub/sub2.git/",
				     "https://git.example.org/pub/sub2"));
	assert_true(onlist_tree_same("git@github.com:carol/project.git",
				     "https://github.com/carol/project"));
	assert_true(onlist_tree_same("git://git.kernel.org/pub/scm/linux/kernel/git/x/y.git",
				     "https://git.kernel.org/pub/scm/linux/kernel/git/x/y"));
	assert_false(onlist_tree_same("git://git.example.org/other",
				      "git://git.example.org/silent"));
	assert_false(onlist_tree_same("git://a.example/sub", "git://b.example/sub"));
	assert_false(onlist_tree_same(NULL, "git://a/b"));
	assert_true(onlist_ref_same("tags/for-linus", "for-linus"));
	assert_true(onlist_ref_same("refs/heads/for-next", "for-next"));
	assert_false(onlist_ref_same("for-next", "for-linus"));
	assert_false(onlist_ref_same("", ""));
}

static const struct {
	const char *body, *mark;
} marks[] = {
	{ "Fixes: 1234567890ab (\"net: x\")\nSigned-off-by: A <a@x>",
	  "Fixes: 1234567890ab (\"net: x\")" },
	{ "This closes cve-2021-12345 in the parser.", "CVE-2021-12345" },
	{ "Reported-by: syzbot+0123abcd@syzkaller.appspotmail.com",
	  "Reported-by: syzbot+0123abcd@syzkaller.appspotmail.com" },
	{ "Reported-by: Hulk Robot <hulkci@huawei.com>",
	  "Reported-by: Hulk Robot <hulkci@huawei.com>" },
	{ "Cc: stable@vger.kernel.org # 5.10+", "Cc: stable@vger.kernel.org # 5.10+" },
	/* the CVE wins over the others, whatever their order */
	{ "Cc: stable@vger.kernel.org\nFixes: abcdef1234 (\"x\")\nCVE-2020-0001",
	  "CVE-2020-0001" },
	{ "Fixes: abcdef1234 (\"x\")\nReported-by: syzbot+1@syzkaller.appspotmail.com",
	  "Reported-by: syzbot+1@syzkaller.appspotmail.com" },
	/* none */
	{ "Fixes: #12", NULL },
	{ "Fixes: https://github.com/o/r/issues/5", NULL },
	{ "Reported-by: Jane Doe <jane@example.org>", NULL },
	{ "Cc: netdev@vger.kernel.org", NULL },
	{ "mentions XCVE-2020-0001 and CVE-20-1", NULL },
	{ "This fixes the stable@ case in prose only.", NULL },
	{ NULL, NULL },
};

static void test_marks(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
		char *m;

		print_message("%s\n", marks[i].body ? marks[i].body : "(null)");
		assert_int_equal(onlist_security_mark(marks[i].body, &m), 0);
		same_or_null(m, marks[i].mark);
		free(m);
	}
	/* a posted commit only when nobody reviewed it */
	{
		char *m;

		assert_int_equal(onlist_verdict_security_posted("Fixes: abcdef1234 (\"x\")", 1, &m), 0);
		assert_null(m);
		assert_int_equal(onlist_verdict_security_posted("Fixes: abcdef1234 (\"x\")", 0, &m), 0);
		assert_string_equal(m, "Fixes: abcdef1234 (\"x\")");
		free(m);
	}
}

static void test_request_urls(void **state)
{
	char *u;

	(void)state;
	assert_int_equal(onlist_forge_request_url(
		"Closes the gap.\n\nLink: https://github.com/o/r/pull/33\n", &u), 0);
	assert_string_equal(u, "https://github.com/o/r/pull/33");
	free(u);
	assert_int_equal(onlist_forge_request_url(
		"Closes: <https://gitlab.com/g/p/-/merge_requests/3>", &u), 0);
	assert_string_equal(u, "https://gitlab.com/g/p/-/merge_requests/3");
	free(u);
	/* an issue, a lore link, a URL in prose: none */
	assert_int_equal(onlist_forge_request_url(
		"Link: https://github.com/o/r/issues/5\n"
		"Link: https://lore.kernel.org/r/x@y\n"
		"See https://github.com/o/r/pull/9 for more.", &u), 0);
	assert_null(u);
}

static void test_embargo(void **state)
{
	const char *rules = "commit abcdef1234 CVE-2021-9999 held until June\n"
			    "subject crypto:*timing* distro embargo\n"
			    "commit abc too short\n";
	const char *t;
	size_t n;

	(void)state;
	assert_true(onlist_verdict_embargo(rules,
		"abcdef1234567890abcdef1234567890abcdef12", "x", &t, &n));
	assert_int_equal(n, strlen("CVE-2021-9999 held until June"));
	assert_memory_equal(t, "CVE-2021-9999 held until June", n);
	assert_true(onlist_verdict_embargo(rules,
		"0000000000000000000000000000000000000000", "Crypto: fix Timing leak",
		&t, &n));
	assert_memory_equal(t, "distro embargo", n);
	assert_false(onlist_verdict_embargo(rules,
		"abc0000000000000000000000000000000000000", "crypto: other", &t, &n));
	assert_false(onlist_verdict_embargo("", "abc", "x", &t, &n));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(onlist_path_kind_name(ONLIST_PATH_PULL), "pull");
	assert_string_equal(onlist_path_kind_name(ONLIST_PATH_LOCAL), "local_merge");
	assert_string_equal(onlist_path_kind_name((enum onlist_path_kind)99), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_titles),
		cmocka_unit_test(test_request_line),
		cmocka_unit_test(test_trees),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_request_urls),
		cmocka_unit_test(test_embargo),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
