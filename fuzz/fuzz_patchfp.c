/* fuzz_patchfp.c - the diff walker behind fuzzy and repaired matching:
 * fingerprints, similarity, the repaired patch-id and word sets, on any
 * bytes.  Invariants: a fingerprint is sorted, a diff is as similar to
 * itself as can be (1, or 0 when it changes nothing), similarity stays
 * within 0..1, and word sets are sorted without repeats. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onlist/patchfp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct onlist_patchfp fp;
	char hex[ONLIST_PATCHID_HEXSZ + 1], *text;
	uint32_t *w;
	size_t nw;
	double sim;

	if (onlist_patchfp_compute((const char *)data, size, &fp) == 0) {
		for (size_t i = 1; i < fp.n; i++)
			if (fp.h[i - 1] > fp.h[i])
				abort();
		sim = onlist_patchfp_similarity(fp.h, fp.n, fp.h, fp.n);
		if (fp.n ? sim != 1.0 : sim != 0.0)
			abort();
		sim = onlist_patchfp_similarity(fp.h, fp.n, fp.h, fp.n / 2);
		if (sim < 0.0 || sim > 1.0)
			abort();
		onlist_patchfp_release(&fp);
	}
	onlist_patch_repaired_id((const char *)data, size, hex);
	if (!(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (onlist_words_fp(text, &w, &nw) == 0) {
		for (size_t i = 1; i < nw; i++)
			if (w[i - 1] >= w[i])
				abort();
		free(w);
	}
	free(text);
	return 0;
}
