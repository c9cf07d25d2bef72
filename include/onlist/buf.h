/* buf.h - a growable byte buffer, for text built up piece by piece.
 *
 * Start one with ONLIST_BUF_INIT (or zeroed memory); data is NULL until the
 * first onlist_buf_add(), and after every successful add it holds len
 * bytes followed by a NUL (the bytes may hold other NULs).  Setting len to
 * 0 empties the buffer and keeps its memory for reuse.  data belongs to
 * the buffer: onlist_buf_release() frees it, or the owner may take the
 * pointer and free() it.
 */
#ifndef ONLIST_BUF_H
#define ONLIST_BUF_H

#include <stddef.h>

struct onlist_buf {
	char *data;
	size_t len;		/* bytes in use, the NUL not counted */
	size_t cap;		/* bytes allocated */
};
#define ONLIST_BUF_INIT { NULL, 0, 0 }

/* Append the n bytes at p (n may be 0: the buffer is then allocated and
 * terminated, so data is a string even when nothing was added).  Pointers
 * into data are invalid afterwards.  Returns 0; -1 when out of memory (or
 * the size would overflow), with the buffer as it was. */
int onlist_buf_add(struct onlist_buf *b, const char *p, size_t n);

/* Free data and leave b empty, as ONLIST_BUF_INIT.  Accepts a buffer
 * never added to. */
void onlist_buf_release(struct onlist_buf *b);

#endif
