/* plugin.c - the mail reader (GMime) and the HTTP client (libcurl) as
 * modules loaded on first use.
 *
 * GMime and libcurl bring 38 shared libraries with them (GIO, gpgme,
 * GnuTLS, Kerberos, LDAP, ...).  Linked into the program, the dynamic
 * loader maps and relocates every one of them before main() on every
 * run, which is most of what `onlist lookup` costs.  So the program is
 * linked without them: src/mail.c is built as onlist-mail.so and
 * src/fetch.c as onlist-fetch.so, and the functions of mail.h and
 * fetch.h here load the module the first time one of them is called.
 * A command that reads no mail and fetches nothing never loads either.
 *
 * A module is looked for beside the running program (the build tree),
 * then in ONLIST_PLUGIN_DIR (where `make install` puts it).  The modules
 * call back into the program for a few helpers (the buffer, SHA-1, the
 * gzip check, the error setter); the Makefile exports exactly those.
 *
 * OpenSSL's libcrypto, the largest library left (2 ms of relocations per
 * run), comes the same way: onlist-crypto.so is an empty module that
 * depends on it, and SHA1_Init/Update/Final below are looked up through
 * it the first time patchid.c hashes.  A lookup or a report never does.
 *
 * The unit tests and the fuzz harnesses link libonlist.a, which holds the
 * real mail.o and fetch.o, not this file.  A module that cannot be loaded
 * is a broken installation: the message names the file and the program
 * exits 1. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/sha.h>

#include "cli.h"
#include "onlist/fetch.h"
#include "onlist/mail.h"

#if defined(__GNUC__)	/* SHA1_* are deprecated in OpenSSL 3; patchid.c */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"	/* says why */
#endif

#ifndef ONLIST_PLUGIN_DIR
#define ONLIST_PLUGIN_DIR "/usr/local/lib/onlist"
#endif

/* X(return type, name, parameters, arguments) for each function; XV for
 * those that return nothing. */
#define MAIL_API(X, XV)							\
	X(onlist_status, onlist_source_open,				\
	  (struct onlist_source **out, const char *path, char **errmsg), \
	  (out, path, errmsg))						\
	X(onlist_status, onlist_source_open_fd,				\
	  (struct onlist_source **out, int fd, const char *prefix,	\
	   size_t prefixlen, char **errmsg),				\
	  (out, fd, prefix, prefixlen, errmsg))				\
	XV(onlist_source_free, (struct onlist_source *src), (src))	\
	X(onlist_status, onlist_source_next,				\
	  (struct onlist_source *src, struct onlist_raw *raw, char **errmsg), \
	  (src, raw, errmsg))						\
	X(onlist_status, onlist_mail_parse,				\
	  (struct onlist_mail **out, const char *data, size_t len,	\
	   char **errmsg),						\
	  (out, data, len, errmsg))					\
	XV(onlist_mail_free, (struct onlist_mail *m), (m))		\
	X(const char *, onlist_mail_message_id, (const struct onlist_mail *m), (m)) \
	X(int, onlist_mail_id_is_synthetic, (const struct onlist_mail *m), (m)) \
	X(int64_t, onlist_mail_date, (const struct onlist_mail *m), (m)) \
	X(const char *, onlist_mail_from_name, (const struct onlist_mail *m), (m)) \
	X(const char *, onlist_mail_from_addr, (const struct onlist_mail *m), (m)) \
	X(const char *, onlist_mail_subject, (const struct onlist_mail *m), (m)) \
	X(const char *, onlist_mail_in_reply_to, (const struct onlist_mail *m), (m)) \
	X(const char *, onlist_mail_references, (const struct onlist_mail *m), (m)) \
	X(const char *, onlist_mail_body, (const struct onlist_mail *m), (m)) \
	X(const char *, onlist_mail_inbody,				\
	  (const struct onlist_mail *m, const char *name), (m, name))	\
	X(const char *, onlist_mail_patch,				\
	  (const struct onlist_mail *m, size_t *len), (m, len))		\
	X(const char *, onlist_mail_patch_source, (const struct onlist_mail *m), (m)) \
	X(int, onlist_mail_patchid,					\
	  (const struct onlist_mail *m, char hex[ONLIST_PATCHID_HEXSZ + 1]), \
	  (m, hex))							\
	X(const char *, onlist_mail_mailer, (const struct onlist_mail *m), (m)) \
	X(int, onlist_mail_has_patchwork, (const struct onlist_mail *m), (m)) \
	X(int64_t, onlist_mail_received, (const char *data, size_t len), \
	  (data, len))

#define FETCH_API(X, XV)						\
	X(double, onlist_http_now, (void), ())				\
	X(onlist_status, onlist_http_get,				\
	  (const char *url, const char *dest, int post,			\
	   const struct onlist_http_opts *opts,				\
	   struct onlist_http_cache *cache,				\
	   enum onlist_http_result *result, char **errmsg),		\
	  (url, dest, post, opts, cache, result, errmsg))		\
	XV(onlist_http_cache_release, (struct onlist_http_cache *cache), (cache)) \
	XV(onlist_http_init, (void), ())				\
	XV(onlist_http_cleanup, (void), ())

#define CRYPTO_API(X, XV)						\
	X(int, SHA1_Init, (SHA_CTX *c), (c))				\
	X(int, SHA1_Update, (SHA_CTX *c, const void *data, size_t len),	\
	  (c, data, len))						\
	X(int, SHA1_Final, (unsigned char *md, SHA_CTX *c), (md, c))

#define PTR(ret, name, params, args) ret (*name) params;
#define PTRV(name, params, args) void (*name) params;
static struct {
	MAIL_API(PTR, PTRV)
} mail_fn;
static struct {
	FETCH_API(PTR, PTRV)
} fetch_fn;
static struct {
	CRYPTO_API(PTR, PTRV)
} crypto_fn;

/* The module NAME, opened from beside the program or from the install
 * folder; exits 1 with the reason when neither works. */
static void *open_module(const char *name)
{
	char self[PATH_MAX], path[PATH_MAX + 64];
	const char *why = NULL;
	void *h = NULL;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(path, sizeof(path), "%s/%s", self, name);
			if (access(path, F_OK) == 0 &&
			    !(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
				why = dlerror();
		}
	}
	if (!h && !why) {
		snprintf(path, sizeof(path), "%s/%s", ONLIST_PLUGIN_DIR, name);
		if (!(h = dlopen(path, RTLD_NOW | RTLD_LOCAL)))
			why = dlerror();
	}
	if (!h) {
		onlist_err("cannot load %s (%s); is onlist installed whole?",
			   path, why ? why : "unknown error");
		exit(1);
	}
	return h;
}

static void *need(void *h, const char *module, const char *sym)
{
	void *p = dlsym(h, sym);

	if (!p) {
		onlist_err("%s has no %s: it is from another build of onlist",
			   module, sym);
		exit(1);
	}
	return p;
}

#define LOAD(ret, name, params, args) \
	*(void **)&fns->name = need(h, module, #name);
#define LOADV(name, params, args) LOAD(void, name, params, args)

static void load_mail(void)
{
	static const char module[] = "onlist-mail.so";
	void *h = open_module(module);
	__typeof__(mail_fn) *fns = &mail_fn;

	MAIL_API(LOAD, LOADV)
}

static void load_fetch(void)
{
	static const char module[] = "onlist-fetch.so";
	void *h = open_module(module);
	__typeof__(fetch_fn) *fns = &fetch_fn;

	FETCH_API(LOAD, LOADV)
}

static void load_crypto(void)
{
	static const char module[] = "onlist-crypto.so";
	void *h = open_module(module);
	__typeof__(crypto_fn) *fns = &crypto_fn;

	CRYPTO_API(LOAD, LOADV)
}

static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;
static pthread_once_t mail_once = PTHREAD_ONCE_INIT;
static pthread_once_t fetch_once = PTHREAD_ONCE_INIT;

#define CALL(ret, name, params, args)				\
	ret name params						\
	{							\
		pthread_once(&ONCE, LOADER);			\
		return FNS.name args;				\
	}
#define CALLV(name, params, args)				\
	void name params					\
	{							\
		pthread_once(&ONCE, LOADER);			\
		FNS.name args;					\
	}

#define ONCE mail_once
#define LOADER load_mail
#define FNS mail_fn
MAIL_API(CALL, CALLV)
#undef ONCE
#undef LOADER
#undef FNS

#define ONCE fetch_once
#define LOADER load_fetch
#define FNS fetch_fn
FETCH_API(CALL, CALLV)
#undef ONCE
#undef LOADER
#undef FNS

#define ONCE crypto_once
#define LOADER load_crypto
#define FNS crypto_fn
CRYPTO_API(CALL, CALLV)
