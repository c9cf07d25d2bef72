/* buf.c - growable memory (see buf.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/buf.h"

/* Doubling keeps appends amortised linear; 256 bytes holds most lines
 * and paths without a second allocation. */
#define FIRST_CAP 256

int onlist_buf_reserve(struct onlist_buf *b, size_t n)
{
	size_t need, cap;
	char *d;

	if (n > SIZE_MAX - 1 - b->len)
		return -1;
	need = b->len + n + 1;
	if (need > b->cap) {
		cap = b->cap ? b->cap : FIRST_CAP;
		while (cap < need) {
			if (cap > SIZE_MAX / 2)
				return -1;
			cap *= 2;
		}
		if (!(d = realloc(b->data, cap)))
			return -1;
		b->data = d;
		b->cap = cap;
	}
	return 0;
}

int onlist_buf_add(struct onlist_buf *b, const char *p, size_t n)
{
	if (onlist_buf_reserve(b, n) < 0)
		return -1;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

void onlist_buf_release(struct onlist_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void *onlist_grow(void *v, size_t *alloc, size_t size, size_t first)
{
	size_t na = 0;		/* 0: too large */
	void *nv;

	if (!*alloc)
		na = first;
	else if (*alloc <= SIZE_MAX / 2)
		na = *alloc * 2;
	/* nothing larger than PTRDIFF_MAX can be allocated (glibc refuses
	 * it; valgrind calls such a request an error) */
	if (!na || !size || na > PTRDIFF_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	if (!(nv = realloc(v, na * size)))
		return NULL;
	*alloc = na;
	return nv;
}
