/* sha1.h - SHA-1 for patch-ids and synthetic Message-IDs, behind one small
 * interface so that no header under include/ names OpenSSL's types (git's
 * hash.h does the same).  The context lives on the caller's stack or inside
 * a struct of the caller's; nothing here allocates or fails.
 */
#ifndef ONLIST_SHA1_H
#define ONLIST_SHA1_H

#include <stddef.h>
#include <stdint.h>

#define ONLIST_SHA1_RAWSZ 20

/* Large and aligned enough for OpenSSL's SHA_CTX (sha1.c checks this when
 * it is compiled); its bytes are sha1.c's alone. */
struct onlist_sha1 {
	union {
		unsigned char bytes[128];
		uint64_t align;
	} u;
};

void onlist_sha1_init(struct onlist_sha1 *c);
void onlist_sha1_update(struct onlist_sha1 *c, const void *data, size_t len);
/* Writes the 20-byte digest to md; c must be initialised again before reuse. */
void onlist_sha1_final(unsigned char md[ONLIST_SHA1_RAWSZ], struct onlist_sha1 *c);

#endif
