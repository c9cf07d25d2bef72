/* patchid.c - git 2.39's `git patch-id` (builtin/patch-id.c), byte for byte.
 *
 * Every rule below was checked against the git 2.39.5 binary
 * (tests/test_patchid.c, tests/t010-patchid-oracle.sh).  Lines are handled
 * as bounded byte ranges; git sees C strings, so a NUL ends a line here too.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/patchid.h"

#if defined(__x86_64__) && defined(__GNUC__)
#define USE_X86 1
#include <immintrin.h>
#endif

#define STAGE_SIZE 16384	/* whitespace-stripped bytes per onlist_sha1_update */
#define CHUNK_SIZE (1 << 20)	/* stream read size */

/* git's isspace() (sane_ctype): ' ', '\t', '\n', '\r' only, not \v or \f. */
static const unsigned char is_space[256] = {
	[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
};

static signed char hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int starts(const char *s, size_t len, const char *pfx, size_t plen)
{
	return len >= plen && memcmp(s, pfx, plen) == 0;
}
#define STARTS(s, len, lit) starts((s), (len), (lit), sizeof(lit) - 1)

/* The byte git would see at s[i]: past the end is the terminating NUL. */
static unsigned char at(const char *s, size_t len, size_t i)
{
	return i < len ? (unsigned char)s[i] : 0;
}

static size_t span_digits(const char *s, size_t len, size_t i)
{
	size_t n = 0;

	while (at(s, len, i + n) >= '0' && at(s, len, i + n) <= '9')
		n++;
	return n;
}

/* glibc's atoi(): (int)strtol(s, NULL, 10), which skips C-locale spaces,
 * takes a sign and saturates at LONG_MIN/LONG_MAX. */
static int c_atoi(const char *s, size_t len, size_t i)
{
	unsigned long v = 0, lim;
	int neg = 0, over = 0;
	unsigned char c;

	while ((c = at(s, len, i)) == ' ' || (c >= '\t' && c <= '\r'))
		i++;
	if (c == '+' || c == '-') {
		neg = c == '-';
		i++;
	}
	lim = neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
	while ((c = at(s, len, i)) >= '0' && c <= '9') {
		if (v > (lim - (c - '0')) / 10)
			over = 1;
		else
			v = v * 10 + (c - '0');
		i++;
	}
	if (over)
		v = lim;
	return (int)(neg ? (long)(0 - v) : (long)v);
}

/* git's scan_hunk_header(): on a malformed header the counts it already
 * assigned stay assigned, the rest keep their old values. */
static void scan_hunk_header(const char *s, size_t len, int *before, int *after)
{
	size_t q = 4, r, n;

	n = span_digits(s, len, q);
	if (at(s, len, q + n) == ',') {
		q += n + 1;
		*before = c_atoi(s, len, q);
		n = span_digits(s, len, q);
	} else {
		*before = 1;
	}
	if (n == 0 || at(s, len, q + n) != ' ' || at(s, len, q + n + 1) != '+')
		return;
	r = q + n + 2;
	n = span_digits(s, len, r);
	if (at(s, len, r + n) == ',') {
		r += n + 1;
		*after = c_atoi(s, len, r);
	} else {
		*after = 1;
	}
}

/* git's "index A..B[ mode]" parsing: A runs from after "index " to the
 * first "..", B from there to the next space, else up to (not including)
 * the line's last byte -- which is the '\n', or a digit when there is none.
 * strlcpy() into 65-byte buffers truncates both to 64 characters. */
static void scan_index_line(struct onlist_patchid *p, const char *s, size_t len)
{
	const char *dots = memmem(s, len, "..", 2), *end;
	size_t o1, o2, n;

	if (!dots)
		return;
	o1 = dots - s;
	end = memchr(dots, ' ', len - o1);
	o2 = end ? (size_t)(end - s) : len - 1;

	n = o1 - 6;
	if (n > sizeof(p->pre_oid) - 1)
		n = sizeof(p->pre_oid) - 1;
	memcpy(p->pre_oid, s + 6, n);
	p->pre_oid[n] = '\0';

	n = o2 > o1 + 2 ? o2 - (o1 + 2) : 0;
	if (n > sizeof(p->post_oid) - 1)
		n = sizeof(p->post_oid) - 1;
	memcpy(p->post_oid, s + o1 + 2, n);
	p->post_oid[n] = '\0';
}

/* Add the current SHA-1 into result as a 20-byte little-endian number,
 * dropping the final carry, and restart the context (flush_one_hunk()). */
static void flush_one_hunk(struct onlist_patchid *p)
{
	unsigned char hash[ONLIST_PATCHID_RAWSZ];
	unsigned carry = 0;
	int i;

	onlist_sha1_final(hash, &p->ctx);
	onlist_sha1_init(&p->ctx);
	for (i = 0; i < ONLIST_PATCHID_RAWSZ; i++) {
		carry += p->result[i] + hash[i];
		p->result[i] = (unsigned char)carry;
		carry >>= 8;
	}
}

/* remove_space() into dst, which has room for n + 16 bytes; returns the
 * length kept.  Branch-free: store every byte, advance past kept ones. */
static size_t strip_scalar(unsigned char *dst, const unsigned char *src, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		dst[k] = src[i];
		k += 1 - is_space[src[i]];
	}
	return k;
}

#ifdef USE_X86

/* SSSE3 left-packing, 16 bytes at a time: for each 8-bit "keep" mask, the
 * shuffle that gathers the kept bytes to the front, and how many there are.
 * This is most of the work on gigabytes of `git log -p`. */
static uint64_t pack_idx[256];
static unsigned char pack_cnt[256];
static int have_ssse3;

__attribute__((constructor)) static void strip_setup(void)
{
	unsigned m, b;

	for (m = 0; m < 256; m++) {
		uint64_t idx = 0;
		unsigned k = 0;

		for (b = 0; b < 8; b++)
			if (m & (1u << b))
				idx |= (uint64_t)b << (8 * k++);
		pack_idx[m] = idx;
		pack_cnt[m] = (unsigned char)k;
	}
	__builtin_cpu_init();
	have_ssse3 = __builtin_cpu_supports("ssse3");
}

__attribute__((target("ssse3")))
static size_t strip_ssse3(unsigned char *dst, const unsigned char *src, size_t n)
{
	const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
	const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
	const __m128i high = _mm_set_epi64x(0x0808080808080808LL, 0);
	unsigned char *d = dst;
	size_t i;

	for (i = 0; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(src + i));
		__m128i ws = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, sp), _mm_cmpeq_epi8(v, tab)),
			_mm_or_si128(_mm_cmpeq_epi8(v, nl), _mm_cmpeq_epi8(v, cr)));
		unsigned keep = ~(unsigned)_mm_movemask_epi8(ws) & 0xffff;
		unsigned lo = keep & 0xff, hi = keep >> 8;
		__m128i idx, packed;

		if (keep == 0xffff) {
			_mm_storeu_si128((__m128i *)d, v);
			d += 16;
			continue;
		}
		idx = _mm_add_epi8(_mm_set_epi64x((long long)pack_idx[hi],
						  (long long)pack_idx[lo]), high);
		packed = _mm_shuffle_epi8(v, idx);
		_mm_storel_epi64((__m128i *)d, packed);
		d += pack_cnt[lo];
		_mm_storel_epi64((__m128i *)d, _mm_srli_si128(packed, 8));
		d += pack_cnt[hi];
	}
	return (size_t)(d - dst) + strip_scalar(d, src + i, n - i);
}
#endif

/* Hash the line without git's whitespace; returns the length hashed. */
static size_t hash_stripped(struct onlist_sha1 *ctx, const char *s, size_t len)
{
	unsigned char stage[STAGE_SIZE + 16];
	size_t total = 0;

	while (len) {
		size_t n = len < STAGE_SIZE ? len : STAGE_SIZE, k;

#ifdef USE_X86
		if (have_ssse3)
			k = strip_ssse3(stage, (const unsigned char *)s, n);
		else
#endif
			k = strip_scalar(stage, (const unsigned char *)s, n);
		onlist_sha1_update(ctx, stage, k);
		total += k;
		s += n;
		len -= n;
	}
	return total;
}

void onlist_patchid_init(struct onlist_patchid *p, int stable)
{
	onlist_sha1_init(&p->ctx);
	memset(p->result, 0, sizeof(p->result));
	p->stable = stable;
	p->before = p->after = -1;
	p->binary = 0;
	p->patchlen = 0;
	p->pre_oid[0] = p->post_oid[0] = '\0';
}

enum onlist_patchid_event onlist_patchid_line(struct onlist_patchid *p,
					      const char *line, size_t len,
					      char *name)
{
	const char *nul = memchr(line, '\0', len), *q = line;
	size_t qlen, i;
	unsigned char c0;

	if (nul)
		len = nul - line;
	qlen = len;
	c0 = at(line, len, 0);

	if (STARTS(line, len, "commit ")) {
		q += 7;
		qlen -= 7;
	} else if (STARTS(line, len, "From ")) {
		q += 5;
		qlen -= 5;
	} else if (c0 == '\\' && at(line, len, 1) == ' ' && len > 12) {
		/* "\ No newline at end of file" and its translations. */
		return ONLIST_PATCHID_MORE;
	}

	/* get_oid_hex(): 40 hex digits of either case, anything may follow. */
	if (qlen >= ONLIST_PATCHID_HEXSZ && hexval(q[0]) >= 0) {
		for (i = 1; i < ONLIST_PATCHID_HEXSZ; i++)
			if (hexval(q[i]) < 0)
				break;
		if (i == ONLIST_PATCHID_HEXSZ) {
			if (name) {
				for (i = 0; i < ONLIST_PATCHID_HEXSZ; i++)
					name[i] = "0123456789abcdef"[hexval(q[i])];
				name[ONLIST_PATCHID_HEXSZ] = '\0';
			}
			return ONLIST_PATCHID_NEXT;
		}
	}

	/* Log text before the first diff. */
	if (!p->patchlen && !STARTS(line, len, "diff "))
		return ONLIST_PATCHID_MORE;

	if (p->before == -1) {
		if (STARTS(line, len, "GIT binary patch") ||
		    STARTS(line, len, "Binary files")) {
			p->binary = 1;
			p->before = 0;
			onlist_sha1_update(&p->ctx, p->pre_oid, strlen(p->pre_oid));
			onlist_sha1_update(&p->ctx, p->post_oid, strlen(p->post_oid));
			if (p->stable)
				flush_one_hunk(p);
			return ONLIST_PATCHID_MORE;
		} else if (STARTS(line, len, "index ")) {
			scan_index_line(p, line, len);
			return ONLIST_PATCHID_MORE;
		} else if (STARTS(line, len, "--- ")) {
			p->before = p->after = 1;
		} else if (!((c0 | 0x20) >= 'a' && (c0 | 0x20) <= 'z')) {
			return ONLIST_PATCHID_END;
		}
	}

	/* git skips a binary file's data; the "diff " line that ends it is
	 * consumed without being hashed. */
	if (p->binary) {
		if (STARTS(line, len, "diff ")) {
			p->binary = 0;
			p->before = -1;
		}
		return ONLIST_PATCHID_MORE;
	}

	if (p->before == 0 && p->after == 0) {
		/* git ignores hunk line numbers, keeps only the counts. */
		if (STARTS(line, len, "@@ -")) {
			scan_hunk_header(line, len, &p->before, &p->after);
			return ONLIST_PATCHID_MORE;
		}
		if (!STARTS(line, len, "diff "))
			return ONLIST_PATCHID_END;
		if (p->stable)
			flush_one_hunk(p);
		p->before = p->after = -1;
	}

	if (c0 == '-' || c0 == ' ')
		p->before--;
	if (c0 == '+' || c0 == ' ')
		p->after--;

	p->patchlen += (long)hash_stripped(&p->ctx, line, len);
	return ONLIST_PATCHID_MORE;
}

int onlist_patchid_finish(struct onlist_patchid *p,
			  unsigned char out[ONLIST_PATCHID_RAWSZ])
{
	/* Both modes flush here; in --unstable it is the only flush, so the
	 * result is the SHA-1 of everything hashed. */
	flush_one_hunk(p);
	if (!p->patchlen)
		return 0;
	memcpy(out, p->result, ONLIST_PATCHID_RAWSZ);
	return 1;
}

/* Start the next patch.  git's pre/post oid strings are uninitialised
 * locals of get_one_patchid(); in practice they keep the previous patch's
 * values, and git 2.39.5 hashes them for a binary file without an "index"
 * line, so carry them over. */
static void restart(struct onlist_patchid *p)
{
	char pre[sizeof(p->pre_oid)], post[sizeof(p->post_oid)];

	memcpy(pre, p->pre_oid, sizeof(pre));
	memcpy(post, p->post_oid, sizeof(post));
	onlist_patchid_init(p, p->stable);
	memcpy(p->pre_oid, pre, sizeof(pre));
	memcpy(p->post_oid, post, sizeof(post));
}

int onlist_patchid_buf(const char *buf, size_t len,
		       unsigned char out[ONLIST_PATCHID_RAWSZ])
{
	struct onlist_patchid p;
	const char *end = buf + len;

	onlist_patchid_init(&p, 1);
	while (buf < end) {
		const char *nl = memchr(buf, '\n', end - buf);
		size_t n = nl ? (size_t)(nl + 1 - buf) : (size_t)(end - buf);

		/* A patch that hashed nothing prints nothing: keep looking,
		 * as git would, for the first id it prints. */
		if (onlist_patchid_line(&p, buf, n, NULL) != ONLIST_PATCHID_MORE) {
			if (onlist_patchid_finish(&p, out))
				return 1;
			restart(&p);
		}
		buf += n;
	}
	return onlist_patchid_finish(&p, out);
}

void onlist_patchid_hex(const unsigned char raw[ONLIST_PATCHID_RAWSZ],
			char *hex)
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < ONLIST_PATCHID_RAWSZ; i++) {
		hex[2 * i] = digits[raw[i] >> 4];
		hex[2 * i + 1] = digits[raw[i] & 15];
	}
	hex[ONLIST_PATCHID_HEXSZ] = '\0';
}

struct stream {
	struct onlist_patchid p;
	char name[ONLIST_PATCHID_HEXSZ + 1];	/* of the current patch */
	char next[ONLIST_PATCHID_HEXSZ + 1];
	FILE *out;
	int werr;
};

/* flush_current_id(): "<id> <name>\n" when the patch hashed anything. */
static void emit(struct stream *s)
{
	unsigned char raw[ONLIST_PATCHID_RAWSZ];
	char row[2 * ONLIST_PATCHID_HEXSZ + 2];

	if (!onlist_patchid_finish(&s->p, raw))
		return;
	onlist_patchid_hex(raw, row);
	row[ONLIST_PATCHID_HEXSZ] = ' ';
	memcpy(row + ONLIST_PATCHID_HEXSZ + 1, s->name, ONLIST_PATCHID_HEXSZ);
	row[sizeof(row) - 1] = '\n';
	if (fwrite(row, 1, sizeof(row), s->out) != sizeof(row))
		s->werr = 1;
}

static void feed(struct stream *s, const char *line, size_t len)
{
	enum onlist_patchid_event ev = onlist_patchid_line(&s->p, line, len, s->next);

	if (ev == ONLIST_PATCHID_MORE)
		return;
	emit(s);
	/* After a patch ends without a name, git names the next one 0{40}. */
	if (ev == ONLIST_PATCHID_NEXT)
		memcpy(s->name, s->next, sizeof(s->name));
	else
		memset(s->name, '0', ONLIST_PATCHID_HEXSZ);
	restart(&s->p);
}

/* Newlines of a buffer, found 64 bytes at a time: one memchr() per line
 * cost more than hashing the line. */
struct newlines {
	const unsigned char *buf;
	size_t len, block;	/* block: offset of the 64 bytes in mask */
	uint64_t mask;		/* newlines of the block not yet returned */
};

static uint64_t newline_mask(const unsigned char *p, size_t n)
{
	uint64_t m = 0;
	size_t i;

#ifdef USE_X86	/* SSE2 is part of x86-64 */
	if (n == 64) {
		const __m128i nl = _mm_set1_epi8('\n');

		for (i = 0; i < 4; i++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * i));
			m |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) << (16 * i);
		}
		return m;
	}
#endif
	for (i = 0; i < n; i++)
		m |= (uint64_t)(p[i] == '\n') << i;
	return m;
}

static void newlines_init(struct newlines *it, const char *buf, size_t len)
{
	it->buf = (const unsigned char *)buf;
	it->len = len;
	it->block = 0;
	it->mask = newline_mask(it->buf, len < 64 ? len : 64);
}

static unsigned lowest_bit(uint64_t m)
{
#if defined(__GNUC__)
	return (unsigned)__builtin_ctzll(m);
#else
	unsigned n = 0;

	while (!(m & 1)) {
		m >>= 1;
		n++;
	}
	return n;
#endif
}

static const char *newlines_next(struct newlines *it)
{
	const char *nl;

	while (!it->mask) {
		size_t left;

		it->block += 64;
		if (it->block >= it->len)
			return NULL;
		left = it->len - it->block;
		it->mask = newline_mask(it->buf + it->block, left < 64 ? left : 64);
	}
	nl = (const char *)it->buf + it->block + lowest_bit(it->mask);
	it->mask &= it->mask - 1;
	return nl;
}

/* Feed every complete line of buf[0..len); return the length consumed.
 *
 * Most lines are hunk lines ('+', '-', ' ') that git hashes whole after
 * counting them.  Consecutive ones are gathered into a run and hashed with
 * one call: SHA-1 does not see line boundaries, so this equals hashing them
 * one by one, and it saves the per-line cost that dominated.  Any other
 * line, and every line of a buffer holding a NUL, takes the general path. */
static size_t feed_lines(struct stream *s, const char *buf, size_t len)
{
	struct onlist_patchid *p = &s->p;
	const char *l = buf, *nl, *run = NULL;
	int fast = memchr(buf, '\0', len) == NULL;
	struct newlines it;

	newlines_init(&it, buf, len);
	while ((nl = newlines_next(&it))) {
		unsigned char c0 = (unsigned char)*l;

		/* The same tests in the same order as onlist_patchid_line(),
		 * for a line that can be neither a name nor "\ ...". */
		if (fast && (c0 == '+' || c0 == '-' || c0 == ' ') && !p->binary &&
		    p->before != -1 && (p->before != 0 || p->after != 0)) {
			if (!run)
				run = l;
			if (c0 != '+')
				p->before--;
			if (c0 != '-')
				p->after--;
		} else {
			if (run) {
				p->patchlen += (long)hash_stripped(&p->ctx, run, l - run);
				run = NULL;
			}
			feed(s, l, nl + 1 - l);
		}
		l = nl + 1;
	}
	if (run)
		p->patchlen += (long)hash_stripped(&p->ctx, run, l - run);
	return l - buf;
}

onlist_status onlist_patchid_stream(FILE *in, const char *prefix,
				    size_t prefixlen, FILE *out, int stable)
{
	struct stream s;
	size_t cap = CHUNK_SIZE, have = 0, used;
	char *buf = NULL;
	onlist_status st = ONLIST_OK;

	onlist_patchid_init(&s.p, stable);
	memset(s.name, '0', ONLIST_PATCHID_HEXSZ);
	s.name[ONLIST_PATCHID_HEXSZ] = '\0';
	s.out = out;
	s.werr = 0;

	/* Whole lines of the prefix are fed in place; only its tail is
	 * copied, to be completed by what follows in `in`. */
	if (prefix && prefixlen) {
		used = feed_lines(&s, prefix, prefixlen);
		prefix += used;
		prefixlen -= used;
		if (prefixlen >= cap / 2)
			cap = prefixlen * 2;
	}
	buf = malloc(cap);
	if (!buf) {
		st = ONLIST_ENOMEM;
		goto out;
	}
	if (prefixlen)
		memcpy(buf, prefix, prefixlen);
	have = prefixlen;

	for (;;) {
		size_t n;

		/* A line longer than the buffer: grow it. */
		if (have == cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				st = ONLIST_ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = fread(buf + have, 1, cap - have, in);
		if (n == 0) {
			if (ferror(in)) {
				st = ONLIST_EIO;
				goto out;
			}
			break;
		}
		/* Only the new bytes can hold the first newline. */
		used = 0;
		if (memchr(buf + have, '\n', n))
			used = feed_lines(&s, buf, have + n);
		have += n;
		if (used) {
			memmove(buf, buf + used, have - used);
			have -= used;
		}
	}
	if (have)
		feed(&s, buf, have);	/* last line, no newline */
	emit(&s);
	if (s.werr || fflush(out) != 0 || ferror(out))
		st = ONLIST_EIO;
out:
	free(buf);
	return st;
}
