/* remote_run.c - lookup/match --remote's whole run (remote.h): the inbox
 * probed, each commit asked about, then the same match as a local run. */
#include <stdlib.h>
#include <string.h>

#include "onlist/git.h"
#include "onlist/match.h"
#include "onlist/store.h"
#include "onlist/store_thread.h"
#include "onlist/thread.h"
#include "remote_int.h"

/* "WHO: text" into *errmsg (first message wins), and st. */
static onlist_status said(char **errmsg, onlist_status st, const char *who,
			  const char *text)
{
	if (who)
		return onlist_fail(errmsg, st, "%s: %s", who, text);
	return onlist_fail(errmsg, st, "%s", text);
}

onlist_status onlist_remote_run(struct onlist_store *s,
				const struct onlist_remote_run_opts *o,
				char *const *names, int n, char (*shas)[41],
				struct onlist_remote_run_result *res,
				char **errmsg)
{
	struct onlist_remote *r = NULL;
	struct onlist_match_opts mo;
	struct onlist_match_counts mc;
	struct onlist_thread_counts tc;
	struct onlist_echo_rule *rules = NULL;
	size_t nrules = 0;
	char *err = NULL, *path;
	onlist_status st;
	int fuzzy = 0;

	res->requests = 0;
	res->probe_failed = 0;
	if ((st = onlist_remote_open(&r, s, &o->remote, &err)) != ONLIST_OK) {
		said(errmsg, st, o->who, err ? err : "--remote failed");
		free(err);
		return st;
	}
	/* the inbox first: a mistyped name is an error, not a verdict of
	 * "never posted" on every commit */
	if ((st = onlist_remote_probe(r, &err)) != ONLIST_OK) {
		said(errmsg, st, o->who, err ? err : "--remote failed");
		free(err);
		res->probe_failed = 1;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		enum onlist_remote_tier tier = ONLIST_REMOTE_NONE;

		shas[i][0] = '\0';
		st = onlist_remote_add_commit(r, names[i], shas[i], &err);
		if (st == ONLIST_OK)
			st = onlist_remote_search(r, shas[i], &tier, &err);
		else
			shas[i][0] = '\0';
		if (st == ONLIST_ENOTFOUND) {
			/* no such commit: said, and the others asked */
			char *line = NULL;

			said(&line, st, o->who, err ? err : onlist_status_str(st));
			if (line && o->remote.note)
				o->remote.note(line, o->remote.data);
			free(line);
			free(err);
			err = NULL;
		} else if (st != ONLIST_OK) {
			said(errmsg, st, o->who, err ? err : onlist_status_str(st));
			free(err);
			goto out;
		}
		if (st == ONLIST_OK && tier == ONLIST_REMOTE_FUZZY)
			fuzzy = 1;
		if (shas[i][0] && o->asked)
			o->asked(shas[i], tier, onlist_remote_requests(r),
				 o->remote.data);
	}
	/* the same match as a local run, over everything stored */
	memset(&mo, 0, sizeof(mo));
	mo.repo = o->remote.repo;
	path = onlist_git_config(o->remote.repo, "onlist.rules");
	if (path && (st = onlist_match_read_rules(path, &rules, &nrules,
						  &err)) != ONLIST_OK) {
		said(errmsg, st, "onlist.rules", err ? err : "bad rules file");
		free(err);
		free(path);
		goto out;
	}
	free(path);
	st = ONLIST_OK;
	mo.rules = rules;
	mo.nrules = nrules;
	if (onlist_thread_update(s, &tc, &err) != ONLIST_OK) {
		st = said(errmsg, ONLIST_EDB, o->who, err);
		free(err);
	} else if ((st = onlist_match_run(s, &mo, &mc, &err)) != ONLIST_OK) {
		said(errmsg, st, o->who, err ? err : "match failed");
		free(err);
	}
	/* the fuzzy tier's candidates came without their threads: those
	 * the scorer took get theirs now (replies, versions, review), and
	 * match runs again over them */
	for (int i = 0, more = 0; st == ONLIST_OK && fuzzy && i <= n; i++) {
		int got = 0;

		if (i == n) {
			if (more && (onlist_thread_update(s, &tc, &err) != ONLIST_OK ||
				     onlist_match_run(s, &mo, &mc, &err) != ONLIST_OK)) {
				st = said(errmsg, ONLIST_EDB, o->who, err ? err :
					  onlist_store_errmsg(s));
				free(err);
			}
			break;
		}
		if (!shas[i][0])
			continue;
		if (onlist_remote_fuzzy_threads(r, shas[i], &got, &err) != ONLIST_OK) {
			st = said(errmsg, ONLIST_EHTTP, o->who,
				  err ? err : "--remote failed");
			free(err);
			err = NULL;
		}
		more += got;
	}
out:
	res->requests = onlist_remote_requests(r);
	onlist_remote_free(r);
	onlist_match_free_rules(rules, nrules);
	return st;
}
