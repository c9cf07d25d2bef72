/* msgmeta.h - what a mail's text says besides its patch: the trailers
 * given in it (Reviewed-by: in a reply), the pull request it makes, the
 * b4 change-id that ties the versions of a series together.
 *
 * All functions read UTF-8 text as onlist_mail_body()/onlist_mail_patch()
 * return it, and never fail on odd input: they find nothing.
 */
#ifndef ONLIST_MSGMETA_H
#define ONLIST_MSGMETA_H

#include <stddef.h>

/* Called for each trailer line found; key and value are not
 * NUL-terminated.  Return non-zero to stop. */
typedef int (*onlist_trailer_cb)(const char *key, size_t keylen,
				 const char *value, size_t valuelen,
				 void *data);

/* Every line of `text` of the form "Something-by: value" (the key ends in
 * "-by", any case; leading blanks allowed) that is not quoted ("> ",
 * "| ").  Scanning stops at a signature separator ("-- ") and at an
 * unquoted "-----Original Message-----", below which a mailer pastes the
 * mail answered.  A bare "NAK" alone on a line (any case, not quoted) is
 * given as the key "NAK" with an empty value.  A review key (Reviewed-by,
 * Acked-by, Tested-by, Nacked-by) inside a line is given too when it
 * follows a ':', ',', '.', ';', '!', ')' or the word "add" and its value
 * holds "<addr@host>" ("Otherwise: Reviewed-by: Ann <ann@example.org>").
 * Returns what the last callback returned, else 0. */
int onlist_find_trailers(const char *text, onlist_trailer_cb cb, void *data);

/* 1 for the keys that are review given on a list: Reviewed-by,
 * Acked-by, Tested-by, Nacked-by (any case, "NACKed-by" too). */
int onlist_trailer_is_review(const char *key, size_t keylen);

/* Split "Name <addr>" (or a bare address, or a bare name) into malloc'd
 * name and lower-cased addr ("" when absent).  -1 when out of memory. */
int onlist_split_ident(const char *value, size_t len, char **name,
		       char **addr);

/* A `git request-pull` text: the repository ("are available in the Git
 * repository at:" and the line after it: URL and ref) and the tip ("for
 * you to fetch changes up to SHA:").  Returns 1 and sets the malloc'd
 * strings (ref and tip may be ""), or 0 when text is no pull request, -1
 * when out of memory. */
int onlist_find_pull(const char *text, char **url, char **ref, char **tip);

/* The value of a "change-id:" line (b4's series identity, or a Gerrit
 * Change-Id), malloc'd, or NULL. */
char *onlist_find_change_id(const char *text);

/* ---- what a reply says --------------------------------------------------- */

/* The text the writer of a reply wrote, one line of it a line: quoted
 * lines ("> ", "| "), attribution lines ("On ... wrote:", the line before
 * one when it wraps), trailer lines ("Acked-by: ..."), b4's and
 * patchwork-bot's summary lines ("[1/2] subject", "commit: <sha>", a bare
 * URL) and blank lines are dropped; white space is made one space and the
 * text is lower-cased (ASCII).  Scanning stops at a signature separator
 * ("-- "), at "-----Original Message-----" and at an Outlook "From: "
 * header block.  malloc'd ("" when nothing is left), NULL when out of
 * memory.  Keeps at most ONLIST_OWN_TEXT_MAX bytes: *more is set to 1
 * when there was more (more may be NULL). */
#define ONLIST_OWN_TEXT_MAX 1024
char *onlist_reply_own_text(const char *body, int *more);

/* 1 when a review tag of body (unquoted, as onlist_find_trailers() finds
 * it) is given to the whole series: its line, or one of the two unquoted
 * lines above it (blank lines aside, no quote between), or the line
 * below it when that starts with "(" or "for ", names the series
 * ("For the series:", "for all patches", "the rest", "both patches",
 * "patchset", ...); else 0. */
int onlist_reply_series_scope(const char *body);

/* The built-in notice patterns: globs (* and ? only, matched to a whole
 * line of own text) of a line that says a patch was applied, committed,
 * queued, pushed, merged, picked up or taken. */
extern const char *const onlist_notice_patterns[];
extern const size_t onlist_notice_npatterns;

/* Is own (as onlist_reply_own_text() gives it) an applied notice?  It is
 * read by sentence (a line that does not end one runs on into the next;
 * ".", "!", "?", ";" end one): the greeting ("Hi Ann,"), a closing
 * ("Thanks,", a name) and courtesies ("Thanks!") aside, a sentence that
 * matches a built-in pattern or one of extra[0..nextra) (lower-case
 * globs) with its verb among its first 8 words and at most 30 words ("I
 * merged this patch, as well as all the others related to ..."), and at
 * most 2 other sentences of at most 6 words; no sentence asks or objects
 * (a '?', or "but", "please", "however", "not", "n't", "should", "if",
 * ...: "Applied, but please ..." is discussion).  bot: the mail is a
 * robot's (b4 ty, patchwork-bot): a notice sentence that does not object
 * suffices.  1 or 0. */
int onlist_reply_is_notice(const char *own, const char *const *extra,
			   size_t nextra, int bot);

/* The diff a reply quotes, one level of quoting taken off: every line
 * that starts with '>' without its '>' and one space after it, the
 * others left out.  malloc'd, or NULL when the quoted text holds no diff
 * (no "diff --git" line, nor a "--- " line followed by "+++ ") or when
 * out of memory (*nomem set, may be NULL). */
char *onlist_quoted_diff(const char *body, int *nomem);

/* Called for each review tag quoted in a reply; key and value are not
 * NUL-terminated, attrib is the lower-case address the attribution line
 * above its quote names ("On ..., Ann <ann@x.org> wrote:"), or "".
 * Return non-zero to stop. */
typedef int (*onlist_quoted_trailer_cb)(const char *key, size_t keylen,
					const char *value, size_t valuelen,
					const char *attrib, void *data);

/* The review tags (Reviewed-by, Acked-by, Tested-by, Nacked-by; as
 * onlist_find_trailers() finds them) that body quotes one level deep
 * ("> Acked-by: ..."): a tag given in the mail the reply answers or
 * quotes, which may be a mail the archive lost (review.h).  Deeper
 * quotes are older mail and are skipped; so is everything when the
 * quote holds a diff (a quoted patch's trailers are its history, not
 * review).  Reading stops at the writer's signature ("-- ") and at
 * "-----Original Message-----".  Returns what the last callback
 * returned, else 0. */
int onlist_find_quoted_trailers(const char *body, onlist_quoted_trailer_cb cb,
				void *data);

#endif
