/* test_verdict.c - the verdict on a never-posted commit, as a table.
 *
 * onlist_verdict_unposted() decides, in order: unknown (landed outside
 * the archive's span), an embargo rule the project wrote, the commit's
 * own text (release, revert of a posted commit, translation), a near
 * miss on the list, then the path it took.  The database here is a new,
 * empty one (no mail, no landing), so every case is decided by the span,
 * the rules and the commit's text; each expected value is written by hand
 * from the rules in verdict.h and reason.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <regex.h>
#include <cmocka.h>

#include "onlist/store.h"
#include "onlist/verdict.h"

#define DAY 86400
#define FIRST 1600000000	/* the archive's first message */
#define LAST (FIRST + 100 * DAY)	/* ... and its last */

/* onlist_span_misses(): the edges of the span, each side */
static void test_span(void **state)
{
	const struct onlist_span empty = { 0, 0 }, sp = { FIRST, LAST };
	static const struct {
		int64_t landed;
		int misses;
	} cases[] = {
		{ FIRST, 0 },
		{ LAST, 0 },
		{ LAST + DAY, 0 },		/* a day's grace after the end */
		{ LAST + DAY + 1, 1 },
		{ FIRST - ONLIST_SPAN_BEFORE, 0 },	/* posted weeks later */
		{ FIRST - ONLIST_SPAN_BEFORE - 1, 1 },
		{ 0, 0 },			/* no date known: not outside */
	};

	(void)state;
	assert_true(onlist_span_misses(&empty, FIRST));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (onlist_span_misses(&sp, cases[i].landed) != cases[i].misses)
			fail_msg("landed %lld: misses %d, want %d",
				 (long long)cases[i].landed,
				 !cases[i].misses, cases[i].misses);
}

struct vcase {
	const char *why;
	int64_t landed;
	const char *subject, *body, *files;
	int unknown;
	enum onlist_reason reason;	/* when not unknown */
	int security;			/* a security mark expected */
	const char *note;		/* embargoed: the rule's text */
};

static const struct vcase cases[] = {
	{ "landed after the archive ends: not looked for", LAST + 2 * DAY,
	  "fix: a bug", "fix: a bug\n", "a.c\n", 1, 0, 0, NULL },
	{ "landed long before it starts: not looked for",
	  FIRST - ONLIST_SPAN_BEFORE - DAY,
	  "fix: a bug", "fix: a bug\n", "a.c\n", 1, 0, 0, NULL },
	{ "inside the span, nothing on the list: no trace", FIRST + DAY,
	  "fix: a bug", "fix: a bug\n", "a.c\n", 0, ONLIST_REASON_NO_TRACE, 0,
	  NULL },
	{ "a release commit", FIRST + DAY,
	  "Release 5.70", "Release 5.70\n", "ChangeLog\nconfigure.ac\n", 0,
	  ONLIST_REASON_RELEASE, 0, NULL },
	{ "a translation update", FIRST + DAY,
	  "Update German translation", "Update German translation\n",
	  "po/de.po\n", 0, ONLIST_REASON_TRANSLATION, 0, NULL },
	{ "a revert of a commit never posted is no revert reason",
	  FIRST + DAY, "Revert \"fix: a bug\"",
	  "Revert \"fix: a bug\"\n\nThis reverts commit "
	  "0123456789abcdef0123456789abcdef01234567.\n", "a.c\n", 0,
	  ONLIST_REASON_NO_TRACE, 0, NULL },
	{ "a fix of an earlier commit matters for security", FIRST + DAY,
	  "fix: overflow", "fix: overflow\n\nFixes: 0123456789ab (\"x\")\n",
	  "a.c\n", 0, ONLIST_REASON_NO_TRACE, 1, NULL },
	{ "a CVE id matters for security", FIRST + DAY,
	  "fix: overflow", "fix: overflow\n\nThis is CVE-2024-1234.\n",
	  "a.c\n", 0, ONLIST_REASON_NO_TRACE, 1, NULL },
	{ "an embargo rule by subject comes before the text", FIRST + DAY,
	  "Release 9.9 with the embargoed fix", "x\n", "ChangeLog\n", 0,
	  ONLIST_REASON_EMBARGOED, 0, "held for the disclosure" },
	{ "an embargo rule by commit, abbreviated", FIRST + DAY,
	  "fix: quietly", "fix: quietly\n", "a.c\n", 0,
	  ONLIST_REASON_EMBARGOED, 0, "security team" },
	{ "an embargo rule does not decide unknown", LAST + 2 * DAY,
	  "fix: quietly", "fix: quietly\n", "a.c\n", 1, 0, 0, NULL },
};

static const char *const shas[] = {
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"abcdef0123456789abcdef0123456789abcdef01",	/* the embargoed one */
};

static void test_unposted(void **state)
{
	char dir[] = "/tmp/test_verdict.XXXXXX", path[64], *err = NULL;
	struct onlist_store *s = NULL;
	const struct onlist_span sp = { FIRST, LAST };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/v.db", dir);
	if (onlist_store_open(&s, path, &err) != ONLIST_OK)
		fail_msg("open: %s", err ? err : "?");
	assert_int_equal(onlist_store_set_meta(s, "embargo_rules",
		"subject release*embargoed* held for the disclosure\n"
		"commit abcdef0 security team\n"), ONLIST_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct vcase *c = &cases[i];
		const char *sha = strstr(c->subject, "quietly") ? shas[1] : shas[0];
		struct onlist_verdict v;

		if (onlist_verdict_unposted(s, &sp, NULL, sha, c->subject, c->body,
					    c->files, c->landed, &v) != ONLIST_OK)
			fail_msg("%s: failed", c->why);
		if (v.unknown != c->unknown ||
		    (!c->unknown && v.reason != c->reason) ||
		    (!c->unknown && !!v.security != c->security) ||
		    (c->note ? !v.note || strcmp(v.note, c->note) : v.note != NULL))
			fail_msg("%s: unknown %d reason %s security %s note %s",
				 c->why, v.unknown, onlist_reason_name(v.reason),
				 v.security ? v.security : "-",
				 v.note ? v.note : "-");
		onlist_verdict_release(&v);
	}
	onlist_store_close(s);
	unlink(path);
	{
		char side[80];

		/* the WAL and its index, when the store left them */
		snprintf(side, sizeof(side), "%s-wal", path);
		unlink(side);
		snprintf(side, sizeof(side), "%s-shm", path);
		unlink(side);
	}
	rmdir(dir);
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_unposted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
