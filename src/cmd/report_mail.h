/* report_mail.h - report --format mail: the text report as one message,
 * printed or handed to sendmail (report_mail.c). */
#ifndef ONLIST_REPORT_MAIL_H
#define ONLIST_REPORT_MAIL_H

#include <stdint.h>
#include <stdio.h>
#include "cli.h"

/* The mail's options, as given (NULL: from git config). */
struct onlist_report_mail {
	char *from, *to, *cc;	/* --to/--cc given more than once: joined */
	const char *sendmail;	/* --sendmail-cmd */
	int send;		/* --send */
	int given;		/* any of them was given */
};

/* The options, for a command's getopt table: `base` is the value of the
 * first; each is base + its offset (ONLIST_REPORT_MAIL_NOPT of them). */
#define ONLIST_REPORT_MAIL_NOPT 5
#define ONLIST_REPORT_MAIL_OPTIONS(base) \
	{ "from", required_argument, NULL, (base) }, \
	{ "to", required_argument, NULL, (base) + 1 }, \
	{ "cc", required_argument, NULL, (base) + 2 }, \
	{ "send", no_argument, NULL, (base) + 3 }, \
	{ "sendmail-cmd", required_argument, NULL, (base) + 4 }
#define ONLIST_REPORT_MAIL_HELP \
	"  --format mail         the text report as one mail (RFC 5322) for\n" \
	"                        `sendmail -t`: threaded week after week\n" \
	"    --from ADDR         (default: sendemail.from, else user.name and\n" \
	"                        user.email)\n" \
	"    --to/--cc ADDRS     (default: onlist.reportTo, onlist.reportCc)\n" \
	"    --send              pipe it to onlist.sendmail, else\n" \
	"                        `sendmail -t -i` (--sendmail-cmd CMD)\n"

/* Take option number `k` (0 to ONLIST_REPORT_MAIL_NOPT - 1) with its
 * argument.  0, or -1 out of memory (said). */
int onlist_report_mail_opt(struct onlist_report_mail *m, int k, const char *arg);
void onlist_report_mail_release(struct onlist_report_mail *m);

/* The message for the week `week` (its name, "2013-W27"; prev_week the
 * one before) of repository `repo` (a path, NULL when unknown) with the
 * text `body`: written to `out`, or with --send given to the sendmail
 * command.  An exit code (said when not ONLIST_EXIT_OK). */
int onlist_report_mail_write(struct onlist_cli *cli, struct onlist_report_mail *m,
			     const char *week, const char *prev_week,
			     const char *repo, const char *body, size_t len,
			     FILE *out);

#endif
