/* path_show.c - the path a commit took (paths.h) and the extra word of a
 * verdict, as unposted, lookup, report and export show them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "onlist/paths.h"
#include "onlist/store.h"
#include "onlist/store_paths.h"
#include "onlist/store_review.h"
#include "onlist/verdict.h"

const char *onlist_cli_reason_detail(const struct onlist_verdict *v)
{
	if (v->unknown)
		return NULL;
	switch (v->reason) {
	case ONLIST_REASON_EMBARGOED:
		return v->note;
	case ONLIST_REASON_FORGE_REVIEW:
	case ONLIST_REASON_PULLED_UNANNOUNCED:
		return onlist_cli_path_via(&v->path);
	default:
		return NULL;
	}
}

const char *onlist_cli_path_via(const struct onlist_path *p)
{
	return p->request ? p->request : p->url;
}

void onlist_cli_emit_path(struct onlist_emit *e, const struct onlist_path *p)
{
	onlist_emit_kstr(e, "path", p->kind == ONLIST_PATH_UNKNOWN ? NULL :
			 onlist_path_kind_name(p->kind));
	onlist_emit_kstrs(e, "merge", p->merge_sha,
			  "pull_request", p->pull_msgid,
			  "pull_list", p->pull_list, NULL);
	onlist_emit_kstr(e, "via", p->kind == ONLIST_PATH_PULL ? p->url :
			 onlist_cli_path_via(p));
}

void onlist_cli_put_path(FILE *f, const struct onlist_path *p,
			 const char *indent)
{
	char day[32], n[24];

	switch (p->kind) {
	case ONLIST_PATH_UNKNOWN:
		return;
	case ONLIST_PATH_DIRECT:
		fprintf(f, "%spath: applied directly\n", indent);
		return;
	default:
		break;
	}
	fprintf(f, "%spath: ", indent);
	if (p->kind == ONLIST_PATH_PULL) {
		snprintf(n, sizeof n, "%lld", (long long)p->pull_date);
		onlist_fmt_date(n, day, sizeof day, 0);
		fputs("pulled in <", f);
		onlist_put_text(f, p->pull_msgid);
		fputs("> on ", f);
		onlist_put_text(f, p->pull_list ? p->pull_list : "?");
		fprintf(f, " (%s)", day);
		if (p->url) {
			fputs(" from ", f);
			onlist_put_text(f, p->url);
		}
		fputs(", then ", f);
	} else if (p->kind == ONLIST_PATH_FORGE) {
		fputs("forge ", f);
		onlist_put_text(f, onlist_cli_path_via(p));
		fputs(p->merge_sha ? ", then " : "", f);
	} else if (p->kind == ONLIST_PATH_UNANNOUNCED) {
		fputs("from ", f);
		onlist_put_text(f, p->url ? p->url : "another tree");
		fputs(", no pull request posted, then ", f);
	}
	if (p->merge_sha) {
		snprintf(n, sizeof n, "%lld", (long long)p->landed_date);
		onlist_fmt_date(n, day, sizeof day, 0);
		fprintf(f, "merged %s in %.12s ", day, p->merge_sha);
		onlist_put_text(f, p->merge_subject ? p->merge_subject : "");
	}
	fputc('\n', f);
}

/* lookup: the path of one commit and whether it matters for security:
 * from the verdict when it was never posted, else asked here (a posted
 * commit is security relevant when no review was given on the list). */
int onlist_cli_lookup_path(FILE *out, struct onlist_emit *e,
			   struct onlist_store *s, const char *sha, int posted,
			   const struct onlist_verdict *v)
{
	struct onlist_path own = { 0 };
	const struct onlist_path *p = &own;
	struct onlist_commit_review rv = ONLIST_COMMIT_REVIEW_INIT;
	char *body = NULL, *mark = NULL;
	const char *security = NULL;
	int ret = 0, looked = 1;

	if (!posted) {
		p = &v->path;
		security = v->security;
		looked = !v->unknown;
	} else if (onlist_store_paths_commit_body(s, sha, &body) != ONLIST_OK ||
		   onlist_path_of(s, sha, body, &own) != ONLIST_OK ||
		   onlist_store_review_commit(s, sha, &rv) != ONLIST_OK) {
		onlist_err("lookup: %s", onlist_store_errmsg(s));
		ret = -1;
		goto out;
	} else {
		int reviewed = rv.state && (!strcmp(rv.state, "reviewed") ||
					    !strcmp(rv.state, "reviewed_series"));

		/* no review row: match has not run since an upgrade, and
		 * nothing can be said of review; nor when it is unknown */
		if (!rv.state || !strcmp(rv.state, "unknown"))
			looked = 0;
		else if (onlist_verdict_security_posted(body, reviewed, &mark) < 0) {
			onlist_err("lookup: out of memory");
			ret = -1;
			goto out;
		}
		security = mark;
	}
	if (e) {
		onlist_emit_kstr(e, "path", p->kind == ONLIST_PATH_UNKNOWN ? NULL :
				 onlist_path_kind_name(p->kind));
		onlist_emit_kstrs(e, "merge", p->merge_sha,
				  "pull_request", p->pull_msgid,
				  "pull_list", p->pull_list, NULL);
		onlist_emit_kstr(e, "via", p->kind == ONLIST_PATH_PULL ?
				 p->url : onlist_cli_path_via(p));
		onlist_emit_key(e, "security_relevant");
		if (looked)
			onlist_emit_bool(e, security != NULL);
		else
			onlist_emit_null(e);
		onlist_emit_kstr(e, "security", security);
		goto out;
	}
	onlist_cli_put_path(out, p, "  ");
	if (looked && security) {
		fputs("  security relevant: ", out);
		onlist_put_text(out, security);
		fputs(posted ? " (posted without review)\n" : " (never posted)\n",
		      out);
	}
out:
	free(body);
	free(mark);
	onlist_commit_review_release(&rv);
	onlist_path_release(&own);
	return ret;
}

int onlist_cli_report_security(FILE *f, enum onlist_fmt fmt, size_t n,
			       int (*item)(size_t i, int print, void *data),
			       void *data)
{
	static const char title[] = "Fixes that bypassed review";
	static const char note[] = "Never posted, or posted without review, "
		"and carrying a CVE id, a Fixes: tag, a fuzzing bot's "
		"Reported-by: or a stable Cc:.";
	size_t count = 0;
	int w;

	for (size_t i = 0; i < n; i++)
		count += item(i, 0, data) > 0;
	if (!count)
		return 0;
	switch (fmt) {
	case ONLIST_FMT_HTML:
		fprintf(f, "<h2>%s (%zu)</h2>\n<p><small>%s</small></p>\n<ul>\n",
			title, count, note);
		break;
	case ONLIST_FMT_TEXT:
		w = fprintf(f, "\n%s (%zu)\n", title, count);
		for (int i = 0; i < w - 2; i++)
			fputc('-', f);
		fprintf(f, "\n\n%s\n\n", note);
		break;
	default:
		fprintf(f, "\n## %s (%zu)\n\n%s\n\n", title, count, note);
	}
	for (size_t i = 0; i < n; i++)
		item(i, 1, data);
	if (fmt == ONLIST_FMT_HTML)
		fputs("</ul>\n", f);
	/* a write error is the caller's to find when it closes the file */
	return 0;
}
