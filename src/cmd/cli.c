/* cmd_common.c - what the subcommands share: opening the store, JSON
 * strings, progress lines. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "onlist/store.h"

struct onlist_store *onlist_cli_open_store(struct onlist_cli *cli)
{
	struct onlist_store *s;
	char *err = NULL;

	if (onlist_store_open(&s, cli->db_path, &err) != ONLIST_OK) {
		onlist_err("cannot open database %s", err ? err : cli->db_path);
		free(err);
		return NULL;
	}
	return s;
}

void onlist_json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void onlist_put_clean(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

void onlist_fmt_date(const char *epoch, char *out, size_t n, int with_time)
{
	time_t t = epoch ? (time_t)atoll(epoch) : 0;
	struct tm tm;

	if (!epoch || !gmtime_r(&t, &tm)) {
		snprintf(out, n, "?");
		return;
	}
	strftime(out, n, with_time ? "%Y-%m-%dT%H:%M:%SZ" : "%Y-%m-%d", &tm);
}

double onlist_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void onlist_progress_init(struct onlist_progress *p, struct onlist_cli *cli)
{
	p->on = !cli->quiet && isatty(2);
	p->start = p->last = onlist_now();
	p->printed = 0;
}

void onlist_progress(struct onlist_progress *p, const char *fmt, ...)
{
	va_list ap;
	double now;

	if (!p->on)
		return;
	now = onlist_now();
	if (now - p->last < 0.25)
		return;
	p->last = now;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	p->printed = 1;
}

void onlist_progress_done(struct onlist_progress *p)
{
	if (p->on && p->printed)
		fputs("\r\033[K", stderr);
	p->printed = 0;
}

int onlist_cli_help(int argc, char **argv, const char *text)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(text, stdout);
			return 1;
		}
	}
	return 0;
}
