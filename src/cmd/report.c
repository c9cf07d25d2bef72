/* cmd_report.c - onlist report: what landed in a window (a week by
 * default) that was never posted, posted and changed, or posted and never
 * answered; per committer and per subsystem; plain text, Markdown, HTML or
 * JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>

#include "cli.h"
#include "onlist/vocab.h"
#include "report_mail.h"
#include "onlist/buf.h"
#include "onlist/git.h"
#include "onlist/report.h"
#include "onlist/store.h"
#include "onlist/store_review.h"
#include "onlist/verdict.h"

#define REPORT_SCHEMA "onlist-report/2"
#define WEEK 604800
#define CHART_WEEKS 26
#define TEXT_COLS 72		/* plain text: a mail body's width */

static const char help[] =
	"usage: onlist [--db PATH] report [--week YYYY-Www | --since DATE --until DATE | RANGE]\n"
	"                     [--format md|text|html|json|mail] [--json] [-o FILE] [--repo PATH]\n"
	"                     [--mailmap FILE] [--commit-url TEMPLATE] [--posting-url TEMPLATE]\n"
	"                     [--weeks N] [--subsystem-depth N]\n"
	"       onlist [--db PATH] report --site DIR [--weeks N] [...]\n\n"
	"What landed in a window, by landing date (the merge that brought a\n"
	"commit into the mainline; `onlist scan` records it), or the commits\n"
	"of RANGE.  Without a window: the ISO week of the latest landing.\n\n"
	"Sections, by the review on the list over every version of a commit's\n"
	"topic (`onlist match` computes it): never posted; posted, no reply\n"
	"from anyone but the authors; posted, discussed without a review tag;\n"
	"reviewed only on the series (a Reviewed/Acked/Tested-by on the cover\n"
	"letter or another patch, quoted); reviewed commits are counted, not\n"
	"listed.  Commits posted only in another form are marked \"modified\n"
	"before merge\"; review trailers in git nobody gave on the list are\n"
	"shown.  Then totals per committer and per subsystem (MAINTAINERS at\n"
	"HEAD, else the top directory), the largest never-posted share first.\n\n"
	"  --week 2013-W27       an ISO week (Monday 00:00 UTC, seven days);\n"
	"                        `last`: the last whole week before now\n"
	"  --since/--until DATE  YYYY-MM-DD, UTC; UNTIL itself is not included\n"
	"  --format              md (default), text (a plain mail body: 72\n"
	"                        columns, links as numbered references at the\n"
	"                        end), html (one self-contained file), json\n"
	"                        (schema " REPORT_SCHEMA ", docs/schema.md)\n"
	ONLIST_REPORT_MAIL_HELP
	"  --json                --format json\n"
	"  -o FILE               write FILE, replaced only by a complete report:\n"
	"                        a failed run leaves the previous one (default\n"
	"                        and \"-\": standard output)\n"
	"  --weeks N             the chart's weeks, ending at the report's (26)\n"
	"  --subsystem-depth N   without MAINTAINERS, subsystems are the top N\n"
	"                        directories (1)\n"
	"  --site DIR            a page per week of the last N (--weeks) and\n"
	"                        DIR/index.html with their chart and table; a\n"
	"                        page is rewritten only when it changes\n"
	"  --commit-url T        %s becomes the sha (default: onlist.commitUrl,\n"
	"                        else the origin remote's host; else no links)\n"
	"  --posting-url T       %s becomes the Message-ID\n"
	"                        (default https://lore.kernel.org/r/%s)\n";

/* The review state (review.h), never posted first; C_REVIEWED last of
 * those; C_UNKNOWN: no posting, but it landed outside the archive. */
enum cat { C_NEVER, C_NOREPLY, C_DISCUSSED, C_SERIES, C_REVIEWED, C_UNKNOWN,
	   NCAT };

struct rrow {
	char sha[41];
	char *subject, *an, *ae, *cn, *ce, *trailers, *files, *merge_sha,
	     *merge_subject, *msgid, *list, *body;
	int64_t landed_date, commit_date;
	int landed, empty, postings, exact, fuzzy, replies, review_tags;
	int modified;			/* posted only in an edited form (author-date,
					 * subject or fuzzy matches) */
	struct onlist_commit_review rv;	/* review on the list */
	struct posting { char *msgid; int version; } *post;	/* every one */
	int npost;
	struct onlist_verdict v;	/* never posted: why; or unknown */
	/* filled after the walk */
	const char *author, *committer;
	char subsys[160];
	enum cat cat;
};

struct rows {
	struct rrow *v;
	size_t n, alloc;
	int failed;
};

/* One week of the chart: its commits by category. */
struct wk {
	long n[NCAT], total;
};

static char *dup0(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int keep(const struct onlist_report_commit *c, void *data)
{
	struct rows *r = data;
	struct rrow *x;

	if (r->n == r->alloc) {
		struct rrow *nv = onlist_grow(r->v, &r->alloc, sizeof *nv, 256);

		if (!nv)
			goto nomem;
		r->v = nv;
	}
	x = &r->v[r->n++];
	memset(x, 0, sizeof *x);
	memcpy(x->sha, c->sha, 40);
	x->subject = strdup(c->subject ? c->subject : "");
	x->an = strdup(c->author_name ? c->author_name : "");
	x->ae = strdup(c->author_email ? c->author_email : "");
	x->cn = strdup(c->committer_name ? c->committer_name : "");
	x->ce = strdup(c->committer_email ? c->committer_email : "");
	x->trailers = strdup(c->trailers);
	x->files = strdup(c->files);
	x->merge_sha = dup0(c->merge_sha);
	x->merge_subject = dup0(c->merge_subject);
	x->msgid = dup0(c->msgid);
	x->list = dup0(c->list);
	x->body = dup0(c->body);
	if (!x->subject || !x->an || !x->ae || !x->cn || !x->ce ||
	    !x->trailers || !x->files)
		goto nomem;
	x->landed = c->landed;
	x->landed_date = c->landed_date;
	x->commit_date = c->commit_date;
	x->empty = c->body_empty;
	x->postings = c->postings;
	x->exact = c->exact;
	x->fuzzy = c->fuzzy;
	x->replies = c->replies;
	x->review_tags = c->review_tags;
	return 0;
nomem:
	onlist_err("report: out of memory");
	r->failed = 1;
	return 1;
}

static void free_rows(struct rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct rrow *x = &r->v[i];
		free(x->subject); free(x->an); free(x->ae); free(x->cn);
		free(x->ce); free(x->trailers); free(x->files);
		free(x->merge_sha); free(x->merge_subject); free(x->msgid);
		free(x->list);
		free(x->body);
		onlist_commit_review_release(&x->rv);
		onlist_verdict_release(&x->v);
		for (int k = 0; k < x->npost; k++)
			free(x->post[k].msgid);
		free(x->post);
	}
	free(r->v);
}

/* "Signed-off-by ×2, Acked-by" */
static void tag_summary(const char *trailers, char *buf, size_t n)
{
	char keys[32][64];
	int counts[32], nk = 0;
	const char *p, *nl;
	size_t used = 0;

	buf[0] = '\0';
	for (p = trailers; *p; p = *nl ? nl + 1 : nl) {
		size_t kl;
		int i;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		kl = strcspn(p, ":\n");
		if (kl >= sizeof keys[0])
			kl = sizeof keys[0] - 1;
		for (i = 0; i < nk; i++)
			if (strlen(keys[i]) == kl && !strncasecmp(keys[i], p, kl))
				break;
		if (i == nk) {
			if (nk == 32)
				continue;
			memcpy(keys[nk], p, kl);
			keys[nk][kl] = '\0';
			counts[nk++] = 0;
		}
		counts[i]++;
	}
	for (int i = 0; i < nk && used < n; i++) {
		int w = counts[i] > 1 ?
			snprintf(buf + used, n - used, "%s%s ×%d", i ? ", " : "",
				 keys[i], counts[i]) :
			snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
				 keys[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* A URL from a template: the first %s becomes `value`, percent-encoded
 * except for the characters a sha or a Message-ID usually has. */
static char *url(const char *tmpl, const char *value)
{
	const char *at;
	char *out, *enc;

	if (!tmpl)	/* no link known for this repository */
		return NULL;
	if (!(at = strstr(tmpl, "%s")))
		return strdup(tmpl);
	if (!(enc = onlist_url_escape(value, "@+=$!")))
		return NULL;
	if (asprintf(&out, "%.*s%s%s", (int)(at - tmpl), tmpl, enc,
		     at + 2) < 0)
		out = NULL;
	free(enc);
	return out;
}

static void fmt_day(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm))
		snprintf(buf, n, "?");
	else
		strftime(buf, n, "%Y-%m-%d", &tm);
}

/* ---- dates ------------------------------------------------------------- */

static int parse_day(const char *s, int64_t *out)
{
	struct tm tm = { 0 };
	int y, m, d;
	char c;

	if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &c) != 3 || m < 1 ||
	    m > 12 || d < 1 || d > 31)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	*out = (int64_t)timegm(&tm);
	return 0;
}

/* Monday 00:00 UTC of ISO week YYYY-Www. */
static int parse_week(const char *s, int64_t *out)
{
	struct tm tm = { 0 };
	int y, w, wd;
	char c;
	time_t jan4;

	if (sscanf(s, "%4d-W%2d%c", &y, &w, &c) != 2 || w < 1 || w > 53)
		return -1;
	tm.tm_year = y - 1900;
	tm.tm_mday = 4;		/* 4 January is always in week 1 */
	jan4 = timegm(&tm);
	gmtime_r(&jan4, &tm);
	wd = tm.tm_wday ? tm.tm_wday : 7;
	*out = (int64_t)jan4 - (int64_t)(wd - 1) * 86400 + (int64_t)(w - 1) * WEEK;
	return 0;
}

static int64_t week_start(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	int wd;

	gmtime_r(&tt, &tm);
	wd = tm.tm_wday ? tm.tm_wday : 7;
	return t - (t % 86400 + 86400) % 86400 - (int64_t)(wd - 1) * 86400;
}

static void week_name(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, n, "%G-W%V", &tm);
}

/* ---- the report --------------------------------------------------------- */

struct report {
	FILE *f;
	struct onlist_span span;	/* the archive's messages */
	int64_t latest_landing;		/* -1: none recorded */
	enum onlist_fmt fmt;
	const char *commit_url, *posting_url;
	const char *title;		/* "2013-W27", "v3.10..v3.11" */
	int windowed;
	int64_t since, until;
	struct rows rows;
	long fuzzy_total;		/* edited-form matches in the whole database */
	const struct wk *wk;		/* the chart: nwk weeks from wk_since */
	int nwk;
	int64_t wk_since;
	int site;			/* a page of --site: link the index */
	int week_links;			/* chart bars link to the week's page */
	struct onlist_people *people;	/* the names of rows */
	int maintainers;		/* subsystems from MAINTAINERS */
	int reviews_known;		/* review tags in replies are recorded */
	struct onlist_cli_unanswered *ua;	/* still unanswered (ignored.c) */
	long with_review_tags;		/* commits with some */
	char **refs;			/* Markdown link targets of a section */
	size_t nrefs, refs_base;
};

static const char *const cat_title[] = {
	[C_NEVER] = "Never posted",
	[C_NOREPLY] = "Posted, no reply",
	[C_DISCUSSED] = "Posted, discussed without a review tag",
	[C_SERIES] = "Reviewed only on the series",
	[C_REVIEWED] = "Reviewed on the list",
	[C_UNKNOWN] = "Not looked for",
};
/* The JSON category; the state names of review.h after never_posted. */
static const char *const cat_key[] = {
	[C_NEVER] = "never_posted",
	[C_NOREPLY] = "no_reply",
	[C_DISCUSSED] = "discussed",
	[C_SERIES] = "reviewed_series",
	[C_REVIEWED] = "reviewed",
	[C_UNKNOWN] = "unknown",
};
static const char *const cat_note[] = {
	[C_NOREPLY] = "Nobody but the authors (or a bot) wrote in any thread "
		"of any version.",
	[C_DISCUSSED] = "Replies from others, but no Reviewed-by, Acked-by or "
		"Tested-by from anyone but the authors, on any version.",
	[C_SERIES] = "No review tag on the patch itself; the one quoted was "
		"given to the cover letter or another patch of its series.",
};

static long count_modified(const struct report *r)
{
	long n = 0;

	for (size_t i = 0; i < r->rows.n; i++)
		n += r->rows.v[i].modified;
	return n;
}

/* The review a commit got on its series, in one line: "Acked-by Jane
 * Doe on 1/4 of v3, for the series" (the cover letter: "on the cover
 * letter of v3"), assembled for whichever escaper prints it; the message
 * is linked after it. */
static char *evidence(const struct onlist_commit_review *rv)
{
	const char *v = rv->ev_value ? rv->ev_value : "";
	size_t namelen = strcspn(v, "<");
	char *t = NULL, where[64], ver[16] = "";

	if (!rv->ev_key)
		return NULL;
	while (namelen && v[namelen - 1] == ' ')
		namelen--;
	if (rv->ev_target_class && !strcmp(rv->ev_target_class, "cover"))
		snprintf(where, sizeof where, "the cover letter");
	else if (rv->ev_part >= 0)
		snprintf(where, sizeof where, "%d/%d", rv->ev_part, rv->ev_total);
	else
		snprintf(where, sizeof where, "another patch");
	if (rv->ev_version > 1)
		snprintf(ver, sizeof ver, " of v%d", rv->ev_version);
	if (asprintf(&t, "%s %.*s on %s%s, for the series", rv->ev_key,
		     (int)namelen, v, where, ver) < 0)
		return NULL;
	return t;
}

static long count_cat(const struct report *r, enum cat c)
{
	long n = 0;

	for (size_t i = 0; i < r->rows.n; i++)
		n += r->rows.v[i].cat == c;
	return n;
}

static double pct(long k, long n)
{
	return n ? 100.0 * (double)k / (double)n : 0.0;
}

static int md_ref(struct report *r, char *u);

/* "[abcdef012345][3] " with the commit's link as reference 3, or the
 * short sha alone when the repository has no known commit link. */
static void md_sha(struct report *r, const char *sha)
{
	int ref = md_ref(r, url(r->commit_url, sha));

	if (ref)
		fprintf(r->f, "[%.12s][%d] ", sha, ref);
	else
		fprintf(r->f, "%.12s ", sha);
}

/* <a class="sha" href="...">abcdef012345</a>, or a <span> without a link. */
static void html_sha(struct report *r, const char *sha)
{
	char *u = url(r->commit_url, sha);

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
	fprintf(r->f, "[posted][%d]", md_ref(r, url(r->posting_url, msgid)));
}

static void html_posting(struct report *r, const char *msgid)
{
	char *u = url(r->posting_url, msgid);

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
	int ref = md_ref(r, url(r->commit_url, sha));

	if (ref)
		fprintf(r->f, "%.12s [%d] ", sha, ref);
	else
		fprintf(r->f, "%.12s ", sha);
}

static void txt_posting(struct report *r, const char *msgid)
{
	fprintf(r->f, "posting [%d]", md_ref(r, url(r->posting_url, msgid)));
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

	tag_summary(x->trailers, tags, sizeof tags);
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
		fmt_day(x->landed_date, day, sizeof day);
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
			l->link(r, url(r->posting_url, x->post[i].msgid), label);
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
		char *ev = evidence(&x->rv);

		fputs(l->line, f);
		fputs("review: ", f);
		l->put(f, ev ? ev : "?");
		if (x->rv.ev_msgid) {
			fputs(" (", f);
			l->link(r, url(r->posting_url, x->rv.ev_msgid), "mail");
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
		l->link(r, url(r->posting_url, x->rv.notice_msgid), "mail");
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
	char *u = url(r->commit_url, x->sha);

	fputs(first ? "\n    {" : ",\n    {", f);
	fprintf(f, "\"sha\": \"%s\", \"category\": \"%s\", "
		"\"modified_before_merge\": %s, \"url\": ", x->sha,
		cat_key[x->cat], x->modified ? "true" : "false");
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
		u = url(r->posting_url, x->msgid);
		onlist_put_json_object(f, "msgid", x->msgid, "list", x->list,
				       "url", u, (char *)NULL);
	} else
		fputs("null", f);
	fputs(", \"posting_versions\": [", f);
	for (int i = 0; i < x->npost; i++) {
		char *pu = url(r->posting_url, x->post[i].msgid);

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
static int group_table(struct report *r, int by_subsys)
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
				t->count, t->extra, pct(t->extra, t->count), fzs, nr,
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
			snprintf(share, sizeof share, "%.0f%%", pct(t->extra, t->count));
			fprintf(f, "%8ld%7ld%7s%7s%7ld%7ld%7ld\n", t->count, t->extra,
				share, fzs, nr, nd, ns);
		} else {
			fputs("| ", f);
			onlist_put_md(f, t->name);
			fprintf(f, " | %ld | %ld | %.0f%% | %s | %ld | %ld | %ld |\n",
				t->count, t->extra, pct(t->extra, t->count), fzs, nr,
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
static const enum cat stack[] = { C_NEVER, C_UNKNOWN, C_NOREPLY, C_DISCUSSED,
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
static void chart(struct report *r)
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

		week_name(ws, wk, sizeof wk);
		if (r->week_links)
			fprintf(f, "<a href=\"%s.html\">", wk);
		fprintf(f, "<g class=\"wk\" data-week=\"%s\" data-commits=\"%ld\" "
			"data-never=\"%ld\"><title>%s: %ld commits", wk, k->total,
			k->n[C_NEVER], wk, k->total);
		for (size_t c = 0; c < sizeof stack / sizeof *stack; c++)
			if (k->n[stack[c]])
				fprintf(f, ", %ld %s", k->n[stack[c]],
					cat_legend[stack[c]]);
		fputs("</title>", f);
		if (!k->total) {
			fprintf(f, "<text class=\"none\" transform=\"translate(%.0f %d) "
				"rotate(-90)\">no commits</text>", cx + 4, TOP + H - 4);
		} else {
			for (size_t c = 0; c < sizeof stack / sizeof *stack; c++) {
				double h = (double)k->n[stack[c]] * H / (double)max;

				if (!k->n[stack[c]])
					continue;
				y -= h;
				fprintf(f, "<rect class=\"c-%s\" x=\"%.0f\" y=\"%.2f\" "
					"width=\"%d\" height=\"%.2f\"/>",
					cat_key[stack[c]], cx - BW / 2.0, y, BW, h);
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
	for (size_t c = 0; c < sizeof stack / sizeof *stack; c++)
		fprintf(f, "<li><svg width=\"12\" height=\"12\" viewBox=\"0 0 12 12\" "
			"aria-hidden=\"true\"><rect class=\"c-%s\" width=\"12\" "
			"height=\"12\"/></svg> %s</li>", cat_key[stack[c]],
			cat_legend[stack[c]]);
	fputs("<li><svg width=\"12\" height=\"12\" viewBox=\"0 0 12 12\" "
	      "aria-hidden=\"true\"><rect class=\"cur\" width=\"12\" "
	      "height=\"12\"/></svg> this week; above a bar its commits, at its "
	      "foot those never posted</li></ul>\n", f);
}

static const char css[] =
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

	fmt_day(r->span.last, a, sizeof a);
	fmt_day(r->latest_landing, b, sizeof b);
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

	fmt_day(r->span.first, a, sizeof a);
	fmt_day(r->span.last, b, sizeof b);
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

static int render(struct report *r)
{
	FILE *f = r->f;
	long n = (long)r->rows.n, cnt[NCAT], nmod = count_modified(r);
	char a[16], b[16];
	const char *summary = "%ld posted with no reply, %ld discussed without "
		"a review tag, %ld reviewed only on the series, %ld reviewed on "
		"the list";

	for (int c = 0; c < NCAT; c++)
		cnt[c] = count_cat(r, (enum cat)c);
	fmt_day(r->since, a, sizeof a);
	fmt_day(r->until - 1, b, sizeof b);
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
		if (group_table(r, 0))
			return -1;
		fputs(",\n  ", f);
		if (group_table(r, 1))
			return -1;
		fprintf(f, ",\n  \"subsystems_from\": \"%s\",\n  \"weeks\": [",
			r->maintainers ? "MAINTAINERS" : "paths");
		for (int i = 0; i < r->nwk && r->windowed; i++) {
			char wk[16];
			week_name(r->wk_since + (int64_t)i * WEEK, wk, sizeof wk);
			fprintf(f, "%s\n    {\"week\": \"%s\", \"commits\": %ld",
				i ? "," : "", wk, r->wk[i].total);
			for (size_t c = 0; c < sizeof stack / sizeof *stack; c++)
				fprintf(f, ", \"%s\": %ld", cat_key[stack[c]],
					r->wk[i].n[stack[c]]);
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
			"Commits that bypassed the lists: ", css);
		onlist_put_html(f, r->title);
		fputs("</h1>\n", f);
		if (r->windowed)
			fprintf(f, "<p>Landed %s to %s (UTC).</p>\n", a, b);
		if (!n) {
			fputs("<p>No commits landed in this period.</p>\n", f);
		} else {
			fprintf(f, "<p><b>%ld</b> commits: <b>%ld</b> never posted "
				"(%.0f%%), ", n, cnt[C_NEVER], pct(cnt[C_NEVER], n));
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
			chart(r);
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
				cnt[C_NEVER], pct(cnt[C_NEVER], n));
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
			fprintf(f, "<h2>%s (%ld)</h2>\n", cat_title[c], cnt[c]);
		else if (r->fmt == ONLIST_FMT_TEXT) {
			int w = fprintf(f, "\n%s (%ld)\n", cat_title[c], cnt[c]);

			underline(f, '-', (size_t)(w - 2));
			fputc('\n', f);
		} else
			fprintf(f, "\n## %s (%ld)\n\n", cat_title[c], cnt[c]);
		if (cat_note[c])
			fprintf(f, r->fmt == ONLIST_FMT_HTML ?
				"<p><small>%s</small></p>\n" : "%s\n\n", cat_note[c]);
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
		if (group_table(r, 0))
			return -1;
		fprintf(f, "<h2>Per subsystem</h2>\n<p><small>From %s.</small></p>\n",
			r->maintainers ? "MAINTAINERS" : "the top directories");
		if (group_table(r, 1))
			return -1;
		fputs("<p><small>Made by onlist.</small></p>\n</body></html>\n", f);
	} else if (r->fmt == ONLIST_FMT_TEXT) {
		fputs("\nPer committer\n-------------\n\n", f);
		if (group_table(r, 0))
			return -1;
		fprintf(f, "\nPer subsystem (from %s)\n", r->maintainers ?
			"MAINTAINERS" : "the top directories");
		underline(f, '-', strlen(r->maintainers ? "MAINTAINERS" :
					 "the top directories") + 21);
		fputc('\n', f);
		if (group_table(r, 1))
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
		if (group_table(r, 0))
			return -1;
		fprintf(f, "\n## Per subsystem (from %s)\n\n",
			r->maintainers ? "MAINTAINERS" : "the top directories");
		if (group_table(r, 1))
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
static void wrap_text(FILE *out, const char *buf, size_t len)
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
static void default_links(struct report *r, const char *repo)
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
static int link_ok(const char *opt, const char *tmpl)
{
	if (!tmpl || !strncmp(tmpl, "https://", 8) || !strncmp(tmpl, "http://", 7))
		return 0;
	onlist_err("report: %s must start with https:// or http://", opt);
	return -1;
}

/* ---- loading and classifying ------------------------------------------ */

/* What every window of one run shares. */
struct ctx {
	struct onlist_store *db;
	const char *repo, *alias;
	struct onlist_maintainers *maint;	/* NULL: no MAINTAINERS at HEAD */
	const regex_t *rel;			/* release bumps, or NULL */
	struct onlist_span span;
	int depth;				/* --subsystem-depth */
};

/* Without MAINTAINERS: the top `depth` directories of the folder most of
 * the files are in ("drivers/net" at 2, "drivers" at 1); a file at the
 * top is "(top level)".  One directory by default: two gave a table of
 * twenty small rows on a repository without MAINTAINERS. */
static int dir_name(const char *p, size_t len, char *name, size_t n,
		    void *data)
{
	const char *nl = p + len, *base, *q, *end;
	int depth = *(const int *)data, d = 0;

	for (base = nl; base > p && base[-1] != '/'; base--)
		;
	if (base == p) {
		snprintf(name, n, "(top level)");
		return 1;
	}
	end = base - 1;		/* the last slash */
	for (q = p; q < end; q++)
		if (*q == '/' && ++d == depth) {
			end = q;
			break;
		}
	snprintf(name, n, "%.*s", (int)(end - p), p);
	return 1;
}

static void path_subsys(const char *files, int depth, char *buf, size_t n)
{
	onlist_subsys_vote(files, dir_name, &depth, buf, n);
}

/* The category of one commit: never posted (and why) or not looked for;
 * else its review on the list.  -1 on a database error (not said). */
static int classify(const struct ctx *cx, struct rrow *x)
{
	x->modified = x->postings && !x->exact && x->fuzzy;
	if (!x->postings) {
		if (onlist_verdict_unposted(cx->db, &cx->span, cx->rel, x->sha,
					    x->subject, x->body, x->files,
					    x->landed ? x->landed_date :
					    x->commit_date, &x->v) != ONLIST_OK)
			return -1;
		x->cat = x->v.unknown ? C_UNKNOWN : C_NEVER;
		return 0;
	}
	if (onlist_store_commit_review(cx->db, x->sha, &x->rv) != ONLIST_OK)
		return -1;
	if (!x->rv.state)	/* match has not run since an upgrade */
		x->cat = x->review_tags > 0 ? C_REVIEWED :
			 x->replies ? C_DISCUSSED : C_NOREPLY;
	else if (!strcmp(x->rv.state, "reviewed"))
		x->cat = C_REVIEWED;
	else if (!strcmp(x->rv.state, "reviewed_series"))
		x->cat = C_SERIES;
	else if (!strcmp(x->rv.state, "discussed"))
		x->cat = C_DISCUSSED;
	else
		x->cat = C_NOREPLY;
	/* the path it took, and whether it bypassed review (paths.h) */
	if (onlist_path_of(cx->db, x->sha, x->body, &x->v.path) != ONLIST_OK ||
	    onlist_verdict_security_posted(x->body, x->cat == C_REVIEWED ||
					   x->cat == C_SERIES,
					   &x->v.security) < 0)
		return -1;
	return 0;
}

/* onlist_store_report_postings() into a row; npost -1 when out of
 * memory. */
static int add_posting(const char *msgid, const char *list, int version,
		       void *data)
{
	struct rrow *x = data;
	struct posting *nv = realloc(x->post, (size_t)(x->npost + 1) * sizeof *nv);

	(void)list;
	if (nv)
		x->post = nv;
	if (!nv || !(nv[x->npost].msgid = strdup(msgid ? msgid : ""))) {
		for (int k = 0; k < x->npost; k++)
			free(x->post[k].msgid);
		free(x->post);
		x->post = NULL;
		x->npost = -1;
		return 1;
	}
	x->post = nv;
	nv[x->npost++].version = version;
	return 0;
}

/* People, subsystems and categories of r->rows.  0, or -1 said. */
static int prepare(const struct ctx *cx, struct report *r)
{
	char *err = NULL;

	if (onlist_people_new(&r->people) != ONLIST_OK)
		goto nomem;
	for (size_t i = 0; i < r->rows.n; i++)
		if (onlist_people_add(r->people, r->rows.v[i].an, r->rows.v[i].ae) ||
		    onlist_people_add(r->people, r->rows.v[i].cn, r->rows.v[i].ce))
			goto nomem;
	if (onlist_people_resolve(r->people, cx->repo, cx->alias, &err) != ONLIST_OK) {
		onlist_err("report: .mailmap: %s", err ? err : "failed");
		free(err);
		return -1;
	}
	r->maintainers = cx->maint != NULL;
	for (size_t i = 0; i < r->rows.n; i++) {
		struct rrow *x = &r->rows.v[i];

		if (x->review_tags >= 0)
			r->reviews_known = 1;
		r->with_review_tags += x->review_tags > 0;
		x->author = onlist_people_name(r->people, x->an, x->ae);
		x->committer = onlist_people_name(r->people, x->cn, x->ce);
		if (cx->maint)
			onlist_subsystem(cx->maint, x->files, x->subsys,
					 sizeof x->subsys);
		else
			path_subsys(x->files, cx->depth, x->subsys,
				    sizeof x->subsys);
		if (classify(cx, x) ||
		    (x->postings && onlist_store_report_postings(cx->db, x->sha,
						add_posting, x) != ONLIST_OK)) {
			onlist_err("report: %s", onlist_store_errmsg(cx->db));
			return -1;
		}
		if (x->npost < 0)
			goto nomem;
	}
	return 0;
nomem:
	onlist_err("report: out of memory");
	return -1;
}

/* The chart's numbers: the commits that landed in each of nweeks weeks
 * from `since`, by the same categories as the report's sections (so a
 * commit outside the archive's span is "not looked for" here too, not
 * never posted).  0, or -1 said. */
static int week_counts(const struct ctx *cx, int64_t since, int nweeks,
		       struct wk *w)
{
	struct rows rows = { 0 };
	int ret = -1;

	memset(w, 0, (size_t)nweeks * sizeof *w);
	if (onlist_store_report_window(cx->db, since, since + (int64_t)nweeks * WEEK,
				       keep, &rows) != ONLIST_OK) {
		onlist_err("report: %s", onlist_store_errmsg(cx->db));
		goto out;
	}
	if (rows.failed)
		goto out;
	for (size_t i = 0; i < rows.n; i++) {
		struct rrow *x = &rows.v[i];
		int64_t k = (x->landed_date - since) / WEEK;

		if (classify(cx, x)) {
			onlist_err("report: %s", onlist_store_errmsg(cx->db));
			goto out;
		}
		if (x->landed_date >= since && k < nweeks) {
			w[k].n[x->cat]++;
			w[k].total++;
		}
	}
	ret = 0;
out:
	free_rows(&rows);
	return ret;
}

/* What one render() leaves behind, for the next window of a site. */
static void report_release(struct report *r)
{
	free_rows(&r->rows);
	memset(&r->rows, 0, sizeof r->rows);
	for (size_t i = 0; i < r->nrefs; i++)
		free(r->refs[i]);
	free(r->refs);
	r->refs = NULL;
	r->nrefs = r->refs_base = 0;
	onlist_people_free(r->people);
	r->people = NULL;
	r->reviews_known = 0;
	r->with_review_tags = 0;
}

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
	bad = render(r);
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
		"<h1>Commits that bypassed the lists, per week</h1>\n", css);
	if (r->span.last) {
		char a[16], b[16];

		fmt_day(r->span.first, a, sizeof a);
		fmt_day(r->span.last, b, sizeof b);
		fprintf(f, "<p>The archive holds mail from %s to %s.</p>\n", a, b);
	}
	chart(r);
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
			fprintf(f, "%.0f%%", pct(k->n[C_NEVER], k->total));
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
static int write_site(const struct ctx *cx, struct report *base,
		      const char *dir, int nweeks, int64_t latest)
{
	int64_t last = week_start(latest),
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
	if (week_counts(cx, csince, 2 * nweeks - 1, w))
		goto out;
	for (int i = 0; i < nweeks; i++) {
		struct report r = *base;
		char title[16], *path = NULL, *page;
		size_t len;
		int k;

		r.since = first + (int64_t)i * WEEK;
		r.until = r.since + WEEK;
		week_name(r.since, title, sizeof title);
		if (!(names[i] = strdup(title)))
			goto nomem;
		r.title = title;
		r.wk = w + i;
		r.nwk = nweeks;
		r.wk_since = csince + (int64_t)i * WEEK;
		r.site = 1;
		if (onlist_store_report_window(cx->db, r.since, r.until, keep,
					       &r.rows) != ONLIST_OK) {
			onlist_err("report: %s", onlist_store_errmsg(cx->db));
			report_release(&r);
			goto out;
		}
		if (r.rows.failed || prepare(cx, &r)) {
			report_release(&r);
			goto out;
		}
		page = render_string(&r, &len);
		report_release(&r);
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

enum {
	OPT_WEEK = ONLIST_OPT_FIRST_LONG, OPT_SINCE, OPT_UNTIL, OPT_REPO,
	OPT_MAILMAP, OPT_COMMIT_URL, OPT_POSTING_URL, OPT_WEEKS, OPT_SITE,
	OPT_DEPTH, OPT_MAIL,	/* OPT_MAIL: ONLIST_REPORT_MAIL_NOPT of them */
};

/* A number of at least 1 and at most max, or -1. */
static int small_number(const char *s, int max)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v >= 1 && v <= max ? (int)v : -1;
}

int cmd_report(struct onlist_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "week", required_argument, NULL, OPT_WEEK },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "mailmap", required_argument, NULL, OPT_MAILMAP },
		{ "commit-url", required_argument, NULL, OPT_COMMIT_URL },
		{ "posting-url", required_argument, NULL, OPT_POSTING_URL },
		{ "weeks", required_argument, NULL, OPT_WEEKS },
		{ "site", required_argument, NULL, OPT_SITE },
		{ "subsystem-depth", required_argument, NULL, OPT_DEPTH },
		ONLIST_REPORT_MAIL_OPTIONS(OPT_MAIL),
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "md", "text", "html", "json",
					       "mail", NULL };
	struct onlist_report_mail mail = { 0 };
	char prev_title[64];
	const char *week = NULL, *since_s = NULL, *until_s = NULL, *range = NULL,
		   *ofile = NULL, *repo_opt = NULL, *site = NULL;
	struct report r = { 0 };
	struct ctx cx = { .depth = 1 };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct wk *w = NULL;
	char *repo = NULL, *oerr = NULL, title[64], *text = NULL;
	regex_t rel;
	int have_rel = 0, nweeks = CHART_WEEKS;
	int ret = ONLIST_EXIT_FAIL, c;
	size_t len;

	r.f = stdout;
	r.fmt = ONLIST_FMT_MD;
	onlist_cli_formats(cli, formats, &r.fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "o:", opts, help)) != -1) {
		switch (c) {
		case OPT_WEEK: week = optarg; break;
		case OPT_SINCE: since_s = optarg; break;
		case OPT_UNTIL: until_s = optarg; break;
		case 'o': ofile = optarg; break;
		case OPT_REPO: repo_opt = optarg; break;
		case OPT_MAILMAP: cx.alias = optarg; break;
		case OPT_COMMIT_URL: r.commit_url = optarg; break;
		case OPT_POSTING_URL: r.posting_url = optarg; break;
		case OPT_SITE: site = optarg; break;
		case OPT_WEEKS:
			if ((nweeks = small_number(optarg, 520)) < 0) {
				onlist_err("report: --weeks wants 1 to 520, not '%s'",
					   optarg);
				return ONLIST_EXIT_USAGE;
			}
			break;
		case OPT_DEPTH:
			if ((cx.depth = small_number(optarg, 16)) < 0) {
				onlist_err("report: --subsystem-depth wants 1 to 16, "
					   "not '%s'", optarg);
				return ONLIST_EXIT_USAGE;
			}
			break;
		default:
			if (c >= OPT_MAIL && c < OPT_MAIL + ONLIST_REPORT_MAIL_NOPT) {
				if (onlist_report_mail_opt(&mail, c - OPT_MAIL, optarg))
					goto out_mail;
				break;
			}
			/* --help, or a usage error: said already */
			onlist_report_mail_release(&mail);
			return onlist_cli_stop(c);
		}
	}
	if ((mail.given && r.fmt != ONLIST_FMT_MAIL) ||
	    (r.fmt == ONLIST_FMT_MAIL && (since_s || until_s || site || range))) {
		onlist_err("report: --from, --to, --cc and --send go with "
			   "--format mail, the report of a week (--week or none)");
		ret = ONLIST_EXIT_USAGE;
		goto out_mail;
	}
	if (mail.send && ofile) {
		onlist_err("report: --send or -o, not both");
		ret = ONLIST_EXIT_USAGE;
		goto out_mail;
	}
	if (onlist_cli_operand(cli, argc, argv, &range, help)) {
		ret = ONLIST_EXIT_USAGE;
		goto out_mail;
	}
	if ((week != NULL) + (since_s || until_s) + (range != NULL) +
	    (site != NULL) > 1) {
		onlist_err("report: give one of --week, --since/--until, RANGE, "
			   "--site");
		return ONLIST_EXIT_USAGE;
	}
	if (site && (ofile || r.fmt != ONLIST_FMT_MD)) {
		onlist_err("report: --site writes HTML pages into its folder: "
			   "no -o or --format with it");
		return ONLIST_EXIT_USAGE;
	}
	if (week && !strcmp(week, "last")) {
		/* the timer's: the last whole week, whatever landed since */
		r.since = week_start((int64_t)time(NULL)) - WEEK;
	} else if (week && parse_week(week, &r.since)) {
		onlist_err("report: --week wants YYYY-Www (2013-W27), not '%s'", week);
		return ONLIST_EXIT_USAGE;
	}
	if ((since_s && parse_day(since_s, &r.since)) ||
	    (until_s && parse_day(until_s, &r.until))) {
		onlist_err("report: dates are YYYY-MM-DD");
		return ONLIST_EXIT_USAGE;
	}
	if (!(cx.db = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(cx.db, "repo");
	cx.repo = repo;
	default_links(&r, repo);
	if (link_ok("--commit-url (or onlist.commitUrl)", r.commit_url) ||
	    link_ok("--posting-url (or onlist.postingUrl)", r.posting_url)) {
		ret = ONLIST_EXIT_USAGE;
		goto out;
	}
	/* the tiers that find edited postings; none at all: they did not run */
	for (int m = 0; m < ONLIST_METHOD_UNKNOWN; m++)
		if (onlist_method_is_edited(onlist_method_name(m)))
			r.fuzzy_total += onlist_store_count_method(cx.db,
						onlist_method_name(m));
	if ((have_rel = onlist_cli_release_pattern("report", cx.db, repo, &rel)) < 0) {
		ret = ONLIST_EXIT_USAGE;
		goto out;
	}
	cx.rel = have_rel > 0 ? &rel : NULL;
	if (onlist_span_get(cx.db, &cx.span) != ONLIST_OK) {
		onlist_err("report: %s", onlist_store_errmsg(cx.db));
		goto out;
	}
	r.span = cx.span;
	r.latest_landing = onlist_store_latest_landing(cx.db);
	/* names would silently stay unmapped: say so */
	if (!repo)
		onlist_err("%s: no repository known (give --repo): names are "
			   "not mapped through .mailmap", "report");
	if (repo && onlist_repo_read_blob(repo, "HEAD", "MAINTAINERS", &text,
					  &len, NULL) == ONLIST_OK) {
		if (onlist_maintainers_parse(&cx.maint, text, len) != ONLIST_OK)
			goto nomem;
		if (!onlist_maintainers_count(cx.maint)) {
			onlist_maintainers_free(cx.maint);
			cx.maint = NULL;
		}
	}
	if (site) {
		if (r.latest_landing < 0) {
			onlist_err("report: no landing dates recorded; run "
				   "onlist scan first");
			goto out;
		}
		r.fmt = ONLIST_FMT_HTML;
		r.windowed = 1;
		if (!(r.ua = onlist_cli_unanswered_load(cx.db, repo, 0, 0)))
			goto out;
		ret = write_site(&cx, &r, site, nweeks, r.latest_landing);
		goto out;
	}
	if (range) {
		if (!repo) {
			onlist_err("report: no repository scanned yet; give --repo");
			goto out;
		}
		if ((ret = onlist_cli_range_report(cli, cx.db, repo, range, keep,
					    &r.rows)) != ONLIST_EXIT_OK || r.rows.failed) {
			if (ret == ONLIST_EXIT_OK)
				ret = ONLIST_EXIT_FAIL;
			goto out;
		}
		ret = ONLIST_EXIT_FAIL;
		r.title = range;
	} else {
		int64_t latest = r.latest_landing;
		if (latest < 0) {
			onlist_err("report: no landing dates recorded; run "
				   "onlist scan first");
			goto out;
		}
		if (!week && !since_s && !until_s) {
			r.since = week_start(latest);
			week = "";
		}
		if (week) {
			r.until = r.since + WEEK;
			week_name(r.since, title, sizeof title);
		} else {
			/* open-ended: up to the latest landing, or now */
			if (!until_s)
				r.until = (latest > (int64_t)time(NULL) ?
					   latest : (int64_t)time(NULL)) + 1;
			if (!since_s)
				r.since = 0;
			snprintf(title, sizeof title, "%s to %s",
				 since_s ? since_s : "start",
				 until_s ? until_s : "now");
		}
		r.title = title;
		r.windowed = 1;
		if (onlist_store_report_window(cx.db, r.since, r.until, keep, &r.rows)
		    != ONLIST_OK) {
			onlist_err("report: %s", onlist_store_errmsg(cx.db));
			goto out;
		}
		if (!(w = calloc((size_t)nweeks, sizeof *w)))
			goto nomem;
		r.wk = w;
		r.nwk = nweeks;
		r.wk_since = week_start(r.until - 1) - (int64_t)(nweeks - 1) * WEEK;
		if (week_counts(&cx, r.wk_since, nweeks, w))
			goto out;
	}
	if (r.windowed && !(r.ua = onlist_cli_unanswered_load(cx.db, repo,
							       r.since, r.until)))
		goto out;
	if (r.rows.failed || prepare(&cx, &r))
		goto out;
	if (onlist_out_open(&out, ofile, &oerr) != ONLIST_OK) {
		onlist_err("report: %s", oerr ? oerr : "out of memory");
		goto out;
	}
	if (r.fmt == ONLIST_FMT_TEXT || r.fmt == ONLIST_FMT_MAIL) {
		/* folded to TEXT_COLS once complete (wrap_text) */
		char *tbuf = NULL, *mbuf = NULL;
		size_t tlen = 0, mlen = 0;
		FILE *dst = out.f;
		int bad, mail_fmt = r.fmt == ONLIST_FMT_MAIL;

		if (mail_fmt && !(dst = open_memstream(&mbuf, &mlen)))
			goto nomem;
		r.fmt = ONLIST_FMT_TEXT;	/* the mail's body is the text */
		if (!(r.f = open_memstream(&tbuf, &tlen)))
			bad = 1;
		else
			bad = render(&r) | (fclose(r.f) != 0);
		if (!bad)
			wrap_text(dst, tbuf, tlen);
		free(tbuf);
		if (mail_fmt) {
			bad |= fclose(dst) != 0;
			week_name(r.since - WEEK, prev_title, sizeof prev_title);
			if (!bad)
				ret = onlist_report_mail_write(cli, &mail, title,
							       prev_title, repo, mbuf,
							       mlen, out.f);
			free(mbuf);
			if (!bad && ret != ONLIST_EXIT_OK)
				goto out;
			ret = ONLIST_EXIT_FAIL;
		}
		if (bad)
			goto nomem;
	} else {
		r.f = out.f;
		if (render(&r))
			goto nomem;
	}
	if (onlist_out_close(&out, 1, &oerr) != ONLIST_OK) {
		onlist_err("report: %s", oerr ? oerr : "cannot write");
		goto out;
	}
	ret = ONLIST_EXIT_OK;
	goto out;
nomem:
	onlist_err("report: out of memory");
out:
	/* a report that failed half-way never replaces the last good one */
	onlist_out_close(&out, 0, NULL);
	free(oerr);
	report_release(&r);
	onlist_cli_unanswered_free(r.ua);
	free(w);
	onlist_maintainers_free(cx.maint);
	free(text);
	free(repo);
	if (have_rel > 0)
		regfree(&rel);
	onlist_store_close(cx.db);
out_mail:
	onlist_report_mail_release(&mail);
	return ret;
}
