/* buf.h - growable memory: a byte buffer for text built up piece by
 * piece, and room for one more element in an array.
 *
 * A buffer starts as ONLIST_BUF_INIT (or zeroed memory); data is NULL
 * until the first onlist_buf_add(), and after every successful add it
 * holds len bytes followed by a NUL (the bytes may hold other NULs).
 * Setting len to 0 empties the buffer and keeps its memory for reuse.
 * data belongs to the buffer: onlist_buf_release() frees it, or the owner
 * may take the pointer and free() it.
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

/* Append the n bytes at p (n may be 0, and p then NULL: the buffer is
 * allocated and terminated, so data is a string even when nothing was
 * added).  Pointers into data are invalid afterwards.  Returns 0; -1 when
 * out of memory (or the size would overflow), with the buffer as it was. */
int onlist_buf_add(struct onlist_buf *b, const char *p, size_t n);

/* Room for n more bytes (and the NUL after them) without a reallocation:
 * a writer that knows a bound on what it adds writes at data + len and
 * then sets len and the NUL itself.  Pointers into data are invalid
 * afterwards.  Returns 0; -1 when out of memory, with the buffer as it
 * was. */
int onlist_buf_reserve(struct onlist_buf *b, size_t n);

/* Free data and leave b empty, as ONLIST_BUF_INIT.  Accepts a buffer
 * never added to. */
void onlist_buf_release(struct onlist_buf *b);

/* Room for more elements in an array that grows by doubling: v holds
 * *alloc elements of `size` bytes (v NULL and *alloc 0 at first).
 * Returns the array reallocated to `first` (> 0) elements when *alloc is 0,
 * else to twice *alloc, and sets *alloc to match; v is then invalid, as
 * after realloc().  NULL when out of memory or when the size would
 * overflow: v and *alloc are then untouched, v still the caller's.
 *
 *	if (l->n == l->alloc) {
 *		struct item *nv = onlist_grow(l->v, &l->alloc, sizeof *nv, 64);
 *		if (!nv)
 *			return ONLIST_ENOMEM;
 *		l->v = nv;
 *	}
 */
void *onlist_grow(void *v, size_t *alloc, size_t size, size_t first);

#endif
