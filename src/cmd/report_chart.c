/* report_chart.c - the chart of commits per week by review state, an
 * inline SVG of the HTML page and the site's index (report_int.h). */
#include "report_int.h"

/* The chart's segments, bottom up: never posted first, where the eye
 * starts; each has a fill that differs in grey scale too (solid dark,
 * hatched, solid light, dotted, cross-hatched, solid middle). */
const enum onlist_report_cat rp_stack[NCAT] = { C_NEVER, C_UNKNOWN, C_NOREPLY, C_DISCUSSED,
				  C_SERIES, C_REVIEWED };
static const char *const cat_legend[] = {
	[C_NEVER] = "never posted",
	[C_UNKNOWN] = "unknown (outside the archive, or review after its end)",
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

/* One stacked bar per week of weeks[0..n-1], its commits written above it and
 * its never-posted count at its foot (in print and in a screenshot, not
 * only in a tooltip); a week without commits says so instead of looking
 * like 0%.  The last week is the report's, highlighted.  Inline SVG in
 * user units: 20 a week, scaled to the page's width (a scroll box of its
 * own, never the page, below 11 px a week). */
void rp_chart(FILE *f, const struct onlist_report_week *weeks, int n,
	      int week_links)
{
	enum { P = 20, BW = 16, TOP = 20, H = 150, L = 4 };
	int w = n * P + 2 * L, year = -1;
	long max = 1;
	char wk[16];

	for (int i = 0; i < n; i++)
		if (weeks[i].total > max)
			max = weeks[i].total;
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
		const struct onlist_report_week *k = &weeks[i];
		double cx = L + i * P + P / 2.0, y = TOP + H;
		int wy;

		rp_week_name(k->start, wk, sizeof wk);
		if (week_links)
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
					onlist_report_cat_name(rp_stack[c]), cx - BW / 2.0, y, BW, h);
			}
			fprintf(f, "<text class=\"tot\" x=\"%.0f\" y=\"%.1f\">%ld</text>"
				"<text class=\"np\" x=\"%.0f\" y=\"%d\">%ld</text>", cx,
				y - 4, k->total, cx, TOP + H - 4, k->n[C_NEVER]);
		}
		fputs("</g>", f);
		if (week_links)
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
			"height=\"12\"/></svg> %s</li>", onlist_report_cat_name(rp_stack[c]),
			cat_legend[rp_stack[c]]);
	fputs("<li><svg width=\"12\" height=\"12\" viewBox=\"0 0 12 12\" "
	      "aria-hidden=\"true\"><rect class=\"cur\" width=\"12\" "
	      "height=\"12\"/></svg> this week; above a bar its commits, at its "
	      "foot those never posted</li></ul>\n", f);
}
