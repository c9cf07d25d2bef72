/* patchfp.h - a diff as the set of lines it changes, and a diff repaired
 * the way mailers damage it.
 *
 * Exact patch-id fails on a patch a maintainer touched on the way in, and
 * on one a mailer mangled.  Two tools for those:
 *
 *  - the fingerprint: one 32-bit hash per changed line (file, sign, the
 *    line with all white space removed), sorted.  Two versions of a patch
 *    share most of them; fuzzy matching scores their overlap.
 *  - the repaired patch-id: the diff rewritten to the form git would have
 *    produced -- hunk lines re-read by the @@ counts, so an empty line or
 *    a context line that lost its leading space is context again, and a
 *    quilt or plain `diff -u` patch given `diff --git` headers -- then
 *    hashed like `git patch-id --stable`.
 *
 * Both read git diffs, quilt patches (Index: lines, paths one directory
 * deep) and plain `diff -u` output.
 */
#ifndef ONLIST_PATCHFP_H
#define ONLIST_PATCHFP_H

#include <stddef.h>
#include <stdint.h>
#include "onlist/patchid.h"

struct onlist_patchfp {
	uint32_t *h;		/* sorted line hashes, with repeats */
	size_t n;
	char *files;		/* touched paths, one per line, in order */
	size_t added, removed;	/* changed lines */
};

/* Fingerprint of the diff in buf.  0, or -1 when out of memory (a text
 * without a diff gives n == 0).  Free with onlist_patchfp_release(). */
int onlist_patchfp_compute(const char *buf, size_t len,
			   struct onlist_patchfp *fp);
void onlist_patchfp_release(struct onlist_patchfp *fp);
/* Both of one diff in one reading: onlist_patchfp_compute() into fp, and
 * what onlist_patch_repaired_id() returns into *has_id (hex filled when
 * 1).  0, or -1 when out of memory (*has_id is set either way). */
int onlist_patchfp_compute_id(const char *buf, size_t len,
			      struct onlist_patchfp *fp,
			      char hex[ONLIST_PATCHID_HEXSZ + 1], int *has_id);

/* Overlap of two fingerprints, 0..1: the mean of the multiset Jaccard
 * index (|a ∩ b| / |a ∪ b|) of the removed lines and of the added lines
 * (only one of them when neither patch has the other kind).  Separating
 * the sides keeps a one-line fix recognisable: the removed line is the
 * same even when the added one was corrected on the way in. */
double onlist_patchfp_similarity(const uint32_t *a, size_t na,
				 const uint32_t *b, size_t nb);
/* Plain Jaccard index of two sorted sets (word fingerprints). */
double onlist_patchfp_set_similarity(const uint32_t *a, size_t na, const uint32_t *b,
			     size_t nb);

/* The repaired patch-id of the diff in buf: 1 and hex filled, or 0 when
 * there is no diff to hash. */
int onlist_patch_repaired_id(const char *buf, size_t len,
			     char hex[ONLIST_PATCHID_HEXSZ + 1]);



/* The words of a commit message as a sorted set of 32-bit hashes: runs of
 * letters and digits, three or more long, lower-cased; trailer lines
 * ("Signed-off-by: ...") and quoted lines are left out.  0, or -1 when out
 * of memory; free *out. */
int onlist_words_fp(const char *text, uint32_t **out, size_t *n);

#endif
