/* sha1.c - SHA-1 through OpenSSL's libcrypto (sha1.h). */
#include <openssl/sha.h>

#include "onlist/sha1.h"

/* OpenSSL 3 deprecates SHA1_*, but the EVP route costs a provider dispatch
 * per call and a fetch per init: too slow for one context per file of
 * every patch (patchid.c makes one per file). */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

_Static_assert(sizeof(SHA_CTX) <= sizeof(((struct onlist_sha1 *)0)->u),
	       "struct onlist_sha1 is too small for SHA_CTX");
_Static_assert(_Alignof(SHA_CTX) <= _Alignof(struct onlist_sha1),
	       "struct onlist_sha1 is not aligned for SHA_CTX");

static SHA_CTX *ctx(struct onlist_sha1 *c)
{
	return (SHA_CTX *)(void *)c->u.bytes;
}

void onlist_sha1_init(struct onlist_sha1 *c)
{
	SHA1_Init(ctx(c));
}

void onlist_sha1_update(struct onlist_sha1 *c, const void *data, size_t len)
{
	SHA1_Update(ctx(c), data, len);
}

void onlist_sha1_final(unsigned char md[ONLIST_SHA1_RAWSZ], struct onlist_sha1 *c)
{
	SHA1_Final(md, ctx(c));
}
