/* source.h - mail sources: a stream of raw messages out of an mbox, an
 * mbox.gz, a maildir or one message file (src/source.c). */
#ifndef ONLIST_SOURCE_H
#define ONLIST_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/status.h"

/* A stream of raw messages: an mbox (plain or gzip, read through zlib), a
 * maildir (cur/ and new/, in name order), or one message file. */
struct onlist_source;

/* Open `path`; "-" is standard input.  ONLIST_EIO when it cannot be read,
 * ONLIST_EPARSE when it is neither an mbox, a maildir nor a message (*errmsg,
 * caller frees, says why). */
onlist_status onlist_source_open(struct onlist_source **out, const char *path,
				 char **errmsg);
/* Like onlist_source_open() on an mbox or message arriving on file
 * descriptor fd, of which the caller already read `prefix` (plain text,
 * not gzip). The prefix is copied. */
onlist_status onlist_source_open_fd(struct onlist_source **out, int fd,
				    const char *prefix, size_t prefixlen,
				    char **errmsg);
void onlist_source_free(struct onlist_source *src);

/* A message larger than this is not read into memory: the source skips
 * to the next one and says so in onlist_raw.skip.  Real list mail is far
 * smaller (vger refuses 100 kB+); the cap keeps a hostile or broken
 * archive (one 1 GB line, a message with no From_ line after it) from
 * taking memory without bound. */
#define ONLIST_MESSAGE_MAX (64u << 20)

/* One raw message out of a source. Pointers are valid until the next call
 * to onlist_source_next() or onlist_source_free(). */
struct onlist_raw {
	const char *data;	/* RFC 822 message, no From_ line, >From unescaped */
	size_t len;
	uint64_t offset;	/* byte offset in the (uncompressed) source, or
				 * the index of the file in a maildir */
	const char *from_line;	/* the mbox From_ line without "From " and
				 * newline, or "" */
	const char *where;	/* human name: "FILE:offset" or the maildir file */
	const char *file;	/* the maildir file it is; NULL in an mbox */
	const char *skip;	/* NULL, or why the message was not read (over
				 * ONLIST_MESSAGE_MAX); data is then "" */
};

/* ONLIST_OK and *raw filled; ONLIST_ENOTFOUND at the end; ONLIST_EIO or
 * ONLIST_EPARSE (truncated gzip...) with *errmsg set.  On ONLIST_EIO from
 * a maildir, raw->file names the file that could not be read (the next
 * call goes on with the next file). */
onlist_status onlist_source_next(struct onlist_source *src,
				 struct onlist_raw *raw, char **errmsg);

#endif
