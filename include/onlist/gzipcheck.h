/* gzipcheck.h - is a downloaded gzip file whole? */
#ifndef ONLIST_GZIPCHECK_H
#define ONLIST_GZIPCHECK_H

/* A gzip body that inflates past 1 GiB and more than this many times its
 * size is refused, not validated: mail compresses about 5:1, deflate
 * cannot do better than ~1030:1. */
#define ONLIST_GZIP_BOMB_RATIO 200

enum onlist_gzip_check {
	ONLIST_GZIP_OK,		/* whole, or not gzip and !must_gzip */
	ONLIST_GZIP_BAD,	/* truncated, corrupt, data after padding, or
				 * not gzip though must_gzip */
	ONLIST_GZIP_BOMB,	/* inflates past the bomb limit */
	ONLIST_GZIP_IO,		/* could not read it: *err is the errno */
};

/* Read the file at `path`: a gzip file must inflate to the end of its last
 * member (several members allowed; trailing NUL padding tolerated, as
 * gzip(1) does); the output goes nowhere, memory stays at 128 KiB.  A file
 * that does not start with gzip's magic passes unless must_gzip. */
enum onlist_gzip_check onlist_gzip_check(const char *path, int must_gzip,
					 int *err);

#endif
