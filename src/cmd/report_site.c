/* report_site.c - report --site: a page per week and an index, a page
 * rewritten only when it changes (report_int.h). */
#include "report_int.h"

/* ---- the site ----------------------------------------------------------- */

/* Write `len` bytes to `path` unless the file holds them already, so a
 * cron job's second run leaves the pages of unchanged weeks alone (their
 * time stamps too, for rsync and caches).  1 written, 0 unchanged, -1
 * said. */
static int put_if_changed(const char *path, const char *buf, size_t len)
{
	struct onlist_out out = ONLIST_OUT_INIT;
	char *err = NULL, *old = NULL;
	size_t olen = 0;
	FILE *f = fopen(path, "rb");
	int same = 0;

	if (f) {
		FILE *m = open_memstream(&old, &olen);
		char chunk[65536];
		size_t k;

		if (m) {
			int rerr;

			while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
				fwrite(chunk, 1, k, m);
			rerr = ferror(f);
			if (!fclose(m) && !rerr)
				same = olen == len && !memcmp(old, buf, len);
		}
		fclose(f);
		free(old);
	}
	if (same)
		return 0;
	if (onlist_out_open(&out, path, &err) != ONLIST_OK ||
	    (fwrite(buf, 1, len, out.f), onlist_out_close(&out, 1, &err)) != ONLIST_OK) {
		onlist_err("report: %s", err ? err : "cannot write");
		onlist_out_close(&out, 0, NULL);
		free(err);
		return -1;
	}
	return 1;
}

/* rp_render() into a string; NULL on failure (said). */
static char *render_string(struct report *r, size_t *len)
{
	char *buf = NULL;
	int bad;

	if (!(r->f = open_memstream(&buf, len))) {
		onlist_err("report: out of memory");
		return NULL;
	}
	bad = rp_render(r);
	if (fclose(r->f) || bad) {
		onlist_err("report: out of memory");
		free(buf);
		return NULL;
	}
	return buf;
}

/* index.html: the chart of every week of the site and a table of them,
 * the newest first, each linking its page. */
static char *site_index(const struct onlist_span *span,
			const struct onlist_report_week *w, int nweeks,
			const char *const *names, size_t *len)
{
	char *buf = NULL;
	FILE *f;

	if (!(f = open_memstream(&buf, len)))
		return NULL;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta name=\"viewport\" content=\"width=device-width,"
		"initial-scale=1\"><title>onlist: commits that bypassed the "
		"lists, per week</title><style>%s</style></head><body>\n"
		"<h1>Commits that bypassed the lists, per week</h1>\n", rp_css);
	if (span->last) {
		char a[16], b[16];

		rp_fmt_day(span->first, a, sizeof a);
		rp_fmt_day(span->last, b, sizeof b);
		fprintf(f, "<p>The archive holds mail from %s to %s.</p>\n", a, b);
	}
	rp_chart(f, w, nweeks, 1);
	fputs("<h2>Weeks</h2>\n<div class=\"t\"><table><tr><th>Week</th>"
	      "<th>Commits</th><th>Never posted</th><th>Share</th>"
	      "<th>Unknown</th><th>No reply</th><th>Discussed</th>"
	      "<th>Series only</th><th>Reviewed</th></tr>\n", f);
	for (int i = nweeks - 1; i >= 0; i--) {
		const struct onlist_report_week *k = &w[i];

		fprintf(f, "<tr><td><a href=\"%s.html\">%s</a></td><td>%ld</td>"
			"<td>%ld</td><td>%s", names[i], names[i], k->total,
			k->n[C_NEVER], k->total ? "" : "no commits");
		if (k->total)
			fprintf(f, "%.0f%%", rp_pct(k->n[C_NEVER], k->total));
		fprintf(f, "</td><td>%ld</td><td>%ld</td><td>%ld</td><td>%ld</td>"
			"<td>%ld</td></tr>\n", k->n[C_UNKNOWN], k->n[C_NOREPLY],
			k->n[C_DISCUSSED], k->n[C_SERIES], k->n[C_REVIEWED]);
	}
	fputs("</table></div>\n<p><small>Made by onlist.</small></p>\n"
	      "</body></html>\n", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* One week's page: its model, rendered.  NULL on failure (said). */
static char *week_page(const struct onlist_report_ctx *cx,
		       const struct report *base, const char *title,
		       int64_t since, const struct onlist_report_week *w,
		       int nweeks, size_t *len)
{
	struct report r = *base;
	struct onlist_report *m = NULL;
	char *err = NULL, *page = NULL;

	if (onlist_report_new(&m, title) != ONLIST_OK ||
	    onlist_report_set_weeks(m, w, nweeks) != ONLIST_OK) {
		onlist_err("report: out of memory");
		goto out;
	}
	if (onlist_report_load_window(m, cx, since, since + WEEK, &err) ||
	    onlist_report_finish(m, cx, &err)) {
		onlist_err("report: %s", err ? err : "out of memory");
		goto out;
	}
	r.m = m;
	r.site = 1;
	page = render_string(&r, len);
	for (size_t i = 0; i < r.nrefs; i++)
		free(r.refs[i]);
	free(r.refs);
out:
	free(err);
	onlist_report_free(m);
	return page;
}

/* --site DIR: a page per week of the last nweeks (each with the chart of
 * the nweeks ending at it) and index.html; only pages whose bytes change
 * are written. */
int rp_write_site(const struct onlist_report_ctx *cx, struct report *base,
		  const char *dir, int nweeks, int64_t latest)
{
	int64_t last = rp_week_start(latest),
		first = last - (int64_t)(nweeks - 1) * WEEK,
		csince = first - (int64_t)(nweeks - 1) * WEEK;
	struct onlist_report_week *w = calloc((size_t)(2 * nweeks - 1), sizeof *w);
	char **names = calloc((size_t)nweeks, sizeof *names), *err = NULL;
	int ret = ONLIST_EXIT_FAIL, written = 0;

	if (!w || !names) {
		onlist_err("report: out of memory");
		goto out;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		onlist_err("report: %s: %s", dir, strerror(errno));
		goto out;
	}
	if (onlist_report_week_counts(cx, csince, 2 * nweeks - 1, w, &err)) {
		onlist_err("report: %s", err ? err : "out of memory");
		goto out;
	}
	for (int i = 0; i <= nweeks; i++) {
		char title[16], *path = NULL, *page;
		size_t len;
		int k;

		if (i < nweeks) {
			int64_t since = first + (int64_t)i * WEEK;

			rp_week_name(since, title, sizeof title);
			if (!(names[i] = strdup(title)))
				goto nomem;
			page = week_page(cx, base, title, since, w + i, nweeks,
					 &len);
			if (!page)
				goto out;
		} else if (!(page = site_index(&cx->span, w + nweeks - 1, nweeks,
					       (const char *const *)names, &len)))
			goto nomem;
		if (asprintf(&path, "%s/%s.html", dir, i < nweeks ? title :
			     "index") < 0) {
			free(page);
			goto nomem;
		}
		k = put_if_changed(path, page, len);
		free(path);
		free(page);
		if (k < 0)
			goto out;
		written += k;
	}
	printf("%s: %d weeks, %d of %d files written, the rest unchanged\n",
	       dir, nweeks, written, nweeks + 1);
	ret = ONLIST_EXIT_OK;
	goto out;
nomem:
	onlist_err("report: out of memory");
out:
	for (int i = 0; names && i < nweeks; i++)
		free(names[i]);
	free(names);
	free(w);
	free(err);
	return ret;
}
