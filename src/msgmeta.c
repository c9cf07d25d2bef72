/* msgmeta.c - trailers, pull requests and change-ids in a mail's text. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <glib.h>

#include "onlist/msgmeta.h"

static const char *line_end(const char *p)
{
	const char *e = strchr(p, '\n');

	return e ? e : p + strlen(p);
}

/* Without a trailing "\r" and blanks. */
static size_t trimmed_len(const char *p, const char *e)
{
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	return (size_t)(e - p);
}

static int is_key_char(int c)
{
	return isalnum(c) || c == '-' || c == '_';
}

/* A review tag given inside a line: "Otherwise: Reviewed-by: Ann
 * <ann@example.org>", "Feel free to add my RBT: Acked-by: ...".  Only
 * the review keys, after a ':', ',', '.', ';', '!' or ')' or the word
 * "add" (not "I dropped the Reviewed-by: ..."), with a value "Name
 * <addr@host>".  Returns the key's start and sets *keylen, or NULL. */
static const char *midline_tag(const char *k, const char *end, size_t *keylen)
{
	static const char *const keys[] = {
		"reviewed-by:", "acked-by:", "tested-by:", "nacked-by:",
	};

	for (const char *p = k + 1; p < end; p++) {
		const char *b = p;

		if (p[-1] != ' ' && p[-1] != '\t')
			continue;
		for (size_t i = 0; i < G_N_ELEMENTS(keys); i++) {
			size_t n = strlen(keys[i]);
			const char *lt, *at, *gt;

			if ((size_t)(end - p) <= n || strncasecmp(p, keys[i], n))
				continue;
			while (b > k && (b[-1] == ' ' || b[-1] == '\t'))
				b--;
			if (b == k)
				continue;
			if (!strchr(":,.;!)", b[-1]) &&
			    !(b - k >= 3 && !strncasecmp(b - 3, "add", 3) &&
			      (b - k == 3 || b[-4] == ' ')))
				continue;
			lt = memchr(p + n, '<', (size_t)(end - p - n));
			at = lt ? memchr(lt, '@', (size_t)(end - lt)) : NULL;
			gt = at ? memchr(at, '>', (size_t)(end - at)) : NULL;
			if (!gt)
				continue;
			*keylen = n - 1;
			return p;
		}
	}
	return NULL;
}

int onlist_find_trailers(const char *text, onlist_trailer_cb cb, void *data)
{
	const char *p = text ? text : "";

	while (*p) {
		const char *e = line_end(p), *k = p, *q;
		size_t n = trimmed_len(p, e);

		if ((n == 2 && !strncmp(p, "--", 2) && p[2] == ' ') ||
		    (n >= 26 && !strncmp(p, "-----Original Message-----", 26)))
			break;
		while (k < p + n && (*k == ' ' || *k == '\t'))
			k++;
		/* a bare "NAK" on a line of its own: a Nacked-by without the
		 * name (the key "NAK", an empty value) */
		if (p + n - k == 3 && !strncasecmp(k, "nak", 3)) {
			int r = cb(k, 3, k + 3, 0, data);

			if (r)
				return r;
			p = *e ? e + 1 : e;
			continue;
		}
		q = k;
		while (q < p + n && is_key_char((unsigned char)*q))
			q++;
		if (!(q - k >= 4 && isalpha((unsigned char)*k) &&
		      !strncasecmp(q - 3, "-by", 3)) &&
		    k < p + n && *k != '>' && *k != '|') {
			size_t kl;
			const char *t = midline_tag(k, p + n, &kl);

			if (t) {
				const char *v = t + kl + 1;
				int r;

				while (v < p + n && isspace((unsigned char)*v))
					v++;
				if ((r = cb(t, kl, v, (size_t)(p + n - v), data)))
					return r;
			}
		} else if (q - k >= 4 && isalpha((unsigned char)*k) &&
		    !strncasecmp(q - 3, "-by", 3)) {
			const char *key_end = q, *v;

			while (q < p + n && (*q == ' ' || *q == '\t'))
				q++;
			if (q < p + n && *q == ':') {
				v = q + 1;
				while (v < p + n && isspace((unsigned char)*v))
					v++;
				if (v < p + n) {
					int r = cb(k, (size_t)(key_end - k), v,
						   (size_t)(p + n - v), data);
					if (r)
						return r;
				}
			}
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

int onlist_trailer_is_review(const char *key, size_t keylen)
{
	static const char *const review[] = {
		"reviewed-by", "acked-by", "tested-by", "nacked-by",
	};

	for (size_t i = 0; i < sizeof(review) / sizeof(*review); i++)
		if (keylen == strlen(review[i]) &&
		    !strncasecmp(key, review[i], keylen))
			return 1;
	return 0;
}

static char *dup_trim(const char *p, size_t n)
{
	char *s;

	while (n && isspace((unsigned char)*p)) {
		p++;
		n--;
	}
	while (n && (isspace((unsigned char)p[n - 1]) || p[n - 1] == '"'))
		n--;
	while (n && *p == '"') {
		p++;
		n--;
	}
	if (!(s = malloc(n + 1)))
		return NULL;
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

int onlist_split_ident(const char *value, size_t len, char **name, char **addr)
{
	const char *lt = memchr(value, '<', len), *gt;

	*name = *addr = NULL;
	if (lt && (gt = memchr(lt, '>', len - (size_t)(lt - value)))) {
		*name = dup_trim(value, (size_t)(lt - value));
		*addr = dup_trim(lt + 1, (size_t)(gt - lt - 1));
	} else if (memchr(value, '@', len) && !memchr(value, ' ', len)) {
		*name = strdup("");
		*addr = dup_trim(value, len);
	} else {
		*name = dup_trim(value, len);
		*addr = strdup("");
	}
	if (!*name || !*addr) {
		free(*name);
		free(*addr);
		*name = *addr = NULL;
		return -1;
	}
	for (char *c = *addr; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return 0;
}

int onlist_find_pull(const char *text, char **url, char **ref, char **tip)
{
	const char *p, *e, *u, *ue, *r;

	*url = *ref = *tip = NULL;
	for (p = text; p && (p = (const char *)strcasestr(p, "are available in the git "
					"repository at")); p++) {
		const char *b = p;	/* quoted ("> are available...")? */

		while (b > text && b[-1] != '\n')
			b--;
		while (b < p && (*b == ' ' || *b == '\t'))
			b++;
		if (b == p)
			break;
	}
	if (!p)
		return 0;
	/* The next line that is not empty. */
	p = line_end(p);
	while (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
		p++;
	e = line_end(p);
	u = p;
	ue = u;
	while (ue < e && !isspace((unsigned char)*ue))
		ue++;
	if (ue == u)
		return 0;
	r = ue;
	while (r < e && isspace((unsigned char)*r))
		r++;
	if (!(*url = dup_trim(u, (size_t)(ue - u))) ||
	    !(*ref = dup_trim(r, trimmed_len(r, e))))
		goto oom;
	if (!**url) {		/* only quotes where the URL goes */
		free(*url);
		free(*ref);
		*url = *ref = NULL;
		return 0;
	}
	if ((p = (const char *)strcasestr(e, "for you to fetch changes up to"))) {
		p += strlen("for you to fetch changes up to");
		while (*p == ' ')
			p++;
		u = p;
		while (isxdigit((unsigned char)*p))
			p++;
		if (p - u >= 7 && p - u <= 64) {
			if (!(*tip = dup_trim(u, (size_t)(p - u))))
				goto oom;
			for (char *c = *tip; *c; c++)
				*c = (char)tolower((unsigned char)*c);
		}
	}
	if (!*tip && !(*tip = strdup("")))
		goto oom;
	return 1;
oom:
	free(*url);
	free(*ref);
	free(*tip);
	*url = *ref = *tip = NULL;
	return -1;
}

char *onlist_find_change_id(const char *text)
{
	const char *p = text ? text : "";

	while (*p) {
		const char *e = line_end(p);

		if (!strncasecmp(p, "change-id:", 10)) {
			const char *v = p + 10;
			size_t n;

			while (*v == ' ' || *v == '\t')
				v++;
			n = trimmed_len(v, e);
			if (n && n < 200)
				return dup_trim(v, n);
		}
		p = *e ? e + 1 : e;
	}
	return NULL;
}

/* ---- what a reply says --------------------------------------------------- */

/* A phrase that makes a tag the whole series' ("For these six patches:",
 * "For all 12:", "For every patch except for patch 4.", "For patches 1-9,
 * 11-20 and 47") */
static int says_series(const char *p, size_t n)
{
	static GRegex *re;
	char *l;
	int hit;

	if (g_once_init_enter(&re)) {
		GRegex *r = g_regex_new(
			"\\b(series|patch ?set|patch-set|patches \\d"
			"|every (single )?patch|each patch|the rest"
			"|all (the |of the |of these |these )?patches"
			"|these (\\w+ )?patches|all of (them|these)|both (of them|patches)"
			"|all \\d+|all (two|three|four|five|six|seven|eight|nine|ten)"
			"|(whole|entire|this) set|for all)\\b",
			G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, NULL);

		g_once_init_leave(&re, r);
	}
	if (!re)
		return 0;
	l = g_strndup(p, n);
	hit = g_regex_match(re, l, 0, NULL);
	g_free(l);
	return hit;
}

int onlist_reply_series_scope(const char *body)
{
	const char *p = body ? body : "", *prev[2] = { NULL, NULL };
	size_t prevn[2] = { 0, 0 };
	int after = 0;			/* the line above was a tag */

	while (*p) {
		const char *e = line_end(p), *k = p, *q;
		size_t n = trimmed_len(p, e), kl;

		if ((n == 2 && !strncmp(p, "--", 2) && p[2] == ' ') ||
		    (n >= 26 && !strncmp(p, "-----Original Message-----", 26)))
			break;
		while (k < p + n && (*k == ' ' || *k == '\t'))
			k++;
		if (k == p + n) {		/* blank: the lines above stay */
			p = *e ? e + 1 : e;
			continue;
		}
		if (*k == '>' || *k == '|') {	/* a quote: none above count */
			prev[0] = prev[1] = NULL;
			after = 0;
			p = *e ? e + 1 : e;
			continue;
		}
		q = k;
		while (q < p + n && is_key_char((unsigned char)*q))
			q++;
		if ((q < p + n && *q == ':' && onlist_trailer_is_review(k, (size_t)(q - k))) ||
		    midline_tag(k, p + n, &kl)) {
			if (says_series(k, (size_t)(p + n - k)) ||
			    (prev[1] && says_series(prev[1], prevn[1])) ||
			    (prev[0] && says_series(prev[0], prevn[0])))
				return 1;
			after = 1;
		} else if (after && (*k == '(' || !strncasecmp(k, "for ", 4)) &&
			   says_series(k, (size_t)(p + n - k))) {
			return 1;	/* "(for all patches in the series)" */
		} else {
			after = 0;
			prev[0] = prev[1];
			prevn[0] = prevn[1];
			prev[1] = k;
			prevn[1] = (size_t)(p + n - k);
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

static int ends_with(const char *p, size_t n, const char *tail)
{
	size_t t = strlen(tail);

	return n >= t && !strncasecmp(p + n - t, tail, t);
}

/* "Key-by: ..." (a trailer line, which the trailer scan reads) */
static int is_trailer_line(const char *k, size_t n)
{
	const char *q = k;

	while (q < k + n && is_key_char((unsigned char)*q))
		q++;
	return q - k >= 4 && isalpha((unsigned char)*k) &&
	       !strncasecmp(q - 3, "-by", 3) && q < k + n && *q == ':';
}

/* The summary lines of b4's and patchwork-bot's notices, and bare URLs:
 * "[1/2] foo: bar", "commit: 0123abcd", "https://git.kernel.org/..." */
static int is_summary_line(const char *k, size_t n)
{
	const char *q = k;

	if (*k == '-' && n > 2 && k[1] == ' ' && k[2] == '[')
		return 1;	/* patchwork-bot: "  - [net-next,1/2] foo" */
	if (*k == '[') {
		q++;
		while (q < k + n && isdigit((unsigned char)*q))
			q++;
		if (q > k + 1 && q < k + n && *q == '/')
			return 1;
	}
	if (n > 7 && !strncasecmp(k, "commit", 6)) {
		q = k + 6;
		while (q < k + n && (*q == ':' || *q == ' '))
			q++;
		size_t h = 0;
		while (q + h < k + n && isxdigit((unsigned char)q[h]))
			h++;
		if (h >= 7 && q + h == k + n)
			return 1;
	}
	if ((n > 7 && !strncasecmp(k, "http://", 7)) ||
	    (n > 8 && !strncasecmp(k, "https://", 8)))
		return !memchr(k, ' ', n);
	return 0;
}

char *onlist_reply_own_text(const char *body, int *more)
{
	GString *o = g_string_new(NULL);
	const char *p = body ? body : "", *prev = NULL, *last_raw = NULL;
	size_t last_pos = 0;

	if (more)
		*more = 0;
	while (*p) {
		const char *e = line_end(p), *k = p, *next = *e ? e + 1 : e;
		size_t n = trimmed_len(p, e), len;

		while (k < p + n && (*k == ' ' || *k == '\t'))
			k++;
		len = (size_t)(p + n - k);
		if ((n == 2 && !strncmp(p, "--", 2)) ||
		    (len >= 26 && !strncmp(k, "-----Original Message-----", 26)))
			break;
		/* Outlook's header above the mail it quotes */
		if (len > 6 && !strncasecmp(k, "From: ", 6) &&
		    (!strncasecmp(next, "Sent: ", 6) || !strncasecmp(next, "Date: ", 6)))
			break;
		if (!len || *k == '>' || *k == '|' || is_trailer_line(k, len) ||
		    is_summary_line(k, len)) {
			/* nothing the writer said */
		} else if (ends_with(k, len, "wrote:") || ends_with(k, len, "writes:") ||
			   ends_with(k, len, "said:")) {
			/* an attribution; "On Mon, 1 Mar 2021, Ann Author\n
			 * <ann@example.org> wrote:" wraps */
			if (last_raw && last_raw == prev &&
			    !strncmp(o->str + last_pos + (last_pos ? 1 : 0), "on ", 3))
				g_string_truncate(o, last_pos);
		} else if (o->len + len + 1 > ONLIST_OWN_TEXT_MAX) {
			if (more)
				*more = 1;
			break;
		} else {
			int gap = 0;

			last_pos = o->len;
			last_raw = p;
			if (o->len)
				g_string_append_c(o, '\n');
			for (const char *c = k; c < k + len; c++) {
				if (*c == ' ' || *c == '\t') {
					gap = 1;
					continue;
				}
				if (gap)
					g_string_append_c(o, ' ');
				gap = 0;
				g_string_append_c(o, (char)g_ascii_tolower(*c));
			}
		}
		prev = p;
		p = next;
	}
	return g_string_free(o, FALSE);
}

/* Matched to a whole line of own text (lower case, one space between
 * words).  The verbs are broad; the checks of onlist_reply_is_notice()
 * keep them to short lines that neither ask nor object.  "taken" and
 * "took" say "taken a look" too: only the forms that take the patch. */
const char *const onlist_notice_patterns[] = {
	"*applied*", "*committed*", "*queued*", "*pushed*", "*merged*",
	"*picked*up*", "*pulled*",
	"taken*", "*taken", "*taken.", "*taken!", "*taken,*", "*taken into *",
	"*taken to *", "*taken via *", "*taken through *",
	"*took it*", "*took this*", "*took these*", "*took them*",
	"*took the patch*", "*took the series*",
};
const size_t onlist_notice_npatterns =
	sizeof(onlist_notice_patterns) / sizeof(*onlist_notice_patterns);

/* A word that asks, objects or makes the notice conditional. */
static int guarded(const char *line)
{
	static const char *const words[] = {
		"but", "please", "however", "though", "although", "not",
		"cannot", "should", "would", "could", "why", "if", "unless",
		"fail", "failed", "fails", "conflict", "conflicts", "instead",
		"wonder", "maybe", "perhaps", "suggest", "except", "revert",
		"reverted", "dropped", "drop", "nit", "nits",
	};
	gchar **w;
	int hit = 0;

	if (strchr(line, '?') || strstr(line, "n't"))
		return 1;
	w = g_strsplit_set(line, " ,.;:!()[]\"", -1);
	for (gchar **p = w; *p && !hit; p++)
		for (size_t i = 0; i < G_N_ELEMENTS(words) && !hit; i++)
			hit = !strcmp(*p, words[i]);
	g_strfreev(w);
	return hit;
}

static int nwords(const char *line)
{
	int n = 0, gap = 1;

	for (; *line; line++) {
		if (*line == ' ')
			gap = 1;
		else if (gap) {
			n++;
			gap = 0;
		}
	}
	return n;
}

static int is_greeting(const char *line)
{
	static const char *const hi[] = { "hi", "hello", "hey", "dear", "greetings",
					  "good morning", "good afternoon", "howdy" };

	for (size_t i = 0; i < G_N_ELEMENTS(hi); i++) {
		size_t n = strlen(hi[i]);

		if (!strncmp(line, hi[i], n) &&
		    (!line[n] || strchr(" ,:!", line[n])))
			return nwords(line) <= 4;
	}
	return 0;
}

/* "Thanks!", "Thank you.", "Cheers," */
static int is_courtesy(const char *line)
{
	static const char *const ty[] = {
		"thanks", "thank you", "thanks a lot", "many thanks", "thx",
		"cheers", "regards", "best regards", "kind regards", "best",
		"ty", "thanks all", "thank you all", "thanks everyone",
	};
	size_t n = strlen(line);

	while (n && strchr("!.,:; ", line[n - 1]))
		n--;
	for (size_t i = 0; i < G_N_ELEMENTS(ty); i++)
		if (n == strlen(ty[i]) && !strncmp(line, ty[i], n))
			return 1;
	return 0;
}

/* Every built-in pattern names one of these: a line without any is
 * matched by none (most lines of most replies) */
static int has_stem(const char *line)
{
	static const char *const stems[] = {
		"appl", "commit", "queue", "push", "merg", "pick", "pull",
		"taken", "took",
	};

	for (size_t i = 0; i < G_N_ELEMENTS(stems); i++)
		if (strstr(line, stems[i]))
			return 1;
	return 0;
}

static int matches(const char *line, const char *const *extra, size_t nextra)
{
	/* compiled once: a reply is judged at import, millions of them */
	static GPatternSpec **spec;

	if (g_once_init_enter(&spec)) {
		GPatternSpec **v = g_new(GPatternSpec *, onlist_notice_npatterns);

		for (size_t i = 0; i < onlist_notice_npatterns; i++)
			v[i] = g_pattern_spec_new(onlist_notice_patterns[i]);
		g_once_init_leave(&spec, v);
	}
	if (has_stem(line))
		for (size_t i = 0; i < onlist_notice_npatterns; i++)
			if (g_pattern_spec_match_string(spec[i], line))
				return 1;
	for (size_t i = 0; i < nextra; i++)
		if (g_pattern_match_simple(extra[i], line))
			return 1;
	return 0;
}

/* The place (1-based) of the first word that names a notice verb, 0 when
 * none does */
static int verb_place(const char *sentence)
{
	gchar **w = g_strsplit(sentence, " ", -1);
	int at = 0;

	for (int i = 0; w[i] && !at; i++)
		if (has_stem(w[i]))
			at = i + 1;
	g_strfreev(w);
	return at;
}

/* The sentences of lines[0..n): a line that does not end a sentence
 * (".", "!", "?", ":") runs on into the next, as a mailer wraps one;
 * a sentence ends at ".", "!", "?" or ";" before a blank.  Each is
 * appended to out. */
static void sentences(gchar **lines, int n, GPtrArray *out)
{
	GString *cur = g_string_new(NULL);

	for (int i = 0; i < n; i++) {
		const char *p = lines[i];
		size_t len = strlen(p);

		if (!len)
			continue;
		if (cur->len)
			g_string_append_c(cur, ' ');
		for (const char *c = p; *c; c++) {
			g_string_append_c(cur, *c);
			if (strchr(".!?;", *c) && c[1] == ' ') {
				g_ptr_array_add(out, g_string_free(cur, FALSE));
				cur = g_string_new(NULL);
				c++;	/* the blank */
			}
		}
		if (strchr(".!?:", p[len - 1]) && cur->len) {
			g_ptr_array_add(out, g_string_free(cur, FALSE));
			cur = g_string_new(NULL);
		}
	}
	if (cur->len)
		g_ptr_array_add(out, g_string_free(cur, FALSE));
	else
		g_string_free(cur, TRUE);
}

/* A notice sentence says it in its main clause: the verb among the
 * first words ("I merged this patch, as well as all the others ...",
 * "This and previous patch as obvious fixes merged."), not at the end of
 * a long sentence that is about something else */
#define NOTICE_VERB_PLACE 8
#define NOTICE_SENTENCE_WORDS 30

int onlist_reply_is_notice(const char *own, const char *const *extra,
			   size_t nextra, int bot)
{
	gchar **l;
	GPtrArray *sv;
	int n, hits = 0, others = 0, ok = 1, end, first = 0;

	if (!own || !*own)
		return 0;
	l = g_strsplit(own, "\n", -1);
	n = (int)g_strv_length(l);
	/* a closing: up to three short lines at the end ("Thanks,", "Mo") */
	end = n;
	while (end > 0 && n - end < 3 && nwords(l[end - 1]) <= 3 &&
	       !matches(l[end - 1], extra, nextra) && !guarded(l[end - 1]))
		end--;
	if (end > 0 && is_greeting(l[0]))
		first = 1;
	/* by sentence, not by line: a notice wrapped over two lines is one,
	 * and "Merged, thanks. The test failed on my box, so ..." is two */
	sv = g_ptr_array_new_with_free_func(g_free);
	sentences(l + first, end - first, sv);
	for (guint i = 0; i < sv->len && ok; i++) {
		const char *x = g_ptr_array_index(sv, i);
		int at;

		if (is_courtesy(x))
			continue;
		if (matches(x, extra, nextra)) {
			hits++;
			at = verb_place(x);
			ok = !guarded(x) && (bot ||
			     (nwords(x) <= NOTICE_SENTENCE_WORDS &&
			      at <= NOTICE_VERB_PLACE));
		} else if (!bot) {
			others++;
			ok = others <= 2 && nwords(x) <= 6 && !guarded(x);
		}
	}
	g_ptr_array_free(sv, TRUE);
	g_strfreev(l);
	return ok && hits > 0;
}

char *onlist_quoted_diff(const char *body, int *nomem)
{
	GString *o;
	int diff = 0, minus = 0;

	if (nomem)
		*nomem = 0;
	if (!body || !strstr(body, "\n>"))
		return NULL;
	o = g_string_new(NULL);
	for (const char *p = body; *p;) {
		const char *e = line_end(p), *k = p + 1;

		if (*p == '>') {
			if (k < e && *k == ' ')
				k++;
			if (e - k >= 11 && !strncmp(k, "diff --git ", 11))
				diff = 1;
			else if (e - k >= 4 && !strncmp(k, "+++ ", 4) && minus)
				diff = 1;
			minus = e - k >= 4 && !strncmp(k, "--- ", 4);
			g_string_append_len(o, k, e - k);
			g_string_append_c(o, '\n');
		}
		p = *e ? e + 1 : e;
	}
	if (!diff) {
		g_string_free(o, TRUE);
		return NULL;
	}
	return g_string_free(o, FALSE);
}

/* ---- review tags quoted from another mail -------------------------------- */

/* The address an attribution line names ("On Mon, Ann <ann@x.org>
 * wrote:", "ann@x.org writes:"), lower-cased into out (size n), or "". */
static void attribution_addr(const char *p, const char *e, char *out, size_t n)
{
	const char *at = NULL, *b, *x;

	*out = '\0';
	for (const char *q = p; q < e; q++)
		if (*q == '@')
			at = q;
	if (!at)
		return;
	for (b = at; b > p && !strchr(" \t<(\"'[,;", b[-1]); b--)
		;
	for (x = at; x < e && !strchr(" \t>)\"'],;", *x); x++)
		;
	if (x - b <= 3 || (size_t)(x - b) >= n)
		return;
	for (size_t i = 0; b + i < x; i++)
		out[i] = (char)tolower((unsigned char)b[i]);
	out[x - b] = '\0';
}

/* Does the line [p, e) end an attribution ("... wrote:", "... writes:")? */
static int is_attribution(const char *p, const char *e)
{
	size_t n = trimmed_len(p, e);

	return (n >= 6 && !strncasecmp(p + n - 6, "wrote:", 6)) ||
	       (n >= 7 && !strncasecmp(p + n - 7, "writes:", 7));
}

struct qblock {
	GString *text;			/* its lines, one "> " taken off */
	char attrib[256];
};

struct qcall {
	onlist_quoted_trailer_cb cb;
	void *data;
	const char *attrib;
};

static int quoted_review(const char *key, size_t keylen, const char *value,
			 size_t valuelen, void *data)
{
	struct qcall *q = data;

	if (!onlist_trailer_is_review(key, keylen))
		return 0;
	return q->cb(key, keylen, value, valuelen, q->attrib, q->data);
}

int onlist_find_quoted_trailers(const char *body, onlist_quoted_trailer_cb cb,
				void *data)
{
	GArray *blocks;
	struct qblock *cur = NULL;
	const char *prev = NULL, *prev_e = NULL;	/* last unquoted line */
	const char *prev2 = NULL, *prev2_e = NULL;	/* and the one before */
	int diff = 0, minus = 0, r = 0;

	if (!body || !strchr(body, '>'))
		return 0;
	blocks = g_array_new(FALSE, TRUE, sizeof(struct qblock));
	for (const char *p = body; *p;) {
		const char *e = line_end(p), *k = p + 1;
		size_t n = trimmed_len(p, e);

		if (*p != '>') {
			/* the writer's own text: a signature or a pasted
			 * mail ends what is read */
			if ((n == 2 && !strncmp(p, "--", 2) && p[2] == ' ') ||
			    (n >= 26 && !strncmp(p, "-----Original Message-----", 26)))
				break;
			if (n) {
				cur = NULL;
				prev2 = prev;
				prev2_e = prev_e;
				prev = p;
				prev_e = e;
			}
			p = *e ? e + 1 : e;
			continue;
		}
		if (!cur) {
			struct qblock b;

			memset(&b, 0, sizeof b);
			b.text = g_string_new(NULL);
			if (prev && is_attribution(prev, prev_e)) {
				attribution_addr(prev, prev_e, b.attrib,
						 sizeof b.attrib);
				/* wrapped: "On ..., Ann Smith\n<ann@x> wrote:" */
				if (!*b.attrib && prev2)
					attribution_addr(prev2, prev2_e, b.attrib,
							 sizeof b.attrib);
			}
			g_array_append_val(blocks, b);
			cur = &g_array_index(blocks, struct qblock, blocks->len - 1);
		}
		if (k < e && *k == ' ')
			k++;
		/* one level only: what the quoted mail quoted is older */
		if (!(k < e && *k == '>')) {
			if (e - k >= 11 && !strncmp(k, "diff --git ", 11))
				diff = 1;
			else if (e - k >= 4 && !strncmp(k, "+++ ", 4) && minus)
				diff = 1;
			minus = e - k >= 4 && !strncmp(k, "--- ", 4);
			g_string_append_len(cur->text, k, e - k);
			g_string_append_c(cur->text, '\n');
		}
		p = *e ? e + 1 : e;
	}
	/* a quoted patch: its trailers are its history, not review given */
	for (guint i = 0; i < blocks->len; i++) {
		struct qblock *b = &g_array_index(blocks, struct qblock, i);
		struct qcall q = { cb, data, b->attrib };

		if (!diff && !r)
			r = onlist_find_trailers(b->text->str, quoted_review, &q);
		g_string_free(b->text, TRUE);
	}
	g_array_free(blocks, TRUE);
	return r;
}
