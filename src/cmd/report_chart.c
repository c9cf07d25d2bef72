/* report_chart.c - the totals per committer and per subsystem, and the
 * chart of commits per week by review state (report_int.h). */
#include "report_int.h"

/* The largest never-posted share first (then the most never posted, the
 * most commits, the name): the rows that need a look are on top. */
static int by_share(const void *a, const void *b)
{
	const struct onlist_tally_row *x = a, *y = b;
	/* x->extra/x->count vs y->extra/y->count without rounding */
	long long l = (long long)x->extra * y->count,
		  rr = (long long)y->extra * x->count;

	if (l != rr)
		return l > rr ? -1 : 1;
	if (x->extra != y->extra)
		return x->extra > y->extra ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Totals per committer or per subsystem: commits, and how many of them
 * fell in each category. */
int rp_group_table(struct report *r, int by_subsys)
{
	struct onlist_tally all = ONLIST_TALLY_INIT;
	FILE *f = r->f;
	const char *what = by_subsys ? "Subsystem" : "Committer";
	char fzs[24];

	for (size_t i = 0; i < r->rows.n; i++) {
		const struct rrow *x = &r->rows.v[i];
		const char *k = by_subsys ? x->subsys : x->committer;
		if (onlist_tally_add(&all, k))
			goto nomem;
		if (x->cat == C_NEVER)
			onlist_tally_extra(&all, k);
	}
	if (all.n > 1)
		qsort(all.v, all.n, sizeof *all.v, by_share);
	if (r->fmt == ONLIST_FMT_JSON)
		fprintf(f, "\"by_%s\": [", by_subsys ? "subsystem" : "committer");
	else if (r->fmt == ONLIST_FMT_HTML)
		fprintf(f, "<div class=\"t\"><table><tr><th>%s</th><th>Commits</th>"
			"<th>Never posted</th><th>Share</th><th>Modified</th>"
			"<th>No reply</th><th>Discussed</th><th>Series only</th>"
			"</tr>\n", what);
	else if (r->fmt == ONLIST_FMT_TEXT)
		/* 70 columns; a longer name gets a line of its own */
		fprintf(f, "%-20s%8s%7s%7s%7s%7s%7s%7s\n", what, "commits",
			"never", "share", "modif", "no rep", "disc.", "series");
	else
		fprintf(f, "| %s | Commits | Never posted | Share | Modified "
			"| No reply | Discussed | Series only |\n"
			"|---|---:|---:|---:|---:|---:|---:|---:|\n", what);
	for (size_t i = 0; i < all.n; i++) {
		const struct onlist_tally_row *t = &all.v[i];
		long nr = 0, fz = 0, nd = 0, ns = 0;

		/* a week holds a few thousand commits at most */
		for (size_t k = 0; k < r->rows.n; k++) {
			const struct rrow *x = &r->rows.v[k];
			if (strcmp(by_subsys ? x->subsys : x->committer, t->name))
				continue;
			nr += x->cat == C_NOREPLY;
			nd += x->cat == C_DISCUSSED;
			ns += x->cat == C_SERIES;
			fz += x->modified;
		}
		if (r->fuzzy_total)
			snprintf(fzs, sizeof fzs, "%ld", fz);
		else
			snprintf(fzs, sizeof fzs, r->fmt == ONLIST_FMT_JSON ? "null" : "n/a");
		if (r->fmt == ONLIST_FMT_JSON) {
			fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
			onlist_put_json(f, t->name);
			fprintf(f, ", \"commits\": %ld, \"never_posted\": %ld, "
				"\"modified_before_merge\": %s, \"no_reply\": %ld, "
				"\"discussed\": %ld, \"reviewed_series\": %ld}",
				t->count, t->extra, fzs, nr, nd, ns);
		} else if (r->fmt == ONLIST_FMT_HTML) {
			fputs("<tr><td>", f);
			onlist_put_html(f, t->name);
			fprintf(f, "</td><td>%ld</td><td>%ld</td><td>%.0f%%</td>"
				"<td>%s</td><td>%ld</td><td>%ld</td><td>%ld</td></tr>\n",
				t->count, t->extra, rp_pct(t->extra, t->count), fzs, nr,
				nd, ns);
		} else if (r->fmt == ONLIST_FMT_TEXT) {
			char *nm = onlist_text_dup(t->name), share[16];
			size_t w = nm ? onlist_text_width(nm, strlen(nm)) : 0;

			if (!nm)
				goto nomem;
			if (w > 19)
				fprintf(f, "%s\n%20s", nm, "");
			else
				fprintf(f, "%s%*s", nm, (int)(20 - w), "");
			free(nm);
			snprintf(share, sizeof share, "%.0f%%", rp_pct(t->extra, t->count));
			fprintf(f, "%8ld%7ld%7s%7s%7ld%7ld%7ld\n", t->count, t->extra,
				share, fzs, nr, nd, ns);
		} else {
			fputs("| ", f);
			onlist_put_md(f, t->name);
			fprintf(f, " | %ld | %ld | %.0f%% | %s | %ld | %ld | %ld |\n",
				t->count, t->extra, rp_pct(t->extra, t->count), fzs, nr,
				nd, ns);
		}
	}
	if (r->fmt == ONLIST_FMT_JSON)
		fputs(all.n ? "\n  ]" : "]", f);
	else if (r->fmt == ONLIST_FMT_HTML)
		fputs("</table></div>\n", f);
	else if (r->fmt == ONLIST_FMT_TEXT)
		fputs("\nnever: never posted; modif: posted only modified before "
		      "merge; no rep: posted, no reply; disc.: discussed without "
		      "a review tag; series: reviewed only on the series.\n", f);
	onlist_tally_release(&all);
	return 0;
nomem:
	onlist_tally_release(&all);
	return -1;
}

/* The chart's segments, bottom up: never posted first, where the eye
 * starts; each has a fill that differs in grey scale too (solid dark,
 * hatched, solid light, dotted, cross-hatched, solid middle). */
const enum cat rp_stack[NCAT] = { C_NEVER, C_UNKNOWN, C_NOREPLY, C_DISCUSSED,
				  C_SERIES, C_REVIEWED };
static const char *const cat_legend[] = {
	[C_NEVER] = "never posted",
	[C_UNKNOWN] = "not looked for (outside the archive)",
	[C_NOREPLY] = "posted, no reply",
	[C_DISCUSSED] = "discussed, no review tag",
	[C_SERIES] = "reviewed on the series only",
	[C_REVIEWED] = "reviewed",
};
static const char chart_defs[] =
	"<defs><pattern id=\"p-unknown\" width=\"6\" height=\"6\" "
	"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
	"<rect width=\"6\" height=\"6\" fill=\"#fff\"/><rect width=\"2.5\" "
	"height=\"6\" fill=\"#666\"/></pattern>"
	"<pattern id=\"p-discussed\" width=\"5\" height=\"5\" "
	"patternUnits=\"userSpaceOnUse\"><rect width=\"5\" height=\"5\" "
	"fill=\"#fde6b0\"/><circle cx=\"2.5\" cy=\"2.5\" r=\"1.3\" "
	"fill=\"#7a4f00\"/></pattern>"
	"<pattern id=\"p-series\" width=\"6\" height=\"6\" "
	"patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"6\" "
	"fill=\"#dbe9f6\"/><path d=\"M0 0L6 6M6 0L0 6\" stroke=\"#1f5f99\"/>"
	"</pattern></defs>\n";

/* One stacked bar per week of r->wk, its commits written above it and
 * its never-posted count at its foot (in print and in a screenshot, not
 * only in a tooltip); a week without commits says so instead of looking
 * like 0%.  The last week is the report's, highlighted.  Inline SVG in
 * user units: 20 a week, scaled to the page's width (a scroll box of its
 * own, never the page, below 11 px a week). */
void rp_chart(struct report *r)
{
	enum { P = 20, BW = 16, TOP = 20, H = 150, L = 4 };
	FILE *f = r->f;
	int n = r->nwk, w = n * P + 2 * L, year = -1;
	long max = 1;
	char wk[16];

	for (int i = 0; i < n; i++)
		if (r->wk[i].total > max)
			max = r->wk[i].total;
	fprintf(f, "<div class=\"chart\"><svg class=\"ch\" viewBox=\"0 0 %d %d\" "
		"style=\"min-width:%dpx\" role=\"img\" aria-label=\"commits per "
		"week by review on the list, the last %d weeks\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", w, TOP + H + 30,
		n * 11, n);
	fputs(chart_defs, f);
	fprintf(f, "<rect class=\"cur\" x=\"%d\" y=\"0\" width=\"%d\" "
		"height=\"%d\"/>\n<line class=\"ax\" x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\"/>\n", L + (n - 1) * P, P, TOP + H + 30, L, TOP + H,
		w - L, TOP + H);
	for (int i = 0; i < n; i++) {
		const struct wk *k = &r->wk[i];
		double cx = L + i * P + P / 2.0, y = TOP + H;
		int64_t ws = r->wk_since + (int64_t)i * WEEK;
		int wy;

		rp_week_name(ws, wk, sizeof wk);
		if (r->week_links)
			fprintf(f, "<a href=\"%s.html\">", wk);
		fprintf(f, "<g class=\"wk\" data-week=\"%s\" data-commits=\"%ld\" "
			"data-never=\"%ld\"><title>%s: %ld commits", wk, k->total,
			k->n[C_NEVER], wk, k->total);
		for (size_t c = 0; c < sizeof rp_stack / sizeof *rp_stack; c++)
			if (k->n[rp_stack[c]])
				fprintf(f, ", %ld %s", k->n[rp_stack[c]],
					cat_legend[rp_stack[c]]);
		fputs("</title>", f);
		if (!k->total) {
			fprintf(f, "<text class=\"none\" transform=\"translate(%.0f %d) "
				"rotate(-90)\">no commits</text>", cx + 4, TOP + H - 4);
		} else {
			for (size_t c = 0; c < sizeof rp_stack / sizeof *rp_stack; c++) {
				double h = (double)k->n[rp_stack[c]] * H / (double)max;

				if (!k->n[rp_stack[c]])
					continue;
				y -= h;
				fprintf(f, "<rect class=\"c-%s\" x=\"%.0f\" y=\"%.2f\" "
					"width=\"%d\" height=\"%.2f\"/>",
					rp_cat_key[rp_stack[c]], cx - BW / 2.0, y, BW, h);
			}
			fprintf(f, "<text class=\"tot\" x=\"%.0f\" y=\"%.1f\">%ld</text>"
				"<text class=\"np\" x=\"%.0f\" y=\"%d\">%ld</text>", cx,
				y - 4, k->total, cx, TOP + H - 4, k->n[C_NEVER]);
		}
		fputs("</g>", f);
		if (r->week_links)
			fputs("</a>", f);
		/* "04" under each bar, the year under the first and at a new one */
		fprintf(f, "<text class=\"wl%s\" x=\"%.0f\" y=\"%d\">%s</text>",
			i == n - 1 ? " cw" : "", cx, TOP + H + 13, wk + 6);
		wy = atoi(wk);
		if (wy != year)
			fprintf(f, "<text class=\"yl\" x=\"%.0f\" y=\"%d\">%d</text>",
				i ? cx : cx + 6, TOP + H + 26, wy);
		year = wy;
		fputc('\n', f);
	}
	fputs("</svg></div>\n<ul class=\"lg\">", f);
	for (size_t c = 0; c < sizeof rp_stack / sizeof *rp_stack; c++)
		fprintf(f, "<li><svg width=\"12\" height=\"12\" viewBox=\"0 0 12 12\" "
			"aria-hidden=\"true\"><rect class=\"c-%s\" width=\"12\" "
			"height=\"12\"/></svg> %s</li>", rp_cat_key[rp_stack[c]],
			cat_legend[rp_stack[c]]);
	fputs("<li><svg width=\"12\" height=\"12\" viewBox=\"0 0 12 12\" "
	      "aria-hidden=\"true\"><rect class=\"cur\" width=\"12\" "
	      "height=\"12\"/></svg> this week; above a bar its commits, at its "
	      "foot those never posted</li></ul>\n", f);
}
