/* mail.h - one message parsed the way `git mailinfo -u` reads it.  The
 * sources that yield raw messages (mbox, mbox.gz, maildir) are source.h's,
 * included here for the callers that use both.
 *
 * GMime stays inside src/mail.c; nothing here exposes it.
 */
#ifndef ONLIST_MAIL_H
#define ONLIST_MAIL_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"
#include "onlist/patchid.h"
#include "onlist/source.h"

/* ---- one message -------------------------------------------------------- */

struct onlist_mail;

/* Parse one message. ONLIST_EPARSE (with *errmsg, caller frees) when it is
 * not a mail at all: its first line is no header and no patch follows.  A
 * mail without a patch parses fine, and so does one whose first line is no
 * header but that carries a patch: it is all body, as `git mailinfo` reads
 * it (no header fields, a synthetic Message-ID). */
onlist_status onlist_mail_parse(struct onlist_mail **out, const char *data,
				size_t len, char **errmsg);
void onlist_mail_free(struct onlist_mail *m);

/* Getters: strings are UTF-8, owned by the mail, valid until it is freed.
 * Absent values are "" (never NULL) unless said otherwise. */
const char *onlist_mail_message_id(const struct onlist_mail *m); /* no <> */
int onlist_mail_id_is_synthetic(const struct onlist_mail *m);
int64_t onlist_mail_date(const struct onlist_mail *m);	/* UTC, 0 = none */
const char *onlist_mail_from_name(const struct onlist_mail *m);
const char *onlist_mail_from_addr(const struct onlist_mail *m);
const char *onlist_mail_subject(const struct onlist_mail *m);
const char *onlist_mail_in_reply_to(const struct onlist_mail *m);
const char *onlist_mail_references(const struct onlist_mail *m); /* space-separated */
/* The commit message: the file `git mailinfo -u MSG PATCH` writes as MSG
 * (the body up to the patch, decoded, in-body headers taken off, UTF-8),
 * whether or not the mail has a patch.  Where git would refuse the mail
 * (an unknown charset, bytes invalid in theirs) onlist falls back instead;
 * see README "What counts as a patch". */
const char *onlist_mail_body(const struct onlist_mail *m);
/* The value of an in-body header ("From", "Subject" or "Date" at the top of
 * the body, or a "[PATCH] ..." first line as the Subject): what git am
 * takes as the author, subject and date instead of the mail's own.  UTF-8,
 * RFC 2047 decoded; NULL when the mail has none. */
const char *onlist_mail_inbody(const struct onlist_mail *m, const char *name);
/* The patch text from its first line ("---", "diff -", "Index: ") to the
 * end, byte for byte the PATCH file of `git mailinfo -u` (not converted
 * to UTF-8); NULL when that holds no diff (a cover letter, a "---" line
 * followed by prose).  A diff without git headers (quilt "Index:", plain
 * `diff -u`) is a patch with no patch-id, as with git. */
const char *onlist_mail_patch(const struct onlist_mail *m, size_t *len);
/* "inline", "attachment", or NULL when the mail carries no patch. */
const char *onlist_mail_patch_source(const struct onlist_mail *m);
/* 1 and hex filled when the patch has a git patch-id, else 0. */
int onlist_mail_patchid(const struct onlist_mail *m,
			char hex[ONLIST_PATCHID_HEXSZ + 1]);

/* X-Mailer (else User-Agent), "" when none; and whether the mail has
 * X-Patchwork-* headers.  Bot and echo rules read them. */
const char *onlist_mail_mailer(const struct onlist_mail *m);
int onlist_mail_has_patchwork(const struct onlist_mail *m);

/* The newest date of the Received: fields in the header block of the raw
 * message data[0..len) (UTC), or 0 when none has a date: when the last
 * server on the way received it, an upper bound of when it was sent. */
int64_t onlist_mail_received(const char *data, size_t len);

#endif
