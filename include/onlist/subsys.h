/* subsys.h - which subsystem a path belongs to (src/subsys.c): a
 * kernel-style MAINTAINERS file, or the top of the path. */
#ifndef ONLIST_SUBSYS_H
#define ONLIST_SUBSYS_H

#include <stddef.h>
#include "onlist/status.h"

struct onlist_maintainers;

/* Parse a kernel-style MAINTAINERS file: sections named by a line of their
 * own, with F: (file pattern), X: (excluded pattern) and N: (regex on the
 * path) entries.  The text is copied.  ONLIST_ENOMEM only. */
onlist_status onlist_maintainers_parse(struct onlist_maintainers **out,
				       const char *text, size_t len);
void onlist_maintainers_free(struct onlist_maintainers *m);
/* How many N: patterns were left out, because they do not compile or
 * could make regcomp() or matching take unbounded time and memory
 * (quantifiers stacked or applied to a quantified group, counts over
 * 100, longer than 256 characters).  The caller warns. */
size_t onlist_maintainers_dropped(const struct onlist_maintainers *m);
/* How many sections have at least one pattern. */
size_t onlist_maintainers_count(const struct onlist_maintainers *m);

/* The section `path` belongs to: of the sections with an F: or N: entry
 * matching it and no X: entry excluding it, the most specific (deepest
 * pattern, as get_maintainer.pl ranks them; on a tie the first in the
 * file).  NULL when none matches.  The name is owned by m. */
const char *onlist_maintainers_section(const struct onlist_maintainers *m,
				       const char *path);

/* The subsystem of a commit touching `files` (one path per line): the
 * section most of its files belong to (with m), else the top two
 * components of the most common directory ("fs/ext4", "Makefile").  The
 * result is written into buf (always terminated). */
void onlist_subsystem(const struct onlist_maintainers *m, const char *files,
		      char *buf, size_t n);

/* Names one path for onlist_subsys_vote(): the `len` bytes at `path` (not
 * terminated) get a name written into name (n bytes, terminated); return
 * 0 to leave the path out of the vote. */
typedef int (*onlist_subsys_namer)(const char *path, size_t len, char *name,
				   size_t n, void *data);

/* The name most of `files` (one path per line) get from namer, the first
 * seen on a tie, written into buf (always terminated); "(no files)" when
 * no path was named.  Names longer than 255 bytes are cut; at most 64
 * different names are counted (paths naming a 65th are left out). */
void onlist_subsys_vote(const char *files, onlist_subsys_namer namer,
			void *data, char *buf, size_t n);

#endif
