/* report_render.c - the walk Markdown, text and HTML share: the sections
 * of the model in their order, each commit's entry through the format's
 * layout (report_int.h). */
#include "report_int.h"

/* Links as numbered references at the end of the report (Markdown and
 * text): no long URL inside a line.  u is taken; 0 when NULL. */
int rp_ref(struct report *r, char *u)
{
	char **nv;

	if (!u)
		return 0;
	if (!(nv = realloc(r->refs, (r->nrefs + 1) * sizeof *nv))) {
		free(u);
		return 0;
	}
	r->refs = nv;
	r->refs[r->nrefs++] = u;
	return (int)(r->refs_base + r->nrefs);
}

static void put_commit(struct report *r, const struct layout *l,
		       const struct onlist_report_row *x)
{
	FILE *f = r->f;
	char tags[512], day[16];
	const char *head[5] = { x->subject, x->author, x->committer, x->subsys,
				tags };

	rp_tag_summary(x->trailers, tags, sizeof tags);
	if (!*tags)
		head[4] = "none";
	fputs(l->item, f);
	l->sha(r, x->sha);
	for (int i = 0; i < 5; i++) {
		fputs(l->head[i], f);
		l->put(f, head[i]);
	}
	if (x->body_empty)
		fputs(l->empty, f);
	fputs(l->line, f);
	if (x->landed && x->merge_sha) {
		rp_fmt_day(x->landed_date, day, sizeof day);
		if (!strcmp(x->merge_sha, x->sha))
			fprintf(f, "landed %s, applied directly", day);
		else {
			fprintf(f, "landed %s in ", day);
			l->sha(r, x->merge_sha);
			fputs(l->merge, f);
			l->put(f, x->merge_subject);
		}
	} else
		fputs("landed: n/a", f);
	if (x->npost > 1) {
		/* every version, each linked: "postings: v1, v2, v3" */
		fputs(l->line, f);
		fputs("postings: ", f);
		for (int i = 0; i < x->npost; i++) {
			char label[16];

			snprintf(label, sizeof label, "v%d", x->post[i].version);
			fputs(i ? ", " : "", f);
			l->link(r, rp_url(r->posting_url, x->post[i].msgid), label);
		}
		if (x->list) {
			fputs(l->list, f);
			l->put(f, x->list);
		}
	} else if (x->msgid) {
		fputs(l->line, f);
		l->posting(r, x->msgid);
		if (x->list) {
			fputs(l->list, f);
			l->put(f, x->list);
		}
	}
	if (x->v.security) {
		fputs(l->line, f);
		fputs("security relevant: ", f);
		l->put(f, x->v.security);
	}
	if (x->cat == C_NEVER && !x->v.msgid && onlist_cli_reason_detail(&x->v)) {
		fputs(l->line, f);
		fputs(x->v.reason == ONLIST_REASON_EMBARGOED ? "embargoed: " :
		      x->v.reason == ONLIST_REASON_FORGE_REVIEW ? "through " :
		      "from ", f);
		l->put(f, onlist_cli_reason_detail(&x->v));
	}
	if (x->cat != C_NEVER && x->v.path.pull_msgid) {
		fputs(l->line, f);
		fputs("pulled in ", f);
		l->posting(r, x->v.path.pull_msgid);
	}
	if (x->cat == C_NEVER && x->v.msgid) {
		fputs(l->line, f);
		if (x->v.reason == ONLIST_REASON_REVERT) {
			fputs("reverts ", f);
			l->sha(r, x->v.reverted);
			fputs(l->merge, f);
			fputs("which was ", f);
		} else if (x->v.reason == ONLIST_REASON_PULLED) {
			fputs("came in the pull request ", f);
		} else {
			fputs("near miss: a mail with this subject and no patch: ", f);
		}
		l->posting(r, x->v.msgid);
	}
	if (x->modified) {
		fputs(l->line, f);
		fputs("modified before merge (only a changed form was posted)", f);
	}
	if (x->cat == C_SERIES) {
		char *ev = rp_evidence(&x->rv);

		fputs(l->line, f);
		fputs("review: ", f);
		l->put(f, ev ? ev : "?");
		if (x->rv.ev_msgid) {
			fputs(" (", f);
			l->link(r, rp_url(r->posting_url, x->rv.ev_msgid), "mail");
			fputc(')', f);
		}
		free(ev);
	}
	if (x->cat == C_UNKNOWN && x->rv.why) {
		fputs(l->line, f);
		fputs("review unknown: ", f);
		l->put(f, x->rv.why);
	}
	/* what stands in for review: a maintainer's "Thanks, applied." */
	if ((x->cat == C_NOREPLY || x->cat == C_DISCUSSED ||
	     (x->cat == C_UNKNOWN && x->postings)) && x->rv.notice_msgid) {
		char nd[32], *t = NULL;

		onlist_fmt_date(x->rv.notice_date, nd, sizeof nd, 0);
		fputs(l->line, f);
		if (asprintf(&t, "applied notice from %s, %s",
			     x->rv.notice_name ? x->rv.notice_name : "?", nd) < 0)
			t = NULL;
		l->put(f, t ? t : "applied notice");
		free(t);
		fputs(" (", f);
		l->link(r, rp_url(r->posting_url, x->rv.notice_msgid), "mail");
		fputc(')', f);
	}
	if (x->rv.naks) {
		fputs(l->line, f);
		fprintf(f, "NAKs on the list: %d", x->rv.naks);
	}
	if (x->rv.off_list_tags) {
		fputs(l->line, f);
		fputs("in git, not on the list: ", f);
		l->put(f, x->rv.off_list_tags);
	}
	fputs(l->end, f);
}

/* The entries of the rows in `list`; 1 when there was one. */
static int put_commits(struct report *r, const struct layout *l,
		       const struct onlist_report_list *list)
{
	if (!list->n)
		return 0;
	fputs(l->ul_open, r->f);
	for (size_t i = 0; i < list->n; i++)
		put_commit(r, l, &r->m->rows[list->v[i]]);
	fputs(l->ul_close, r->f);
	return 1;
}

/* Never posted, by reason; release bumps folded into one line. */
static int never_section(struct report *r, const struct layout *l)
{
	static const enum onlist_reason order[] = {
		ONLIST_REASON_NO_TRACE, ONLIST_REASON_PULLED_UNANNOUNCED,
		ONLIST_REASON_PULLED, ONLIST_REASON_FORGE_REVIEW,
		ONLIST_REASON_NEAR_MISS, ONLIST_REASON_REVERT,
		ONLIST_REASON_EMBARGOED, ONLIST_REASON_TRANSLATION,
	};
	static const char *const title[] = {
		[ONLIST_REASON_NO_TRACE] = "No trace on the list",
		[ONLIST_REASON_PULLED_UNANNOUNCED] =
			"Merged from a tree nobody announced",
		[ONLIST_REASON_PULLED] = "Pulled without a posting",
		[ONLIST_REASON_FORGE_REVIEW] = "Through a forge",
		[ONLIST_REASON_EMBARGOED] = "Embargoed",
		[ONLIST_REASON_NEAR_MISS] = "Near misses: only a mail without a patch",
		[ONLIST_REASON_REVERT] = "Reverts of posted commits",
		[ONLIST_REASON_TRANSLATION] = "Translations",
	};
	const struct onlist_report_list *rel = &r->m->never[ONLIST_REASON_RELEASE];
	FILE *f = r->f;
	int any = 0;

	for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
		const struct onlist_report_list *list = &r->m->never[order[k]];

		if (!list->n)
			continue;
		fprintf(f, l->sub, title[order[k]], (long)list->n);
		put_commits(r, l, list);
		fputs(l->sub_end, f);
		any = 1;
	}
	if (rel->n) {
		fprintf(f, l->sub, "Releases and version bumps", (long)rel->n);
		fputs(l->rel_open, f);
		for (size_t i = 0; i < rel->n; i++) {
			const struct onlist_report_row *x = &r->m->rows[rel->v[i]];

			fputs(i ? "; " : "", f);
			fprintf(f, "%.12s ", x->sha);
			l->put_str(f, x->subject);
		}
		fputs(l->rel_close, f);
		any = 1;
	}
	return any;
}

/* onlist_cli_report_security(): row i when it is a fix that bypassed
 * review, printed (print) or only counted; 1 when it is one. */
static int security_item(size_t i, int print, void *data)
{
	struct report *r = data;
	const struct onlist_report_row *x = &r->m->rows[i];

	if (!x->security)
		return 0;
	if (print)
		put_commit(r, r->layout, x);
	return 1;
}

/* The archive ends before the newest commit landed: a fetch is due. */
int rp_stale(const struct onlist_report *m)
{
	return m->latest_landing > 0 && m->span.last < m->latest_landing;
}

char *rp_stale_text(const struct onlist_report *m)
{
	char a[16], b[16], *t = NULL;

	rp_fmt_day(m->span.last, a, sizeof a);
	rp_fmt_day(m->latest_landing, b, sizeof b);
	if (!m->span.last)
		return strdup("The database holds no messages: fetch first.");
	if (asprintf(&t, "The newest message in the database is from %s, "
		     "older than the newest landing (%s): fetch first.", a, b) < 0)
		return NULL;
	return t;
}

/* The line on commits the archive does not cover, and on a stale one.
 * n counts both kinds of unknown: not looked for, and posted with their
 * review unknown (m->review_unknown). */
char *rp_unknown_text(const struct onlist_report *m, long n)
{
	char a[16], b[16], *t = NULL, *w = rp_stale(m) ? rp_stale_text(m) : NULL,
	     *p = NULL;
	long k = (long)m->review_unknown.n;

	rp_fmt_day(m->span.first, a, sizeof a);
	rp_fmt_day(m->span.last, b, sizeof b);
	if (!n)
		return w;
	if (k && asprintf(&p, "%ld posted %s review unknown: the archive ends "
			  "before %s landed, or less than a day after", k,
			  k == 1 ? "commit has its" : "commits have their",
			  k == 1 ? "it" : "they") < 0)
		p = NULL;
	if (n == k) {
		if (asprintf(&t, "%s%s%s", p ? p : "", w ? ". " : ".",
			     w ? w : "") < 0)
			t = NULL;
	} else if (asprintf(&t, "%ld %s landed outside the archive (%s to %s) "
			    "and %s not looked for%s%s%s%s", n - k,
			    n - k == 1 ? "commit" : "commits",
			    m->span.last ? a : "-", m->span.last ? b : "-",
			    n - k == 1 ? "was" : "were", p ? "; " : "",
			    p ? p : "", w ? ". " : ".", w ? w : "") < 0)
		t = NULL;
	free(p);
	free(w);
	return t;
}

/* "N posted with no reply, ..., M reviewed on the list" and, when the
 * tiers that find edited postings ran, "; K posted only modified before
 * merge": the summary's end in every format. */
void rp_put_counts(FILE *f, const struct onlist_report *m)
{
	fprintf(f, "%ld posted with no reply, %ld discussed without a review "
		"tag, %ld reviewed only on the series, %ld reviewed on the list",
		m->count[C_NOREPLY], m->count[C_DISCUSSED], m->count[C_SERIES],
		m->count[C_REVIEWED]);
	if (m->modified_known)
		fprintf(f, "; %ld posted only modified before merge", m->modified);
}

/* A windowed report's first and last day (UTC) through fmt (printf, %s
 * %s); nothing for a report over all time. */
void rp_put_window(FILE *f, const struct onlist_report *m, const char *fmt)
{
	char a[16], b[16];

	if (!m->windowed)
		return;
	rp_fmt_day(m->since, a, sizeof a);
	rp_fmt_day(m->until - 1, b, sizeof b);	/* until is exclusive */
	fprintf(f, fmt, a, b);
}

/* The totals per committer or per subsystem (by) as the Markdown or HTML
 * table of r->layout: one row a group, the same columns in both, so the
 * two cannot disagree on what a column holds. */
void rp_put_table(struct report *r, int by)
{
	const struct onlist_report *m = r->m;
	const struct layout *l = r->layout;
	FILE *f = r->f;

	fprintf(f, l->table_head, by == ONLIST_REPORT_BY_SUBSYSTEM ?
		"Subsystem" : "Committer");
	for (size_t i = 0; i < m->ngroups[by]; i++) {
		const struct onlist_report_group *g = &m->groups[by][i];
		char fzs[24];

		if (m->modified_known)
			snprintf(fzs, sizeof fzs, "%ld", g->modified);
		else
			snprintf(fzs, sizeof fzs, "n/a");
		fputs(l->row_open, f);
		l->put(f, g->name);
		fprintf(f, l->row, g->commits, g->never,
			rp_pct(g->never, g->commits), fzs, g->no_reply,
			g->discussed, g->series);
	}
	fputs(l->table_end, f);
}

/* The plain summary lines of Markdown and text: the window, the counts,
 * and what was not looked for (put: the format's escaper; bold: around
 * that line in Markdown).  -1 when out of memory. */
int rp_put_summary(struct report *r, void (*put)(FILE *, const char *),
		   const char *bold)
{
	const struct onlist_report *m = r->m;
	FILE *f = r->f;
	long n = (long)m->nrows;

	rp_put_window(f, m, "Landed %s to %s (UTC).\n\n");
	if (!n) {
		fputs("No commits landed in this period.\n", f);
	} else {
		fprintf(f, "%ld commits: %ld never posted (%.0f%%), ", n,
			m->count[C_NEVER], rp_pct(m->count[C_NEVER], n));
		rp_put_counts(f, m);
		fputs(".\n", f);
	}
	if (m->count[C_UNKNOWN] || rp_stale(m)) {
		char *w = rp_unknown_text(m, m->count[C_UNKNOWN]);

		fprintf(f, "\n%s", bold);
		put(f, w ? w : "");
		fprintf(f, "%s\n", bold);
		free(w);
	}
	return 0;
}

int rp_render(struct report *r)
{
	const struct layout *l = r->fmt == ONLIST_FMT_HTML ? &rp_html_layout :
				 r->fmt == ONLIST_FMT_TEXT ? &rp_text_layout :
				 &rp_md_layout;
	const struct onlist_report *m = r->m;
	FILE *f = r->f;

	if (r->fmt == ONLIST_FMT_JSON)
		return rp_render_json(r);
	if (l->top(r))
		return -1;
	if (m->windowed)
		onlist_cli_unanswered_put(r->ua, f, r->fmt, m->since, m->until,
					  r->posting_url);
	/* an empty period: one line above says so, not every section
	 * "None" */
	if (!m->nrows) {
		fputs(l->empty_end, f);
		return 0;
	}
	r->layout = l;
	if (onlist_cli_report_security(r->f, r->fmt, m->nrows,
				       security_item, r) < 0)
		return -1;
	/* reviewed commits are counted above, not listed */
	for (int c = C_NEVER; c < C_REVIEWED; c++) {
		int any;

		l->section(r, rp_cat_title[c], m->count[c]);
		if (rp_cat_note[c])
			fprintf(f, l->note, rp_cat_note[c]);
		any = c == C_NEVER ? never_section(r, l) :
		      put_commits(r, l, &m->cat[c]);
		if (!any)
			fputs(l->none, f);
	}
	/* posted, review unknown (review.h): only when there are some */
	if (m->review_unknown.n) {
		l->section(r, rp_cat_title[C_UNKNOWN], (long)m->review_unknown.n);
		fprintf(f, l->note, rp_cat_note[C_UNKNOWN]);
		put_commits(r, l, &m->review_unknown);
	}
	return l->bottom(r);
}

/* The link templates not given as options.  One place, so that a default
 * can come from somewhere else (the repository's configuration) later;
 * `repo` is the repository the report is about, NULL when none is known. */
void rp_default_links(struct report *r, const char *repo)
{
	/* kept for the process's life, like the option strings */
	static char *commit_cfg, *posting_cfg;
	const char *dir = repo ? repo : ".";

	/* --commit-url, else onlist.commitUrl (the repository's config, the
	 * user's, the system's), else what the origin remote's host uses;
	 * else no commit links: a guessed tree would link the wrong commit */
	if (!r->commit_url &&
	    ((commit_cfg = onlist_git_config(repo, "onlist.commitUrl")) ||
	     onlist_git_remote_commit_url(dir, &commit_cfg, NULL) == ONLIST_OK))
		r->commit_url = commit_cfg;
	if (!r->posting_url &&
	    (posting_cfg = onlist_git_config(repo, "onlist.postingUrl")))
		r->posting_url = posting_cfg;
	if (!r->posting_url)
		r->posting_url = "https://lore.kernel.org/r/%s";
}

/* A javascript: or data: template would turn every link in the HTML into
 * script: only http(s) is taken.  0, or -1 after saying so. */
int rp_link_ok(const char *opt, const char *tmpl)
{
	if (!tmpl || !strncmp(tmpl, "https://", 8) || !strncmp(tmpl, "http://", 7))
		return 0;
	onlist_err("report: %s must start with https:// or http://", opt);
	return -1;
}
