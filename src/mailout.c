/* mailout.c - one outgoing message built with GMime (mailout.h). */
#include <stdlib.h>
#include <string.h>

#include <gmime/gmime.h>

#include "onlist/mailout.h"

/* A copy with every control character (CR, LF and TAB too) a space: GMime
 * folds and encodes what it is given, but a bare line end in a value
 * would still start a line of its own. */
static char *flat(const char *s)
{
	char *c = g_strdup(s ? s : "");

	for (unsigned char *p = (unsigned char *)c; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return c;
}

static int has_control(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 1;
	return 0;
}

/* An address as a mailbox may carry it: local@domain, no blank, no
 * control, no angle bracket. */
static int addr_ok(const char *a)
{
	const char *at = a ? strchr(a, '@') : NULL;

	return at && at != a && at[1] && !strpbrk(a, " <>\"") && !has_control(a);
}

/* A Message-ID's inside: left@right, printable ASCII, no blank or bracket. */
static int msgid_ok(const char *id)
{
	const char *at = id ? strchr(id, '@') : NULL;

	if (!at || at == id || !at[1])
		return 0;
	for (const unsigned char *p = (const unsigned char *)id; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || *p == '<' || *p == '>')
			return 0;
	return 1;
}

/* The mailboxes of `text` appended to `to`.  ONLIST_OK, or ONLIST_EPARSE
 * naming `what`. */
static onlist_status add_list(InternetAddressList *to, const char *text,
			      const char *what, char **errmsg)
{
	InternetAddressList *l;
	onlist_status st = ONLIST_OK;
	int n;

	if (!text || !*text)
		return ONLIST_OK;
	if (has_control(text))
		return onlist_fail(errmsg, ONLIST_EPARSE, "%s: a control "
				   "character in the address list", what);
	if (!(l = internet_address_list_parse(NULL, text)) ||
	    (n = internet_address_list_length(l)) == 0) {
		st = onlist_fail(errmsg, ONLIST_EPARSE, "%s: no address in '%s'",
				 what, text);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);

		if (!INTERNET_ADDRESS_IS_MAILBOX(ia) ||
		    !addr_ok(internet_address_mailbox_get_addr(
				     INTERNET_ADDRESS_MAILBOX(ia)))) {
			st = onlist_fail(errmsg, ONLIST_EPARSE, "%s: not an "
					 "address (name@domain): '%s'", what, text);
			goto out;
		}
	}
	internet_address_list_append(to, l);
out:
	if (l)
		g_object_unref(l);
	return st;
}

onlist_status onlist_mailout_write(const struct onlist_mailout *m, char **out,
				   size_t *len, char **errmsg)
{
	GMimeMessage *msg = NULL;
	GMimePart *part = NULL;
	GMimeStream *body = NULL, *o = NULL;
	GMimeDataWrapper *w = NULL;
	GMimeContentEncoding enc;
	GDateTime *dt = NULL;
	GTimeZone *tz = NULL;
	GByteArray *ba;
	char *s = NULL, *ref = NULL;
	onlist_status st = ONLIST_OK;

	*out = NULL;
	*len = 0;
	g_mime_init();	/* counted: mail.c's own call is not undone */
	if (!msgid_ok(m->msgid) || (m->in_reply_to && !msgid_ok(m->in_reply_to))) {
		st = onlist_fail(errmsg, ONLIST_EPARSE, "not a Message-ID: '%s'",
				 msgid_ok(m->msgid) ? m->in_reply_to : m->msgid);
		goto out;
	}
	msg = g_mime_message_new(TRUE);
	if (m->from_addr) {
		InternetAddress *ia;

		if (!addr_ok(m->from_addr)) {
			st = onlist_fail(errmsg, ONLIST_EPARSE, "From: not an "
					 "address (name@domain): '%s'", m->from_addr);
			goto out;
		}
		s = flat(m->from_name);
		ia = internet_address_mailbox_new(s, m->from_addr);
		internet_address_set_charset(ia, "utf-8");
		internet_address_list_add(g_mime_message_get_from(msg), ia);
		g_object_unref(ia);
		g_free(s);
		s = NULL;
	} else if (!m->from || !*m->from) {
		st = onlist_fail(errmsg, ONLIST_EPARSE, "no From: address");
		goto out;
	} else if ((st = add_list(g_mime_message_get_from(msg), m->from,
				  "From", errmsg)) != ONLIST_OK) {
		goto out;
	}
	if ((st = add_list(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO),
			   m->to, "To", errmsg)) != ONLIST_OK ||
	    (st = add_list(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC),
			   m->cc, "Cc", errmsg)) != ONLIST_OK)
		goto out;
	s = flat(m->subject);
	g_mime_message_set_subject(msg, s, "utf-8");
	g_free(s);
	s = NULL;
	tz = g_time_zone_new_offset(m->utc_offset);
	dt = g_date_time_new_from_unix_utc(m->date);
	if (dt && tz) {
		GDateTime *local = g_date_time_to_timezone(dt, tz);

		g_date_time_unref(dt);
		dt = local;
	}
	if (dt)
		g_mime_message_set_date(msg, dt);
	g_mime_message_set_message_id(msg, m->msgid);
	if (m->in_reply_to) {
		ref = g_strdup_printf("<%s>", m->in_reply_to);
		g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", ref, NULL);
		g_mime_object_set_header(GMIME_OBJECT(msg), "References", ref, NULL);
	}

	/* text/plain; charset=utf-8 as it is: g_mime_text_part_set_text()
	 * would pick latin-1 for a body that fits it */
	part = g_mime_part_new_with_type("text", "plain");
	g_mime_object_set_content_type_parameter(GMIME_OBJECT(part), "charset",
						 "utf-8");
	body = g_mime_stream_mem_new_with_buffer(m->body ? m->body : "",
						 m->body ? m->body_len : 0);
	w = g_mime_data_wrapper_new_with_stream(body, GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(part, w);
	/* 7bit when it is ASCII in short lines, else quoted-printable (or
	 * base64 for text that is mostly not ASCII) */
	enc = g_mime_part_get_best_content_encoding(part,
						     GMIME_ENCODING_CONSTRAINT_7BIT);
	/* GMime answers "default" for plain ASCII in short lines: say 7bit,
	 * a reader need not know the default */
	if (enc == GMIME_CONTENT_ENCODING_DEFAULT)
		enc = GMIME_CONTENT_ENCODING_7BIT;
	g_mime_part_set_content_encoding(part, enc);
	g_mime_message_set_mime_part(msg, GMIME_OBJECT(part));

	o = g_mime_stream_mem_new();
	if (g_mime_object_write_to_stream(GMIME_OBJECT(msg), NULL, o) < 0) {
		st = onlist_fail(errmsg, ONLIST_ENOMEM, "cannot write the message");
		goto out;
	}
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(o));
	if (!(*out = malloc(ba->len + 1))) {
		st = ONLIST_ENOMEM;
		goto out;
	}
	memcpy(*out, ba->data, ba->len);
	(*out)[ba->len] = '\0';
	*len = ba->len;
out:
	g_free(s);
	g_free(ref);
	if (dt)
		g_date_time_unref(dt);
	if (tz)
		g_time_zone_unref(tz);
	if (o)
		g_object_unref(o);
	if (w)
		g_object_unref(w);
	if (body)
		g_object_unref(body);
	if (part)
		g_object_unref(part);
	if (msg)
		g_object_unref(msg);
	return st;
}
