#ifndef ONLIST_VOCAB_H
#define ONLIST_VOCAB_H

/*
 * The words onlist's verdicts are made of, said once.
 *
 * A match method is the tier that found a mail for a commit.  Its row in
 * ONLIST_METHODS says, in this order: the C name, the word stored in
 * matches.method and printed, whether a match by it is a posting of the
 * commit (echo: only an echo or bot mail carries the patch; late: sent
 * more than a day after the commit landed), and whether the mail carries
 * an edited form of the patch rather than the commit's own ("modified
 * before merge").  The rows are in rank order, the surest first: when one
 * mail is found by several tiers, the first names it.
 *
 * The SQL conditions below are made from the same rows, the way every C
 * helper is, so a new method is one new line here.
 */

#define ONLIST_METHODS(X) \
	X(LINK,         "link",         1, 0) \
	X(PATCH_ID,     "patch-id",     1, 0) \
	X(PATCH_ID_ALG, "patch-id-alg", 1, 0) \
	X(REPAIRED,     "repaired",     1, 0) \
	X(QUOTED,       "quoted",       1, 0) \
	X(AUTHOR_DATE,  "author-date",  1, 1) \
	X(SUBJECT,      "subject",      1, 1) \
	X(FUZZY,        "fuzzy",        1, 1) \
	X(ECHO,         "echo",         0, 0) \
	X(LATE,         "late",         0, 0)

enum onlist_method {
#define ONLIST__METHOD_ENUM(id, name, posting, edited) ONLIST_METHOD_##id,
	ONLIST_METHODS(ONLIST__METHOD_ENUM)
#undef ONLIST__METHOD_ENUM
	ONLIST_METHOD_UNKNOWN	/* a word no row has (a newer onlist's) */
};

/* The method a stored word names; ONLIST_METHOD_UNKNOWN for NULL or a
 * word of no row. */
enum onlist_method onlist_method_parse(const char *name);
/* The stored word; "?" for ONLIST_METHOD_UNKNOWN. */
const char *onlist_method_name(enum onlist_method m);
/* Where the method stands, 0 the surest; the unknown rank last. */
int onlist_method_rank(const char *name);
/* 1: a match by it is a posting of the commit. */
int onlist_method_is_posting(const char *name);
/* 1: the mail it found carries an edited form of the patch. */
int onlist_method_is_edited(const char *name);

/* SQL: the quoted words of the rows whose flag is set (or clear),
 * "'a', 'b'". */
#define ONLIST__SQL_IF_SET(flag, name) ONLIST__SQL_IF_SET_##flag(name)
#define ONLIST__SQL_IF_SET_0(name)
#define ONLIST__SQL_IF_SET_1(name) ", '" name "'"
#define ONLIST__SQL_IF_CLEAR(flag, name) ONLIST__SQL_IF_CLEAR_##flag(name)
#define ONLIST__SQL_IF_CLEAR_0(name) ", '" name "'"
#define ONLIST__SQL_IF_CLEAR_1(name)
#define ONLIST__NOT_POSTING_WORD(id, name, posting, edited) \
	ONLIST__SQL_IF_CLEAR(posting, name)
#define ONLIST__EDITED_WORD(id, name, posting, edited) \
	ONLIST__SQL_IF_SET(edited, name)

/* An SQL condition, true when the match whose method is the column `col`
 * is a posting: ONLIST_SQL_POSTED("x.method").  (The leading "''" keeps
 * the list well formed; no method is the empty word.) */
#define ONLIST_SQL_POSTED(col) \
	" " col " NOT IN (''" ONLIST_METHODS(ONLIST__NOT_POSTING_WORD) ")"
/* True when the match found an edited form: ONLIST_SQL_EDITED("x.method"). */
#define ONLIST_SQL_EDITED(col) \
	" " col " IN (''" ONLIST_METHODS(ONLIST__EDITED_WORD) ")"

/* The review trailers: a reply that gives one of these (unquoted) reviews
 * the patch.  Lower case, as compared. */
#define ONLIST_REVIEW_KEYS(X) X("reviewed-by") X("acked-by") X("tested-by")
#define ONLIST__SQL_KEY(k) ", '" k "'"
/* SQL: `lower(t.key) IN ONLIST_SQL_REVIEW_KEYS`. */
#define ONLIST_SQL_REVIEW_KEYS "(''" ONLIST_REVIEW_KEYS(ONLIST__SQL_KEY) ")"
/* 1: key (any case) is a review trailer's. */
int onlist_is_review_key(const char *key);

/* The trailers that refuse a patch, lower case. */
#define ONLIST_NAK_KEYS(X) X("nacked-by") X("nak")
/* SQL: `lower(t.key) IN ONLIST_SQL_TAG_KEYS`: a review or a NAK. */
#define ONLIST_SQL_TAG_KEYS \
	"(''" ONLIST_REVIEW_KEYS(ONLIST__SQL_KEY) ONLIST_NAK_KEYS(ONLIST__SQL_KEY) ")"
/* 1: key (any case) is a NAK trailer's. */
int onlist_is_nak_key(const char *key);

#endif
