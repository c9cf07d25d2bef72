/* msgid.h - the Message-ID a user or a trailer names.
 *
 * One parser for every place a Message-ID comes in as text: the argument of
 * `onlist thread`, and the Link: and Message-Id: trailers of commits that
 * the link tier of `onlist match` follows.  It accepts
 *
 *   <id>  id                              as written in a header
 *   Link: https://...  Message-Id: <id>   a whole trailer line
 *   https://lore.kernel.org/r/ID/         lore and its mirrors, any list
 *   https://lore.kernel.org/LIST/ID/T/#u  with what lore appends after the
 *                                         id: /T/ /t/ /u/ /raw /t.mbox.gz
 *                                         /t.atom, #anchors and ?queries
 *   https://patch.msgid.link/ID           b4's Link: form
 *
 * and undoes the %XX escapes URLs use (lore writes '/' in an id as %2F).
 */
#ifndef ONLIST_MSGID_H
#define ONLIST_MSGID_H

#include "onlist/status.h"

/* The Message-ID `arg` names, without angle brackets, in *out (malloc'd,
 * the caller frees).  A URL names one only when its last path component
 * (after lore's suffixes are taken off) has an '@': a link to a bug
 * tracker or a list's front page names no message.  A bare or bracketed
 * id needs no '@' (some mailers send ids without one).
 *
 * ONLIST_EPARSE when arg names no Message-ID (empty, a URL without one, an
 * escape that decodes to NUL), ONLIST_ENOMEM; *out is NULL on error. */
onlist_status onlist_msgid_parse(const char *arg, char **out);

#endif
