/* verdict.c - unknown or never posted, and why (verdict.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/report.h"
#include "onlist/verdict.h"
#include "onlist/remote.h"
#include "onlist/store.h"
#include "onlist/store_paths.h"

onlist_status onlist_span_get(struct onlist_store *s, struct onlist_span *sp)
{
	return onlist_store_report_span(s, &sp->first, &sp->last);
}

int onlist_span_misses(const struct onlist_span *sp, int64_t landed)
{
	if (!sp->last)
		return 1;
	return landed > sp->last + 86400 ||
	       (landed > 0 && landed + ONLIST_SPAN_BEFORE < sp->first);
}

void onlist_verdict_release(struct onlist_verdict *v)
{
	free(v->msgid);
	free(v->reverted);
	free(v->why);
	free(v->note);
	free(v->security);
	onlist_path_release(&v->path);
	memset(v, 0, sizeof(*v));
}

int onlist_verdict_security_posted(const char *body, int reviewed,
				   char **out)
{
	*out = NULL;
	return reviewed ? 0 : onlist_security_mark(body, out);
}

/* One word of p (ending at a blank or the line's end) and what follows. */
static const char *word(const char *p, const char *end, size_t *n)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	*n = 0;
	while (p + *n < end && p[*n] != ' ' && p[*n] != '\t')
		(*n)++;
	return p;
}

static int embargo_line(const char *p, const char *end, const char *sha,
			const char *subject, const char **text, size_t *len)
{
	size_t kn, an;
	const char *k = word(p, end, &kn), *a = word(k + kn, end, &an);
	const char *t = a + an;
	int hit = 0;

	while (t < end && (*t == ' ' || *t == '\t'))
		t++;
	if (!an)
		return 0;
	if (kn == 6 && !strncmp(k, "commit", 6)) {
		hit = sha && an >= 7 && an <= 40 && strlen(sha) >= an &&
		      !g_ascii_strncasecmp(sha, a, an);
	} else if (kn == 7 && !strncmp(k, "subject", 7) && subject) {
		char *pat = g_ascii_strdown(a, (gssize)an);
		char *sub = g_utf8_strdown(subject, -1);

		hit = g_pattern_match_simple(pat, sub);
		g_free(pat);
		g_free(sub);
	}
	if (hit) {
		*text = t;
		*len = (size_t)(end - t);
	}
	return hit;
}

int onlist_verdict_embargo(const char *rules, const char *sha,
			   const char *subject, const char **text, size_t *len)
{
	const char *p = rules;

	while (p && *p) {
		const char *end = p + strcspn(p, "\n");

		if (embargo_line(p, end, sha, subject, text, len))
			return 1;
		p = *end ? end + 1 : end;
	}
	return 0;
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

/* The path beside a reason that does not come from it. */
static onlist_status path_only(struct onlist_store *s, const char *sha,
			       const char *body, struct onlist_verdict *out)
{
	return sha ? onlist_path_of(s, sha, body, &out->path) : ONLIST_OK;
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
	if (onlist_security_mark(body, &out->security) < 0)
		return ONLIST_ENOMEM;
	/* a rule the project wrote is its own word: before any guess */
	{
		char *rules = NULL;
		const char *text;
		size_t len;

		if ((st = onlist_store_paths_embargo_rules(s, &rules)) != ONLIST_OK)
			return st;
		if (rules && onlist_verdict_embargo(rules, sha, subject, &text,
						    &len)) {
			out->note = strndup(text, len);
			free(rules);
			if (!out->note)
				return ONLIST_ENOMEM;
			out->reason = ONLIST_REASON_EMBARGOED;
			return path_only(s, sha, body, out);
		}
		free(rules);
	}
	/* the commit's own text first: it needs no query */
	if (onlist_reason_is_release(subject, files, release)) {
		out->reason = ONLIST_REASON_RELEASE;
		return path_only(s, sha, body, out);
	}
	if (onlist_reason_reverted(body, hex)) {
		if ((st = onlist_store_report_posting_of_prefix(s, hex, &out->reverted,
							 &out->msgid)) != ONLIST_OK)
			return st;
		if (out->msgid) {
			out->reason = ONLIST_REASON_REVERT;
			return path_only(s, sha, body, out);
		}
		free(out->reverted);	/* a revert of an unposted commit */
		out->reverted = NULL;
	}
	if (onlist_reason_is_translation(files)) {
		out->reason = ONLIST_REASON_TRANSLATION;
		return path_only(s, sha, body, out);
	}
	if (subject && *subject) {
		if ((st = onlist_store_report_near_miss(s, subject, &out->msgid)) != ONLIST_OK)
			return st;
		if (out->msgid) {
			out->reason = ONLIST_REASON_NEAR_MISS;
			return path_only(s, sha, body, out);
		}
	}
	if (sha) {
		if ((st = onlist_store_report_series_gap(s, sha, &out->msgid)) != ONLIST_OK)
			return st;
		if (out->msgid) {
			out->reason = ONLIST_REASON_NEAR_MISS;
			return path_only(s, sha, body, out);
		}
	}
	/* nothing on the list comes close: the path it took is the
	 * explanation there is */
	if ((st = path_only(s, sha, body, out)) != ONLIST_OK)
		return st;
	switch (out->path.kind) {
	case ONLIST_PATH_PULL:
		out->reason = ONLIST_REASON_PULLED;
		if (out->path.pull_msgid &&
		    !(out->msgid = strdup(out->path.pull_msgid)))
			return ONLIST_ENOMEM;
		break;
	case ONLIST_PATH_UNANNOUNCED:
		out->reason = ONLIST_REASON_PULLED_UNANNOUNCED;
		break;
	case ONLIST_PATH_FORGE:
		out->reason = ONLIST_REASON_FORGE_REVIEW;
		break;
	default:
		out->reason = ONLIST_REASON_NO_TRACE;
	}
	return ONLIST_OK;
}
