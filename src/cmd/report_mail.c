/* report_mail.c - report --format mail: the weekly text report as one
 * RFC 5322 message (built by mailout.c with GMime), on standard output
 * or piped to sendmail. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "report_mail.h"
#include "onlist/git.h"
#include "onlist/mailout.h"

/* a list given twice is one list */
static int join(char **dst, const char *arg)
{
	char *j = NULL;

	if (!*dst)
		return (*dst = strdup(arg)) ? 0 : -1;
	if (asprintf(&j, "%s, %s", *dst, arg) < 0)
		return -1;
	free(*dst);
	*dst = j;
	return 0;
}

int onlist_report_mail_opt(struct onlist_report_mail *m, int k, const char *arg)
{
	int bad = 0;

	m->given = 1;
	switch (k) {
	case 0:
		free(m->from);
		bad = !(m->from = strdup(arg));
		break;
	case 1:
		bad = join(&m->to, arg);
		break;
	case 2:
		bad = join(&m->cc, arg);
		break;
	case 3:
		m->send = 1;
		break;
	case 4:
		m->sendmail = arg;
		break;
	}
	if (bad)
		onlist_err("report: out of memory");
	return bad ? -1 : 0;
}

void onlist_report_mail_release(struct onlist_report_mail *m)
{
	free(m->from);
	free(m->to);
	free(m->cc);
	m->from = m->to = m->cc = NULL;
}

/* The repository's name: its folder's, less a ".git" (NULL: "unknown"). */
static char *repo_name(const char *repo)
{
	const char *b;
	size_t n;

	if (!repo || !*repo)
		return strdup("unknown");
	n = strlen(repo);
	while (n > 1 && repo[n - 1] == '/')
		n--;
	if (n > 5 && !strncmp(repo + n - 5, "/.git", 5))
		n -= 5;
	else if (n > 4 && !strncmp(repo + n - 4, ".git", 4))
		n -= 4;
	for (b = repo + n; b > repo && b[-1] != '/'; b--)
		;
	return strndup(b, (size_t)(repo + n - b));
}

/* s with every character a Message-ID's left side should not carry
 * replaced by '-', into a new string. */
static char *id_part(const char *s, size_t n)
{
	char *c = strndup(s, n);

	for (char *p = c; p && *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' ||
		      *p == '_'))
			*p = '-';
	return c;
}

/* The right side of the Message-IDs: the domain of the From: address, so
 * that the ids are the sender's own; "onlist.invalid" when it has none. */
static char *id_domain(const char *addr)
{
	const char *at = addr ? strrchr(addr, '@') : NULL;
	size_t n;

	if (!at)
		return strdup("onlist.invalid");
	n = strcspn(at + 1, "> \t,;\"");
	if (!n)
		return strdup("onlist.invalid");
	return id_part(at + 1, n);
}

static char *msgid(const char *week, const char *slug, const char *domain)
{
	char *id = NULL;

	if (asprintf(&id, "onlist-report.%s.%s@%s", week, slug, domain) < 0)
		return NULL;
	return id;
}

/* Hand the message to `cmd` (a shell command line, like git's
 * sendemail.sendmailCmd) on its standard input.  0, or -1 after saying
 * why. */
static int send_mail(const char *cmd, const char *msg, size_t len)
{
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	FILE *p = popen(cmd, "w");
	int bad, status;

	if (!p) {
		signal(SIGPIPE, old);
		onlist_err("report: cannot start '%s'", cmd);
		return -1;
	}
	bad = fwrite(msg, 1, len, p) != len;
	status = pclose(p);
	signal(SIGPIPE, old);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) || bad) {
		onlist_err("report: '%s' failed (%s %d): the mail was not sent",
			   cmd, status != -1 && WIFEXITED(status) ? "exit" : "status",
			   status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) :
			   status);
		return -1;
	}
	return 0;
}

int onlist_report_mail_write(struct onlist_cli *cli, struct onlist_report_mail *m,
			     const char *week, const char *prev_week,
			     const char *repo, const char *body, size_t len,
			     FILE *out)
{
	struct onlist_mailout mo = { 0 };
	char *name = NULL, *addr = NULL, *from = NULL, *to = NULL, *cc = NULL,
	     *cmd = NULL, *subject = NULL, *rname = repo_name(repo), *slug = NULL,
	     *domain = NULL, *id = NULL, *prev = NULL, *msg = NULL, *err = NULL;
	time_t now = time(NULL);
	struct tm tm;
	size_t mlen = 0;
	onlist_status st;
	int ret = ONLIST_EXIT_FAIL;

	/* From: --from, else sendemail.from (git send-email's), else the
	 * user git commits as */
	if (m->from)
		from = strdup(m->from);
	else if (!(from = onlist_git_config(NULL, "sendemail.from"))) {
		name = onlist_git_config(NULL, "user.name");
		addr = onlist_git_config(NULL, "user.email");
		if (!addr) {
			onlist_err("report: no From: address: give --from, or "
				   "set git config sendemail.from or user.email");
			ret = ONLIST_EXIT_USAGE;
			goto out;
		}
	}
	to = m->to ? strdup(m->to) : onlist_git_config(NULL, "onlist.reportTo");
	cc = m->cc ? strdup(m->cc) : onlist_git_config(NULL, "onlist.reportCc");
	if (!to && !cc && m->send) {
		onlist_err("report: --send needs a recipient: --to, or git "
			   "config onlist.reportTo");
		ret = ONLIST_EXIT_USAGE;
		goto out;
	}
	if (!rname || !(slug = id_part(rname, strlen(rname))) ||
	    !(domain = id_domain(addr ? addr : from)) ||
	    !(id = msgid(week, slug, domain)) ||
	    (prev_week && !(prev = msgid(prev_week, slug, domain))) ||
	    asprintf(&subject, "[onlist] %s: merged without the list, %s",
		     rname, week) < 0) {
		subject = NULL;
		onlist_err("report: out of memory");
		goto out;
	}
	localtime_r(&now, &tm);
	mo = (struct onlist_mailout){
		.from_name = name, .from_addr = addr, .from = from,
		.to = to, .cc = cc, .subject = subject,
		.date = (int64_t)now, .utc_offset = (int)tm.tm_gmtoff,
		.msgid = id, .in_reply_to = prev, .body = body, .body_len = len,
	};
	if ((st = onlist_mailout_write(&mo, &msg, &mlen, &err)) != ONLIST_OK) {
		onlist_err("report: %s", err ? err : onlist_status_str(st));
		ret = st == ONLIST_EPARSE ? ONLIST_EXIT_USAGE : ONLIST_EXIT_FAIL;
		goto out;
	}
	if (!m->send) {
		fwrite(msg, 1, mlen, out);
		ret = ONLIST_EXIT_OK;
		goto out;
	}
	if (!m->sendmail && !(cmd = onlist_git_config(NULL, "onlist.sendmail")) &&
	    !(cmd = strdup("sendmail -t -i"))) {
		onlist_err("report: out of memory");
		goto out;
	}
	if (send_mail(m->sendmail ? m->sendmail : cmd, msg, mlen))
		goto out;
	if (!cli->quiet)
		fprintf(out, "report: <%s> sent\n", id);
	ret = ONLIST_EXIT_OK;
out:
	free(name);
	free(addr);
	free(from);
	free(to);
	free(cc);
	free(cmd);
	free(subject);
	free(rname);
	free(slug);
	free(domain);
	free(id);
	free(prev);
	free(msg);
	free(err);
	return ret;
}
