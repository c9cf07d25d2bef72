/* regex.h - POSIX extended regular expressions that come from outside (a
 * project's onlist.releasePattern, --release-subject), compiled only when
 * glibc's regcomp() is bounded on them. */
#ifndef ONLIST_REGEX_H
#define ONLIST_REGEX_H

#include <regex.h>
#include "onlist/status.h"

#define ONLIST_REGEX_MAX_LEN 256

/* What onlist_regex_bounded() allows, for messages. */
#define ONLIST_REGEX_LIMITS "at most 256 characters, counts up to 100, " \
	"nested counts multiplying to at most 25600"

/* 1 when regcomp() of `re` takes bounded time and memory, else 0: at most
 * ONLIST_REGEX_MAX_LEN characters, groups nested at most 32 deep, counts
 * ({m,n}) up to 100, and at most 25,600 nodes once every quantifier's
 * copies are made (nested counts multiply: "((a{100}){100}){100}" is
 * refused, "^v[0-9]+(\.[0-9]+)*$" is fine). */
int onlist_regex_bounded(const char *re);

/* regcomp(out, re, cflags) when onlist_regex_bounded(re): ONLIST_OK (the
 * caller regfree()s out); ONLIST_EUSAGE when it is not bounded (nothing
 * compiled); ONLIST_EPARSE when regcomp() refuses it. */
onlist_status onlist_regex_compile(regex_t *out, const char *re, int cflags);

#endif
