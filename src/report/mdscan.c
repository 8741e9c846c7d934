/*
 * mdscan.c - code regions, HTML comments and evident markers of a markdown
 * text (contract in mdscan.h).  Deliberately not a markdown parser: fenced
 * code (``` or ~~~, up to three spaces of indent, closed by a fence of the
 * same character at least as long) and code spans (a run of backticks
 * closed by a run of the same length before the next blank line) are the
 * only constructs that matter: markers inside them are examples, not
 * markers, and the auditor reads numbers in code by rules of its own
 * (docs/paper.md, "Untraced numbers").
 */
#include "report/mdscan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

int md_line_of(const struct md_doc *d, size_t off)
{
	int line = 1;
	for (size_t i = 0; i < off && i < d->len; i++)
		line += d->text[i] == '\n';
	return line;
}

static size_t line_end(const char *t, size_t len, size_t i)
{
	while (i < len && t[i] != '\n')
		i++;
	return i;
}

/* Marks fenced code blocks, then code spans in the remaining text. */
static void mark_code(struct md_doc *d)
{
	const char *t = d->text;
	size_t len = d->len;
	char fence = 0;
	size_t fence_len = 0;
	for (size_t ls = 0; ls < len;) {
		size_t le = line_end(t, len, ls);
		size_t p = ls, ind = 0;
		while (p < le && t[p] == ' ' && ind < 4)
			p++, ind++;
		size_t run = 0;
		char c = p < le ? t[p] : 0;
		if (ind < 4 && (c == '`' || c == '~'))
			while (p + run < le && t[p + run] == c)
				run++;
		if (fence) {
			memset(d->mask + ls, MD_FENCE, le - ls);
			if (c == fence && run >= fence_len) {
				fence = 0;
				d->fence[d->n_fence - 1].end = le;
			}
		} else if (run >= 3) {
			fence = c;
			fence_len = run;
			memset(d->mask + ls, MD_FENCE, le - ls);
			size_t is = p + run, ie;
			while (is < le && (t[is] == ' ' || t[is] == '\t'))
				is++;
			for (ie = is; ie < le && !isspace((unsigned char)t[ie]) && t[ie] != '{'; ie++)
				;
			d->fence = xrealloc(d->fence, (d->n_fence + 1) * sizeof(*d->fence));
			d->fence[d->n_fence].start = ls;
			d->fence[d->n_fence].end = len; /* unclosed: to the end of the text */
			d->fence[d->n_fence].info = xstrndup(t + is, ie - is);
			d->n_fence++;
		}
		ls = le + 1;
	}
	/* code spans */
	for (size_t i = 0; i < len; i++) {
		if (t[i] != '`' || d->mask[i] != MD_TEXT)
			continue;
		size_t run = 0;
		while (i + run < len && t[i + run] == '`')
			run++;
		size_t j = i + run;
		int found = 0;
		while (j < len && d->mask[j] == MD_TEXT) {
			if (t[j] == '\n' && j + 1 < len && t[j + 1] == '\n')
				break; /* a blank line ends the paragraph */
			if (t[j] == '`') {
				size_t r2 = 0;
				while (j + r2 < len && t[j + r2] == '`')
					r2++;
				if (r2 == run) {
					found = 1;
					break;
				}
				j += r2;
				continue;
			}
			j++;
		}
		if (found) {
			memset(d->mask + i, MD_CODE, j + run - i);
			i = j + run - 1;
		} else {
			i += run - 1;
		}
	}
}

static int parse_attrs(struct md_doc *d, struct md_marker *m, const char *s, const char *e)
{
	while (1) {
		while (s < e && isspace((unsigned char)*s))
			s++;
		if (s >= e)
			return 0;
		const char *k = s;
		while (s < e && (isalnum((unsigned char)*s) || *s == '_' || *s == '-'))
			s++;
		if (s == k || s >= e || *s != '=')
			return error("%s:%d: expected key=value in the '%s' marker, found '%.*s'", d->file,
				     m->line, m->name, (int)(e - k), k);
		char *key = xstrndup(k, (size_t)(s - k));
		s++;
		const char *v = s;
		char *val;
		if (s < e && *s == '"') {
			v = ++s;
			while (s < e && *s != '"')
				s++;
			if (s >= e) {
				error("%s:%d: unterminated quoted value of '%s' in the '%s' marker", d->file,
				      m->line, key, m->name);
				free(key);
				return -1;
			}
			val = xstrndup(v, (size_t)(s - v));
			s++;
		} else {
			while (s < e && !isspace((unsigned char)*s) && *s != '"')
				s++;
			val = xstrndup(v, (size_t)(s - v));
		}
		m->attrs = xrealloc(m->attrs, (m->n_attrs + 1) * sizeof(*m->attrs));
		m->attrs[m->n_attrs].key = key;
		m->attrs[m->n_attrs].value = val;
		m->n_attrs++;
	}
}

/* The comment body b..e (between "<!--" and "-->"): one of ours? */
static int parse_comment(struct md_doc *d, size_t start, size_t end, const char *b, const char *e)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	struct md_marker m = { 0 };
	m.start = start;
	m.end = end;
	m.line = md_line_of(d, start);
	const char *p;
	if (!strncmp(b, "evident:", 8) || !strncmp(b, "/evident:", 9)) {
		m.kind = *b == '/' ? MD_CLOSE : MD_OPEN;
		p = b + (*b == '/' ? 9 : 8);
	} else if (!strncmp(b, "claim:", 6)) {
		m.kind = MD_CLAIM;
		p = b + 6;
		while (p < e && isspace((unsigned char)*p))
			p++;
	} else {
		return 0; /* somebody else's comment */
	}
	const char *n = p;
	while (p < e && (isalnum((unsigned char)*p) || *p == '_' || *p == '-'))
		p++;
	if (p == n)
		return error("%s:%d: marker '%.*s' names no %s; see docs/paper.md", d->file, m.line,
			     (int)(e - b), b, m.kind == MD_CLAIM ? "claim kind" : "block");
	m.name = xstrndup(n, (size_t)(p - n));
	if (m.kind == MD_CLOSE && p < e) {
		error("%s:%d: closing marker '/evident:%s' takes no attributes", d->file, m.line, m.name);
		goto fail;
	}
	if (p < e && !isspace((unsigned char)*p)) {
		error("%s:%d: unexpected '%c' after '%s' in a marker; see docs/paper.md", d->file, m.line,
		      *p, m.name);
		goto fail;
	}
	if (parse_attrs(d, &m, p, e) < 0)
		goto fail;
	if (m.kind == MD_OPEN && !strcmp(m.name, "store")) {
		if (m.n_attrs != 1 || strcmp(m.attrs[0].key, "path")) {
			error("%s:%d: the store marker takes one attribute: '<!-- evident:store path=DIR -->'",
			      d->file, m.line);
			goto fail;
		}
		m.kind = MD_SETTING;
	}
	d->mk = xrealloc(d->mk, (d->n + 1) * sizeof(*d->mk));
	d->mk[d->n++] = m;
	return 0;
fail:
	free(m.name);
	for (size_t i = 0; i < m.n_attrs; i++) {
		free(m.attrs[i].key);
		free(m.attrs[i].value);
	}
	free(m.attrs);
	return -1;
}

int md_parse(struct md_doc *d, const char *file, const char *text, size_t len)
{
	d->file = file;
	d->text = text;
	d->len = len;
	d->mask = xcalloc(len + 1, 1);
	mark_code(d);
	for (size_t i = 0; i + 4 <= len; i++) {
		if (d->mask[i] != MD_TEXT || memcmp(text + i, "<!--", 4))
			continue;
		const char *close = NULL;
		for (size_t j = i + 4; j + 3 <= len; j++)
			if (!memcmp(text + j, "-->", 3)) {
				close = text + j;
				break;
			}
		if (!close)
			return error("%s:%d: HTML comment '<!--' is never closed with '-->'", file,
				     md_line_of(d, i));
		size_t end = (size_t)(close - text) + 3;
		memset(d->mask + i, MD_COMMENT, end - i);
		if (parse_comment(d, i, end, text + i + 4, close) < 0)
			return -1;
		i = end - 1;
	}
	return 0;
}

void md_release(struct md_doc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->mk[i].name);
		for (size_t j = 0; j < d->mk[i].n_attrs; j++) {
			free(d->mk[i].attrs[j].key);
			free(d->mk[i].attrs[j].value);
		}
		free(d->mk[i].attrs);
	}
	free(d->mk);
	free(d->mask);
	for (size_t i = 0; i < d->n_fence; i++)
		free(d->fence[i].info);
	free(d->fence);
	d->mk = NULL;
	d->mask = NULL;
	d->fence = NULL;
	d->n = d->n_fence = 0;
}

const char *md_attr(const struct md_marker *m, const char *key)
{
	for (size_t i = 0; i < m->n_attrs; i++)
		if (!strcmp(m->attrs[i].key, key))
			return m->attrs[i].value;
	return NULL;
}

const char *md_unknown_attr(const struct md_marker *m, const char *const *allowed)
{
	for (size_t i = 0; i < m->n_attrs; i++) {
		int ok = 0;
		for (size_t j = 0; allowed[j] && !ok; j++)
			ok = !strcmp(allowed[j], m->attrs[i].key);
		if (!ok)
			return m->attrs[i].key;
	}
	return NULL;
}

char *md_declared_store(const char *file, const char *text, size_t len)
{
	struct md_doc d = MD_DOC_INIT;
	char *path = NULL;
	int quiet = util_quiet;
	util_quiet = 1;
	if (md_parse(&d, file, text, len) == 0)
		for (size_t i = 0; i < d.n && !path; i++)
			if (d.mk[i].kind == MD_SETTING && !strcmp(d.mk[i].name, "store"))
				path = xstrdup(md_attr(&d.mk[i], "path"));
	util_quiet = quiet;
	md_release(&d);
	return path;
}

const struct md_fence *md_fence_at(const struct md_doc *d, size_t off)
{
	for (size_t i = 0; i < d->n_fence; i++)
		if (off >= d->fence[i].start && off < d->fence[i].end)
			return &d->fence[i];
	return NULL;
}

long md_find_close(const struct md_doc *d, size_t i)
{
	for (size_t j = i + 1; j < d->n; j++) {
		if (d->mk[j].kind == MD_OPEN)
			return -1;
		if (d->mk[j].kind == MD_CLOSE)
			return strcmp(d->mk[j].name, d->mk[i].name) ? -1 : (long)j;
	}
	return -1;
}
