/* thread.h - threads, the replies each patch received, series and topics,
 * computed from what is known of each message: no database here.
 *
 * onlist_thread_update() (thread_update.c) reads the messages into an
 * array of struct onlist_thread_msg through store_thread.h, calls
 * onlist_thread_build(), and writes the thread, series and replies tables
 * from the result.  The rules:
 *
 * - parent: the message In-Reply-To names, else the last stored entry of
 *   References (a missing parent is skipped over); a loop is cut where
 *   found, the message closing it becomes a root;
 * - answers: the nearest patch or cover letter above a message; for a
 *   reply with no stored parent, the latest patch or cover letter of the
 *   same subject from someone else, sent before it within a month;
 * - cover letter: a "[PATCH 0/N]" (class cover), and also a mail without
 *   a patch (class reply or other) that a numbered patch from its sender
 *   answers, whatever its subject ("[v4] ...", "[PATCH] ...", "[RFC]",
 *   or one sent into an older version's review thread): the build sets
 *   its part to 0, its total to the patch's, and its version to the
 *   patch's when it had none (the only input fields it changes);
 * - series: a numbered patch belongs to the nearest cover letter above it
 *   of the same length, else to the first patch above it from the same
 *   sender; with threading broken, to the cover or first patch of the same
 *   sender, version and length sent within an hour; else to itself;
 * - topic (versions of one piece of work): b4's change-id when any mail of
 *   the series has one, else sender and lower-cased subject of the head;
 *   series are also one topic when a patch of each has the same sender
 *   and subject (a cover letter renamed between versions), or when the
 *   head of one answers a mail of the other with a lower version (a v2
 *   sent as a reply to v1).  Where "sender" is said here, the in-body
 *   author (git am's From: line, when someone else posts the patch) is
 *   also one, unless the mail is a stable backport (stable maintainers
 *   post everyone's patches); and two senders are one when their display
 *   names are equal (case and white space aside) and have two words or
 *   more (one person, two addresses; "Kim" alone is too common).  Such a
 *   topic is named by the least key of its series (a change-id first),
 *   whatever the order of the messages, and never by these other
 *   identities;
 * - replies: a reply (not a new patch, cover or pull request) answering
 *   a patch is a reply to it; answering a cover letter, a reply to every
 *   patch of that series.  A patch whose subject is a reply ("Re: [PATCH]"
 *   with a diff: "how about this instead") is a reply too, to what it
 *   answers, besides a patch of its own: a reviewer who answers with a
 *   diff has answered.  It joins no series or topic of what it answers,
 *   and a mail below it answers what it answers (a tag given to the
 *   change it proposes is given to the patch).
 */
#ifndef ONLIST_THREAD_H
#define ONLIST_THREAD_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

/* The class of a message, as import stores it (message_info.class). */
#define ONLIST_CLASS_PATCH "patch"	/* carries a patch of its own */
#define ONLIST_CLASS_COVER "cover"	/* [PATCH 0/N] */
#define ONLIST_CLASS_PULL  "pull"	/* [GIT PULL], git request-pull */
#define ONLIST_CLASS_REPLY "reply"	/* Re:, or In-Reply-To without patch */
#define ONLIST_CLASS_OTHER "other"	/* anything else */

/* The same classes as a code, for struct onlist_thread_msg's cls:
 * ONLIST_CLS_UNKNOWN for a message imported before classes were kept. */
enum onlist_class_code {
	ONLIST_CLS_UNKNOWN = 0, ONLIST_CLS_PATCH, ONLIST_CLS_COVER,
	ONLIST_CLS_PULL, ONLIST_CLS_REPLY, ONLIST_CLS_OTHER
};

/* The code of an ONLIST_CLASS_* text: NULL is ONLIST_CLS_UNKNOWN, a
 * text of no class ONLIST_CLS_OTHER. */
unsigned char onlist_class_code(const char *cls);

/* One message.  The caller fills the input fields; the strings are
 * borrowed (they must outlive the onlist_threads result) and never NULL
 * ("" when absent).  (A whole build holds one for each message: the
 * fields are ordered so that no padding comes between them, 128 bytes;
 * the class a byte, not a pointer to its text, 8 MB less for a million
 * messages.) */
struct onlist_thread_msg {
	/* in */
	const char *msgid;
	const char *in_reply_to;
	const char *refs;	/* References, space-separated, oldest first */
	const char *from;	/* the sender's address, lower case */
	int64_t date;
	const char *stripped;	/* the subject without its prefixes */
	const char *change_id;	/* "" when none */
	/* Who else the sender may be, for linking versions only; NULL or
	 * "" when not known: */
	const char *from_name;	/* the sender's display name */
	const char *author;	/* the in-body From address, lower case */
	const char *author_name;	/* and its name */
	/* out */
	const char *topic;	/* its series' topic, owned by the result;
				 * NULL when series is -1 */
	/* in */
	int version;		/* 1 when the subject gives none */
	int part, total;	/* [part/total]; -1 when none */
	/* out: indexes into the array, -1 for none */
	int parent, root, depth;
	int answers;		/* the patch or cover letter it answers */
	int series;		/* the head of its series (patches and cover
				 * letters only) */
	/* in: 0 or 1 */
	unsigned char has_patch;
	unsigned char reply;	/* the subject is a reply (Re:, AW:, ...) */
	unsigned char backport;	/* a stable backport (onlist_subject_stable()
				 * or "commit <sha> upstream."): its in-body
				 * author is not used */
	unsigned char cls;	/* ONLIST_CLS_* (onlist_class_code());
				 * ONLIST_CLS_UNKNOWN: has_patch decides */
	/* neither: the caller's own, not read or written by the build
	 * (thread_update.c keeps the message's place in the order of the
	 * ids there; it fills what would be the struct's padding) */
	int rank;
};

/* A patch and a reply to it (indexes into the array). */
struct onlist_thread_reply {
	int patch, reply;
	int by_author;		/* sent from the patch's own address */
};

struct onlist_thread_pending {
	int msg;
	const char *ref;
	size_t len;
};

struct onlist_threads {
	struct onlist_thread_reply *replies;	/* each pair once */
	size_t nreplies;
	long threads;		/* messages without a parent */
	long series;		/* series heads */
	long topics;		/* distinct topics */
	/* References looked for and not found before each message's parent
	 * (all of them when it has none): the messages whose parent may
	 * change when the one named arrives (thread_update.c builds again
	 * only around new mail).  ref points into the message's
	 * in_reply_to or refs; refs are not NUL-terminated there. */
	struct onlist_thread_pending *pending;
	size_t npending;
	char **owned;		/* private: the topic strings */
	size_t nowned;
};
#define ONLIST_THREADS_INIT { NULL, 0, 0, 0, 0, NULL, 0, NULL, 0 }

/* Compute the output fields of msgs[0..n) and the replies into *out
 * (initialised with ONLIST_THREADS_INIT, released with
 * onlist_threads_release() whatever the return).  ONLIST_ENOMEM, or
 * ONLIST_EUSAGE when n does not fit an int.  (GLib's hash tables, used
 * inside, abort when out of memory, as everywhere onlist uses GLib.) */
onlist_status onlist_thread_build(struct onlist_thread_msg *msgs, size_t n,
				  struct onlist_threads *out);
/* Free what the result owns (the topics msgs point to included); it is
 * then empty again. */
void onlist_threads_release(struct onlist_threads *t);

/* Bring the thread, replies and series tables up to date, as
 * onlist_thread_build() computes them from every message, in one
 * transaction (thread_update.c); *c (may be NULL) gets the counts.  When
 * no message came in since the last build the tables stand and *c is
 * read from them; when the last build kept its pending references only
 * the messages the new ones can change are computed again, else all of
 * them; either way only the rows that differ from what is stored are
 * written (the same rows as a rebuild from empty tables).  ONLIST_EDB,
 * ONLIST_ENOMEM, with *errmsg (the caller frees) saying why. */
struct onlist_store;
struct onlist_thread_counts;
onlist_status onlist_thread_update(struct onlist_store *s,
				   struct onlist_thread_counts *c,
				   char **errmsg);

#endif
