/* reason.h - why a commit that no posting matched was never posted: the
 * part of the answer that needs only the commit itself.
 *
 * The vocabulary (JSON `reason`, `unposted --reason`):
 *   release      a version bump or release commit (subject, or a diff
 *                that touches only version files and changelogs)
 *   revert       "This reverts commit X." where X was posted
 *   translation  only translation files (po/, *.po, ...) changed
 *   near_miss    something on the list comes close (named by the caller)
 *   pulled       came in a merge that answers a pull request posted to a
 *                list (named), never posted as a patch (paths.h)
 *   pulled_unannounced  came in a merge of another tree, and no pull
 *                request for it was posted
 *   forge_review came through a forge's pull/merge request (GitHub,
 *                GitLab) or a merge of a contributor's fork there
 *   embargoed    a rules line (`embargo commit|subject ...`) says so
 *   no_trace     nothing
 * The functions here read text and file lists only; whether a reverted
 * commit was posted, and what comes close on the list, the caller asks
 * the database (store_report.h).
 */
#ifndef ONLIST_REASON_H
#define ONLIST_REASON_H

#include <regex.h>

enum onlist_reason {
	ONLIST_REASON_NO_TRACE,
	ONLIST_REASON_RELEASE,
	ONLIST_REASON_REVERT,
	ONLIST_REASON_TRANSLATION,
	ONLIST_REASON_NEAR_MISS,
	ONLIST_REASON_PULLED,
	ONLIST_REASON_PULLED_UNANNOUNCED,
	ONLIST_REASON_FORGE_REVIEW,
	ONLIST_REASON_EMBARGOED,
};
#define ONLIST_NREASONS 9

/* "no_trace", "release", ...; never NULL. */
const char *onlist_reason_name(enum onlist_reason r);
/* 0 and *out for a name of the vocabulary, -1 for anything else. */
int onlist_reason_parse(const char *name, enum onlist_reason *out);

/* Non-zero when the commit is a release: its subject matches one of the
 * built-in patterns ("Release 1.2", "v1.2", "Linux 6.1-rc3", "Update
 * VERSION to 3.4-rc1 for release", "foo-utils: release 1.8", "Bump version
 * to 2.0") or `project` (the project's onlist.releasePattern, compiled
 * with REG_EXTENDED | REG_NOSUB; NULL: none), or every file it changes is
 * a version file or a changelog (VERSION, NEWS, ChangeLog, CHANGELOG.md,
 * debian/changelog, *.spec, configure.ac, ...) and at least one is not a
 * build file.  `files` is the commit's paths, one per line (NULL or "":
 * the subject decides). */
int onlist_reason_is_release(const char *subject, const char *files,
			     const regex_t *project);

/* Non-zero when there are files and every one is a translation: under a
 * po/, locale/, locales/, translations/ or i18n/ directory, or named
 * *.po, *.pot or *.mo. */
int onlist_reason_is_translation(const char *files);

/* The commit a revert names: the first "This reverts commit HEX" in
 * `body` (git revert's wording; 7 to 40 hex digits) copied to `hex`, lower
 * case, NUL-terminated.  Returns its length, or 0 when there is none. */
int onlist_reason_reverted(const char *body, char hex[41]);

#endif
