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
 * given as the key "NAK" with an empty value.  Returns what the last
 * callback returned, else 0. */
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

#endif
