/*
 * audit_untraced.c - untraced numbers: a number in the text that reads as
 * a result is traced only by a generated block around it or by a claim in
 * its paragraph about the same quantity: the same value in the same unit
 * family (a time, a ratio, ...), and the same statistic or setting where
 * the text names one (docs/paper.md, "Untraced numbers").  Everything
 * else is an "untraced" finding.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/audit_internal.h"

/* ---------- untraced numbers ---------- */

/* A quantity a claim states, which a number in its paragraph may be. */
struct qty {
	enum fam fam;
	double base;             /* in the family's base unit */
	double ulp;              /* the claim's written precision, in the base unit */
	double bare_scale;       /* from a number written without a unit */
	const char *name;        /* statistic ("median_us") or setting leaf ("samples") */
};

/* The quantity claim m states (value=, speedup=, a numeric setting's value=); 0 when none. */
static int claim_qty(const struct md_marker *m, struct qty *q)
{
	const char *err, *s;
	struct setting st;
	if (!strcmp(m->name, "value") && (s = md_attr(m, "value")) && md_attr(m, "stat")) {
		q->name = md_attr(m, "stat");
		q->fam = audit_stat_fam(q->name, &q->bare_scale);
	} else if ((!strcmp(m->name, "faster") || !strcmp(m->name, "slower") || !strcmp(m->name, "no-difference") ||
		    !strcmp(m->name, "no_difference")) && (s = md_attr(m, "speedup"))) {
		q->name = "speedup";
		q->fam = F_RATIO;
		q->bare_scale = 1;
	} else if (!strcmp(m->name, "setting") && (s = md_attr(m, "value")) && md_attr(m, "key") &&
		   audit_setting_find(md_attr(m, "key"), &st) && !st.is_string) {
		q->name = st.k->name;
		q->fam = st.fam;
		q->bare_scale = st.scale;
	} else {
		return 0;
	}
	return audit_stated_number(s, q->fam, q->bare_scale, &q->base, &q->ulp, &err) == 0;
}

/* Is name a statistic or a setting's name, i.e. does code "NAME: N" say which quantity N is? */
static int quantity_name(const char *name)
{
	return record_stat_def(name) || knob_find(NULL, name);
}

/* A number found in the text, with what the text says about its quantity. */
struct found {
	struct num n;
	const struct unit *u;    /* its own unit, else its table column's; NULL: none */
	const char *key;         /* code "KEY: N": KEY (NUL-terminated copy in keybuf) */
	char keybuf[64];
};

/*
 * Does claim quantity q trace the number f?  The same quantity, the same
 * number, and a claim written at least as precisely as the text's number:
 * a claim checked at its own precision backs no finer digits (red team
 * 33: `value=1e5us`, checked to +-5e4 us, traced "100000 us" beside medians
 * of 135378 and 107660 us).
 */
static int qty_matches(const struct found *f, const struct qty *q)
{
	double nb, scale;
	if (f->key && quantity_name(f->key)) {
		if (strcmp(f->key, q->name))
			return 0;
		if (f->u && f->u->fam != q->fam)
			return 0;
		scale = f->u ? f->u->scale : q->bare_scale;
	} else if (f->u) {
		if (f->u->fam != q->fam)
			return 0;
		scale = f->u->scale;
	} else {
		if (q->fam != F_NONE && q->fam != F_SEEDS && q->fam != F_SAMPLES)
			return 0; /* a bare number says nothing of a time or a ratio */
		scale = 1;
	}
	nb = f->n.v * scale;
	if (q->ulp > f->n.ulp * scale * (1 + 1e-9))
		return 0;
	return audit_same_number(nb, q->base);
}

struct scan {
	struct actx *a;
	const struct md_doc *d;
	unsigned char *skip;     /* generated blocks, link targets, URLs */
	int *para;               /* paragraph number of each byte */
	unsigned char *col;      /* table body bytes: 1 + index into audit_units[] of their column's unit */
};

static int covered(const struct scan *s, size_t at, const struct found *f)
{
	for (size_t k = 0; k < s->d->n; k++) {
		const struct md_marker *m = &s->d->mk[k];
		struct qty q;
		if (m->kind != MD_CLAIM || s->a->malformed[k] || s->para[m->start] != s->para[at])
			continue;
		if (claim_qty(m, &q) && qty_matches(f, &q))
			return 1;
	}
	return 0;
}

/* The code point of the UTF-8 character that ends just before t[i], and its first byte in *start. */
static unsigned cp_before(const char *t, size_t i, size_t *start)
{
	size_t j = i - 1;
	while (j > 0 && i - j < 4 && ((unsigned char)t[j] & 0xC0) == 0x80)
		j--;
	*start = j;
	const unsigned char *p = (const unsigned char *)t + j;
	if (*p < 0x80)
		return *p;
	if ((*p & 0xE0) == 0xC0 && i - j == 2)
		return ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
	if ((*p & 0xF0) == 0xE0 && i - j == 3)
		return ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
	if ((*p & 0xF8) == 0xF0 && i - j == 4)
		return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
	return 0xFFFD;
}

/* A letter of a script that glues digits into names (Latin, Greek, Cyrillic), not a symbol. */
static int is_letter_cp(unsigned c)
{
	if (c < 0x80)
		return isalnum((int)c) || c == '_';
	if (c == 0xB5) /* µ */
		return 1;
	if (c >= 0xC0 && c <= 0x24F)
		return c != 0xD7 && c != 0xF7; /* × ÷ are symbols */
	return (c >= 0x370 && c <= 0x3FF) || (c >= 0x400 && c <= 0x52F) || (c >= 0x1E00 && c <= 0x1FFF);
}

/*
 * Is the digit at t[i] part of a name ("fp16", "sm_90", "H100", "B=4",
 * "v1.2", "#3", "S_FP16-0", "β2")?  A number starts after anything else:
 * a space, punctuation, or a symbol such as ≈ ~ → − ×.
 */
static int glued_to_name(const char *t, size_t i)
{
	if (!i)
		return 0;
	size_t st;
	unsigned c = cp_before(t, i, &st);
	if (c == '.' || c == '/' || c == '=' || c == '#')
		return 1;
	if (c == '-' || c == 0x2212) { /* a minus, or a hyphen inside a name */
		if (!st)
			return 0;
		size_t st2;
		return is_letter_cp(cp_before(t, st, &st2));
	}
	return is_letter_cp(c);
}

/* Code "KEY: N" or "\"KEY\": N" before t[i]: copies KEY into f->keybuf. */
static void code_key(const char *t, size_t i, struct found *f)
{
	size_t j = i;
	while (j > 0 && t[j - 1] == ' ')
		j--;
	if (!j || t[j - 1] != ':')
		return;
	j--;
	if (j > 0 && (t[j - 1] == '"' || t[j - 1] == '\''))
		j--;
	size_t e = j;
	while (j > 0 && audit_is_name_byte((unsigned char)t[j - 1]))
		j--;
	if (j == e || isdigit((unsigned char)t[j]) || e - j >= sizeof(f->keybuf))
		return;
	memcpy(f->keybuf, t + j, e - j);
	f->keybuf[e - j] = '\0';
	f->key = f->keybuf;
}

/* Info strings of fenced blocks that hold program output, where bare decimals are results. */
static int output_fence(const struct md_fence *fe)
{
	static const char *const out[] = { "", "text", "txt", "console", "output", "log", "plain", "terminal" };
	for (size_t i = 0; i < ARRAY_SIZE(out); i++)
		if (!strcasecmp(fe->info, out[i]))
			return 1;
	return 0;
}

static size_t line_start(const char *t, size_t i)
{
	while (i > 0 && t[i - 1] != '\n')
		i--;
	return i;
}

static size_t line_end(const char *t, size_t len, size_t i)
{
	while (i < len && t[i] != '\n')
		i++;
	return i;
}

/* A table's delimiter row: |---|:---:|, with at least one '-' and one '|'. */
static int delimiter_row(const char *t, size_t s, size_t e)
{
	int dash = 0, pipe = 0;
	for (size_t i = s; i < e; i++) {
		if (t[i] == '-')
			dash = 1;
		else if (t[i] == '|')
			pipe = 1;
		else if (t[i] != ':' && t[i] != ' ' && t[i] != '\t')
			return 0;
	}
	return dash && pipe;
}

/* 1 + index into audit_units[] of the unit a table header cell names as a word ("median us", "time (ms)"), or 0. */
static unsigned char header_unit(const char *t, size_t s, size_t e)
{
	for (size_t j = s; j < e; j++) {
		char pc = j == s ? ' ' : t[j - 1];
		if (pc != ' ' && pc != '(' && pc != '[')
			continue;
		for (size_t u = 0; u < audit_n_units; u++) {
			size_t ul = strlen(audit_units[u].text);
			if (j + ul > e || strncmp(t + j, audit_units[u].text, ul))
				continue;
			unsigned char next = j + ul < e ? (unsigned char)t[j + ul] : ' ';
			if (!audit_is_name_byte(next) && next < 0x80)
				return (unsigned char)(u + 1);
		}
		if (t[j] == '$' && (j + 1 == e || t[j + 1] == ')' || t[j + 1] == ']' || t[j + 1] == ' '))
			return (unsigned char)(audit_n_units + 1);
	}
	return 0;
}

/* Marks the body cells of every markdown table with the unit its column header names. */
static void mark_tables(struct scan *s)
{
	const char *t = s->d->text;
	size_t len = s->d->len;
	for (size_t ls = 0; ls < len;) {
		size_t le = line_end(t, len, ls);
		size_t ns = le + 1 < len ? le + 1 : len, ne = line_end(t, len, ns);
		if (s->d->mask[ls] != MD_TEXT || s->skip[ls] || !memchr(t + ls, '|', le - ls) || ns >= len ||
		    !delimiter_row(t, ns, ne)) {
			ls = le + 1;
			continue;
		}
		unsigned char cu[64] = { 0 };
		size_t nc = 0, cs = ls;
		/* header cells, split at '|' */
		while (cs < le && t[cs] == ' ')
			cs++;
		if (cs < le && t[cs] == '|')
			cs++;
		for (size_t j = cs; j <= le && nc < ARRAY_SIZE(cu); j++)
			if (j == le || (t[j] == '|' && t[j - 1] != '\\')) {
				cu[nc++] = header_unit(t, cs, j);
				cs = j + 1;
			}
		/* body rows until a line without '|' */
		size_t bs = ne + 1;
		while (bs < len) {
			size_t be = line_end(t, len, bs);
			if (be == bs || !memchr(t + bs, '|', be - bs))
				break;
			size_t c = 0, j = bs;
			while (j < be && t[j] == ' ')
				j++;
			if (j < be && t[j] == '|')
				j++;
			for (; j < be; j++) {
				if (t[j] == '|' && t[j - 1] != '\\' && s->d->mask[j] == MD_TEXT) {
					c++;
					continue;
				}
				if (c < nc)
					s->col[j] = cu[c];
			}
			bs = be + 1;
		}
		ls = bs;
	}
}

static void scan_number(struct scan *s, size_t *pi)
{
	const struct md_doc *d = s->d;
	const char *t = d->text;
	size_t i = *pi, start = i;
	struct found f;
	memset(&f, 0, sizeof(f));
	/* "KEY=3.8x": a value with a unit is a quantity, whatever names it (red
	 * team 33's "speedup=3.8x"); "B=4", "STAGES=2" stay names' values */
	struct num eqn;
	int eq_unit = i > 0 && t[i - 1] == '=' && (audit_parse_num(t + i, &eqn), eqn.u != NULL);
	if (!eq_unit && glued_to_name(t, i)) {
		while (i + 1 < d->len && (audit_is_name_byte((unsigned char)t[i + 1]) || t[i + 1] == '.'))
			i++;
		*pi = i;
		return; /* fp16, sm_90, v1.2, B=4, H100 */
	}
	/* a minus sign or a dollar before it belongs to the number as written */
	int dollar = i > 0 && t[i - 1] == '$';
	if (dollar || (i > 0 && t[i - 1] == '-'))
		start = i - 1;
	else if (i >= 3 && audit_minus_len(t + i - 3) == 3) /* − */
		start = i - 3;
	size_t end = i + audit_parse_num(t + i, &f.n);
	if (start < i && !dollar)
		f.n.v = -f.n.v;
	if (end < d->len && t[end] == '.' && end + 1 < d->len && isdigit((unsigned char)t[end + 1])) {
		while (end < d->len && (isdigit((unsigned char)t[end]) || t[end] == '.'))
			end++;
		*pi = end - 1;
		return; /* 13.0.88: a version */
	}
	if (!f.n.u && end < d->len && audit_is_name_byte((unsigned char)t[end])) {
		while (end < d->len && audit_is_name_byte((unsigned char)t[end]))
			end++;
		*pi = end - 1;
		return; /* 3rd, 2D, 64KiBx: a name */
	}
	*pi = end - 1;
	unsigned char region = d->mask[i];
	f.u = dollar ? &audit_unit_dollar : f.n.u;
	if (!f.u && s->col[i])
		f.u = s->col[i] <= audit_n_units ? &audit_units[s->col[i] - 1] : &audit_unit_dollar;
	if (f.u && f.u->fam == F_PCT && f.n.u) { /* "95% CI", "95% confidence": a method setting, not a result */
		const char *after = t + i + f.n.len;
		while (isspace((unsigned char)*after))
			after++;
		if (!strncmp(after, "CI", 2) || !strncasecmp(after, "confidence", 10) || !strncasecmp(after, "bootstrap", 9))
			f.u = NULL;
	}
	int flagged = f.u != NULL, lone = 0;
	if (region == MD_CODE || region == MD_FENCE) {
		code_key(t, start, &f);
		flagged |= f.key != NULL;
	}
	if (region == MD_CODE) { /* a code span that is only this number: a quoted figure */
		size_t b = start, e = end;
		while (b > 0 && t[b - 1] == ' ')
			b--;
		while (e < d->len && t[e] == ' ')
			e++;
		lone = b > 0 && t[b - 1] == '`' && e < d->len && t[e] == '`';
		flagged |= lone;
	}
	if (region == MD_FENCE) {
		const struct md_fence *fe = md_fence_at(d, i);
		flagged |= fe && output_fence(fe) && f.n.decimal;
	}
	if (!flagged || covered(s, i, &f))
		return;
	struct strbuf where = STRBUF_INIT;
	if (f.u && !f.n.u && !dollar)
		strbuf_addf(&where, " (unit '%s' from its table column)", f.u->text);
	else if (f.key)
		strbuf_addf(&where, " (named '%s' in code)", f.key);
	else if (lone)
		strbuf_addstr(&where, " (a figure quoted as code)");
	else if (region == MD_FENCE && !f.u)
		strbuf_addstr(&where, " (a decimal in program output)");
	audit_finding(s->a, md_line_of(d, i), "untraced",
		"'%.*s'%s is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)",
		(int)(end - start), t + start, strbuf_str(&where));
	strbuf_release(&where);
}

void audit_scan_untraced(struct actx *a, struct md_doc *d)
{
	const char *t = d->text;
	size_t len = d->len;
	struct scan s = { a, d, xcalloc(len + 1, 1), xcalloc(len + 1, sizeof(int)), xcalloc(len + 1, 1) };
	/* generated regions: an opening marker up to its closing marker */
	for (size_t i = 0; i < d->n; i++) {
		if (d->mk[i].kind != MD_OPEN)
			continue;
		long c = md_find_close(d, i);
		size_t end = c < 0 ? d->mk[i].end : d->mk[c].end;
		memset(s.skip + d->mk[i].start, 1, end - d->mk[i].start);
	}
	/* link targets and bare URLs */
	for (size_t i = 0; i + 1 < len; i++) {
		if (t[i] == ']' && t[i + 1] == '(') {
			size_t j = i + 2;
			while (j < len && t[j] != ')' && t[j] != '\n')
				j++;
			memset(s.skip + i, 1, j - i);
		} else if (!strncmp(t + i, "http://", 7) || !strncmp(t + i, "https://", 8)) {
			size_t j = i;
			while (j < len && !isspace((unsigned char)t[j]) && t[j] != ')' && t[j] != '`')
				j++;
			memset(s.skip + i, 1, j - i);
		}
	}
	/* paragraphs: separated by blank lines */
	int p = 0;
	for (size_t i = 0; i < len; i++) {
		s.para[i] = p;
		if (t[i] == '\n') {
			size_t j = i + 1;
			while (j < len && (t[j] == ' ' || t[j] == '\t'))
				j++;
			if (j >= len || t[j] == '\n')
				p++;
		}
	}
	mark_tables(&s);
	for (size_t i = 0; i < len; i++) {
		if (d->mask[i] == MD_COMMENT || s.skip[i] || !isdigit((unsigned char)t[i]))
			continue;
		if (d->mask[i] == MD_FENCE) { /* not the fence lines themselves */
			const struct md_fence *fe = md_fence_at(d, i);
			if (fe && (line_start(t, i) == fe->start || line_end(t, len, i) == fe->end))
				continue;
		}
		scan_number(&s, &i);
	}
	free(s.skip);
	free(s.para);
	free(s.col);
}
