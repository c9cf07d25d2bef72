/* landing.c - where commits landed, who their people are once mailmapped,
 * and files at a revision (see landing.h).  Every git is started by
 * git.c. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/buf.h"
#include "onlist/git.h"
#include "onlist/landing.h"
#include "onlist/paths.h"

struct lnode {
	char sha[41];
	int merge;		/* more than one parent */
	long land;		/* index into mainline, -1 while unknown */
	size_t npar;
	size_t par;		/* first parent's slot in lgraph.pars */
};

struct lgraph {
	struct lnode *v;
	size_t n, alloc;
	char (*pars)[41];
	size_t npars, apars;
	struct mainline {
		char sha[41];
		int64_t date;
		char *subject;
		char tip[41];		/* second parent, "" for none */
		char *request;		/* GitLab merge request, or NULL */
	} *main;
	size_t nmain, amain;
};

static onlist_status add_node(char *rec, size_t len, void *data)
{
	struct lgraph *g = data;
	struct lnode *nd;
	char *p = rec;

	(void)len;
	if (g->n == g->alloc) {
		struct lnode *nv = onlist_grow(g->v, &g->alloc,
					       sizeof *nv, 1024);
		if (!nv)
			return ONLIST_ENOMEM;
		g->v = nv;
	}
	nd = &g->v[g->n];
	if (strlen(p) < 40 || !onlist_git_is_hex(p, 40))
		return ONLIST_EGIT;
	memcpy(nd->sha, p, 40);
	nd->sha[40] = '\0';
	nd->land = -1;
	nd->npar = 0;
	nd->par = g->npars;
	for (p += 40; *p == ' ' && strlen(p + 1) >= 40; p += 41) {
		if (g->npars == g->apars) {
			char (*nv)[41] = onlist_grow(g->pars, &g->apars,
						     sizeof *nv, 1024);
			if (!nv)
				return ONLIST_ENOMEM;
			g->pars = nv;
		}
		memcpy(g->pars[g->npars], p + 1, 40);
		g->pars[g->npars++][40] = '\0';
		nd->npar++;
	}
	nd->merge = nd->npar > 1;
	g->n++;
	return ONLIST_OK;
}

/* One mainline commit: "SHA\x1fDATE\x1fPARENTS\x1fSUBJECT\x1fBODY". */
static onlist_status add_main(char *rec, size_t len, void *data)
{
	struct lgraph *g = data;
	struct mainline *m;
	char *date, *par, *subj, *body;

	(void)len;
	if (!(date = strchr(rec, '\x1f')) || !(par = strchr(date + 1, '\x1f')) ||
	    !(subj = strchr(par + 1, '\x1f')) || !(body = strchr(subj + 1, '\x1f')))
		return ONLIST_EGIT;
	*body++ = '\0';
	if (g->nmain == g->amain) {
		struct mainline *nv = onlist_grow(g->main, &g->amain,
						  sizeof *nv, 256);
		if (!nv)
			return ONLIST_ENOMEM;
		g->main = nv;
	}
	m = &g->main[g->nmain];
	if (date - rec != 40)
		return ONLIST_EGIT;
	memcpy(m->sha, rec, 40);
	m->sha[40] = '\0';
	m->date = strtoll(date + 1, NULL, 10);
	m->tip[0] = '\0';
	/* "P1 P2 ...": the second parent is what the merge took in */
	if (subj - par >= 82 && par[41] == ' ' &&
	    onlist_git_is_hex(par + 42, 40)) {
		memcpy(m->tip, par + 42, 40);
		m->tip[40] = '\0';
	}
	m->request = NULL;
	if (!(m->subject = strdup(subj + 1)))
		return ONLIST_ENOMEM;
	if (m->tip[0] && onlist_merge_request_line(body, &m->request) < 0) {
		free(m->subject);
		return ONLIST_ENOMEM;
	}
	g->nmain++;
	return ONLIST_OK;
}

struct mainline_job {
	const char *repo;
	const char *const *args;
	struct lgraph *g;
	onlist_status st;
	char *err;
};

static void *mainline_job(void *arg)
{
	struct mainline_job *j = arg;

	j->st = onlist_git_records(j->repo, j->args, ONLIST_GIT_CLEAN, NULL, 0,
				   '\0', add_main, j->g, &j->err);
	return NULL;
}

static int cmp_node(const void *a, const void *b)
{
	return strcmp(((const struct lnode *)a)->sha,
		      ((const struct lnode *)b)->sha);
}

static struct lnode *find_node(struct lgraph *g, const char *sha)
{
	struct lnode key;

	if (!g->n)	/* an empty range: no array to search (NULL) */
		return NULL;
	memcpy(key.sha, sha, 41);
	return bsearch(&key, g->v, g->n, sizeof *g->v, cmp_node);
}

onlist_status onlist_landing_walk(const char *repo, const char *range,
				   onlist_landing_cb cb, void *data,
				   char **errmsg)
{
	const char *graph_args[] = {
		"rev-list", "--parents", "--end-of-options", range, "--", NULL
	};
	/* %x1f: a subject never holds that byte (git would print it, but
	 * mailing it anywhere is unlikely); a NUL cannot be a delimiter of
	 * the reader's records and a field separator both. */
	const char *main_args[] = {
		"-c", "log.showSignature=false", "log", "--first-parent",
		"-z", "--no-color", "--format=%H%x1f%ct%x1f%P%x1f%s%x1f%b",
		"--end-of-options",
		range, "--", NULL
	};
	struct lgraph g = { 0 };
	struct lnode **stack = NULL;
	size_t nstack = 0, astack = 0, i, k;
	struct mainline_job ml = { 0 };
	pthread_t tid;
	int started;
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	if ((st = onlist_git_check_range(repo, range, errmsg)) != ONLIST_OK)
		return st;
	/* The two gits run side by side: each walks the history on its own
	 * (on git.git, 3 s and 1 s), and they fill separate parts of g. */
	ml.repo = repo;
	ml.args = main_args;
	ml.g = &g;
	started = !pthread_create(&tid, NULL, mainline_job, &ml);
	if (!started)
		ml.st = onlist_git_records(repo, main_args, ONLIST_GIT_CLEAN,
					   NULL, 0, '\0', add_main, &g,
					   &ml.err);
	st = onlist_git_records(repo, graph_args, ONLIST_GIT_CLEAN, NULL, 0,
				'\n', add_node, &g, errmsg);
	if (started)
		pthread_join(tid, NULL);
	if (st == ONLIST_OK && ml.st != ONLIST_OK) {
		st = ml.st;
		if (errmsg && !*errmsg) {
			*errmsg = ml.err;
			ml.err = NULL;
		}
	}
	free(ml.err);
	if (st != ONLIST_OK)
		goto out;
	if (g.n)	/* an empty range has no array (NULL) to sort */
		qsort(g.v, g.n, sizeof *g.v, cmp_node);
	/* Oldest mainline commit first: every commit of the range that one
	 * can reach is then already claimed by it or an older one, so what is
	 * left unclaimed behind a merge's other parents is what the merge
	 * brought in. */
	for (i = g.nmain; i-- > 0;) {
		struct lnode *m = find_node(&g, g.main[i].sha);
		if (!m)
			continue;
		if (m->land < 0)
			m->land = (long)i;
		for (k = 1; k < m->npar; k++) {
			struct lnode *p = find_node(&g, g.pars[m->par + k]);
			if (!p || p->land >= 0)
				continue;
			p->land = (long)i;
			if (nstack == astack) {
				struct lnode **ns = onlist_grow(stack, &astack,
								sizeof *ns, 256);
				if (!ns) {
					st = ONLIST_ENOMEM;
					goto out;
				}
				stack = ns;
			}
			stack[nstack++] = p;
			while (nstack) {
				struct lnode *x = stack[--nstack];
				for (size_t j = 0; j < x->npar; j++) {
					struct lnode *q = find_node(&g,
						g.pars[x->par + j]);
					if (!q || q->land >= 0)
						continue;
					q->land = (long)i;
					if (nstack == astack) {
						struct lnode **ns;

						ns = onlist_grow(stack, &astack,
							sizeof *ns, 256);
						if (!ns) {
							st = ONLIST_ENOMEM;
							goto out;
						}
						stack = ns;
					}
					stack[nstack++] = q;
				}
			}
		}
	}
	for (i = 0; i < g.n; i++) {
		struct onlist_landing l;
		const struct mainline *m;

		if (g.v[i].merge || g.v[i].land < 0)
			continue;
		m = &g.main[g.v[i].land];
		l.sha = g.v[i].sha;
		l.merge_sha = m->sha;
		l.landed_date = m->date;
		l.merge_subject = m->subject;
		l.merge_tip = strcmp(m->sha, l.sha) && m->tip[0] ? m->tip : NULL;
		l.merge_request = l.merge_tip ? m->request : NULL;
		if (cb(&l, data))
			break;
	}
out:
	free(stack);
	free(g.v);
	free(g.pars);
	for (i = 0; i < g.nmain; i++) {
		free(g.main[i].subject);
		free(g.main[i].request);
	}
	free(g.main);
	return st;
}

/* check-mailmap parses "Name <email>": keep brackets and line ends out of
 * both parts, or git would split the contact elsewhere (or die). */
static char *contact(const char *name, const char *email)
{
	char *n = strdup(name ? name : ""), *e = strdup(email ? email : "");
	char *s = NULL, *p;

	if (!n || !e)
		goto out;
	for (p = n; *p; p++)
		if (*p == '<' || *p == '>' || *p == '\n' || *p == '\r')
			*p = ' ';
	for (p = e; *p; p++)
		if (*p == '<' || *p == '>' || *p == '\n' || *p == '\r' ||
		    *p == ' ')
			*p = '_';
	if (asprintf(&s, *n ? "%s <%s>" : "%s<%s>", n, e) < 0)
		s = NULL;
out:
	free(n);
	free(e);
	return s;
}

struct mm_out {
	struct onlist_ident *v;
	size_t n, i;
};

static onlist_status take_mapped(char *rec, size_t len, void *data)
{
	struct mm_out *o = data;
	char *lt = strrchr(rec, '<'), *name, *email;

	(void)len;
	if (o->i >= o->n)
		return ONLIST_OK;
	if (!lt || rec[len ? len - 1 : 0] != '>')
		return ONLIST_EGIT;
	rec[len - 1] = '\0';
	*lt = '\0';
	email = lt + 1;		/* before lt moves back over the blanks */
	while (lt > rec && lt[-1] == ' ')
		*--lt = '\0';
	if (!(name = strdup(rec)) || !(email = strdup(email))) {
		free(name);
		return ONLIST_ENOMEM;
	}
	free(o->v[o->i].name);
	free(o->v[o->i].email);
	o->v[o->i].name = name;
	o->v[o->i].email = email;
	o->i++;
	return ONLIST_OK;
}

/* One `git check-mailmap --stdin` for all of them: identities number in
 * the tens of thousands on a real list, and a git per few dozen would
 * spend minutes starting processes.  The contacts go in as git's input
 * (git.c feeds it from a temporary file), so writing them cannot block on
 * git's output. */
onlist_status onlist_landing_mailmap(const char *repo, const char *alias_file,
				  struct onlist_ident *ids, size_t n,
				  char **errmsg)
{
	const char *args[] = { "-c", NULL, "check-mailmap", "--stdin", NULL };
	char *opt = NULL, *input = NULL;
	struct mm_out o = { ids, n, 0 };
	onlist_status st = ONLIST_OK;
	size_t len = 0;
	FILE *f;

	if (errmsg)
		*errmsg = NULL;
	if (!n)
		return ONLIST_OK;
	if (!repo || repo[0] == '-' || (alias_file && alias_file[0] == '-')) {
		onlist_set_err(errmsg,
			       "refusing a path that looks like an option");
		return ONLIST_EUSAGE;
	}
	if (!(f = open_memstream(&input, &len)))
		return ONLIST_ENOMEM;
	for (size_t i = 0; i < n && st == ONLIST_OK; i++) {
		char *c = contact(ids[i].name, ids[i].email);

		if (!c || fprintf(f, "%s\n", c) < 0)
			st = ONLIST_ENOMEM;
		free(c);
	}
	if (fclose(f) != 0 && st == ONLIST_OK)
		st = ONLIST_ENOMEM;
	if (st == ONLIST_OK && alias_file &&
	    asprintf(&opt, "mailmap.file=%s", alias_file) < 0) {
		opt = NULL;
		st = ONLIST_ENOMEM;
	}
	if (st != ONLIST_OK) {
		onlist_set_err(errmsg,
			       "preparing git check-mailmap: out of memory");
		goto out;
	}
	args[1] = opt;
	/* without an alias file, no "-c" */
	st = onlist_git_records(repo, opt ? args : args + 2, 0, input, len,
				'\n', take_mapped, &o, errmsg);
	if (st == ONLIST_OK && o.i != n) {
		onlist_set_err(errmsg, "git check-mailmap answered %zu of %zu "
			"identities in %s", o.i, n, repo);
		st = ONLIST_EGIT;
	}
out:
	free(opt);
	free(input);
	return st;
}

static onlist_status take_blob(char *rec, size_t len, void *data)
{
	struct onlist_buf *b = data;

	/* records end at NUL; put back what the reader cut */
	if (onlist_buf_add(b, rec, len) < 0 || onlist_buf_add(b, "", 1) < 0)
		return ONLIST_ENOMEM;
	return ONLIST_OK;
}

onlist_status onlist_landing_read_blob(const char *repo, const char *rev,
				    const char *path, char **out, size_t *len,
				    char **errmsg)
{
	const char *args[] = { "cat-file", "-e", NULL, NULL };
	const char *cat[] = { "cat-file", "blob", NULL, NULL };
	struct onlist_buf b = ONLIST_BUF_INIT;
	char *spec;
	onlist_status st;

	if (errmsg)
		*errmsg = NULL;
	*out = NULL;
	*len = 0;
	if (!rev || rev[0] == '-' || !path)
		return ONLIST_EUSAGE;
	if (asprintf(&spec, "%s:%s", rev, path) < 0)
		return ONLIST_ENOMEM;
	args[2] = cat[2] = spec;
	if (onlist_git_run(repo, args, ONLIST_GIT_CLEAN, NULL) != ONLIST_OK) {
		free(spec);
		return ONLIST_ENOTFOUND;
	}
	st = onlist_git_records(repo, cat, ONLIST_GIT_CLEAN, NULL, 0, '\0',
				take_blob, &b, errmsg);
	free(spec);
	if (st != ONLIST_OK) {
		onlist_buf_release(&b);
		return st;
	}
	/* the last record had no NUL of its own */
	if (b.len)
		b.len--;
	if (onlist_buf_add(&b, NULL, 0) < 0) {	/* terminate, or allocate */
		onlist_buf_release(&b);
		return ONLIST_ENOMEM;
	}
	*out = b.data;
	*len = b.len;
	return ONLIST_OK;
}
