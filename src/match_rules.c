/* match_rules.c - the built-in echo and bot rules, and rules files
 * (match.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <glib.h>

#include "onlist/match.h"
#include "onlist/print.h"
#include "onlist/patchfp.h"
#include "onlist/repo.h"
#include "onlist/repo_diff.h"
#include "onlist/store.h"
#include "onlist/store_review.h"
#include "onlist/subject.h"

const struct onlist_echo_rule onlist_match_default_rules[] = {
	/* lists that only carry commits after they were applied */
	{ "echo", "list", "linux-tip-commits" },
	{ "echo", "list", "*tip-commits*" },
	{ "echo", "list", "mm-commits" },
	{ "echo", "list", "git-commits-head" },
	{ "echo", "list", "stable-commits" },
	{ "echo", "list", "stable" },
	/* senders of commit notifications */
	{ "echo", "from", "tip-bot*@*" },
	{ "echo", "from", "tipbot@*" },
	{ "echo", "from", "*commits-noreply@*" },
	/* "patch added to ... tree", mm's "[merged mm-stable]", tip's
	 * "[tip: x86/urgent]", stable's queue notices */
	{ "echo", "subject", "*patch*added to*tree*" },
	{ "echo", "subject", "*patch*has been added to the*" },
	{ "echo", "subject", "+ *added to * branch" },
	{ "echo", "subject", "*[merged*" },
	{ "echo", "subject", "*[tip:*" },
	{ "echo", "subject", "*[git commit*" },
	{ "echo", "subject", "failed: patch*failed to apply*" },
	{ "echo", "subject", "linux-next: manual merge of*" },
	/* stable backports name the mainline commit they copy */
	{ "echo", "upstream", "1" },
	/* robots: reports and notices, never postings or review */
	{ "bot", "from", "patchwork-bot*@*" },
	{ "bot", "from", "lkp@intel.com" },
	{ "bot", "from", "syzbot*@*" },
	/* CI that answers every patch ("BlueZ Testbot <bluez.test.bot@...>":
	 * 6,000 of linux-bluetooth's 48,000 mails), bug trackers, GitHub */
	{ "bot", "from", "*.bot@*" },
	{ "bot", "from", "*-bot@*" },
	{ "bot", "from", "bugzilla-daemon@*" },
	{ "bot", "from", "noreply@github.com" },
	{ "bot", "patchwork", "1" },
	/* b4's "Applied, thanks!" notice ("b4 ty"), made by the tool from
	 * the applier's branch: a receipt, not review or discussion (on
	 * io-uring it was the only other voice on 328 of 599 commits that
	 * came out "discussed"); its Message-ID says what it is */
	{ "bot", "msgid", "*.b4-ty@*" },
};
const size_t onlist_match_ndefault_rules =
	sizeof(onlist_match_default_rules) / sizeof(onlist_match_default_rules[0]);

onlist_status onlist_match_read_rules(const char *path,
				      struct onlist_echo_rule **rules,
				      size_t *n, char **errmsg)
{
	static const char *const fields[] = {
		"list", "from", "subject", "mailer", "patchwork", "upstream",
		"msgid",
	};
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, lineno = 0, have = 0;

	*rules = NULL;
	*n = 0;
	if (!f)
		return onlist_fail(errmsg, ONLIST_EIO, "%s: cannot read rules",
				   path);
	while (getline(&line, &cap, f) > 0) {
		char kind[16], field[16], pat[512];
		int ok = 0;

		lineno++;
		line[strcspn(line, "#\r\n")] = '\0';
		if (sscanf(line, "%15s %15s %511[^\n]", kind, field, pat) != 3) {
			if (strspn(line, " \t") == strlen(line))
				continue;
		} else if (!strcmp(kind, "release")) {
			ok = !strcmp(field, "subject");
		} else if (!strcmp(kind, "notice")) {
			ok = !strcmp(field, "text");
		} else if (!strcmp(kind, "embargo")) {
			/* FIELD SHA|GLOB TEXT: the verdicts read them
			 * (verdict.h); a text is needed */
			ok = (!strcmp(field, "commit") || !strcmp(field, "subject")) &&
			     strpbrk(pat, " \t") &&
			     pat[strspn(pat, " \t") + strcspn(pat + strspn(pat, " \t"), " \t")];
		} else if (strcmp(kind, "echo") && strcmp(kind, "bot")) {
			ok = 0;
		} else {
			for (size_t i = 0; i < sizeof(fields) / sizeof(*fields); i++)
				ok |= !strcmp(field, fields[i]);
		}
		if (!ok) {
			onlist_set_err(errmsg, "%s:%zu: expected \"echo|bot "
				       "list|from|subject|mailer|patchwork|upstream "
				       "PATTERN\", \"release subject PATTERN\", "
				       "\"notice text PATTERN\" or \"embargo "
				       "commit|subject SHA|GLOB TEXT\"",
				       path, lineno);
			free(line);
			fclose(f);
			onlist_match_free_rules(*rules, *n);
			*rules = NULL;
			*n = 0;
			return ONLIST_EPARSE;
		}
		if (*n == have) {
			struct onlist_echo_rule *more =
				realloc(*rules, 2 * (have + 4) * sizeof(**rules));

			if (!more)
				goto nomem;
			*rules = more;
			have = 2 * (have + 4);
		}
		/* an embargo's text is shown as written */
		char *p = strcmp(kind, "embargo") ? g_utf8_strdown(pat, -1) :
			  g_strdup(pat), *e = p + strlen(p);
		while (e > p && isspace((unsigned char)e[-1]))
			*--e = '\0';
		(*rules)[*n].kind = strdup(kind);
		(*rules)[*n].field = strdup(field);
		(*rules)[*n].pattern = strdup(p);
		g_free(p);
		(*n)++;
		if (!(*rules)[*n - 1].kind || !(*rules)[*n - 1].field ||
		    !(*rules)[*n - 1].pattern)
			goto nomem;
	}
	free(line);
	fclose(f);
	return ONLIST_OK;
nomem:
	free(line);
	fclose(f);
	onlist_match_free_rules(*rules, *n);
	*rules = NULL;
	*n = 0;
	return onlist_fail(errmsg, ONLIST_ENOMEM, "%s: out of memory", path);
}

void onlist_match_free_rules(struct onlist_echo_rule *rules, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free((char *)rules[i].kind);
		free((char *)rules[i].field);
		free((char *)rules[i].pattern);
	}
	free(rules);
}
