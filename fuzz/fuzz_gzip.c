/* fuzz_gzip.c - the fetcher's gzip integrity check (check_gzip, static in
 * src/fetch.c, so the file is included whole; the fuzz build's archive then
 * supplies no second fetch.o).  A body is kept only when this says the
 * gzip stream is whole: members, padding, corrupt data, the bomb limit.
 * The first input byte's bit 0 is must_gzip; the rest is the body. */
#include <sys/mman.h>
#include "../src/fetch.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd, err = 0;
	enum check c;

	if (size < 1)
		return 0;
	fd = memfd_create("fuzz-gzip", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	if (size > 1 && write(fd, data + 1, size - 1) != (ssize_t)(size - 1))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	c = check_gzip(path, data[0] & 1, &err);
	if (c == CHECK_IO)
		abort();	/* a readable memfd cannot fail to read */
	if (size < 3 && c != (data[0] & 1 ? CHECK_BAD : CHECK_OK))
		abort();
	close(fd);
	return 0;
}
