/* fuzz_maintainers.c - the MAINTAINERS parser and the section lookup.
 * The input is the file; a few paths (and the input's own last line as a
 * path) are looked up in it: nothing may crash, leak or overrun.  (A
 * section's name may be empty: a name line that starts with a NUL.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
		"fs/ext4/inode.c", "Makefile", "drivers/net/a/b/c.c", "",
		"include/linux/fs.h",
	};
	struct onlist_maintainers *m = NULL;
	char buf[256], *last;
	const char *sec;

	if (onlist_maintainers_parse(&m, (const char *)data, size) != 0)
		return 0;
	for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++)
		if ((sec = onlist_maintainers_section(m, paths[i])))
			(void)strlen(sec);	/* terminated, readable */
	if ((last = malloc(size + 1))) {
		const char *nl;

		memcpy(last, data, size);
		last[size] = '\0';
		nl = strrchr(last, '\n');
		onlist_maintainers_section(m, nl ? nl + 1 : last);
		onlist_subsystem(m, last, buf, sizeof(buf));
		free(last);
	}
	onlist_subsystem(NULL, "a/b/c\nd\n", buf, sizeof(buf));
	onlist_maintainers_free(m);
	return 0;
}
