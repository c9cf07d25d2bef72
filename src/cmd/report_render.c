/* report_render.c - one report as Markdown, plain text, HTML or JSON (report_int.h). */
#include "report_int.h"

static int md_ref(struct report *r, char *u);

/* "[abcdef012345][3] " with the commit's link as reference 3, or the
 * short sha alone when the repository has no known commit link. */
static void md_sha(struct report *r, const char *sha)
{
	int ref = md_ref(r, rp_url(r->commit_url, sha));

	if (ref)
		fprintf(r->f, "[%.12s][%d] ", sha, ref);
	else
		fprintf(r->f, "%.12s ", sha);
}

/* <a class="sha" href="...">abcdef012345</a>, or a <span> without a link. */
static void html_sha(struct report *r, const char *sha)
{
	char *u = rp_url(r->commit_url, sha);

	if (u) {
		fputs("<a class=\"sha\" href=\"", r->f);
		onlist_put_html_attr(r->f, u);
		fprintf(r->f, "\">%.12s</a>", sha);
	} else
		fprintf(r->f, "<span class=\"sha\">%.12s</span>", sha);
	free(u);
}

/* Links as numbered references at the end of the report, and details as a
 * nested list: no long URL inside a line, and no trailing-space line
 * breaks, which format=flowed mail would join. */
static int md_ref(struct report *r, char *u)
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

static void md_refs(struct report *r)
{
	if (r->nrefs)
		fputc('\n', r->f);
	for (size_t i = 0; i < r->nrefs; i++) {
		/* not onlist_put_md: a backslash inside a URL is not undone by
		 * a mail reader; the value in it is percent-encoded already */
		fprintf(r->f, "[%zu]: ", r->refs_base + i + 1);
		onlist_put_text(r->f, r->refs[i]);
		fputc('\n', r->f);
		free(r->refs[i]);
	}
	r->refs_base += r->nrefs;
	r->nrefs = 0;
}

/* "[posted][4]", the posting's link as a numbered reference. */
static void md_posting(struct report *r, const char *msgid)
{
	fprintf(r->f, "[posted][%d]", md_ref(r, rp_url(r->posting_url, msgid)));
}

static void html_posting(struct report *r, const char *msgid)
{
	char *u = rp_url(r->posting_url, msgid);

	fputs("<a href=\"", r->f);
	onlist_put_html_attr(r->f, u);
	fputs("\">posting</a>", r->f);
	free(u);
}

/* A link labelled `label` to u (taken; NULL: the label alone), as a
 * numbered reference in Markdown and text. */
static void md_link(struct report *r, char *u, const char *label)
{
	int ref = md_ref(r, u);

	if (ref)
		fprintf(r->f, "[%s][%d]", label, ref);
	else
		fputs(label, r->f);
}

static void txt_link(struct report *r, char *u, const char *label)
{
	int ref = md_ref(r, u);

	if (ref)
		fprintf(r->f, "%s [%d]", label, ref);
	else
		fputs(label, r->f);
}

static void html_link(struct report *r, char *u, const char *label)
{
	if (u) {
		fputs("<a href=\"", r->f);
		onlist_put_html_attr(r->f, u);
		fprintf(r->f, "\">%s</a>", label);
	} else
		fputs(label, r->f);
	free(u);
}

/* What a commit's entry is made of in Markdown and in HTML; one walker,
 * put_commit(), writes both, so that they say the same things. */
struct layout {
	void (*put)(FILE *f, const char *s);		/* the escaper */
	void (*sha)(struct report *r, const char *sha);	/* linked if known */
	void (*posting)(struct report *r, const char *msgid);
	void (*link)(struct report *r, char *u, const char *label);
	const char *item;	/* before the sha */
	const char *head[5];	/* before the subject, author, committer,
				 * subsystem and tags */
	const char *empty;	/* an empty changelog */
	const char *line;	/* before the landing and the posting */
	const char *merge;	/* between the merge's sha and subject */
	const char *list;	/* before the posting's list */
	const char *end;
};

static const struct layout md_layout = {
	.put = onlist_put_md, .sha = md_sha, .posting = md_posting,
	.link = md_link,
	.item = "- ",
	.head = { "", "\n  - author: ", ", committer: ", ", subsystem: ",
		  "\n  - tags: " },
	.empty = "; changelog: **empty**",
	.line = "\n  - ", .merge = "", .list = " to ", .end = "\n",
};

static const struct layout html_layout = {
	.put = onlist_put_html, .sha = html_sha, .posting = html_posting,
	.link = html_link,
	.item = "<li>",
	.head = { " <span class=\"subj\">", "</span><br><small>author ",
		  ", committer ", ", ", "<br>tags: " },
	.empty = " &middot; <b>empty changelog</b>",
	.line = "<br>", .merge = " ", .list = " on ", .end = "</small></li>\n",
};

/* Plain text of several lines (trailers) on one: "a; b". */
static void txt_put_lines(FILE *f, const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, "\n");
		char *line = strndup(s, n);

		onlist_put_text(f, line ? line : "?");
		free(line);
		s += n;
		if (*s && s[1])
			fputs("; ", f);
		if (*s)
			s++;
	}
}

/* Plain text: "abcdef012345 [3] subject", the link as reference 3 at the
 * end of the report (nothing a mail reader would have to undo). */
static void txt_sha(struct report *r, const char *sha)
{
	int ref = md_ref(r, rp_url(r->commit_url, sha));

	if (ref)
		fprintf(r->f, "%.12s [%d] ", sha, ref);
	else
		fprintf(r->f, "%.12s ", sha);
}

static void txt_posting(struct report *r, const char *msgid)
{
	fprintf(r->f, "posting [%d]", md_ref(r, rp_url(r->posting_url, msgid)));
}

static const struct layout txt_layout = {
	.put = txt_put_lines, .sha = txt_sha, .posting = txt_posting,
	.link = txt_link,
	.item = "- ",
	.head = { "", "\n  author: ", ", committer: ", ", subsystem: ",
		  "\n  tags: " },
	.empty = "; changelog: empty",
	.line = "\n  ", .merge = "", .list = " to ", .end = "\n",
};

/* A string from mail or git in the report's format. */
static void put_s(const struct report *r, const char *s)
{
	if (r->fmt == ONLIST_FMT_HTML)
		onlist_put_html(r->f, s);
	else if (r->fmt == ONLIST_FMT_TEXT)
		onlist_put_text(r->f, s);
	else
		onlist_put_md(r->f, s);
}

static void put_commit(struct report *r, const struct layout *l,
		       const struct rrow *x)
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
	if (x->empty)
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
	/* what stands in for review: a maintainer's "Thanks, applied." */
	if ((x->cat == C_NOREPLY || x->cat == C_DISCUSSED) && x->rv.notice_msgid) {
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

static void json_commit(struct report *r, const struct rrow *x, int first)
{
	FILE *f = r->f;
	char *u = rp_url(r->commit_url, x->sha);

	fputs(first ? "\n    {" : ",\n    {", f);
	fprintf(f, "\"sha\": \"%s\", \"category\": \"%s\", "
		"\"modified_before_merge\": %s, \"url\": ", x->sha,
		rp_cat_key[x->cat], x->modified ? "true" : "false");
	onlist_put_json(f, u);
	onlist_put_json_field(f, 0, "subject", x->subject);
	onlist_put_json_field(f, 0, "author", x->author);
	onlist_put_json_field(f, 0, "author_email", x->ae);
	onlist_put_json_field(f, 0, "committer", x->committer);
	onlist_put_json_field(f, 0, "subsystem", x->subsys);
	fprintf(f, ", \"empty_changelog\": %s, \"commit_date\": %lld",
		x->empty ? "true" : "false", (long long)x->commit_date);
	fputs(", \"tags\": [", f);
	for (const char *p = x->trailers, *nl; *p; p = *nl ? nl + 1 : nl) {
		char *t;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		t = strndup(p, (size_t)(nl - p));
		if (p != x->trailers)
			fputs(", ", f);
		onlist_put_json(f, t ? t : "");
		free(t);
	}
	fputs("], \"landed\": ", f);
	if (x->landed && x->merge_sha) {
		fprintf(f, "{\"date\": %lld, \"merge\": \"%s\", \"subject\": ",
			(long long)x->landed_date, x->merge_sha);
		onlist_put_json(f, x->merge_subject);
		fprintf(f, ", \"direct\": %s}",
			strcmp(x->merge_sha, x->sha) ? "false" : "true");
	} else
		fputs("null", f);
	fprintf(f, ", \"postings\": %d, \"exact\": %d, \"fuzzy\": %d, "
		"\"replies\": %d, \"review_tags\": ", x->postings, x->exact,
		x->fuzzy, x->replies);
	if (x->review_tags < 0)
		fputs("null", f);
	else
		fprintf(f, "%d", x->review_tags);
	fputs(", \"posting\": ", f);
	if (x->msgid) {
		free(u);
		u = rp_url(r->posting_url, x->msgid);
		onlist_put_json_object(f, "msgid", x->msgid, "list", x->list,
				       "url", u, (char *)NULL);
	} else
		fputs("null", f);
	fputs(", \"posting_versions\": [", f);
	for (int i = 0; i < x->npost; i++) {
		char *pu = rp_url(r->posting_url, x->post[i].msgid);

		fprintf(f, "%s{\"version\": %d", i ? ", " : "", x->post[i].version);
		onlist_put_json_field(f, 0, "msgid", x->post[i].msgid);
		onlist_put_json_field(f, 0, "url", pu);
		fputc('}', f);
		free(pu);
	}
	fputc(']', f);
	if (x->cat == C_NEVER) {
		onlist_put_json_field(f, 0, "reason",
				      onlist_reason_name(x->v.reason));
		onlist_put_json_field(f, 0, "reason_msgid", x->v.msgid);
		onlist_put_json_field(f, 0, "reverted", x->v.reverted);
	} else {
		fputs(", \"reason\": null", f);
	}
	onlist_put_json_field(f, 0, "note", x->v.note);
	onlist_put_json_field(f, 0, "path", x->v.path.kind == ONLIST_PATH_UNKNOWN ?
			      NULL : onlist_path_kind_name(x->v.path.kind));
	onlist_put_json_field(f, 0, "pull_request", x->v.path.pull_msgid);
	onlist_put_json_field(f, 0, "via", x->v.path.kind == ONLIST_PATH_PULL ?
			      x->v.path.url : onlist_cli_path_via(&x->v.path));
	fprintf(f, ", \"security_relevant\": %s", x->cat == C_UNKNOWN ? "null" :
		x->v.security ? "true" : "false");
	onlist_put_json_field(f, 0, "security", x->v.security);
	fputs(", \"review\": ", f);
	if (x->cat == C_NEVER || x->cat == C_UNKNOWN) {
		fputs("null", f);
	} else {
		const struct onlist_commit_review *rv = &x->rv;

		fprintf(f, "{\"naks\": %d, \"evidence\": ", rv->naks);
		if (rv->ev_key) {
			onlist_put_json_field(f, 1, "key", rv->ev_key);
			onlist_put_json_field(f, 0, "value", rv->ev_value);
			onlist_put_json_field(f, 0, "from", rv->ev_from);
			onlist_put_json_field(f, 0, "msgid", rv->ev_msgid);
			onlist_put_json_field(f, 0, "target", rv->ev_target);
			onlist_put_json_field(f, 0, "target_class",
					      rv->ev_target_class);
			onlist_put_json_field(f, 0, "target_subject",
					      rv->ev_target_subject);
			fprintf(f, ", \"version\": %d", rv->ev_version);
			if (rv->ev_part >= 0)
				fprintf(f, ", \"part\": %d, \"total\": %d",
					rv->ev_part, rv->ev_total);
			fputc('}', f);
		} else
			fputs("null", f);
		fputs(", \"off_list_tags\": [", f);
		for (const char *p = rv->off_list_tags ? rv->off_list_tags : "", *nl;
		     *p; p = *nl ? nl + 1 : nl) {
			char *t;
			nl = strchr(p, '\n');
			if (!nl)
				nl = p + strlen(p);
			t = strndup(p, (size_t)(nl - p));
			if (p != rv->off_list_tags)
				fputs(", ", f);
			onlist_put_json(f, t ? t : "");
			free(t);
		}
		fputs("]", f);
		fputs(", \"notice\": ", f);
		if (rv->notice_msgid) {
			char nd[32];

			onlist_fmt_date(rv->notice_date, nd, sizeof nd, 1);
			onlist_put_json_field(f, 1, "from", rv->notice_name);
			onlist_put_json_field(f, 0, "date", nd);
			onlist_put_json_field(f, 0, "msgid", rv->notice_msgid);
			fputc('}', f);
		} else {
			fputs("null", f);
		}
		fputc('}', f);
	}
	fputc('}', f);
	free(u);
}

const char rp_css[] =
	"body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60em;"
	"padding:0 1em;color:#222;background:#fff}"
	"h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
	"ul{padding-left:1.1em}li{margin:.5em 0;overflow-wrap:anywhere}"
	"a.sha,code{font-family:ui-monospace,monospace}"
	"small{color:#555}.t{overflow-x:auto}"
	"table{border-collapse:collapse;width:100%}"
	"td,th{border-bottom:1px solid #ddd;padding:.2em .4em;text-align:left}"
	"td+td,th+th{text-align:right}"
	".chart{overflow-x:auto;background:#fff}"
	"svg.ch{display:block;width:100%;height:auto}"
	"svg.ch text{font-size:12px;fill:#333;text-anchor:middle}"
	"svg.ch .tot{font-size:12px;font-weight:bold;letter-spacing:-.5px}"
	"svg.ch .np{font-size:11.5px;font-weight:bold;fill:#fff;stroke:#000;"
	"stroke-width:2.5px;paint-order:stroke;letter-spacing:-.5px}"
	"svg.ch .none{font-size:11px;fill:#888;text-anchor:start}"
	"svg.ch .cw{font-weight:bold}svg.ch .yl{fill:#666}svg.ch .ax{stroke:#999}"
	".cur{fill:#fff1b8;stroke:#b8960c}"
	".c-never_posted{fill:#a5281b}.c-unknown{fill:url(#p-unknown)}"
	".c-no_reply{fill:#f4bf63}.c-discussed{fill:url(#p-discussed)}"
	".c-reviewed_series{fill:url(#p-series)}.c-reviewed{fill:#2f7d4f}"
	".lg{list-style:none;padding:0;margin:.4em 0;font-size:.9em}"
	".lg li{display:inline-block;margin:0 1em .2em 0}"
	".lg svg{vertical-align:-1px;stroke:#333;stroke-width:.5}"
	".ctl{font-size:.75em;border:1px solid #c00;color:#c00;padding:0 .2em}"
	"@media (prefers-color-scheme:dark){body{background:#111;color:#ddd}"
	"small{color:#aaa}}";

/* The archive ends before the newest commit landed: a fetch is due. */
static int stale(const struct report *r)
{
	return r->latest_landing > 0 && r->span.last < r->latest_landing;
}

static char *stale_text(const struct report *r)
{
	char a[16], b[16], *t = NULL;

	rp_fmt_day(r->span.last, a, sizeof a);
	rp_fmt_day(r->latest_landing, b, sizeof b);
	if (!r->span.last)
		return strdup("The database holds no messages: fetch first.");
	if (asprintf(&t, "The newest message in the database is from %s, "
		     "older than the newest landing (%s): fetch first.", a, b) < 0)
		return NULL;
	return t;
}

/* The line on commits the archive does not cover, and on a stale one. */
static char *unknown_text(const struct report *r, long n)
{
	char a[16], b[16], *t = NULL, *w = stale(r) ? stale_text(r) : NULL;

	rp_fmt_day(r->span.first, a, sizeof a);
	rp_fmt_day(r->span.last, b, sizeof b);
	if (!n)
		return w;
	if (asprintf(&t, "%ld %s landed outside the archive (%s to %s) and "
		     "%s not looked for%s%s", n, n == 1 ? "commit" : "commits",
		     r->span.last ? a : "-", r->span.last ? b : "-",
		     n == 1 ? "was" : "were", w ? ". " : ".", w ? w : "") < 0)
		t = NULL;
	free(w);
	return t;
}

/* The entries of category c (and, for never posted, reason `reason`, or
 * any when -1); 1 when there was one. */
static int put_commits(struct report *r, enum cat c, int reason)
{
	int any = 0;

	for (size_t i = 0; i < r->rows.n; i++) {
		const struct rrow *x = &r->rows.v[i];

		if (x->cat != c || (reason >= 0 && (int)x->v.reason != reason))
			continue;
		if (r->fmt == ONLIST_FMT_HTML) {
			fputs(any ? "" : "<ul>\n", r->f);
			put_commit(r, &html_layout, x);
		} else
			put_commit(r, r->fmt == ONLIST_FMT_TEXT ? &txt_layout :
				   &md_layout, x);
		any = 1;
	}
	if (r->fmt == ONLIST_FMT_HTML && any)
		fputs("</ul>\n", r->f);
	return any;
}

/* Never posted, by reason; release bumps folded into one line. */
static int never_section(struct report *r)
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
	FILE *f = r->f;
	int any = 0, html = r->fmt == ONLIST_FMT_HTML;
	long nrel = 0;

	for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
		long n = 0;

		for (size_t i = 0; i < r->rows.n; i++)
			n += r->rows.v[i].cat == C_NEVER &&
			     r->rows.v[i].v.reason == order[k];
		if (!n)
			continue;
		fprintf(f, html ? "<h3>%s (%ld)</h3>\n" :
			r->fmt == ONLIST_FMT_TEXT ? "%s (%ld)\n\n" :
			"### %s (%ld)\n\n", title[order[k]], n);
		put_commits(r, C_NEVER, (int)order[k]);
		if (r->fmt == ONLIST_FMT_TEXT)
			fputc('\n', f);
		any = 1;
	}
	for (size_t i = 0; i < r->rows.n; i++)
		nrel += r->rows.v[i].cat == C_NEVER &&
			r->rows.v[i].v.reason == ONLIST_REASON_RELEASE;
	if (nrel) {
		int first = 1;

		fprintf(f, html ? "<h3>Releases and version bumps (%ld)</h3>\n<p>" :
			r->fmt == ONLIST_FMT_TEXT ?
			"Releases and version bumps (%ld)\n\n" :
			"### Releases and version bumps (%ld)\n\n", nrel);
		for (size_t i = 0; i < r->rows.n; i++) {
			const struct rrow *x = &r->rows.v[i];

			if (x->cat != C_NEVER || x->v.reason != ONLIST_REASON_RELEASE)
				continue;
			fputs(first ? "" : "; ", f);
			fprintf(f, "%.12s ", x->sha);
			put_s(r, x->subject);
			first = 0;
		}
		fputs(html ? "</p>\n" : "\n", f);
		any = 1;
	}
	return any;
}

/* onlist_cli_report_security(): row i when it is a fix that bypassed
 * review, printed (print) or only counted; 1 when it is one. */
static int security_item(size_t i, int print, void *data)
{
	struct report *r = data;
	const struct rrow *x = &r->rows.v[i];

	if (!x->v.security || x->cat == C_UNKNOWN || x->cat == C_REVIEWED ||
	    x->cat == C_SERIES)
		return 0;
	if (print)
		put_commit(r, r->fmt == ONLIST_FMT_HTML ? &html_layout :
			   r->fmt == ONLIST_FMT_TEXT ? &txt_layout : &md_layout, x);
	return 1;
}

static void underline(FILE *f, int c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc(c, f);
	fputc('\n', f);
}

int rp_render(struct report *r)
{
	FILE *f = r->f;
	long n = (long)r->rows.n, cnt[NCAT], nmod = rp_count_modified(r);
	char a[16], b[16];
	const char *summary = "%ld posted with no reply, %ld discussed without "
		"a review tag, %ld reviewed only on the series, %ld reviewed on "
		"the list";

	for (int c = 0; c < NCAT; c++)
		cnt[c] = rp_count_cat(r, (enum cat)c);
	rp_fmt_day(r->since, a, sizeof a);
	rp_fmt_day(r->until - 1, b, sizeof b);
	if (r->fmt == ONLIST_FMT_JSON) {
		int first = 1;
		fprintf(f, "{\n  \"schema\": \"%s\",\n  \"title\": ", REPORT_SCHEMA);
		onlist_put_json(f, r->title);
		if (r->windowed)
			fprintf(f, ",\n  \"since\": %lld, \"until\": %lld",
				(long long)r->since, (long long)r->until);
		fprintf(f, ",\n  \"totals\": {\"commits\": %ld, "
			"\"never_posted\": %ld, \"modified_before_merge\": ", n,
			cnt[C_NEVER]);
		if (r->fuzzy_total)
			fprintf(f, "%ld", nmod);
		else
			fputs("null", f);
		fprintf(f, ", \"no_reply\": %ld, \"discussed\": %ld, "
			"\"reviewed_series\": %ld, \"reviewed\": %ld, "
			"\"unknown\": %ld, \"review_tags_in_replies\": ",
			cnt[C_NOREPLY], cnt[C_DISCUSSED], cnt[C_SERIES],
			cnt[C_REVIEWED], cnt[C_UNKNOWN]);
		if (r->reviews_known)
			fprintf(f, "%ld},\n  ", r->with_review_tags);
		else
			fputs("null},\n  ", f);
		if (r->span.last)
			fprintf(f, "\"archive\": {\"first\": %lld, \"last\": %lld},\n  ",
				(long long)r->span.first, (long long)r->span.last);
		else
			fputs("\"archive\": null,\n  ", f);
		fputs("\"warnings\": [", f);
		if (stale(r)) {
			char *w = stale_text(r);

			onlist_put_json(f, w ? w : "the archive ends before the newest landing");
			free(w);
		}
		fputs("],\n  ", f);
		if (r->windowed && onlist_cli_unanswered_put(r->ua, f, r->fmt,
				r->since, r->until, r->posting_url))
			return -1;
		if (rp_group_table(r, 0))
			return -1;
		fputs(",\n  ", f);
		if (rp_group_table(r, 1))
			return -1;
		fprintf(f, ",\n  \"subsystems_from\": \"%s\",\n  \"weeks\": [",
			r->maintainers ? "MAINTAINERS" : "paths");
		for (int i = 0; i < r->nwk && r->windowed; i++) {
			char wk[16];
			rp_week_name(r->wk_since + (int64_t)i * WEEK, wk, sizeof wk);
			fprintf(f, "%s\n    {\"week\": \"%s\", \"commits\": %ld",
				i ? "," : "", wk, r->wk[i].total);
			for (size_t c = 0; c < sizeof rp_stack / sizeof *rp_stack; c++)
				fprintf(f, ", \"%s\": %ld", rp_cat_key[rp_stack[c]],
					r->wk[i].n[rp_stack[c]]);
			fputc('}', f);
		}
		if (r->nwk && r->windowed)
			fputs("\n  ", f);
		fputs("],\n  \"commits\": [", f);
		for (size_t i = 0; i < r->rows.n; i++) {
			json_commit(r, &r->rows.v[i], first);
			first = 0;
		}
		fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
		return 0;
	}
	if (r->fmt == ONLIST_FMT_HTML) {
		fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		      "<meta name=\"viewport\" content=\"width=device-width,"
		      "initial-scale=1\"><title>onlist report ", f);
		onlist_put_html_attr(f, r->title);	/* <title> holds text, not markup */
		fprintf(f, "</title><style>%s</style></head><body>\n<h1>"
			"Commits that bypassed the lists: ", rp_css);
		onlist_put_html(f, r->title);
		fputs("</h1>\n", f);
		if (r->windowed)
			fprintf(f, "<p>Landed %s to %s (UTC).</p>\n", a, b);
		if (!n) {
			fputs("<p>No commits landed in this period.</p>\n", f);
		} else {
			fprintf(f, "<p><b>%ld</b> commits: <b>%ld</b> never posted "
				"(%.0f%%), ", n, cnt[C_NEVER], rp_pct(cnt[C_NEVER], n));
			fprintf(f, summary, cnt[C_NOREPLY], cnt[C_DISCUSSED],
				cnt[C_SERIES], cnt[C_REVIEWED]);
			if (r->fuzzy_total)
				fprintf(f, "; %ld posted only modified before merge", nmod);
			fputs(".</p>\n", f);
		}
		if (cnt[C_UNKNOWN] || stale(r)) {
			char *w = unknown_text(r, cnt[C_UNKNOWN]);

			fputs("<p><b>", f);
			onlist_put_html(f, w ? w : "");
			fputs("</b></p>\n", f);
			free(w);
		}
		if (r->site)
			fputs("<p><a href=\"index.html\">All weeks</a></p>\n", f);
		if (r->windowed && r->nwk) {
			fputs("<h2>Per week</h2>\n", f);
			rp_chart(r);
			onlist_cli_unanswered_chart_line(r->ua, f, r->since, r->until);
		}
	} else {
		if (r->fmt == ONLIST_FMT_TEXT) {
			const char *h = "Commits that bypassed the lists: ";
			char *t = onlist_text_dup(r->title);

			if (!t)
				return -1;
			fprintf(f, "%s%s\n", h, t);
			underline(f, '=', onlist_text_width(h, strlen(h)) +
				  onlist_text_width(t, strlen(t)));
			free(t);
			fputc('\n', f);
		} else {
			fputs("# Commits that bypassed the lists: ", f);
			onlist_put_md(f, r->title);
			fputs("\n\n", f);
		}
		if (r->windowed)
			fprintf(f, "Landed %s to %s (UTC).\n\n", a, b);
		if (!n) {
			fputs("No commits landed in this period.\n", f);
		} else {
			fprintf(f, "%ld commits: %ld never posted (%.0f%%), ", n,
				cnt[C_NEVER], rp_pct(cnt[C_NEVER], n));
			fprintf(f, summary, cnt[C_NOREPLY], cnt[C_DISCUSSED],
				cnt[C_SERIES], cnt[C_REVIEWED]);
			if (r->fuzzy_total)
				fprintf(f, "; %ld posted only modified before merge", nmod);
			fputs(".\n", f);
		}
		if (cnt[C_UNKNOWN] || stale(r)) {
			char *w = unknown_text(r, cnt[C_UNKNOWN]);

			if (r->fmt == ONLIST_FMT_TEXT) {
				fputs("\n", f);
				onlist_put_text(f, w ? w : "");
				fputs("\n", f);
			} else {
				fputs("\n**", f);
				onlist_put_md(f, w ? w : "");
				fputs("**\n", f);
			}
			free(w);
		}
	}
	if (r->windowed)
		onlist_cli_unanswered_put(r->ua, f, r->fmt, r->since, r->until,
					  r->posting_url);
	/* an empty period: one line above says so, not every section
	 * "None" */
	if (!n) {
		if (r->fmt == ONLIST_FMT_HTML)
			fputs("<p><small>Made by onlist.</small></p>\n</body></html>\n", f);
		return 0;
	}
	if (onlist_cli_report_security(r->f, r->fmt, r->rows.n,
				       security_item, r) < 0)
		return -1;
	/* reviewed commits are counted above, not listed */
	for (int c = C_NEVER; c < C_REVIEWED; c++) {
		int any = 0;
		if (r->fmt == ONLIST_FMT_HTML)
			fprintf(f, "<h2>%s (%ld)</h2>\n", rp_cat_title[c], cnt[c]);
		else if (r->fmt == ONLIST_FMT_TEXT) {
			int w = fprintf(f, "\n%s (%ld)\n", rp_cat_title[c], cnt[c]);

			underline(f, '-', (size_t)(w - 2));
			fputc('\n', f);
		} else
			fprintf(f, "\n## %s (%ld)\n\n", rp_cat_title[c], cnt[c]);
		if (rp_cat_note[c])
			fprintf(f, r->fmt == ONLIST_FMT_HTML ?
				"<p><small>%s</small></p>\n" : "%s\n\n", rp_cat_note[c]);
		if (c == C_NEVER) {
			any = never_section(r);
		} else {
			any = put_commits(r, (enum cat)c, -1);
		}
		if (!any)
			fputs(r->fmt == ONLIST_FMT_HTML ? "<p>None.</p>\n" : "None.\n", f);
	}
	if (r->fmt == ONLIST_FMT_HTML) {
		fputs("<h2>Per committer</h2>\n", f);
		if (rp_group_table(r, 0))
			return -1;
		fprintf(f, "<h2>Per subsystem</h2>\n<p><small>From %s.</small></p>\n",
			r->maintainers ? "MAINTAINERS" : "the top directories");
		if (rp_group_table(r, 1))
			return -1;
		fputs("<p><small>Made by onlist.</small></p>\n</body></html>\n", f);
	} else if (r->fmt == ONLIST_FMT_TEXT) {
		fputs("\nPer committer\n-------------\n\n", f);
		if (rp_group_table(r, 0))
			return -1;
		fprintf(f, "\nPer subsystem (from %s)\n", r->maintainers ?
			"MAINTAINERS" : "the top directories");
		underline(f, '-', strlen(r->maintainers ? "MAINTAINERS" :
					 "the top directories") + 21);
		fputc('\n', f);
		if (rp_group_table(r, 1))
			return -1;
		if (r->nrefs) {
			fputs("\nLinks\n-----\n\n", f);
			/* like md_refs(), numbered from 1 over the whole report */
			for (size_t i = 0; i < r->nrefs; i++) {
				fprintf(f, "[%zu] ", r->refs_base + i + 1);
				onlist_put_text(f, r->refs[i]);
				fputc('\n', f);
				free(r->refs[i]);
			}
			r->refs_base += r->nrefs;
			r->nrefs = 0;
		}
	} else {
		fputs("\n## Per committer\n\n", f);
		if (rp_group_table(r, 0))
			return -1;
		fprintf(f, "\n## Per subsystem (from %s)\n\n",
			r->maintainers ? "MAINTAINERS" : "the top directories");
		if (rp_group_table(r, 1))
			return -1;
		/* every link definition at the end: one in mid-document
		 * shows as a line of text in a mail reader */
		md_refs(r);
	}
	return 0;
}

/* Plain text is written into a buffer first and then folded here: each
 * line longer than TEXT_COLS breaks at its last space that fits, and its
 * continuation lines keep its indentation (two more after a list item's
 * "- ").  A single word longer than a line (a long URL) stays whole: a
 * broken link is worse than a long line. */
void rp_wrap_text(FILE *out, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *s = p;
		size_t ind = 0, cont;
		int first = 1;

		if (!nl)
			nl = end;
		while (p + ind < nl && p[ind] == ' ')
			ind++;
		cont = ind + (p + ind + 1 < nl && p[ind] == '-' &&
			      p[ind + 1] == ' ' ? 2 : 0);
		for (;;) {
			size_t w = first ? 0 : cont, rest;
			const char *q, *brk = NULL, *from = first ? p + ind + 1 : s + 1;

			if (w + onlist_text_width(s, (size_t)(nl - s)) <= TEXT_COLS)
				break;
			for (q = s; q < nl;) {
				const char *nx = q + 1;

				if (*q == ' ' && q >= from) {
					if (w <= TEXT_COLS)
						brk = q;
					else if (!brk)
						brk = q;	/* a long word */
					if (w > TEXT_COLS)
						break;
				}
				while (nx < nl && ((unsigned char)*nx & 0xC0) == 0x80)
					nx++;
				w += onlist_text_width(q, (size_t)(nx - q));
				q = nx;
			}
			if (!brk)
				break;
			/* what would follow is one word too long for any
			 * line ("[3] https://..."): keep the line whole */
			for (q = brk; q < nl && *q == ' '; q++)
				;
			rest = q < nl ? (size_t)(nl - q) : 0;
			if (!memchr(q, ' ', rest) &&
			    cont + onlist_text_width(q, rest) > TEXT_COLS)
				break;
			fprintf(out, "%*s%.*s\n", first ? 0 : (int)cont, "",
				(int)(brk - s), s);
			for (s = brk; s < nl && *s == ' '; s++)
				;
			first = 0;
		}
		fprintf(out, "%*s%.*s\n", first ? 0 : (int)cont, "",
			(int)(nl - s), s);
		p = nl + 1;
	}
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
	    ((commit_cfg = onlist_cli_config(repo, "onlist.commitUrl")) ||
	     onlist_git_remote_commit_url(dir, &commit_cfg, NULL) == ONLIST_OK))
		r->commit_url = commit_cfg;
	if (!r->posting_url &&
	    (posting_cfg = onlist_cli_config(repo, "onlist.postingUrl")))
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
