/* report_text.c - the report as plain text (report_int.h): a mail body
 * of TEXT_COLS columns, links as numbered references at the end (nothing
 * a mail reader would have to undo). */
#include "report_int.h"

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

/* "abcdef012345 [3] subject", the link as reference 3. */
static void txt_sha(struct report *r, const char *sha)
{
	int ref = rp_ref(r, rp_url(r->commit_url, sha));

	if (ref)
		fprintf(r->f, "%.12s [%d] ", sha, ref);
	else
		fprintf(r->f, "%.12s ", sha);
}

static void txt_posting(struct report *r, const char *msgid)
{
	fprintf(r->f, "posting [%d]", rp_ref(r, rp_url(r->posting_url, msgid)));
}

static void txt_link(struct report *r, char *u, const char *label)
{
	int ref = rp_ref(r, u);

	if (ref)
		fprintf(r->f, "%s [%d]", label, ref);
	else
		fputs(label, r->f);
}

static void underline(FILE *f, int c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc(c, f);
	fputc('\n', f);
}

static int txt_top(struct report *r)
{
	const char *h = "Commits that bypassed the lists: ";
	char *t = onlist_text_dup(r->m->title);

	if (!t)
		return -1;
	fprintf(r->f, "%s%s\n", h, t);
	underline(r->f, '=', onlist_text_width(h, strlen(h)) +
		  onlist_text_width(t, strlen(t)));
	free(t);
	fputc('\n', r->f);
	return rp_put_summary(r, onlist_put_text, "");
}

static void txt_section(struct report *r, const char *title, long n)
{
	int w = fprintf(r->f, "\n%s (%ld)\n", title, n);

	underline(r->f, '-', (size_t)(w - 2));
	fputc('\n', r->f);
}

/* Totals per committer or per subsystem, in 70 columns; a longer name
 * gets a line of its own.  -1 when out of memory. */
static int txt_table(struct report *r, int by)
{
	const struct onlist_report *m = r->m;
	FILE *f = r->f;

	fprintf(f, "%-20s%8s%7s%7s%7s%7s%7s%7s\n",
		by == ONLIST_REPORT_BY_SUBSYSTEM ? "Subsystem" : "Committer",
		"commits", "never", "share", "modif", "no rep", "disc.", "series");
	for (size_t i = 0; i < m->ngroups[by]; i++) {
		const struct onlist_report_group *g = &m->groups[by][i];
		char *nm = onlist_text_dup(g->name), share[16], fzs[24];
		size_t w = nm ? onlist_text_width(nm, strlen(nm)) : 0;

		if (!nm)
			return -1;
		if (m->modified_known)
			snprintf(fzs, sizeof fzs, "%ld", g->modified);
		else
			snprintf(fzs, sizeof fzs, "n/a");
		if (w > 19)
			fprintf(f, "%s\n%20s", nm, "");
		else
			fprintf(f, "%s%*s", nm, (int)(20 - w), "");
		free(nm);
		snprintf(share, sizeof share, "%.0f%%", rp_pct(g->never, g->commits));
		fprintf(f, "%8ld%7ld%7s%7s%7ld%7ld%7ld\n", g->commits, g->never,
			share, fzs, g->no_reply, g->discussed, g->series);
	}
	fputs("\nnever: never posted; modif: posted only modified before "
	      "merge; no rep: posted, no reply; disc.: discussed without "
	      "a review tag; series: reviewed only on the series.\n", f);
	return 0;
}

static int txt_bottom(struct report *r)
{
	const char *from = r->m->maintainers ? "MAINTAINERS" :
			   "the top directories";
	FILE *f = r->f;

	fputs("\nPer committer\n-------------\n\n", f);
	if (txt_table(r, ONLIST_REPORT_BY_COMMITTER))
		return -1;
	fprintf(f, "\nPer subsystem (from %s)\n", from);
	underline(f, '-', strlen(from) + 21);
	fputc('\n', f);
	if (txt_table(r, ONLIST_REPORT_BY_SUBSYSTEM))
		return -1;
	if (r->nrefs) {
		fputs("\nLinks\n-----\n\n", f);
		/* numbered from 1 over the whole report */
		for (size_t i = 0; i < r->nrefs; i++) {
			fprintf(f, "[%zu] ", r->refs_base + i + 1);
			onlist_put_text(f, r->refs[i]);
			fputc('\n', f);
			free(r->refs[i]);
		}
		r->refs_base += r->nrefs;
		r->nrefs = 0;
	}
	return 0;
}

const struct layout rp_text_layout = {
	.fmt = ONLIST_FMT_TEXT,
	.put = txt_put_lines, .put_str = onlist_put_text, .sha = txt_sha,
	.posting = txt_posting, .link = txt_link,
	.item = "- ",
	.head = { "", "\n  author: ", ", committer: ", ", subsystem: ",
		  "\n  tags: " },
	.empty = "; changelog: empty",
	.line = "\n  ", .merge = "", .list = " to ", .end = "\n",
	.top = txt_top, .section = txt_section, .note = "%s\n\n",
	.sub = "%s (%ld)\n\n", .sub_end = "\n", .rel_open = "",
	.rel_close = "\n", .ul_open = "", .ul_close = "", .none = "None.\n",
	.bottom = txt_bottom, .empty_end = "",
};

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
