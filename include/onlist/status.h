/* status.h - the one error enum every fallible onlist function returns. */
#ifndef ONLIST_STATUS_H
#define ONLIST_STATUS_H

#include <stdarg.h>

typedef enum {
	ONLIST_OK = 0,
	ONLIST_ENOMEM,		/* out of memory */
	ONLIST_EIO,		/* reading or writing a file failed */
	ONLIST_EPARSE,		/* input is not what it claims to be */
	ONLIST_ENOPATCH,	/* the mail carries no diff: usually not an error */
	ONLIST_EHTTP,		/* a download failed */
	ONLIST_EDB,		/* the database refused */
	ONLIST_EGIT,		/* git failed or rejected its arguments */
	ONLIST_ENOTFOUND,	/* no such commit, message or file */
	ONLIST_EUSAGE,		/* the caller asked for something malformed */
} onlist_status;

/* A short constant English description; never NULL. */
const char *onlist_status_str(onlist_status st);

/* The error-message convention of the functions taking `char **errmsg`:
 * format the message into *errmsg (malloc'd, the caller frees it) only
 * when errmsg is non-NULL and *errmsg is still NULL, so that the first,
 * most specific message wins over the ones callers add on the way out.
 * When formatting runs out of memory *errmsg stays NULL. */
void onlist_set_err(char **errmsg, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* onlist_set_err(), then `st`: the one way a fallible function fails,
 *   return onlist_fail(errmsg, ONLIST_EIO, "reading %s: %s", path, why);
 * (no file keeps a helper of its own). */
onlist_status onlist_fail(char **errmsg, onlist_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with the arguments as a va_list, for a function that keeps a
 * status of its own beside the message (repo_scan.c's jobs). */
onlist_status onlist_vfail(char **errmsg, onlist_status st, const char *fmt,
			   va_list ap) __attribute__((format(printf, 3, 0)));

#endif
