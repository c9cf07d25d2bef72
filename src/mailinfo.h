/* mailinfo.h - the body walk of src/mailinfo.c, private to mail.c and
 * mailinfo.c (not a library interface: the library's is mail.h). */
#ifndef ONLIST_MAILINFO_H
#define ONLIST_MAILINFO_H

#include <stddef.h>
#include "onlist/buf.h"

/* the in-body headers git mailinfo reads */
enum { IB_FROM, IB_SUBJECT, IB_DATE, IB_N };
extern const char *const onlist__inbody_name[IB_N];

/* git's isspace(): no \v or \f. */
static inline int gspace(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

#define MAX_BOUNDARIES 16

enum te { TE_NONE, TE_QP, TE_BASE64 };
enum { SKIP_NONE, SKIP_PART, SKIP_TO_BOUNDARY };

struct split {
	const char *p, *end;		/* what is left of the message */
	struct onlist_buf line, tmp, work, piece, orig;
	struct onlist_buf prev;		/* a partial decoded or flowed line */
	struct onlist_buf accum;	/* an in-body header being read */
	struct onlist_buf msg, patch;
	char *bound[MAX_BOUNDARIES];	/* "--" + boundary, innermost last */
	size_t nbound;
	enum te te;
	char *charset;			/* of the current part; "" none */
	int utf8;			/* that is "" or UTF-8 */
	int orig_kept;			/* orig: the line before conversion */
	int flowed, delsp;
	char ctype[64];			/* of the current part, lower case */
	int header_stage, in_patch, skip;
	int after_header;		/* s->line holds the header just read */
	int headers;			/* fields in the mail's header block */
	int part;			/* 0 the mail itself, then 1, 2... */
	int diff_part;			/* part of the first diff line, -1 */
	int seen[IB_N];
	char *inbody[IB_N];
	int nomem;
};

/* Walk data (LF line ends) into *s: returns where the header block ends
 * (0: the mail has none).  s->nomem when memory ran short; release s with
 * onlist__split_release() either way. */
size_t onlist__split_mail(struct split *s, const char *data, size_t len);
void onlist__split_release(struct split *s);
/* "\r\n" -> "\n" everywhere, as `git mailsplit` (and so `git am`) does
 * before mailinfo sees a mail; NULL when there is none (use the input). */
char *onlist__crlf_to_lf(const char *data, size_t len, size_t *outlen);
/* Does the text after the cut hold a diff at all (not just a "---")?
 * The first "diff -" line, or the cut itself for other diffs, or NULL. */
const char *onlist__find_diff(const char *p, size_t len);
/* NUL bytes to spaces, in place. */
void onlist__nul_to_space(char *p, size_t len);
/* 1: charset name cs names UTF-8 ("utf-8", "utf8", any case). */
int onlist__is_utf8_name(const char *cs);
/* The value of hex digit c, -1 when c is none. */
int onlist__hexdig(int c);
/* The value of base64 digit c, -1 when c is none (padding, blanks). */
int onlist__b64val(unsigned char c);

#endif
