/* gzipcheck.c - is a downloaded gzip file whole?  (See gzipcheck.h.)
 * Apart from http.c so that the fuzz harness reaches it without
 * including http.c, curl and all. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "onlist/gzipcheck.h"

/* Past this much output a body must also beat the ratio to be a bomb:
 * small files are never refused. */
#define BOMB_OUT	(UINT64_C(1) << 30)

enum onlist_gzip_check onlist_gzip_check(const char *path, int must_gzip, int *err)
{
	enum { BUFSZ = 65536 };
	unsigned char *in, *out;
	enum { MEMBER, BETWEEN, PADDING } state = MEMBER;
	enum onlist_gzip_check ret = ONLIST_GZIP_BAD;
	uint64_t total_in = 0, total_out = 0;
	unsigned char magic[2];
	z_stream z;
	int fd, zret;
	ssize_t got;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return ONLIST_GZIP_IO;
	}
	got = read(fd, magic, 2);
	if (got != 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
		close(fd);
		if (got < 0) {
			*err = errno;
			return ONLIST_GZIP_IO;
		}
		return must_gzip ? ONLIST_GZIP_BAD : ONLIST_GZIP_OK;
	}
	memset(&z, 0, sizeof(z));
	in = malloc(2 * BUFSZ);
	if (!in || inflateInit2(&z, 15 + 16) != Z_OK) {
		free(in);
		close(fd);
		*err = ENOMEM;
		return ONLIST_GZIP_IO;
	}
	out = in + BUFSZ;
	in[0] = 0x1f;
	in[1] = 0x8b;
	z.next_in = in;
	z.avail_in = 2;
	for (;;) {
		if (z.avail_in == 0) {
			got = read(fd, in, BUFSZ);
			if (got < 0) {
				if (errno == EINTR)
					continue;
				*err = errno;
				ret = ONLIST_GZIP_IO;
				break;
			}
			if (got == 0) {
				if (state != MEMBER)
					ret = ONLIST_GZIP_OK;
				break;	/* EOF inside a member: truncated */
			}
			z.next_in = in;
			z.avail_in = (uInt)got;
		}
		if (state != MEMBER) {
			while (z.avail_in && *z.next_in == 0) {
				z.next_in++;
				z.avail_in--;
				state = PADDING;
			}
			if (!z.avail_in)
				continue;
			if (state == PADDING)
				break;	/* data after padding */
			inflateReset(&z);
			state = MEMBER;
		}
		{
			uInt before = z.avail_in;

			z.next_out = out;
			z.avail_out = BUFSZ;
			zret = inflate(&z, Z_NO_FLUSH);
			total_in += before - z.avail_in;
			total_out += BUFSZ - z.avail_out;
		}
		if (total_out > BOMB_OUT && total_out / ONLIST_GZIP_BOMB_RATIO > total_in) {
			ret = ONLIST_GZIP_BOMB;
			break;
		}
		if (zret == Z_STREAM_END)
			state = BETWEEN;
		else if (zret != Z_OK && zret != Z_BUF_ERROR)
			break;	/* Z_DATA_ERROR: corrupt, bad CRC or length */
	}
	inflateEnd(&z);
	free(in);
	close(fd);
	return ret;
}
