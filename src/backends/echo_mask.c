/*
 * echo_mask.c - the hash of a host kernel's assembly text with its
 * parameters' EV_PARAM echoes masked (contract in echo_mask.h), which
 * build.c records as code.echo_neutral_sha256: two variants of one file
 * whose parameters reach nothing but the echo share it, and a parameter
 * that reaches the code, a label or any other data does not.
 *
 * The text is gcc's own output, read line by line.  What is masked is
 * string data in read-only data sections alone, where the section is
 * known for certain: gcc's own lines say it; an inline asm() that holds
 * anything but comments (#APP ... #NO_APP) could switch sections, define
 * a macro or open an .if that the lines here would misread, so a text
 * with one is hashed with nothing masked (its echo-only variants are then
 * other codes, never one code for two programs).
 */
#include "backends/echo_mask.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* What this file knows of the section being assembled. */
enum sect { SECT_UNKNOWN = 0, SECT_OTHER, SECT_DATA, SECT_STR };

struct masker {
	struct sha256_ctx *h;
	const struct param *params;
	size_t n_params;
	int masking;         /* 0: the text has inline asm, nothing is masked */
	enum sect sect;      /* the current section, as far as known */
	char cur[256];       /* its canonical directive (SECT_STR), to drop a switch to it */
	struct strbuf data;  /* the pending run of string data, decoded */
	int data_mask;       /* that run lies in read-only data (masked) */
	struct strbuf exec;  /* "\nNAME\n" of each section some line declares with "x" */
};

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Does the line [p, end) start with the directive d (a whole word)? */
static int is_directive(const char *p, const char *end, const char *d)
{
	size_t n = strlen(d);
	return (size_t)(end - p) >= n && !memcmp(p, d, n) && (p + n == end || p[n] == ' ' || p[n] == '\t');
}

/* Decode the quoted string at p (gas's escapes) into out; the position
 * after its closing quote, or NULL when it is not one. */
static const char *decode_quoted(const char *p, const char *end, struct strbuf *out)
{
	if (p >= end || *p != '"')
		return NULL;
	for (p++; p < end && *p != '"'; p++) {
		if (*p != '\\') {
			strbuf_addch(out, *p);
			continue;
		}
		if (++p >= end)
			return NULL;
		char c = *p;
		if (c >= '0' && c <= '7') {
			int v = 0, k = 0;
			for (; k < 3 && p < end && *p >= '0' && *p <= '7'; k++, p++)
				v = v * 8 + (*p - '0');
			p--;
			strbuf_addch(out, (char)(v & 0xff));
		} else if (c == 'x' || c == 'X') {
			int v = 0, k = 0;
			for (p++; p < end && isxdigit((unsigned char)*p); k++, p++)
				v = (v * 16 + (isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10))) &
				    0xff;
			p--;
			if (!k)
				return NULL;
			strbuf_addch(out, (char)v);
		} else {
			strbuf_addch(out, c == 'n'   ? '\n'
					  : c == 't' ? '\t'
					  : c == 'r' ? '\r'
					  : c == 'f' ? '\f'
					  : c == 'b' ? '\b'
						     : c);
		}
	}
	return p < end ? p + 1 : NULL;
}

/* A .string/.ascii/.asciz line's operands appended to out (the first two
 * with a NUL after each); 1, or 0 when the line is not one (out as it
 * was). */
static int string_line(const char *p, const char *end, struct strbuf *out)
{
	int nul;
	size_t skip;
	if (is_directive(p, end, ".string"))
		nul = 1, skip = 7;
	else if (is_directive(p, end, ".asciz"))
		nul = 1, skip = 6;
	else if (is_directive(p, end, ".ascii"))
		nul = 0, skip = 6;
	else
		return 0;
	size_t mark = out->len;
	p = skip_blank(p + skip, end);
	for (;;) {
		p = decode_quoted(p, end, out);
		if (!p)
			goto not_one;
		if (nul)
			strbuf_addch(out, '\0');
		p = skip_blank(p, end);
		if (p == end)
			return 1;
		if (*p != ',')
			goto not_one;
		p = skip_blank(p + 1, end);
	}
not_one:
	out->len = mark;
	if (out->buf)
		out->buf[mark] = '\0';
	return 0;
}

/* The parameter whose "NAME=" starts at b[i] (at a string's start or
 * after a space), or NULL. */
static const struct param *echo_at(const struct masker *m, const char *b, size_t n, size_t i)
{
	if (i && b[i - 1] != ' ' && b[i - 1] != '\0')
		return NULL;
	for (size_t k = 0; k < m->n_params; k++) {
		size_t l = strlen(m->params[k].name);
		if (l && i + l < n && !memcmp(b + i, m->params[k].name, l) && b[i + l] == '=')
			return &m->params[k];
	}
	return NULL;
}

/* Hash the pending run of string data, its echoes' values masked where
 * it lies in read-only data. */
static void flush_data(struct masker *m)
{
	if (!m->data.len)
		return;
	const char *b = m->data.buf;
	size_t n = m->data.len;
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < n;) {
		const struct param *p = m->masking && m->data_mask ? echo_at(m, b, n, i) : NULL;
		if (!p) {
			strbuf_addch(&out, b[i++]);
			continue;
		}
		size_t v = i + strlen(p->name) + 1, j = v;
		while (j < n && b[j] != '\0' && !(b[j] == ' ' && echo_at(m, b, n, j + 1)))
			j++;
		strbuf_add(&out, b + i, v - i);
		strbuf_addch(&out, '?');
		i = j;
	}
	sha256_update_field(m->h, "data", out.buf ? out.buf : "", out.len);
	strbuf_release(&out);
	strbuf_reset(&m->data);
}

/* A section directive's effect on m->sect; its canonical form into canon
 * (a string section's alignment left out).  1 when the line is one. */
static int section_line(struct masker *m, const char *p, const char *end, char *canon, size_t cap)
{
	enum sect s;
	const char *name = NULL, *nend = NULL;
	if (is_directive(p, end, ".text") || is_directive(p, end, ".bss"))
		s = SECT_OTHER;
	else if (is_directive(p, end, ".data"))
		s = SECT_OTHER;
	else if (is_directive(p, end, ".previous") || is_directive(p, end, ".popsection") ||
		 is_directive(p, end, ".pushsection") || is_directive(p, end, ".subsection"))
		s = SECT_UNKNOWN;
	else if (is_directive(p, end, ".section")) {
		name = skip_blank(p + 8, end);
		for (nend = name; nend < end && *nend != ',' && *nend != ' ' && *nend != '\t'; nend++)
			;
		const char *flags = skip_blank(nend, end);
		int exec = 0;
		if (flags < end && *flags == ',') {
			flags = skip_blank(flags + 1, end);
			if (flags < end && *flags == '"')
				for (const char *q = flags + 1; q < end && *q != '"'; q++)
					exec |= *q == 'x';
		}
		size_t nl = (size_t)(nend - name);
		/* a section some other line declares executable is so here
		 * too (gas keeps a section's first flags) */
		char *key = xstrfmt("\n%.*s\n", (int)nl, name);
		exec |= m->exec.len && strstr(m->exec.buf, key) != NULL;
		free(key);
		int rodata = nl >= 7 && !memcmp(name, ".rodata", 7) && (nl == 7 || name[7] == '.');
		int str = nl > 12 && !memcmp(name, ".rodata.str", 11) && isdigit((unsigned char)name[11]);
		s = exec || !rodata ? SECT_OTHER : str ? SECT_STR : SECT_DATA;
		if (s == SECT_STR) {
			/* .rodata.str1.8 -> .rodata.str1.*, and no flags: gcc
			 * writes them at a section's first switch only */
			const char *dot = memchr(name + 11, '.', nl - 11);
			size_t head = dot ? (size_t)(dot - name) + 1 : nl;
			snprintf(canon, cap, ".section %.*s*", (int)head, name);
		}
	} else {
		return 0;
	}
	/* a line of several statements (';') is read as no known section */
	if (memchr(p, ';', (size_t)(end - p)))
		s = SECT_UNKNOWN;
	m->sect = s;
	return 1;
}

void echo_mask_hash(const char *text, size_t len, const struct param *params, size_t n_params,
		    char hex[SHA256_HEX_LEN + 1])
{
	struct masker m = { .h = sha256_begin(), .params = params, .n_params = n_params, .masking = 1,
			    .data = STRBUF_INIT, .exec = STRBUF_INIT };
	const char *end = text + len;
	/* an inline asm() with anything but comments: nothing is masked; and
	 * the sections any line declares executable */
	int in_app = 0;
	strbuf_addch(&m.exec, '\n');
	for (const char *l = text; l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		e = e ? e : end;
		const char *p = skip_blank(l, e);
		if (is_directive(p, e, ".section")) {
			const char *name = skip_blank(p + 8, e), *q = name;
			while (q < e && *q != ',' && *q != ' ' && *q != '\t')
				q++;
			const char *f = skip_blank(q, e);
			if (f < e && *f == ',') {
				f = skip_blank(f + 1, e);
				int x = 0;
				if (f < e && *f == '"')
					for (const char *c = f + 1; c < e && *c != '"'; c++)
						x |= *c == 'x';
				if (x) {
					strbuf_add(&m.exec, name, (size_t)(q - name));
					strbuf_addch(&m.exec, '\n');
				}
			}
		}
		if (is_directive(p, e, "#APP"))
			in_app = 1;
		else if (is_directive(p, e, "#NO_APP"))
			in_app = 0;
		else if (in_app && p < e && *p != '#')
			m.masking = 0;
		l = e < end ? e + 1 : end;
	}
	for (const char *l = text; l < end;) {
		const char *e = memchr(l, '\n', (size_t)(end - l));
		const char *next = e ? e + 1 : end;
		e = e ? e : end;
		while (e > l && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		const char *p = skip_blank(l, e);
		int was_data = m.data.len > 0;
		if (string_line(p, e, &m.data)) {
			if (!was_data)
				m.data_mask = m.sect == SECT_STR || m.sect == SECT_DATA;
			l = next;
			continue;
		}
		flush_data(&m);
		char canon[256] = "";
		enum sect before = m.sect;
		if (section_line(&m, p, e, canon, sizeof(canon)) && m.sect == SECT_STR) {
			/* a switch to the string section already current says nothing */
			if (before == SECT_STR && !strcmp(canon, m.cur)) {
				l = next;
				continue;
			}
			snprintf(m.cur, sizeof(m.cur), "%s", canon);
			sha256_update_field(m.h, "line", canon, strlen(canon));
			l = next;
			continue;
		}
		if (m.sect == SECT_STR && (is_directive(p, e, ".align") || is_directive(p, e, ".p2align") ||
					   is_directive(p, e, ".balign"))) {
			l = next;
			continue;
		}
		sha256_update_field(m.h, "line", l, (size_t)(e - l));
		l = next;
	}
	flush_data(&m);
	strbuf_release(&m.data);
	strbuf_release(&m.exec);
	/* the text's own word: a hash of an object (the old neutral build's)
	 * is never one of these */
	sha256_update_field(m.h, "kind", "echo-masked assembly", 20);
	sha256_end(m.h, hex);
}
