/* The words of include/onlist/vocab.h, looked up. */
#include <string.h>
#include <strings.h>
#include "onlist/vocab.h"

static const struct {
	const char *name;
	int posting, edited;
} methods[] = {
#define ROW(id, name, posting, edited) { name, posting, edited },
	ONLIST_METHODS(ROW)
#undef ROW
};

#define NMETHODS (int)(sizeof(methods) / sizeof(*methods))

enum onlist_method onlist_method_parse(const char *name)
{
	for (int i = 0; name && i < NMETHODS; i++)
		if (!strcmp(name, methods[i].name))
			return (enum onlist_method)i;
	return ONLIST_METHOD_UNKNOWN;
}

const char *onlist_method_name(enum onlist_method m)
{
	return (int)m >= 0 && (int)m < NMETHODS ? methods[m].name : "?";
}

int onlist_method_rank(const char *name)
{
	return (int)onlist_method_parse(name);
}

int onlist_method_is_posting(const char *name)
{
	enum onlist_method m = onlist_method_parse(name);

	/* a word of a newer onlist: a posting unless it says otherwise, as
	 * the SQL condition (NOT IN the non-posting words) has it */
	return name && (m == ONLIST_METHOD_UNKNOWN || methods[m].posting);
}

int onlist_method_is_edited(const char *name)
{
	enum onlist_method m = onlist_method_parse(name);

	return m != ONLIST_METHOD_UNKNOWN && methods[m].edited;
}

#define IS(k) (key && !strcasecmp(key, k)) ||
int onlist_is_review_key(const char *key)
{
	return ONLIST_REVIEW_KEYS(IS) 0;
}

int onlist_is_nak_key(const char *key)
{
	return ONLIST_NAK_KEYS(IS) 0;
}
#undef IS
