/* emit.c - the structured-output emitter (emit.h). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "onlist/emit.h"

#define MAX_DEPTH 32

struct level {
	char close;		/* ']' or '}' */
	char lines;		/* one member a line */
	char want_key;		/* a map waiting for its next key */
	char same_line;		/* the next member stays on this line */
	long n;			/* members written so far */
};

struct onlist_emit {
	FILE *f;
	int jsonl;
	int depth;
	int broken;		/* misuse seen */
	struct level lv[MAX_DEPTH];
};

struct onlist_emit *onlist_emit_new(FILE *f, enum onlist_fmt fmt)
{
	struct onlist_emit *e;

	if (fmt != ONLIST_FMT_JSON && fmt != ONLIST_FMT_JSONL)
		return NULL;
	if (!(e = calloc(1, sizeof(*e))))
		return NULL;
	e->f = f;
	e->jsonl = fmt == ONLIST_FMT_JSONL;
	return e;
}

onlist_status onlist_emit_free(struct onlist_emit *e)
{
	onlist_status st;

	if (!e)
		return ONLIST_OK;
	st = e->broken || e->depth ? ONLIST_EPARSE : ONLIST_OK;
	free(e);
	return st;
}

/* A new line, indented two spaces for each of the `depth` outermost open
 * containers that is laid out a member a line: a one-line container adds
 * no indentation, so `{"files": [` opens a list whose rows sit two spaces
 * in and whose "]" starts its line. */
static void indent(struct onlist_emit *e, int depth)
{
	putc('\n', e->f);
	for (int i = 0; i < depth; i++)
		if (e->lv[i].lines)
			fputs("  ", e->f);
}

/* Before a member of the innermost container (a map's key, a list's
 * item): its separator.  0 when the call is misplaced. */
static int before_member(struct onlist_emit *e)
{
	struct level *l;

	if (!e->depth)
		return 1;	/* an outermost value */
	l = &e->lv[e->depth - 1];
	if (l->n)
		putc(',', e->f);
	if (l->lines && !(l->n && l->same_line))
		indent(e, e->depth);
	else if (l->n)
		putc(' ', e->f);
	l->same_line = 0;
	l->n++;
	return 1;
}

/* Before a value: in a map it must follow a key; in a list it is a
 * member.  0 when misplaced (nothing is written then). */
static int before_value(struct onlist_emit *e)
{
	struct level *l;

	if (!e->depth)
		return 1;
	l = &e->lv[e->depth - 1];
	if (l->close == '}') {
		if (!l->want_key)
			return l->want_key = 0, e->broken = 1, 0;
		l->want_key = 0;
		return 1;
	}
	return before_member(e);
}

static void after_value(struct onlist_emit *e)
{
	if (!e->depth)
		putc('\n', e->f);
	else if (e->lv[e->depth - 1].close == '}')
		e->lv[e->depth - 1].want_key = 0;
}

static void begin(struct onlist_emit *e, char open, char close, int flags)
{
	if (!before_value(e))
		return;
	if (e->depth == MAX_DEPTH) {
		e->broken = 1;
		return;
	}
	putc(open, e->f);
	e->lv[e->depth++] = (struct level){
		close, (flags & ONLIST_EMIT_LINES) && !e->jsonl, 0, 0, 0 };
}

void onlist_emit_begin_map(struct onlist_emit *e, int flags)
{
	begin(e, '{', '}', flags);
}

void onlist_emit_begin_list(struct onlist_emit *e, int flags)
{
	begin(e, '[', ']', flags);
}

void onlist_emit_end(struct onlist_emit *e)
{
	struct level *l;

	if (!e->depth) {
		e->broken = 1;
		return;
	}
	l = &e->lv[--e->depth];
	if (l->want_key)
		e->broken = 1;	/* a key without its value */
	if (l->lines && l->n)
		indent(e, e->depth);
	putc(l->close, e->f);
	after_value(e);
}

void onlist_emit_key(struct onlist_emit *e, const char *key)
{
	struct level *l = e->depth ? &e->lv[e->depth - 1] : NULL;

	if (!l || l->close != '}' || l->want_key) {
		e->broken = 1;
		return;
	}
	before_member(e);
	onlist_put_json(e->f, key ? key : "");
	fputs(": ", e->f);
	l->want_key = 1;
}

void onlist_emit_str(struct onlist_emit *e, const char *s)
{
	if (!before_value(e))
		return;
	onlist_put_json(e->f, s);
	after_value(e);
}

void onlist_emit_int(struct onlist_emit *e, int64_t n)
{
	if (!before_value(e))
		return;
	fprintf(e->f, "%" PRId64, n);
	after_value(e);
}

void onlist_emit_bool(struct onlist_emit *e, int b)
{
	if (!before_value(e))
		return;
	fputs(b ? "true" : "false", e->f);
	after_value(e);
}

void onlist_emit_null(struct onlist_emit *e)
{
	if (!before_value(e))
		return;
	fputs("null", e->f);
	after_value(e);
}

void onlist_emit_fixed(struct onlist_emit *e, double v, int decimals)
{
	if (!before_value(e))
		return;
	if (isfinite(v))
		fprintf(e->f, "%.*f", decimals, v);
	else
		fputs("null", e->f);
	after_value(e);
}

/* RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return 0;
	if (*s == '.') {
		if (*++s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		if (*++s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return !*s;
}

void onlist_emit_number(struct onlist_emit *e, const char *literal)
{
	if (!literal || !json_number(literal)) {
		onlist_emit_str(e, literal);
		return;
	}
	if (!before_value(e))
		return;
	fputs(literal, e->f);
	after_value(e);
}

void onlist_emit_kstr(struct onlist_emit *e, const char *key, const char *s)
{
	onlist_emit_key(e, key);
	onlist_emit_str(e, s);
}

void onlist_emit_kstrs(struct onlist_emit *e, const char *key, ...)
{
	va_list ap;

	va_start(ap, key);
	for (; key; key = va_arg(ap, const char *))
		onlist_emit_kstr(e, key, va_arg(ap, const char *));
	va_end(ap);
}

void onlist_emit_kint(struct onlist_emit *e, const char *key, int64_t n)
{
	onlist_emit_key(e, key);
	onlist_emit_int(e, n);
}

void onlist_emit_kbool(struct onlist_emit *e, const char *key, int b)
{
	onlist_emit_key(e, key);
	onlist_emit_bool(e, b);
}

void onlist_emit_same_line(struct onlist_emit *e)
{
	if (e->depth)
		e->lv[e->depth - 1].same_line = 1;
}
