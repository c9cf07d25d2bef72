/* reason.c - why a never-posted commit was never posted, from the commit
 * alone (reason.h). */
#include <ctype.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "onlist/reason.h"

static const char *const names[ONLIST_NREASONS] = {
	[ONLIST_REASON_NO_TRACE] = "no_trace",
	[ONLIST_REASON_RELEASE] = "release",
	[ONLIST_REASON_REVERT] = "revert",
	[ONLIST_REASON_TRANSLATION] = "translation",
	[ONLIST_REASON_NEAR_MISS] = "near_miss",
	[ONLIST_REASON_PULLED] = "pulled",
	[ONLIST_REASON_PULLED_UNANNOUNCED] = "pulled_unannounced",
	[ONLIST_REASON_FORGE_REVIEW] = "forge_review",
	[ONLIST_REASON_EMBARGOED] = "embargoed",
};

const char *onlist_reason_name(enum onlist_reason r)
{
	return (unsigned)r < ONLIST_NREASONS ? names[r] : names[0];
}

int onlist_reason_parse(const char *name, enum onlist_reason *out)
{
	for (int i = 0; i < ONLIST_NREASONS; i++)
		if (name && !strcmp(name, names[i])) {
			*out = (enum onlist_reason)i;
			return 0;
		}
	return -1;
}

/* Release subjects as projects write them, after an optional "project: "
 * prefix.  Case does not matter. */
static const char release_re[] =
	"^([[:alnum:]_.+/-]+: )?("
	/* Release 1.2, Releasing v1.2, release: 1.2 */
	"releas(e|ing):? v?[0-9]"
	/* v1.2, 1.2.3, v6.1-rc3 (and nothing else) */
	"|v?[0-9]+(\\.[0-9]+)+(-?rc[0-9]+)?$"
	/* Linux 6.1-rc3 */
	"|linux [0-9]+\\.[0-9]+(\\.[0-9]+)?(-rc[0-9]+)?$"
	/* Update VERSION to 3.4-rc1 for release, Bump version to 2.0 */
	"|(update|bump|set|increase|increment)( the)?( package| project| library)?"
	" version( number)?( to| for| v?[0-9]|$)"
	"|version bump"
	"|version v?[0-9]+(\\.[0-9]+)+"
	/* Prepare for release 1.2, Preparing the 1.2 release */
	"|prepar(e|ing)( for)?( the)?( v?[0-9][0-9.]*)? release"
	/* Update CHANGELOG for 2.5 release */
	"|.* for( the)? v?[0-9]+(\\.[0-9]+)+(-rc[0-9]+)? release"
	")";

static regex_t release;
static int release_ok;
static pthread_once_t release_once = PTHREAD_ONCE_INIT;

static void compile_release(void)
{
	release_ok = !regcomp(&release, release_re,
			      REG_EXTENDED | REG_ICASE | REG_NOSUB);
}

static int subject_is_release(const char *subject)
{
	pthread_once(&release_once, compile_release);
	return release_ok && !regexec(&release, subject, 0, NULL, 0);
}

enum file_kind { OTHER, CHANGELOG, VERSION_BUILD };

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !strncasecmp(s + n - k, suffix, k);
}

static int is_one_of(const char *s, size_t n, const char *const *words)
{
	for (; *words; words++)
		if (strlen(*words) == n && !strncasecmp(s, *words, n))
			return 1;
	return 0;
}

/* What the path p (n bytes) is to a release. */
static enum file_kind file_kind(const char *p, size_t n)
{
	static const char *const changelogs[] = {
		"VERSION", ".version", "version.txt", "NEWS", "NEWS.md",
		"NEWS.rst", "ChangeLog", "ChangeLog.md", "CHANGELOG.md",
		"CHANGELOG",
		"CHANGELOG.rst", "CHANGELOG.txt", "CHANGES", "CHANGES.md",
		"CHANGES.rst", "CHANGES.txt", "RELEASE-NOTES", "RELEASE-NOTES.md",
		"RELEASE_NOTES.md", "RELEASENOTES.md", NULL
	};
	static const char *const build[] = {
		"configure.ac", "configure.in", NULL
	};
	const char *slash = memrchr(p, '/', n);
	const char *base = slash ? slash + 1 : p;
	size_t bn = n - (size_t)(base - p);

	if (is_one_of(base, bn, changelogs) ||
	    (n == strlen("debian/changelog") &&
	     !strncmp(p, "debian/changelog", n)))
		return CHANGELOG;
	if (is_one_of(base, bn, build) || ends_with(base, bn, ".spec"))
		return VERSION_BUILD;
	return OTHER;
}

/* Calls fn on each line of files; stops and returns 0 when fn does. */
static int each_file(const char *files, int (*fn)(const char *p, size_t n,
						  void *data), void *data)
{
	const char *p = files;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n && !fn(p, n, data))
			return 0;
		p = nl ? nl + 1 : p + n;
	}
	return 1;
}

static int release_file(const char *p, size_t n, void *data)
{
	enum file_kind k = file_kind(p, n);

	if (k == CHANGELOG)
		*(int *)data = 1;
	return k != OTHER;
}

int onlist_reason_is_release(const char *subject, const char *files,
			     const regex_t *project)
{
	int changelog = 0;

	if (subject && (subject_is_release(subject) ||
			(project && !regexec(project, subject, 0, NULL, 0))))
		return 1;
	return files && *files && each_file(files, release_file, &changelog) &&
	       changelog;
}

static int translation_file(const char *p, size_t n, void *data)
{
	static const char *const dirs[] = {
		"po", "locale", "locales", "translations", "i18n", NULL
	};
	const char *q = p, *end = p + n;

	(void)data;
	if (ends_with(p, n, ".po") || ends_with(p, n, ".pot") ||
	    ends_with(p, n, ".mo"))
		return 1;
	while (q < end) {	/* a directory component of the path */
		const char *slash = memchr(q, '/', (size_t)(end - q));

		if (!slash)
			break;
		if (is_one_of(q, (size_t)(slash - q), dirs))
			return 1;
		q = slash + 1;
	}
	return 0;
}

int onlist_reason_is_translation(const char *files)
{
	return files && *files && each_file(files, translation_file, NULL);
}

int onlist_reason_reverted(const char *body, char hex[41])
{
	static const char key[] = "This reverts commit ";
	const char *p = body;

	while (p && (p = strstr(p, key))) {
		size_t n = 0;

		p += sizeof(key) - 1;
		while (n < 40 && isxdigit((unsigned char)p[n])) {
			hex[n] = (char)tolower((unsigned char)p[n]);
			n++;
		}
		if (n >= 7 && !isxdigit((unsigned char)p[n]) &&
		    !isalnum((unsigned char)p[n])) {
			hex[n] = '\0';
			return (int)n;
		}
	}
	hex[0] = '\0';
	return 0;
}
