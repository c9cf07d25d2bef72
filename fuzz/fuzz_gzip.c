/* fuzz_gzip.c - the fetcher's gzip integrity check, onlist_gzip_check().
 * A body is kept only when this says the gzip stream is whole: members,
 * padding, corrupt data, the bomb limit.  The first input byte's bit 0 is
 * must_gzip; the rest is the body. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "onlist/gzipcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd, err = 0;
	enum onlist_gzip_check c;

	if (size < 1)
		return 0;
	fd = memfd_create("fuzz-gzip", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	c = onlist_gzip_check(path, data[0] & 1, &err);
	if (c == ONLIST_GZIP_IO)
		abort();	/* a readable memfd cannot fail to read */
	if (size < 3 && c != (data[0] & 1 ? ONLIST_GZIP_BAD : ONLIST_GZIP_OK))
		abort();
	close(fd);
	return 0;
}
