/* subject.h - what a mail's subject says about the patch it carries.
 *
 * "Re: [RFC PATCH net-next v2 03/12] tcp: fix foo" is a reply (1), to
 * version 2, part 3 of 12, with the prefix words "RFC PATCH net-next", and
 * the subject proper "tcp: fix foo" -- the key that ties versions of a
 * series together and that fuzzy matching compares with commit subjects.
 */
#ifndef ONLIST_SUBJECT_H
#define ONLIST_SUBJECT_H

struct onlist_subject {
	int reply;	/* began with Re:/Fwd:/AW:/Sv:... (before or after tags) */
	int version;	/* vN in the tags, else a "vN: " right after them
			 * ("[PATCH BlueZ] V3: foo"); 1 when none */
	int part;	/* N of [N/M]; -1 when none */
	int total;	/* M of [N/M]; -1 when none */
	int resend;	/* RESEND among the prefix words */
	int rfc;	/* RFC among the prefix words */
	int patch;	/* PATCH (or PATCHv2, PATCH-v2...) among them */
	int pull;	/* GIT PULL / PULL among them */
	char *prefix;	/* the other words of the [tags], space-separated,
			 * as written ("RFC PATCH net-next") */
	char *stripped;	/* the subject with all of the above removed,
			 * white space folded */
};

/* Parse `subject` (UTF-8).  Returns 0, or -1 when out of memory.  Free
 * the strings with onlist_subject_release(). */
int onlist_subject_parse(struct onlist_subject *out, const char *subject);
void onlist_subject_release(struct onlist_subject *s);

/* 1 when the prefix words (struct onlist_subject's prefix) mark a stable
 * backport: a kernel version ("5.15", "6.1.y", "4.19.123", "5.10-stable"),
 * "stable" or "AUTOSEL" among them ("[PATCH 5.15 012/123]", "[PATCH
 * AUTOSEL 6.1 03/20]"); else 0, also for NULL. */
int onlist_subject_stable(const char *prefix);

/* The key two subjects are "the same" by in the subject tier: ASCII
 * letters lower-cased, every run of characters that are not letters or
 * digits (ASCII punctuation, spaces) made one space, none at the ends;
 * bytes over 0x7f kept as they are.  Give it a subject already stripped
 * of its [PATCH ...] and Re: prefixes (onlist_subject_parse).  Returns a
 * malloc'd string, or NULL when out of memory. */
char *onlist_subject_key(const char *s);

#endif
