/* unposted.c - onlist unposted: the scanned commits that match no posting. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>

#include "cli.h"
#include "onlist/repo.h"
#include "onlist/store.h"
#include "onlist/patchfp.h"
#include "onlist/patchid.h"
#include "onlist/mail.h"
#include "onlist/store_thread.h"
#include "onlist/verdict.h"

static const char unposted_help[] =
	"usage: onlist [--db PATH] unposted [--repo PATH] [--reason R] [--security]\n"
	"                                   [--include-unknown]\n"
	"                                   [--format text|json | --json] [RANGE]\n\n"
	"List the scanned commits that match no posting, oldest first.  With a\n"
	"RANGE, only the commits of that range (asked of git, in the repository\n"
	"last scanned or --repo), in git's order (`git rev-list --reverse`).\n"
	"A commit the scan could not diff (an object missing from the\n"
	"repository) has no patch-id, so only the other tiers can match it: it\n"
	"is marked [not diffed] (`onlist skipped --commits` says why).\n\n"
	"Each never-posted commit comes with a reason: release (a version bump:\n"
	"its subject, onlist.releasePattern, or a diff of version files and\n"
	"changelogs only), revert (of a commit that was posted), translation\n"
	"(only translation files), near_miss (a mail with its subject but no\n"
	"patch, named), pulled (in a merge answering a pull request posted to\n"
	"a list, named), forge_review (a GitHub/GitLab request or a fork),\n"
	"pulled_unannounced (a merge of another tree, no pull request posted),\n"
	"embargoed (an `embargo` rules line, with its text), no_trace.  A\n"
	"commit carrying a CVE id, Fixes:, a fuzzing bot's Reported-by: or a\n"
	"stable Cc: is security relevant.  A commit that landed after the archive's\n"
	"last message (plus a day) or before its first was not looked for: it\n"
	"is unknown, counted at the end and not listed; so is one a server\n"
	"searched by lookup or match --remote could not be asked every tier.\n\n"
	"  --reason R         only the never-posted commits with reason R\n"
	"  --security         only the security-relevant ones\n"
	"  --include-unknown  list the unknown commits too, after the others\n"
	"  text: one line per commit: short sha, commit date, author, subject,\n"
	"        [not diffed], (reason[: message-id, tree, request or text])\n"
	"        and [security: MARK]\n"
	"  json: an array of {commit, subject, author, email, date, not_diffed,\n"
	"        category (never_posted or unknown), reason, why (unknown:\n"
	"        why), message_id, reverted, note, path, merge, pull_list, via,\n"
	"        security_relevant, security} (not_diffed: git's reason, or\n"
	"        null)\n";

struct unposted {
	struct onlist_cli_rows rows;
	struct onlist_store *s;
	struct onlist_span span;
	const regex_t *release;
	int include_unknown;
	int only;			/* a reason, or -1 */
	int security;			/* --security */
	long unknown;			/* unknown commits seen */
	long unknown_remote;		/* of these, unknown for a server's
					 * reason (verdict why) */
	long unscanned;			/* commits of the range not in the
					 * database */
	GPtrArray *later;		/* unknown rows, printed after the rest */
	GPtrArray *later_why;		/* and their verdicts' whys (or NULL) */
	struct onlist_verdict v;	/* of the row being printed */
	onlist_status st;
};

/* Why a commit outside a server's word is unknown: the archive's span. */
static void span_why(const struct unposted *u, const char *who, char *buf,
		     size_t size)
{
	char a[24], b[24], first[32], last[32];

	snprintf(a, sizeof(a), "%lld", (long long)u->span.first);
	snprintf(b, sizeof(b), "%lld", (long long)u->span.last);
	onlist_fmt_date(a, first, sizeof(first), 0);
	onlist_fmt_date(b, last, sizeof(last), 0);
	if (!u->span.last)
		snprintf(buf, size, "the database holds no messages");
	else
		snprintf(buf, size, "%s landed outside the archive (%s..%s)",
			 who, first, last);
}

/* One row, judged already (u->v); 1 to stop. */
static int print_unposted(struct unposted *u,
			  const struct onlist_unposted_row *r)
{
	struct onlist_cli_rows *o = &u->rows;
	char date[32], short_sha[13], why[128];
	const char *reason = u->v.unknown ? NULL : onlist_reason_name(u->v.reason);

	if (onlist_cli_row(o))
		return 1;
	if (u->v.unknown && !u->v.why)
		span_why(u, "it", why, sizeof(why));
	if (o->json) {
		onlist_fmt_date(r->date, date, sizeof(date), 1);
		onlist_emit_begin_map(o->e, 0);
		onlist_emit_kstrs(o->e, "commit", r->sha,
				  "subject", r->subject,
				  "author", r->author_name,
				  "email", r->author_email,
				  "date", date,
				  "not_diffed", r->not_diffed, NULL);
		onlist_emit_kstr(o->e, "category",
				 u->v.unknown ? "unknown" : "never_posted");
		onlist_emit_kstr(o->e, "reason", reason);
		onlist_emit_kstr(o->e, "why", !u->v.unknown ? NULL :
				 u->v.why ? u->v.why : why);
		onlist_emit_kstrs(o->e, "message_id", u->v.msgid,
				  "reverted", u->v.reverted,
				  "note", u->v.note, NULL);
		onlist_cli_emit_path(o->e, &u->v.path);
		if (u->v.unknown) {
			onlist_emit_key(o->e, "security_relevant");
			onlist_emit_null(o->e);
		} else {
			onlist_emit_kbool(o->e, "security_relevant",
					  u->v.security != NULL);
		}
		onlist_emit_kstr(o->e, "security", u->v.security);
		onlist_emit_end(o->e);
	} else {
		onlist_fmt_date(r->date, date, sizeof(date), 0);
		snprintf(short_sha, sizeof(short_sha), "%s", r->sha ? r->sha : "");
		onlist_put_text(o->f, short_sha);
		fprintf(o->f, " %s ", date);
		onlist_put_text(o->f, r->author_name ? r->author_name : "?");
		fputs(": ", o->f);
		onlist_put_text(o->f, r->subject);
		if (r->not_diffed)
			fputs(" [not diffed]", o->f);
		if (reason) {
			const char *what = onlist_cli_reason_detail(&u->v);

			fprintf(o->f, " (%s", reason);
			if (u->v.msgid) {
				fputs(": <", o->f);
				onlist_put_text(o->f, u->v.msgid);
				fputc('>', o->f);
			} else if (what) {
				fputs(": ", o->f);
				onlist_put_text(o->f, what);
			}
			fputc(')', o->f);
		} else if (u->v.why) {
			fputs(" (unknown: ", o->f);
			onlist_put_text(o->f, u->v.why);
			fputc(')', o->f);
		}
		if (!u->v.unknown && u->v.security) {
			fputs(" [security: ", o->f);
			onlist_put_text(o->f, u->v.security);
			fputc(']', o->f);
		}
		fputc('\n', o->f);
	}
	return 0;
}

/* One unposted commit: its verdict, then printed, held back for the end
 * (unknown in text), or left out. */
static int unposted_row(const struct onlist_unposted_row *r, void *data)
{
	struct unposted *u = data;

	onlist_verdict_release(&u->v);
	if ((u->st = onlist_verdict_unposted(u->s, &u->span, u->release,
					     r->sha, r->subject, r->body,
					     r->files, r->landed,
					     &u->v)) != ONLIST_OK)
		return 1;
	if (u->v.unknown) {
		u->unknown++;
		u->unknown_remote += u->v.why != NULL;
		if (!u->include_unknown || u->only >= 0 || u->security)
			return 0;
		if (!u->rows.json) {	/* apart, after the others */
			g_ptr_array_add(u->later, g_strdup(r->sha));
			g_ptr_array_add(u->later_why, g_strdup(u->v.why));
			return 0;
		}
	} else if ((u->only >= 0 && (int)u->v.reason != u->only) ||
		   (u->security && !u->v.security)) {
		return 0;
	}
	return print_unposted(u, r);
}

/* A held-back unknown commit, its verdict set by print_later(). */
static int later_row(const struct onlist_unposted_row *r, void *data)
{
	return print_unposted(data, r);
}

/* For onlist_cli_range(): print the commit when it has no posting. */
static onlist_status unposted_one(struct onlist_store *s, const char *sha,
				  void *data)
{
	struct unposted *u = data;
	onlist_status st;

	switch (onlist_store_has_commit(s, sha)) {
	case 1:
		break;
	case 0:
		u->unscanned++;
		return ONLIST_ENOTFOUND;
	default:	/* a failed query is not "not scanned" */
		return ONLIST_EDB;
	}
	st = onlist_store_unposted_commit(s, sha, unposted_row, u);
	return u->st != ONLIST_OK ? u->st : st;
}

/* The unknown commits, in text, after the never-posted ones. */
static void print_later(struct unposted *u)
{
	char why[128];

	if (!u->unknown || u->rows.json)
		return;
	span_why(u, "they", why, sizeof(why));
	if (u->unknown > u->unknown_remote)
		fprintf(u->rows.f, "\n%ld commits not looked for: %s",
			u->unknown - u->unknown_remote, why);
	/* a server was asked about these, and could not answer all */
	if (u->unknown_remote)
		fprintf(u->rows.f, "%s%ld commits unknown: a server could not "
			"be asked every tier (lookup --remote)",
			u->unknown > u->unknown_remote ? ";\n" : "\n",
			u->unknown_remote);
	if (!u->include_unknown || u->only >= 0 || u->security) {
		fputs("; --include-unknown lists them\n", u->rows.f);
		return;
	}
	fputs(":\n", u->rows.f);
	onlist_verdict_release(&u->v);
	u->v.unknown = 1;
	for (guint i = 0; i < u->later->len; i++) {
		u->v.why = g_ptr_array_index(u->later_why, i);
		onlist_store_unposted_commit(u->s, g_ptr_array_index(u->later, i),
					     later_row, u);
	}
	u->v.why = NULL;	/* later_why's */
}

int cmd_unposted(struct onlist_cli *cli, int argc, char **argv)
{
	enum { OPT_REPO = ONLIST_OPT_FIRST_LONG, OPT_REASON, OPT_UNKNOWN,
	       OPT_SECURITY };
	static const struct option opts[] = {
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "reason", required_argument, NULL, OPT_REASON },
		{ "include-unknown", no_argument, NULL, OPT_UNKNOWN },
		{ "security", no_argument, NULL, OPT_SECURITY },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_store *s;
	struct unposted u = { .only = -1 };
	regex_t rel;
	int have_rel = 0;
	char *repo = NULL;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	const char *range = NULL, *repo_opt = NULL;
	int c, ret = ONLIST_EXIT_OK;

	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts,
				      unposted_help)) != -1) {
		switch (c) {
		case OPT_REPO:
			repo_opt = optarg;
			break;
		case OPT_REASON: {
			enum onlist_reason r;

			if (onlist_reason_parse(optarg, &r)) {
				onlist_err("unposted: --reason: no reason '%s' "
					   "(release, revert, translation, "
					   "near_miss, pulled, pulled_unannounced, "
					   "forge_review, embargoed, no_trace)",
					   optarg);
				return ONLIST_EXIT_USAGE;
			}
			u.only = (int)r;
			break;
		}
		case OPT_UNKNOWN:
			u.include_unknown = 1;
			break;
		case OPT_SECURITY:
			u.security = 1;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	if (optind < argc)
		range = argv[optind++];
	if (optind < argc) {
		onlist_err("unposted: one range only ('%s' and '%s')", range,
			   argv[optind]);
		return ONLIST_EXIT_USAGE;
	}
	if (!(s = onlist_cli_open_store_read(cli)))
		return ONLIST_EXIT_FAIL;
	u.s = s;
	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(s, "repo");
	if ((have_rel = onlist_cli_release_pattern("unposted", s, repo, &rel)) < 0) {
		free(repo);
		onlist_store_close(s);
		return ONLIST_EXIT_USAGE;
	}
	u.release = have_rel ? &rel : NULL;
	if (onlist_span_get(s, &u.span) != ONLIST_OK) {
		onlist_err("unposted: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	u.later = g_ptr_array_new_with_free_func(g_free);
	u.later_why = g_ptr_array_new_with_free_func(g_free);
	onlist_cli_rows_open(&u.rows, fmt);
	if (!range) {
		if (onlist_store_unposted(s, unposted_row, &u) != ONLIST_OK ||
		    u.st != ONLIST_OK) {
			onlist_err("unposted: %s", onlist_store_errmsg(s));
			ret = ONLIST_EXIT_FAIL;
		}
	} else {
		ret = onlist_cli_range(cli, s, repo_opt, range, unposted_one, &u);
	}
	if (ret == ONLIST_EXIT_OK)
		print_later(&u);
	/* said; the list is not the whole answer, in any format */
	if (ret == ONLIST_EXIT_OK && u.unscanned)
		ret = ONLIST_EXIT_FAIL;
	onlist_verdict_release(&u.v);
	g_ptr_array_free(u.later, TRUE);
	g_ptr_array_free(u.later_why, TRUE);
	ret = onlist_cli_rows_close(cli, &u.rows, ret);
out:
	if (have_rel > 0)
		regfree(&rel);
	free(repo);
	onlist_store_close(s);
	return ret;
}
