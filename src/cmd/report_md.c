/* report_md.c - the report in Markdown (report_int.h): links as numbered
 * references at the end, and details as a nested list, so that no long
 * URL sits inside a line and no trailing-space line break appears, which
 * format=flowed mail would join. */
#include "report_int.h"

/* "[abcdef012345][3] " with the commit's link as reference 3, or the
 * short sha alone when the repository has no known commit link. */
static void md_sha(struct report *r, const char *sha)
{
	int ref = rp_ref(r, rp_url(r->commit_url, sha));

	if (ref)
		fprintf(r->f, "[%.12s][%d] ", sha, ref);
	else
		fprintf(r->f, "%.12s ", sha);
}

/* "[posted][4]", the posting's link as a numbered reference. */
static void md_posting(struct report *r, const char *msgid)
{
	fprintf(r->f, "[posted][%d]", rp_ref(r, rp_url(r->posting_url, msgid)));
}

/* A link labelled `label` to u (taken; NULL: the label alone). */
static void md_link(struct report *r, char *u, const char *label)
{
	int ref = rp_ref(r, u);

	if (ref)
		fprintf(r->f, "[%s][%d]", label, ref);
	else
		fputs(label, r->f);
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

static int md_top(struct report *r)
{
	fputs("# Commits that bypassed the lists: ", r->f);
	onlist_put_md(r->f, r->m->title);
	fputs("\n\n", r->f);
	return rp_put_summary(r, onlist_put_md, "**");
}

static void md_section(struct report *r, const char *title, long n)
{
	fprintf(r->f, "\n## %s (%ld)\n\n", title, n);
}

static int md_bottom(struct report *r)
{
	fputs("\n## Per committer\n\n", r->f);
	rp_put_table(r, ONLIST_REPORT_BY_COMMITTER);
	fprintf(r->f, "\n## Per subsystem (from %s)\n\n",
		r->m->maintainers ? "MAINTAINERS" : "the top directories");
	rp_put_table(r, ONLIST_REPORT_BY_SUBSYSTEM);
	/* every link definition at the end: one in mid-document shows as a
	 * line of text in a mail reader */
	md_refs(r);
	return 0;
}

const struct layout rp_md_layout = {
	.fmt = ONLIST_FMT_MD,
	.put = onlist_put_md, .put_str = onlist_put_md, .sha = md_sha,
	.posting = md_posting, .link = md_link,
	.item = "- ",
	.head = { "", "\n  - author: ", ", committer: ", ", subsystem: ",
		  "\n  - tags: " },
	.empty = "; changelog: **empty**",
	.line = "\n  - ", .merge = "", .list = " to ", .end = "\n",
	.top = md_top, .section = md_section, .note = "%s\n\n",
	.sub = "### %s (%ld)\n\n", .sub_end = "", .rel_open = "",
	.rel_close = "\n", .ul_open = "", .ul_close = "", .none = "None.\n",
	.bottom = md_bottom, .empty_end = "",
	.table_head = "| %s | Commits | Never posted | Share | Modified "
		      "| No reply | Discussed | Series only |\n"
		      "|---|---:|---:|---:|---:|---:|---:|---:|\n",
	.row_open = "| ",
	.row = " | %ld | %ld | %.0f%% | %s | %ld | %ld | %ld |\n",
	.table_end = "",
};
