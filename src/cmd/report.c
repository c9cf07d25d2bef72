/* report.c - onlist report: what landed in a window (a week by
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
	"letter or another patch, quoted); posted, review unknown (git has a\n"
	"review tag the list lacks and the archive ends before the commit\n"
	"landed; why); reviewed commits are counted, not listed.  Commits\n"
	"posted only in another form are marked \"modified before merge\";\n"
	"review trailers in git nobody gave on the list are shown.  Then\n"
	"totals per committer and per subsystem (MAINTAINERS at HEAD, else\n"
	"the top directory), the largest never-posted share first.\n\n"
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
	[C_UNKNOWN] = "Posted, review unknown",	/* its posted rows only */
};
const char *const rp_cat_note[] = {
	[C_NOREPLY] = "Nobody but the authors (or a bot) wrote in any thread "
		"of any version.",
	[C_DISCUSSED] = "Replies from others, but no Reviewed-by, Acked-by or "
		"Tested-by from anyone but the authors, on any version.",
	[C_SERIES] = "No review tag on the patch itself; the one quoted was "
		"given to the cover letter or another patch of its series.",
	[C_UNKNOWN] = "Git carries a review tag the list does not show, and "
		"the archive ends before the commit landed: the tag may have "
		"been given on the list after that.",
};

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

double rp_pct(long k, long n)
{
	return n ? 100.0 * (double)k / (double)n : 0.0;
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
	struct onlist_report *m = NULL;
	struct onlist_report_ctx cx = { .depth = 1 };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct onlist_report_week *w = NULL;
	char *repo = NULL, *oerr = NULL, *err = NULL, title[64];
	regex_t rel;
	int have_rel = 0, nweeks = CHART_WEEKS;
	int ret = ONLIST_EXIT_FAIL, c;
	int64_t since = 0, until = 0;

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
		case OPT_MAILMAP: cx.mailmap = optarg; break;
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
		since = rp_week_start((int64_t)time(NULL)) - WEEK;
	} else if (week && parse_week(week, &since)) {
		onlist_err("report: --week wants YYYY-Www (2013-W27), not '%s'", week);
		return ONLIST_EXIT_USAGE;
	}
	if ((since_s && onlist_cli_parse_day(since_s, &since)) ||
	    (until_s && onlist_cli_parse_day(until_s, &until))) {
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
	if ((have_rel = onlist_cli_release_pattern("report", cx.db, repo, &rel)) < 0) {
		ret = ONLIST_EXIT_USAGE;
		goto out;
	}
	cx.release = have_rel > 0 ? &rel : NULL;
	if (onlist_report_ctx_load(&cx, &err) != ONLIST_OK)
		goto fail;
	/* names would silently stay unmapped: say so */
	if (!repo)
		onlist_err("%s: no repository known (give --repo): names are "
			   "not mapped through .mailmap", "report");
	if (site) {
		if (cx.latest_landing < 0) {
			onlist_err("report: no landing dates recorded; run "
				   "onlist scan first");
			goto out;
		}
		r.fmt = ONLIST_FMT_HTML;
		if (!(r.ua = onlist_cli_unanswered_load(cx.db, repo, 0, 0)))
			goto out;
		ret = rp_write_site(&cx, &r, site, nweeks, cx.latest_landing);
		goto out;
	}
	if (range) {
		if (!repo) {
			onlist_err("report: no repository scanned yet; give --repo");
			goto out;
		}
		if (onlist_report_new(&m, range) != ONLIST_OK)
			goto nomem;
		if ((ret = onlist_cli_range_report(cli, cx.db, repo, range,
						   onlist_report_keep, m)) !=
		    ONLIST_EXIT_OK || m->failed) {
			if (m->failed)
				onlist_err("report: out of memory");
			if (ret == ONLIST_EXIT_OK)
				ret = ONLIST_EXIT_FAIL;
			goto out;
		}
		ret = ONLIST_EXIT_FAIL;
	} else {
		int64_t latest = cx.latest_landing;
		if (latest < 0) {
			onlist_err("report: no landing dates recorded; run "
				   "onlist scan first");
			goto out;
		}
		if (!week && !since_s && !until_s) {
			since = rp_week_start(latest);
			week = "";
		}
		if (week) {
			until = since + WEEK;
			rp_week_name(since, title, sizeof title);
		} else {
			/* open-ended: up to the latest landing, or now */
			if (!until_s)
				until = (latest > (int64_t)time(NULL) ?
					 latest : (int64_t)time(NULL)) + 1;
			if (!since_s)
				since = 0;
			snprintf(title, sizeof title, "%s to %s",
				 since_s ? since_s : "start",
				 until_s ? until_s : "now");
		}
		if (onlist_report_new(&m, title) != ONLIST_OK)
			goto nomem;
		if (onlist_report_load_window(m, &cx, since, until, &err) != ONLIST_OK)
			goto fail;
		if (!(w = calloc((size_t)nweeks, sizeof *w)))
			goto nomem;
		if (onlist_report_week_counts(&cx, rp_week_start(until - 1) -
					      (int64_t)(nweeks - 1) * WEEK,
					      nweeks, w, &err) != ONLIST_OK)
			goto fail;
		if (onlist_report_set_weeks(m, w, nweeks) != ONLIST_OK)
			goto nomem;
	}
	if (m->windowed && !(r.ua = onlist_cli_unanswered_load(cx.db, repo,
							       since, until)))
		goto out;
	if (onlist_report_finish(m, &cx, &err) != ONLIST_OK)
		goto fail;
	r.m = m;
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
			rp_week_name(since - WEEK, prev_title, sizeof prev_title);
			if (!bad)
				ret = onlist_report_mail_write(cli, &mail, m->title,
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
fail:
	onlist_err("report: %s", err ? err : "out of memory");
	goto out;
nomem:
	onlist_err("report: out of memory");
out:
	/* a report that failed half-way never replaces the last good one */
	onlist_out_close(&out, 0, NULL);
	free(oerr);
	free(err);
	onlist_report_free(m);
	for (size_t i = 0; i < r.nrefs; i++)
		free(r.refs[i]);
	free(r.refs);
	onlist_cli_unanswered_free(r.ua);
	free(w);
	onlist_report_ctx_release(&cx);
	free(repo);
	if (have_rel > 0)
		regfree(&rel);
	onlist_store_close(cx.db);
out_mail:
	onlist_report_mail_release(&mail);
	return ret;
}
