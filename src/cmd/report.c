/* cmd_report.c - onlist report: what landed in a window (a week by
 * default) that was never posted, posted and changed, or posted and never
 * answered; per committer and per subsystem; plain text, Markdown, HTML or
 * JSON. */
#include "report_int.h"

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

static char *dup0(const char *s)
{
	return s ? strdup(s) : NULL;
}

int rp_keep(const struct onlist_report_commit *c, void *data)
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
void rp_tag_summary(const char *trailers, char *buf, size_t n)
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
char *rp_url(const char *tmpl, const char *value)
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

void rp_fmt_day(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm))
		snprintf(buf, n, "?");
	else
		strftime(buf, n, "%Y-%m-%d", &tm);
}

/* ---- dates ------------------------------------------------------------- */

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

int64_t rp_week_start(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	int wd;

	gmtime_r(&tt, &tm);
	wd = tm.tm_wday ? tm.tm_wday : 7;
	return t - (t % 86400 + 86400) % 86400 - (int64_t)(wd - 1) * 86400;
}

void rp_week_name(int64_t t, char *buf, size_t n)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, n, "%G-W%V", &tm);
}


const char *const rp_cat_title[] = {
	[C_NEVER] = "Never posted",
	[C_NOREPLY] = "Posted, no reply",
	[C_DISCUSSED] = "Posted, discussed without a review tag",
	[C_SERIES] = "Reviewed only on the series",
	[C_REVIEWED] = "Reviewed on the list",
	[C_UNKNOWN] = "Not looked for",
};
/* The JSON category; the state names of review.h after never_posted. */
const char *const rp_cat_key[] = {
	[C_NEVER] = "never_posted",
	[C_NOREPLY] = "no_reply",
	[C_DISCUSSED] = "discussed",
	[C_SERIES] = "reviewed_series",
	[C_REVIEWED] = "reviewed",
	[C_UNKNOWN] = "unknown",
};
const char *const rp_cat_note[] = {
	[C_NOREPLY] = "Nobody but the authors (or a bot) wrote in any thread "
		"of any version.",
	[C_DISCUSSED] = "Replies from others, but no Reviewed-by, Acked-by or "
		"Tested-by from anyone but the authors, on any version.",
	[C_SERIES] = "No review tag on the patch itself; the one quoted was "
		"given to the cover letter or another patch of its series.",
};

long rp_count_modified(const struct report *r)
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
char *rp_evidence(const struct onlist_commit_review *rv)
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

long rp_count_cat(const struct report *r, enum cat c)
{
	long n = 0;

	for (size_t i = 0; i < r->rows.n; i++)
		n += r->rows.v[i].cat == c;
	return n;
}

double rp_pct(long k, long n)
{
	return n ? 100.0 * (double)k / (double)n : 0.0;
}

/* ---- loading and classifying ------------------------------------------ */


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
int rp_prepare(const struct ctx *cx, struct report *r)
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
int rp_week_counts(const struct ctx *cx, int64_t since, int nweeks,
		       struct wk *w)
{
	struct rows rows = { 0 };
	int ret = -1;

	memset(w, 0, (size_t)nweeks * sizeof *w);
	if (onlist_store_report_window(cx->db, since, since + (int64_t)nweeks * WEEK,
				       rp_keep, &rows) != ONLIST_OK) {
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
void rp_report_release(struct report *r)
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
		r.since = rp_week_start((int64_t)time(NULL)) - WEEK;
	} else if (week && parse_week(week, &r.since)) {
		onlist_err("report: --week wants YYYY-Www (2013-W27), not '%s'", week);
		return ONLIST_EXIT_USAGE;
	}
	if ((since_s && onlist_cli_parse_day(since_s, &r.since)) ||
	    (until_s && onlist_cli_parse_day(until_s, &r.until))) {
		onlist_err("report: dates are YYYY-MM-DD");
		return ONLIST_EXIT_USAGE;
	}
	if (!(cx.db = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(cx.db, "repo");
	cx.repo = repo;
	rp_default_links(&r, repo);
	if (rp_link_ok("--commit-url (or onlist.commitUrl)", r.commit_url) ||
	    rp_link_ok("--posting-url (or onlist.postingUrl)", r.posting_url)) {
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
		ret = rp_write_site(&cx, &r, site, nweeks, r.latest_landing);
		goto out;
	}
	if (range) {
		if (!repo) {
			onlist_err("report: no repository scanned yet; give --repo");
			goto out;
		}
		if ((ret = onlist_cli_range_report(cli, cx.db, repo, range, rp_keep,
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
			r.since = rp_week_start(latest);
			week = "";
		}
		if (week) {
			r.until = r.since + WEEK;
			rp_week_name(r.since, title, sizeof title);
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
		if (onlist_store_report_window(cx.db, r.since, r.until, rp_keep, &r.rows)
		    != ONLIST_OK) {
			onlist_err("report: %s", onlist_store_errmsg(cx.db));
			goto out;
		}
		if (!(w = calloc((size_t)nweeks, sizeof *w)))
			goto nomem;
		r.wk = w;
		r.nwk = nweeks;
		r.wk_since = rp_week_start(r.until - 1) - (int64_t)(nweeks - 1) * WEEK;
		if (rp_week_counts(&cx, r.wk_since, nweeks, w))
			goto out;
	}
	if (r.windowed && !(r.ua = onlist_cli_unanswered_load(cx.db, repo,
							       r.since, r.until)))
		goto out;
	if (r.rows.failed || rp_prepare(&cx, &r))
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
			bad = rp_render(&r) | (fclose(r.f) != 0);
		if (!bad)
			rp_wrap_text(dst, tbuf, tlen);
		free(tbuf);
		if (mail_fmt) {
			bad |= fclose(dst) != 0;
			rp_week_name(r.since - WEEK, prev_title, sizeof prev_title);
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
		if (rp_render(&r))
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
	rp_report_release(&r);
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
