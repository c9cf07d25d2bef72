/* test_subsys.c - the subsystem of a path from a kernel-style MAINTAINERS
 * (F:, X:, N:, most specific section wins, as scripts/get_maintainer.pl
 * ranks matches), and the top-two-components rule without one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "onlist/report.h"
#include "onlist/subsys.h"

static const char maintainers[] =
	"List of maintainers\n"
	"===================\n"
	"\n"
	"Descriptions of section entries and preferred order\n"
	"\tF: *Files* and directories wildcard patterns.\n"
	"\n"
	"EXT4 FILE SYSTEM\n"
	"M:\tTed <tytso@example.org>\n"
	"L:\tlinux-ext4@vger.kernel.org\n"
	"F:\tfs/ext4/\n"
	"F:\tinclude/trace/events/ext4.h\n"
	"\n"
	"EXT4 JOURNAL\n"
	"F:\tfs/ext4/jbd*.c\n"
	"\n"
	"FILESYSTEMS (VFS and infrastructure)\n"
	"F:\tfs/*\n"
	"X:\tfs/ext4/\n"
	"\n"
	"NETWORKING DRIVERS\n"
	"F:\tdrivers/net/\n"
	"X:\tdrivers/net/wireless/\n"
	"\n"
	"WIRELESS\n"
	"N:\twireless\n"
	"\n"
	"DOCUMENTATION\n"
	"F:\tDocumentation\n"
	"\n"
	"THE REST\n"
	"M:\tLinus <torvalds@example.org>\n"
	"F:\t*\n"
	"F:\t*/\n";

static struct onlist_maintainers *m;

static int setup(void **state)
{
	(void)state;
	return onlist_maintainers_parse(&m, maintainers, strlen(maintainers))
		!= ONLIST_OK;
}

static int teardown(void **state)
{
	(void)state;
	onlist_maintainers_free(m);
	return 0;
}

static const struct { const char *path, *section; } cases[] = {
	/* a directory pattern covers everything below it */
	{ "fs/ext4/inode.c", "EXT4 FILE SYSTEM" },
	{ "fs/ext4/sub/dir.c", "EXT4 FILE SYSTEM" },
	/* a deeper pattern beats a shallower one: jbd*.c has 3 levels */
	{ "fs/ext4/jbd2.c", "EXT4 JOURNAL" },
	/* the pattern fs/STAR matches files directly in fs/ only (same depth) */
	{ "fs/namei.c", "FILESYSTEMS (VFS and infrastructure)" },
	{ "fs/btrfs/inode.c", "THE REST" },
	{ "include/trace/events/ext4.h", "EXT4 FILE SYSTEM" },
	/* X: takes a section out */
	{ "drivers/net/wireless/ath.c", "WIRELESS" },
	{ "drivers/net/e1000.c", "NETWORKING DRIVERS" },
	/* N: is a regex anywhere in the path */
	{ "net/wireless/core.c", "WIRELESS" },
	/* a directory named without its trailing slash */
	{ "Documentation/process/howto.rst", "DOCUMENTATION" },
	{ "Makefile", "THE REST" },
	/* indented preamble lines are no section's patterns */
	{ "Files", "THE REST" },
};

static void test_sections(void **state)
{
	(void)state;
	assert_int_equal(onlist_maintainers_count(m), 7);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *got = onlist_maintainers_section(m, cases[i].path);
		if (!got || strcmp(got, cases[i].section))
			fail_msg("%s: got '%s', expected '%s'", cases[i].path,
				 got ? got : "(none)", cases[i].section);
	}
}

static const struct { const char *files, *with, *without; } commits[] = {
	/* the section most of the files belong to */
	{ "fs/ext4/a.c\nfs/ext4/b.c\nfs/namei.c\n", "EXT4 FILE SYSTEM", "fs/ext4" },
	{ "drivers/net/wireless/x/y.c\n", "WIRELESS", "drivers/net" },
	{ "README\n", "THE REST", "(top level)" },
	{ "docs/guide.txt\n", "THE REST", "docs" },
	{ "", "(no files)", "(no files)" },
};

static void test_commit_subsystem(void **state)
{
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof commits / sizeof *commits; i++) {
		onlist_subsystem(m, commits[i].files, buf, sizeof buf);
		if (strcmp(buf, commits[i].with))
			fail_msg("with MAINTAINERS, %s: got '%s', expected '%s'",
				 commits[i].files, buf, commits[i].with);
		onlist_subsystem(NULL, commits[i].files, buf, sizeof buf);
		if (strcmp(buf, commits[i].without))
			fail_msg("without, %s: got '%s', expected '%s'",
				 commits[i].files, buf, commits[i].without);
	}
}

static void test_empty_file(void **state)
{
	struct onlist_maintainers *e;

	(void)state;
	assert_int_equal(onlist_maintainers_parse(&e, "", 0), ONLIST_OK);
	assert_int_equal(onlist_maintainers_count(e), 0);
	assert_null(onlist_maintainers_section(e, "fs/ext4/inode.c"));
	onlist_maintainers_free(e);
}

/* N: patterns that would make regcomp() or regexec() blow up are left
 * out and counted; the kernel's own kinds of N: pattern still work. */
static const struct { const char *pattern; int kept; const char *path; } npats[] = {
	{ "((a{255}){255}){255}", 0, NULL },	/* 13 s and 3.5 GB before */
	{ "(a{100}){100}", 0, NULL },
	{ "(x+)*", 0, NULL },
	{ "((ab)*c)+", 0, NULL },
	{ "a{101}", 0, NULL },
	{ "a{1,1000}", 0, NULL },
	{ "[^a-z]++", 0, NULL },
	{ "(", 0, NULL },			/* does not compile */
	/* the shapes of real kernel N: entries */
	{ "[^a-z]tegra", 1, "drivers/gpu/host1x/tegra-drm.c" },
	{ "sun[x456789]i", 1, "arch/arm/boot/dts/sun8i-h3.dtsi" },
	{ "ipq[0-9]*", 1, "drivers/clk/qcom/ipq8074.c" },
	{ "(cros|chrome)_ec", 1, "drivers/mfd/cros_ec_dev.c" },
	{ "a{2,3}x", 1, "foo/aax" },
};

static void test_hostile_n_patterns(void **state)
{
	struct onlist_maintainers *mm;
	char text[256];
	int want_dropped = 0;

	(void)state;
	for (size_t i = 0; i < sizeof npats / sizeof *npats; i++) {
		int len = snprintf(text, sizeof text, "SECTION %zu\nN:\t%s\n",
				   i, npats[i].pattern);

		assert_int_equal(onlist_maintainers_parse(&mm, text, (size_t)len),
				 ONLIST_OK);
		if (onlist_maintainers_dropped(mm) != (size_t)!npats[i].kept)
			fail_msg("N: %s: dropped %zu, expected %d", npats[i].pattern,
				 onlist_maintainers_dropped(mm), !npats[i].kept);
		if (npats[i].path) {
			const char *got = onlist_maintainers_section(mm, npats[i].path);
			snprintf(text, sizeof text, "SECTION %zu", i);
			if (!got || strcmp(got, text))
				fail_msg("N: %s does not match %s", npats[i].pattern,
					 npats[i].path);
		}
		want_dropped += !npats[i].kept;
		onlist_maintainers_free(mm);
	}
	assert_true(want_dropped > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_commit_subsystem),
		cmocka_unit_test(test_empty_file),
		cmocka_unit_test(test_hostile_n_patterns),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
