/* print.h - the one way onlist writes text that came from mail or git.
 *
 * Every string a command prints that came from a message, a commit or a
 * server goes through one of the onlist_put_*() escapers below; no other
 * file escapes.  All of them read their input as UTF-8: a byte that does
 * not start or continue a valid UTF-8 sequence becomes U+FFFD, so what
 * they write is always valid UTF-8 (a Latin-1 subject from an old commit
 * with no encoding header prints as "?" in a box, not as bytes that make a
 * JSON parser give up).  A NULL string writes nothing (JSON: null).
 *
 * "Controls" below are C0 (U+0000-U+001F), DEL, C1 (U+0080-U+009F) and the
 * bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069): a mail must not drive a terminal, nor reorder what a
 * reader sees (CVE-2021-42574, "Trojan Source").
 *
 * The escapers ignore write errors; onlist_out_close() reports them.
 */
#ifndef ONLIST_PRINT_H
#define ONLIST_PRINT_H

#include <stdio.h>
#include "onlist/status.h"

/* The output formats.  Not every command offers every format. */
enum onlist_fmt {
	ONLIST_FMT_TEXT,	/* for a terminal or a mail body */
	ONLIST_FMT_JSON,	/* one JSON document */
	ONLIST_FMT_JSONL,	/* one JSON object per line */
	ONLIST_FMT_MD,		/* Markdown */
	ONLIST_FMT_HTML,	/* one self-contained HTML page */
	ONLIST_FMT_CSV,		/* RFC 4180 */
	ONLIST_FMT_MAIL,	/* one RFC 5322 message (report) */
};

/* "text", "json", ...; never NULL. */
const char *onlist_fmt_name(enum onlist_fmt f);
/* The format called `name` (exact, lower case): ONLIST_OK, or
 * ONLIST_ENOTFOUND for a name that is none of them. */
onlist_status onlist_fmt_parse(const char *name, enum onlist_fmt *out);

/* Terminal text: controls (newline and tab included) are shown as
 * "U+XXXX", everything else as it is. */
void onlist_put_text(FILE *f, const char *s);

/* The same, but line ends and tabs pass: for messages of several lines
 * (git's stderr in an error). */
void onlist_put_text_lines(FILE *f, const char *s);

/* What onlist_put_text() would write, as a new string (the caller's,
 * free()), for text assembled before it is printed; NULL when out of
 * memory.  NULL in gives "". */
char *onlist_text_dup(const char *s);

/* Columns the first n bytes of UTF-8 text s take on a terminal (stop at
 * a NUL): East Asian wide characters count two, combining marks and
 * zero-width characters none, every other character one, and a byte
 * that is not UTF-8 one (the one rule for every aligned or wrapped
 * text output). */
size_t onlist_text_width(const char *s, size_t n);

/* s percent-encoded for a URL (GLib's encoder): RFC 3986's unreserved
 * characters and those in `keep` stay, every other byte (UTF-8 ones too)
 * becomes %XX.  malloc'd; NULL when memory is short. */
char *onlist_url_escape(const char *s, const char *keep);

/* A JSON string literal, quotes included; NULL writes null.  Controls are
 * written as \uXXXX escapes (also C1, bidi and U+2028/U+2029, which are
 * valid JSON but would reach whoever prints the value). */
void onlist_put_json(FILE *f, const char *s);

/* One member of a JSON object: `"key": value` (value as onlist_put_json),
 * after "{" when it is the first, else after ", ".  The caller writes the
 * closing "}". */
void onlist_put_json_field(FILE *f, int first, const char *key,
			   const char *value);

/* A whole JSON object of string members, from key, value pairs ended by
 * a NULL key: onlist_put_json_object(f, "key", k, "name", n, NULL) writes
 * {"key": "...", "name": "..."} (a NULL value: null). */
void onlist_put_json_object(FILE *f, const char *key, ...)
	__attribute__((sentinel));

/* Markdown: the characters Markdown acts on (\ ` * _ [ ] < > | #) get a
 * backslash; a line break becomes a space (so a value never ends a table
 * row or a list item); other controls become "U+XXXX". */
void onlist_put_md(FILE *f, const char *s);

/* HTML text (between tags): & < > " ' as entities, each control as
 * <span class="ctl">U+XXXX</span>. */
void onlist_put_html(FILE *f, const char *s);
/* An HTML attribute value (inside double quotes): the same entities, a
 * control as plain "U+XXXX". */
void onlist_put_html_attr(FILE *f, const char *s);

/* One CSV field, always quoted (RFC 4180: " doubled, line breaks kept
 * inside the quotes).  A value that a spreadsheet would run as a formula
 * (first character = + - @, TAB or CR) gets a leading ', and controls
 * other than TAB, CR and LF become "U+XXXX". */
void onlist_put_csv(FILE *f, const char *s);

/* Where a command writes: standard output, or a file given with -o that
 * appears only when the output is complete.
 *
 *   struct onlist_out out = ONLIST_OUT_INIT;
 *   if (onlist_out_open(&out, path, &err)) ... print to out.f ...
 *   if (onlist_out_close(&out, 1, &err)) ... report err, exit 1
 *
 * With a path (not NULL, not "-"), out.f is a temporary file in the same
 * folder, renamed over `path` by onlist_out_close(o, 1, ...) only when
 * every write succeeded; so a failed run never destroys the previous
 * report.  onlist_out_close(o, 0, ...) throws the temporary file away. */
struct onlist_out {
	FILE *f;
	char *path;		/* the final name, or NULL for stdout */
	char *tmp;		/* the temporary file, or NULL */
};
#define ONLIST_OUT_INIT { NULL, NULL, NULL }

/* ONLIST_OK, or ONLIST_EIO with *err (the caller's, free()) saying why. */
onlist_status onlist_out_open(struct onlist_out *o, const char *path,
			      char **err);
/* Flush, check for any write error (a full disk, EPIPE when SIGPIPE is
 * ignored), and with `keep` move the file into place.  ONLIST_OK, or
 * ONLIST_EIO with *err.  Always releases o; safe on a never-opened o. */
onlist_status onlist_out_close(struct onlist_out *o, int keep, char **err);

#endif
