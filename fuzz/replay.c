/* replay.c - a main() for the fuzz harnesses without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named.  Built with the normal
 * compiler (and under `make sanitize` with ASan + UBSan) so that `make
 * check` replays every input that ever crashed a harness (fuzz/regress/)
 * and the seeds, with no clang needed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		char *buf = NULL;
		size_t len = 0, cap = 0, n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		do {
			if (len == cap) {
				cap = cap ? 2 * cap : 65536;
				if (!(buf = realloc(buf, cap)))
					return 1;
			}
			n = fread(buf + len, 1, cap - len, f);
			len += n;
		} while (n);
		fclose(f);
		/* a copy of exactly len bytes, so that ASan sees overreads */
		{
			uint8_t *exact = malloc(len ? len : 1);

			if (!exact)
				return 1;
			memcpy(exact, buf, len);
			LLVMFuzzerTestOneInput(exact, len);
			free(exact);
		}
		free(buf);
	}
	return 0;
}
