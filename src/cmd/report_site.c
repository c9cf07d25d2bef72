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

/* render() into a string; NULL on failure (said). */
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
static char *site_index(struct report *r, const char *const *names,
			size_t *len)
{
	char *buf = NULL;
	FILE *f;

	if (!(f = r->f = open_memstream(&buf, len)))
		return NULL;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		"<meta name=\"viewport\" content=\"width=device-width,"
		"initial-scale=1\"><title>onlist: commits that bypassed the "
		"lists, per week</title><style>%s</style></head><body>\n"
		"<h1>Commits that bypassed the lists, per week</h1>\n", rp_css);
	if (r->span.last) {
		char a[16], b[16];

		rp_fmt_day(r->span.first, a, sizeof a);
		rp_fmt_day(r->span.last, b, sizeof b);
		fprintf(f, "<p>The archive holds mail from %s to %s.</p>\n", a, b);
	}
	rp_chart(r);
	fputs("<h2>Weeks</h2>\n<div class=\"t\"><table><tr><th>Week</th>"
	      "<th>Commits</th><th>Never posted</th><th>Share</th>"
	      "<th>Not looked for</th><th>No reply</th><th>Discussed</th>"
	      "<th>Series only</th><th>Reviewed</th></tr>\n", f);
	for (int i = r->nwk - 1; i >= 0; i--) {
		const struct wk *k = &r->wk[i];

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

/* --site DIR: a page per week of the last nweeks (each with the chart of
 * the nweeks ending at it) and index.html; only pages whose bytes change
 * are written. */
int rp_write_site(const struct ctx *cx, struct report *base,
		      const char *dir, int nweeks, int64_t latest)
{
	int64_t last = rp_week_start(latest),
		first = last - (int64_t)(nweeks - 1) * WEEK,
		csince = first - (int64_t)(nweeks - 1) * WEEK;
	struct wk *w = calloc((size_t)(2 * nweeks - 1), sizeof *w);
	char **names = calloc((size_t)nweeks, sizeof *names);
	int ret = ONLIST_EXIT_FAIL, written = 0;

	if (!w || !names) {
		onlist_err("report: out of memory");
		goto out;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		onlist_err("report: %s: %s", dir, strerror(errno));
		goto out;
	}
	if (rp_week_counts(cx, csince, 2 * nweeks - 1, w))
		goto out;
	for (int i = 0; i < nweeks; i++) {
		struct report r = *base;
		char title[16], *path = NULL, *page;
		size_t len;
		int k;

		r.since = first + (int64_t)i * WEEK;
		r.until = r.since + WEEK;
		rp_week_name(r.since, title, sizeof title);
		if (!(names[i] = strdup(title)))
			goto nomem;
		r.title = title;
		r.wk = w + i;
		r.nwk = nweeks;
		r.wk_since = csince + (int64_t)i * WEEK;
		r.site = 1;
		if (onlist_store_report_window(cx->db, r.since, r.until, rp_keep,
					       &r.rows) != ONLIST_OK) {
			onlist_err("report: %s", onlist_store_errmsg(cx->db));
			rp_report_release(&r);
			goto out;
		}
		if (r.rows.failed || rp_prepare(cx, &r)) {
			rp_report_release(&r);
			goto out;
		}
		page = render_string(&r, &len);
		rp_report_release(&r);
		if (!page)
			goto out;
		if (asprintf(&path, "%s/%s.html", dir, title) < 0) {
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
	{
		struct report r = *base;
		char *page, *path = NULL;
		size_t len;
		int k;

		r.wk = w + nweeks - 1;
		r.nwk = nweeks;
		r.wk_since = first;
		r.week_links = 1;
		if (!(page = site_index(&r, (const char *const *)names, &len)))
			goto nomem;
		if (asprintf(&path, "%s/index.html", dir) < 0) {
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
	return ret;
}
