/*
 * store_manifest.c - a manifest as text: its canonical form (sorted keys,
 * one top-level member a line) and the digest that chains it, reading a
 * manifest file, and what verify and the index take from a committed
 * manifest's bytes without parsing all of it (its digest, its object
 * references, a view of a few members).
 */
#include "store/store_internal.h"

#include <stdlib.h>
#include <string.h>

char *store_canonical(json_t *m)
{
	char *s = json_dumps(m, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	if (!s)
		die("cannot serialise a manifest");
	char *r = xstrfmt("%s\n", s);
	free(s);
	return r;
}

/* Compare the JSON key at k (up to its closing quote) with "digest"; 2
 * when it holds an escape (its bytes are not its name). */
static int key_vs_digest(const char *k)
{
	const char *d = "digest";
	for (; *k != '"'; k++, d++) {
		if (!*k || *k == '\\')
			return 2;
		if (!*d || *k != *d)
			return !*d || (unsigned char)*k > (unsigned char)*d ? 1 : -1;
	}
	return *d ? -1 : 0;
}

/*
 * The canonical text of manifest m with the member "digest": dg, from the
 * canonical text bare of m without it: the member goes on its own line
 * before the first top-level member whose key sorts after "digest"
 * (top-level members start a line at an indent of one space, deeper lines
 * are indented more, a newline inside a string is escaped), or last.  The
 * inverse of canonical_digest below; saves store_commit a copy and a second
 * dump of every manifest.  A top-level key with an escape is compared by
 * its name, not its bytes: then m is dumped again.  The caller frees it.
 */
char *store_canonical_with_digest(json_t *m, const char *bare, const char *dg)
{
	const char *p = bare;
	while ((p = strstr(p, "\n \"")) != NULL) {
		int c = key_vs_digest(p + 3);
		if (c == 2) {
			json_t *copy = json_copy(m);
			json_object_set_new(copy, "digest", json_string(dg));
			char *text = store_canonical(copy);
			json_decref(copy);
			return text;
		}
		if (c > 0)
			return xstrfmt("%.*s\n \"digest\": \"%s\",%s", (int)(p - bare), bare, dg, p);
		p++;
	}
	size_t n = strlen(bare); /* "...\n}\n" */
	if (n < 4 || strcmp(bare + n - 3, "\n}\n"))
		die("store: a canonical manifest does not end in '}'");
	return xstrfmt("%.*s,\n \"digest\": \"%s\"\n}\n", (int)(n - 3), bare, dg);
}

/*
 * The digest of a manifest from its canonical text (with "digest" dg):
 * the text without the "digest" member is the text less the line
 * ' "digest": "DG",' (or less ',\n "digest": "DG"' when it is the last
 * member), since canonical JSON puts each top-level member on its own line
 * at an indent of one space, and a newline inside a string is escaped.
 * Saves verify a second dump of every manifest.
 */
void store_canonical_digest(const char *canon, const char *dg, char out[SHA256_HEX_LEN + 1])
{
	char *mid = xstrfmt("\n \"digest\": \"%s\",\n", dg), *last = xstrfmt(",\n \"digest\": \"%s\"\n}", dg);
	const char *at = strstr(canon, mid);
	size_t n = strlen(canon);
	char *bare = xmalloc(n + 1);
	if (at) { /* keep its leading newline */
		size_t k = (size_t)(at - canon) + 1;
		memcpy(bare, canon, k);
		strcpy(bare + k, at + strlen(mid));
	} else if ((at = strstr(canon, last))) {
		size_t k = (size_t)(at - canon);
		memcpy(bare, canon, k);
		strcpy(bare + k, "\n}\n");
	} else {
		strcpy(bare, canon); /* cannot happen: its digest will not match */
	}
	sha256_hex(bare, strlen(bare), out);
	free(bare);
	free(mid);
	free(last);
}

/*
 * verify's fast path: the digest of a manifest from its bytes alone.  When
 * its ' "digest": "HEX"' member sits at its sorted place among the
 * top-level members (in canonical text each starts a line at an indent of
 * one space, and deeper lines are indented more), the text without that
 * member is hashed into want, HEX is copied to dg, and 1 is returned.
 * want == dg then proves the bytes are exactly those committed, canonical
 * form included, since the commit hashed its canonical text; parsing and
 * dumping again would prove nothing more.  0: not so shaped (the caller
 * dumps, and says what is wrong).
 */
int store_text_digest(const char *t, size_t n, char dg[SHA256_HEX_LEN + 1], char want[SHA256_HEX_LEN + 1])
{
	static const char key[] = "\n \"digest\": \"";
	const char *p = strstr(t, key), *hex, *after;
	if (!p)
		return 0;
	hex = p + sizeof(key) - 1;
	for (int i = 0; i < SHA256_HEX_LEN; i++)
		if (!((hex[i] >= '0' && hex[i] <= '9') || (hex[i] >= 'a' && hex[i] <= 'f')))
			return 0;
	if (hex[SHA256_HEX_LEN] != '"')
		return 0;
	after = hex + SHA256_HEX_LEN + 1;
	/* the member before it: none, or one whose key sorts below "digest" */
	if (p != t + 1) {
		const char *q = p - 1;
		while (q > t && !(q[0] == '\n' && q[1] == ' ' && q[2] == '"'))
			q--;
		if (p[-1] != ',' || q == t || key_vs_digest(q + 3) != -1)
			return 0;
	} else if (t[0] != '{') {
		return 0;
	}
	/* the member after it sorts above "digest" (a committed manifest has
	 * "prev" and "run_id" there, so "digest" is never last) */
	if (strncmp(after, ",\n \"", 4) || key_vs_digest(after + 4) != 1)
		return 0;
	struct strbuf bare = STRBUF_INIT;
	strbuf_add(&bare, t, (size_t)(p - t) + 1);
	strbuf_add(&bare, after + 2, n - (size_t)(after + 2 - t));
	memcpy(dg, hex, SHA256_HEX_LEN);
	dg[SHA256_HEX_LEN] = '\0';
	sha256_hex(bare.buf, bare.len, want);
	strbuf_release(&bare);
	return 1;
}

json_t *store_read_manifest(const char *path, struct strbuf *why)
{
	json_error_t jerr;
	json_t *m = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!m) {
		if (why)
			strbuf_addf(why, "not valid JSON (line %d: %s)", jerr.line, jerr.text);
		return NULL;
	}
	if (!json_is_object(m)) {
		if (why)
			strbuf_addstr(why, "not a JSON object");
		json_decref(m);
		return NULL;
	}
	return m;
}

static int key_is_ref(const char *k)
{
	size_t n = strlen(k);
	return !strcmp(k, "object") || (n > 7 && !strcmp(k + n - 7, "_object"));
}

static void push_ref(char ***refs, size_t *n, size_t *alloc, const char *s, size_t len)
{
	if (*n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 8;
		*refs = xrealloc(*refs, *alloc * sizeof(char *));
	}
	(*refs)[(*n)++] = xstrndup(s, len);
}

void manifest_refs(json_t *v, char ***refs, size_t *n_refs, size_t *alloc)
{
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach(v, k, x)
		{
			if (key_is_ref(k) && json_is_string(x))
				push_ref(refs, n_refs, alloc, json_string_value(x), json_string_length(x));
			else
				manifest_refs(x, refs, n_refs, alloc);
		}
	} else if (json_is_array(v)) {
		json_array_foreach(v, i, x) manifest_refs(x, refs, n_refs, alloc);
	}
}

void store_refs_free(char **refs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(refs[i]);
	free(refs);
}

/* The end of the JSON string whose body starts at s (its closing quote),
 * or NULL when t ends first; *esc: it holds a backslash. */
static const char *string_end(const char *s, const char *end, int *esc)
{
	*esc = 0;
	for (; s < end; s++) {
		if (*s == '"')
			return s;
		if (*s == '\\') {
			*esc = 1;
			s++;
		}
	}
	return NULL;
}

int manifest_refs_text(const char *t, size_t n, char ***refs, size_t *n_refs)
{
	const char *end = t + n, *p = t;
	size_t alloc = 0;
	int esc, vesc;
	*refs = NULL;
	*n_refs = 0;
	while ((p = memchr(p, '"', (size_t)(end - p)))) {
		const char *s = p + 1, *q = string_end(s, end, &esc);
		if (!q)
			goto unsure;
		p = q + 1;
		/* a key is a string followed by ": " (canonical text) */
		if (end - p < 2 || p[0] != ':' || p[1] != ' ')
			continue;
		size_t k = (size_t)(q - s);
		if (esc) /* an escape could spell "_object": let jansson decode */
			goto unsure;
		if (!((k == 6 && !memcmp(s, "object", 6)) || (k > 7 && !memcmp(q - 7, "_object", 7))))
			continue;
		if (p + 2 < end && p[2] == '"') {
			const char *vs = p + 3, *vq = string_end(vs, end, &vesc);
			if (!vq || vesc)
				goto unsure;
			push_ref(refs, n_refs, &alloc, vs, (size_t)(vq - vs));
			p = vq + 1;
		}
	}
	return 0;
unsure:
	store_refs_free(*refs, *n_refs);
	*refs = NULL;
	*n_refs = 0;
	return -1;
}

/*
 * Canonical text (store_canonical) puts each top-level member on a line of
 * its own at an indent of one space ("\n \"KEY\": VALUE,"), deeper lines
 * at more, and no raw newline inside a string; so "\n \"" starts exactly
 * the top-level members, and a member's value runs to the "," before the
 * next one, the last one's to the "\n}" that closes the text.
 */
json_t *manifest_view(const char *t, size_t n, const char *const *members)
{
	static const char mark[] = "\n \"";
	const char *end = t + n, *p;
	json_t *v = json_object();
	int esc;
	if (n < 4 || t[0] != '{' || !(p = memmem(t, n, mark, 3)))
		goto unsure;
	while (p) {
		const char *ks = p + 3, *kq = string_end(ks, end, &esc);
		if (!kq || esc || end - kq < 3 || kq[1] != ':' || kq[2] != ' ')
			goto unsure;
		const char *vs = kq + 3, *next = memmem(vs, (size_t)(end - vs), mark, 3), *ve;
		if (next) {
			if (next[-1] != ',')
				goto unsure;
			ve = next - 1;
		} else {
			ve = end;
			if (ve > vs && ve[-1] == '\n')
				ve--;
			if (ve - vs < 2 || ve[-1] != '}' || ve[-2] != '\n')
				goto unsure;
			ve -= 2;
		}
		size_t k = (size_t)(kq - ks);
		for (const char *const *m = members; *m; m++) {
			if (strlen(*m) != k || memcmp(*m, ks, k))
				continue;
			json_error_t jerr;
			json_t *x = json_loadb(vs, (size_t)(ve - vs), JSON_DECODE_ANY, &jerr);
			if (!x)
				goto unsure;
			json_object_set_new(v, *m, x);
			break;
		}
		p = next;
	}
	return v;
unsure:
	json_decref(v);
	return NULL;
}

json_t *manifest_intact_view(const char *t, size_t n)
{
	const char *const *members = index_view_members();
	char dg[SHA256_HEX_LEN + 1], want[SHA256_HEX_LEN + 1];
	if (!members || !store_text_digest(t, n, dg, want) || strcmp(dg, want))
		return NULL;
	return manifest_view(t, n, members);
}
