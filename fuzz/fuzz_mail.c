/* fuzz_mail.c - one message through onlist_mail_parse() and every getter,
 * checking the promises mail.h makes: strings never NULL, valid UTF-8
 * without control characters in header values, the patch inside the
 * message's text with its stated length. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "onlist/mail.h"

static void check_text(const char *s, int header)
{
	if (!s || !g_utf8_validate(s, -1, NULL))
		abort();
	if (header)
		for (const unsigned char *p = (const unsigned char *)s; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct onlist_mail *m = NULL;
	char *err = NULL, hex[ONLIST_PATCHID_HEXSZ + 1];
	const char *patch, *how;
	size_t plen = 0;

	/* the Received: dates, read from the raw header block */
	(void)onlist_mail_received((const char *)data, size);
	if (onlist_mail_parse(&m, (const char *)data, size, &err) != ONLIST_OK) {
		free(err);
		return 0;
	}
	check_text(onlist_mail_message_id(m), 1);
	check_text(onlist_mail_from_name(m), 1);
	check_text(onlist_mail_from_addr(m), 1);
	check_text(onlist_mail_subject(m), 1);
	check_text(onlist_mail_in_reply_to(m), 1);
	check_text(onlist_mail_references(m), 1);
	check_text(onlist_mail_body(m), 0);
	(void)onlist_mail_date(m);
	(void)onlist_mail_id_is_synthetic(m);
	patch = onlist_mail_patch(m, &plen);
	how = onlist_mail_patch_source(m);
	if (!patch != !how)
		abort();
	if (patch && patch[plen] != '\0')
		abort();
	if (onlist_mail_patchid(m, hex)) {
		if (!patch || strlen(hex) != ONLIST_PATCHID_HEXSZ ||
		    strspn(hex, "0123456789abcdef") != ONLIST_PATCHID_HEXSZ)
			abort();
	}
	onlist_mail_free(m);
	return 0;
}
