/* verdict.c - unknown or never posted, and why (verdict.h). */
#include <stdlib.h>
#include <string.h>

#include "onlist/report.h"
#include "onlist/verdict.h"
#include "onlist/remote.h"
#include "onlist/store.h"

onlist_status onlist_span_get(struct onlist_store *s, struct onlist_span *sp)
{
	return onlist_store_span(s, &sp->first, &sp->last);
}

int onlist_span_misses(const struct onlist_span *sp, int64_t landed)
{
	if (!sp->last)
		return 1;
	return landed > sp->last + 86400 ||
	       (landed > 0 && landed + ONLIST_SPAN_BEFORE < sp->first);
}

void onlist_verdict_clear(struct onlist_verdict *v)
{
	free(v->msgid);
	free(v->reverted);
	free(v->why);
	memset(v, 0, sizeof(*v));
}

/* 1 when a server was asked about sha with every tier; else 0, and *why
 * (caller frees) the tiers it could not be asked, when it was asked. */
static int asked_remotely(struct onlist_store *s, const char *sha, char **why)
{
	char *v = sha ? onlist_store_get_state(s, ONLIST_REMOTE_ASKED, sha) : NULL;
	int asked = v && *v;

	free(v);
	*why = NULL;
	if (!asked && sha &&
	    (v = onlist_store_get_state(s, ONLIST_REMOTE_UNASKED, sha))) {
		if (*v)
			*why = v;
		else
			free(v);
	}
	return asked;
}

onlist_status onlist_verdict_unposted(struct onlist_store *s,
				      const struct onlist_span *sp,
				      const regex_t *release,
				      const char *sha, const char *subject,
				      const char *body, const char *files,
				      int64_t landed, struct onlist_verdict *out)
{
	char hex[41];
	onlist_status st;

	memset(out, 0, sizeof(*out));
	/* a commit lookup/match --remote asked a server about was looked
	 * for, whatever the local archive covers (remote.h) */
	if (onlist_span_misses(sp, landed) &&
	    !asked_remotely(s, sha, &out->why)) {
		/* a server that could not be asked every tier has not said
		 * "not there" either: unknown, and why */
		out->unknown = 1;
		return ONLIST_OK;
	}
	/* the commit's own text first: it needs no query */
	if (onlist_reason_is_release(subject, files, release)) {
		out->reason = ONLIST_REASON_RELEASE;
		return ONLIST_OK;
	}
	if (onlist_reason_reverted(body, hex)) {
		if ((st = onlist_store_posting_of_prefix(s, hex, &out->reverted,
							 &out->msgid)) != ONLIST_OK)
			return st;
		if (out->msgid) {
			out->reason = ONLIST_REASON_REVERT;
			return ONLIST_OK;
		}
		free(out->reverted);	/* a revert of an unposted commit */
		out->reverted = NULL;
	}
	if (onlist_reason_is_translation(files)) {
		out->reason = ONLIST_REASON_TRANSLATION;
		return ONLIST_OK;
	}
	if (subject && *subject) {
		if ((st = onlist_store_near_miss(s, subject, &out->msgid)) != ONLIST_OK)
			return st;
		if (out->msgid) {
			out->reason = ONLIST_REASON_NEAR_MISS;
			return ONLIST_OK;
		}
	}
	if (sha) {
		if ((st = onlist_store_series_gap(s, sha, &out->msgid)) != ONLIST_OK)
			return st;
		if (out->msgid) {
			out->reason = ONLIST_REASON_NEAR_MISS;
			return ONLIST_OK;
		}
	}
	out->reason = ONLIST_REASON_NO_TRACE;
	return ONLIST_OK;
}
