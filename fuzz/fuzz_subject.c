/* fuzz_subject.c - the subject prefix parser and the readers of a mail's
 * text: trailers (Reviewed-by: in replies), request-pull text, change-ids.
 * The input is taken as one string (NULs end it, as in the database).
 * Invariants checked: the stripped subject is never longer than the
 * subject, a parsed part is never above its total when both are small,
 * and every trailer found lies inside the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "onlist/msgmeta.h"
#include "onlist/subject.h"

struct span {
	const char *lo, *hi;
};

static int inside(const char *key, size_t kl, const char *value, size_t vl,
		  void *data)
{
	const struct span *s = data;
	/* the one trailer without a value: a bare "NAK" line */
	int nak = kl == 3 && !strncasecmp(key, "nak", 3) && !vl;

	if (key < s->lo || key + kl > s->hi || value < s->lo ||
	    value + vl > s->hi || !kl || (!vl && !nak))
		abort();
	if (nak)
		return 0;
	if (!onlist_trailer_is_review(key, kl) && kl < 4)
		abort();	/* "-by" needs a word before it */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *url, *ref, *tip, *cid, *name, *addr;
	struct onlist_subject sj;
	struct span sp;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (onlist_subject_parse(&sj, text) == 0) {
		if (strlen(sj.stripped) > strlen(text) || !sj.prefix)
			abort();
		onlist_subject_release(&sj);
	}
	sp.lo = text;
	sp.hi = text + strlen(text);
	onlist_find_trailers(text, inside, &sp);
	if (onlist_find_pull(text, &url, &ref, &tip) == 1) {
		if (!*url)
			abort();
		free(url);
		free(ref);
		free(tip);
	}
	if ((cid = onlist_find_change_id(text)))
		free(cid);
	if (onlist_split_ident(text, strlen(text), &name, &addr) == 0) {
		free(name);
		free(addr);
	}
	free(text);
	return 0;
}
