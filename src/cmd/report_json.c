/* report_json.c - the report as JSON (schema REPORT_SCHEMA, docs/schema.md)
 * through the emitter (emit.h): the model's fields, nothing written by
 * hand (report_int.h). */
#include "report_int.h"
#include "onlist/emit.h"

/* "Key: value" lines as a list of strings, one a line of s. */
static void lines(struct onlist_emit *e, const char *key, const char *s)
{
	onlist_emit_key(e, key);
	onlist_emit_begin_list(e, 0);
	for (const char *p = s ? s : "", *nl; *p; p = *nl ? nl + 1 : nl) {
		char *t;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		t = strndup(p, (size_t)(nl - p));
		onlist_emit_str(e, t ? t : "");
		free(t);
	}
	onlist_emit_end(e);
}

/* A link from a template, or null. */
static void url(struct onlist_emit *e, const char *key, const char *tmpl,
		const char *value)
{
	char *u = rp_url(tmpl, value);

	onlist_emit_kstr(e, key, u);
	free(u);
}

static void review(struct onlist_emit *e, const struct onlist_commit_review *rv)
{
	onlist_emit_begin_map(e, 0);
	onlist_emit_kstr(e, "state", rv->state);
	onlist_emit_kstr(e, "why", rv->why);	/* unknown: why (review.h) */
	onlist_emit_kint(e, "naks", rv->naks);
	onlist_emit_key(e, "evidence");
	if (rv->ev_key) {
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "key", rv->ev_key,
				  "value", rv->ev_value,
				  "from", rv->ev_from,
				  "msgid", rv->ev_msgid,
				  "target", rv->ev_target,
				  "target_class", rv->ev_target_class,
				  "target_subject", rv->ev_target_subject, NULL);
		onlist_emit_kint(e, "version", rv->ev_version);
		if (rv->ev_part >= 0) {
			onlist_emit_kint(e, "part", rv->ev_part);
			onlist_emit_kint(e, "total", rv->ev_total);
		}
		onlist_emit_end(e);
	} else
		onlist_emit_null(e);
	lines(e, "off_list_tags", rv->off_list_tags);
	onlist_emit_key(e, "notice");
	if (rv->notice_msgid) {
		char nd[32];

		onlist_fmt_date(rv->notice_date, nd, sizeof nd, 1);
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "from", rv->notice_name,
				  "date", nd,
				  "msgid", rv->notice_msgid, NULL);
		onlist_emit_end(e);
	} else
		onlist_emit_null(e);
	onlist_emit_end(e);
}

static void commit(struct report *r, struct onlist_emit *e,
		   const struct onlist_report_row *x)
{
	onlist_emit_begin_map(e, 0);
	onlist_emit_kstrs(e, "sha", x->sha,
			  "category", onlist_report_cat_name(x->cat), NULL);
	onlist_emit_kbool(e, "modified_before_merge", x->modified);
	url(e, "url", r->commit_url, x->sha);
	onlist_emit_kstrs(e, "subject", x->subject,
			  "author", x->author,
			  "author_email", x->author_email,
			  "committer", x->committer,
			  "subsystem", x->subsys, NULL);
	onlist_emit_kbool(e, "empty_changelog", x->body_empty);
	onlist_emit_kint(e, "commit_date", x->commit_date);
	lines(e, "tags", x->trailers);
	onlist_emit_key(e, "landed");
	if (x->landed && x->merge_sha) {
		onlist_emit_begin_map(e, 0);
		onlist_emit_kint(e, "date", x->landed_date);
		onlist_emit_kstrs(e, "merge", x->merge_sha,
				  "subject", x->merge_subject, NULL);
		onlist_emit_kbool(e, "direct", !strcmp(x->merge_sha, x->sha));
		onlist_emit_end(e);
	} else
		onlist_emit_null(e);
	onlist_emit_kint(e, "postings", x->postings);
	onlist_emit_kint(e, "exact", x->exact);
	onlist_emit_kint(e, "fuzzy", x->fuzzy);
	onlist_emit_kint(e, "replies", x->replies);
	onlist_emit_key(e, "review_tags");
	if (x->review_tags < 0)
		onlist_emit_null(e);
	else
		onlist_emit_int(e, x->review_tags);
	onlist_emit_key(e, "posting");
	if (x->msgid) {
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "msgid", x->msgid,
				  "list", x->list, NULL);
		url(e, "url", r->posting_url, x->msgid);
		onlist_emit_end(e);
	} else
		onlist_emit_null(e);
	onlist_emit_key(e, "posting_versions");
	onlist_emit_begin_list(e, 0);
	for (int i = 0; i < x->npost; i++) {
		onlist_emit_begin_map(e, 0);
		onlist_emit_kint(e, "version", x->post[i].version);
		onlist_emit_kstr(e, "msgid", x->post[i].msgid);
		url(e, "url", r->posting_url, x->post[i].msgid);
		onlist_emit_end(e);
	}
	onlist_emit_end(e);
	if (x->cat == C_NEVER) {
		onlist_emit_kstrs(e, "reason", onlist_reason_name(x->v.reason),
				  "reason_msgid", x->v.msgid,
				  "reverted", x->v.reverted, NULL);
	} else
		onlist_emit_kstr(e, "reason", NULL);
	onlist_emit_kstr(e, "note", x->v.note);
	onlist_emit_kstr(e, "path", x->v.path.kind == ONLIST_PATH_UNKNOWN ?
			 NULL : onlist_path_kind_name(x->v.path.kind));
	onlist_emit_kstr(e, "pull_request", x->v.path.pull_msgid);
	onlist_emit_kstr(e, "via", x->v.path.kind == ONLIST_PATH_PULL ?
			 x->v.path.url : onlist_cli_path_via(&x->v.path));
	onlist_emit_key(e, "security_relevant");
	if (x->cat == C_UNKNOWN)	/* not looked for, or review unknown */
		onlist_emit_null(e);
	else
		onlist_emit_bool(e, x->v.security != NULL);
	onlist_emit_kstr(e, "security", x->v.security);
	onlist_emit_key(e, "review");
	if (x->cat == C_NEVER || (x->cat == C_UNKNOWN && !x->postings))
		onlist_emit_null(e);
	else
		review(e, &x->rv);
	onlist_emit_end(e);
}

/* A number, or null when the report does not know it. */
static void known(struct onlist_emit *e, const char *key, int is_known,
		  long n)
{
	onlist_emit_key(e, key);
	if (is_known)
		onlist_emit_int(e, n);
	else
		onlist_emit_null(e);
}

static void group_table(struct onlist_emit *e, const struct onlist_report *m,
			int by)
{
	onlist_emit_key(e, by == ONLIST_REPORT_BY_SUBSYSTEM ? "by_subsystem" :
			"by_committer");
	onlist_emit_begin_list(e, ONLIST_EMIT_LINES);
	for (size_t i = 0; i < m->ngroups[by]; i++) {
		const struct onlist_report_group *g = &m->groups[by][i];

		onlist_emit_begin_map(e, 0);
		onlist_emit_kstr(e, "name", g->name);
		onlist_emit_kint(e, "commits", g->commits);
		onlist_emit_kint(e, "never_posted", g->never);
		known(e, "modified_before_merge", m->modified_known, g->modified);
		onlist_emit_kint(e, "no_reply", g->no_reply);
		onlist_emit_kint(e, "discussed", g->discussed);
		onlist_emit_kint(e, "reviewed_series", g->series);
		onlist_emit_end(e);
	}
	onlist_emit_end(e);
}

int rp_render_json(struct report *r)
{
	const struct onlist_report *m = r->m;
	struct onlist_emit *e = onlist_emit_new(r->f, ONLIST_FMT_JSON);
	int ret = -1;

	if (!e)
		return -1;
	onlist_emit_begin_map(e, ONLIST_EMIT_LINES);
	onlist_emit_kstrs(e, "schema", REPORT_SCHEMA,
			  "title", m->title, NULL);
	if (m->windowed) {
		onlist_emit_kint(e, "since", m->since);
		onlist_emit_same_line(e);
		onlist_emit_kint(e, "until", m->until);
	}
	onlist_emit_key(e, "totals");
	onlist_emit_begin_map(e, 0);
	onlist_emit_kint(e, "commits", (int64_t)m->nrows);
	onlist_emit_kint(e, "never_posted", m->count[C_NEVER]);
	known(e, "modified_before_merge", m->modified_known, m->modified);
	onlist_emit_kint(e, "no_reply", m->count[C_NOREPLY]);
	onlist_emit_kint(e, "discussed", m->count[C_DISCUSSED]);
	onlist_emit_kint(e, "reviewed_series", m->count[C_SERIES]);
	onlist_emit_kint(e, "reviewed", m->count[C_REVIEWED]);
	onlist_emit_kint(e, "unknown", m->count[C_UNKNOWN]);
	/* of them, posted commits whose review is unknown (review.h) */
	onlist_emit_kint(e, "review_unknown", (int64_t)m->review_unknown.n);
	known(e, "review_tags_in_replies", m->reviews_known, m->with_review_tags);
	onlist_emit_end(e);
	onlist_emit_key(e, "archive");
	if (m->span.last) {
		onlist_emit_begin_map(e, 0);
		onlist_emit_kint(e, "first", m->span.first);
		onlist_emit_kint(e, "last", m->span.last);
		onlist_emit_end(e);
	} else
		onlist_emit_null(e);
	onlist_emit_key(e, "warnings");
	onlist_emit_begin_list(e, 0);
	if (rp_stale(m)) {
		char *w = rp_stale_text(m);

		onlist_emit_str(e, w ? w : "the archive ends before the newest landing");
		free(w);
	}
	onlist_emit_end(e);
	if (m->windowed)
		onlist_cli_unanswered_emit(r->ua, e, m->since, m->until,
					   r->posting_url);
	group_table(e, m, ONLIST_REPORT_BY_COMMITTER);
	group_table(e, m, ONLIST_REPORT_BY_SUBSYSTEM);
	onlist_emit_kstr(e, "subsystems_from", m->maintainers ? "MAINTAINERS" :
			 "paths");
	onlist_emit_key(e, "weeks");
	onlist_emit_begin_list(e, ONLIST_EMIT_LINES);
	for (int i = 0; i < m->nweeks && m->windowed; i++) {
		const struct onlist_report_week *k = &m->weeks[i];
		char wk[16];

		rp_week_name(k->start, wk, sizeof wk);
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstr(e, "week", wk);
		onlist_emit_kint(e, "commits", k->total);
		for (size_t c = 0; c < sizeof rp_stack / sizeof *rp_stack; c++)
			onlist_emit_kint(e, onlist_report_cat_name(rp_stack[c]),
					 k->n[rp_stack[c]]);
		onlist_emit_end(e);
	}
	onlist_emit_end(e);
	onlist_emit_key(e, "commits");
	onlist_emit_begin_list(e, ONLIST_EMIT_LINES);
	for (size_t i = 0; i < m->nrows; i++)
		commit(r, e, &m->rows[i]);
	onlist_emit_end(e);
	onlist_emit_end(e);
	ret = 0;
	if (onlist_emit_free(e) != ONLIST_OK)
		ret = -1;
	return ret;
}
