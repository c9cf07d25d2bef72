/* thread.c - onlist thread: a message's thread, with the review given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>

#include "cli.h"
#include "onlist/msgid.h"
#include "onlist/store.h"
#include "onlist/store_thread.h"

static const char thread_help[] =
	"usage: onlist [--db PATH] thread [--format text|json | --json] MESSAGE-ID\n\n"
	"Print the thread a message belongs to as a tree: subject, sender,\n"
	"date, and the trailers (Reviewed-by:, Acked-by:, ...) given in each\n"
	"reply.  The message asked for is marked with '*'.  MESSAGE-ID may be\n"
	"given with or without <>, or as a lore URL (https://lore.kernel.org/\n"
	"r/<id>, https://patch.msgid.link/<id>).\n\n"
	"Threads are built by `onlist match`; run it after importing.\n"
	"Exit status: 0 shown, 1 unknown message, 2 usage.\n";

struct tmsg {
	char *msgid, *parent, *from_name, *from_addr, *subject, *cls;
	long long date;
	int depth;
	GPtrArray *kids;
};

static char *dup0(const char *s)
{
	return g_strdup(s ? s : "");
}

static int take(const struct onlist_thread_row *r, void *data)
{
	GPtrArray *all = data;
	struct tmsg *m = g_new0(struct tmsg, 1);

	m->msgid = dup0(r->msgid);
	m->parent = g_strdup(r->parent);
	m->depth = r->depth;
	m->date = r->date;
	m->from_name = dup0(r->from_name);
	m->from_addr = dup0(r->from_addr);
	m->subject = dup0(r->subject);
	m->cls = dup0(r->cls);
	m->kids = g_ptr_array_new();
	g_ptr_array_add(all, m);
	return 0;
}

static void free_tmsg(gpointer p)
{
	struct tmsg *m = p;

	g_free(m->msgid);
	g_free(m->parent);
	g_free(m->from_name);
	g_free(m->from_addr);
	g_free(m->subject);
	g_free(m->cls);
	g_ptr_array_free(m->kids, TRUE);
	g_free(m);
}

static gint by_date(gconstpointer a, gconstpointer b)
{
	const struct tmsg *x = *(struct tmsg *const *)a, *y = *(struct tmsg *const *)b;

	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return strcmp(x->msgid, y->msgid);
}

struct tctx {
	FILE *f;
	struct onlist_emit *e;	/* JSON */
	struct onlist_store *s;
	const char *want;
	int json;
};

static int print_trailer(const struct onlist_msg_trailer *r, void *data)
{
	struct tctx *t = data;
	FILE *f = t->f;

	if (t->json) {
		onlist_emit_begin_map(t->e, 0);
		onlist_emit_kstrs(t->e, "key", r->key, "name", r->name,
				  "addr", r->addr, NULL);
		onlist_emit_end(t->e);
	} else {
		fputs("  ", f);
		onlist_put_text(f, r->key ? r->key : "");
		fputs(": ", f);
		onlist_put_text(f, r->value ? r->value : "");
	}
	return 0;
}

static void print_one(struct tctx *t, const struct tmsg *m, const char *indent,
		      int last, int top)
{
	char date[32] = "?";
	time_t when = (time_t)m->date;
	struct tm tm;
	int reply = !strcmp(m->cls, "reply") || !strcmp(m->cls, "other");
	FILE *f = t->f;

	if (m->date && gmtime_r(&when, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M", &tm);
	if (t->json) {
		struct onlist_emit *e = t->e;

		onlist_emit_begin_map(e, 0);
		onlist_emit_kstrs(e, "message_id", m->msgid,
				  "parent", m->parent, NULL);
		onlist_emit_kint(e, "depth", m->depth);
		onlist_emit_kint(e, "date", m->date);
		onlist_emit_kstrs(e, "class", m->cls, "from", m->from_name,
				  "addr", m->from_addr,
				  "subject", m->subject, NULL);
		onlist_emit_key(e, "trailers");
		onlist_emit_begin_list(e, 0);
		if (reply)
			onlist_store_thread_message_trailers(t->s, m->msgid,
						      print_trailer, t);
		onlist_emit_end(e);
		onlist_emit_end(e);
		return;
	}
	fprintf(f, "%c ", strcmp(m->msgid, t->want) ? ' ' : '*');
	fputs(indent, f);
	if (!top)
		fputs(last ? "`- " : "+- ", f);
	onlist_put_text(f, m->subject);
	fprintf(f, "\n  %s%s   ", indent, top ? "" : last ? "   " : "|  ");
	onlist_put_text(f, m->from_name);
	fputs(" <", f);
	onlist_put_text(f, m->from_addr);
	fprintf(f, ">, %s", date);
	if (reply) {
		onlist_store_thread_message_trailers(t->s, m->msgid, print_trailer, t);
	} else {
		fputs(" [", f);
		onlist_put_text(f, m->cls);
		fputs("]", f);
	}
	fputc('\n', f);
}

#define MAX_INDENT 24	/* deeper levels are drawn at this depth */

/* Depth first, iteratively: a thread may be 10,000 replies deep. */
static void print_tree(struct tctx *t, struct tmsg *root)
{
	struct frame { struct tmsg *m; guint next; };
	GArray *stack = g_array_new(FALSE, FALSE, sizeof(struct frame));
	GString *indent = g_string_new("");
	struct frame f = { root, 0 };

	print_one(t, root, "", 1, 1);
	g_array_append_val(stack, f);
	while (stack->len) {
		struct frame *top = &g_array_index(stack, struct frame, stack->len - 1);
		struct tmsg *kid;
		int last;

		if (top->next >= top->m->kids->len) {
			g_array_set_size(stack, stack->len - 1);
			if (stack->len && stack->len < MAX_INDENT)
				g_string_truncate(indent, indent->len >= 3 ?
						  indent->len - 3 : 0);
			continue;
		}
		kid = g_ptr_array_index(top->m->kids, top->next);
		top->next++;
		last = top->next == top->m->kids->len;
		print_one(t, kid, indent->str, last, 0);
		if (stack->len < MAX_INDENT)
			g_string_append(indent, last ? "   " : "|  ");
		f.m = kid;
		f.next = 0;
		g_array_append_val(stack, f);
	}
	g_string_free(indent, TRUE);
	g_array_free(stack, TRUE);
}

int cmd_thread(struct onlist_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	struct onlist_store *s;
	GPtrArray *all;
	GHashTable *byid;
	struct tctx t = { 0 };
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	char *id;
	int c, ret = ONLIST_EXIT_OK;
	onlist_status st;

	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts, thread_help)) != -1) {
		switch (c) {
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	if (optind != argc - 1) {
		fputs(thread_help, stderr);
		return ONLIST_EXIT_USAGE;
	}
	/* the same parser as Link: trailers: <id>, id, lore URLs with /T/,
	 * /t.mbox.gz, /raw, %-escapes */
	if (onlist_msgid_parse(argv[optind], &id) != ONLIST_OK) {
		onlist_err("thread: '%s' names no Message-ID", argv[optind]);
		return ONLIST_EXIT_USAGE;
	}
	if (!(s = onlist_cli_open_store_read(cli))) {
		free(id);
		return ONLIST_EXIT_FAIL;
	}
	all = g_ptr_array_new_with_free_func(free_tmsg);
	st = onlist_store_thread(s, id, take, all);
	if (st == ONLIST_ENOTFOUND) {
		/* the id may be copied from a mail, or %-decoded from a URL */
		fputs("onlist: thread: <", stderr);
		onlist_put_text(stderr, id);
		fputs(">: no such message in the database (import it, then "
		      "run `onlist match`)\n", stderr);
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	if (st != ONLIST_OK) {
		onlist_err("thread: %s", onlist_store_errmsg(s));
		ret = ONLIST_EXIT_FAIL;
		goto out;
	}
	byid = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint k = 0; k < all->len; k++) {
		struct tmsg *m = g_ptr_array_index(all, k);
		g_hash_table_insert(byid, m->msgid, m);
	}
	g_ptr_array_sort(all, by_date);
	struct tmsg *root = NULL;
	for (guint k = 0; k < all->len; k++) {
		struct tmsg *m = g_ptr_array_index(all, k);
		struct tmsg *p = m->parent ? g_hash_table_lookup(byid, m->parent)
					   : NULL;
		if (p)
			g_ptr_array_add(p->kids, m);
		else if (!root)
			root = m;
	}
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	t.f = out.f;
	t.s = s;
	t.want = id;
	t.json = fmt == ONLIST_FMT_JSON;
	if (t.json) {
		if (!(t.e = onlist_emit_new(t.f, fmt))) {
			onlist_err("thread: out of memory");
			ret = ONLIST_EXIT_FAIL;
			g_hash_table_destroy(byid);
			onlist_out_close(&out, 0, NULL);
			goto out;
		}
		onlist_emit_begin_list(t.e, ONLIST_EMIT_LINES);
	}
	if (root)
		print_tree(&t, root);
	if (t.json) {
		onlist_emit_end(t.e);
		onlist_emit_free(t.e);
	}
	g_hash_table_destroy(byid);
	ret = onlist_cli_out_close(cli, &out, ret);
out:
	g_ptr_array_free(all, TRUE);
	free(id);
	onlist_store_close(s);
	return ret;
}
