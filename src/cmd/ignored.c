/* ignored.c - onlist ignored: the series posted that nobody answered and
 * nobody applied (ignored.h decides). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <glib.h>

#include "cli.h"
#include "onlist/git.h"
#include "onlist/ignored.h"
#include "onlist/store.h"

static const char ignored_help[] =
	"usage: onlist [--db PATH] ignored [--age N[d|w]] [--list NAME]\n"
	"                  [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--sender TEXT]\n"
	"                  [--paths PATH[,PATH...]] [--state STATE]\n"
	"                  [--format text|json|csv | --json]\n\n"
	"The patch series posted to the imported lists that nobody answered and\n"
	"nobody applied, oldest first, one row per topic (its versions, shown as\n"
	"the latest): no commit of the scanned history matches any version (any\n"
	"tier, links too), nobody but its authors and bots answered any version\n"
	"(an applied notice is an answer: someone took it), it touches a file of\n"
	"the scanned repository, and its latest version was posted at least the\n"
	"age before the line, the earlier of the newest scanned commit and the\n"
	"newest mail, and after the oldest scanned commit.  Run `onlist match`\n"
	"first: its threads, echo/bot classes and matches are what is judged.\n\n"
	"  --age N[d|w]    how long a series waits before it is judged (default\n"
	"                  4w; a bare number is weeks)\n"
	"  --list NAME     only series posted to that list\n"
	"  --since, --until  only series whose latest version was posted then\n"
	"  --sender TEXT   only series a sender of which has TEXT in name or address\n"
	"  --paths P,...   only series touching a file under one of these folders\n"
	"  --state STATE   list the series in another state instead: applied,\n"
	"                  answered, notice_only, superseded, other_project,\n"
	"                  too_recent, unknown_before, unknown_after, or all\n"
	"  text: one line per series: date, list, sender, subject, versions,\n"
	"        <message-id>; then the counts and the dates judged\n"
	"  json: {scope, counts, series: [...]} (docs/schema.md)\n"
	"  csv:  a header line, then one line per series (RFC 4180)\n";

struct row {
	enum onlist_ignored_state state;
	int64_t date;
	char *list, *name, *addr, *subject, *msgid, *link, *reply, *commit;
	int versions[16], nversions;
	long series, patches;
};

struct ign {
	const char *list, *sender;
	int64_t since, until;		/* 0: open */
	int state;			/* the state listed; -1: all */
	const char *url;		/* the posting link's template */
	long counts[ONLIST_IGN_NSTATES];
	GPtrArray *rows;
};

static int matches_sender(const struct onlist_ignored_msg *m, const char *t)
{
	return strcasestr(m->from, t) || strcasestr(m->from_name, t);
}

/* A posting's link: the template with the Message-ID percent-encoded
 * where it says %s. */
static char *link_of(const char *tmpl, const char *msgid)
{
	const char *at = strstr(tmpl, "%s");
	GString *g;

	if (!at)
		return g_strdup(tmpl);
	g = g_string_new_len(tmpl, at - tmpl);
	g_string_append_uri_escaped(g, msgid, "@+=$!", FALSE);
	g_string_append(g, at + 2);
	return g_string_free(g, FALSE);
}

static int topic_row(const struct onlist_ignored_msg *msgs, size_t n,
		     const struct onlist_ignored_reply *replies, size_t nr,
		     const struct onlist_ignored_out *out, void *data)
{
	struct ign *x = data;
	const struct onlist_ignored_msg *h = &msgs[out->head];
	struct row *r;
	int ok;

	(void)nr;
	if (x->since && out->date < x->since)
		return 0;
	if (x->until && out->date >= x->until)
		return 0;
	ok = !x->list && !x->sender;
	for (size_t i = 0; i < n && !ok; i++)
		ok = (!x->list || !strcmp(msgs[i].list, x->list)) &&
		     (!x->sender || matches_sender(&msgs[i], x->sender));
	if (!ok)
		return 0;
	x->counts[out->state]++;
	if (x->state >= 0 && (int)out->state != x->state)
		return 0;
	r = g_new0(struct row, 1);
	r->state = out->state;
	r->date = out->date;
	r->list = g_strdup(h->list);
	r->name = g_strdup(h->from_name);
	r->addr = g_strdup(h->from);
	r->subject = g_strdup(h->subject);
	r->msgid = g_strdup(h->msgid);
	r->link = link_of(x->url, h->msgid);
	r->reply = out->reply >= 0 ? g_strdup(replies[out->reply].msgid) : NULL;
	r->commit = out->msg >= 0 ? g_strdup(msgs[out->msg].commit) : NULL;
	memcpy(r->versions, out->versions, sizeof(r->versions));
	r->nversions = out->nversions;
	r->series = out->series;
	r->patches = out->patches;
	g_ptr_array_add(x->rows, r);
	return 0;
}

static void row_free(gpointer p)
{
	struct row *r = p;

	g_free(r->list);
	g_free(r->name);
	g_free(r->addr);
	g_free(r->subject);
	g_free(r->msgid);
	g_free(r->link);
	g_free(r->reply);
	g_free(r->commit);
	g_free(r);
}

static gint by_date(gconstpointer a, gconstpointer b)
{
	const struct row *x = *(struct row *const *)a, *y = *(struct row *const *)b;

	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return strcmp(x->msgid, y->msgid);
}

static void day(int64_t t, char *buf, size_t n, int with_time)
{
	char s[24];

	if (!t) {
		snprintf(buf, n, "%s", "?");
		return;
	}
	snprintf(s, sizeof(s), "%lld", (long long)t);
	onlist_fmt_date(s, buf, n, with_time);
}

static void versions_text(const struct row *r, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < r->nversions && len < n; i++)
		len += (size_t)snprintf(buf + len, n - len, "%sv%d", i ? "," : "",
					r->versions[i]);
}

static void print_text(FILE *f, const struct ign *x,
		       const struct onlist_ignored_ctx *ctx)
{
	char d[32], a[32], b[32], c[32], line[32], v[128];
	long unknown = x->counts[ONLIST_IGN_BEFORE] + x->counts[ONLIST_IGN_AFTER];

	for (guint i = 0; i < x->rows->len; i++) {
		const struct row *r = g_ptr_array_index(x->rows, i);

		day(r->date, d, sizeof(d), 0);
		versions_text(r, v, sizeof(v));
		fprintf(f, "%s ", d);
		onlist_put_text(f, r->list);
		fputc(' ', f);
		onlist_put_text(f, *r->name ? r->name : r->addr);
		fputs(": ", f);
		onlist_put_text(f, r->subject);
		fprintf(f, " (%s", v);
		if (x->state != ONLIST_IGN_IGNORED)
			fprintf(f, ", %s", onlist_ignored_state_name(r->state));
		fputs(") <", f);
		onlist_put_text(f, r->msgid);
		fputs(">\n", f);
	}
	day(ctx->scope.first_commit, a, sizeof(a), 0);
	day(ctx->scope.last_commit, b, sizeof(b), 0);
	day(ctx->scope.last_mail, c, sizeof(c), 0);
	day(onlist_ignored_line(&ctx->scope), line, sizeof(line), 0);
	fprintf(f, "\n%ld ignored; also %ld applied, %ld answered, %ld answered "
		"only by an applied notice, %ld superseded by a later version, "
		"%ld another project's, %ld too recent, %ld unknown (posted "
		"outside the scanned history)\n",
		x->counts[ONLIST_IGN_IGNORED], x->counts[ONLIST_IGN_APPLIED],
		x->counts[ONLIST_IGN_ANSWERED], x->counts[ONLIST_IGN_NOTICE],
		x->counts[ONLIST_IGN_SUPERSEDED], x->counts[ONLIST_IGN_OTHER],
		x->counts[ONLIST_IGN_RECENT], unknown);
	fprintf(f, "judged: series posted %s..%s; %ld commits dated %s..%s",
		a, line, ctx->commits, a, b);
	if (ctx->repo) {
		fputs(" of ", f);
		onlist_put_text(f, ctx->repo);
	}
	fprintf(f, ", newest mail %s\n", c);
}

static void emit_json(struct onlist_emit *e, const struct ign *x,
		      const struct onlist_ignored_ctx *ctx)
{
	char a[32], b[32], c[32], line[32], d[32];

	day(ctx->scope.first_commit, a, sizeof(a), 1);
	day(ctx->scope.last_commit, b, sizeof(b), 1);
	day(ctx->scope.last_mail, c, sizeof(c), 1);
	day(onlist_ignored_line(&ctx->scope), line, sizeof(line), 1);
	onlist_emit_begin_map(e, ONLIST_EMIT_LINES);
	onlist_emit_key(e, "scope");
	onlist_emit_begin_map(e, 0);
	onlist_emit_kstr(e, "repository", ctx->repo);
	onlist_emit_kint(e, "commits", ctx->commits);
	onlist_emit_kstrs(e, "first_commit", ctx->scope.first_commit ? a : NULL,
			  "last_commit", ctx->scope.last_commit ? b : NULL,
			  "last_mail", ctx->scope.last_mail ? c : NULL, NULL);
	onlist_emit_kint(e, "age_days", ctx->scope.age / 86400);
	onlist_emit_kstr(e, "line", onlist_ignored_line(&ctx->scope) ? line : NULL);
	onlist_emit_end(e);
	onlist_emit_key(e, "counts");
	onlist_emit_begin_map(e, 0);
	for (int i = 0; i < ONLIST_IGN_NSTATES; i++)
		onlist_emit_kint(e, onlist_ignored_state_name(i), x->counts[i]);
	onlist_emit_end(e);
	onlist_emit_key(e, "series");
	onlist_emit_begin_list(e, ONLIST_EMIT_LINES);
	for (guint i = 0; i < x->rows->len; i++) {
		const struct row *r = g_ptr_array_index(x->rows, i);

		day(r->date, d, sizeof(d), 1);
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "state", onlist_ignored_state_name(r->state),
				  "date", d,
				  "list", r->list,
				  "name", r->name,
				  "address", r->addr,
				  "subject", r->subject, NULL);
		onlist_emit_key(e, "versions");
		onlist_emit_begin_list(e, 0);
		for (int k = 0; k < r->nversions; k++)
			onlist_emit_int(e, r->versions[k]);
		onlist_emit_end(e);
		onlist_emit_kint(e, "series", r->series);
		onlist_emit_kint(e, "patches", r->patches);
		onlist_emit_kstrs(e, "message_id", r->msgid,
				  "link", r->link,
				  "reply", r->reply,
				  "commit", r->commit, NULL);
		onlist_emit_end(e);
	}
	onlist_emit_end(e);
	onlist_emit_end(e);
}

static void print_csv(FILE *f, const struct ign *x)
{
	char d[32], v[128], num[48];

	fputs("state,date,list,name,address,subject,versions,series,patches,"
	      "message_id,link,reply,commit\r\n", f);
	for (guint i = 0; i < x->rows->len; i++) {
		const struct row *r = g_ptr_array_index(x->rows, i);
		const char *vals[] = { onlist_ignored_state_name(r->state), d,
			r->list, r->name, r->addr, r->subject, v };

		day(r->date, d, sizeof(d), 1);
		versions_text(r, v, sizeof(v));
		for (size_t k = 0; k < G_N_ELEMENTS(vals); k++) {
			onlist_put_csv(f, vals[k]);
			fputc(',', f);
		}
		snprintf(num, sizeof(num), "%ld,%ld,", r->series, r->patches);
		fputs(num, f);
		onlist_put_csv(f, r->msgid);
		fputc(',', f);
		onlist_put_csv(f, r->link);
		fputc(',', f);
		if (r->reply)
			onlist_put_csv(f, r->reply);
		fputc(',', f);
		if (r->commit)
			onlist_put_csv(f, r->commit);
		fputs("\r\n", f);
	}
}

/* ---- lookup MESSAGE-ID -------------------------------------------------- */

int onlist_cli_is_posting_arg(const char *arg)
{
	const char *at = strchr(arg, '@');

	if (!strncmp(arg, "https://", 8) || !strncmp(arg, "http://", 7))
		return 1;
	/* not a git name: HEAD@{1}, @~2, main@{upstream} */
	return at && at > arg && at[1] && !strpbrk(arg, "{}~^:");
}

/* The Message-ID an argument names: <id>, id, or a public-inbox URL
 * (https://lore.kernel.org/LIST/ID/, .../ID/T/, .../r/ID).  malloc'd, or
 * NULL when a URL holds none. */
static char *posting_msgid(const char *arg)
{
	char *id, *v;

	if (!strncmp(arg, "https://", 8) || !strncmp(arg, "http://", 7)) {
		const char *p = strchr(arg + 8, '/');	/* after the host */
		char **parts;

		if (!p)
			return NULL;
		parts = g_strsplit(p + 1, "/", -1);
		id = NULL;
		/* the first segment after the inbox's that holds an '@' */
		for (char **q = parts; *q && *q[0] && !id; q++) {
			char *u = q == parts ? NULL :
				  g_uri_unescape_string(*q, NULL);

			if (u && strchr(u, '@'))
				id = u;
			else
				g_free(u);
		}
		g_strfreev(parts);
	} else {
		id = g_strdup(arg);
	}
	if (!id)
		return NULL;
	v = id + (*id == '<');
	v[strcspn(v, ">")] = 0;
	v = strdup(v);
	g_free(id);
	return v;
}

struct one {
	FILE *f;
	struct onlist_emit *e;	/* JSON; NULL: text */
	int json;
	const char *msgid, *url;
	const struct onlist_ignored_ctx *ctx;
	int state;			/* -1: not judged */
};

static int one_row(const struct onlist_ignored_msg *msgs, size_t n,
		   const struct onlist_ignored_reply *replies, size_t nr,
		   const struct onlist_ignored_out *out, void *data)
{
	struct one *o = data;
	const struct onlist_ignored_msg *h = &msgs[out->head];
	const struct onlist_ignored_reply *r = out->reply >= 0 ?
		&replies[out->reply] : NULL;
	const char *commit = out->msg >= 0 ? msgs[out->msg].commit : NULL;
	char d[32], rd[32], a[32], b[32], v[128];
	struct row vr;

	(void)n;
	(void)nr;
	o->state = out->state;
	vr.nversions = out->nversions;
	memcpy(vr.versions, out->versions, sizeof(vr.versions));
	versions_text(&vr, v, sizeof(v));
	day(out->date, d, sizeof(d), o->json);
	day(r ? r->date : 0, rd, sizeof(rd), o->json);
	day(o->ctx->scope.first_commit, a, sizeof(a), o->json);
	day(o->ctx->scope.last_commit, b, sizeof(b), o->json);
	if (o->json) {
		struct onlist_emit *e = o->e;
		char *link = link_of(o->url, h->msgid);

		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "message_id", o->msgid,
				  "state", onlist_ignored_state_name(out->state),
				  "commit", commit,
				  "reply", r ? r->msgid : NULL,
				  "reply_from", r ? r->from : NULL,
				  "series", h->msgid,
				  "subject", h->subject,
				  "date", d, NULL);
		onlist_emit_key(e, "versions");
		onlist_emit_begin_list(e, 0);
		for (int k = 0; k < out->nversions; k++)
			onlist_emit_int(e, out->versions[k]);
		onlist_emit_end(e);
		onlist_emit_kstr(e, "link", link);
		onlist_emit_end(e);
		g_free(link);
		return 0;
	}
	fputc('<', o->f);
	onlist_put_text(o->f, o->msgid);
	fprintf(o->f, ">: %s", onlist_ignored_state_name(out->state));
	switch (out->state) {
	case ONLIST_IGN_APPLIED:
		fputs(": commit ", o->f);
		onlist_put_text(o->f, commit);
		break;
	case ONLIST_IGN_ANSWERED:
	case ONLIST_IGN_NOTICE:
		fputs(out->state == ONLIST_IGN_NOTICE ?
		      ": only an applied notice, and no scanned commit has it: " :
		      ": by ", o->f);
		onlist_put_text(o->f, *r->from_name ? r->from_name : r->from);
		fprintf(o->f, " on %s <", rd);
		onlist_put_text(o->f, r->msgid);
		fputc('>', o->f);
		break;
	case ONLIST_IGN_OTHER:
		fputs(": touches no file of the scanned repository", o->f);
		break;
	case ONLIST_IGN_BEFORE:
	case ONLIST_IGN_AFTER:
		fprintf(o->f, ": posted outside the scanned history (%s..%s)",
			a, b);
		break;
	case ONLIST_IGN_SUPERSEDED:
		fputs(": unanswered, but a later series of its sender, "
		      "changing the same files under much the same subject, "
		      "was applied or answered", o->f);
		break;
	case ONLIST_IGN_RECENT:
		fputs(": posted less than the age before the newest commit "
		      "and mail", o->f);
		break;
	default:
		fputs(": nobody but its authors and bots answered any "
		      "version, and no scanned commit has one", o->f);
		break;
	}
	fprintf(o->f, "\n  series %s, %s: ", v, d);
	onlist_put_text(o->f, h->subject);
	fputs(" <", o->f);
	onlist_put_text(o->f, h->msgid);
	fputs(">\n", o->f);
	return 0;
}

int onlist_cli_lookup_posting(struct onlist_cli *cli, struct onlist_store *s,
			      FILE *f, const char *arg, struct onlist_emit *e)
{
	struct onlist_ignored_ctx ctx;
	struct one o = { f, e, e != NULL, NULL, NULL, NULL, -1 };
	char *msgid = posting_msgid(arg), *url = NULL;
	onlist_status st;
	int ret;

	(void)cli;
	if (!msgid) {
		onlist_err("lookup: %s: no Message-ID in this URL", arg);
		return ONLIST_EXIT_FAIL;
	}
	if ((st = onlist_ignored_ctx_init(&ctx, s, NULL, 0, -1)) != ONLIST_OK)
		goto fail;
	url = onlist_git_config(ctx.repo, "onlist.postingUrl");
	o.url = url ? url : "https://lore.kernel.org/r/%s";
	o.msgid = msgid;
	o.ctx = &ctx;
	st = onlist_ignored_run(&ctx, s, msgid, one_row, &o);
	if (st == ONLIST_ENOTFOUND) {
		onlist_err("lookup: <%s>: no patch, cover letter or reply to "
			   "one by that Message-ID in the database", msgid);
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (st != ONLIST_OK)
		goto fail;
	/* what lookup says of a commit: never posted is 1, unknown 3 */
	ret = o.state == ONLIST_IGN_IGNORED ? ONLIST_EXIT_FAIL :
	      o.state == ONLIST_IGN_BEFORE || o.state == ONLIST_IGN_AFTER ||
	      o.state == ONLIST_IGN_RECENT ? ONLIST_EXIT_UNKNOWN : ONLIST_EXIT_OK;
	goto out;
fail:
	onlist_err("lookup: %s", st == ONLIST_EDB ? onlist_store_errmsg(s) :
		   onlist_status_str(st));
	ret = -1;
out:
	onlist_ignored_ctx_release(&ctx);
	free(url);
	free(msgid);
	return ret;
}

/* ---- status: what the judgement uses ----------------------------------- */

int onlist_cli_ignored_status(struct onlist_store *s, FILE *f,
			      struct onlist_emit *e)
{
	struct onlist_ignored_ctx ctx;
	char a[32], b[32], c[32], line[32];
	int json = e != NULL;
	onlist_status st = onlist_ignored_ctx_init(&ctx, s, NULL, 0, -1);

	if (st != ONLIST_OK) {
		onlist_err("status: %s", st == ONLIST_EDB ?
			   onlist_store_errmsg(s) : onlist_status_str(st));
		onlist_ignored_ctx_release(&ctx);
		return -1;
	}
	day(ctx.scope.first_commit, a, sizeof(a), json);
	day(ctx.scope.last_commit, b, sizeof(b), json);
	day(ctx.scope.last_mail, c, sizeof(c), json);
	day(onlist_ignored_line(&ctx.scope), line, sizeof(line), json);
	if (json) {
		onlist_emit_key(e, "ignored_scope");
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstr(e, "repository", ctx.repo);
		onlist_emit_kint(e, "commits", ctx.commits);
		onlist_emit_kint(e, "paths", ctx.paths);
		onlist_emit_kstrs(e, "first_commit", ctx.scope.first_commit ? a : NULL,
				  "last_commit", ctx.scope.last_commit ? b : NULL,
				  "last_mail", ctx.scope.last_mail ? c : NULL, NULL);
		onlist_emit_kint(e, "age_days", ctx.scope.age / 86400);
		onlist_emit_kstr(e, "line", onlist_ignored_line(&ctx.scope) ?
				 line : NULL);
		onlist_emit_end(e);
	} else if (!ctx.commits) {
		fputs("ignored:  nothing judged yet: no commit scanned\n", f);
	} else {
		fputs("ignored:  judged against ", f);
		onlist_put_text(f, ctx.repo ? ctx.repo : "?");
		fprintf(f, " (%ld commits dated %s..%s, %ld paths) and the mail "
			"up to %s: series posted %s..%s are judged\n",
			ctx.commits, a, b, ctx.paths, c, a,
			onlist_ignored_line(&ctx.scope) ? line : "(none)");
	}
	onlist_ignored_ctx_release(&ctx);
	return 0;
}

/* ---- the report's "Posted N weeks ago, still unanswered" ---------------- */

struct onlist_cli_unanswered {
	int64_t age;
	struct ign x;		/* the ignored series, oldest first */
};

struct onlist_cli_unanswered *onlist_cli_unanswered_load(struct onlist_store *s,
							 const char *repo,
							 int64_t since,
							 int64_t until)
{
	struct onlist_cli_unanswered *u = g_new0(struct onlist_cli_unanswered, 1);
	struct onlist_ignored_ctx ctx;
	char *url = NULL;
	onlist_status st;

	u->x.state = ONLIST_IGN_IGNORED;
	u->x.rows = g_ptr_array_new_with_free_func(row_free);
	if ((st = onlist_ignored_ctx_init(&ctx, s, NULL, 0, -1)) == ONLIST_OK) {
		url = onlist_git_config(repo ? repo : ctx.repo, "onlist.postingUrl");
		u->x.url = url ? url : "https://lore.kernel.org/r/%s";
		u->age = ctx.scope.age;
		/* those whose age line falls in the period, only */
		ctx.since = since ? since - u->age : 0;
		ctx.until = until ? until - u->age : 0;
		st = onlist_ignored_run(&ctx, s, NULL, topic_row, &u->x);
	}
	onlist_ignored_ctx_release(&ctx);
	free(url);
	u->x.url = NULL;
	if (st != ONLIST_OK) {
		onlist_err("report: still unanswered: %s", st == ONLIST_EDB ?
			   onlist_store_errmsg(s) : onlist_status_str(st));
		onlist_cli_unanswered_free(u);
		return NULL;
	}
	g_ptr_array_sort(u->x.rows, by_date);
	return u;
}

void onlist_cli_unanswered_free(struct onlist_cli_unanswered *u)
{
	if (!u)
		return;
	g_ptr_array_free(u->x.rows, TRUE);
	g_free(u);
}

/* Whether a series crossed the age line in [since, until). */
static int crossed(const struct onlist_cli_unanswered *u, const struct row *r,
		   int64_t since, int64_t until)
{
	return r->date + u->age >= since && r->date + u->age < until;
}

long onlist_cli_unanswered_count(const struct onlist_cli_unanswered *u,
				 int64_t since, int64_t until)
{
	long n = 0;

	for (guint i = 0; u && i < u->x.rows->len; i++)
		n += crossed(u, g_ptr_array_index(u->x.rows, i), since, until);
	return n;
}

void onlist_cli_unanswered_emit(const struct onlist_cli_unanswered *u,
				 struct onlist_emit *e, int64_t since,
				 int64_t until, const char *url)
{
	char d[32];

	if (!u)
		return;
	onlist_emit_key(e, "still_unanswered");
	onlist_emit_begin_map(e, 0);
	onlist_emit_kint(e, "count", onlist_cli_unanswered_count(u, since, until));
	onlist_emit_kint(e, "age_days", u->age / 86400);
	onlist_emit_key(e, "series");
	onlist_emit_begin_list(e, 0);
	for (guint i = 0; i < u->x.rows->len; i++) {
		const struct row *r = g_ptr_array_index(u->x.rows, i);
		char *link;

		if (!crossed(u, r, since, until))
			continue;
		day(r->date, d, sizeof(d), 1);
		link = url ? link_of(url, r->msgid) : NULL;
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "date", d,
				  "list", r->list,
				  "name", r->name,
				  "address", r->addr,
				  "subject", r->subject,
				  "message_id", r->msgid,
				  "link", link, NULL);
		onlist_emit_end(e);
		g_free(link);
	}
	onlist_emit_end(e);
	onlist_emit_end(e);
}

int onlist_cli_unanswered_put(const struct onlist_cli_unanswered *u, FILE *f,
			      enum onlist_fmt fmt, int64_t since, int64_t until,
			      const char *url)
{
	long n = onlist_cli_unanswered_count(u, since, until), weeks;
	char title[96], d[32];
	int html = fmt == ONLIST_FMT_HTML;

	if (!u)
		return 0;
	weeks = (long)(u->age / (7 * 86400));
	snprintf(title, sizeof(title), "Posted %ld weeks ago, still unanswered "
		 "(%ld)", weeks, n);
	/* no "None." section: an empty week says so once, and the count
	 * is in the JSON and under the chart */
	if (!n)
		return 0;
	if (html)
		fprintf(f, "<h2>%s</h2>\n", title);
	else if (fmt == ONLIST_FMT_TEXT) {
		fprintf(f, "\n%s\n", title);
		for (size_t i = strlen(title); i > 0; i--)
			fputc('-', f);
		fputs("\n\n", f);
	} else
		fprintf(f, "\n## %s\n\n", title);
	fprintf(f, html ? "<p><small>%s</small></p>\n" : "%s\n\n",
		"Series that nobody but their authors and bots answered and no "
		"commit has, in any version, posted that long before this "
		"period (onlist ignored).");
	if (html)
		fputs("<ul>\n", f);
	for (guint i = 0; i < u->x.rows->len; i++) {
		const struct row *r = g_ptr_array_index(u->x.rows, i);
		const char *who = *r->name ? r->name : r->addr;
		char *link;

		if (!crossed(u, r, since, until))
			continue;
		day(r->date, d, sizeof(d), 0);
		link = url ? link_of(url, r->msgid) : NULL;
		if (html) {
			fprintf(f, "<li>%s ", d);
			onlist_put_html(f, who);
			fputs(": ", f);
			if (link) {
				fputs("<a href=\"", f);
				onlist_put_html_attr(f, link);
				fputs("\">", f);
			}
			onlist_put_html(f, r->subject);
			fputs(link ? "</a></li>\n" : "</li>\n", f);
		} else if (fmt == ONLIST_FMT_TEXT) {
			fprintf(f, "%s ", d);
			onlist_put_text(f, who);
			fputs(": ", f);
			onlist_put_text(f, r->subject);
			fputs(" <", f);
			onlist_put_text(f, r->msgid);
			fputs(">\n", f);
		} else {
			fprintf(f, "- %s ", d);
			onlist_put_md(f, who);
			fputs(": ", f);
			onlist_put_md(f, r->subject);
			fputs(" (", f);
			onlist_put_md(f, link ? link : r->msgid);
			fputs(")\n", f);
		}
		g_free(link);
	}
	if (html)
		fputs("</ul>\n", f);
	return 0;
}

void onlist_cli_unanswered_chart_line(const struct onlist_cli_unanswered *u,
				      FILE *f, int64_t since, int64_t until)
{
	if (!u)
		return;
	fprintf(f, "<p class=\"lg\">This week also: %ld series posted %ld "
		"weeks before, still unanswered</p>\n",
		onlist_cli_unanswered_count(u, since, until),
		(long)(u->age / (7 * 86400)));
}

/* N, Nw (weeks) or Nd (days), 0 to 520 weeks: seconds, or -1. */
static int64_t parse_age(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);
	int64_t unit = 7 * 86400;

	if (end == s || n < 0)
		return -1;
	if (*end == 'd')
		unit = 86400, end++;
	else if (*end == 'w')
		end++;
	if (*end || n * unit > 520 * 7 * 86400LL)
		return -1;
	return n * unit;
}

int cmd_ignored(struct onlist_cli *cli, int argc, char **argv)
{
	enum { OPT_AGE = ONLIST_OPT_FIRST_LONG, OPT_LIST, OPT_SINCE, OPT_UNTIL,
	       OPT_SENDER, OPT_PATHS, OPT_STATE };
	static const struct option opts[] = {
		{ "age", required_argument, NULL, OPT_AGE },
		{ "list", required_argument, NULL, OPT_LIST },
		{ "since", required_argument, NULL, OPT_SINCE },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "sender", required_argument, NULL, OPT_SENDER },
		{ "paths", required_argument, NULL, OPT_PATHS },
		{ "state", required_argument, NULL, OPT_STATE },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", "csv", NULL };
	struct ign x = { .state = ONLIST_IGN_IGNORED };
	struct onlist_ignored_ctx ctx;
	struct onlist_out out = ONLIST_OUT_INIT;
	struct onlist_store *s;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
	int64_t age = -1;
	char *url = NULL;
	int c, ret = ONLIST_EXIT_FAIL;
	onlist_status st;

	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts,
				      ignored_help)) != -1) {
		switch (c) {
		case OPT_AGE:
			if ((age = parse_age(optarg)) < 0) {
				onlist_err("ignored: --age wants N, Nw or Nd "
					   "(up to 520 weeks), not '%s'", optarg);
				goto usage;
			}
			break;
		case OPT_LIST: x.list = optarg; break;
		case OPT_SENDER: x.sender = optarg; break;
		case OPT_SINCE:
		case OPT_UNTIL:
			if (onlist_cli_parse_day(optarg, c == OPT_SINCE ? &x.since : &x.until)) {
				onlist_err("ignored: dates are YYYY-MM-DD, not '%s'",
					   optarg);
				goto usage;
			}
			break;
		case OPT_PATHS: {
			char **v = g_strsplit(optarg, ",", -1);

			for (char **p = v; *p; p++)
				if (**p)
					g_ptr_array_add(paths, g_strdup(*p));
			g_strfreev(v);
			break;
		}
		case OPT_STATE:
			x.state = -2;
			if (!strcmp(optarg, "all"))
				x.state = -1;
			for (int i = 0; i < ONLIST_IGN_NSTATES; i++)
				if (!strcmp(optarg, onlist_ignored_state_name(i)))
					x.state = i;
			if (x.state == -2) {
				onlist_err("ignored: --state: no state '%s'", optarg);
				goto usage;
			}
			break;
		default:	/* --help, or a usage error: said already */
			g_ptr_array_free(paths, TRUE);
			return onlist_cli_stop(c);
		}
	}
	if (onlist_cli_operands(cli, argc, argv, 0, 0, ignored_help))
		goto usage;
	if (!(s = onlist_cli_open_store_read(cli))) {
		g_ptr_array_free(paths, TRUE);
		return ONLIST_EXIT_FAIL;
	}
	if ((st = onlist_ignored_ctx_init(&ctx, s, (const char *const *)paths->pdata,
					  paths->len, age)) != ONLIST_OK) {
		onlist_err("ignored: %s", st == ONLIST_EDB ?
			   onlist_store_errmsg(s) : onlist_status_str(st));
		goto out;
	}
	url = onlist_git_config(ctx.repo, "onlist.postingUrl");
	x.url = url ? url : "https://lore.kernel.org/r/%s";
	x.rows = g_ptr_array_new_with_free_func(row_free);
	ctx.since = x.since;	/* the same dates as topic_row's */
	ctx.until = x.until;
	if ((st = onlist_ignored_run(&ctx, s, NULL, topic_row, &x)) != ONLIST_OK) {
		onlist_err("ignored: %s", st == ONLIST_EDB ?
			   onlist_store_errmsg(s) : onlist_status_str(st));
		goto out;
	}
	g_ptr_array_sort(x.rows, by_date);
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	if (fmt == ONLIST_FMT_JSON) {
		struct onlist_emit *e = onlist_emit_new(out.f, fmt);

		if (!e) {
			onlist_err("ignored: out of memory");
			goto out;
		}
		emit_json(e, &x, &ctx);
		onlist_emit_free(e);
	} else if (fmt == ONLIST_FMT_CSV) {
		print_csv(out.f, &x);
	} else {
		print_text(out.f, &x, &ctx);
	}
	ret = onlist_cli_out_close(cli, &out, ONLIST_EXIT_OK);
out:
	if (x.rows)
		g_ptr_array_free(x.rows, TRUE);
	onlist_ignored_ctx_release(&ctx);
	free(url);
	g_ptr_array_free(paths, TRUE);
	onlist_store_close(s);
	return ret;
usage:
	g_ptr_array_free(paths, TRUE);
	return ONLIST_EXIT_USAGE;
}
