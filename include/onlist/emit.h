/* emit.h - structured output: one emitter for every command's JSON and
 * JSON Lines (notmuch's sprinter is the model).
 *
 * A command describes what it prints as maps, lists and scalars; the
 * emitter writes the separators, the keys' quotes and every escape
 * (through print.h), so no command writes a JSON key or a ", " by hand.
 *
 *   struct onlist_emit *e = onlist_emit_new(stdout, ONLIST_FMT_JSON);
 *   onlist_emit_begin_list(e, ONLIST_EMIT_LINES);	// one item a line
 *   onlist_emit_begin_map(e, 0);			// inline
 *   onlist_emit_key(e, "patch_id"); onlist_emit_str(e, id);
 *   onlist_emit_key(e, "name");     onlist_emit_str(e, name);
 *   onlist_emit_end(e);
 *   onlist_emit_end(e);		// "]" and, at the outermost level, "\n"
 *   onlist_emit_free(e);
 *
 * writes
 *
 *   [
 *     {"patch_id": "...", "name": "..."}
 *   ]
 *
 * Layout: a container opened with ONLIST_EMIT_LINES puts each member on
 * a line of its own, indented two spaces for each open LINES container
 * (itself included; a one-line container adds none), and its closing
 * bracket on a line of its own (an empty one stays "[]" / "{}"); any other
 * container is written on one line with ", " between members and ": "
 * after keys.  Every outermost value ends with a newline, so JSON Lines
 * (ONLIST_FMT_JSONL) is a sequence of outermost maps, where LINES is
 * ignored and everything stays on one line.
 *
 * Misuse (a value in a map without a key, end() with nothing open) is a
 * programming error: the emitter writes nothing for it and remembers it;
 * onlist_emit_free() returns ONLIST_EPARSE then.  Write errors are the
 * FILE's, reported by whoever closes it (onlist_out_close()).
 */
#ifndef ONLIST_EMIT_H
#define ONLIST_EMIT_H

#include <stdint.h>
#include <stdio.h>
#include "onlist/print.h"
#include "onlist/status.h"

struct onlist_emit;

enum { ONLIST_EMIT_LINES = 1 };	/* flags of begin_map/begin_list */

/* An emitter writing `fmt` (ONLIST_FMT_JSON or ONLIST_FMT_JSONL) to f,
 * which stays the caller's; NULL when out of memory or for another
 * format. */
struct onlist_emit *onlist_emit_new(FILE *f, enum onlist_fmt fmt);
/* ONLIST_OK, or ONLIST_EPARSE when the calls did not nest (a container
 * left open, a value without a key); accepts NULL. */
onlist_status onlist_emit_free(struct onlist_emit *e);

void onlist_emit_begin_map(struct onlist_emit *e, int flags);
void onlist_emit_begin_list(struct onlist_emit *e, int flags);
/* Closes the innermost open map or list. */
void onlist_emit_end(struct onlist_emit *e);

/* The next member's key (a map only). */
void onlist_emit_key(struct onlist_emit *e, const char *key);

/* Values: a string escaped by onlist_put_json() (NULL: null); a number;
 * true/false; null. */
void onlist_emit_str(struct onlist_emit *e, const char *s);
void onlist_emit_int(struct onlist_emit *e, int64_t n);
void onlist_emit_bool(struct onlist_emit *e, int b);
void onlist_emit_null(struct onlist_emit *e);
/* A number with `decimals` digits after the point ("%.*f"); null when it
 * is not finite (JSON has no NaN or infinity). */
void onlist_emit_fixed(struct onlist_emit *e, double v, int decimals);
/* A number given as text (a database column's): written as it is when it
 * is a JSON number by RFC 8259's grammar, else as a string, so that
 * "nan", "0x1f" or " 12" from a tampered database cannot break the
 * document. */
void onlist_emit_number(struct onlist_emit *e, const char *literal);

/* Shorthands for a key and its value. */
void onlist_emit_kstr(struct onlist_emit *e, const char *key, const char *s);
void onlist_emit_kint(struct onlist_emit *e, const char *key, int64_t n);
void onlist_emit_kbool(struct onlist_emit *e, const char *key, int b);
/* Several string members: key, value pairs (a value may be NULL: null),
 * ended by a NULL key.  A record's text fields read as one table:
 *   onlist_emit_kstrs(e, "key", t->key, "name", t->name, NULL); */
void onlist_emit_kstrs(struct onlist_emit *e, const char *key, ...)
	__attribute__((sentinel));

/* The next member of the innermost container stays on the line of the one
 * before it (", " instead of a new line), for a pair that reads as one:
 * "since": A, "until": B.  Nothing changes in a one-line container. */
void onlist_emit_same_line(struct onlist_emit *e);

#endif
