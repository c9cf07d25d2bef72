/* cmd_patch_id.c - onlist patch-id: a drop-in for `git patch-id --stable`. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>

#include "cli.h"
#include "onlist/mail.h"
#include "onlist/patchid.h"

static const char help[] =
	"usage: onlist patch-id [--stable | --unstable] < INPUT\n"
	"       onlist patch-id --mailinfo MSG PATCH < MAIL\n\n"
	"Print \"<patch-id> <name>\" for every patch on standard input, byte for\n"
	"byte what `git patch-id --stable` prints (--unstable: git's unstable\n"
	"ids).  INPUT is what git accepts (`git log -p`, `git diff-tree -p\n"
	"--stdin`, `git format-patch --stdout`), or mail: a list mbox or a single\n"
	"message.  Mail is read the way `git mailinfo -u` reads it: the body is\n"
	"decoded (quoted-printable, base64, charsets) and a patch in an\n"
	"attachment is found; the name printed is the commit id of a\n"
	"format-patch From_ line, else the Message-ID.  Input that starts with\n"
	"a `From <commit id>` line (format-patch) is hashed as git hashes it,\n"
	"unless its first mail's body is base64 or quoted-printable: then it is\n"
	"read as mail, as `git am` reads it.\n\n"
	"--mailinfo MSG PATCH  also write the first mail's commit message to MSG\n"
	"                      and its patch to PATCH (empty when it has none), the\n"
	"                      files `git mailinfo -u MSG PATCH` writes: for tests.\n"
	"                      The input is then read as mail, a format-patch file\n"
	"                      too.\n"
	"--format json         one JSON array of {patch_id, name} instead of git's\n"
	"                      lines (default: text, git's format)\n";

/* git's "<id> <name>" lines, as written to `lines`, as one JSON array;
 * -1 when out of memory. */
static int lines_to_json(FILE *out, const char *lines, size_t len)
{
	const char *p = lines, *end = lines + len;
	struct onlist_emit *e = onlist_emit_new(out, ONLIST_FMT_JSON);

	if (!e)
		return -1;
	onlist_emit_begin_list(e, ONLIST_EMIT_LINES);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *sp;
		char *line;

		if (!nl)
			nl = end;
		line = strndup(p, (size_t)(nl - p));
		if (line && (sp = strchr(line, ' '))) {
			line[sp - line] = '\0';
			onlist_emit_begin_map(e, 0);
			onlist_emit_kstrs(e, "patch_id", line,
					  "name", sp + 1, NULL);
			onlist_emit_end(e);
		}
		free(line);
		p = nl + 1;
	}
	onlist_emit_end(e);
	onlist_emit_free(e);
	return 0;
}

static int is_hex40(const char *p)
{
	for (int i = 0; i < 40; i++)
		if (!isxdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

/* Mail mode: a list mbox ("From someone@host Date") or a bare message. */
static int looks_like_mail(const char *l, size_t len)
{
	size_t i = 0;

	if (len >= 5 && !memcmp(l, "From ", 5))
		return !(len >= 45 && is_hex40(l + 5));
	if ((len >= 5 && !memcmp(l, "diff ", 5)) ||
	    (len >= 7 && !memcmp(l, "commit ", 7)))
		return 0;
	while (i < len && l[i] > ' ' && l[i] < 127 && l[i] != ':')
		i++;
	return i > 0 && i < len && l[i] == ':';
}

/* Write len bytes of data to path; 0 or -1. */
static int write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ret = 0;

	if (!f)
		return -1;
	if (len && fwrite(data, 1, len, f) != len)
		ret = -1;
	if (fclose(f) != 0)
		ret = -1;
	return ret;
}

static int mail_mode(FILE *out, int stable, const char *first, size_t len,
		     const char *const *mailinfo)
{
	struct onlist_source *src;
	struct onlist_raw raw;
	char *err = NULL;
	onlist_status st;
	int ret = ONLIST_EXIT_OK;

	if (!stable) {
		onlist_err("patch-id: --unstable is for git-formatted input, "
			   "not mail");
		return ONLIST_EXIT_USAGE;
	}
	if (onlist_source_open_fd(&src, 0, first, len, &err) != ONLIST_OK) {
		onlist_err_text(NULL, err ? err : "cannot read stdin");
		free(err);
		return ONLIST_EXIT_FAIL;
	}
	while ((st = onlist_source_next(src, &raw, &err)) == ONLIST_OK) {
		struct onlist_mail *m;
		char hex[ONLIST_PATCHID_HEXSZ + 1], commit[41];

		if (raw.skip) {
			onlist_err_text(raw.where, raw.skip);
			ret = ONLIST_EXIT_FAIL;
			continue;
		}
		if (onlist_mail_parse(&m, raw.data, raw.len, &err) != ONLIST_OK) {
			onlist_err_text(raw.where, err ? err : "unreadable message");
			free(err);
			err = NULL;
			ret = ONLIST_EXIT_FAIL;
			continue;
		}
		if (mailinfo) {
			const char *body = onlist_mail_body(m), *patch;
			size_t plen;

			patch = onlist_mail_patch(m, &plen);
			if (write_file(mailinfo[0], body, strlen(body)) < 0 ||
			    write_file(mailinfo[1], patch, patch ? plen : 0) < 0) {
				onlist_err("patch-id: cannot write %s or %s",
					   mailinfo[0], mailinfo[1]);
				ret = ONLIST_EXIT_FAIL;
			}
			mailinfo = NULL;	/* the first mail only */
		}
		if (onlist_mail_patchid(m, hex)) {
			fputs(hex, out);
			fputc(' ', out);
			/* format-patch's "From <commit id>": the id, as git */
			if (strlen(raw.from_line) >= 40 && is_hex40(raw.from_line)) {
				snprintf(commit, sizeof(commit), "%s", raw.from_line);
				fputs(commit, out);
			} else {
				onlist_put_text(out, onlist_mail_message_id(m));
			}
			fputc('\n', out);
		}
		onlist_mail_free(m);
	}
	if (st != ONLIST_ENOTFOUND) {
		onlist_err_text(NULL, err ? err : onlist_status_str(st));
		free(err);
		ret = ONLIST_EXIT_FAIL;
	}
	onlist_source_free(src);
	return ret;
}

/* After a format-patch From_ line: read the rest of the first message's
 * header (up to its blank line) from the descriptor into first (grown,
 * *cap its size) after the *len bytes there.  1 when it says the body is
 * base64 or quoted-printable: git patch-id finds no diff in that, git am
 * (mailinfo) decodes it, and so must onlist; else 0; -1 when out of
 * memory. */
static int encoded_format_patch(char **first, size_t *len, size_t *cap)
{
	size_t line = *len;
	int encoded = 0;

	for (;;) {
		char c;
		ssize_t n;

		if (*len == *cap) {
			char *p = *cap >= 65536 ? NULL : realloc(*first, *cap * 2);

			if (!p)	/* a header this long is no format-patch */
				return *cap >= 65536 ? encoded : -1;
			*first = p;
			*cap *= 2;
		}
		if ((n = read(0, &c, 1)) <= 0)
			return encoded;
		(*first)[(*len)++] = c;
		if (c != '\n')
			continue;
		if (*len - line == 1 ||
		    (*len - line == 2 && (*first)[line] == '\r'))
			return encoded;	/* the blank line: the header ends */
		if (!g_ascii_strncasecmp(*first + line,
					 "Content-Transfer-Encoding:", 26)) {
			char *v = g_strndup(*first + line + 26, *len - line - 26);

			g_strstrip(v);
			encoded |= !g_ascii_strcasecmp(v, "base64") ||
				   !g_ascii_strcasecmp(v, "quoted-printable");
			g_free(v);
		}
		line = *len;
	}
}

int cmd_patch_id(struct onlist_cli *cli, int argc, char **argv)
{
	enum { OPT_STABLE = ONLIST_OPT_FIRST_LONG, OPT_UNSTABLE, OPT_MAILINFO };
	static const struct option opts[] = {
		{ "stable", no_argument, NULL, OPT_STABLE },
		{ "unstable", no_argument, NULL, OPT_UNSTABLE },
		{ "mailinfo", required_argument, NULL, OPT_MAILINFO },
		ONLIST_CLI_GLOBAL_OPTIONS
	};
	static const char *const formats[] = { "text", "json", NULL };
	struct onlist_out out = ONLIST_OUT_INIT;
	const char *mailinfo[2] = { NULL, NULL };
	enum onlist_fmt fmt = ONLIST_FMT_TEXT;
	char *first = malloc(4096), *lines = NULL;
	size_t len = 0, nlines = 0, cap = 4096;
	int encoded = 0;
	FILE *dest;
	int c, stable = 1, ret;
	onlist_status st;

	onlist_cli_formats(cli, formats, &fmt);
	while ((c = onlist_cli_getopt(cli, argc, argv, "", opts, help)) != -1) {
		switch (c) {
		case OPT_STABLE:
			stable = 1;
			break;
		case OPT_UNSTABLE:
			stable = 0;
			break;
		case OPT_MAILINFO:
			mailinfo[0] = optarg;
			break;
		default:	/* --help, or a usage error: said already */
			return onlist_cli_stop(c);
		}
	}
	/* --mailinfo MSG PATCH: getopt takes MSG, PATCH is the operand */
	if (mailinfo[0] && optind == argc - 1) {
		mailinfo[1] = argv[optind++];
	} else if (mailinfo[0]) {
		onlist_err("patch-id: --mailinfo takes two files, MSG and PATCH");
		return ONLIST_EXIT_USAGE;
	}
	if (optind < argc) {
		onlist_err("patch-id: unexpected argument '%s' (the input is "
			   "read from standard input)", argv[optind]);
		return ONLIST_EXIT_USAGE;
	}
	/* Read the first line straight from the descriptor, byte by byte, so
	 * that whichever reader takes over finds the rest untouched.  Blanks
	 * before it are passed over, as `git mailsplit` passes them over
	 * before the first From_ line (and git patch-id ignores them). */
	if (!first) {
		onlist_err("patch-id: out of memory");
		return ONLIST_EXIT_FAIL;
	}
	while (len < cap) {
		ssize_t n = read(0, first + len, 1);
		if (n <= 0)
			break;
		if (!len && strchr(" \t\r\n", first[0]))
			continue;
		if (first[len++] == '\n')
			break;
	}
	if (len >= 45 && !memcmp(first, "From ", 5) && is_hex40(first + 5) &&
	    (encoded = encoded_format_patch(&first, &len, &cap)) < 0) {
		onlist_err("patch-id: out of memory");
		free(first);
		return ONLIST_EXIT_FAIL;
	}
	onlist_out_open(&out, NULL, NULL);	/* standard output: cannot fail */
	dest = out.f;
	/* JSON: git's lines into memory (one short line per patch, however
	 * large the input), then turned into the array */
	if (fmt == ONLIST_FMT_JSON && !(dest = open_memstream(&lines, &nlines))) {
		onlist_err("patch-id: out of memory");
		return ONLIST_EXIT_FAIL;
	}
	/* --mailinfo says the input is a mail, as `git mailinfo` takes any
	 * input for one: a `git format-patch` file (its first line "From
	 * <commit id> ..."), and a bare diff too (all body, no header) */
	if (len && (looks_like_mail(first, len) || encoded || mailinfo[0])) {
		ret = mail_mode(dest, stable, first, len,
				mailinfo[0] ? mailinfo : NULL);
	} else if (mailinfo[0]) {
		onlist_err("patch-id: --mailinfo needs a mail on standard input");
		ret = ONLIST_EXIT_USAGE;
	} else if ((st = onlist_patchid_stream(stdin, first, len, dest,
					       stable)) != ONLIST_OK) {
		/* a write error is told by onlist_out_close() below */
		if (!ferror(dest))
			onlist_err("patch-id: reading standard input: %s",
				   onlist_status_str(st));
		ret = ONLIST_EXIT_FAIL;
	} else {
		ret = ONLIST_EXIT_OK;
	}
	if (dest != out.f) {
		fclose(dest);
		if (lines_to_json(out.f, lines, nlines) < 0) {
			onlist_err("patch-id: out of memory");
			ret = ONLIST_EXIT_FAIL;
		}
		free(lines);
	}
	free(first);
	ret = onlist_cli_out_close(cli, &out, ret);
	return ret;
}
