/* mailout.h - writing one mail: the weekly report as an RFC 5322 message.
 *
 * GMime builds the message (RFC 2047 header words, address lists, folding,
 * the transfer encoding of the body); nothing here exposes it.
 */
#ifndef ONLIST_MAILOUT_H
#define ONLIST_MAILOUT_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

/* What the message says.  Every string is the caller's and UTF-8; any may
 * come from git or mail (a user name, a repository's folder name): control
 * characters (CR and LF included) become spaces and non-ASCII text is
 * encoded, so no value can start a header line of its own. */
struct onlist_mailout {
	const char *from_name;	/* with from_addr: one mailbox; NULL: none */
	const char *from_addr;	/* NULL: `from` is an address list to parse */
	const char *from;	/* "Name <a@b>", as the user wrote it */
	const char *to, *cc;	/* address lists (NULL or "": none) */
	const char *subject;
	int64_t date;		/* seconds since the epoch */
	int utc_offset;		/* the Date: header's zone, in seconds */
	const char *msgid;	/* without the angle brackets */
	const char *in_reply_to;/* the same; NULL: the first of its thread */
	const char *body;	/* the text, UTF-8, lines ending in '\n' */
	size_t body_len;
};

/* The message, with LF line ends, into *out (caller frees; *len its
 * length).  ONLIST_EPARSE when an address does not parse into mailboxes
 * with an '@' (or holds a control character), when From: is missing, or
 * a Message-ID is not of the form left@right with no blank, '<' or '>'
 * (*errmsg says which; caller frees); ONLIST_ENOMEM. */
onlist_status onlist_mailout_write(const struct onlist_mailout *m, char **out,
				   size_t *len, char **errmsg);

#endif
