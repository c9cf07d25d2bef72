/* status.c - the status strings, and the one way an error message is set
 * (see status.h). */
#include <stdarg.h>
#include <stdio.h>

#include "onlist/status.h"

const char *onlist_status_str(onlist_status st)
{
	switch (st) {
	case ONLIST_OK: return "ok";
	case ONLIST_ENOMEM: return "out of memory";
	case ONLIST_EIO: return "input/output error";
	case ONLIST_EPARSE: return "cannot parse input";
	case ONLIST_ENOPATCH: return "no patch in message";
	case ONLIST_EHTTP: return "download failed";
	case ONLIST_EDB: return "database error";
	case ONLIST_EGIT: return "git failed";
	case ONLIST_ENOTFOUND: return "not found";
	case ONLIST_EUSAGE: return "usage error";
	}
	return "unknown error";
}

void onlist_set_err(char **errmsg, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (!errmsg || *errmsg)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		*errmsg = s;
	va_end(ap);
}

onlist_status onlist_vfail(char **errmsg, onlist_status st, const char *fmt,
			   va_list ap)
{
	char *s;

	if (errmsg && !*errmsg && vasprintf(&s, fmt, ap) >= 0)
		*errmsg = s;
	return st;
}

onlist_status onlist_fail(char **errmsg, onlist_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	onlist_vfail(errmsg, st, fmt, ap);
	va_end(ap);
	return st;
}
