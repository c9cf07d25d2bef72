/* people.c - identities through .mailmap, and counting per name. */
#include <stdlib.h>
#include <string.h>

#include "onlist/buf.h"
#include "onlist/people.h"
#include "onlist/repo.h"

struct person {
	char *name, *email;	/* as recorded */
	char *mapped;		/* the name to show; owned */
};

struct onlist_people {
	struct person *v;
	size_t n, alloc;
	int sorted;
};

onlist_status onlist_people_new(struct onlist_people **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? ONLIST_OK : ONLIST_ENOMEM;
}

void onlist_people_free(struct onlist_people *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].email);
		free(p->v[i].mapped);
	}
	free(p->v);
	free(p);
}

onlist_status onlist_people_add(struct onlist_people *p, const char *name,
				const char *email)
{
	struct person *x;

	if (p->n == p->alloc) {
		struct person *nv = onlist_grow(p->v, &p->alloc,
						sizeof *nv, 256);
		if (!nv)
			return ONLIST_ENOMEM;
		p->v = nv;
	}
	x = &p->v[p->n];
	x->name = strdup(name ? name : "");
	x->email = strdup(email ? email : "");
	x->mapped = NULL;
	if (!x->name || !x->email) {
		free(x->name);
		free(x->email);
		return ONLIST_ENOMEM;
	}
	p->n++;
	p->sorted = 0;
	return ONLIST_OK;
}

static int cmp_person(const void *a, const void *b)
{
	const struct person *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : strcmp(x->email, y->email);
}

onlist_status onlist_people_resolve(struct onlist_people *p, const char *repo,
				    const char *alias_file, char **errmsg)
{
	struct onlist_ident *ids = NULL;
	size_t i, k = 0;
	onlist_status st = ONLIST_OK;

	if (errmsg)
		*errmsg = NULL;
	if (p->n)	/* qsort(NULL, 0, ...) is undefined: an empty week */
		qsort(p->v, p->n, sizeof *p->v, cmp_person);
	for (i = 0; i < p->n; i++) {
		if (k && !cmp_person(&p->v[k - 1], &p->v[i])) {
			free(p->v[i].name);
			free(p->v[i].email);
			free(p->v[i].mapped);
			continue;
		}
		p->v[k++] = p->v[i];
	}
	p->n = k;
	p->sorted = 1;
	if (repo && p->n) {
		if (!(ids = calloc(p->n, sizeof *ids)))
			return ONLIST_ENOMEM;
		for (i = 0; i < p->n; i++) {
			ids[i].name = strdup(p->v[i].name);
			ids[i].email = strdup(p->v[i].email);
			if (!ids[i].name || !ids[i].email) {
				st = ONLIST_ENOMEM;
				goto out;
			}
		}
		if ((st = onlist_landing_mailmap(repo, alias_file, ids, p->n,
					      errmsg)) != ONLIST_OK)
			goto out;
		for (i = 0; i < p->n; i++) {
			free(p->v[i].mapped);
			/* one row per person: the mapped name, or the
			 * address when there is no name at all */
			p->v[i].mapped = strdup(*ids[i].name ? ids[i].name
							     : ids[i].email);
			if (!p->v[i].mapped) {
				st = ONLIST_ENOMEM;
				goto out;
			}
		}
	}
out:
	for (i = 0; ids && i < p->n; i++) {
		free(ids[i].name);
		free(ids[i].email);
	}
	free(ids);
	return st;
}

const char *onlist_people_name(const struct onlist_people *p,
			       const char *name, const char *email)
{
	struct person key = { (char *)(name ? name : ""),
			      (char *)(email ? email : ""), NULL };
	const struct person *x = NULL;

	if (p && p->sorted)
		x = bsearch(&key, p->v, p->n, sizeof *p->v, cmp_person);
	if (x && x->mapped)
		return x->mapped;
	return key.name[0] ? key.name : key.email;
}

/* ---- tallies ---- */

onlist_status onlist_tally_add(struct onlist_tally *t, const char *name)
{
	size_t i;

	/* linear: a tally holds people or subsystems, a few thousand at
	 * most, and is filled once per report */
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name)) {
			t->v[i].count++;
			return ONLIST_OK;
		}
	if (t->n == t->alloc) {
		struct onlist_tally_row *nv = onlist_grow(t->v, &t->alloc,
							  sizeof *nv, 64);
		if (!nv)
			return ONLIST_ENOMEM;
		t->v = nv;
	}
	if (!(t->v[t->n].name = strdup(name)))
		return ONLIST_ENOMEM;
	t->v[t->n].count = 1;
	t->v[t->n].extra = 0;
	t->n++;
	return ONLIST_OK;
}

onlist_status onlist_tally_extra(struct onlist_tally *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name)) {
			t->v[i].extra++;
			return ONLIST_OK;
		}
	return ONLIST_ENOTFOUND;
}

static int cmp_row(const void *a, const void *b)
{
	const struct onlist_tally_row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->name, y->name);
}

void onlist_tally_sort(struct onlist_tally *t)
{
	if (t->n)
		qsort(t->v, t->n, sizeof *t->v, cmp_row);
}

void onlist_tally_release(struct onlist_tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	memset(t, 0, sizeof *t);
}
