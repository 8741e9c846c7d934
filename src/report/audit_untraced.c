/*
 * audit_untraced.c - untraced numbers: a number in the text that reads as
 * a result is traced only by a generated block around it or by a claim in
 * its paragraph about the same quantity: the same value in the same unit
 * family (a time, a ratio, ...), and the same statistic or setting where
 * the text names one, in a paragraph that names no other experiment or
 * variant of the store (names_other) (docs/paper.md, "Untraced numbers").
 * Everything else is an "untraced" finding.
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
	int col_fam;             /* a table cell under a header naming a result: its family + 1, COL_ANY; 0: none */
	const char *ctx;         /* what a reader reads just before it: the sentence, a table cell's header and row */
	size_t ctx_len;
	const char *hdr;         /* its column's header cell (source) */
	size_t hdr_len;
	const char *row;         /* its row's first cell, where that names its unit or result */
	size_t row_len;
};

/* col_fam of a header naming a rate ("throughput"): a bandwidth or a FLOP rate */
#define COL_ANY 0xFF

/*
 * The time statistics, and the words that name them in prose (red team
 * 86: a `stat=min_us` claim traced "b runs in 31.91 us", b's fastest
 * sample, while its median was 61.02 us).  A bare time is read as the
 * median (the tables' and the summary's statistic), so a claim on any
 * other traces a number only when the words just before it (its clause,
 * at most 8 words back), or its table cell's column header or row, name
 * that statistic, and a median claim traces none that they name as
 * another ("the fastest sample took 61.02 us").  The nearest word counts.
 */
static const struct {
	const char *stat;
	const char *words[12];
} stat_words[] = {
	{ "median_us", { "median", "typical", "typically", NULL } },
	{ "min_us", { "min", "minimum", "fastest", "best", "best-case", "lowest", "shortest", "quickest", NULL } },
	{ "max_us", { "max", "maximum", "slowest", "worst", "worst-case", "highest", "longest", NULL } },
	{ "p5_us", { "p5", "5th", "5th-percentile", NULL } },
	{ "p95_us", { "p95", "95th", "95th-percentile", "tail", NULL } },
	{ "mean_us", { "mean", "average", "avg", "averaged", NULL } },
	{ "stdev_us", { "stdev", "std", "sd", "deviation", "spread", "sigma", "\xcf\x83", "jitter", NULL } },
	{ "mde", { "mde", "detectable", "detect", "detected", NULL } },
};

/* 1 + where word w last occurs in text[0..n) as a whole word, without case; 0 if nowhere. */
static size_t last_word(const char *text, size_t n, const char *w)
{
	size_t wl = strlen(w), at = 0;
	for (size_t i = 0; i + wl <= n; i++) {
		if (strncasecmp(text + i, w, wl))
			continue;
		if ((i == 0 || !audit_is_name_byte((unsigned char)text[i - 1])) &&
		    (i + wl == n || !audit_is_name_byte((unsigned char)text[i + wl])))
			at = i + 1;
	}
	return at;
}

/* Does text[0..n) hold word w as a whole word, without case? */
static int has_word(const char *text, size_t n, const char *w)
{
	return last_word(text, n, w) != 0;
}

/* Does the word at t (n bytes left) name a variant rather than a sample:
 * "fastest variant", "best kernel", "slowest configuration" (red team 88:
 * "b is the fastest variant here and runs in 31.91 us" traced a min_us
 * claim, "Our best kernel a runs in 39.57 us" refused a median one)? */
static int variant_noun(const char *t, size_t n)
{
	static const char *const nouns[] = {
		"variant", "variants", "kernel", "kernels", "configuration", "configurations", "config", "configs",
		"one", "ones", "version", "versions", "implementation", "implementations", "candidate",
		"candidates", "design", "designs", "choice", "choices", "option", "options", "method", "methods",
		"approach", "approaches", "code", "program", "programs", "build", "builds", "tiling", "tilings",
		"setting", "settings", "schedule", "schedules", "layout", "layouts", "algorithm", "algorithms",
		"model", "models", "gpu", "gpus", "device", "devices", "machine", "machines", "host", "hosts",
		"team", "teams", "entry", "entries", "submission", "submissions", "solution", "solutions",
		"library", "libraries", "backend", "backends", "strategy", "strategies", "tile", "tiles",
	};
	size_t i = 0;
	while (i < n && (t[i] == ' ' || t[i] == '-'))
		i++;
	size_t w = i;
	while (w < n && isalpha((unsigned char)t[w]))
		w++;
	for (size_t k = 0; k < ARRAY_SIZE(nouns); k++)
		if (strlen(nouns[k]) == w - i && !strncasecmp(t + i, nouns[k], w - i))
			return 1;
	return 0;
}

/* The statistic text[0..n) names nearest its end, with the word in *word;
 * NULL if none.  A word followed by a variant noun names the variant, not
 * a statistic of its samples (variant_noun). */
static const char *named_stat(const char *text, size_t n, const char **word)
{
	const char *best = NULL;
	size_t best_at = 0;
	for (size_t i = 0; i < ARRAY_SIZE(stat_words); i++)
		for (size_t w = 0; stat_words[i].words[w]; w++) {
			const char *sw = stat_words[i].words[w];
			size_t wl = strlen(sw);
			for (size_t lim = n, at; (at = last_word(text, lim, sw)) != 0; lim = at - 1) {
				if (variant_noun(text + at - 1 + wl, n - (at - 1 + wl)))
					continue;
				if (at > best_at) {
					best_at = at;
					best = stat_words[i].stat;
					*word = sw;
				}
				break;
			}
		}
	return best;
}

/* The last k words of prose text[0..n): the words that modify a number
 * written after them ("its fastest sample took", "and the fastest"). */
static size_t last_words(const char *text, size_t n, size_t k)
{
	size_t j = n, words = 0;
	while (j > 0 && text[j - 1] == ' ')
		j--;
	while (j > 0) {
		if (text[j - 1] == ' ' && ++words >= k)
			break;
		j--;
	}
	return j;
}

/*
 * Does the text before f name another statistic than stat (a time
 * statistic or mde)?  Returns stat when it does (*word: the word it
 * names, NULL for none: a bare time reads as the median), else NULL.
 * In prose only the words that modify the number count: its last 3
 * (red team 88: "b is the fastest variant here and runs in 31.91 us").
 */
static const char *stat_unnamed(const struct found *f, const char *stat, const char **word)
{
	size_t i;
	for (i = 0; i < ARRAY_SIZE(stat_words) && strcmp(stat, stat_words[i].stat); i++)
		;
	if (i == ARRAY_SIZE(stat_words))
		return NULL;
	const char *named = NULL;
	*word = NULL;
	if (f->hdr)
		named = named_stat(f->hdr, f->hdr_len, word);
	if (!named && f->hdr)
		named = named_stat(f->ctx, f->ctx_len, word);
	else if (!named) {
		size_t b = last_words(f->ctx, f->ctx_len, 3);
		named = named_stat(f->ctx + b, f->ctx_len - b, word);
	}
	if (named ? !strcmp(named, stat) : !strcmp(stat, "median_us"))
		return NULL;
	return stat;
}

/*
 * Does claim quantity q trace the number f?  The same quantity, the same
 * number, and a claim written at least as precisely as the text's number:
 * a claim checked at its own precision backs no finer digits (red team
 * 33: `value=1e5us`, checked to +-5e4 us, traced "100000 us" beside medians
 * of 135378 and 107660 us).
 */
static int qty_matches(const struct found *f, const struct qty *q, const char **unnamed, const char **word)
{
	double nb, scale;
	*unnamed = NULL;
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
	} else if (f->col_fam) {
		/* under "median", "speedup", "throughput": the claim's own unit */
		if (f->col_fam == COL_ANY ? q->fam != F_BW && q->fam != F_FLOPS : q->fam != (enum fam)(f->col_fam - 1))
			return 0;
		scale = q->bare_scale;
	} else {
		if (q->fam != F_NONE && q->fam != F_SEEDS && q->fam != F_SAMPLES)
			return 0; /* a bare number says nothing of a time or a ratio */
		scale = 1;
	}
	nb = f->n.v * scale;
	if (q->ulp > f->n.ulp * scale * (1 + 1e-9))
		return 0;
	if (!audit_same_number(nb, q->base))
		return 0;
	/* a number named in code names its statistic; any other must say a non-central one */
	if (!(f->key && quantity_name(f->key)) && (*unnamed = stat_unnamed(f, q->name, word)))
		return 0;
	return 1;
}

struct scan {
	struct actx *a;
	const struct md_doc *d;
	unsigned char *skip;     /* generated blocks, link targets, URLs */
	int *para;               /* paragraph number of each byte */
	unsigned short *col;     /* table body bytes: 1 + index into audit_units[] of their column's unit (n+1: '$') */
	unsigned char *col_fam;  /* table body bytes: found.col_fam of their column (a header naming a result) */
	size_t *hdr;             /* table body bytes: 1 + where their column's header cell starts */
	/* what a reader sees (render): emphasis, comments and tags dropped,
	 * entities decoded, whitespace collapsed; src[] maps each byte back */
	char *r;
	size_t rlen;
	size_t *src;
	/* the store's names (store_names), built at the first number a claim would trace */
	struct sname *names;
	size_t n_names;
	int names_built;
	/* the rendered text of paragraph pcache (paragraph_text) */
	int pcache;
	char *ptext;
	unsigned char *pcode;    /* 1: that byte is in a code span or a fenced block */
	size_t plen;
	size_t *psrc;            /* the source offset of each byte of ptext */
};

/*
 * Which experiment or variant a number is about (red team 105: "The
 * tagged copy of the naive kernel (experiment rt105-bh, variant aa) is
 * 1.39x faster", traced by `faster experiment=rt105-sleep a=fast b=slow
 * speedup=1.39`, a real 1.390x of another pair).  A claim traces a number
 * only where the number's paragraph names no experiment of the store, and
 * no variant of one, that the claim is not about: its experiment=, a=, b=,
 * variant= (a `setting` is about its experiment's every variant: one batch
 * ran them all under it).  The scope is the paragraph, not the sentence:
 * a claim traces numbers across its paragraph already, and a sentence
 * scope lets the name stand one sentence earlier ("The copy is aa, of
 * rt105-bh.  It is 1.39x faster."); a paragraph about two experiments is
 * parted to cite a claimed number of one.  The store's names are the
 * index's (every record's experiment, every run's variant): no manifest
 * is read.  A name that is only letters ("naive", "after", "one": PAPER.md's
 * store has such variants) counts only in a code span or next to
 * "experiment" or "variant" (named_as_name), one of prose's glue words
 * ("a", "the") only in a code span; a variant of the claim's experiment
 * that another claim or block of the paragraph is about is excused
 * (cited_beside).  What stays open: a name a paragraph or a heading away,
 * a variant called by description or a pronoun, a plain word bare.
 */
struct sname {
	const char *name;        /* borrowed from the query's index */
	const char *exp;         /* a variant's experiment; NULL: an experiment's own name */
};

static int cmp_sname(const void *x, const void *y)
{
	const struct sname *a = x, *b = y;
	int c = strcasecmp(a->name, b->name);
	if (c)
		return c;
	if (!a->exp || !b->exp)
		return !!a->exp - !!b->exp;
	return strcmp(a->exp, b->exp);
}

/* Is name only digits and points (a variant "1" would be every 1)? */
static int numeric_name(const char *name)
{
	for (; *name; name++)
		if (!isdigit((unsigned char)*name) && *name != '.')
			return 0;
	return 1;
}

static void store_names(struct scan *s)
{
	const struct query *q = s->a->q;
	s->names_built = 1;
	if (!q)
		return;
	s->names = xcalloc(2 * q->n + 1, sizeof(*s->names));
	for (size_t i = 0; i < q->n; i++) {
		const struct record_attrs *ra = &q->e[i].a;
		if (!ra->experiment || !*ra->experiment)
			continue;
		if (!numeric_name(ra->experiment))
			s->names[s->n_names++] = (struct sname){ ra->experiment, NULL };
		if (!ra->is_batch && !ra->is_search && ra->variant && *ra->variant && !numeric_name(ra->variant))
			s->names[s->n_names++] = (struct sname){ ra->variant, ra->experiment };
	}
	if (!s->n_names)
		return;
	qsort(s->names, s->n_names, sizeof(*s->names), cmp_sname);
	size_t k = 0;
	for (size_t i = 0; i < s->n_names; i++)
		if (!k || cmp_sname(&s->names[k - 1], &s->names[i]))
			s->names[k++] = s->names[i];
	s->n_names = k;
}

/*
 * The ASCII character a reader takes the code point c for, in a name: the
 * Unicode dashes and minus signs as '-', the fullwidth forms of ASCII as
 * ASCII, and the Cyrillic and Greek letters drawn like Latin ones as those
 * (red team 108: "rt105–bh" with an en dash, a Cyrillic "h" or
 * fullwidth letters hid the experiment rt105-bh from names_other); 0 for
 * any other.  A subset of Unicode's confusables (UTS #39): the letters a
 * writer's keyboard or autocorrect gives.
 */
static char confusable_ascii(unsigned c)
{
	static const struct {
		unsigned cp;
		char a;
	} map[] = {
		{ 0x0391, 'A' }, { 0x0392, 'B' }, { 0x0395, 'E' }, { 0x0396, 'Z' }, { 0x0397, 'H' }, { 0x0399, 'I' },
		{ 0x039A, 'K' }, { 0x039C, 'M' }, { 0x039D, 'N' }, { 0x039F, 'O' }, { 0x03A1, 'P' }, { 0x03A4, 'T' },
		{ 0x03A5, 'Y' }, { 0x03A7, 'X' }, { 0x03B1, 'a' }, { 0x03BD, 'v' }, { 0x03BF, 'o' }, { 0x0405, 'S' },
		{ 0x0406, 'I' }, { 0x0408, 'J' }, { 0x0410, 'A' }, { 0x0412, 'B' }, { 0x0415, 'E' }, { 0x041A, 'K' },
		{ 0x041C, 'M' }, { 0x041D, 'H' }, { 0x041E, 'O' }, { 0x0420, 'P' }, { 0x0421, 'C' }, { 0x0422, 'T' },
		{ 0x0425, 'X' }, { 0x0430, 'a' }, { 0x0435, 'e' }, { 0x043E, 'o' }, { 0x0440, 'p' }, { 0x0441, 'c' },
		{ 0x0443, 'y' }, { 0x0445, 'x' }, { 0x0455, 's' }, { 0x0456, 'i' }, { 0x0458, 'j' }, { 0x04BB, 'h' },
		{ 0x0501, 'd' }, { 0x051B, 'q' }, { 0x051D, 'w' },
	};
	if ((c >= 0x2010 && c <= 0x2015) || c == 0x2212 || c == 0xFE58 || c == 0xFE63 || c == 0xFF0D)
		return '-';
	if (c >= 0xFF01 && c <= 0xFF5E)
		return (char)(c - 0xFEE0);
	for (size_t k = 0; k < ARRAY_SIZE(map); k++)
		if (map[k].cp == c)
			return map[k].a;
	return 0;
}

/* The text a reader reads of paragraph p (rendered; generated blocks,
 * link targets and URLs blanked; a character drawn like an ASCII one of
 * a name as that one, confusable_ascii) into s->ptext. */
static void paragraph_text(struct scan *s, int p)
{
	if (s->ptext && s->pcache == p)
		return;
	free(s->ptext);
	free(s->pcode);
	free(s->psrc);
	/* the paragraph's first rendered byte: para[] of src[] never decreases */
	size_t lo = 0, hi = s->rlen;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		size_t i = s->src[mid];
		if (i < s->d->len && s->para[i] < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < s->rlen && s->src[end] < s->d->len && s->para[s->src[end]] == p)
		end++;
	s->ptext = xmalloc(end - lo + 1);
	s->pcode = xmalloc(end - lo + 1);
	s->psrc = xmalloc((end - lo + 1) * sizeof(size_t));
	s->plen = 0;
	s->pcache = p;
	for (size_t j = lo; j < end; j++) {
		size_t i = s->src[j];
		s->pcode[s->plen] = s->d->mask[i] == MD_CODE || s->d->mask[i] == MD_FENCE;
		s->psrc[s->plen] = i;
		const unsigned char *u = (const unsigned char *)s->r + j;
		if (!s->skip[i] && u[0] >= 0xC0) {
			size_t L = u[0] >= 0xF0 ? 4 : u[0] >= 0xE0 ? 3 : 2;
			unsigned c = 0;
			if (j + L <= end) {
				c = L == 2 ? ((u[0] & 0x1Fu) << 6) | (u[1] & 0x3Fu)
				    : L == 3 ? ((u[0] & 0x0Fu) << 12) | ((u[1] & 0x3Fu) << 6) | (u[2] & 0x3Fu)
					     : 0;
			}
			char a = c ? confusable_ascii(c) : 0;
			if (a) {
				s->ptext[s->plen++] = a;
				j += L - 1;
				continue;
			}
		}
		s->ptext[s->plen++] = s->skip[i] ? ' ' : s->r[j];
	}
	s->ptext[s->plen] = '\0';
}

/* The first entry of s->names named t[0..n) (without case); s->n_names when none. */
static size_t name_lookup(const struct scan *s, const char *t, size_t n)
{
	size_t lo = 0, hi = s->n_names;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *nm = s->names[mid].name;
		int c = strncasecmp(nm, t, n);
		if (!c && nm[n])
			c = 1; /* longer: after */
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->n_names && !strncasecmp(s->names[lo].name, t, n) && !s->names[lo].name[n])
		return lo;
	return s->n_names;
}

/* Bytes of a name's word: a letter, a digit or '_'; '-' and '.' join
 * two of them ("rt105-bh", "mma.sync" are one word, neither "rt105" nor "mma"). */
static int name_word_byte(const char *t, size_t len, size_t i, int after)
{
	unsigned char c = (unsigned char)t[i];
	if (audit_is_name_byte(c))
		return 1;
	if (c == '-' || c == '.')
		return after ? i + 1 < len && audit_is_name_byte((unsigned char)t[i + 1])
			     : i > 0 && audit_is_name_byte((unsigned char)t[i - 1]);
	return 0;
}

/* Does the word at t[i..i+n) stand alone: not part of a longer word, nor
 * the tail of a contraction or a possessive ("it's", "don't": an
 * apostrophe after a letter)? */
static int whole_name_at(const char *t, size_t len, size_t i, size_t n)
{
	if (i > 0 && name_word_byte(t, len, i - 1, 0))
		return 0;
	if (i + n < len && name_word_byte(t, len, i + n, 1))
		return 0;
	if (i >= 2 && t[i - 1] == '\'' && isalnum((unsigned char)t[i - 2]))
		return 0;
	if (i >= 4 && !strncmp(t + i - 3, "\xe2\x80\x99", 3) && isalnum((unsigned char)t[i - 4]))
		return 0;
	return 1;
}

/* A name that is a common word of prose counts only in a code span (a variant "a", "the"). */
static int prose_word(const char *name)
{
	static const char *const words[] = { "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "i",
					     "if", "in", "is", "it", "its", "no", "not", "of", "on", "or", "so",
					     "the", "to", "we", "with" };
	for (size_t k = 0; k < ARRAY_SIZE(words); k++)
		if (!strcasecmp(name, words[k]))
			return 1;
	return 0;
}

/* Is name only letters (a word of prose: "naive", "after", "one")? */
static int letters_only(const char *name)
{
	for (; *name; name++)
		if (!isalpha((unsigned char)*name))
			return 0;
	return 1;
}

/* Is the word at t[i..i+n) next to "experiment" or "variant" ("variant
 * aa", "the aa variant", "experiments bh and cd")?  Only spaces between. */
static int named_as_name(const char *t, size_t len, size_t i, size_t n)
{
	static const char *const nouns[] = { "experiment", "experiments", "variant", "variants" };
	size_t b = i, e = i + n;
	while (b > 0 && t[b - 1] == ' ')
		b--;
	while (e < len && t[e] == ' ')
		e++;
	for (size_t k = 0; k < ARRAY_SIZE(nouns); k++) {
		size_t l = strlen(nouns[k]);
		if (b < i && b >= l && !strncasecmp(t + b - l, nouns[k], l) &&
		    (b == l || !isalnum((unsigned char)t[b - l - 1])))
			return 1;
		if (e > i + n && e + l <= len && !strncasecmp(t + e, nouns[k], l) &&
		    (e + l == len || !isalnum((unsigned char)t[e + l])))
			return 1;
	}
	return 0;
}

/* Is the name at s->names[i] (and its like-named entries from i on) one
 * that claim m is about? */
static int claim_about(const struct scan *s, size_t i, const struct md_marker *m)
{
	static const char *const keys[] = { "experiment", "a", "b", "variant" };
	const char *name = s->names[i].name, *e = md_attr(m, "experiment");
	for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
		const char *v = md_attr(m, keys[k]);
		if (v && !strcasecmp(v, name))
			return 1;
	}
	if (!strcmp(m->name, "setting") && e) /* a setting: every variant of its experiment */
		for (size_t k = i; k < s->n_names && !strcasecmp(s->names[k].name, name); k++)
			if (s->names[k].exp && !strcmp(s->names[k].exp, e))
				return 1;
	return 0;
}

/*
 * Is the name at s->names[i] a variant of claim m's experiment that
 * another claim or a generated block of paragraph p is about (its a=,
 * b= or variant=, in that experiment)?  Then the paragraph compares the
 * two, each number backed on its own (red team 86's "The spinning
 * variant b runs in 31.91 us, against the baseline's 39.57 us", a claim
 * on each): that name is the paragraph's other subject, not another
 * experiment's.
 */
static int cited_beside(const struct scan *s, size_t i, const struct md_marker *m, int p)
{
	static const char *const keys[] = { "a", "b", "variant" };
	const char *name = s->names[i].name, *e = md_attr(m, "experiment");
	int of_e = 0;
	for (size_t k = i; e && k < s->n_names && !strcasecmp(s->names[k].name, name) && !of_e; k++)
		of_e = s->names[k].exp && !strcmp(s->names[k].exp, e);
	if (!of_e)
		return 0;
	for (size_t k = 0; k < s->d->n; k++) {
		const struct md_marker *o = &s->d->mk[k];
		const char *oe = md_attr(o, "experiment");
		if (o == m || (o->kind != MD_CLAIM && o->kind != MD_OPEN) || s->para[o->start] != p ||
		    (o->kind == MD_CLAIM && s->a->malformed[k]) || !oe || strcmp(oe, e))
			continue;
		for (size_t j = 0; j < ARRAY_SIZE(keys); j++) {
			const char *v = md_attr(o, keys[j]);
			if (v && !strcasecmp(v, name))
				return 1;
		}
	}
	return 0;
}

/* What claim m is about, for a finding: "rt105-sleep, fast vs slow". */
static void describe_claim(struct strbuf *sb, const struct md_marker *m)
{
	const char *e = md_attr(m, "experiment"), *va = md_attr(m, "a"), *vb = md_attr(m, "b"),
		   *v = md_attr(m, "variant");
	strbuf_addf(sb, "experiment %s", audit_name_or(e));
	if (va && vb)
		strbuf_addf(sb, ", %s vs %s", va, vb);
	else if (v)
		strbuf_addf(sb, ", variant %s", v);
	else if (!strcmp(m->name, "setting"))
		strbuf_addstr(sb, ", all its variants");
}

/*
 * Does the paragraph holding source offset at name an experiment or a
 * variant of the store that claim m is not about?  1 with what it names
 * (the first such word of the paragraph) and what m is about in why.
 */
/*
 * The word of the paragraph text at t[j] (name_word_byte's), if one
 * starts there: its length into *n (0: none) and, where it is a name of
 * the store that counts as one there (a code span, or not a word of prose
 * or a plain word unless next to "variant"/"experiment"), that name's
 * first entry; s->n_names otherwise.
 */
static size_t counted_name(const struct scan *s, const char *t, size_t len, size_t j, size_t *n)
{
	*n = 0;
	if (!audit_is_name_byte((unsigned char)t[j]) || (j > 0 && name_word_byte(t, len, j - 1, 0)))
		return s->n_names;
	size_t k = 1;
	while (j + k < len && name_word_byte(t, len, j + k, 1))
		k++;
	*n = k;
	size_t i = name_lookup(s, t + j, k);
	if (i == s->n_names || !whole_name_at(t, len, j, k))
		return s->n_names;
	const char *name = s->names[i].name;
	int counts = s->pcode[j] || (!prose_word(name) && (!letters_only(name) || named_as_name(t, len, j, k)));
	return counts ? i : s->n_names;
}

static int names_other(struct scan *s, size_t at, const struct md_marker *m, struct strbuf *why)
{
	if (!s->names_built)
		store_names(s);
	if (!s->n_names)
		return 0;
	paragraph_text(s, s->para[at]);
	const char *t = s->ptext;
	size_t len = s->plen, best_at = len, best = 0;
	/* each word of the paragraph (name_word_byte's), looked up among the names */
	for (size_t j = 0; j < len && best_at == len; j++) {
		size_t n, i = counted_name(s, t, len, j, &n);
		if (i < s->n_names && !claim_about(s, i, m) && !cited_beside(s, i, m, s->para[at])) {
			best_at = j;
			best = i;
		}
		if (n)
			j += n - 1;
	}
	if (best_at == len)
		return 0;
	const struct sname *nm = &s->names[best];
	const char *e = md_attr(m, "experiment");
	strbuf_addstr(why, "its paragraph names ");
	/* the word as what it most plainly is: an experiment (sorted first),
	 * else a variant, of the claim's experiment where it is one of its */
	const char *of = nm->exp;
	for (size_t k = best; nm->exp && e && k < s->n_names && !strcasecmp(s->names[k].name, nm->name); k++)
		if (!strcmp(s->names[k].exp, e))
			of = e;
	if (!nm->exp)
		strbuf_addf(why, "experiment %.*s", (int)strlen(nm->name), t + best_at);
	else
		strbuf_addf(why, "variant %.*s (of experiment %s)", (int)strlen(nm->name), t + best_at, of);
	strbuf_addf(why, ", and the claim on line %d is about ", m->line);
	describe_claim(why, m);
	return 1;
}

/* Is the name at s->names[i] one generated value m is about: its
 * experiment or variant (claim_about's keys), or a variant of its
 * experiment? */
static int value_about_name(const struct scan *s, size_t i, const struct md_marker *m)
{
	const char *e = md_attr(m, "experiment");
	if (claim_about(s, i, m))
		return 1;
	for (size_t k = i; e && k < s->n_names && !strcasecmp(s->names[k].name, s->names[i].name); k++)
		if (s->names[k].exp && !strcmp(s->names[k].exp, e))
			return 1;
	return 0;
}

/*
 * Does the sentence holding generated value m (its opening marker; its
 * block ends at source offset block_end) name an experiment of the store,
 * or a variant of another experiment, that neither m nor another block or
 * claim of that sentence is about?  1 with what it names in why.  A
 * sentence, not the paragraph: a paragraph about one experiment may name
 * another (PAPER.md's evo section names iter1, where evo began) while its
 * numbers are generated, each naming what it is; red team 108's genvalue
 * put the other pair's name in the value's own sentence ("(experiment
 * rt105-bh, variant aa) is <rt105-sleep's fast>x faster").
 */
static int value_names_other(struct scan *s, const struct md_marker *m, size_t block_end, struct strbuf *why)
{
	if (!s->names_built)
		store_names(s);
	if (!s->n_names)
		return 0;
	int p = s->para[m->start];
	paragraph_text(s, p);
	const char *t = s->ptext;
	size_t len = s->plen, bs = 0, be;
	while (bs < len && s->psrc[bs] < m->start)
		bs++;
	be = bs;
	while (be < len && s->psrc[be] < block_end)
		be++;
	/* the sentence: back to the end of the one before (". " not between digits), on to its own end */
	size_t sb = bs, se = be;
	while (sb > 0 && !(sb >= 2 && strchr(".!?", t[sb - 2]) && t[sb - 1] == ' '))
		sb--;
	while (se < len && !(strchr(".!?", t[se]) && (se + 1 == len || t[se + 1] == ' ' || t[se + 1] == '\n')))
		se++;
	for (size_t j = sb; j < se; j++) {
		size_t n, i = counted_name(s, t, len, j, &n);
		if (i < s->n_names) {
			/* a variant of m's own experiment: each block names its own */
			int about = value_about_name(s, i, m);
			for (size_t k = 0; k < s->d->n && !about; k++) {
				const struct md_marker *o = &s->d->mk[k];
				if ((o->kind == MD_OPEN || (o->kind == MD_CLAIM && !s->a->malformed[k])) &&
				    s->para[o->start] == p && o->start >= s->psrc[sb] && o->start <= s->psrc[se ? se - 1 : 0])
					about = claim_about(s, i, o);
			}
			if (!about) {
				const struct sname *nm = &s->names[i];
				if (!nm->exp)
					strbuf_addf(why, "its sentence names experiment %.*s", (int)n, t + j);
				else
					strbuf_addf(why, "its sentence names variant %.*s (of experiment %s)", (int)n, t + j,
						    nm->exp);
				strbuf_addstr(why, ", which no block or claim of the sentence is about");
				return 1;
			}
		}
		if (n)
			j += n - 1;
	}
	/* A sentence that names nothing before its value reads as about the
	 * last name the paragraph gave before it (red team 108's residue:
	 * "The copy is aa, of rt105-bh. It is <value of rt105-sleep's
	 * fast>x faster" passed --strict): that name must be one the value
	 * is about, or the sentence must name the value's own pair. */
	size_t last = s->n_names, last_at = 0, last_n = 0;
	for (size_t j = 0; j < bs; j++) {
		size_t n, i = counted_name(s, t, len, j, &n);
		if (i < s->n_names) {
			if (j >= sb) /* the sentence names something before its value */
				return 0;
			last = i;
			last_at = j;
			last_n = n;
		}
		if (n)
			j += n - 1;
	}
	if (last == s->n_names || value_about_name(s, last, m))
		return 0;
	const struct sname *nm = &s->names[last];
	if (!nm->exp)
		strbuf_addf(why, "the sentence before it names experiment %.*s", (int)last_n, t + last_at);
	else
		strbuf_addf(why, "the sentence before it names variant %.*s (of experiment %s)", (int)last_n, t + last_at,
			    nm->exp);
	strbuf_addstr(why, ", another row's, and its own sentence names nothing before it");
	return 1;
}

/* Is the number f at source offset at traced by a claim of its paragraph?
 * *unnamed: the statistic of a claim that would trace it but that the text does not name;
 * other: why a claim stating it does not trace it (names_other), when one does not. */
static int covered(struct scan *s, size_t at, const struct found *f, const char **unnamed, const char **word,
		   struct strbuf *other)
{
	*unnamed = NULL;
	for (size_t k = 0; k < s->d->n; k++) {
		const struct md_marker *m = &s->d->mk[k];
		struct qty q;
		const char *un, *w = NULL;
		if (m->kind != MD_CLAIM || s->a->malformed[k] || s->para[m->start] != s->para[at])
			continue;
		if (!claim_qty(m, &q))
			continue;
		if (qty_matches(f, &q, &un, &w)) {
			struct strbuf why = STRBUF_INIT;
			int foreign = names_other(s, at, m, &why);
			if (foreign && !other->len)
				strbuf_addstr(other, strbuf_str(&why));
			strbuf_release(&why);
			if (!foreign)
				return 1;
			continue;
		}
		if (un) {
			*unnamed = un;
			*word = w;
		}
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

/* 1 + index into audit_units[] of the unit a table header cell names as
 * a word ("median us", "time (ms)", "median/us", "Median [US]"), n + 1
 * for '$', or 0.  "min" is minutes only in brackets ("time (min)"): a
 * column "min" is the fastest sample. */
static unsigned short header_unit(const char *t, size_t s, size_t e)
{
	for (size_t j = s; j < e; j++) {
		char pc = j == s ? ' ' : t[j - 1];
		if (pc != ' ' && pc != '(' && pc != '[' && pc != '/')
			continue;
		for (size_t u = 0; u < audit_n_units; u++) {
			size_t ul = audit_unit_at(t + j, &audit_units[u]);
			if (!ul || j + ul > e)
				continue;
			if (!strcmp(audit_units[u].text, "min") && pc != '(' && pc != '[')
				continue;
			unsigned char next = j + ul < e ? (unsigned char)t[j + ul] : ' ';
			if (!audit_is_name_byte(next) && next < 0x80)
				return (unsigned short)(u + 1);
		}
		if (t[j] == '$' && (j + 1 == e || t[j + 1] == ')' || t[j + 1] == ']' || t[j + 1] == ' '))
			return (unsigned short)(audit_n_units + 1);
	}
	return 0;
}

/* found.col_fam of a table header cell that names a result without a unit
 * ("median", "speedup", "time", "throughput"; red team 86's hand table
 * passed with unitless cells under them), or 0. */
static unsigned char header_result(const char *t, size_t s, size_t e)
{
	static const struct {
		const char *w;
		int fam;
	} words[] = {
		{ "time", F_TIME + 1 }, { "median", F_TIME + 1 }, { "mean", F_TIME + 1 }, { "average", F_TIME + 1 },
		{ "avg", F_TIME + 1 }, { "min", F_TIME + 1 }, { "minimum", F_TIME + 1 }, { "max", F_TIME + 1 },
		{ "maximum", F_TIME + 1 }, { "p5", F_TIME + 1 }, { "p95", F_TIME + 1 }, { "latency", F_TIME + 1 },
		{ "runtime", F_TIME + 1 }, { "duration", F_TIME + 1 }, { "fastest", F_TIME + 1 },
		{ "slowest", F_TIME + 1 }, { "stdev", F_TIME + 1 }, { "speedup", F_RATIO + 1 },
		{ "slowdown", F_RATIO + 1 }, { "ratio", F_RATIO + 1 }, { "throughput", COL_ANY },
		{ "bandwidth", COL_ANY }, { "rate", COL_ANY }, { "cost", F_USD + 1 }, { "price", F_USD + 1 },
		{ "vs", F_RATIO + 1 }, { "versus", F_RATIO + 1 }, { "relative", F_RATIO + 1 },
	};
	static const char *const not_result[] = { "error", "err", "tol", "tolerance", "rel", "abs", "p",
						  "count", "n", "P", "probability", "share", "load" };
	/* a header ("b median", "speedup vs a", "b's median time over the
	 * runs"), not a sentence that mentions one; red team 88: "median
	 * (n=8)", "speedup, p" and headers of 4 or more words named none */
	size_t words_n = 0;
	for (size_t j = s; j < e; j++)
		if (t[j] != ' ' && (j == s || t[j - 1] == ' '))
			words_n++;
	if (words_n > 8)
		return 0;
	/* each part (split at ',', ';', '/'), its brackets blanked for the
	 * words that say it is no result ("(n=8)", "(p)") */
	for (size_t ps = s; ps < e;) {
		size_t pe = ps;
		while (pe < e && t[pe] != ',' && t[pe] != ';' && t[pe] != '/')
			pe++;
		char buf[160];
		size_t n = pe - ps < sizeof(buf) - 1 ? pe - ps : sizeof(buf) - 1;
		int depth = 0;
		for (size_t k = 0; k < n; k++) {
			char c = t[ps + k];
			if (c == '(' || c == '[')
				depth++;
			buf[k] = depth ? ' ' : c;
			if ((c == ')' || c == ']') && depth)
				depth--;
		}
		buf[n] = '\0';
		int no = 0;
		for (size_t i = 0; i < ARRAY_SIZE(not_result) && !no; i++)
			no = has_word(buf, n, not_result[i]);
		if (!no)
			for (size_t i = 0; i < ARRAY_SIZE(words); i++)
				if (has_word(buf, n, words[i].w))
					return (unsigned char)words[i].fam;
		ps = pe + 1;
	}
	return 0;
}

/* Marks the body cells of every markdown table with the unit its column
 * header names, or the result it names without a unit, and where the header is. */
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
		unsigned short cu[64] = { 0 };
		unsigned char cf[64] = { 0 };
		size_t ch[64] = { 0 };
		size_t nc = 0, cs = ls;
		/* header cells, split at '|' */
		while (cs < le && t[cs] == ' ')
			cs++;
		if (cs < le && t[cs] == '|')
			cs++;
		for (size_t j = cs; j <= le && nc < ARRAY_SIZE(cu); j++)
			if (j == le || (t[j] == '|' && t[j - 1] != '\\')) {
				cu[nc] = header_unit(t, cs, j);
				cf[nc] = cu[nc] ? 0 : header_result(t, cs, j);
				ch[nc++] = cs + 1;
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
				if (c < nc) {
					s->col[j] = cu[c];
					s->col_fam[j] = cf[c];
					s->hdr[j] = ch[c];
				}
			}
			bs = be + 1;
		}
		ls = bs;
	}
}

/* The source range of the header cell that starts at h (a '|' or the line's end closes it). */
static size_t header_len(const char *t, size_t len, size_t h)
{
	size_t e = h;
	while (e < len && t[e] != '\n' && !(t[e] == '|' && (e == h || t[e - 1] != '\\')))
		e++;
	return e - h;
}

/*
 * Words that may follow a plain decimal in prose without being its unit
 * ("p < 0.05 and", "0.99 of its samples", "v 1.2 is"): any other word
 * after a decimal is read as a unit the scan does not know ("41.7
 * cycles", "0.16 EUR"), so the number is a result rather than invisible
 * (red team 86: the spelling list can never be finished).
 */
static int plain_word(const char *w, size_t n)
{
	static const char *const stop[] = {
		"a", "an", "the", "and", "or", "nor", "but", "of", "to", "in", "into", "on", "onto", "at", "by",
		"for", "from", "with", "without", "within", "than", "as", "is", "are", "was", "were", "be", "been",
		"being", "it", "its", "this", "that", "these", "those", "which", "who", "when", "while", "where",
		"if", "so", "then", "not", "no", "vs", "versus", "via", "per", "each", "every", "all", "any",
		"only", "also", "still", "even", "just", "both", "either", "neither", "over", "under", "about",
		"above", "below", "across", "after", "before", "between", "against", "through", "up", "down",
		"out", "off", "here", "there", "we", "our", "you", "your", "they", "their", "has", "have", "had",
		"do", "does", "did", "can", "could", "may", "might", "must", "shall", "should", "will", "would",
		"more", "less", "most", "least", "or", "and/or", "i.e", "e.g", "etc", "see", "cf", "like",
		"release", "version", "branch", "is", "gives", "give", "means", "becomes", "stays", "holds",
	};
	for (size_t i = 0; i < ARRAY_SIZE(stop); i++)
		if (strlen(stop[i]) == n && !strncasecmp(w, stop[i], n))
			return 1;
	return 0;
}

/* A verb's object after the word ("0.8 leaves it writable", "1e-3 refuses an
 * fp16 accumulator"): the word after the decimal is a verb, not a unit. */
static int object_follows(const char *t, size_t n)
{
	static const char *const obj[] = { "it", "its", "the", "a", "an", "them", "that", "this", "these",
					   "those", "every", "all", "each", "any", "some", "no" };
	if (!n || *t != ' ')
		return 0;
	t++, n--;
	size_t w = 0;
	while (w < n && isalpha((unsigned char)t[w]))
		w++;
	for (size_t i = 0; i < ARRAY_SIZE(obj); i++)
		if (strlen(obj[i]) == w && !strncasecmp(t, obj[i], w))
			return 1;
	return 0;
}

/* What a reader reads just before rendered byte i: its clause (back to a
 * sentence's end, a comma or a semicolon), at most 8 words or 160 bytes. */
static void prose_context(const struct scan *s, size_t i, struct found *f)
{
	const char *t = s->r;
	size_t j = i;
	size_t words = 0;
	while (j > 0 && i - j < 160 && t[j - 1] != '\n' &&
	       !((t[j - 1] == '.' || t[j - 1] == '!' || t[j - 1] == '?' || t[j - 1] == ',' || t[j - 1] == ';') &&
		 t[j] == ' ')) {
		if (t[j - 1] == ' ' && t[j] != ' ' && ++words > 8)
			break;
		j--;
	}
	f->ctx = t + j;
	f->ctx_len = i - j;
}

/*
 * A table cell's number with no unit of its own nor from its column: the
 * cell after it when that cell is only a unit ("| 41.7 | ms |"), else its
 * row's first cell when that names a unit or a result ("| median (us) |
 * 41.7 |", "| median | 41.7 |"), as a reader reads a table laid out by
 * rows.  Sets f->u or f->col_fam; returns what named it, or NULL.
 */
static const char *table_unit(const struct scan *s, size_t end, size_t at, struct found *f)
{
	const char *r = s->r, *t = s->d->text;
	size_t rl = s->rlen, e = end;
	while (e < rl && r[e] == ' ')
		e++;
	if (e < rl && r[e] == '|') {
		size_t cs = e + 1, ce;
		while (cs < rl && r[cs] == ' ')
			cs++;
		for (ce = cs; ce < rl && r[ce] != '|' && r[ce] != '\n'; ce++)
			;
		while (ce > cs && r[ce - 1] == ' ')
			ce--;
		char buf[48];
		if (ce > cs && ce - cs < sizeof(buf) - 3) {
			struct num n;
			buf[0] = '1', buf[1] = ' ';
			memcpy(buf + 2, r + cs, ce - cs);
			buf[ce - cs + 2] = '\0';
			if (audit_parse_num(buf, &n) == strlen(buf) && n.u) {
				f->u = n.u;
				return "the cell after it";
			}
		}
	}
	/* the row's first cell, when the number is not in it */
	size_t ls = line_start(t, at), le = line_end(t, s->d->len, at), cs = ls;
	while (cs < le && t[cs] == ' ')
		cs++;
	if (cs < le && t[cs] == '|')
		cs++;
	size_t ce = cs;
	while (ce < le && !(t[ce] == '|' && t[ce - 1] != '\\'))
		ce++;
	if (at < ce)
		return NULL;
	size_t words_n = 0; /* a label ("median (us)", "fastest"), not a sentence */
	for (size_t j = cs; j < ce; j++)
		if (t[j] != ' ' && (j == cs || t[j - 1] == ' '))
			words_n++;
	if (words_n > 3 || memchr(t + cs, '`', ce - cs))
		return NULL; /* nor a name in code (`timing.max_seconds`, `speedup`) */
	f->row = t + cs;
	f->row_len = ce - cs;
	while (f->row_len && *f->row == ' ')
		f->row++, f->row_len--;
	while (f->row_len && f->row[f->row_len - 1] == ' ')
		f->row_len--;
	unsigned short u = header_unit(t, cs, ce);
	if (u && u <= audit_n_units) {
		f->u = &audit_units[u - 1];
		return "its row's first cell";
	}
	if (u) {
		f->u = &audit_unit_dollar;
		return "its row's first cell";
	}
	if ((f->col_fam = header_result(t, cs, ce)))
		return "its row's first cell";
	return NULL;
}

/* The letters of the word at t[i..len) (no more than an ASCII word). */
static size_t alpha_len(const char *t, size_t len, size_t i)
{
	size_t j = i;
	while (j < len && isalpha((unsigned char)t[j]))
		j++;
	return j - i;
}

/* The k-th word (1: the nearest) before t[at], lowercased into buf (letters,
 * digits, '.', '-' kept; punctuation around it dropped); 0 if none. */
static size_t word_before(const char *t, size_t at, int k, char *buf, size_t bufsz)
{
	size_t j = at;
	for (int w = 0; w < k; w++) {
		while (j > 0 && (t[j - 1] == ' ' || strchr("|=<>:([\"'\xe2\x89\xa4\xa5", t[j - 1])))
			j--;
		if (!j || t[j - 1] == '\n')
			return 0;
		/* a sentence's end parts it from the words before */
		if (w && strchr(".!?;", t[j - 1]) && j < at && t[j] == ' ')
			return 0;
		size_t e = j;
		while (j > 0 && t[j - 1] != ' ' && t[j - 1] != '\n')
			j--;
		if (w + 1 == k) {
			size_t n = 0;
			for (size_t q = j; q < e && n + 1 < bufsz; q++) {
				unsigned char c = (unsigned char)t[q];
				if (isalnum(c) || c == '-' || c == '.' || c == '_' || c == '+' || c == '/' || c >= 0x80)
					buf[n++] = (char)tolower(c);
			}
			while (n && (buf[n - 1] == '.' || buf[n - 1] == '-'))
				n--;
			buf[n] = '\0';
			return n;
		}
	}
	return 0;
}

static int in_list(const char *w, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w, list[i]))
			return 1;
	return 0;
}

/* Does t[i..len) hold word w (case aside) ending at a byte that is no
 * letter or digit?  Its length, else 0. */
static size_t word_at(const char *t, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);
	if (i + n > len || strncasecmp(t + i, w, n) || (i + n < len && isalnum((unsigned char)t[i + n])))
		return 0;
	return n;
}

/*
 * A rate after a number at t[p] (a space, then the words): "calls/s",
 * "iterations/sec", "it/s", "Hz", "MHz", "calls per second", "per
 * second", "launches a second".  Its length from p, else 0.  Red team 122:
 * an integer before a rate the unit lists do not know ("371 calls/s",
 * "371 Hz", "1.2M tokens per second") was no result to the scan, where
 * "371.3 calls/s" was.
 */
static size_t rate_after(const char *t, size_t len, size_t p)
{
	static const char *const hz[] = { "Hz", "kHz", "MHz", "GHz", "THz" };
	static const char *const per[] = { "seconds", "second", "secs", "sec", "s", "milliseconds", "millisecond",
					   "ms", "microseconds", "microsecond", "us", "\xc2\xb5s", "nanoseconds",
					   "nanosecond", "ns", "minutes", "minute", "min", "hours", "hour", "h",
					   "day" };
	size_t i = p, n;
	if (i >= len || t[i] != ' ')
		return 0;
	i++;
	for (size_t k = 0; k < ARRAY_SIZE(hz); k++)
		if ((n = word_at(t, len, i, hz[k])))
			return i + n - p;
	/* the counted thing: one word of letters (hyphens inside), or none */
	size_t w = i;
	while (w < len && (isalpha((unsigned char)t[w]) || (t[w] == '-' && w > i && w + 1 < len &&
							      isalpha((unsigned char)t[w + 1]))))
		w++;
	/* "calls/s", "it/sec" */
	if (w > i && w + 1 < len && t[w] == '/')
		for (size_t k = 0; k < ARRAY_SIZE(per); k++)
			if ((n = word_at(t, len, w + 1, per[k])))
				return w + 1 + n - p;
	/* "[calls] per second", "[calls] a second" */
	size_t j = w > i ? w : i;
	if (w > i) {
		if (j >= len || t[j] != ' ')
			return 0;
		j++;
	}
	size_t pl = word_at(t, len, j, "per");
	if (!pl && w > i)
		pl = word_at(t, len, j, "a");
	if (!pl || j + pl >= len || t[j + pl] != ' ')
		return 0;
	j += pl + 1;
	for (size_t k = 0; k < ARRAY_SIZE(per); k++)
		if ((n = word_at(t, len, j, per[k])))
			return j + n - p;
	return 0;
}

/*
 * A decimal in prose that is no result: a version or a section after the
 * name that carries it ("CUDA 12.4", "Ubuntu 22.04", "Python 3.11",
 * "Section 4.1", "sm 8.9"), a method's setting after its name ("alpha
 * 0.05", "threshold 0.5", "a time step of 0.1", "p = 0.003"), or a
 * statistic's parameter before its name ("1.5 IQR", "2 sigma").  Red team
 * 88: the backstop read the word after a decimal, and flagged these while
 * it missed results before a preposition.
 */
static int plain_decimal(const char *t, size_t len, size_t start, size_t end)
{
	static const char *const names[] = {
		"version", "versions", "ver", "v", "release", "releases", "rel", "python", "python3", "cuda", "gcc",
		"g++", "clang", "llvm", "nvcc", "ubuntu", "debian", "fedora", "centos", "rhel", "rocky", "alpine",
		"linux", "macos", "windows", "driver", "drivers", "toolkit", "cudnn", "cublas", "cutlass", "nccl",
		"pytorch", "torch", "numpy", "scipy", "jax", "triton", "tensorflow", "rust", "rustc", "go", "node",
		"java", "c++", "gnu", "glibc", "cmake", "bazel", "meson", "ninja", "libgit2", "jansson", "gsl",
		"libyaml", "yaml", "openssl", "section", "sections", "sec", "\xc2\xa7", "\xc2\xa7\xc2\xa7",
		"chapter", "ch", "figure", "fig", "figs", "table", "tab", "eq", "eqs", "equation", "appendix",
		"part", "step", "stage", "phase", "rfc", "pep", "iso", "ieee", "capability", "cc", "sm",
		"sm_", "compute", "evident", "openmp", "mpi", "rocm", "hip", "opencl", "vulkan", "ptx", "isa",
		"api", "abi", "spec", "schema", "format", "protocol", "http", "tls", "unicode", "utf", "line",
		"lines", "rule", "rules", "issue", "pr", "commit", "tag",
		"milestone", "sprint", "lemma", "theorem", "definition", "listing", "algorithm", 
		"red", "page", "pages", "paragraph", "clause", "article", 
		"aarch64",
		"x86", "x86-64", "rev", "revision", "patch", "sdk", "ndk", "jdk", "php",
		"perl", "ruby", "bash", "zsh", "git", "docker", "podman", "helm", "k8s", "kubernetes", "conda",
		"pip", "npm", "cargo", "firmware", "bios", "vbios", "nvml", "nvidia-smi", "ncu", "nsys", "team",
		"teams", "exit", "status", "signal", "rc", "errno", "port", "pid", "uid", "id",
		"#", "slurm", "slurmctld",
		"ptxas", "sanitizer", "compute-sanitizer", "nsight", "valgrind", "lldb", "gdb", "cuda-gdb",
		"libcuda", "cudart", "nvrtc", "cupti", "thrust", "cub", "cccl", "onednn", "mkl", "openblas",
	};
	static const char *const settings[] = {
		"alpha", "\xce\xb1", "threshold", "thresholds", "tolerance", "tol", "atol", "rtol", "p", "q",
		"significance", "confidence", "seed", "stride", "width", "step", "factor", "weight", "scale",
		"epsilon", "eps", "\xce\xb5", "lambda", "\xce\xbb", "beta", "\xce\xb2", "gamma", "\xce\xb3",
		"momentum", "decay", "temperature", "band", "cutoff", "coefficient",
		"exponent", "quantile", "percentile", "iqr", "probability", "prob", "dropout",
		"lr", "warmup", "window", "sigma", "\xcf\x83", "tau", "\xcf\x84", "k", "n",
		"level", "setting", "knob", "parameter", "param", "option", "flag", "default", "defaults",
		"ratio_threshold", "max_seconds", "timeout",
		/* a criterion: "a speedup CI outside [0.99, 1.01]" */
		"outside", "inside", "beyond",
	};
	static const char *const params[] = { "iqr", "iqrs", "sigma", "sigmas", "\xcf\x83", "lts", "standard",
					      "powers", "power", "quantile", "percentile", "stds" };
	static const char *const stop[] = { "of", "is", "at", "to", "=", "a", "an", "the", "stays", "equals",
					    "set", "was", "are", "be", "by", "from", "with", "and", "or", "value",
					    "values", "uses", "use", "we", "of.", "was", "becomes", "remains" };
	char w[48];
	/* the words before: the nearest that is no stop word nor a number names it */
	int listed = 0;
	for (int k = 1; k <= 6; k++) {
		if (!word_before(t, start, k, w, sizeof(w)))
			break;
		if (k == 1 && w[0] == '-' && isalpha((unsigned char)w[strspn(w, "-")]))
			return 1; /* a command line's option: "--time 2", "-n 3" */
		const char *sl = strrchr(w, '/'); /* "nvcc/ptxas 13.0" */
		if (sl && sl[1])
			memmove(w, sl + 1, strlen(sl));
		if (in_list(w, names, ARRAY_SIZE(names)) || in_list(w, settings, ARRAY_SIZE(settings)))
			return 1;
		/* "a learning rate of 0.01", "dropout rate 0.1" */
		static const char *const rates[] = { "learning", "dropout", "sampling", "refresh", "clock", "frame",
						     "mutation", "decay", "error", "false", "target" };
		char w2[48];
		if (!strcmp(w, "rate") && word_before(t, start, k + 1, w2, sizeof(w2)) &&
		    in_list(w2, rates, ARRAY_SIZE(rates)))
			return 1;
		/* "a load average of 1.5": the host's, no result of a kernel */
		if (!strcmp(w, "average") && word_before(t, start, k + 1, w2, sizeof(w2)) && !strcmp(w2, "load"))
			return 1;
		/* a list: "p 0.73 and 0.75", "[0.99, 1.01]"; its numbers of one
		 * size, or all at most 1 ("p 0.01 and 25.7" is no list of p values) */
		if (isdigit((unsigned char)w[0])) {
			double lv = atof(w), me = atof(t + start);
			if (!listed++ && !(lv > 0 && me > 0 && me / lv < 10 && lv / me < 10) && !(lv <= 1 && me <= 1))
				break; /* the nearest number of the list is of its size */
			continue;
		}
		if (!in_list(w, stop, ARRAY_SIZE(stop)))
			break;
	}
	/* the word after */
	size_t a = end;
	while (a < len && t[a] == ' ')
		a++;
	size_t n = 0;
	while (a + n < len && n + 1 < sizeof(w) && (isalpha((unsigned char)t[a + n]) || (unsigned char)t[a + n] >= 0x80) &&
	       !isspace((unsigned char)t[a + n]))
		w[n] = (char)tolower((unsigned char)t[a + n]), n++;
	w[n] = '\0';
	return n && in_list(w, params, ARRAY_SIZE(params));
}

static void scan_number(struct scan *s, size_t *pi)
{
	const struct md_doc *d = s->d;
	const char *t = s->r;
	size_t len = s->rlen;
	size_t i = *pi, start = i;
	struct found f;
	memset(&f, 0, sizeof(f));
	/* "KEY=3.8x": a value with a unit is a quantity, whatever names it (red
	 * team 33's "speedup=3.8x"); "B=4", "STAGES=2" stay names' values */
	struct num eqn;
	int eq_unit = i > 0 && t[i - 1] == '=' && (audit_parse_num(t + i, &eqn), eqn.u != NULL);
	if (!eq_unit && glued_to_name(t, i)) {
		while (i + 1 < len && (audit_is_name_byte((unsigned char)t[i + 1]) || t[i + 1] == '.'))
			i++;
		*pi = i;
		return; /* fp16, sm_90, v1.2, B=4, H100 */
	}
	/* a minus sign or a currency before it belongs to the number as written */
	const struct unit *money = NULL;
	if (i > 0 && t[i - 1] == '$') {
		money = &audit_unit_dollar;
		start = i - 1;
	} else if (i >= 3 && !strncmp(t + i - 3, "\xe2\x82\xac", 3)) { /* € */
		money = &audit_unit_euro;
		start = i - 3;
	} else if (i >= 2 && !strncmp(t + i - 2, "\xc2\xa3", 2)) { /* £ */
		money = &audit_unit_pound;
		start = i - 2;
	} else if (i > 0 && t[i - 1] == '-') {
		start = i - 1;
	} else if (i >= 3 && audit_minus_len(t + i - 3) == 3) { /* − */
		start = i - 3;
	}
	size_t end = i + audit_parse_num(t + i, &f.n);
	if (start < i && !money)
		f.n.v = -f.n.v;
	/* "1 959 s", "1'959 s": thousands parted by a space or an apostrophe,
	 * read whole where the whole carries a unit (red team 88: '959 s') */
	if (!f.n.u && !f.n.decimal && f.n.len <= 3 && start == i) {
		char buf[64];
		size_t nb = 0, k = i, g_end = 0;
		while (k < end && nb < 20)
			buf[nb++] = t[k++];
		while (k + 3 < len && (t[k] == ' ' || t[k] == '\'') && isdigit((unsigned char)t[k + 1]) &&
		       isdigit((unsigned char)t[k + 2]) && isdigit((unsigned char)t[k + 3]) &&
		       (k + 4 >= len || !isdigit((unsigned char)t[k + 4])) && nb + 3 < 24) {
			memcpy(buf + nb, t + k + 1, 3);
			nb += 3;
			k += 4;
			g_end = k;
		}
		if (g_end) {
			size_t nd = nb, rest = len - g_end < 30 ? len - g_end : 30;
			memcpy(buf + nb, t + g_end, rest);
			buf[nb + rest] = '\0';
			struct num whole;
			if (audit_parse_num(buf, &whole) > nd && whole.u && whole.unit_off >= nd) {
				f.n = whole;
				end = g_end + (whole.len - nd);
			}
		}
	}
	if (end < len && t[end] == '.' && end + 1 < len && isdigit((unsigned char)t[end + 1])) {
		while (end < len && (isdigit((unsigned char)t[end]) || t[end] == '.'))
			end++;
		*pi = end - 1;
		return; /* 13.0.88: a version */
	}
	/* "1.2M tokens per second", "40k calls/s": a count's multiplier
	 * before a rate (rate_after, below) */
	size_t rate_len = 0;
	if (!f.n.u && end + 1 < len && strchr("kKMGB", t[end]) && (rate_len = rate_after(t, len, end + 1)))
		end++;
	if (!rate_len && !f.n.u && end < len && audit_is_name_byte((unsigned char)t[end])) {
		while (end < len && audit_is_name_byte((unsigned char)t[end]))
			end++;
		*pi = end - 1;
		return; /* 3rd, 2D, 64KiBx: a name */
	}
	*pi = end - 1;
	size_t at = s->src[i]; /* where it is in the source */
	unsigned char region = d->mask[at];
	f.u = money ? money : f.n.u;
	int unit_after = 0;
	/* "25.7 ± 0.3 us", "25.7–26.1 us", "25.7 to 26.1 us": the unit after
	 * the second number is the first's too (red team 88: only the second
	 * was read as a time) */
	if (!f.u && !money) {
		size_t k = end;
		while (k < len && t[k] == ' ')
			k++;
		size_t sep = !strncmp(t + k, "\xc2\xb1", 2) ? 2 : !strncmp(t + k, "\xe2\x80\x93", 3) ? 3
			     : (t[k] == '-' && k + 1 < len && isdigit((unsigned char)t[k + 1])) ? 1
			     : (!strncmp(t + k, "to ", 3) && k + 3 < len && isdigit((unsigned char)t[k + 3])) ? 2 : 0;
		if (sep) {
			k += sep;
			while (k < len && t[k] == ' ')
				k++;
			struct num n2;
			if (k < len && isdigit((unsigned char)t[k]) && audit_parse_num(t + k, &n2) && n2.u)
				f.u = n2.u, unit_after = 1;
		}
	}
	if (!f.u && s->col[at])
		f.u = s->col[at] <= audit_n_units ? &audit_units[s->col[at] - 1] : &audit_unit_dollar;
	if (!f.u)
		f.col_fam = s->col_fam[at];
	const char *table_from = NULL;
	if (!f.u && !f.col_fam && s->hdr[at])
		table_from = table_unit(s, end, at, &f);
	if (s->hdr[at]) { /* a table cell: its header and its row before it */
		f.hdr = d->text + s->hdr[at] - 1;
		f.hdr_len = header_len(d->text, d->len, s->hdr[at] - 1);
		while (f.hdr_len && (*f.hdr == ' ' || *f.hdr == '\t'))
			f.hdr++, f.hdr_len--;
		while (f.hdr_len && (f.hdr[f.hdr_len - 1] == ' ' || f.hdr[f.hdr_len - 1] == '\t'))
			f.hdr_len--;
		f.ctx = d->text + line_start(d->text, at);
		f.ctx_len = (size_t)(d->text + at - f.ctx);
	} else {
		prose_context(s, start, &f);
	}
	if (f.u && f.u->fam == F_PCT && f.n.u) { /* "95% CI", "95% confidence": a method setting, not a result */
		const char *after = t + i + f.n.len;
		while (isspace((unsigned char)*after))
			after++;
		if (!strncmp(after, "CI", 2) || !strncasecmp(after, "confidence", 10) || !strncasecmp(after, "bootstrap", 9))
			f.u = NULL;
	}
	int flagged = f.u != NULL || f.col_fam, lone = 0, code_row = 0;
	const char *word = NULL;
	size_t word_len = 0;
	if (region == MD_CODE || region == MD_FENCE) {
		code_key(t, start, &f);
		flagged |= f.key != NULL;
	}
	if (region == MD_CODE) { /* a code span that is only this number: a quoted figure */
		size_t b = start, e = end;
		while (b > 0 && t[b - 1] == ' ')
			b--;
		while (e < len && t[e] == ' ')
			e++;
		lone = b > 0 && t[b - 1] == '`' && e < len && t[e] == '`';
		flagged |= lone;
		/* a decimal among words in a code span, as a table row quoted
		 * ("`b 25.7 39.6`"), unless a flag, a key, a version or a setting
		 * names it ("--alpha 0.05", "x = 0.5", "CUDA 12.4") */
		if (!flagged && f.n.decimal && !memchr(t + i, 'e', f.n.unit_off) && !memchr(t + i, 'E', f.n.unit_off) &&
		    b > 0 && t[b - 1] != '`' && b < start && !plain_decimal(t, len, start, end)) {
			size_t w = b;
			while (w > 0 && t[w - 1] != ' ' && t[w - 1] != '`')
				w--;
			int code_like = t[w] == '-' || memchr(t + w, '=', b - w) || memchr(t + w, '(', b - w) ||
					memchr(t + w, ',', b - w) || memchr(t + w, '*', b - w) || memchr(t + w, '+', b - w) ||
					(e < len && strchr("),;*+/=-", t[e]));
			if (!code_like)
				flagged = code_row = 1;
		}
	}
	if (region == MD_FENCE) {
		const struct md_fence *fe = md_fence_at(d, at);
		flagged |= fe && output_fence(fe) && f.n.decimal;
	}
	int prose_dec = region == MD_TEXT && !s->hdr[at] && memchr(t + i, '.', f.n.unit_off) &&
			!memchr(t + i, 'e', f.n.unit_off) && !memchr(t + i, 'E', f.n.unit_off);
	int plain = !flagged && region == MD_TEXT && plain_decimal(t, len, start, end);
	if (!flagged && !plain && region == MD_TEXT && memchr(t + i, '.', f.n.unit_off) && !memchr(t + i, 'e', f.n.unit_off) &&
	    !memchr(t + i, 'E', f.n.unit_off) && end + 1 < len && t[end] == ' ' &&
	    isalpha((unsigned char)t[end + 1])) {
		/* the backstop: a decimal followed by a word that is no plain word reads as a unit the list lacks */
		size_t w = end + 1;
		while (w < len && (isalpha((unsigned char)t[w]) || t[w] == '/'))
			w++;
		if (!plain_word(t + end + 1, w - end - 1) && (w == len || !isdigit((unsigned char)t[w])) &&
		    !object_follows(t + w, len - w)) {
			word = t + end + 1;
			word_len = w - end - 1;
			end = w;
			flagged = 1;
		}
	}
	int named_result = 0, prose_result = 0, fraction = 0;
	/* an integer the words name as a result, unless a noun follows it (a
	 * count: "the median of 3 runs") */
	int int_result = !f.n.decimal && !f.u && (end >= len || t[end] != '^') &&
			 (end >= len || t[end] != ' ' || !isalpha((unsigned char)t[end + 1]) ||
						 plain_word(t + end + 1, alpha_len(t, len, end + 1)));
	if (!flagged && !plain && region == MD_TEXT && !s->hdr[at] && (prose_dec || int_result)) {
		/* "a speedup of 1.54", "the median is 25.7": a decimal the words just
		 * before it (at most 3, its clause) name as a result, as a table
		 * header would */
		size_t b = start, words = 0;
		while (b > 0 && t[b - 1] != '\n' && !(strchr(".!?,;", t[b - 1]) && t[b] == ' ')) {
			if (t[b - 1] == ' ' && t[b] != ' ' && ++words > 3)
				break;
			b--;
		}
		if ((f.col_fam = header_result(t, b, start))) {
			flagged = named_result = 1;
			f.hdr = t + b;
			f.hdr_len = start - b;
			while (f.hdr_len && f.hdr[f.hdr_len - 1] == ' ')
				f.hdr_len--;
		}
	}
	/* "26 cycles", "40 clocks": an integer before a count of time */
	if (!flagged && region == MD_TEXT && !f.u && end + 1 < len && t[end] == ' ') {
		static const char *const ticks[] = { "cycles", "cycle", "clocks", "clock", "ticks", "tick" };
		size_t wl2 = alpha_len(t, len, end + 1);
		for (size_t k = 0; k < ARRAY_SIZE(ticks); k++)
			if (strlen(ticks[k]) == wl2 && !strncasecmp(t + end + 1, ticks[k], wl2)) {
				word = t + end + 1;
				word_len = wl2;
				end += 1 + wl2;
				flagged = 1;
				break;
			}
	}
	/* "371 calls/s", "371 Hz", "371 calls per second": a number before a
	 * rate is a result, a whole number too (red team 122) */
	if (!flagged && !plain && region == MD_TEXT && !f.u && (rate_len || (rate_len = rate_after(t, len, end)))) {
		word = t + end + 1;
		word_len = rate_len - 1;
		end += rate_len;
		flagged = 1;
	}
	/* "7/10 of the slow one's time", "71/100 of": a fraction of digits
	 * followed by "of" is a result (red team 122: a whole number before
	 * a '/' was read as no number at all) */
	if (!flagged && !plain && region == MD_TEXT && !f.u && !f.n.decimal && end + 1 < len && t[end] == '/' &&
	    isdigit((unsigned char)t[end + 1])) {
		size_t q = end + 1;
		while (q < len && isdigit((unsigned char)t[q]))
			q++;
		if (q < len && t[q] == ' ' && word_at(t, len, q + 1, "of") && atof(t + end + 1) > 0) {
			end = q;
			*pi = end - 1;
			flagged = fraction = 1;
		}
	}
	/*
	 * A decimal in prose is a result (red team 88: "25.7 on this host",
	 * "25.7/39.6", "us: 25.7 for b", "It came to 25.7.", "- b: 25.7" were
	 * read by no rule), unless it is a name, a version or a setting
	 * (glued_to_name, plain_decimal).
	 */
	if (!flagged && !plain && prose_dec)
		flagged = prose_result = 1;
	const char *unnamed = NULL, *stat_word = NULL;
	struct strbuf other = STRBUF_INIT;
	if (!flagged || covered(s, at, &f, &unnamed, &stat_word, &other)) {
		strbuf_release(&other);
		return;
	}
	struct strbuf where = STRBUF_INIT;
	if (word)
		strbuf_addf(&where, " ('%.*s' reads as a unit the scan does not know)", (int)word_len, word);
	else if (table_from && f.u)
		strbuf_addf(&where, " (unit '%s' from %s)", f.u->text, table_from);
	else if (table_from)
		strbuf_addf(&where, " (a result named by its row '%.*s')", (int)f.row_len, f.row);
	else if (unit_after)
		strbuf_addf(&where, " (unit '%s' from the number after it)", f.u->text);
	else if (f.u && !f.n.u && !money)
		strbuf_addf(&where, " (unit '%s' from its table column)", f.u->text);
	else if (named_result)
		strbuf_addf(&where, " (a result: '%.*s' before it)", (int)f.hdr_len, f.hdr);
	else if (f.col_fam)
		strbuf_addf(&where, " (a result under its column '%.*s')", (int)f.hdr_len, f.hdr);
	else if (f.key)
		strbuf_addf(&where, " (named '%s' in code)", f.key);
	else if (lone)
		strbuf_addstr(&where, " (a figure quoted as code)");
	else if (code_row)
		strbuf_addstr(&where, " (a decimal among words in a code span)");
	else if (region == MD_FENCE && !f.u)
		strbuf_addstr(&where, " (a decimal in program output)");
	else if (prose_result)
		strbuf_addstr(&where, " (a decimal in prose: a result unless it is a name, a version or a setting)");
	else if (fraction)
		strbuf_addstr(&where, " (a fraction of something: a result)");
	if (unnamed && stat_word)
		strbuf_addf(&where, " (a claim states it as '%s', but the words before it say '%s')", unnamed, stat_word);
	else if (unnamed)
		strbuf_addf(&where, " (a claim states it as '%s', which the text before it does not name: a bare number reads as the median)",
			    unnamed);
	if (other.len)
		audit_finding(s->a, md_line_of(d, at), "untraced",
			"'%.*s'%s is stated by a claim, but %s: a claim traces a number only where its paragraph names no experiment or variant of the store the claim is not about; claim what the paragraph is about, or part the paragraphs (docs/paper.md)",
			(int)(end - start), t + start, strbuf_str(&where), strbuf_str(&other));
	else
		audit_finding(s->a, md_line_of(d, at), "untraced",
			"'%.*s'%s is neither generated nor covered by a claim about the same quantity; generate it with <!-- evident:value ... --> or back it with a <!-- claim: value|setting ... --> in its paragraph (docs/paper.md)",
			(int)(end - start), t + start, strbuf_str(&where));
	strbuf_release(&where);
	strbuf_release(&other);
}

/* A character entity at t (after its '&'): its UTF-8 text into out (NUL-terminated), its length
 * including '&' and ';' returned, 0 if none; *ws = 1 for a space entity. */
static size_t entity(const char *t, size_t len, char out[8], int *ws)
{
	static const struct {
		const char *name, *text;
	} names[] = {
		{ "nbsp", " " }, { "ensp", " " }, { "emsp", " " }, { "thinsp", " " }, { "numsp", " " },
		{ "times", "\xc3\x97" }, { "micro", "\xc2\xb5" }, { "mu", "\xce\xbc" }, { "percnt", "%" },
		{ "dollar", "$" }, { "euro", "\xe2\x82\xac" }, { "pound", "\xc2\xa3" }, { "minus", "\xe2\x88\x92" },
		{ "amp", "&" }, { "lt", "<" }, { "gt", ">" }, { "quot", "\"" }, { "apos", "'" }, { "period", "." },
		{ "comma", "," }, { "sol", "/" }, { "lpar", "(" }, { "rpar", ")" }, { "lsqb", "[" }, { "rsqb", "]" },
		{ "ast", "*" }, { "lowbar", "_" }, { "hyphen", "-" }, { "dash", "-" }, { "ndash", "\xe2\x80\x93" },
		{ "mdash", "\xe2\x80\x94" }, { "approx", "\xe2\x89\x88" }, { "sim", "~" }, { "plusmn", "\xc2\xb1" },
		{ "middot", "\xc2\xb7" }, { "sdot", "\xe2\x8b\x85" }, { "shy", "" }, { "ZeroWidthSpace", "" },
		{ "zwj", "" }, { "zwnj", "" }, { "NoBreak", "" }, { "InvisibleTimes", "" }, { "hairsp", " " },
		{ "MediumSpace", " " }, { "emsp13", " " }, { "emsp14", " " }, { "puncsp", " " }, { "Tab", " " },
		{ "NewLine", " " },
	};
	size_t j = 1;
	*ws = 0;
	if (j < len && t[j] == '#') {
		unsigned long cp = 0;
		int hex = j + 1 < len && (t[j + 1] == 'x' || t[j + 1] == 'X');
		size_t k = j + 1 + hex, d0 = k;
		while (k < len && k - d0 < 8 && (hex ? isxdigit((unsigned char)t[k]) : isdigit((unsigned char)t[k])))
			cp = cp * (hex ? 16 : 10) + (unsigned long)(isdigit((unsigned char)t[k]) ? t[k] - '0' : (tolower((unsigned char)t[k]) - 'a' + 10)), k++;
		if (k == d0 || k >= len || t[k] != ';' || cp == 0 || cp > 0x10FFFF)
			return 0;
		if (cp == 0xA0 || cp == 0x2002 || cp == 0x2003 || cp == 0x2009 || cp == 0x202F || cp == 0x2007 ||
		    cp == ' ' || cp == '\t') {
			*ws = 1;
			out[0] = ' ', out[1] = '\0';
		} else if (cp < 0x80) {
			out[0] = (char)cp, out[1] = '\0';
		} else if (cp < 0x800) {
			out[0] = (char)(0xC0 | (cp >> 6)), out[1] = (char)(0x80 | (cp & 0x3F)), out[2] = '\0';
		} else if (cp < 0x10000) {
			out[0] = (char)(0xE0 | (cp >> 12)), out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
			out[2] = (char)(0x80 | (cp & 0x3F)), out[3] = '\0';
		} else {
			out[0] = (char)(0xF0 | (cp >> 18)), out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
			out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), out[3] = (char)(0x80 | (cp & 0x3F)), out[4] = '\0';
		}
		return k + 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		size_t nl = strlen(names[i].name);
		if (j + nl < len && !strncmp(t + j, names[i].name, nl) && t[j + nl] == ';') {
			strcpy(out, names[i].text);
			*ws = !strcmp(out, " ");
			return j + nl + 1;
		}
	}
	return 0;
}

/* An inline HTML tag at t as CommonMark reads one ("<b>", "</span>", "<br/>",
 * "<sup class=x>"): its length, 0 if none (then it is text, "<x 41.7 ms>"
 * shows as written); *br for <br>. */
static size_t html_tag(const char *t, size_t len, int *br)
{
	size_t j = 1;
	int closing = j < len && t[j] == '/';
	j += closing;
	if (j >= len || !isalpha((unsigned char)t[j]))
		return 0;
	size_t name = j;
	while (j < len && (isalnum((unsigned char)t[j]) || t[j] == '-'))
		j++;
	/* <br>, and a tag that parts blocks or table cells (red team 88:
	 * "<td>b</td><td>25.7</td>" rendered "b25.7", a name), is a space */
	static const char *const blocks[] = { "br", "td", "th", "tr", "table", "thead", "tbody", "tfoot", "p",
					      "div", "li", "ul", "ol", "dl", "dt", "dd", "summary", "details",
					      "caption", "figure", "figcaption", "blockquote", "pre", "hr", "h1", "h2",
					      "h3", "h4", "h5", "h6", "section", "article", "center", "col", "colgroup" };
	*br = 0;
	for (size_t k = 0; k < ARRAY_SIZE(blocks); k++)
		if (strlen(blocks[k]) == j - name && !strncasecmp(t + name, blocks[k], j - name))
			*br = 1;
	for (;;) {
		size_t ws = j;
		while (j < len && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n'))
			j++;
		if (j >= len || j > 400)
			return 0;
		if (t[j] == '>')
			return j + 1;
		if (!closing && t[j] == '/' && j + 1 < len && t[j + 1] == '>')
			return j + 2;
		/* an attribute: a space before it, a name, an optional value */
		if (closing || ws == j || !(isalpha((unsigned char)t[j]) || t[j] == '_' || t[j] == ':'))
			return 0;
		while (j < len && (isalnum((unsigned char)t[j]) || (t[j] && strchr("_.:-", t[j]))))
			j++;
		size_t k = j;
		while (k < len && (t[k] == ' ' || t[k] == '\t'))
			k++;
		if (k < len && t[k] == '=') {
			k++;
			while (k < len && (t[k] == ' ' || t[k] == '\t'))
				k++;
			if (k < len && (t[k] == '"' || t[k] == '\'')) {
				const char *q = memchr(t + k + 1, t[k], len - k - 1);
				if (!q)
					return 0;
				j = (size_t)(q - t) + 1;
			} else {
				size_t v = k;
				while (k < len && t[k] && !isspace((unsigned char)t[k]) && !strchr("\"'=<>`", t[k]))
					k++;
				if (k == v)
					return 0;
				j = k;
			}
		}
	}
}

/* Length of a whitespace character at t (ASCII, NBSP, U+2000-U+200A, U+202F, U+205F, U+3000), or 0. */
static size_t space_char(const char *t)
{
	unsigned char c = (unsigned char)*t;
	if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
		return 1;
	if (!strncmp(t, "\xc2\xa0", 2))
		return 2;
	if ((c == 0xE2 && (unsigned char)t[1] == 0x80 && (unsigned char)t[2] >= 0x80 && (unsigned char)t[2] <= 0x8A) ||
	    !strncmp(t, "\xe2\x80\xaf", 3) || !strncmp(t, "\xe2\x81\x9f", 3) || !strncmp(t, "\xe3\x80\x80", 3))
		return 3;
	return 0;
}

/* Length of a character a reader does not see at t (zero-width spaces and joiners, the word joiner,
 * invisible operators, a BOM, a soft hyphen), or 0: "41.7\u200bms" reads "41.7ms". */
static size_t invisible_char(const char *t)
{
	unsigned char c = (unsigned char)*t;
	if (!strncmp(t, "\xc2\xad", 2))
		return 2;
	if (c == 0xE2 && (unsigned char)t[1] == 0x80 && (unsigned char)t[2] >= 0x8B && (unsigned char)t[2] <= 0x8D)
		return 3;
	if (c == 0xE2 && (unsigned char)t[1] == 0x81 && (unsigned char)t[2] >= 0xA0 && (unsigned char)t[2] <= 0xA4)
		return 3;
	if (!strncmp(t, "\xef\xbb\xbf", 3))
		return 3;
	/* variation selectors and the keycap's enclosing mark: "2\ufe0f\u20e3" reads "2" */
	if (c == 0xEF && (unsigned char)t[1] == 0xB8 && (unsigned char)t[2] >= 0x80 && (unsigned char)t[2] <= 0x8F)
		return 3;
	if (!strncmp(t, "\xe2\x83\xa3", 3))
		return 3;
	return 0;
}

/* The code point of the UTF-8 character at t (*n: its length), 0 if none. */
static unsigned cp_at(const char *t, size_t len, size_t *n)
{
	const unsigned char *p = (const unsigned char *)t;
	*n = 1;
	if (!len)
		return 0;
	if (*p < 0x80)
		return *p;
	if ((*p & 0xE0) == 0xC0 && len >= 2) {
		*n = 2;
		return ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
	}
	if ((*p & 0xF0) == 0xE0 && len >= 3) {
		*n = 3;
		return ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
	}
	if ((*p & 0xF8) == 0xF0 && len >= 4) {
		*n = 4;
		return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
	}
	return 0;
}

/*
 * A decimal digit of another script, as a reader reads it (red team 88:
 * fullwidth "２５.７ us", Arabic-Indic, Devanagari, mathematical bold
 * digits were no number at all): its value, or -1.  The Unicode Nd blocks
 * that papers use: fullwidth, Arabic-Indic (both), Devanagari, Bengali,
 * Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Thai,
 * Lao, Tibetan, Myanmar, Khmer, Mongolian, and the mathematical
 * alphanumeric digits (bold, double-struck, sans-serif, monospace).
 */
static int other_digit(unsigned c)
{
	static const unsigned zero[] = { 0xFF10, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66,
					 0x0BE6, 0x0C66, 0x0CE6, 0x0D66, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x17E0,
					 0x1810, 0x1946, 0x19D0, 0xA9D0, 0xAA50, 0xABF0 };
	for (size_t i = 0; i < ARRAY_SIZE(zero); i++)
		if (c >= zero[i] && c <= zero[i] + 9)
			return (int)(c - zero[i]);
	if (c >= 0x1D7CE && c <= 0x1D7FF)
		return (int)((c - 0x1D7CE) % 10);
	return -1;
}

/* A vulgar fraction (½, ⅔, ...): its decimal digits after the point, or NULL. */
static const char *vulgar_fraction(unsigned c)
{
	static const struct {
		unsigned cp;
		const char *dec;
	} fr[] = {
		{ 0xBD, "5" }, { 0xBC, "25" }, { 0xBE, "75" }, { 0x2150, "143" }, { 0x2151, "111" }, { 0x2152, "1" },
		{ 0x2153, "333" }, { 0x2154, "667" }, { 0x2155, "2" }, { 0x2156, "4" }, { 0x2157, "6" }, { 0x2158, "8" },
		{ 0x2159, "167" }, { 0x215A, "833" }, { 0x215B, "125" }, { 0x215C, "375" }, { 0x215D, "625" },
		{ 0x215E, "875" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(fr); i++)
		if (fr[i].cp == c)
			return fr[i].dec;
	return NULL;
}

/* The value of a number word at t (n bytes: "seven", "twenty"), -1 if none; *tens for twenty..ninety. */
static long number_word(const char *t, size_t n, int *tens)
{
	static const char *const small[] = { "zero", "one", "two", "three", "four", "five", "six", "seven",
					     "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
					     "fifteen", "sixteen", "seventeen", "eighteen", "nineteen" };
	static const char *const tw[] = { "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
					  "ninety" };
	*tens = 0;
	for (size_t i = 0; i < ARRAY_SIZE(small); i++)
		if (strlen(small[i]) == n && !strncasecmp(t, small[i], n))
			return (long)i;
	for (size_t i = 0; i < ARRAY_SIZE(tw); i++)
		if (strlen(tw[i]) == n && !strncasecmp(t, tw[i], n)) {
			*tens = 1;
			return (long)(20 + 10 * i);
		}
	return -1;
}

/* Skips a run of spaces (one line break at most) in t from i. */
static size_t skip_ws(const char *t, size_t len, size_t i)
{
	int nl = 0;
	while (i < len && (t[i] == ' ' || t[i] == '\t' || (t[i] == '\n' && !nl++)))
		i++;
	return i;
}

/*
 * A result written in words (red team 88: "twenty-five point seven
 * microseconds", "two and a half times faster", "thirty-one per cent",
 * "b halves a's time"), read as digits: a run of number words ("twenty-
 * five", "one hundred", "point seven", "and a half") that holds a decimal
 * part or is followed by a unit or a comparison, or a verb of proportion
 * (halves, doubles, triples, quadruples) before a time, speed or cost.
 * Writes the digits into out (NUL-terminated) and returns how many source
 * bytes they stand for; 0 when t[i] starts no such run.
 */
static size_t words_number(const char *t, size_t len, size_t i, char out[48])
{
	static const struct {
		const char *w;
		const char *x;
	} verbs[] = {
		{ "halves", "0.5x" }, { "halved", "0.5x" }, { "halve", "0.5x" }, { "doubles", "2x" }, { "doubled", "2x" },
		{ "triples", "3x" }, { "tripled", "3x" }, { "quadruples", "4x" }, { "quadrupled", "4x" },
	};
	static const char *const objects[] = { "time", "times", "runtime", "latency", "throughput", "bandwidth",
					       "speed", "cost", "duration", "speedup", "performance", "rate" };
	size_t wl = alpha_len(t, len, i);
	if (!wl || (i > 0 && (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '_')))
		return 0;
	for (size_t v = 0; v < ARRAY_SIZE(verbs); v++) {
		if (strlen(verbs[v].w) != wl || strncasecmp(t + i, verbs[v].w, wl))
			continue;
		size_t j = i + wl;
		for (int k = 0; k < 4; k++) { /* the object within the next 4 words */
			j = skip_ws(t, len, j);
			size_t ow = j;
			while (ow < len && !isspace((unsigned char)t[ow]))
				ow++;
			size_t a = alpha_len(t, len, j);
			for (size_t o = 0; o < ARRAY_SIZE(objects); o++)
				if (strlen(objects[o]) == a && !strncasecmp(t + j, objects[o], a)) {
					strcpy(out, verbs[v].x);
					return wl;
				}
			/* "a's time": the word after an apostrophe */
			const char *ap = memchr(t + j, '\'', ow - j);
			if (ap) {
				size_t b = (size_t)(ap - t) + 1 + (ap + 1 < t + len && ap[1] == 's');
				size_t bl = alpha_len(t, len, b);
				for (size_t o = 0; o < ARRAY_SIZE(objects); o++)
					if (strlen(objects[o]) == bl && !strncasecmp(t + b, objects[o], bl)) {
						strcpy(out, verbs[v].x);
						return wl;
					}
			}
			if (ow == j)
				break;
			j = ow;
		}
		return 0;
	}
	int tens;
	long v = number_word(t + i, wl, &tens);
	if (v < 0)
		return 0;
	size_t j = i + wl, end = j;
	char frac[16] = "";
	int pointed = 0;
	if (tens && j + 1 < len && (t[j] == '-' || t[j] == ' ')) { /* twenty-five */
		int t2;
		size_t b = t[j] == ' ' ? skip_ws(t, len, j) : j + 1, l2 = alpha_len(t, len, b);
		long u = number_word(t + b, l2, &t2);
		if (u > 0 && u < 10 && !t2)
			v += u, j = end = b + l2;
	}
	for (;;) { /* hundred, thousand */
		size_t b = skip_ws(t, len, j), l2 = alpha_len(t, len, b);
		if (l2 == 7 && !strncasecmp(t + b, "hundred", 7))
			v *= 100;
		else if (l2 == 8 && !strncasecmp(t + b, "thousand", 8))
			v *= 1000;
		else
			break;
		j = end = b + l2;
	}
	size_t b = skip_ws(t, len, j), l2 = alpha_len(t, len, b);
	if (l2 == 5 && !strncasecmp(t + b, "point", 5)) { /* point seven (five) */
		size_t k = b + l2, nd = 0;
		for (;;) {
			size_t c = skip_ws(t, len, k), cl = alpha_len(t, len, c);
			int t3;
			long d = number_word(t + c, cl, &t3);
			if (d < 0 || d > 9 || nd + 1 >= sizeof(frac))
				break;
			frac[nd++] = (char)('0' + d);
			frac[nd] = '\0';
			k = end = c + cl;
			pointed = 1;
		}
	} else if (l2 == 3 && !strncasecmp(t + b, "and", 3)) { /* and a half, and a quarter */
		size_t c = skip_ws(t, len, b + 3), cl = alpha_len(t, len, c);
		if (cl == 1 && (t[c] == 'a' || t[c] == 'A')) {
			size_t d = skip_ws(t, len, c + 1), dl = alpha_len(t, len, d);
			if (dl == 4 && !strncasecmp(t + d, "half", 4))
				strcpy(frac, "5"), end = d + dl;
			else if (dl == 7 && !strncasecmp(t + d, "quarter", 7))
				strcpy(frac, "25"), end = d + dl;
		}
	}
	snprintf(out, 48, frac[0] ? "%ld.%s" : "%ld", v, frac);
	if (pointed)
		return end - i; /* "point seven": a decimal a reader reads as one */
	/* one word ("three", "eleven") before a unit or a comparison stays
	 * words: counts and rough comparisons ("about three times slower"
	 * beside its generated figure); a compound ("twenty-five", "one
	 * hundred"), a fraction ("two and a half") or a percentage is read */
	int compound = end > i + wl || frac[0];
	/* an integer in words: a result only before a unit or a comparison */
	size_t a = skip_ws(t, len, end), al = alpha_len(t, len, a);
	static const char *const cmp[] = { "faster", "slower", "quicker", "longer", "shorter" };
	for (size_t k = 0; k < ARRAY_SIZE(cmp) && compound; k++)
		if (strlen(cmp[k]) == al && !strncasecmp(t + a, cmp[k], al))
			return end - i;
	char buf[48];
	size_t bl = len - a < sizeof(buf) - 3 ? len - a : sizeof(buf) - 3;
	struct num n;
	buf[0] = '1', buf[1] = ' ';
	memcpy(buf + 2, t + a, bl);
	buf[bl + 2] = '\0';
	for (size_t k = 2; buf[k]; k++)
		if (buf[k] == '\n')
			buf[k] = ' ';
	audit_parse_num(buf, &n);
	if (a > end && n.u && (n.u->fam == F_PCT || (compound && (n.u->fam == F_TIME || n.u->fam == F_RATIO || n.u->fam == F_BW ||
									n.u->fam == F_FLOPS || n.u->fam == F_USD))))
		return end - i;
	return 0;
}

/*
 * A `$...$` math span (red team 88: "$t_b = 25.7\,\mu s$" rendered "25.7,"
 * with no unit, "$25.7\,\mu\text{s}$" read as money): the pandoc rule, an
 * opening '$' with no space after it and a closing '$' on the same line
 * with no space before it and no digit after it.  Returns the closing
 * '$''s offset, or 0 when t[i] opens none.
 */
static size_t math_close(const char *t, size_t len, size_t i)
{
	if (i + 1 >= len || isspace((unsigned char)t[i + 1]) || t[i + 1] == '$')
		return 0;
	for (size_t j = i + 2; j < len && t[j] != '\n'; j++)
		if (t[j] == '$' && t[j - 1] != '\\' && !isspace((unsigned char)t[j - 1]) &&
		    (j + 1 >= len || !isdigit((unsigned char)t[j + 1])))
			return j;
	return 0;
}

/* A TeX command inside math at t (after its backslash): what a reader sees
 * (" " for a space, "μ", "×"), or NULL to drop it; *n: the command's length. */
static const char *tex_command(const char *t, size_t len, size_t *n)
{
	static const struct {
		const char *cmd, *text;
	} cmds[] = {
		{ "mu", "\xce\xbc" }, { "micro", "\xc2\xb5" }, { "times", "\xc3\x97" }, { "cdot", "\xc2\xb7" },
		{ "approx", "\xe2\x89\x88" }, { "sim", "~" }, { "pm", "\xc2\xb1" }, { "quad", " " }, { "qquad", " " },
		{ "percent", "%" }, { "text", "" }, { "mathrm", "" }, { "textrm", "" }, { "mathit", "" },
		{ "textit", "" }, { "mathbf", "" }, { "textbf", "" }, { "operatorname", "" }, { "mbox", "" },
		{ "thinspace", " " }, { "enspace", " " }, { "left", "" }, { "right", "" }, { "mathsf", "" },
		{ "mathtt", "" }, { "texttt", "" }, { "si", "" }, { "SI", "" }, { "unit", "" }, { "us", "\xce\xbcs" },
		{ "second", "s" }, { "milli", "m" }, { "nano", "n" },
	};
	if (len && strchr(",;:! ", *t)) {
		*n = 1;
		return *t == '!' ? "" : " ";
	}
	if (len && *t == '%') {
		*n = 1;
		return "%";
	}
	size_t w = 0;
	while (w < len && isalpha((unsigned char)t[w]))
		w++;
	*n = w;
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (strlen(cmds[i].cmd) == w && !strncmp(t, cmds[i].cmd, w))
			return cmds[i].text;
	return NULL;
}

/*
 * What a reader sees of the text (red team 86: the scan read the source,
 * where a wrapped line, two spaces, `**2.84**x`, `_41.7_ ms`, `&nbsp;`,
 * `&times;` or `<!-- -->` part a number from its unit): in prose, HTML
 * comments and inline tags dropped (`<br>` is a space), entities and
 * backslash escapes decoded, emphasis markers dropped (`*` and `_` runs
 * that open or close emphasis, `~~`), and every run of whitespace, a line
 * break inside a paragraph included, one space (a blank line: '\n').
 * Code spans and fenced blocks are kept as written.  s->src maps each
 * byte back to the source.
 */
static void render(struct scan *s)
{
	const struct md_doc *d = s->d;
	const char *t = d->text;
	size_t len = d->len, o = 0;
	s->r = xmalloc(len + 2);
	s->src = xcalloc(len + 2, sizeof(size_t));
	int pend = 0, nl = 0;
	size_t pend_src = 0, math_end = 0;
	int sup_run = 0; /* the digits just emitted came from superscripts */
#define EMIT(c, at)                                                                                                    \
	do {                                                                                                           \
		if (pend) {                                                                                            \
			s->r[o] = pend == 2 ? '\n' : ' ';                                                              \
			s->src[o++] = pend_src;                                                                        \
			pend = nl = 0;                                                                                 \
		}                                                                                                      \
		s->r[o] = (c);                                                                                         \
		s->src[o++] = (at);                                                                                    \
	} while (0)
	for (size_t i = 0; i < len; i++) {
		unsigned char m = d->mask[i];
		unsigned char c = (unsigned char)t[i];
		if (m == MD_COMMENT)
			continue;
		if (m != MD_TEXT) {
			EMIT(t[i], i);
			continue;
		}
		size_t wl = space_char(t + i);
		if (wl && c == '\n' && md_fence_at(d, i)) /* a fenced block's own line breaks */
			wl = 0;
		if (c == '\\' && i + 1 < len && t[i + 1] == '\n' && !md_fence_at(d, i + 1)) { /* a hard line break */
			i++;
			c = '\n';
			wl = 1;
		}
		if (wl) {
			if (!pend)
				pend_src = i;
			pend = pend == 2 || (c == '\n' && ++nl >= 2) ? 2 : 1;
			i += wl - 1;
			if (c == '\n') { /* a block quote's markers at the next line's start ("> 41.7\n> ms") */
				size_t j = i + 1, q = 0;
				for (;;) {
					while (j < len && (t[j] == ' ' || t[j] == '\t') && d->mask[j] == MD_TEXT)
						j++;
					if (j >= len || t[j] != '>' || d->mask[j] != MD_TEXT)
						break;
					j++;
					q++;
				}
				if (q)
					i = j - 1;
			}
			continue;
		}
		if ((wl = invisible_char(t + i))) {
			i += wl - 1;
			continue;
		}
		if (math_end && i == math_end) { /* the closing '$' */
			math_end = 0;
			continue;
		}
		if (!math_end && c == '$' && (math_end = math_close(t, len, i)))
			continue;
		if (math_end) { /* TeX: "\,\mu s" is " μs", "\text{s}" is "s" */
			size_t cl;
			const char *tx;
			if (c == '{' || c == '}')
				continue;
			if (c == '~' || (c == '\\' && (tx = tex_command(t + i + 1, math_end - i - 1, &cl)) && !strcmp(tx, " "))) {
				if (!pend)
					pend_src = i;
				pend = pend ? pend : 1;
				i += c == '\\' ? cl : 0;
				continue;
			}
			if (c == '\\') {
				tx = tex_command(t + i + 1, math_end - i - 1, &cl);
				if (tx)
					for (size_t k = 0; tx[k]; k++)
						EMIT(tx[k], i);
				i += tx ? cl : 0;
				/* a control word eats the spaces after it: "\\mu s" is "μs" */
				while (tx && cl && isalpha((unsigned char)t[i]) && i + 1 < math_end && t[i + 1] == ' ')
					i++;
				continue;
			}
		}
		if (c == '\\' && i + 1 < len && ispunct((unsigned char)t[i + 1]) && d->mask[i + 1] == MD_TEXT) {
			EMIT(t[i + 1], i);
			i++;
			continue;
		}
		if (c == '<') {
			int br = 0;
			size_t tl = html_tag(t + i, len - i, &br);
			if (tl) {
				if (br) {
					if (!pend)
						pend_src = i;
					pend = pend ? pend : 1;
				}
				i += tl - 1;
				continue;
			}
		}
		if (c == '&') {
			char out[8];
			int ws;
			size_t el = entity(t + i, len - i, out, &ws);
			if (el) {
				if (invisible_char(out) || !out[0])
					; /* &shy;, &#8203;: nothing a reader sees */
				else if (ws || space_char(out)) {
					if (!pend)
						pend_src = i;
					pend = pend ? pend : 1;
				} else {
					for (size_t k = 0; out[k]; k++)
						EMIT(out[k], i);
				}
				i += el - 1;
				continue;
			}
		}
		if (c == '*' || c == '_' || c == '~') {
			size_t j = i;
			while (j < len && t[j] == (char)c && d->mask[j] == MD_TEXT)
				j++;
			unsigned char pc = i > 0 ? (unsigned char)t[i - 1] : ' ', nc = j < len ? (unsigned char)t[j] : ' ';
			int keep;
			if (c == '_')
				keep = isalnum(pc) && isalnum(nc); /* sm_90, min_us */
			else if (c == '*')
				keep = (isdigit(pc) && isdigit(nc)) || (isspace(pc) && isspace(nc)); /* 4*4, a bullet */
			else
				keep = j - i < 2; /* ~41.7: about */
			if (keep)
				for (size_t k = i; k < j; k++)
					EMIT(t[k], k);
			i = j - 1;
			continue;
		}
		if (c >= 0x80) { /* digits of other scripts, '．', '٫', vulgar fractions */
			size_t cl;
			unsigned cp = cp_at(t + i, len - i, &cl);
			int dg = other_digit(cp);
			/* superscript and subscript digits standing alone ("²⁵.⁷ us"),
			 * not an exponent or an index ("10²", "x₂") */
			int sup = cp == 0xB9 || cp == 0xB2 || cp == 0xB3 || cp == 0x2070 || (cp >= 0x2074 && cp <= 0x2079) ||
				  (cp >= 0x2080 && cp <= 0x2089);
			if (sup && o > 0 && !pend &&
			    (isalpha((unsigned char)s->r[o - 1]) ||
			     ((isdigit((unsigned char)s->r[o - 1]) || s->r[o - 1] == '.') && !sup_run)))
				sup = 0;
			if (dg < 0 && sup) {
				dg = cp == 0xB9 ? 1 : cp == 0xB2 ? 2 : cp == 0xB3 ? 3 : (int)((cp - 0x2070) % 16);
				sup_run = 1;
			}
			const char *fr = vulgar_fraction(cp);
			int after_digit = o > 0 && !pend && isdigit((unsigned char)s->r[o - 1]);
			if (dg >= 0 || fr || ((cp == 0xFF0E || cp == 0x066B || cp == 0x066C) && after_digit)) {
				if (dg >= 0) {
					EMIT((char)('0' + dg), i);
				} else if (fr) {
					if (!after_digit)
						EMIT('0', i);
					EMIT('.', i);
					for (size_t k = 0; fr[k]; k++)
						EMIT(fr[k], i);
				} else {
					EMIT(cp == 0x066C ? ',' : '.', i);
				}
				i += cl - 1;
				continue;
			}
		}
		if (isalpha(c)) { /* a result in words: its digits */
			char out[48];
			size_t k = words_number(t, len, i, out), m2;
			for (m2 = i; m2 < i + k && d->mask[m2] == MD_TEXT; m2++)
				;
			if (k && m2 == i + k) {
				for (size_t q = 0; out[q]; q++)
					EMIT(out[q], i);
				i += k - 1;
				continue;
			}
		}
		if (isalnum(c))
			sup_run = 0;
		EMIT(t[i], i);
	}
	if (pend) {
		s->r[o] = pend == 2 ? '\n' : ' ';
		s->src[o++] = pend_src;
	}
#undef EMIT
	s->r[o] = '\0';
	s->src[o] = len;
	s->rlen = o;
}

void audit_scan_untraced(struct actx *a, struct md_doc *d)
{
	const char *t = d->text;
	size_t len = d->len;
	struct scan s = { a, d, xcalloc(len + 1, 1), xcalloc(len + 1, sizeof(int)),
			  xcalloc(len + 1, sizeof(unsigned short)), xcalloc(len + 1, 1), xcalloc(len + 1, sizeof(size_t)),
			  NULL, 0, NULL, NULL, 0, 0, -1, NULL, NULL, 0, NULL };
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
			/* a '](' with no ')' on its line is no link: its text is read (red team 88) */
			if (j < len && t[j] == ')')
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
	render(&s);
	for (size_t j = 0; j < s.rlen; j++) {
		size_t i = s.src[j];
		if (d->mask[i] == MD_COMMENT || s.skip[i] || !isdigit((unsigned char)s.r[j]))
			continue;
		if (d->mask[i] == MD_FENCE) { /* not the fence lines themselves */
			const struct md_fence *fe = md_fence_at(d, i);
			if (fe && (line_start(t, i) == fe->start || line_end(t, len, i) == fe->end))
				continue;
		}
		scan_number(&s, &j);
	}
	/* a generated value traces its own number unless its sentence names
	 * something of the store no block or claim there is about */
	for (size_t k = 0; k < d->n; k++) {
		const struct md_marker *m = &d->mk[k];
		if (m->kind != MD_OPEN || strcmp(m->name, "value") || !md_attr(m, "experiment"))
			continue;
		long c = md_find_close(d, k);
		struct strbuf why = STRBUF_INIT;
		if (value_names_other(&s, m, c < 0 ? m->end : d->mk[c].end, &why))
			audit_finding(a, md_line_of(d, m->start), "untraced",
				      "the generated value of %s's %s is a number about that row, but %s: generate or "
				      "claim what the sentence names, or say which row the number is (docs/paper.md)",
				      md_attr(m, "experiment"), audit_name_or(md_attr(m, "variant")), strbuf_str(&why));
		strbuf_release(&why);
	}
	free(s.skip);
	free(s.para);
	free(s.col);
	free(s.col_fam);
	free(s.hdr);
	free(s.r);
	free(s.src);
	free(s.names);
	free(s.ptext);
	free(s.pcode);
	free(s.psrc);
}
