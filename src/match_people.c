/* match_people.c - one person under several addresses: the .mailmap
 * groups the fuzzy tier and the review phase use (match_int.h). */
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
#include "match_int.h"

/* ---- one person, several addresses ---- */

struct idlist {
	GArray *ids;		/* struct onlist_ident */
	GPtrArray *addrs;	/* the lower-case address of each */
};

static void idlist_clear(struct idlist *l)
{
	for (guint i = 0; i < l->ids->len; i++) {
		struct onlist_ident *id = &g_array_index(l->ids, struct onlist_ident, i);

		free(id->name);
		free(id->email);
	}
	g_array_free(l->ids, TRUE);
	g_ptr_array_free(l->addrs, TRUE);
}

static int take_ident(const char *name, const char *addr, void *data)
{
	struct idlist *l = data;
	struct onlist_ident id = { g_strdup(name), g_strdup(addr) };

	g_array_append_val(l->ids, id);
	g_ptr_array_add(l->addrs, g_strdup(addr));
	return 0;
}

/* Group addresses by what the repository's .mailmap (and the user's alias
 * file) makes of them.  Without a repository, or when git fails, every
 * address stands alone (*canon stays NULL). */
void onlist__match_aliases(struct onlist_store *s,
			  const struct onlist_match_opts *o,
			  GHashTable **canon, GHashTable **aliases)
{
	struct idlist l;
	char *err = NULL;

	if (!o->repo)
		return;
	l.ids = g_array_new(FALSE, FALSE, sizeof(struct onlist_ident));
	l.addrs = g_ptr_array_new_with_free_func(g_free);
	if (onlist_store_match_identities(s, take_ident, &l) == ONLIST_OK &&
	    onlist_landing_mailmap(o->repo, o->aliases,
				(struct onlist_ident *)(void *)l.ids->data,
				l.ids->len, &err) == ONLIST_OK) {
		(*canon) = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
						 g_free);
		(*aliases) = g_hash_table_new_full(g_str_hash, g_str_equal,
						   g_free, (GDestroyNotify)
						   g_ptr_array_unref);
		for (guint i = 0; i < l.ids->len; i++) {
			struct onlist_ident *id =
				&g_array_index(l.ids, struct onlist_ident, i);
			const char *addr = g_ptr_array_index(l.addrs, i);
			char *cn = g_ascii_strdown(id->email ? id->email : addr, -1);
			GPtrArray *a;

			if (g_hash_table_contains((*canon), addr)) {
				g_free(cn);
				continue;
			}
			if (!(a = g_hash_table_lookup((*aliases), cn))) {
				a = g_ptr_array_new_with_free_func(g_free);
				g_hash_table_insert((*aliases), g_strdup(cn), a);
			}
			g_ptr_array_add(a, g_strdup(addr));
			g_hash_table_insert((*canon), g_strdup(addr), cn);
		}
	} else if (err) {
		onlist__match_warn(o, "no .mailmap aliases", err);
	}
	free(err);
	idlist_clear(&l);
}

/* ---- review: one person, several addresses ---- */

static int take_person(const char *name, const char *addr, void *data)
{
	struct idlist *l = data;
	struct onlist_ident id = { g_strdup(name), g_strdup(addr) };

	g_array_append_val(l->ids, id);
	g_ptr_array_add(l->addrs, g_strdup(addr));
	return 0;
}

/* address -> the address .mailmap gives its person, for every person a
 * review compares; NULL without a repository or when git fails. */
GHashTable *onlist__match_review_canon(struct onlist_store *s,
				const struct onlist_match_opts *o)
{
	struct idlist l;
	GHashTable *canon = NULL;
	char *err = NULL;

	if (!o->repo)
		return NULL;
	l.ids = g_array_new(FALSE, FALSE, sizeof(struct onlist_ident));
	l.addrs = g_ptr_array_new_with_free_func(g_free);
	if (onlist_store_review_people(s, take_person, &l) == ONLIST_OK &&
	    onlist_landing_mailmap(o->repo, o->aliases,
				(struct onlist_ident *)(void *)l.ids->data,
				l.ids->len, &err) == ONLIST_OK) {
		canon = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					      g_free);
		for (guint i = 0; i < l.ids->len; i++) {
			struct onlist_ident *id =
				&g_array_index(l.ids, struct onlist_ident, i);
			const char *addr = g_ptr_array_index(l.addrs, i);

			if (id->email && !g_hash_table_contains(canon, addr))
				g_hash_table_insert(canon, g_strdup(addr),
						    g_ascii_strdown(id->email, -1));
		}
	} else if (err) {
		onlist__match_warn(o, "review without .mailmap", err);
	}
	free(err);
	idlist_clear(&l);
	return canon;
}

const char *onlist__match_canon_addr(const char *addr, void *data)
{
	return g_hash_table_lookup(data, addr);
}

/* What the canonical forms do, as a digest of the addresses they change:
 * when it differs from the last run's, every commit's review is computed
 * again (store_review.h). */
char *onlist__match_canon_key(GHashTable *canon)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	GList *keys, *k;
	char *key;

	if (!canon) {
		g_checksum_free(sum);
		return g_strdup("none");
	}
	keys = g_list_sort(g_hash_table_get_keys(canon), (GCompareFunc)strcmp);
	for (k = keys; k; k = k->next) {
		const char *v = g_hash_table_lookup(canon, k->data);

		if (!strcmp(v, k->data))
			continue;	/* unchanged: new people change nothing */
		g_checksum_update(sum, k->data, -1);
		g_checksum_update(sum, (const guchar *)"\t", 1);
		g_checksum_update(sum, (const guchar *)v, -1);
		g_checksum_update(sum, (const guchar *)"\n", 1);
	}
	g_list_free(keys);
	key = g_strdup_printf("mailmap:%s", g_checksum_get_string(sum));
	g_checksum_free(sum);
	return key;
}
