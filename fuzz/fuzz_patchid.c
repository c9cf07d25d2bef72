/* fuzz_patchid.c - the patch-id state machine three ways over one input:
 * onlist_patchid_buf(), onlist_patchid_stream() (git's generate_id_list),
 * and the line API fed by hand.  Besides memory errors it checks that
 * _buf() is deterministic and that _stream() prints well-formed lines. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/patchid.h"

static void check_lines(const char *out, size_t len)
{
	const char *p = out, *end = out + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		/* "<40 hex> <40 hex>\n" */
		if (!nl || nl - p != 2 * ONLIST_PATCHID_HEXSZ + 1 ||
		    p[ONLIST_PATCHID_HEXSZ] != ' ')
			abort();
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data, *p, *end = buf + size;
	unsigned char a[ONLIST_PATCHID_RAWSZ], b[ONLIST_PATCHID_RAWSZ];
	struct onlist_patchid pid;
	char name[ONLIST_PATCHID_HEXSZ + 1], *out = NULL;
	size_t outlen = 0;
	FILE *in, *o;
	int ra, rb;

	ra = onlist_patchid_buf(buf, size, a);
	rb = onlist_patchid_buf(buf, size, b);
	if (ra != rb || (ra && memcmp(a, b, sizeof(a))))
		abort();

	/* Both modes, as `onlist patch-id` runs them; the first byte picks
	 * one so the corpus covers both without doubling the work. */
	in = fmemopen((void *)(size ? buf : ""), size ? size : 1, "r");
	o = open_memstream(&out, &outlen);
	if (!in || !o)
		abort();
	if (size)
		onlist_patchid_stream(in, NULL, 0, o, buf[0] & 1);
	fclose(in);
	fclose(o);
	check_lines(out, outlen);
	free(out);

	/* The line API, restarting after every END / NEXT as callers must. */
	onlist_patchid_init(&pid, 1);
	for (p = buf; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (onlist_patchid_line(&pid, p, len, name) != ONLIST_PATCHID_MORE) {
			onlist_patchid_finish(&pid, a);
			onlist_patchid_init(&pid, 1);
		}
		p += len;
	}
	onlist_patchid_finish(&pid, a);
	return 0;
}
