/* test_reason.c - the reasons a never-posted commit gets from itself:
 * release subjects and diffs, translations, reverts.  The subjects are
 * real shapes from kernel, bluez, btrfs-progs, liburing and git histories;
 * each expected value is written by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <regex.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/reason.h"

static const struct {
	const char *subject, *files;
	int release;
} releases[] = {
	{ "Release 5.70", "ChangeLog\nconfigure.ac\n", 1 },
	{ "Release 5.70", NULL, 1 },
	{ "Releasing v2.4", NULL, 1 },
	{ "v6.1-rc3", NULL, 1 },
	{ "2.13", NULL, 1 },
	{ "Linux 6.1-rc3", NULL, 1 },
	{ "Linux 3.11", NULL, 1 },
	{ "Update VERSION to 3.4-rc1 for release", NULL, 1 },
	{ "foo-utils: release 1.8", NULL, 1 },
	{ "btrfs-progs: release 6.1", NULL, 1 },
	{ "Bump version to 2.0", NULL, 1 },
	{ "build: Update library version", "Makefile.am\n", 1 },
	{ "version bump", NULL, 1 },
	{ "Prepare for release 1.2", NULL, 1 },
	{ "Update CHANGELOG for 2.5 release", NULL, 1 },
	{ "liburing-2.4", "liburing.spec\nCHANGELOG\n", 1 },	/* by its diff */
	{ "liburing-2.4", "src/queue.c\n", 0 },	/* see test_release_project */
	/* a diff of version files and changelogs only */
	{ "Update for the new year", "NEWS\nconfigure.ac\n", 1 },
	{ "debian: new upload", "debian/changelog\n", 1 },
	{ "Tag it", "VERSION\n", 1 },
	/* not releases */
	{ "configure: require autoconf 2.71", "configure.ac\n", 0 },
	{ "Add NEWS entry and code", "NEWS\nsrc/main.c\n", 0 },
	{ "Linux kernel headers: sync", "include/linux/io_uring.h\n", 0 },
	{ "fs: add O_TMPFILE", "fs/namei.c\ninclude/uapi/asm-generic/fcntl.h\n", 0 },
	{ "release the lock before sleeping", "fs/inode.c\n", 0 },
	{ "Revert \"Release 1.2\"", "src/x.c\n", 0 },
	{ "v2: fix the parser", "src/parse.c\n", 0 },
	{ "Documentation: describe versioning", "Documentation/v.rst\n", 0 },
	{ "", "", 0 },
};

static void test_release(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(releases) / sizeof(*releases); i++) {
		int got = onlist_reason_is_release(releases[i].subject,
						   releases[i].files, NULL);

		if (!got != !releases[i].release)
			fail_msg("\"%s\" [%s]: release %d, expected %d",
				 releases[i].subject,
				 releases[i].files ? releases[i].files : "",
				 got, releases[i].release);
	}
}

/* The project's own pattern (onlist.releasePattern) adds to the built-in
 * ones: liburing tags as "liburing-2.4" with a CHANGELOG without a name
 * of its list. */
static void test_release_project(void **state)
{
	regex_t re;

	(void)state;
	assert_int_equal(regcomp(&re, "^liburing-[0-9]", REG_EXTENDED | REG_NOSUB), 0);
	assert_true(onlist_reason_is_release("liburing-2.4", NULL, &re));
	assert_false(onlist_reason_is_release("liburing: fix a leak", "src/a.c\n", &re));
	regfree(&re);
}

static void test_translation(void **state)
{
	(void)state;
	assert_true(onlist_reason_is_translation("po/de.po\npo/fr.po\n"));
	assert_true(onlist_reason_is_translation("src/locale/sv/LC_MESSAGES/x.mo\n"));
	assert_true(onlist_reason_is_translation("app/translations/nl.ts\n"));
	assert_true(onlist_reason_is_translation("po/bluez.pot"));
	assert_false(onlist_reason_is_translation("po/de.po\nsrc/main.c\n"));
	assert_false(onlist_reason_is_translation("Makefile.po.in\n"));	/* not *.po */
	assert_false(onlist_reason_is_translation("tools/ipo/x.c\n"));
	assert_false(onlist_reason_is_translation(""));
	assert_false(onlist_reason_is_translation(NULL));
}

static void test_reverted(void **state)
{
	char hex[41];

	(void)state;
	assert_int_equal(onlist_reason_reverted(
		"This reverts commit 60545d0d4610b02e55f832d40c1d1f3a2d9b0a67.\n\nBroke it.",
		hex), 40);
	assert_string_equal(hex, "60545d0d4610b02e55f832d40c1d1f3a2d9b0a67");
	assert_int_equal(onlist_reason_reverted(
		"Reason.\nThis reverts commit ABCDEF1234 (\"x\").", hex), 10);
	assert_string_equal(hex, "abcdef1234");
	/* too short, not hex, or not git's words */
	assert_int_equal(onlist_reason_reverted("This reverts commit abc12.", hex), 0);
	assert_int_equal(onlist_reason_reverted("This reverts commit abcdef12xyz.", hex), 0);
	assert_int_equal(onlist_reason_reverted("Revert abcdef1234567", hex), 0);
	assert_int_equal(onlist_reason_reverted(NULL, hex), 0);
	assert_string_equal(hex, "");
	/* the first well-formed one wins */
	assert_int_equal(onlist_reason_reverted(
		"This reverts commit zz.\nThis reverts commit 1234567abc.", hex), 10);
}

static void test_names(void **state)
{
	enum onlist_reason r;

	(void)state;
	for (int i = 0; i < ONLIST_NREASONS; i++) {
		assert_int_equal(onlist_reason_parse(
			onlist_reason_name((enum onlist_reason)i), &r), 0);
		assert_int_equal(r, i);
	}
	assert_string_equal(onlist_reason_name(ONLIST_REASON_NEAR_MISS), "near_miss");
	assert_int_equal(onlist_reason_parse("released", &r), -1);
	assert_int_equal(onlist_reason_parse(NULL, &r), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_release),
		cmocka_unit_test(test_release_project),
		cmocka_unit_test(test_translation),
		cmocka_unit_test(test_reverted),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
