/* fuzz_gzip.c - the fetcher's gzip integrity check, onlist_gzip_check().
 * A body is kept only when this says the gzip stream is whole: members,
 * padding, corrupt data, the bomb limit.  The first input byte's bit 0 is
 * must_gzip; the rest is the body.
 *
 * The body goes to a regular temporary file (one per process, rewritten
 * for each input): onlist_gzip_check() opens its path with O_NOFOLLOW, so
 * a /proc/self/fd/N link to a memfd is refused, as a planted link is. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "onlist/gzipcheck.h"

static char path[4096];
static int fd = -1;

static void remove_file(void)
{
	if (path[0])
		unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int err = 0;
	enum onlist_gzip_check c;

	if (size < 1)
		return 0;
	if (fd < 0) {
		const char *dir = getenv("TMPDIR");

		snprintf(path, sizeof(path), "%s/fuzz-gzip-XXXXXX",
			 dir && *dir ? dir : "/tmp");
		if ((fd = mkstemp(path)) < 0)
			abort();
		atexit(remove_file);
	}
	if (ftruncate(fd, 0) < 0 ||
	    (size > 1 && pwrite(fd, data + 1, size - 1, 0) !=
	     (ssize_t)(size - 1)))
		abort();
	c = onlist_gzip_check(path, data[0] & 1, &err);
	if (c == ONLIST_GZIP_IO)
		abort();	/* a readable file cannot fail to read */
	if (size < 3 && c != (data[0] & 1 ? ONLIST_GZIP_BAD : ONLIST_GZIP_OK))
		abort();
	return 0;
}
