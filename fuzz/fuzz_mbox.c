/* fuzz_mbox.c - the mbox reader: onlist_source_open() and _next() over a
 * file holding the input (plain or gzip: the reader sniffs it), every
 * message read to the end.  The file lives in memory (memfd) and is named
 * through /proc/self/fd so that the path-based open is what gets fuzzed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "onlist/mail.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct onlist_source *src = NULL;
	struct onlist_raw raw;
	char path[64], *err = NULL;
	int fd = memfd_create("fuzz-mbox", MFD_CLOEXEC);

	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (onlist_source_open(&src, path, &err) == ONLIST_OK) {
		onlist_status st;
		uint64_t last = 0;

		while ((st = onlist_source_next(src, &raw, &err)) == ONLIST_OK) {
			/* the message must be readable to its end and
			 * NUL-terminated, offsets must not go backwards */
			if (raw.data[raw.len] != '\0' || raw.offset < last ||
			    !raw.where || !raw.from_line)
				abort();
			last = raw.offset;
			free(err);
			err = NULL;
		}
	}
	free(err);
	onlist_source_free(src);
	close(fd);
	return 0;
}
