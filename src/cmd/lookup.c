/* lookup.c - onlist lookup: where a commit was posted, or that it never was. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>

#include "cli.h"
#include "onlist/vocab.h"
#include "onlist/repo.h"
#include "onlist/store.h"
#include "onlist/patchfp.h"
#include "onlist/patchid.h"
#include "onlist/mail.h"
#include "onlist/store_thread.h"
#include "onlist/store_review.h"
#include "onlist/verdict.h"
#include "onlist/match.h"
#include "onlist/remote.h"
#include "onlist/http.h"

static const char lookup_help[] =
	"usage: onlist [--db PATH] lookup [--format text|json | --json] COMMIT|MESSAGE-ID...\n"
	"       onlist [--db PATH] lookup [--format text|json | --json] --patch FILE\n"
	"       onlist [--db PATH] lookup --remote URL [--repo PATH] [--refresh]\n"
	"                                 [--pace SECONDS] COMMIT...\n\n"
	"For each commit (a full or abbreviated sha, or any name git resolves\n"
	"in the scanned repository), show every posting that matches it: list,\n"
	"Message-ID, date, subject and how it matched, or \"never posted\";\n"
	"with the version and part of the series it was, the replies from\n"
	"people other than its author, and the Reviewed-by, Acked-by,\n"
	"Tested-by and Nacked-by lines given in them.  Then the commit's review\n"
	"state on the list over every version of its topic (reviewed,\n"
	"reviewed_series, discussed, no_reply; unknown, and why, when git has\n"
	"a review tag the list lacks and the archive ends before the commit\n"
	"landed) with the tag that decided it, its NAKs, the review trailers\n"
	"in git nobody gave on the list, and every version v1..vN: date,\n"
	"lists, replies, tags, which was applied.\n\n"
	"A fuzzy match shows its score (\"modified before merge\"); when several\n"
	"versions were posted, the latest is marked as the version applied.\n"
	"Echoes (commit notices, stable backports) and postings sent more\n"
	"than a day after the commit landed are shown but do not count.\n\n"
	"A MESSAGE-ID (<id>, id@host, or a public-inbox URL such as\n"
	"https://lore.kernel.org/LIST/ID/) names a posting instead: whether a\n"
	"commit has it (which), someone answered it, or it is ignored (see\n"
	"`onlist ignored --help`); exit 1 when ignored, 3 when not judged yet.\n\n"
	"--patch FILE (a diff, or a mail carrying one; - for standard input)\n"
	"looks up a patch that is not in git yet, by its patch-id and by the\n"
	"repaired patch-id of the mails.\n\n"
	"A commit never posted comes with a reason (release, revert,\n"
	"translation, near_miss, no_trace; see `onlist unposted --help`); one\n"
	"that landed outside the archive's span (after its last message plus a\n"
	"day, or before its first) was not looked for: it is unknown.\n\n"
	"--remote URL asks a public-inbox server instead of a mirror (an\n"
	"inbox such as https://lore.kernel.org/all/): the commit is read from\n"
	"--repo (default: the scanned repository, else the current directory),\n"
	"no scan, import or fetch needed.  The inbox must answer first (its\n"
	"new.atom; a 404 is an error naming the inboxes the server lists, exit\n"
	"2), and what its search can do is asked once and kept.  It asks,\n"
	"stopping at the first that\n"
	"finds the posting: the Message-IDs its Link: and Message-Id: trailers\n"
	"name; its patch-id under the myers, histogram, patience and minimal\n"
	"diff (patchid:); a mail from its author sent at its author date\n"
	"(f: AND dt:); its subject from its author, sent before it landed\n"
	"(s:\"...\" AND f: AND d:..), asked also when found, for the other\n"
	"versions; else the author's patches to its files in a window (f: AND\n"
	"d: AND dfn:), scored as match's fuzzy tier does.  A commit a tier of\n"
	"which the server could not answer (no search, no phrase search and\n"
	"no word search, no patchid:) and that nothing found is unknown, with\n"
	"the reason.  Each mail found brings its thread (t.mbox.gz), imported\n"
	"into the database as a partial source (`onlist sources`); then the\n"
	"commit is matched as `onlist match` would and shown as above.\n"
	"Answers are kept: asking again makes no request, unless --refresh.\n"
	"One request at a time, --pace SECONDS apart (default 1).\n\n"
	"Exit status: 0 when every commit was posted, 1 when one was never\n"
	"posted or is not in the database, 3 when none of those but one is\n"
	"unknown, 2 on usage errors.\n";

struct found {
	char sha[41];
	char *date, *author, *subject;
	int n;
};

static int take_commit(const struct onlist_commit_row *r, void *data)
{
	struct found *f = data;

	if (f->n++ == 0) {
		snprintf(f->sha, sizeof(f->sha), "%s", r->sha);
		f->date = strdup(r->date ? r->date : "0");
		f->author = strdup(r->author_name ? r->author_name : "");
		f->subject = strdup(r->subject ? r->subject : "");
	}
	return 0;
}

struct postings {
	FILE *f;
	struct onlist_emit *e;	/* JSON; NULL: text */
	int n;
	struct onlist_store *s;
	int nrev;
	const char *sha;	/* the commit looked up; NULL: --patch */
};

static int print_review(const struct onlist_review_given *r, void *data)
{
	struct postings *p = data;
	FILE *f = p->f;

	if (p->e) {
		onlist_emit_begin_map(p->e, 0);
		onlist_emit_kstrs(p->e, "key", r->key, "name", r->name,
				  "addr", r->addr, "in", r->reply,
				  "replier", r->replier_addr, NULL);
		onlist_emit_end(p->e);
	} else {
		fputs("      ", f);
		onlist_put_text(f, r->key);
		fputs(": ", f);
		onlist_put_text(f, r->name);
		if (r->addr && *r->addr) {
			fputs(" <", f);
			onlist_put_text(f, r->addr);
			fputs(">", f);
		}
		fputc('\n', f);
		if (r->addr && r->replier_addr &&
		    strcmp(r->addr, r->replier_addr)) {
			fputs("        (given by ", f);
			onlist_put_text(f, r->replier_addr);
			fputs(")\n", f);
		}
	}
	p->nrev++;
	return 0;
}

/* One posting (store.h onlist_posting_row, copied), kept until all are
 * read: the latest one that counts is the version applied. */
struct prow {
	char *lists, *msgid, *date, *subject, *method, *from_name, *from_addr,
	     *echo_rule;
	double score;
	GString *also;	/* the other methods that matched the same mail */
	int info;	/* d holds its message_info (not its replies) */
	struct onlist_posting_detail d;
};

static int take_posting(const struct onlist_posting_row *c, void *data)
{
	GPtrArray *rows = data;
	struct prow *r = g_new0(struct prow, 1);

	r->lists = g_strdup(c->lists);
	r->msgid = g_strdup(c->msgid);
	r->date = g_strdup(c->date);
	r->subject = g_strdup(c->subject);
	r->method = g_strdup(c->method);
	r->from_name = g_strdup(c->from_name);
	r->from_addr = g_strdup(c->from_addr);
	r->echo_rule = g_strdup(c->echo_rule);
	r->score = c->score;
	/* as onlist_store_thread_posting_detail() reads them */
	if ((r->info = c->info)) {
		snprintf(r->d.cls, sizeof(r->d.cls), "%s", c->cls ? c->cls : "");
		r->d.version = c->version ? atoi(c->version) : 1;
		r->d.part = c->part ? atoi(c->part) : -1;
		r->d.total = c->total ? atoi(c->total) : -1;
		snprintf(r->d.prefix, sizeof(r->d.prefix), "%s",
			 c->prefix ? c->prefix : "");
	}
	g_ptr_array_add(rows, r);
	return 0;
}

static void free_prow(gpointer p)
{
	struct prow *r = p;

	g_free(r->lists);
	g_free(r->msgid);
	g_free(r->date);
	g_free(r->subject);
	g_free(r->method);
	g_free(r->from_name);
	g_free(r->from_addr);
	g_free(r->echo_rule);
	if (r->also)
		g_string_free(r->also, TRUE);
	g_free(r);
}

/* echo and late rows name a mail but are not postings */
static int counts(const struct prow *r)
{
	return onlist_method_is_posting(r->method);
}

/* One mail matched by two tiers (a Link: and its patch-id) is one
 * posting: the rows of one message id (adjacent, the query orders by
 * date and id) that count become one, under the surest method, the
 * others named in also. */
static void merge_methods(GPtrArray *rows)
{
	for (guint i = 0; i + 1 < rows->len;) {
		struct prow *a = g_ptr_array_index(rows, i);
		struct prow *b = g_ptr_array_index(rows, i + 1);
		struct prow *keep, *drop;

		if (!a->msgid || !b->msgid || strcmp(a->msgid, b->msgid) ||
		    !counts(a) || !counts(b)) {
			i++;
			continue;
		}
		keep = onlist_method_rank(a->method) <= onlist_method_rank(b->method) ? a : b;
		drop = keep == a ? b : a;
		if (!keep->also)
			keep->also = g_string_new(NULL);
		g_string_append_printf(keep->also, "%s%s", keep->also->len ? "," : "",
				       drop->method);
		if (drop->also)
			g_string_append_printf(keep->also, ",%s", drop->also->str);
		if (drop->score > keep->score)
			keep->score = drop->score;
		/* keep's place is i: the rows are swapped when b is kept */
		rows->pdata[i] = keep;
		rows->pdata[i + 1] = drop;
		g_ptr_array_remove_index(rows, i + 1);
	}
}

/* "NAME <ADDR>" of a posting's sender, escaped. */
static void put_sender(FILE *f, const char *name, const char *addr)
{
	onlist_put_text(f, name);
	fputs(" <", f);
	onlist_put_text(f, addr);
	fputs(">", f);
}

/* When an archive received the mail, if that is more than a day away from
 * its Date: (the sender's word) -- *when set, else 0. */
static int64_t received_apart(struct postings *p, const char *msgid,
			      char when[32], const char **how)
{
	static char h[8];
	int64_t date, rcv;
	char t[24];

	when[0] = '\0';
	if (!p->s || onlist_store_message_received(p->s, msgid, &date, &rcv, h)
	    != ONLIST_OK || !rcv || !date ||
	    (rcv > date ? rcv - date : date - rcv) <= 86400)
		return 0;
	snprintf(t, sizeof(t), "%lld", (long long)rcv);
	onlist_fmt_date(t, when, 32, 1);
	*how = !strcmp(h, "epoch") ? "the archive's commit" :
	       !strcmp(h, "mbox") ? "the mbox From_ line" : "its Received: field";
	return rcv;
}

/* applied: the version applied (the last that counts); several: more
 * than one counts, so that the text says which */
static void print_posting(struct postings *p, const struct prow *r,
			  int applied, int several)
{
	const char *method = r->method ? r->method : "?";
	struct onlist_posting_detail d;
	int have = 0, nr, np;

	/* the replies that count, by the rule of the review state: the
	 * commit's author, the patch's credited author and co-developers,
	 * bots and notices are no one's reply (review.h); the posting's
	 * own counts (the detail) only when the review has none for it */
	if (p->s && r->info && p->sha &&
	    onlist_store_review_posting_replies(p->s, p->sha, r->msgid, &nr, &np) == ONLIST_OK) {
		d = r->d;
		d.replies = nr;
		d.repliers = np;
		have = 1;
	} else if (p->s && r->info) {
		have = onlist_store_thread_posting_detail(p->s, r->msgid, &d) == ONLIST_OK;
	}
	char date[32], rcv[32];
	const char *how = NULL;
	double score = r->score;
	FILE *f = p->f;

	onlist_fmt_date(r->date, date, sizeof(date), 1);
	if (p->e) {
		struct onlist_emit *e = p->e;

		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "list", r->lists,
				  "message_id", r->msgid,
				  "date", date,
				  "subject", r->subject,
				  "method", r->method, NULL);
		if (r->also)
			onlist_emit_kstr(e, "also", r->also->str);
		onlist_emit_key(e, "score");
		onlist_emit_fixed(e, score, 2);
		onlist_emit_kbool(e, "counts", counts(r));
		onlist_emit_kbool(e, "applied", applied);
		onlist_emit_kstrs(e, "echo_rule", r->echo_rule,
				  "from", r->from_name, NULL);
		if (received_apart(p, r->msgid, rcv, &how))
			onlist_emit_kstr(e, "received", rcv);
		if (have) {
			onlist_emit_kstr(e, "class", d.cls);
			onlist_emit_kint(e, "version", d.version);
			if (d.part >= 0) {
				onlist_emit_kint(e, "part", d.part);
				onlist_emit_kint(e, "total", d.total);
			}
			onlist_emit_kint(e, "replies", d.replies);
			onlist_emit_kint(e, "repliers", d.repliers);
		}
		onlist_emit_key(e, "reviews");
		onlist_emit_begin_list(e, 0);
		p->nrev = 0;
		if (p->s)
			onlist_store_thread_reviews(p->s, r->msgid, print_review, p);
		onlist_emit_end(e);
		onlist_emit_end(e);
		p->n++;
		return;
	}
	if (!strcmp(method, "echo")) {
		fputs("  echoed on ", f);
		onlist_put_text(f, r->lists ? r->lists : "?");
		fprintf(f, " on %s by ", date);
		put_sender(f, r->from_name, r->from_addr);
		fputs(" (", f);
		onlist_put_text(f, r->echo_rule ? r->echo_rule : "echo");
		fputs("): not a posting\n", f);
	} else if (!strcmp(method, "quoted")) {
		fputs("  posted; the mail itself is missing from the archive, quoted in <", f);
		onlist_put_text(f, r->msgid);
		fputs(">\n    (on ", f);
		onlist_put_text(f, r->lists ? r->lists : "?");
		fprintf(f, " on %s by ", date);
		put_sender(f, r->from_name, r->from_addr);
		fputs(")\n", f);
	} else {
		fputs("  posted to ", f);
		onlist_put_text(f, r->lists ? r->lists : "?");
		fprintf(f, " on %s by ", date);
		put_sender(f, r->from_name, r->from_addr);
		if (strcmp(method, "late"))
			fputc('\n', f);
		else if (r->date && atoll(r->date) > 0)
			fputs(", more than a day after the commit landed: not "
			      "counted\n", f);
		else
			fputs(", with no usable date: not counted\n", f);
	}
	if (received_apart(p, r->msgid, rcv, &how))
		fprintf(f, "    archived %s (by %s), its Date: says %s\n", rcv,
			how, date);
	fputs("    ", f);
	onlist_put_text(f, r->subject);
	fputs("\n    <", f);
	onlist_put_text(f, r->msgid);
	fputs("> (", f);
	onlist_put_text(f, method);
	if (r->also) {
		fputs(", also ", f);
		onlist_put_text(f, r->also->str);
	}
	if (onlist_method_parse(method) == ONLIST_METHOD_FUZZY)
		fprintf(f, ", score %.2f: modified before merge", score);
	else if (onlist_method_is_edited(method))
		fputs(": modified before merge", f);
	fprintf(f, ")%s\n", applied && several ? ", the version applied" : "");
	if (have && counts(r)) {
		fprintf(f, "    version %d", d.version);
		if (d.part >= 0)
			fprintf(f, ", patch %d of %d", d.part, d.total);
		fprintf(f, "; %d %s from %d other %s\n", d.replies,
			d.replies == 1 ? "reply" : "replies", d.repliers,
			d.repliers == 1 ? "person" : "people");
		p->nrev = 0;
		onlist_store_thread_reviews(p->s, r->msgid, print_review, p);
		if (!p->nrev)
			fputs("      no review trailers given on the list\n", f);
	}
	p->n++;
}

/* Print every posting of sha (or, sha NULL, of the patch with the ids
 * in by_patch); returns how many count as postings, or -1 when the query
 * failed (said: none found is not the answer then). */
static int print_postings(struct postings *p, const char *sha,
			  const char *const *by_patch)
{
	GPtrArray *rows = g_ptr_array_new_with_free_func(free_prow);
	int last = -1, n = 0;
	onlist_status st;

	p->sha = sha;
	st = onlist_store_postings(p->s, sha, sha ? NULL : by_patch[0],
				   sha ? NULL : by_patch[1], take_posting, rows);
	if (st != ONLIST_OK) {
		onlist_err("lookup: %s", onlist_store_errmsg(p->s));
		g_ptr_array_free(rows, TRUE);
		return -1;
	}
	merge_methods(rows);
	for (guint i = 0; i < rows->len; i++)
		if (counts(g_ptr_array_index(rows, i))) {
			last = (int)i;
			n++;
		}
	for (guint i = 0; i < rows->len; i++)
		print_posting(p, g_ptr_array_index(rows, i), (int)i == last, n > 1);
	g_ptr_array_free(rows, TRUE);
	return n;
}

static int is_hex(const char *s)
{
	size_t n = strlen(s);

	if (n < 4 || n > 40)
		return 0;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* lookup --patch FILE: a diff, or a mail carrying one, not (yet) in git:
 * the postings with its patch-id, or whose repaired diff has it. */
static int lookup_patch(struct onlist_cli *cli, FILE *f, const char *path,
			struct onlist_emit *e)
{
	struct onlist_store *s;
	struct onlist_mail *m = NULL;
	char *data = NULL, *err = NULL, pid[ONLIST_PATCHID_HEXSZ + 1] = "",
	     rid[ONLIST_PATCHID_HEXSZ + 1] = "";
	const char *diff;
	size_t len = 0, dlen;
	int n;
	unsigned char raw[ONLIST_PATCHID_RAWSZ];
	GError *gerr = NULL;

	if (!g_file_get_contents(strcmp(path, "-") ? path : "/dev/stdin",
				 &data, &len, &gerr)) {
		onlist_err("lookup: %s: %s", path, gerr->message);
		g_error_free(gerr);
		return ONLIST_EXIT_FAIL;
	}
	diff = data;
	dlen = len;
	/* a mail: its patch, as git am would take it */
	if (onlist_mail_parse(&m, data, len, &err) == ONLIST_OK &&
	    onlist_mail_patch(m, NULL))
		diff = onlist_mail_patch(m, &dlen);
	free(err);
	if (onlist_patchid_buf(diff, dlen, raw))
		onlist_patchid_hex(raw, pid);
	onlist_patch_repaired_id(diff, dlen, rid);
	if (!pid[0] && !rid[0]) {
		onlist_err("lookup: %s: no diff in it", path);
		onlist_mail_free(m);
		g_free(data);
		return ONLIST_EXIT_FAIL;
	}
	if (!(s = onlist_cli_open_store_read(cli))) {
		onlist_mail_free(m);
		g_free(data);
		return ONLIST_EXIT_FAIL;
	}
	{
		struct postings po = { f, e, 0, s, 0, NULL };
		const char *ids[2] = { pid[0] ? pid : rid, rid[0] ? rid : pid };

		if (e) {
			onlist_emit_begin_map(e, 0);
			onlist_emit_kstrs(e, "patch", path,
					  "patch_id", pid[0] ? pid : NULL, NULL);
			onlist_emit_key(e, "postings");
			onlist_emit_begin_list(e, 0);
		} else {
			onlist_put_text(f, path);
			fprintf(f, ": patch-id %s\n", pid[0] ? pid : "(none)");
		}
		if ((n = print_postings(&po, NULL, ids)) < 0) {
			onlist_store_close(s);
			onlist_mail_free(m);
			g_free(data);
			return ONLIST_EXIT_FAIL;
		}
		if (e) {
			onlist_emit_end(e);
			onlist_emit_kbool(e, "posted", n > 0);
			onlist_emit_end(e);
		} else if (!n)
			fputs("  never posted\n", f);
	}
	onlist_store_close(s);
	onlist_mail_free(m);
	g_free(data);
	return n ? ONLIST_EXIT_OK : ONLIST_EXIT_FAIL;
}

/* The commit `name` stands for, into f: a sha (prefix) in the database,
 * else what git makes of it in the scanned repository.  ONLIST_OK, or the
 * store's error (a failed query is not "no such commit"). */
static onlist_status find_commit(struct onlist_store *s, const char *repo,
				 const char *name, struct found *f)
{
	char lower[41];
	onlist_status st = ONLIST_OK;

	snprintf(lower, sizeof(lower), "%s", name);
	for (char *q = lower; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	/* only the whole name: "<40 hex>-junk" cut at 40 would match */
	if (strlen(name) < sizeof(lower) && is_hex(lower)) {
		if ((st = onlist_store_commits_by_prefix(s, lower, take_commit,
							 f)) != ONLIST_OK)
			return st;
	}
	/* a name starting with '-' would be an option to git */
	if (f->n == 0 && repo && name[0] != '-') {
		char (*shas)[41] = NULL, *err = NULL, *spec;
		size_t n = 0;

		if (asprintf(&spec, "%s^!", name) >= 0) {
			if (onlist_repo_scan_rev_list(repo, spec, &shas, &n,
						 &err) == ONLIST_OK && n == 1) {
				st = onlist_store_commits_by_prefix(s, shas[0],
								    take_commit,
								    f);
			}
			free(spec);
		}
		free(shas);
		free(err);
	}
	return st;
}

/* The member `key`: the lines of "a\nb" as a list of strings. */
static void emit_lines(struct onlist_emit *e, const char *key,
		       const char *lines)
{
	gchar **l = g_strsplit(lines ? lines : "", "\n", -1);
	int n = 0;

	while (l[n])
		n++;
	/* "a\n" is one line, and "" none */
	if (n && !*l[n - 1])
		n--;
	onlist_emit_key(e, key);
	onlist_emit_begin_list(e, 0);
	for (int i = 0; i < n; i++)
		onlist_emit_str(e, l[i]);
	onlist_emit_end(e);
	g_strfreev(l);
}

/* The lines of "a\nb", each indented, escaped. */
static void put_text_lines(FILE *f, const char *indent, const char *lines)
{
	for (const char *p = lines, *nl; p && *p; p = *nl ? nl + 1 : nl) {
		char *t;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		t = strndup(p, (size_t)(nl - p));
		fputs(indent, f);
		onlist_put_text(f, t ? t : "");
		fputc('\n', f);
		free(t);
	}
}

/* One version of the topic (onlist_store_review_topic_versions), kept until
 * all are read: the last one holding a posting is the one applied. */
struct version_rows {
	GPtrArray *rows;
};

struct vrow {
	char *series, *date, *lists, *subject, *tags;
	int version, replies, posted;
};

static int take_version(const struct onlist_version_row *c, void *data)
{
	struct version_rows *v = data;
	struct vrow *r = g_new0(struct vrow, 1);

	r->series = g_strdup(c->series);
	r->version = c->version;
	r->date = g_strdup(c->date);
	r->lists = g_strdup(c->lists);
	r->subject = g_strdup(c->subject);
	r->replies = c->replies;
	r->tags = g_strdup(c->tags);
	r->posted = c->posted;
	g_ptr_array_add(v->rows, r);
	return 0;
}

static void free_vrow(gpointer p)
{
	struct vrow *r = p;

	g_free(r->series);
	g_free(r->date);
	g_free(r->lists);
	g_free(r->subject);
	g_free(r->tags);
	g_free(r);
}

static void print_commit_review(FILE *f, struct onlist_emit *e,
				struct onlist_store *s, const char *sha)
{
	struct onlist_commit_review rv;
	struct version_rows v = { g_ptr_array_new_with_free_func(free_vrow) };
	int applied = -1;

	if (onlist_store_review_commit(s, sha, &rv) != ONLIST_OK)
		rv = (struct onlist_commit_review)ONLIST_COMMIT_REVIEW_INIT;
	onlist_store_review_topic_versions(s, sha, take_version, &v);
	for (guint i = 0; i < v.rows->len; i++) {
		struct vrow *r = g_ptr_array_index(v.rows, i);

		if (r->posted)
			applied = (int)i;
	}
	if (e) {
		onlist_emit_key(e, "review");
		if (!rv.state) {
			onlist_emit_null(e);
		} else {
			onlist_emit_begin_map(e, 0);
			onlist_emit_kstrs(e, "state", rv.state,
					  "why", rv.why, NULL);
			onlist_emit_kint(e, "naks", rv.naks);
			onlist_emit_key(e, "evidence");
			if (rv.ev_key) {
				onlist_emit_begin_map(e, 0);
				onlist_emit_kstrs(e, "key", rv.ev_key,
						  "value", rv.ev_value,
						  "from", rv.ev_from,
						  "in", rv.ev_msgid,
						  "on", rv.ev_target,
						  "on_class", rv.ev_target_class, NULL);
				onlist_emit_kstr(e, "on_subject",
						 rv.ev_target_subject);
				onlist_emit_end(e);
			} else {
				onlist_emit_null(e);
			}
			onlist_emit_key(e, "notice");
			if (rv.notice_msgid) {
				char nd[32];

				onlist_fmt_date(rv.notice_date, nd, sizeof(nd), 1);
				onlist_emit_begin_map(e, 0);
				onlist_emit_kstrs(e, "from", rv.notice_name,
						  "date", nd,
						  "in", rv.notice_msgid, NULL);
				onlist_emit_end(e);
			} else {
				onlist_emit_null(e);
			}
			emit_lines(e, "off_list_tags", rv.off_list_tags);
			onlist_emit_end(e);
		}
		onlist_emit_key(e, "versions");
		onlist_emit_begin_list(e, 0);
		for (guint i = 0; i < v.rows->len; i++) {
			struct vrow *r = g_ptr_array_index(v.rows, i);
			char date[32];

			onlist_fmt_date(r->date, date, sizeof(date), 1);
			onlist_emit_begin_map(e, 0);
			onlist_emit_kstr(e, "series", r->series);
			onlist_emit_kint(e, "version", r->version);
			onlist_emit_kstr(e, "date", date);
			emit_lines(e, "lists", r->lists);
			onlist_emit_kstr(e, "subject", r->subject);
			onlist_emit_kint(e, "replies", r->replies);
			emit_lines(e, "tags", r->tags);
			onlist_emit_kbool(e, "applied", (int)i == applied);
			onlist_emit_end(e);
		}
		onlist_emit_end(e);
		goto out;
	}
	if (!rv.state)
		goto out;
	fputs("  review on the list: ", f);
	onlist_put_text(f, rv.state);
	if (rv.ev_key) {
		fputs("\n    ", f);
		onlist_put_text(f, rv.ev_key);
		fputs(": ", f);
		onlist_put_text(f, rv.ev_value);
		fputs(rv.ev_target_class && !strcmp(rv.ev_target_class, "cover") ?
		      "\n      given on the cover letter " : "\n      given on ", f);
		onlist_put_text(f, rv.ev_target_subject);
		fputs("\n      in <", f);
		onlist_put_text(f, rv.ev_msgid);
		fputc('>', f);
	}
	if (rv.why) {		/* unknown (review.h) */
		fputs("\n    ", f);
		onlist_put_text(f, rv.why);
	}
	fputc('\n', f);
	if (rv.notice_msgid) {
		char nd[32];

		onlist_fmt_date(rv.notice_date, nd, sizeof(nd), 0);
		fputs("    applied notice from ", f);
		onlist_put_text(f, rv.notice_name ? rv.notice_name : "?");
		fprintf(f, ", %s\n      in <", nd);
		onlist_put_text(f, rv.notice_msgid);
		fputs(">\n", f);
	}
	if (rv.naks)
		fprintf(f, "    %d NAK%s on the list\n", rv.naks, rv.naks == 1 ? "" : "s");
	if (rv.off_list_tags) {
		fputs("    in git, not given on the list:\n", f);
		put_text_lines(f, "      ", rv.off_list_tags);
	}
	if (v.rows->len)
		fputs("  versions of the topic:\n", f);
	for (guint i = 0; i < v.rows->len; i++) {
		struct vrow *r = g_ptr_array_index(v.rows, i);
		char date[32];
		int n = r->replies;

		onlist_fmt_date(r->date, date, sizeof(date), 0);
		fprintf(f, "    v%d %s to ", r->version, date);
		{
			gchar **l = g_strsplit(r->lists ? r->lists : "?", "\n", -1);
			gchar *j = g_strjoinv(", ", l);

			onlist_put_text(f, j);
			g_free(j);
			g_strfreev(l);
		}
		fprintf(f, ": %d %s%s\n      ", n, n == 1 ? "reply" : "replies",
			(int)i == applied ? ", the version applied" : "");
		onlist_put_text(f, r->subject);
		fputc('\n', f);
		put_text_lines(f, "      ", r->tags);
	}
out:
	g_ptr_array_free(v.rows, TRUE);
	onlist_commit_review_release(&rv);
}

static void print_why(FILE *out, struct onlist_emit *e,
		      const struct onlist_cli_why *w)
{
	const struct onlist_verdict *v = &w->v;
	char first[32], last[32], a[24], b[24];

	snprintf(a, sizeof(a), "%lld", (long long)w->span.first);
	snprintf(b, sizeof(b), "%lld", (long long)w->span.last);
	onlist_fmt_date(a, first, sizeof(first), e != NULL);
	onlist_fmt_date(b, last, sizeof(last), e != NULL);
	if (e) {
		onlist_emit_kstr(e, "category", v->unknown ? "unknown" :
				 "never_posted");
		onlist_emit_kstr(e, "reason", v->unknown ? NULL :
				 onlist_reason_name(v->reason));
		onlist_emit_kstr(e, "reason_msgid", v->msgid);
		if (v->why)
			onlist_emit_kstr(e, "why", v->why);
		onlist_emit_kstrs(e, "reverted", v->reverted,
				  "note", v->note, NULL);
		onlist_emit_key(e, "archive");
		if (w->span.last && !w->remote) {
			onlist_emit_begin_map(e, 0);
			onlist_emit_kstrs(e, "first", first,
					  "last", last, NULL);
			onlist_emit_end(e);
		} else {
			onlist_emit_null(e);
		}
		return;
	}
	if (v->unknown) {
		if (v->why) {
			fputs("  unknown: not every tier could be asked: ", out);
			onlist_put_text(out, v->why);
			fputc('\n', out);
		} else if (w->span.last)
			fprintf(out, "  not looked for: it landed outside the "
				"archive (%s..%s); fetch first\n", first, last);
		else
			fputs("  not looked for: the database holds no "
			      "messages; fetch first\n", out);
		return;
	}
	fprintf(out, "  reason: %s", onlist_reason_name(v->reason));
	if (v->reverted) {
		fputs(", reverts ", out);
		onlist_put_text(out, v->reverted);
		fputs(" posted as", out);
	} else if (v->reason == ONLIST_REASON_PULLED) {
		fputs(", came in the pull request", out);
	} else if (v->msgid) {
		fputs(", a mail with this subject and no patch:", out);
	} else if (onlist_cli_reason_detail(v)) {
		fputs(": ", out);
		onlist_put_text(out, onlist_cli_reason_detail(v));
	}
	if (v->msgid) {
		fputs(" <", out);
		onlist_put_text(out, v->msgid);
		fputc('>', out);
	}
	if (v->reason == ONLIST_REASON_PULLED) {
		fputs(" on ", out);
		onlist_put_text(out, v->path.pull_list ? v->path.pull_list : "?");
		fputs(", never posted as a patch", out);
	}
	fputc('\n', out);
}

/* One commit's entry; returns how many postings count, or -1 when it was
 * not looked for (unknown), -2 on failure. */
static int print_commit(FILE *out, struct onlist_emit *e,
			struct onlist_store *s, const struct found *f,
			int first, struct onlist_cli_why *w)
{
	struct postings po = { out, e, 0, s, 0, NULL };
	int nposted;
	char date[32], short_sha[13];

	onlist_fmt_date(f->date, date, sizeof(date), 0);
	if (e) {
		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "commit", f->sha,
				  "subject", f->subject,
				  "author", f->author, NULL);
		onlist_emit_key(e, "postings");
		onlist_emit_begin_list(e, 0);
	} else {
		snprintf(short_sha, sizeof(short_sha), "%s", f->sha);
		fputs(first ? "" : "\n", out);
		onlist_put_text(out, short_sha);
		fputc(' ', out);
		onlist_put_text(out, f->subject);
		fprintf(out, "\n  committed %s, author ", date);
		onlist_put_text(out, f->author);
		fputc('\n', out);
	}
	if ((nposted = print_postings(&po, f->sha, NULL)) < 0 ||
	    (!nposted && onlist_cli_why(w, f->sha) < 0))
		return -2;
	if (e) {
		onlist_emit_end(e);
		onlist_emit_kbool(e, "posted", nposted > 0);
		if (nposted)
			print_commit_review(out, e, s, f->sha);
		else
			print_why(out, e, w);
		if (onlist_cli_lookup_path(out, e, s, f->sha, nposted, &w->v) < 0)
			return -2;
		onlist_emit_end(e);
	} else if (nposted) {
		print_commit_review(out, NULL, s, f->sha);
		if (onlist_cli_lookup_path(out, NULL, s, f->sha, 1, &w->v) < 0)
			return -2;
	} else {
		if (!w->v.unknown)
			fputs(po.n ? "  never posted (only the mails above carried it)\n"
				   : "  never posted\n", out);
		print_why(out, NULL, w);
		if (onlist_cli_lookup_path(out, NULL, s, f->sha, 0, &w->v) < 0)
			return -2;
	}
	return nposted ? nposted : w->v.unknown ? -1 : 0;
}

static void remote_note(const char *line, void *data)
{
	(void)data;
	onlist_err_text(NULL, line);
}

/* ONLIST_REMOTE_TRACE: which tier found each commit */
static void remote_asked(const char *sha, enum onlist_remote_tier tier,
			 long requests, void *data)
{
	struct onlist_cli *cli = data;

	if (!cli->quiet && getenv("ONLIST_REMOTE_TRACE"))
		fprintf(stderr, "remote: %.12s found by %s, %ld requests so far\n",
			sha, onlist_remote_tier_name(tier), requests);
}

/* The run is the library's (onlist_remote_run); this says what it says. */
int onlist_cli_remote_run(struct onlist_cli *cli, struct onlist_store *s,
			  struct onlist_cli_remote *ro, char *const *names,
			  int n, char (*shas)[41])
{
	struct onlist_remote_run_opts o = { .who = cli->cmd,
					    .asked = remote_asked };
	struct onlist_http_opts http = ONLIST_HTTP_OPTS_INIT;
	struct onlist_remote_run_result res;
	char *err = NULL;
	onlist_status st;

	if (ro->pace >= 0)
		http.pace = ro->pace;
	o.remote.url = ro->url;
	o.remote.repo = ro->repo;
	o.remote.http = http;
	o.remote.refresh = ro->refresh;
	o.remote.note = remote_note;
	o.remote.data = cli;
	st = onlist_remote_run(s, &o, names, n, shas, &res, &err);
	if (err)
		onlist_err_text(NULL, err);
	free(err);
	ro->requests = res.requests;
	return st == ONLIST_OK ? 0 : res.probe_failed ? -2 : -1;
}

int cmd_lookup(struct onlist_cli *cli, int argc, char **argv)
{
	enum {
		OPT_PATCH = ONLIST_OPT_FIRST_LONG, OPT_REMOTE, OPT_REPO,
		OPT_REFRESH, OPT_PACE,
	};
	static const struct option opts[] = {
		{ "patch", required_argument, NULL, OPT_PATCH },
		{ "remote", required_argument, NULL, OPT_REMOTE },
		{ "repo", required_argument, NULL, OPT_REPO },
		{ "refresh", no_argument, NULL, OPT_REFRESH },
		{ "pace", required_argument, NULL, OPT_PACE },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct onlist_store *s = NULL;
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	int ret = ONLIST_EXIT_OK, first = 1, c, unknown = 0;
	struct onlist_emit *e = NULL;
	const char *patch_file = NULL;
	struct onlist_cli_why w = { 0 };
	char *repo = NULL;
	struct onlist_cli_remote ro = { NULL, NULL, -1, 0, 0 };
	const char *repo_opt = NULL;
	char (*shas)[41] = NULL;

	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts, lookup_help)) != -1) {
		switch (c) {
		case OPT_PATCH:
			patch_file = optarg;
			break;
		case OPT_REMOTE:
			if (onlist_cli_url_has_password(optarg)) {
				/* not printed: the password would be on
				 * the screen */
				onlist_err("%s: --remote URL holds a password "
					   "(https://user:password@host/): refused, "
					   "it would be stored and printed", "lookup");
				return ONLIST_EXIT_USAGE;
			}
			ro.url = optarg;
			break;
		case OPT_REPO:
			repo_opt = optarg;
			break;
		case OPT_REFRESH:
			ro.refresh = 1;
			break;
		case OPT_PACE:
			if (onlist_cli_pace("lookup", optarg, &ro.pace) < 0)
				return ONLIST_EXIT_USAGE;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	if (patch_file && optind < argc) {
		onlist_err("lookup: --patch takes no commits as well");
		return ONLIST_EXIT_USAGE;
	}
	if (!patch_file && optind >= argc) {
		fputs(lookup_help, stderr);
		return ONLIST_EXIT_USAGE;
	}
	if ((repo_opt || ro.refresh || ro.pace >= 0) && !ro.url) {
		onlist_err("lookup: --repo, --refresh and --pace go with --remote");
		return ONLIST_EXIT_USAGE;
	}
	if (ro.url && patch_file) {
		onlist_err("lookup: --remote looks up commits, not --patch");
		return ONLIST_EXIT_USAGE;
	}
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	if (fmt == ONLIST_FMT_JSON && !(e = onlist_emit_new(out.f, fmt))) {
		onlist_err("lookup: out of memory");
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (patch_file) {
		ret = lookup_patch(cli, out.f, patch_file, e);
		goto out;
	}
	if (!(s = ro.url ? onlist_cli_open_store(cli) :
	      onlist_cli_open_store_read(cli))) {
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	repo = repo_opt ? strdup(repo_opt) : onlist_store_get_meta(s, "repo");
	if (ro.url) {
		if (!repo)
			repo = strdup(".");
		ro.repo = repo;
		shas = calloc((size_t)(argc - optind), sizeof(*shas));
		if (!shas) {
			ret = ONLIST_EXIT_FAIL;
			goto out;
		}
		if ((c = onlist_cli_remote_run(cli, s, &ro, argv + optind,
					       argc - optind, shas)) < 0) {
			/* no inbox at the URL: nothing judged */
			ret = c == -2 ? ONLIST_EXIT_USAGE : ONLIST_EXIT_FAIL;
			goto out;
		}
		if (!cli->quiet)
		{
			fprintf(stderr, "lookup: %ld request%s to ", ro.requests,
				ro.requests == 1 ? "" : "s");
			onlist_put_text(stderr, ro.url);
			fputc('\n', stderr);
		}
		w.remote = 1;
	}
	w.s = s;
	w.repo = repo;
	w.cmd = "lookup";
	if (e)
		onlist_emit_begin_list(e, ONLIST_EMIT_LINES);
	for (int i = optind; i < argc; i++) {
		struct found f = { "", NULL, NULL, NULL, 0 };

		if (!shas && onlist_cli_is_posting_arg(argv[i])) {
			/* a posting: applied, answered or ignored? */
			int n = onlist_cli_lookup_posting(cli, s, out.f, argv[i],
							  e);

			if (n < 0)
				break;
			if (n == ONLIST_EXIT_UNKNOWN)
				unknown = 1;
			else if (n != ONLIST_EXIT_OK)
				ret = ONLIST_EXIT_FAIL;
			first = 0;
			continue;
		}
		if (shas && !shas[i - optind][0]) {
			ret = ONLIST_EXIT_FAIL;	/* said already */
			continue;
		}
		if (find_commit(s, repo, shas ? shas[i - optind] : argv[i],
				&f) != ONLIST_OK) {
			onlist_err("lookup: %s", onlist_store_errmsg(s));
			ret = ONLIST_EXIT_FAIL;
			break;
		} else if (f.n != 1) {
			onlist_err(f.n ? "lookup: %s is ambiguous" :
				   "lookup: %s: no such commit in the database "
				   "(scan its range first)", argv[i]);
			ret = ONLIST_EXIT_FAIL;
		} else {
			int n = print_commit(out.f, e, s, &f, first, &w);

			if (n == 0 || n == -2)
				ret = ONLIST_EXIT_FAIL;
			else if (n == -1)
				unknown = 1;
			first = 0;
		}
		free(f.date);
		free(f.author);
		free(f.subject);
	}
	if (e)
		onlist_emit_end(e);
	if (ret == ONLIST_EXIT_OK && unknown)
		ret = ONLIST_EXIT_UNKNOWN;
	onlist_cli_why_release(&w);
out:
	if (onlist_emit_free(e) != ONLIST_OK && ret == ONLIST_EXIT_OK)
		ret = ONLIST_EXIT_FAIL;	/* a JSON left unclosed is not an answer */
	free(shas);
	free(repo);
	if (s)
		onlist_store_close(s);
	ret = onlist_cli_out_close(cli, &out, ret);
	return ret;
}
