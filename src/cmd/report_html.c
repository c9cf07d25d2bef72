/* report_html.c - the report as one self-contained HTML page
 * (report_int.h); the chart is report_chart.c. */
#include "report_int.h"

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

static void html_posting(struct report *r, const char *msgid)
{
	char *u = rp_url(r->posting_url, msgid);

	fputs("<a href=\"", r->f);
	onlist_put_html_attr(r->f, u);
	fputs("\">posting</a>", r->f);
	free(u);
}

/* A link labelled `label` to u (taken; NULL: the label alone). */
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

static int html_top(struct report *r)
{
	const struct onlist_report *m = r->m;
	FILE *f = r->f;
	long n = (long)m->nrows;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width,"
	      "initial-scale=1\"><title>onlist report ", f);
	onlist_put_html_attr(f, m->title);	/* <title> holds text, not markup */
	fprintf(f, "</title><style>%s</style></head><body>\n<h1>"
		"Commits that bypassed the lists: ", rp_css);
	onlist_put_html(f, m->title);
	fputs("</h1>\n", f);
	rp_put_window(f, m, "<p>Landed %s to %s (UTC).</p>\n");
	if (!n) {
		fputs("<p>No commits landed in this period.</p>\n", f);
	} else {
		fprintf(f, "<p><b>%ld</b> commits: <b>%ld</b> never posted "
			"(%.0f%%), ", n, m->count[C_NEVER],
			rp_pct(m->count[C_NEVER], n));
		rp_put_counts(f, m);
		fputs(".</p>\n", f);
	}
	if (m->count[C_UNKNOWN] || rp_stale(m)) {
		char *w = rp_unknown_text(m, m->count[C_UNKNOWN]);

		fputs("<p><b>", f);
		onlist_put_html(f, w ? w : "");
		fputs("</b></p>\n", f);
		free(w);
	}
	if (r->site)
		fputs("<p><a href=\"index.html\">All weeks</a></p>\n", f);
	if (m->windowed && m->nweeks) {
		fputs("<h2>Per week</h2>\n", f);
		rp_chart(f, m->weeks, m->nweeks, r->week_links);
		onlist_cli_unanswered_chart_line(r->ua, f, m->since, m->until);
	}
	return 0;
}

static void html_section(struct report *r, const char *title, long n)
{
	fprintf(r->f, "<h2>%s (%ld)</h2>\n", title, n);
}

static int html_bottom(struct report *r)
{
	FILE *f = r->f;

	fputs("<h2>Per committer</h2>\n", f);
	rp_put_table(r, ONLIST_REPORT_BY_COMMITTER);
	fprintf(f, "<h2>Per subsystem</h2>\n<p><small>From %s.</small></p>\n",
		r->m->maintainers ? "MAINTAINERS" : "the top directories");
	rp_put_table(r, ONLIST_REPORT_BY_SUBSYSTEM);
	fputs("<p><small>Made by onlist.</small></p>\n</body></html>\n", f);
	return 0;
}

const struct layout rp_html_layout = {
	.fmt = ONLIST_FMT_HTML,
	.put = onlist_put_html, .put_str = onlist_put_html, .sha = html_sha,
	.posting = html_posting, .link = html_link,
	.item = "<li>",
	.head = { " <span class=\"subj\">", "</span><br><small>author ",
		  ", committer ", ", ", "<br>tags: " },
	.empty = " &middot; <b>empty changelog</b>",
	.line = "<br>", .merge = " ", .list = " on ", .end = "</small></li>\n",
	.top = html_top, .section = html_section,
	.note = "<p><small>%s</small></p>\n", .sub = "<h3>%s (%ld)</h3>\n",
	.sub_end = "", .rel_open = "<p>", .rel_close = "</p>\n",
	.ul_open = "<ul>\n", .ul_close = "</ul>\n", .none = "<p>None.</p>\n",
	.bottom = html_bottom,
	.empty_end = "<p><small>Made by onlist.</small></p>\n</body></html>\n",
	.table_head = "<div class=\"t\"><table><tr><th>%s</th><th>Commits</th>"
		      "<th>Never posted</th><th>Share</th><th>Modified</th>"
		      "<th>No reply</th><th>Discussed</th><th>Series only</th>"
		      "</tr>\n",
	.row_open = "<tr><td>",
	.row = "</td><td>%ld</td><td>%ld</td><td>%.0f%%</td>"
	       "<td>%s</td><td>%ld</td><td>%ld</td><td>%ld</td></tr>\n",
	.table_end = "</table></div>\n",
};
