/* patchid.h - patch-ids byte-identical to `git patch-id --stable` (git 2.39).
 *
 * The computation is a line-driven state machine that mirrors git's
 * builtin/patch-id.c: feed it lines (each including its trailing '\n' when
 * the input had one) and it tells you when a patch ended.  Nothing here
 * allocates; a struct onlist_patchid lives on the caller's stack.
 */
#ifndef ONLIST_PATCHID_H
#define ONLIST_PATCHID_H

#include <stddef.h>
#include <stdio.h>
#include "onlist/status.h"
#include "onlist/sha1.h"

#define ONLIST_PATCHID_RAWSZ 20
#define ONLIST_PATCHID_HEXSZ 40

struct onlist_patchid {
	struct onlist_sha1 ctx;
	unsigned char result[ONLIST_PATCHID_RAWSZ];
	int stable;		/* 1: --stable (per-file sums); 0: --unstable */
	int before, after;	/* lines left in the current hunk, -1 = in a header */
	int binary;		/* inside a binary file's diff */
	long patchlen;		/* bytes hashed so far; 0 = no patch seen yet */
	char pre_oid[65], post_oid[65];	/* from the last "index " line */
};

/* What onlist_patchid_line() made of a line. */
enum onlist_patchid_event {
	ONLIST_PATCHID_MORE = 0,	/* consumed; keep feeding */
	ONLIST_PATCHID_END,	/* the line ended the patch (git drops it) */
	ONLIST_PATCHID_NEXT,	/* the line names the next patch: `commit <hex>`,
				 * `From <hex>` or a bare 40-hex line; name gets
				 * the 40 hex digits, lower-case, NUL-terminated */
};

void onlist_patchid_init(struct onlist_patchid *p, int stable);

/* Feed one line of `len` bytes (no NUL needed; a NUL inside ends the line as
 * it does for git).  After END or NEXT the state must be finished and
 * re-initialised before feeding more.  Note: git carries the last "index"
 * line's blob ids from one patch to the next within a run (a binary file
 * without an index line hashes the previous ones); re-initialising loses
 * them, which onlist_patchid_stream() and _buf() handle internally. `name` may be NULL; else it must
 * hold ONLIST_PATCHID_HEXSZ + 1 bytes. */
enum onlist_patchid_event onlist_patchid_line(struct onlist_patchid *p,
					      const char *line, size_t len,
					      char *name);

/* Finish: write the id to out and return 1, or return 0 when no patch text
 * was hashed (git prints nothing for such an input). */
int onlist_patchid_finish(struct onlist_patchid *p,
			  unsigned char out[ONLIST_PATCHID_RAWSZ]);

/* Convenience: the stable id of one patch held in buf (text before the first
 * "diff " line is skipped, as git does).  Returns 1 and fills out, or 0 when
 * buf holds no patch.  The id is the first one git would *print* for buf:
 * patches that hash nothing (a leading `From <hex>` line, a body line
 * `commit <hex> upstream.`) are passed over as git passes them over. */
int onlist_patchid_buf(const char *buf, size_t len,
		       unsigned char out[ONLIST_PATCHID_RAWSZ]);

/* git's generate_id_list() over a whole stream: every patch in `in`
 * (git log -p, diff-tree --stdin -p, format-patch output) becomes a line
 * "<patch-id> <name>\n" on `out`, exactly as `git patch-id` prints it.
 * `prefix` holds bytes the caller already read from `in` (may be NULL/0).
 * Returns ONLIST_OK, ONLIST_EIO when reading or writing failed, or
 * ONLIST_ENOMEM when no read buffer could be had. */
onlist_status onlist_patchid_stream(FILE *in, const char *prefix,
				    size_t prefixlen, FILE *out, int stable);

/* Lower-case hex of a raw id into hex (ONLIST_PATCHID_HEXSZ + 1 bytes). */
void onlist_patchid_hex(const unsigned char raw[ONLIST_PATCHID_RAWSZ],
			char *hex);

#endif
